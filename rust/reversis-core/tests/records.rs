//! REC-1 … REC-3: records, replay, JSON and MessagePack encodings.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{
    dump_record, load_record, msgpack_decode, msgpack_encode, ErrorCode, Game, Phase, RecordFormat,
};
use serde_json::{json, Value};
use std::time::Instant;

/// Every game state along a few seeded matches, including mid-pass and mid-trick.
fn sample_games() -> Vec<Game> {
    let mut out = Vec::new();
    for (name, seed) in [
        ("hearts-4", 1u64),
        ("hearts-3", 2),
        ("hartenjagen", 3),
        ("omnibus-4", 4),
    ] {
        let mut g = Game::new(rules(name), Some(seed), 0, None).unwrap();
        let mut steps = 0;
        while g.phase() != Phase::Over && steps < 120 {
            out.push(g.clone());
            match g.phase() {
                Phase::Pass => {
                    let s = g.awaiting_pass()[0];
                    let size = g.ruleset().passing().unwrap().size;
                    let cs = g.hand(s).unwrap().to_vec()[..size].to_vec();
                    g.pass_cards(cs, Some(s)).unwrap();
                }
                Phase::Play => {
                    let c = g.legal_plays().last().unwrap();
                    g.play(c, None).unwrap();
                }
                Phase::Moon => g
                    .choose_moon(reversis_core::MoonChoice::AddToOthers, None)
                    .unwrap(),
                _ => unreachable!(),
            }
            steps += 1;
        }
        out.push(g);
    }
    // An unseeded game mid-trick.
    let mut u = Game::new(rules("hearts-7"), None, 3, Some(vec![5, 4, 3, 2, 1, 0, -1])).unwrap();
    out.push(u.clone());
    let deal = reversis_core::deal_from_seed(u.ruleset(), 9, 1, 3).remove(0);
    u.deal(Some(deal.iter().map(|h| h.to_vec()).collect()))
        .unwrap();
    out.push(u.clone());
    out
}

#[test]
fn rec_1_record_shape() {
    let g = Game::new(rules("hearts-4"), Some(42), 0, None).unwrap();
    let r = g.to_record();
    let keys: Vec<&String> = r.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 6);
    assert_eq!(r["format"], "reversis-record");
    assert_eq!(r["version"], 1);
    assert_eq!(r["seed"], 42);
    assert_eq!(
        r["start"],
        json!({"hand_number": 0, "scores": [0, 0, 0, 0]})
    );
    assert_eq!(
        r["ruleset"],
        reversis_core::preset("hearts-4").unwrap().to_value()
    );
    assert_eq!(r["actions"].as_array().unwrap().len(), 1);
    assert_eq!(r["actions"][0]["type"], "deal");
}

#[test]
fn rec_2_replay_equals_the_recorded_game_in_every_phase() {
    let games = sample_games();
    assert!(games
        .iter()
        .any(|g| g.phase() == Phase::Pass && g.awaiting_pass().len() == 2));
    assert!(games
        .iter()
        .any(|g| g.phase() == Phase::Play && !g.trick().is_empty()));
    for g in &games {
        let r = g.to_record();
        let h = Game::from_record(&r).unwrap();
        assert_eq!(&h, g);
        assert_eq!(h.state_json(), g.state_json());
    }
}

#[test]
fn rec_3_json_and_msgpack_round_trips() {
    for g in sample_games() {
        let r = g.to_record();
        for f in [RecordFormat::Json, RecordFormat::MsgPack] {
            let bytes = dump_record(&r, f).unwrap();
            assert_eq!(bytes[0] == b'{', f == RecordFormat::Json);
            let back = load_record(&bytes).unwrap();
            assert_eq!(back, r);
            assert_eq!(Game::from_record(&back).unwrap(), g);
        }
    }
}

#[test]
fn rec_2_replayed_seeded_game_continues_with_the_same_deals() {
    let mut a = Game::new(rules("hearts-5"), Some(5), 0, None).unwrap();
    finish_hand_lowest(&mut a);
    let mut b = Game::from_record(&a.to_record()).unwrap();
    finish_hand_lowest(&mut a);
    finish_hand_lowest(&mut b);
    assert_eq!(a, b);
    assert_eq!(a.actions().last(), b.actions().last());
}

#[test]
fn rec_2_deals_that_differ_from_the_seed_are_invalid() {
    let g = Game::new(rules("hearts-4"), Some(5), 0, None).unwrap();
    let mut r = g.to_record();
    r["seed"] = json!(6);
    assert_eq!(
        Game::from_record(&r).unwrap_err().code,
        ErrorCode::InvalidRecord
    );
}

#[test]
fn rec_2_rejected_actions_make_the_record_invalid() {
    let g = Game::new(rules("hearts-4"), Some(5), 0, None).unwrap();
    let mut r = g.to_record();
    r["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "play", "seat": 0, "card": "2C"}));
    let e = Game::from_record(&r).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidRecord);
}

