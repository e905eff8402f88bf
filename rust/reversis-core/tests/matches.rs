//! DEAL-1 … DEAL-3, PASS-1 … PASS-3, MATCH-1 … MATCH-4.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{ErrorCode, Game, PassDirection, Phase};

const MOON_DEAL: [&str; 4] = [
    "AC QS KS AS 6H 7H 8H 9H TH JH QH KH AH",
    "2C 3C 4C 5C 2H 3H 2S 3S 4S 2D 3D 4D 5D",
    "6C 7C 8C 9C 4H 5H 5S 6S 7S 6D 7D 8D 9D",
    "TC JC QC KC 8S 9S TS JS TD JD QD KD AD",
];
const MOON_PREFS: [&str; 4] = ["AC AS KS QS AH KH QH JH TH 9H 8H 7H 6H", "", "", ""];

fn moon_from(scores: [i64; 4]) -> Game {
    // hearts-computer: 0 to the taker, 26 to each other seat (001 ¶8).
    let mut g = Game::new(rules("hearts-computer"), None, 3, Some(scores.to_vec())).unwrap();
    g.deal(Some(MOON_DEAL.iter().map(|h| cards(h)).collect()))
        .unwrap();
    play_out(&mut g, &MOON_PREFS);
    g
}

#[test]
fn match_2_continues_below_the_target() {
    let g = moon_from([0, 0, 0, 0]);
    assert_eq!(g.scores(), [0, 26, 26, 26]);
    assert_eq!(g.phase(), Phase::Deal);
    assert_eq!(g.hand_number(), 4);
    assert_eq!(g.dealer(), 0);
    assert_eq!(g.pass_direction(), Some(PassDirection::Left));
    assert!(g.winners().is_empty());
}

#[test]
fn match_2_ends_when_a_total_reaches_the_target() {
    // 001 ¶8: when any total reaches 100 the match ends; the lowest total wins.
    let g = moon_from([80, 74, 60, 10]);
    assert_eq!(g.scores(), [80, 100, 86, 36]);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.winners(), [3]);
    assert_eq!(g.to_move(), None);
}

#[test]
fn match_3_ties_share_the_win() {
    let g = moon_from([86, 60, 74, 80]);
    assert_eq!(g.scores(), [86, 86, 100, 106]);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.winners(), [0, 1]);
}

#[test]
fn match_4_every_action_after_the_end_is_match_over() {
    let mut g = moon_from([80, 80, 80, 80]);
    assert_eq!(g.phase(), Phase::Over);
    let before = g.state_json();
    for a in [
        serde_json::json!({"type": "deal", "hands": []}),
        serde_json::json!({"type": "play", "seat": 0, "card": "2C"}),
        serde_json::json!({"type": "pass", "seat": 0, "cards": []}),
        serde_json::json!({"type": "moon", "seat": 0, "choice": "add-to-others"}),
    ] {
        assert_eq!(g.apply_value(&a).unwrap_err().code, ErrorCode::MatchOver);
    }
    assert_eq!(g.state_json(), before);
}

#[test]
fn match_1_starting_totals_and_hand_number() {
    let g = Game::new(rules("hearts-5"), None, 7, Some(vec![1, 2, 3, 4, 5])).unwrap();
    assert_eq!(g.scores(), [1, 2, 3, 4, 5]);
    assert_eq!(g.dealer(), 2); // DEAL-2: 7 mod 5
    assert_eq!(g.pass_direction(), Some(PassDirection::Right)); // cycle L R: 7 mod 2 = 1
    let e = Game::new(rules("hearts-5"), None, 0, Some(vec![0; 4])).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidSetup);
}

#[test]
fn deal_2_the_dealer_rotates_left() {
    // 000 §02: the dealer rotates to the left after each hand.
    for name in ["hearts-5", "hartenjagen", "hearts-7"] {
        let mut g = Game::new(rules(name), Some(11), 0, None).unwrap();
        let n = g.ruleset().players() as u64;
        for h in 0..(n + 2) {
            assert_eq!(g.hand_number(), h);
            assert_eq!(g.dealer() as u64, h % n);
            finish_hand_lowest(&mut g);
            if g.phase() == Phase::Over {
                break;
            }
        }
    }
}

#[test]
fn pass_1_cycles() {
    use PassDirection::*;
    // 002 §Cartões de Passagem: 4 players left, right, across, hold; others left, right.
    let four = [
        Some(Left),
        Some(Right),
        Some(Across),
        Some(Hold),
        Some(Left),
    ];
    for (h, want) in four.iter().enumerate() {
        let g = Game::new(rules("hearts-4"), Some(1), h as u64, None).unwrap();
        assert_eq!(g.pass_direction(), *want);
        let phase = if *want == Some(Hold) {
            Phase::Play
        } else {
            Phase::Pass
        };
        assert_eq!(g.phase(), phase, "hand {h}");
    }
    for h in 0..4u64 {
        let g = Game::new(rules("hearts-3"), Some(1), h, None).unwrap();
        assert_eq!(
            g.pass_direction(),
            Some(if h % 2 == 0 { Left } else { Right })
        );
        assert_eq!(g.phase(), Phase::Pass);
        assert_eq!(g.awaiting_pass(), [0, 1, 2]);
    }
    let g = Game::new(rules("hartenjagen"), Some(1), 0, None).unwrap();
    assert_eq!(g.pass_direction(), None);
    assert_eq!(g.phase(), Phase::Play);
}

