//! PLAY-1 … PLAY-8 and SCORE-1: leads, following, the first-trick ban, breaking, winners.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{ErrorCode, Phase};
use serde_json::json;

// A hearts-4 deal for hand 3 (no passing, PASS-1: the fourth hand holds).
// Trick 1: 2C 3C 4C AC (seat 3 wins); trick 2: 2S QS 3S 4S (seat 0 wins QS).
const QS_DEAL: [&str; 4] = [
    "2C QS 2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "3C 5C 6C 7C 8C 9C TC JC QC KC 3S QD KD",
    "4C AD AH 4S 5S 6S 7S 8S 9S TS JS KS AS",
    "AC 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
];

#[test]
fn play_1_the_holder_of_the_opening_card_leads_it() {
    let mut g = dealt(rules("hearts-4"), 3, &QS_DEAL);
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.legal_plays().to_strings(), ["2C"]);
    let e = g.play(card("2D"), Some(0)).unwrap_err();
    assert_eq!(e.code, ErrorCode::MustLeadOpeningCard);
}

#[test]
fn play_1_opening_lead_is_3c_with_five_players() {
    // 002 §Truques slip settled by D-1: the five-player deck removes 2C, so 3C is led.
    let hands = [
        "4C 5C 6C 7C 8C 9C TC JC QC KC",
        "AC 3D 4D 5D 6D 7D 8D 9D TD JD",
        "QD KD AD 2H 3H 4H 5H 6H 7H 8H",
        "9H TH JH QH KH AH 2S 3S 4S 5S",
        "3C 6S 7S 8S 9S TS JS QS KS AS",
    ];
    // Hand 0 of hearts-5 passes left: seat 4 passes 3C to seat 0, which then leads it.
    let mut g = dealt(rules("hearts-5"), 0, &hands);
    assert_eq!(g.phase(), Phase::Pass);
    g.pass_cards(cards("4C 5C 6C"), Some(0)).unwrap();
    g.pass_cards(cards("3D 4D 5D"), Some(1)).unwrap();
    g.pass_cards(cards("QD KD AD"), Some(2)).unwrap();
    g.pass_cards(cards("2S 3S 4S"), Some(3)).unwrap();
    g.pass_cards(cards("3C 6S 7S"), Some(4)).unwrap();
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.to_move(), Some(0));
    assert_eq!(g.legal_plays().to_strings(), ["3C"]);
    play(&mut g, "3C");
}

