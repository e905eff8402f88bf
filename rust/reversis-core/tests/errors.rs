//! ERR-1 … ERR-5: every code, the ERR-4 precedence, and that a rejected action changes nothing.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{Action, Error, ErrorCode, Game, MoonChoice, Phase};
use serde_json::{json, Value};

const QS_DEAL: [&str; 4] = [
    "2C QS 2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "3C 5C 6C 7C 8C 9C TC JC QC KC 3S QD KD",
    "4C AD AH 4S 5S 6S 7S 8S 9S TS JS KS AS",
    "AC 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
];

/// Applies `action` and checks that it fails with `code` and changes nothing (ERR-1).
fn rejected(g: &mut Game, action: Value, code: ErrorCode) -> Error {
    let before = g.state_json();
    let copy = g.clone();
    let e = g.apply_value(&action).unwrap_err();
    assert_eq!(e.code, code, "{action}: {}", e.message);
    assert_eq!(g.state_json(), before, "{action} changed the state");
    assert_eq!(*g, copy);
    // ERR-5: lowercase, naming the problem (quoted input keeps its case).
    assert!(
        e.message.starts_with(|c: char| c.is_ascii_lowercase()),
        "{}",
        e.message
    );
    assert_eq!(e.to_string(), e.message);
    e
}

fn pass_game() -> Game {
    Game::new(rules("hearts-4"), Some(8), 0, None).unwrap()
}

#[test]
fn err_2_invalid_action() {
    let mut g = pass_game();
    let hand0 = g.hand(0).unwrap().to_strings();
    for a in [
        json!("play"),
        json!([]),
        json!({}),
        json!({"type": "bid", "seat": 0}),
        json!({"type": 3, "seat": 0, "card": "2C"}),
        json!({"type": "play", "seat": 0}),
        json!({"type": "play", "seat": 0, "card": "2C", "extra": 1}),
        json!({"type": "play", "seat": 4, "card": "2C"}),
        json!({"type": "play", "seat": -1, "card": "2C"}),
        json!({"type": "play", "seat": "0", "card": "2C"}),
        json!({"type": "play", "seat": 0.0, "card": "2C"}),
        json!({"type": "play", "seat": true, "card": "2C"}),
        json!({"type": "pass", "seat": 0, "cards": "2C 3C 4C"}),
        json!({"type": "pass", "seat": 9, "cards": [hand0[0], hand0[1], hand0[2]]}),
        json!({"type": "moon", "seat": 0, "choice": "both"}),
        json!({"type": "moon", "seat": 0}),
        json!({"type": "deal", "hands": "all"}),
        json!({"type": "deal", "hands": [1, 2]}),
        json!({"type": "deal"}),
    ] {
        rejected(&mut g, a, ErrorCode::InvalidAction);
    }
}

#[test]
fn err_2_invalid_card() {
    let mut g = pass_game();
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": ["2C", "ZZ", "3C"]}),
        ErrorCode::InvalidCard,
    );
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "1H"}),
        ErrorCode::InvalidCard,
    );
    // CARD-4: anything else in a card's place is invalid-card.
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": 12}),
        ErrorCode::InvalidCard,
    );
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": [1, 2, 3]}),
        ErrorCode::InvalidCard,
    );
}

#[test]
fn err_2_invalid_deal() {
    let mut g = Game::new(rules("hearts-5"), None, 0, None).unwrap();
    let good: Vec<Vec<String>> = reversis_core::deal_from_seed(g.ruleset(), 1, 1, 0)[0]
        .iter()
        .map(|h| h.to_strings())
        .collect();
    // A wrong number of hands.
    rejected(
        &mut g,
        json!({"type": "deal", "hands": good[..4]}),
        ErrorCode::InvalidDeal,
    );
    // A hand of the wrong size.
    let mut short = good.clone();
    let moved = short[0].pop().unwrap();
    short[1].push(moved);
    rejected(
        &mut g,
        json!({"type": "deal", "hands": short}),
        ErrorCode::InvalidDeal,
    );
    // A duplicate card.
    let mut dup = good.clone();
    dup[0][0] = dup[1][0].clone();
    rejected(
        &mut g,
        json!({"type": "deal", "hands": dup}),
        ErrorCode::InvalidDeal,
    );
    // A card not in the deck (hearts-5 removes 2C and 2D).
    let mut out = good.clone();
    out[0][0] = "2C".into();
    if good.iter().flatten().any(|c| c == "2C") {
        unreachable!();
    }
    rejected(
        &mut g,
        json!({"type": "deal", "hands": out}),
        ErrorCode::InvalidDeal,
    );
    g.apply_value(&json!({"type": "deal", "hands": good}))
        .unwrap();
    assert_eq!(g.phase(), Phase::Pass);
}