fn pass_three_lowest(g: &mut Game) -> Vec<reversis_core::CardSet> {
    let n = g.ruleset().players();
    let mut passed = Vec::new();
    for s in 0..n {
        let cs: reversis_core::CardSet = g.hand(s).unwrap().to_vec()[..3].iter().copied().collect();
        passed.push(cs);
    }
    for (s, cs) in passed.iter().enumerate() {
        g.pass_cards(cs.to_vec(), Some(s)).unwrap();
    }
    passed
}

#[test]
fn pass_3_exchanges_happen_together_in_the_hands_direction() {
    for (h, offset) in [(0u64, 1usize), (1, 3), (2, 2)] {
        let mut g = Game::new(rules("hearts-4"), Some(99), h, None).unwrap();
        let before: Vec<_> = (0..4).map(|s| g.hand(s).unwrap()).collect();
        // PASS-3: the cards leave at once, nobody receives until every seat has passed.
        let first: reversis_core::CardSet = before[0].to_vec()[..3].iter().copied().collect();
        g.pass_cards(first.to_vec(), Some(0)).unwrap();
        assert_eq!(g.hand(0).unwrap().len(), 10);
        assert_eq!(g.awaiting_pass(), [1, 2, 3]);
        assert_eq!(g.received(1).unwrap(), None);
        let mut passed = vec![first];
        for s in 1..4 {
            let cs: reversis_core::CardSet = before[s].to_vec()[..3].iter().copied().collect();
            for x in 0..4 {
                let want = if x < s { 10 } else { 13 };
                assert_eq!(g.hand(x).unwrap().len(), want, "nothing received yet");
            }
            g.pass_cards(cs.to_vec(), Some(s)).unwrap();
            passed.push(cs);
        }
        assert_eq!(g.phase(), Phase::Play);
        for s in 0..4 {
            let t = (s + offset) % 4; // SEAT-1: left s+1, right s−1, across s+2
            let h_t = g.hand(t).unwrap();
            assert_eq!(h_t.len(), 13);
            assert_eq!(h_t.distinct() & passed[s], passed[s], "seat {s} → {t}");
            assert_eq!(g.received(t).unwrap(), Some(passed[s].into()));
            assert_eq!(g.passed(s).unwrap(), Some(passed[s].into()));
        }
        // PLAY-1: the holder of 2C after the pass leads.
        let holder = (0..4)
            .find(|&s| g.hand(s).unwrap().contains(card("2C")))
            .unwrap();
        assert_eq!(g.to_move(), Some(holder));
    }
}

#[test]
fn pass_2_each_seat_submits_once() {
    let mut g = Game::new(rules("hearts-6"), Some(3), 0, None).unwrap();
    let passed = pass_three_lowest(&mut g);
    assert_eq!(passed.len(), 6);
    assert_eq!(g.phase(), Phase::Play);
    for s in 0..6 {
        assert_eq!(g.hand(s).unwrap().len(), 8);
    }
}

#[test]
fn deal_1_unseeded_games_wait_for_a_deal() {
    let mut g = Game::new(rules("hearts-4"), None, 0, None).unwrap();
    assert_eq!(g.phase(), Phase::Deal);
    assert_eq!(g.to_move(), None);
    assert!(g.legal_plays().is_empty());
    assert_eq!(g.deal(None).unwrap_err().code, ErrorCode::NoSeed);
    let hands = reversis_core::deal_from_seed(g.ruleset(), 5, 1, 0).remove(0);
    g.deal(Some(hands.iter().map(|h| h.to_vec()).collect()))
        .unwrap();
    assert_eq!(g.phase(), Phase::Pass);
    for s in 0..4 {
        assert_eq!(g.hand(s).unwrap(), hands[s]);
    }
}

#[test]
fn seeded_games_deal_every_hand_from_the_seed() {
    // SEED-5: the second hand is the next shuffle from the same generator.
    let mut g = Game::new(rules("hearts-5"), Some(77), 0, None).unwrap();
    let deals = reversis_core::deal_from_seed(g.ruleset(), 77, 3, 0);
    for deal in &deals {
        match &g.actions().last().unwrap() {
            reversis_core::Action::Deal { hands } => {
                let want: Vec<_> = deal.iter().map(|h| h.to_vec()).collect();
                assert_eq!(hands, &want);
            }
            a => panic!("expected a deal, got {a}"),
        }
        finish_hand_lowest(&mut g);
    }
}