#[test]
fn play_4_follow_suit() {
    let mut g = dealt(rules("hearts-4"), 3, &QS_DEAL);
    play(&mut g, "2C");
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(
        g.legal_plays().to_strings(),
        ["3C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    );
    let e = g.play(card("QD"), Some(1)).unwrap_err();
    assert_eq!(e.code, ErrorCode::MustFollowSuit);
    play(&mut g, "3C");
    play(&mut g, "4C");
    play(&mut g, "AC");
    // PLAY-7: the highest club wins and leads next.
    assert_eq!(g.tricks_played(), 1);
    assert_eq!(g.tricks()[0].winner, Some(3));
    assert_eq!(g.to_move(), Some(3));
}

#[test]
fn play_5_first_trick_ban_and_d_2_fallback() {
    // Seat 1 has no clubs and holds hearts, QS and safe cards; seat 2 holds only hearts.
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD AH",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH KD",
        "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    ];
    let mut g = dealt(rules("hearts-4"), 3, &hands);
    play(&mut g, "2C");
    // Seat 1 may not discard QS or a heart while it holds a card worth no points.
    assert_eq!(
        g.legal_plays().to_strings(),
        ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"]
    );
    for c in ["QS", "AH"] {
        let e = g.play(card(c), Some(1)).unwrap_err();
        assert_eq!(e.code, ErrorCode::PointsOnFirstTrick, "{c}");
    }
    play(&mut g, "QD");
    // Seat 2 still holds KD: it must discard it rather than a heart.
    assert_eq!(g.legal_plays().to_strings(), ["KD"]);
    play(&mut g, "KD");
    play(&mut g, "2S");
    // Second trick: the ban is over; seat 0 won and leads a club.
    play(&mut g, "3C");
    play(&mut g, "QS");
    assert_eq!(g.points()[1], 0);
}

#[test]
fn play_5_all_point_cards_allow_any_card() {
    // 001 ¶7's exemption / D-2: a hand made entirely of point cards may discard points.
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    ];
    let mut g = dealt(rules("hearts-4"), 3, &hands);
    play(&mut g, "2C");
    assert_eq!(g.legal_plays().len(), 13);
    play(&mut g, "QS");
    play(&mut g, "2D");
    play(&mut g, "2S");
    assert_eq!(g.points()[0], 13);
}

#[test]
fn play_5_no_ban_in_hartenjagen() {
    // 000 §03: no special ban on discarding penalties on the first trick.
    let hands = [
        "7C 8C 9C TC JC QC KC AC",
        "QS 7D 8D 9D TD JD QD KD",
        "AD 7H 8H 9H TH JH QH KH",
        "AH 7S 8S 9S TS JS KS AS",
    ];
    let mut g = dealt(rules("hartenjagen"), 0, &hands);
    assert_eq!(g.phase(), Phase::Play); // no passing (000 §02)
    play(&mut g, "7C");
    assert!(g.legal_plays().contains(card("QS")));
    play(&mut g, "QS");
    play(&mut g, "7H");
    play(&mut g, "AH");
    assert_eq!(g.points(), [7, 0, 0, 0]);
}

#[test]
fn play_6_qs_breaks_hearts_under_heart_or_qs() {
    let mut g = dealt(rules("hearts-4"), 3, &QS_DEAL);
    play_script(&mut g, "2C 3C 4C AC");
    // Seat 3 holds 2S and hearts; hearts are unbroken, so it must lead 2S.
    assert!(!g.hearts_broken());
    assert_eq!(g.legal_plays().to_strings(), ["2S"]);
    let e = g.play(card("3H"), Some(3)).unwrap_err();
    assert_eq!(e.code, ErrorCode::HeartsNotBroken);
    play_script(&mut g, "2S QS 3S 4S");
    assert!(g.hearts_broken());
    assert_eq!(g.points(), [13, 0, 0, 0]);
    assert_eq!(g.to_move(), Some(0));
    // 002 §Truques: QS breaks hearts, so seat 0 may lead 2H.
    assert!(g.legal_plays().contains(card("2H")));
    play(&mut g, "2H");
}

#[test]
fn play_6_qs_does_not_break_hearts_under_heart() {
    // 001 ¶11: only an actual heart breaks hearts, not QS.
    let mut g = dealt(rules("hearts-computer"), 3, &QS_DEAL);
    play_script(&mut g, "2C 3C 4C AC 2S QS 3S 4S");
    assert!(!g.hearts_broken());
    assert_eq!(g.to_move(), Some(0));
    assert!(!g.legal_plays().contains(card("2H")));
    let e = g.play(card("2H"), Some(0)).unwrap_err();
    assert_eq!(e.code, ErrorCode::HeartsNotBroken);
    play(&mut g, "2D");
}

#[test]
fn play_6_a_hand_of_only_hearts_may_lead_hearts() {
    let hands = [
        "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD AH",
        "3C 4C 5C 6C 7C 8C 9C TC JC QC KC KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    ];
    for name in ["hearts-computer", "hearts-4"] {
        let mut g = dealt(rules(name), 3, &hands);
        play(&mut g, "2C");
        play(&mut g, "3C");
        // Seat 2 is void in clubs and may not discard QS on the first trick.
        assert!(!g.legal_plays().contains(card("QS")));
        play(&mut g, "2S");
        play(&mut g, "AC");
        assert!(!g.hearts_broken());
        assert_eq!(g.to_move(), Some(3));
        assert_eq!(g.legal_plays().len(), 12);
        play(&mut g, "3H");
        assert!(g.hearts_broken());
        let obs = g.observation(1).unwrap();
        assert_eq!(obs["voids"], json!([[], [], ["C"], []]));
    }
}

#[test]
fn play_2_free_lead_left_of_dealer() {
    // D-9: with opening_card null the seat left of the dealer leads any card PLAY-6 allows;
    // QS may be led at any time (PLAY-6) and the ban governs following cards only.
    let r = modified("hearts-4", |o| o["opening_card"] = json!(null));
    let mut g = dealt(r, 3, &QS_DEAL);
    assert_eq!(g.dealer(), 3);
    assert_eq!(g.to_move(), Some(0));
    let legal = g.legal_plays();
    assert!(legal.contains(card("QS")));
    assert!(legal.contains(card("2D")));
    assert!(!legal.contains(card("2H")));
    play(&mut g, "QS");
    assert!(g.hearts_broken());
}

#[test]
fn score_1_hartenjagen_section_06_trick() {
    // 000 §06: A leads K♣, B follows J♣, C (no clubs) discards Q♠, D follows 8♣: K♣ wins,
    // Q♠ is no trump, A takes 2 + 5 = 7.
    let hands = [
        "AC KC 7D 8D 9D TD JD QD",
        "9C TC JC KD AD 7S 8S 9S",
        "QS TS JS KS AS 7H 8H 9H",
        "7C 8C QC TH JH QH KH AH",
    ];
    let mut g = dealt(rules("hartenjagen"), 0, &hands);
    assert_eq!(g.to_move(), Some(3)); // the holder of 7C leads it (000 §02)
    play_script(&mut g, "7C AC 9C TS");
    assert_eq!(g.tricks()[0].winner, Some(0));
    assert_eq!(g.points(), [0, 0, 0, 0]);
    play(&mut g, "K♣");
    play(&mut g, "J♣");
    play(&mut g, "Q♠");
    play(&mut g, "8♣");
    let t = g.tricks()[1];
    assert_eq!(t.winner, Some(0));
    assert_eq!(t.points, 7);
    assert_eq!(g.points(), [7, 0, 0, 0]);
}

#[test]
fn play_7_off_suit_cards_never_win() {
    let mut g = dealt(rules("hearts-4"), 3, &QS_DEAL);
    play_script(&mut g, "2C 3C 4C AC 2S QS 3S 4S");
    // Seat 0 leads 2D; seat 1 follows QD; seat 2 AD; seat 3 (void) discards KH.
    play_script(&mut g, "2D QD AD KH");
    assert_eq!(g.tricks()[2].winner, Some(2));
    assert_eq!(g.points(), [13, 0, 1, 0]);
}

#[test]
fn play_8_legal_sets_are_sorted_and_never_empty() {
    for seed in 0..40u64 {
        for name in reversis_core::preset_names() {
            let mut g = reversis_core::Game::new(rules(name), Some(seed), seed, None).unwrap();
            finish_hand_lowest(&mut g);
            assert_eq!(g.hand_scores().len(), 1);
        }
    }
}
