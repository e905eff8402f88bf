//! Action ids (ACT-2, ACT-3), events (EVT-1, EVT-2), undo (API-8) and cheap copies.

mod common;

use common::*;
use reversis_core::{
    action_from_ids, action_ids, action_label, deal_from_seed, Action, ErrorCode, Event, Game,
    Phase, SplitMix64, NUM_ACTIONS,
};
use serde_json::json;

// A small deterministic policy over the legal ids: every decision of the game goes through
// `apply_action`, selections, moon choices and all.
fn step(g: &mut Game, rng: &mut SplitMix64) -> bool {
    let ids = g.legal_actions(None).unwrap();
    if ids.is_empty() {
        return false;
    }
    let id = ids[rng.below_fast(ids.len() as u64) as usize];
    g.apply_action(id, None).unwrap();
    true
}

// Plays `steps` decisions (dealing by hand from `deals` in an unseeded game), keeping every
// position passed through, then undoes back to the start checking each one.
fn undo_walk(mut g: Game, steps: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut deals = SplitMix64::new(seed ^ 0xDEA1);
    let mut seen = vec![(
        g.clone(),
        g.state_json(),
        g.actions().len(),
        g.hands_scored(),
    )];
    for _ in 0..steps {
        if g.phase() == Phase::Deal {
            let hands = deals.deal(g.ruleset(), g.dealer());
            let n = g.ruleset().players();
            let hands = hands.first(n).iter().map(|h| h.to_vec()).collect();
            g.deal(Some(hands)).unwrap();
        } else if !step(&mut g, &mut rng) {
            break;
        }
        seen.push((
            g.clone(),
            g.state_json(),
            g.actions().len(),
            g.hands_scored(),
        ));
    }
    seen.pop();
    while let Some((before, state, actions, hands)) = seen.pop() {
        g.undo().unwrap();
        assert!(g.events().is_empty());
        assert_eq!(g, before);
        assert_eq!(g.state_json(), state);
        assert_eq!(g.actions().len(), actions);
        assert_eq!(g.hands_scored(), hands);
        assert_eq!(g.actions(), before.actions());
    }
    let before = g.state_json();
    assert_eq!(g.undo().unwrap_err().code, ErrorCode::NothingToUndo);
    assert_eq!(g.state_json(), before);
}

#[test]
fn undo_goes_back_to_the_start_of_seeded_games_across_hands_and_moons() {
    for name in ["hearts-4", "hartenjagen", "hearts-3", "omnibus-4"] {
        for seed in 0..3 {
            let g = Game::new(rules(name), Some(seed), 0, None).unwrap();
            undo_walk(g, 400, seed);
        }
    }
}

#[test]
fn undo_goes_back_to_phase_deal_of_unseeded_games() {
    for name in ["hearts-4", "hearts-computer", "hearts-7"] {
        let g = Game::new(rules(name), None, 0, None).unwrap();
        undo_walk(g, 300, 11);
    }
}

