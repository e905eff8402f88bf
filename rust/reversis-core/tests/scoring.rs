//! SCORE-1 … SCORE-4: hand points, the pit and the moon, negative cards (D-8).
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{ErrorCode, Game, MoonChoice, Phase};
use serde_json::json;

// Hartenjagen (000): seat 0 captures every point card but seat 2 wins the last trick.
const PIT_DEAL: [&str; 4] = [
    "AC AH KH QH JH TH 9H 7D",
    "7C 8H 8D 9D TD 7S 8S 9S",
    "8C 7H JD QD KD AD TS JS",
    "9C TC JC QC KC QS KS AS",
];
const PIT_PLAY: &str = "7C 8C JC AC \
    AH 8H 7H QS \
    KH 7S TS 9C \
    QH 8S JS TC \
    JH 9S JD QC \
    TH 8D QD KC \
    9H 9D KD KS \
    7D TD AD AS";

#[test]
fn score_2_the_pit_scores_0_and_15_each() {
    // 000 §04: all point cards → 0 for the taker, 15 for each opponent, 45 on the table;
    // 000 §FAQ: winning every trick is not required.
    let mut g = dealt(rules("hartenjagen"), 0, &PIT_DEAL);
    play_script(&mut g, PIT_PLAY);
    assert_eq!(g.tricks().len(), 0, "a new hand has begun");
    assert_eq!(g.hand_scores(), [vec![0, 15, 15, 15]]);
    assert_eq!(g.hand_scores()[0].iter().sum::<i64>(), 45);
    assert_eq!(g.scores(), [0, 15, 15, 15]);
    assert_eq!(g.phase(), Phase::Deal);
    assert_eq!(g.hand_number(), 1);
    assert_eq!(g.dealer(), 1);
}

#[test]
fn score_2_hearts_alone_are_not_a_pit() {
    // 000 §04 "Só as copas não bastam": seat 0 takes every heart and JC but not QS.
    let script = PIT_PLAY
        .replace("AH 8H 7H QS", "AH 8H 7H AS")
        .replace("7D TD AD AS", "7D TD AD QS");
    let mut g = dealt(rules("hartenjagen"), 0, &PIT_DEAL);
    play_script(&mut g, &script);
    // Seat 0: 8 hearts + JC = 10; seat 2 wins the last trick with QS = 5.
    assert_eq!(g.hand_scores(), [vec![10, 0, 5, 0]]);
}

// hearts-4 hand 3 (no pass): seat 0 wins every trick (moon) when the others play low.
const MOON_DEAL: [&str; 4] = [
    "AC QS KS AS 6H 7H 8H 9H TH JH QH KH AH",
    "2C 3C 4C 5C 2H 3H 2S 3S 4S 2D 3D 4D 5D",
    "6C 7C 8C 9C 4H 5H 5S 6S 7S 6D 7D 8D 9D",
    "TC JC QC KC 8S 9S TS JS TD JD QD KD AD",
];
const MOON_PREFS: [&str; 4] = ["AC AS KS QS AH KH QH JH TH 9H 8H 7H 6H", "", "", ""];

fn moon_game(name: &str) -> Game {
    let mut g = dealt(rules(name), 3, &MOON_DEAL);
    play_out(&mut g, &MOON_PREFS);
    g
}