#[test]
fn err_2_no_seed_and_invalid_ruleset_and_unknown_preset() {
    let mut g = Game::new(rules("hearts-4"), None, 0, None).unwrap();
    let before = g.state_json();
    assert_eq!(g.deal(None).unwrap_err().code, ErrorCode::NoSeed);
    assert_eq!(g.state_json(), before);
    assert_eq!(
        reversis_core::Ruleset::from_json_str("{}")
            .unwrap_err()
            .code,
        ErrorCode::InvalidRuleset
    );
    assert_eq!(
        reversis_core::preset("nope").unwrap_err().code,
        ErrorCode::UnknownPreset
    );
}

#[test]
fn err_3_wrong_phase() {
    let mut g = pass_game();
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "2C"}),
        ErrorCode::WrongPhase,
    );
    rejected(
        &mut g,
        json!({"type": "moon", "seat": 0, "choice": "add-to-others"}),
        ErrorCode::WrongPhase,
    );
    let hands: Vec<Vec<String>> = (0..4).map(|s| g.hand(s).unwrap().to_strings()).collect();
    rejected(
        &mut g,
        json!({"type": "deal", "hands": hands}),
        ErrorCode::WrongPhase,
    );
    // A seeded game never waits for a deal: deal() is a deal in the wrong phase.
    assert_eq!(g.deal(None).unwrap_err().code, ErrorCode::WrongPhase);
    let mut p = dealt(rules("hearts-4"), 3, &QS_DEAL);
    rejected(
        &mut p,
        json!({"type": "pass", "seat": 0, "cards": ["2C", "QS", "2H"]}),
        ErrorCode::WrongPhase,
    );
    let mut d = Game::new(rules("hearts-4"), None, 0, None).unwrap();
    rejected(
        &mut d,
        json!({"type": "play", "seat": 0, "card": "2C"}),
        ErrorCode::WrongPhase,
    );
}

#[test]
fn err_3_pass_errors_in_err_4_order() {
    let mut g = pass_game();
    let h: Vec<String> = g.hand(1).unwrap().to_strings();
    let other = g.hand(2).unwrap().to_strings()[0].clone();
    g.apply_value(&json!({"type": "pass", "seat": 1, "cards": [h[0], h[1], h[2]]}))
        .unwrap();
    // already-passed comes before wrong-pass-size.
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 1, "cards": [h[3]]}),
        ErrorCode::AlreadyPassed,
    );
    let h0 = g.hand(0).unwrap().to_strings();
    // wrong-pass-size before duplicate-card.
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": [h0[0], h0[0]]}),
        ErrorCode::WrongPassSize,
    );
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": [h0[0], h0[1], h0[2], h0[3]]}),
        ErrorCode::WrongPassSize,
    );
    // duplicate-card before card-not-held.
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": [other, other, h0[0]]}),
        ErrorCode::DuplicateCard,
    );
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": [h0[0], other, h0[1]]}),
        ErrorCode::CardNotHeld,
    );
    // A card that left with the seat's own pass is no longer held.
    let h1 = g.hand(1).unwrap().to_strings();
    assert!(!h1.contains(&h[0]));
}

#[test]
fn err_3_play_cascade() {
    let mut g = dealt(rules("hearts-4"), 3, &QS_DEAL);
    rejected(
        &mut g,
        json!({"type": "play", "seat": 1, "card": "3C"}),
        ErrorCode::WrongSeat,
    );
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "3C"}),
        ErrorCode::CardNotHeld,
    );
    // card-not-held before must-lead-opening-card.
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "AS"}),
        ErrorCode::CardNotHeld,
    );
    // must-lead-opening-card before hearts-not-broken.
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "2H"}),
        ErrorCode::MustLeadOpeningCard,
    );
    play(&mut g, "2C");
    // must-follow-suit.
    rejected(
        &mut g,
        json!({"type": "play", "seat": 1, "card": "QD"}),
        ErrorCode::MustFollowSuit,
    );
    play_script(&mut g, "3C 4C AC");
    rejected(
        &mut g,
        json!({"type": "play", "seat": 3, "card": "3H"}),
        ErrorCode::HeartsNotBroken,
    );
    let mut b = dealt(
        rules("hearts-4"),
        3,
        &[
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD AH",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH KD",
            "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
        ],
    );
    play(&mut b, "2C");
    rejected(
        &mut b,
        json!({"type": "play", "seat": 1, "card": "QS"}),
        ErrorCode::PointsOnFirstTrick,
    );
}