#[test]
fn undo_takes_back_the_moon_choice() {
    // A tiny table where seat 0 takes everything: the moon choice is pending, then undone.
    let r = reversis_core::Ruleset::from_value(&json!({
        "name": "tiny-4", "players": 4, "deck": {"lowest_rank": "K", "removed": []},
        "passing": null, "opening_card": null, "first_trick_ban": false,
        "hearts_breaking": "none", "card_points": {"KH": 1, "AH": 1}, "target": 100,
        "moon": {"scoring": "taker-choice", "bonus": 26}
    }))
    .unwrap();
    // Seat 1 leads (left of the dealer) and takes both hearts.
    let mut g = dealt(r, 0, &["KC KS", "AC AH", "KH AD", "KD AS"]);
    play_script(&mut g, "AC KH KD KC AH AD AS KS");
    assert_eq!(g.phase(), Phase::Moon);
    assert_eq!(g.events().len(), 1);
    let at_moon = g.clone();
    g.apply_action(105, None).unwrap();
    assert_eq!(g.scores(), &[0, -26, 0, 0]);
    let kinds: Vec<&str> = g
        .events()
        .iter()
        .map(|e| match e {
            Event::Hand(_) => "hand",
            Event::Deal { .. } => "deal",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["hand"]); // unseeded: the next hand waits for its deal
    assert_eq!(g.last_hand().unwrap().moon_taker, Some(1));
    g.undo().unwrap();
    assert_eq!(g, at_moon);
    assert!(g.last_hand().is_none());
    assert_eq!(g.last_hand_json(), json!(null));
}

#[test]
fn act_3_legal_ids_per_phase() {
    let mut g = Game::new(rules("hearts-4"), Some(5), 0, None).unwrap();
    assert_eq!(g.phase(), Phase::Pass);
    assert_eq!(g.to_act(), Some(0));
    let ids = g.legal_actions(None).unwrap();
    let hand: Vec<u16> = g
        .hand(0)
        .unwrap()
        .into_iter()
        .map(|c| 52 + u16::from(c.id()))
        .collect();
    assert_eq!(ids, hand);
    g.apply_action(ids[0], None).unwrap();
    assert_eq!(g.legal_actions(Some(0)).unwrap(), hand[1..].to_vec());
    assert_eq!(g.selected(0).unwrap().len(), 1);
    assert_eq!(g.actions().len(), 1); // a selection is not an action
    assert!(g.events().is_empty());
    let err = g.apply_action(ids[0], None).unwrap_err();
    assert_eq!(err.code, ErrorCode::DuplicateCard);
    let other = g.hand(1).unwrap().distinct().first().unwrap();
    let err = g
        .apply_action(52 + u16::from(other.id()), Some(0))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::CardNotHeld);
    assert_eq!(
        g.apply_action(NUM_ACTIONS, None).unwrap_err().code,
        ErrorCode::InvalidAction
    );
    assert_eq!(
        g.apply_action(0, Some(4)).unwrap_err().code,
        ErrorCode::InvalidAction
    );
    assert_eq!(
        g.apply_action(0, None).unwrap_err().code,
        ErrorCode::WrongPhase
    );
    assert_eq!(
        g.apply_action(104, None).unwrap_err().code,
        ErrorCode::WrongPhase
    );
    // The selection completing the pass is the seat's pass.
    g.apply_action(ids[1], None).unwrap();
    g.apply_action(ids[2], None).unwrap();
    assert_eq!(g.to_act(), Some(1));
    assert!(g.selected(0).unwrap().is_empty());
    assert_eq!(g.passed(0).unwrap().unwrap().len(), 3);
    assert_eq!(g.hand(0).unwrap().len(), 10);
    assert!(matches!(
        g.actions().last(),
        Some(Action::Pass { seat: 0, .. })
    ));
    assert_eq!(g.legal_mask(Some(0)).unwrap(), 0);
    assert_eq!(
        g.apply_action(ids[3], Some(0)).unwrap_err().code,
        ErrorCode::AlreadyPassed
    );
    // An ACT-1 pass replaces a selection.
    let h1 = g.hand(1).unwrap().to_vec();
    g.apply_action(52 + u16::from(h1[5].id()), None).unwrap();
    g.pass_cards(h1[..3].to_vec(), None).unwrap();
    assert!(g.selected(1).unwrap().is_empty());
    for s in 2..4 {
        let cs = g.hand(s).unwrap().to_vec()[..3].to_vec();
        g.pass_cards(cs, None).unwrap();
    }
    assert_eq!(g.phase(), Phase::Play);
    assert!(matches!(
        g.events().iter().next(),
        Some(Event::Exchange { .. })
    ));
    let legal: Vec<u16> = g
        .legal_plays()
        .into_iter()
        .map(|c| u16::from(c.id()))
        .collect();
    assert_eq!(g.legal_actions(None).unwrap(), legal);
    let mover = g.to_act().unwrap();
    assert!(g.legal_actions(Some((mover + 1) % 4)).unwrap().is_empty());
}

#[test]
fn act_3_phases_deal_and_over_give_their_own_error() {
    let mut g = Game::new(rules("hearts-4"), None, 0, None).unwrap();
    assert_eq!(g.to_act(), None);
    assert!(g.legal_actions(None).unwrap().is_empty());
    assert_eq!(
        g.apply_action(60, None).unwrap_err().code,
        ErrorCode::WrongPhase
    );
    assert_eq!(g.deal(None).unwrap_err().code, ErrorCode::NoSeed);
    let mut s = Game::new(rules("hearts-4"), Some(1), 0, None).unwrap();
    assert_eq!(s.deal(None).unwrap_err().code, ErrorCode::WrongPhase);
}

#[test]
fn api_10_ids_round_trip() {
    let a = Action::from_value(&json!({"type": "pass", "seat": 3, "cards": ["QS", "2C", "AH"]}))
        .unwrap();
    let ids = action_ids(&a).unwrap();
    assert_eq!(ids, [52, 90, 101]);
    assert_eq!(action_from_ids(&ids, 3).unwrap(), a.canonical());
    assert_eq!(action_label(49).unwrap(), "play QS");
    assert_eq!(action_label(101).unwrap(), "pass QS");
    assert_eq!(action_label(105).unwrap(), "moon subtract-from-taker");
    for bad in [
        &[][..],
        &[0, 1],
        &[52, 52, 52],
        &[104, 105],
        &[0, 52],
        &[106],
    ] {
        assert_eq!(
            action_from_ids(bad, 0).unwrap_err().code,
            ErrorCode::InvalidAction
        );
    }
    let deal = Action::Deal { hands: vec![] };
    assert_eq!(
        action_ids(&deal).unwrap_err().code,
        ErrorCode::InvalidAction
    );
}