#[test]
fn score_3_taker_choice_waits_for_the_taker() {
    let mut g = moon_game("hearts-4");
    assert_eq!(g.phase(), Phase::Moon);
    assert_eq!(g.points(), [26, 0, 0, 0]);
    assert_eq!(g.moon_taker(), Some(0));
    assert_eq!(g.to_move(), Some(0));
    assert!(g.hand_scores().is_empty());
    // SCORE-3: only the taker chooses; anything else is moon-choice-pending.
    let e = g
        .apply_value(&json!({"type": "moon", "seat": 1, "choice": "add-to-others"}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::NotMoonTaker);
    let e = g
        .apply_value(&json!({"type": "play", "seat": 0, "card": "2C"}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::MoonChoicePending);
    g.choose_moon(MoonChoice::AddToOthers, None).unwrap();
    // 002 §Pontuação: add 26 to every other player.
    assert_eq!(g.hand_scores(), [vec![0, 26, 26, 26]]);
    assert_eq!(g.phase(), Phase::Deal);
}

#[test]
fn score_3_taker_may_subtract_from_itself() {
    let mut g = moon_game("hearts-4");
    g.apply_value(&json!({"type": "moon", "seat": 0, "choice": "subtract-from-taker"}))
        .unwrap();
    // 002 §Pontuação: subtract 26 from the taker; SCORE-4: totals may go below zero.
    assert_eq!(g.hand_scores(), [vec![-26, 0, 0, 0]]);
    assert_eq!(g.scores(), [-26, 0, 0, 0]);
}

#[test]
fn score_2_add_to_others_needs_no_choice() {
    // 001 ¶8: 0 for the taker and 26 for each opponent, no choice.
    let g = moon_game("hearts-computer");
    assert_eq!(g.hand_scores(), [vec![0, 26, 26, 26]]);
}

#[test]
fn score_2_subtract_from_taker() {
    let r = modified("hearts-4", |o| {
        o["moon"] = json!({"scoring": "subtract-from-taker", "bonus": 26})
    });
    let mut g = dealt(r, 3, &MOON_DEAL);
    play_out(&mut g, &MOON_PREFS);
    assert_eq!(g.hand_scores(), [vec![-26, 0, 0, 0]]);
}

#[test]
fn score_2_no_moon_rule_scores_points_as_taken() {
    let r = modified("hearts-4", |o| o["moon"] = json!(null));
    let mut g = dealt(r, 3, &MOON_DEAL);
    play_out(&mut g, &MOON_PREFS);
    assert_eq!(g.hand_scores(), [vec![26, 0, 0, 0]]);
}

#[test]
fn d_8_omnibus_jd_counts_for_the_moon_taker() {
    // The taker also captured JD (−10): it keeps counting, untouched by the bonus.
    let mut g = moon_game("omnibus-4");
    assert_eq!(g.points(), [16, 0, 0, 0]);
    let mut h = g.clone();
    g.choose_moon(MoonChoice::AddToOthers, None).unwrap();
    assert_eq!(g.hand_scores(), [vec![-10, 26, 26, 26]]);
    h.choose_moon(MoonChoice::SubtractFromTaker, None).unwrap();
    assert_eq!(h.hand_scores(), [vec![-36, 0, 0, 0]]);
}

#[test]
fn d_8_omnibus_jd_is_not_needed_for_a_moon() {
    // Seat 0 swaps 6H for 2D and loses the last trick, which holds JD, to seat 3.
    let deal = [
        "AC QS KS AS 7H 8H 9H TH JH QH KH AH 2D",
        "2C 3C 4C 5C 2H 3H 6H 2S 3S 4S 3D 4D 5D",
        MOON_DEAL[2],
        MOON_DEAL[3],
    ];
    let prefs = [MOON_PREFS[0], "", "", "TC QC KC TS TD QD KD AD JC JS 9S 8S"];
    let mut g = dealt(rules("omnibus-4"), 3, &deal);
    play_out(&mut g, &prefs);
    assert_eq!(g.tricks().last().unwrap().winner, Some(3));
    assert_eq!(g.points(), [26, 0, 0, -10]);
    assert_eq!(g.phase(), Phase::Moon);
    g.choose_moon(MoonChoice::AddToOthers, None).unwrap();
    assert_eq!(g.hand_scores(), [vec![0, 26, 26, 16]]);
}

#[test]
fn score_1_ordinary_hand_adds_up_to_the_point_total() {
    // 002 §Pontuação: hearts 1 each and QS 13 make 26 per hand.
    for seed in 0..30 {
        let mut g = Game::new(rules("hearts-4"), Some(seed), 0, None).unwrap();
        finish_hand_lowest(&mut g);
        let row = &g.hand_scores()[0];
        let sum: i64 = row.iter().sum();
        assert!(sum == 26 || sum == 78, "{row:?}");
    }
}
