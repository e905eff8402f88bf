//! OBS-1, OBS-2: what a seat may know.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{Game, Phase};
use serde_json::json;

const KEYS: [&str; 20] = [
    "seat",
    "phase",
    "hand_number",
    "dealer",
    "pass_direction",
    "to_move",
    "awaiting_pass",
    "hand",
    "passed",
    "selected",
    "received",
    "tricks",
    "trick",
    "hearts_broken",
    "count_down",
    "voids",
    "points",
    "scores",
    "legal",
    "moon_taker",
];

#[test]
fn obs_1_has_exactly_the_listed_keys() {
    let g = Game::new(rules("hearts-4"), Some(3), 0, None).unwrap();
    for s in 0..4 {
        let o = g.observation(s).unwrap();
        let mut keys: Vec<&str> = o.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        keys.sort();
        let mut want = KEYS.to_vec();
        want.sort();
        assert_eq!(keys, want);
        assert_eq!(o["seat"], s);
        assert_eq!(o["phase"], "pass");
        assert_eq!(o["pass_direction"], "left");
        assert_eq!(o["to_move"], json!(null));
        assert_eq!(o["awaiting_pass"], json!([0, 1, 2, 3]));
        assert_eq!(o["hand"], json!(g.hand(s).unwrap().to_strings()));
        assert_eq!(o["passed"], json!(null));
        assert_eq!(o["received"], json!(null));
        assert_eq!(o["legal"], json!([]));
        assert_eq!(o["moon_taker"], json!(null));
        assert_eq!(o["points"], json!([0, 0, 0, 0]));
        assert_eq!(o["voids"], json!([[], [], [], []]));
    }
    assert!(g.observation(4).is_err());
}

#[test]
fn obs_1_passing_and_tricks() {
    let mut g = Game::new(rules("hearts-4"), Some(3), 0, None).unwrap();
    let mut passed = Vec::new();
    for s in 0..4 {
        let cs = g.hand(s).unwrap().to_vec()[..3].to_vec();
        passed.push(cs.iter().map(|c| c.to_string()).collect::<Vec<_>>());
        g.pass_cards(cs, Some(s)).unwrap();
        let o = g.observation(s).unwrap();
        assert_eq!(o["passed"], json!(passed[s]));
    }
    // Left: seat 1 received seat 0's cards.
    let o = g.observation(1).unwrap();
    assert_eq!(o["received"], json!(passed[0]));
    assert_eq!(o["awaiting_pass"], json!([]));
    let leader = g.to_move().unwrap();
    let lo = g.observation(leader).unwrap();
    assert_eq!(lo["legal"], json!(["2C"]));
    assert_eq!(lo["to_move"], json!(leader));
    for _ in 0..5 {
        let c = g.legal_plays().first().unwrap();
        g.play(c, None).unwrap();
    }
    let o = g.observation(0).unwrap();
    assert_eq!(o["tricks"].as_array().unwrap().len(), 1);
    let t = &o["tricks"][0];
    assert_eq!(t["leader"], json!(leader));
    assert_eq!(t["cards"][0], json!({"seat": leader, "card": "2C"}));
    assert_eq!(t["cards"].as_array().unwrap().len(), 4);
    assert_eq!(o["trick"].as_array().unwrap().len(), 1);
    assert_eq!(o["trick"][0]["seat"], t["winner"]);
}

#[test]
fn obs_2_hidden_cards_do_not_change_an_observation() {
    // Two deals that differ only in cards exchanged between seats 2 and 3.
    let a = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ];
    let b = [
        a[0],
        a[1],
        "2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ];
    let mut ga = dealt(rules("hearts-4"), 3, &a);
    let mut gb = dealt(rules("hearts-4"), 3, &b);
    assert_eq!(ga.phase(), Phase::Play);
    for s in 0..2 {
        assert_eq!(ga.observation(s).unwrap(), gb.observation(s).unwrap());
    }
    play(&mut ga, "2C");
    play(&mut gb, "2C");
    play(&mut ga, "2D");
    play(&mut gb, "2D");
    for s in 0..2 {
        assert_eq!(ga.observation(s).unwrap(), gb.observation(s).unwrap());
    }
    assert_ne!(ga.observation(2).unwrap(), gb.observation(2).unwrap());
}

#[test]
fn api_3_accessors() {
    let mut g = Game::new(rules("hartenjagen"), Some(10), 0, None).unwrap();
    assert_eq!(g.seed(), Some(10));
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.pass_direction(), None);
    assert!(g.hearts_broken()); // RS-8 none: always broken
    assert_eq!(g.awaiting_pass(), Vec::<usize>::new());
    assert_eq!(g.trick(), vec![]);
    assert_eq!(g.tricks_played(), 0);
    assert_eq!(g.moon_taker(), None);
    assert!(g.winners().is_empty());
    assert_eq!(g.actions().len(), 1);
    let o = g.observation(0).unwrap();
    assert_eq!(o["pass_direction"], json!(null));
    let c = g.legal_plays().first().unwrap();
    assert_eq!(c.to_string(), "7C");
    let seat = g.to_move().unwrap();
    g.play(c, None).unwrap();
    assert_eq!(g.trick(), vec![(seat, c)]);
    let copy = g.clone();
    finish_hand_lowest(&mut g);
    assert_ne!(copy, g);
    assert_eq!(copy.trick().len(), 1);
}
