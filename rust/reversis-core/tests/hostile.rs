//! Hostile input fails fast, in bounded memory, with a typed error (spec/errors.md ERR-6).

use std::time::Instant;

use reversis_core::{
    load_record, preset, ErrorCode, Game, Ruleset, MAX_RECORD_ACTIONS, MAX_RECORD_BYTES,
};
use serde_json::{json, Value};

fn record_code(data: &[u8]) -> ErrorCode {
    load_record(data)
        .expect_err("hostile input is rejected")
        .code()
}

#[test]
fn msgpack_length_prefixes_of_a_gigabyte_are_rejected_before_allocating() {
    for data in [
        &b"\x81\xa1a\xdb\x40\x00\x00\x00abc"[..],  // str32 of 1 GiB
        &b"\x81\xa1a\xdd\x40\x00\x00\x00\x01"[..], // array32 of 1 Gi elements
        &b"\xdf\x40\x00\x00\x00\xa1a\x01"[..],     // map32 of 1 Gi entries
        &b"\x81\xa1a\xdb\xff\xff\xff\xff"[..],     // str32 of 4 GiB, nothing after
    ] {
        assert_eq!(record_code(data), ErrorCode::InvalidRecord);
    }
}

#[test]
fn deeply_nested_json_and_msgpack_are_rejected() {
    let mut json_text = b"{\"a\":".to_vec();
    json_text.extend(std::iter::repeat(b'[').take(100_000));
    json_text.extend(std::iter::repeat(b']').take(100_000));
    json_text.push(b'}');
    assert_eq!(record_code(&json_text), ErrorCode::InvalidRecord);
    let mut msgpack = b"\x81\xa1a".to_vec();
    msgpack.extend(std::iter::repeat(0x91).take(100_000));
    msgpack.push(0xc0);
    assert_eq!(record_code(&msgpack), ErrorCode::InvalidRecord);
    let nested = "[".repeat(100_000) + &"]".repeat(100_000);
    let error = Ruleset::from_json_str(&nested).expect_err("too deep");
    assert_eq!(error.code(), ErrorCode::InvalidRuleset);
}

#[test]
fn a_record_of_a_million_actions_is_rejected_quickly() {
    let game = Game::new(preset("hearts-4").unwrap(), Some(1), 0, None).unwrap();
    let mut record = game.to_record();
    let play = json!({"type": "play", "seat": 0, "card": "2C"});
    record["actions"] = Value::Array(vec![play; 1_000_000]);
    let started = Instant::now();
    let error = Game::from_record(&record).expect_err("over the limit");
    assert_eq!(error.code(), ErrorCode::InvalidRecord);
    assert!(error.message().contains(&MAX_RECORD_ACTIONS.to_string()));
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn an_encoding_over_the_size_limit_is_rejected_unread() {
    let mut data = vec![b' '; MAX_RECORD_BYTES + 1];
    data[0] = b'{';
    assert_eq!(record_code(&data), ErrorCode::InvalidRecord);
}