#[test]
fn err_3_moon_errors() {
    let mut g = dealt(
        rules("hearts-4"),
        3,
        &[
            "AC QS KS AS 6H 7H 8H 9H TH JH QH KH AH",
            "2C 3C 4C 5C 2H 3H 2S 3S 4S 2D 3D 4D 5D",
            "6C 7C 8C 9C 4H 5H 5S 6S 7S 6D 7D 8D 9D",
            "TC JC QC KC 8S 9S TS JS TD JD QD KD AD",
        ],
    );
    play_out(&mut g, &["AC AS KS QS AH KH QH JH TH 9H 8H 7H 6H"]);
    assert_eq!(g.phase(), Phase::Moon);
    rejected(
        &mut g,
        json!({"type": "moon", "seat": 2, "choice": "add-to-others"}),
        ErrorCode::NotMoonTaker,
    );
    // moon-choice-pending comes before wrong-phase and wrong-seat.
    rejected(
        &mut g,
        json!({"type": "play", "seat": 1, "card": "2C"}),
        ErrorCode::MoonChoicePending,
    );
    rejected(
        &mut g,
        json!({"type": "deal", "hands": []}),
        ErrorCode::MoonChoicePending,
    );
    rejected(
        &mut g,
        json!({"type": "pass", "seat": 0, "cards": []}),
        ErrorCode::MoonChoicePending,
    );
    // invalid-action comes before everything.
    rejected(
        &mut g,
        json!({"type": "play", "seat": 7, "card": "2C"}),
        ErrorCode::InvalidAction,
    );
    g.choose_moon(MoonChoice::SubtractFromTaker, None).unwrap();
    assert_eq!(g.phase(), Phase::Deal);
}

#[test]
fn err_4_precedence_before_match_over_only_for_unreadable_actions() {
    let mut g = Game::new(rules("hearts-computer"), None, 3, Some(vec![0, 99, 0, 0])).unwrap();
    g.deal(Some(
        [
            "AC QS KS AS 6H 7H 8H 9H TH JH QH KH AH",
            "2C 3C 4C 5C 2H 3H 2S 3S 4S 2D 3D 4D 5D",
            "6C 7C 8C 9C 4H 5H 5S 6S 7S 6D 7D 8D 9D",
            "TC JC QC KC 8S 9S TS JS TD JD QD KD AD",
        ]
        .iter()
        .map(|h| cards(h))
        .collect(),
    ))
    .unwrap();
    play_out(&mut g, &["AC AS KS QS AH KH QH JH TH 9H 8H 7H 6H"]);
    assert_eq!(g.phase(), Phase::Over);
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "XX"}),
        ErrorCode::InvalidCard,
    );
    rejected(
        &mut g,
        json!({"type": "play", "seat": 5, "card": "2C"}),
        ErrorCode::InvalidAction,
    );
    rejected(
        &mut g,
        json!({"type": "play", "seat": 0, "card": "2C"}),
        ErrorCode::MatchOver,
    );
}

#[test]
fn err_1_every_code_is_distinct_and_kebab_case() {
    let all = ErrorCode::ALL;
    assert_eq!(all.len(), 22);
    for c in all {
        assert_eq!(ErrorCode::from_name(c.as_str()), Some(c));
        assert!(c
            .as_str()
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-'));
    }
    assert!(ErrorCode::InvalidDeal.is_input_error());
    assert!(!ErrorCode::HeartsNotBroken.is_input_error());
    let e: Box<dyn std::error::Error> = Box::new(Error::new(ErrorCode::NoSeed, "no seed"));
    assert_eq!(e.to_string(), "no seed");
}

#[test]
fn act_1_actions_print_canonically() {
    let a = Action::from_value(&json!({"type": "pass", "seat": 1, "cards": ["q♠", "10h", "2c"]}))
        .unwrap();
    assert_eq!(
        a.to_value(),
        json!({"type": "pass", "seat": 1, "cards": ["2C", "TH", "QS"]})
    );
    let mut g = pass_game();
    let h: Vec<String> = g.hand(2).unwrap().to_strings();
    let lower: Vec<String> = vec![h[2].to_lowercase(), h[0].clone(), h[1].clone()];
    g.apply_value(&json!({"type": "pass", "seat": 2, "cards": lower}))
        .unwrap();
    assert_eq!(
        g.actions().last().unwrap().to_value(),
        json!({"type": "pass", "seat": 2, "cards": [h[0], h[1], h[2]]})
    );
}

#[test]
fn err_codes_are_listed_in_the_order_of_the_tables_of_errors_md() {
    // API-6: `ErrorCode::ALL` is the spec's list, table order, read from spec/errors.md.
    let text = include_str!("../../../spec/errors.md");
    let mut listed = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("| `") {
            if let Some(code) = rest.split('`').next() {
                listed.push(code.to_string());
            }
        }
    }
    let ours: Vec<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect();
    assert_eq!(ours, listed);
    assert_eq!(ErrorCode::ALL.last(), Some(&ErrorCode::NothingToUndo));
    assert!(!ErrorCode::NothingToUndo.is_input_error());
}