#[test]
fn rec_1_malformed_records() {
    let g = Game::new(rules("hearts-4"), None, 0, None).unwrap();
    let good = g.to_record();
    let mut cases: Vec<Value> = Vec::new();
    for k in ["format", "version", "ruleset", "seed", "start", "actions"] {
        let mut r = good.clone();
        r.as_object_mut().unwrap().remove(k);
        cases.push(r);
    }
    let mut r = good.clone();
    r["extra"] = json!(1);
    cases.push(r);
    for (k, v) in [
        ("format", json!("reversis")),
        ("version", json!(2)),
        ("ruleset", json!("hearts-4")),
        ("seed", json!(-1)),
        ("seed", json!(1.5)),
        ("seed", json!("1")),
        ("start", json!({"hand_number": 0})),
        ("start", json!({"hand_number": -1, "scores": [0, 0, 0, 0]})),
        ("start", json!({"hand_number": 0, "scores": [0, 0, 0]})),
        (
            "start",
            json!({"hand_number": 0, "scores": [0, 0, 0, 0], "x": 1}),
        ),
        ("actions", json!({})),
        ("actions", json!([{"type": "nap"}])),
    ] {
        let mut r = good.clone();
        r[k] = v;
        cases.push(r);
    }
    cases.push(json!([]));
    for r in cases {
        assert_eq!(
            Game::from_record(&r).unwrap_err().code,
            ErrorCode::InvalidRecord,
            "{r}"
        );
        assert_eq!(
            dump_record(&r, RecordFormat::Json).unwrap_err().code,
            ErrorCode::InvalidRecord
        );
    }
    // A seed beyond 2^63 is a valid u64.
    let mut r = good.clone();
    r["seed"] = json!(u64::MAX);
    let h = Game::from_record(&r).unwrap();
    assert_eq!(h.seed(), Some(u64::MAX));
}

#[test]
fn rec_3_malformed_encodings_are_invalid_record() {
    let g = Game::new(rules("hearts-4"), Some(1), 0, None).unwrap();
    let mp = dump_record(&g.to_record(), RecordFormat::MsgPack).unwrap();
    let js = dump_record(&g.to_record(), RecordFormat::Json).unwrap();
    let mut trailing = mp.clone();
    trailing.push(0xc0);
    let mut deep = vec![0x91u8; 200_000];
    deep.push(0xc0);
    let cases: Vec<Vec<u8>> = vec![
        vec![],
        b"{".to_vec(),
        b"{\"format\": }".to_vec(),
        js[..js.len() - 1].to_vec(),
        mp[..mp.len() - 1].to_vec(),
        trailing,
        deep,
        vec![0xc1],
        vec![0xcb, 0, 0, 0, 0, 0, 0, 0, 0],             // float
        vec![0xc4, 1, 0],                               // bin
        vec![0xd4, 1, 0],                               // fixext
        vec![0x81, 0x01, 0xc0],                         // integer map key
        vec![0xa2, 0xff, 0xfe],                         // invalid utf-8
        vec![0x82, 0xa1, b'a', 0xc0, 0xa1, b'a', 0xc0], // repeated key
        vec![0x90],                                     // an array is not a record
        b" {}".to_vec(),
    ];
    for c in cases {
        let e = load_record(&c).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRecord, "{c:?}");
    }
}

#[test]
fn rec_3_huge_declared_lengths_fail_fast() {
    let t = Instant::now();
    for c in [
        vec![0xdd, 0xff, 0xff, 0xff, 0xff],
        vec![0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, b'a'],
        vec![0xdb, 0xff, 0xff, 0xff, 0xff, b'x'],
        vec![
            0x81, 0xa6, b'f', b'o', b'r', b'm', b'a', b't', 0xdd, 0x7f, 0xff, 0xff, 0xff,
        ],
    ] {
        assert_eq!(load_record(&c).unwrap_err().code, ErrorCode::InvalidRecord);
    }
    assert!(t.elapsed().as_secs_f64() < 1.0);
}

#[test]
fn rec_3_msgpack_integers_use_every_width() {
    for v in [
        json!(0),
        json!(127),
        json!(128),
        json!(255),
        json!(256),
        json!(65_536),
        json!(u64::MAX),
        json!(-1),
        json!(-32),
        json!(-33),
        json!(-129),
        json!(-40_000),
        json!(i64::MIN),
        json!({"s": "x".repeat(40), "a": vec![1; 20], "t": true, "n": null}),
        json!("x".repeat(70_000)),
    ] {
        let b = msgpack_encode(&v).unwrap();
        assert_eq!(msgpack_decode(&b).unwrap(), v);
    }
    assert_eq!(msgpack_encode(&json!(1)).unwrap(), [0x01]);
    assert_eq!(msgpack_encode(&json!(-1)).unwrap(), [0xff]);
    assert_eq!(msgpack_encode(&json!("ab")).unwrap(), [0xa2, b'a', b'b']);
    assert_eq!(msgpack_encode(&json!(null)).unwrap(), [0xc0]);
    assert!(msgpack_encode(&json!(1.5)).is_err());
}