#[test]
fn evt_1_and_evt_2_a_seeded_hand_end_gives_trick_hand_deal() {
    let mut g = Game::new(rules("hartenjagen"), Some(8), 0, None).unwrap();
    assert!(g.events().is_empty());
    while g.hand_number() == 0 {
        let c = g.legal_plays().first().unwrap();
        g.play(c, None).unwrap();
    }
    let v = g.events_json();
    let types: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["trick", "hand", "deal"]);
    assert_eq!(v[2], json!({"type": "deal", "hand_number": 1, "dealer": 1}));
    let last = g.last_hand_json();
    assert_eq!(last["hand_number"], 0);
    assert_eq!(last["tricks"].as_array().unwrap().len(), 8);
    assert_eq!(last["scores"], json!(g.hand_scores()[0]));
    // A rejected action leaves the events as they were.
    assert!(g.play(reversis_core::Card::new(51), Some(9)).is_err());
    assert_eq!(g.events_json(), v);
}

#[test]
fn rec_2_a_replayed_seeded_game_undoes_as_the_original() {
    let mut g = Game::new(rules("hearts-4"), Some(21), 0, None).unwrap();
    let mut rng = SplitMix64::new(2);
    for _ in 0..180 {
        if g.phase() == Phase::Pass {
            // ACT-1 passes, so that the record's units are the original's.
            let s = g.to_act().unwrap();
            let cs = g.hand(s).unwrap().to_vec()[..3].to_vec();
            g.pass_cards(cs, None).unwrap();
        } else {
            step(&mut g, &mut rng);
        }
    }
    assert!(g.hands_scored() >= 1);
    let mut h = Game::from_record(&g.to_record()).unwrap();
    assert_eq!(h, g);
    assert_eq!(h.undo_depth(), g.undo_depth());
    while g.undo().is_ok() {
        h.undo().unwrap();
        assert_eq!(h, g);
        assert_eq!(h.actions(), g.actions());
    }
    assert_eq!(h.undo().unwrap_err().code, ErrorCode::NothingToUndo);
    // A seeded record whose deal is not the seed's is invalid.
    let mut r = Game::new(rules("hearts-4"), Some(21), 0, None)
        .unwrap()
        .to_record();
    let other = deal_from_seed(&rules("hearts-4"), 22, 1, 0);
    r["actions"][0]["hands"] = json!(other[0].iter().map(|h| h.to_strings()).collect::<Vec<_>>());
    assert_eq!(
        Game::from_record(&r).unwrap_err().code,
        ErrorCode::InvalidRecord
    );
}

#[test]
fn pending_selections_are_listed_oldest_first() {
    let mut g = Game::new(rules("hearts-4"), Some(3), 0, None).unwrap();
    let a = g.legal_actions(Some(2)).unwrap()[4];
    let b = g.legal_actions(Some(0)).unwrap()[1];
    let c = g.legal_actions(Some(2)).unwrap()[0];
    g.apply_action(a, Some(2)).unwrap();
    g.apply_action(b, Some(0)).unwrap();
    g.apply_action(c, Some(2)).unwrap();
    let got: Vec<(usize, u16)> = g
        .pending_selections()
        .into_iter()
        .map(|(s, card)| (s, 52 + u16::from(card.id())))
        .collect();
    assert_eq!(got, [(2, a), (0, b), (2, c)]);
}

#[test]
fn copies_are_cheap_and_independent() {
    let mut g = Game::new(rules("hearts-4"), Some(4), 0, None).unwrap();
    let mut rng = SplitMix64::new(4);
    for _ in 0..600 {
        if !step(&mut g, &mut rng) {
            break;
        }
    }
    // Cloning shares the history: the clone is the same size whatever the match's length.
    assert!(std::mem::size_of::<Game>() < 2048);
    let mut h = g.clone();
    assert_eq!(h, g);
    assert_eq!(h.actions(), g.actions());
    h.undo().unwrap();
    assert_ne!(
        h.actions().len() + h.undo_depth(),
        g.actions().len() + g.undo_depth()
    );
    assert!(g.undo_depth() > h.undo_depth());
}

#[test]
fn equal_positions_hash_alike_and_state_decides_equality() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let hash = |g: &Game| {
        let mut h = DefaultHasher::new();
        g.hash(&mut h);
        h.finish()
    };
    let mut g = Game::new(rules("hearts-4"), Some(6), 0, None).unwrap();
    let start = g.clone();
    let id = g.legal_actions(None).unwrap()[0];
    g.apply_action(id, None).unwrap();
    assert_ne!(g, start);
    g.undo().unwrap();
    assert_eq!(g, start);
    assert_eq!(hash(&g), hash(&start));
    // The history differs (an undo happened) but the position does not.
    let r = Game::from_record(&g.to_record()).unwrap();
    assert_eq!(r, g);
    assert_eq!(hash(&r), hash(&g));
}
