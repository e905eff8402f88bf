//! CARD-1 … CARD-5: ids, canonical strings, accepted notations.
#![allow(clippy::needless_range_loop)]

use reversis_core::{card_id, parse_card, Card, CardSet, ErrorCode};

#[test]
fn card_2_ids_follow_suit_then_rank() {
    // CARD-2: "2C is 0, AC is 12, 2D is 13, 2H is 26, QS is 49, AS is 51".
    for (s, id) in [
        ("2C", 0),
        ("AC", 12),
        ("2D", 13),
        ("2H", 26),
        ("QS", 49),
        ("AS", 51),
    ] {
        assert_eq!(card_id(s).unwrap(), id, "{s}");
        assert_eq!(Card::new(id).to_string(), s);
    }
}

#[test]
fn card_3_canonical_strings() {
    for id in 0..52u8 {
        let c = Card::new(id);
        let s = c.to_string();
        assert_eq!(s.len(), 2);
        assert_eq!(Card::parse(&s).unwrap(), c);
    }
    assert_eq!(parse_card("TH").unwrap(), "TH");
}

#[test]
fn card_4_accepts_lowercase_ten_symbols_and_whitespace() {
    let cases = [
        ("qs", "QS"),
        ("th", "TH"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("Q♠", "QS"),
        ("10♥", "TH"),
        ("A♣", "AC"),
        ("K♦", "KD"),
        ("Q♤", "QS"),
        ("2♡", "2H"),
        ("3♢", "3D"),
        ("4♧", "4C"),
        ("  7C \n", "7C"),
        ("\tj♠", "JS"),
    ];
    for (input, want) in cases {
        assert_eq!(parse_card(input).unwrap(), want, "{input:?}");
    }
}

#[test]
fn card_4_rejects_everything_else_with_invalid_card() {
    for bad in [
        "", " ", "1H", "11H", "1", "Q", "S", "QX", "Q S", "QSS", "SQ", "♠Q", "0H", "1OH", "10",
        "T10", "Q♠️", "QS,", "ZS", "2CC",
    ] {
        let e = Card::parse(bad).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidCard, "{bad:?}");
        assert_eq!(e.code.as_str(), "invalid-card");
        assert!(
            e.message.contains('\''),
            "message quotes input: {}",
            e.message
        );
    }
}

#[test]
fn card_2_sets_iterate_in_sorted_order() {
    let s: CardSet = ["AS", "2H", "2C", "KD", "QS"]
        .iter()
        .map(|c| c.parse::<Card>().unwrap())
        .collect();
    assert_eq!(s.to_strings(), ["2C", "KD", "2H", "QS", "AS"]);
    assert_eq!(s.bits(), 1 | (1 << 24) | (1 << 26) | (1 << 49) | (1 << 51));
    assert_eq!(s.nth(2).unwrap().to_string(), "2H");
    assert_eq!(s.last().unwrap().to_string(), "AS");
}

#[test]
fn card_1_suits_and_ranks() {
    let c = Card::parse("QS").unwrap();
    assert_eq!(c.suit(), reversis_core::Suit::Spades);
    assert_eq!(c.rank(), 10);
    assert!(Card::parse("AH").unwrap().rank() > Card::parse("KH").unwrap().rank());
}
