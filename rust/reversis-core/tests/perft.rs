//! PERFT-1 … PERFT-5: counts worked out by hand on tiny rulesets, and the relations between
//! perft, divide and the two units on the presets.

mod common;

use common::*;
use reversis_core::{preset, preset_names, ErrorCode, Game, PerftUnit, Phase, Ruleset};
use serde_json::json;

use PerftUnit::{Decisions, Tricks};

/// Three seats, Q K A of each suit (4 cards each), no pass, a free lead (PLAY-2), hearts
/// always broken, no first-trick ban: the seat left of the dealer leads anything.
fn tiny() -> Ruleset {
    Ruleset::from_value(&json!({
        "name": "tiny-3", "title": "perft test", "sources": ["D-9"], "players": 3,
        "deck": {"lowest_rank": "Q", "removed": []}, "passing": null, "opening_card": null,
        "first_trick_ban": false, "hearts_breaking": "none", "card_points": {"QS": 1},
        "moon": null, "target": 100
    }))
    .unwrap()
}

// Seat 1 leads (left of dealer 0). A diamond lead: seat 2 holds none (4 discards), seat 0 must
// follow with QD (1). A heart lead: seat 2 must play AH (1), seat 0 holds none (4 discards).
const TINY_DEAL: [&str; 3] = ["QC KC AC QD", "KD AD QH KH", "AH QS KS AS"];

#[test]
fn perft_of_the_tiny_deal_by_hand() {
    let g = dealt(tiny(), 0, &TINY_DEAL);
    let counts: Vec<u64> = (0..=4).map(|d| g.perft(d, Decisions).unwrap()).collect();
    // 1; 4 leads; 4 + 4 + 1 + 1; each lead then 4 (4×1 or 1×4); each of those 16 then the
    // winner's 3 cards (KD or AD wins with seat 1 to lead again, AH with seat 2).
    assert_eq!(counts, [1, 4, 10, 16, 48]);
    // One trick is the three decisions of the trick that starts here.
    assert_eq!(g.perft(1, Tricks).unwrap(), 16);
    assert_eq!(g.perft(0, Tricks).unwrap(), 1);
}

#[test]
fn divide_keys_and_counts_by_hand() {
    let g = dealt(tiny(), 0, &TINY_DEAL);
    let divide = g.divide(3, Decisions).unwrap();
    let want: Vec<(String, u64)> = [("KD", 4), ("AD", 4), ("QH", 4), ("KH", 4)]
        .iter()
        .map(|(k, n)| (k.to_string(), *n))
        .collect();
    assert_eq!(divide, want);
    // Divide at depth 2: a diamond lead leaves seat 2's four discards, a heart lead AH alone.
    let two: Vec<u64> = g
        .divide(2, Decisions)
        .unwrap()
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(two, [4, 4, 1, 1]);
    // In the tricks unit the first decisions' counts are those of the trick's sequences.
    assert_eq!(g.divide(1, Tricks).unwrap(), want);
}

#[test]
fn a_sequence_that_ends_the_hand_of_an_unseeded_game_counts_once() {
    let mut g = dealt(tiny(), 0, &TINY_DEAL);
    // Three tricks of plays; the last trick is three forced cards.
    play_script(&mut g, "KD AH QD  AD QS QC  KH KS KC");
    assert_eq!(g.tricks_played(), 3);
    assert_eq!(g.perft(3, Decisions).unwrap(), 1);
    // The hand ends after three decisions and nobody decides in phase deal (PERFT-2).
    assert_eq!(g.perft(10, Decisions).unwrap(), 1);
    assert_eq!(g.perft(5, Tricks).unwrap(), 1);
    play_script(&mut g, "QH AS AC");
    assert_eq!(g.phase(), Phase::Deal);
    assert_eq!(
        g.perft(1, Decisions).unwrap_err().code,
        ErrorCode::WrongPhase
    );
    assert_eq!(
        g.perft(0, Decisions).unwrap_err().code,
        ErrorCode::WrongPhase
    );
}

#[test]
fn the_depth_is_bounded_and_divide_needs_one() {
    let g = dealt(tiny(), 0, &TINY_DEAL);
    assert_eq!(
        g.perft(33, Decisions).unwrap_err().code,
        ErrorCode::InvalidSetup
    );
    assert_eq!(
        g.divide(0, Tricks).unwrap_err().code,
        ErrorCode::InvalidSetup
    );
    assert_eq!(
        PerftUnit::from_name("plies").unwrap_err().code,
        ErrorCode::InvalidSetup
    );
    assert_eq!(PerftUnit::from_name("tricks").unwrap(), Tricks);
    // A stop asked for at once gives no count.
    let g = Game::new(preset("hearts-4").unwrap(), Some(1), 0, None).unwrap();
    assert_eq!(g.perft_until(4, Decisions, &mut || true).unwrap(), None);
}

/// Four seats, two packs of aces (8 cards, 2 each), a pass of one card to the left.
fn two_pack_aces() -> Ruleset {
    Ruleset::from_value(&json!({
        "name": "aces-4", "title": "perft test", "sources": ["D-15"], "players": 4,
        "deck": {"lowest_rank": "A", "removed": [], "packs": 2},
        "passing": {"cycle": ["left"], "size": 1}, "opening_card": null,
        "first_trick_ban": false, "hearts_breaking": "none", "card_points": {"AH": 1},
        "moon": null, "target": 100
    }))
    .unwrap()
}

#[test]
fn a_pass_of_two_copies_of_one_card_is_one_decision() {
    // Seats 0 and 3 hold two copies of one card (one choice each), seats 1 and 2 two cards.
    let g = dealt(two_pack_aces(), 0, &["AC AC", "AD AH", "AD AH", "AS AS"]);
    assert_eq!(g.phase(), Phase::Pass);
    let counts: Vec<u64> = (1..=4).map(|d| g.perft(d, Decisions).unwrap()).collect();
    assert_eq!(counts, [1, 2, 4, 4]);
    let keys: Vec<String> = g
        .divide(1, Decisions)
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(keys, ["AC"]);
    // After the exchange seat 1 (left of dealer 0) leads either of its two cards, and every
    // other seat's two cards are its own choice while hearts are always broken and suits differ.
    assert_eq!(g.perft(5, Decisions).unwrap(), 4 * 2);
}

#[test]
fn a_pass_is_a_whole_set_whatever_was_selected() {
    let passing = |r: &mut serde_json::Map<String, serde_json::Value>| {
        r.insert("passing".into(), json!({"cycle": ["left"], "size": 2}));
    };
    let mut v = tiny().to_value();
    passing(v.as_object_mut().unwrap());
    let mut g = dealt(Ruleset::from_value(&v).unwrap(), 0, &TINY_DEAL);
    // C(4, 2) passes for seat 0, then as many for seat 1.
    assert_eq!(g.perft(1, Decisions).unwrap(), 6);
    assert_eq!(g.perft(2, Decisions).unwrap(), 36);
    let before = g.divide(1, Decisions).unwrap();
    assert_eq!(before[0].0, "QC+KC");
    // A selection toward the pass (ACT-2) does not narrow the decision: the pass replaces it.
    g.apply_action(52 + card("AC").id() as u16, None).unwrap();
    assert_eq!(g.legal_actions(None).unwrap().len(), 3);
    assert_eq!(g.divide(1, Decisions).unwrap(), before);
}

#[test]
fn sum_of_divide_is_perft_and_units_agree_on_every_preset() {
    for name in preset_names() {
        let rules = preset(name).unwrap();
        // Hand 0 of seed 7, each seat passing the first of its passes in divide order.
        let mut g = Game::new(rules.clone(), Some(7), 0, None).unwrap();
        while g.phase() == Phase::Pass {
            let (_, first) = g.perft_decisions().remove(0);
            g.apply(&first).unwrap();
        }
        assert_eq!(g.phase(), Phase::Play, "{name}");
        let n = rules.players() as u64;
        let total = g.perft(3, Decisions).unwrap();
        let parts: u64 = g.divide(3, Decisions).unwrap().iter().map(|(_, c)| c).sum();
        assert_eq!(parts, total, "{name}");
        // At the start of the first trick one trick is exactly `players` decisions.
        assert_eq!(
            g.perft(1, Tricks).unwrap(),
            g.perft(n, Decisions).unwrap(),
            "{name}"
        );
        let trick_parts: u64 = g.divide(1, Tricks).unwrap().iter().map(|(_, c)| c).sum();
        assert_eq!(trick_parts, g.perft(1, Tricks).unwrap(), "{name}");
    }
}

#[test]
fn perft_matches_a_walk_through_the_game_api() {
    // The same count found by applying every legal action id to copies of the game.
    fn walk(g: &Game, depth: u64) -> u64 {
        if depth == 0 || g.to_act().is_none() {
            return 1;
        }
        let ids = g.legal_actions(None).unwrap();
        ids.iter()
            .map(|&id| {
                let mut child = g.clone();
                child.apply_action(id, None).unwrap();
                walk(&child, depth - 1)
            })
            .sum()
    }
    for (name, seed, hand) in [
        ("hearts-4", 3, 3),
        ("hartenjagen", 5, 0),
        ("cancellation-8", 2, 0),
    ] {
        let g = Game::new(preset(name).unwrap(), Some(seed), hand, None).unwrap();
        assert_eq!(g.phase(), Phase::Play, "{name}");
        assert_eq!(g.perft(4, Decisions).unwrap(), walk(&g, 4), "{name}");
    }
}
