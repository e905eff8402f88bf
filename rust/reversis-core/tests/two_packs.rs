//! The open card model of spec 1.2.0: two packs (RS-21, CARD-2, D-15), 8 to 10 seats (RS-3),
//! cancellation and held-over tricks (RS-22, PLAY-9, D-16, D-18), OBS-3 version 3. Every
//! expected value here is worked by hand from the spec's text.

mod common;

use common::*;
use reversis_core::{
    deal_from_seed, encode_observation, kernel, Card, CardMultiset, ErrorCode, Game, LastTrick,
    Phase, Ruleset, SplitMix64, ENCODING_LENGTH,
};
use serde_json::{json, Value};

fn ids(s: &str) -> Vec<u8> {
    cards(s).iter().map(|c| c.id()).collect()
}

fn multiset(s: &str) -> CardMultiset {
    cards(s).into_iter().collect()
}

// ------------------------------------------------------------------ the kernel's trick winner

#[test]
fn play_7_without_cancellation_the_first_of_two_identical_cards_wins() {
    // D-15: of two identical cards, the one played first ranks higher.
    assert_eq!(
        kernel::trick_outcome(&ids("8C KC KC 2C"), None, false),
        Some(1)
    );
    assert_eq!(
        kernel::trick_outcome(&ids("KC 8C KC 2C"), None, true),
        Some(0)
    );
    // Off-suit copies never win.
    assert_eq!(
        kernel::trick_outcome(&ids("5D AS AS 4D"), None, false),
        Some(0)
    );
}

#[test]
fn play_9_identical_cards_cancel_and_the_highest_uncancelled_card_wins() {
    let c = Some(LastTrick::Leader);
    // Both KC cancel: the 9C is the highest club left.
    assert_eq!(
        kernel::trick_outcome(&ids("KC 9C KC 3C"), c, false),
        Some(1)
    );
    // The lead itself cancelled by a later copy: the 3C wins.
    assert_eq!(
        kernel::trick_outcome(&ids("QD QD 3D AS"), c, false),
        Some(2)
    );
    // An off-suit pair cancels without changing anything: the AH wins.
    assert_eq!(
        kernel::trick_outcome(&ids("2H QS QS AH"), c, false),
        Some(3)
    );
}

#[test]
fn play_9_a_trick_with_every_card_of_the_suit_led_cancelled_is_held_over() {
    for rule in [LastTrick::Leader, LastTrick::LaterHighest] {
        assert_eq!(
            kernel::trick_outcome(&ids("5C 5C 2H 9D"), Some(rule), false),
            None
        );
        assert_eq!(
            kernel::trick_outcome(&ids("7C 9C 7C 9C"), Some(rule), false),
            None
        );
    }
}

#[test]
fn play_9_the_last_trick_goes_to_its_leader_or_the_later_highest_copy() {
    // RS-22 `leader`: the seat that led it, position 0.
    assert_eq!(
        kernel::trick_outcome(&ids("5C 5C 2H 9D"), Some(LastTrick::Leader), true),
        Some(0)
    );
    assert_eq!(
        kernel::trick_outcome(&ids("7C 9C 7C 9C"), Some(LastTrick::Leader), true),
        Some(0)
    );
    // `later-highest`: the later copy of the highest card of the suit led.
    assert_eq!(
        kernel::trick_outcome(&ids("7C 9C 7C 9C"), Some(LastTrick::LaterHighest), true),
        Some(3)
    );
    assert_eq!(
        kernel::trick_outcome(&ids("9C 7C 9C 7C"), Some(LastTrick::LaterHighest), true),
        Some(2)
    );
    assert_eq!(
        kernel::trick_outcome(&ids("5C 5C 2H 9D"), Some(LastTrick::LaterHighest), true),
        Some(1)
    );
    // Nothing is held over on the last trick when a card stands: the usual winner.
    assert_eq!(
        kernel::trick_outcome(&ids("KC 9C KC 3C"), Some(LastTrick::LaterHighest), true),
        Some(1)
    );
}

// ------------------------------------------------------------------ multisets

#[test]
fn card_2_a_multiset_lists_a_card_once_per_copy_copies_adjacent() {
    let mut m = multiset("3C 2C KS 2C");
    assert_eq!(m.len(), 4);
    assert_eq!(m.to_strings(), ["2C", "2C", "3C", "KS"]);
    assert_eq!(m.count(card("2C")), 2);
    assert_eq!(m.count(card("3C")), 1);
    assert_eq!(m.count(card("AS")), 0);
    m.remove(card("2C"));
    assert_eq!(m.to_strings(), ["2C", "3C", "KS"]);
    m.remove(card("2C"));
    m.remove(card("2C")); // not held: nothing happens
    assert_eq!(m.to_strings(), ["3C", "KS"]);
    let a = multiset("2C 3C 3C");
    let b = multiset("2C 4D");
    assert_eq!(a.plus(b).to_strings(), ["2C", "2C", "3C", "3C", "4D"]);
    assert_eq!(a.minus(multiset("3C")).to_strings(), ["2C", "3C"]);
    assert_eq!(a.minus(multiset("3C 3C 2C")), CardMultiset::EMPTY);
    assert!(multiset("3C 3C").is_subset(a));
    assert!(!multiset("2C 2C").is_subset(a));
}

// ------------------------------------------------------------------ rulesets (RS-3, RS-13, RS-21, RS-22)

// A small two-pack table: Q, K and A of every suit twice (24 cards), 4 seats of 6.
fn small(extra: Value) -> Ruleset {
    let mut v = json!({
        "name": "small-two-packs",
        "players": 4,
        "deck": {"lowest_rank": "Q", "removed": [], "packs": 2},
        "passing": null,
        "opening_card": null,
        "first_trick_ban": false,
        "hearts_breaking": "none",
        "card_points": {"QH": 1, "KH": 1, "AH": 1, "QS": 13},
        "moon": null,
        "target": 100,
        "cancellation": {"last_trick": "leader"}
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    Ruleset::from_value(&v).unwrap_or_else(|e| panic!("{}", e.message))
}

fn refused(v: Value, field: &str) {
    let e = Ruleset::from_value(&v).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidRuleset, "{}", e.message);
    assert!(
        e.message.contains(&format!("'{field}'")),
        "{field}: {}",
        e.message
    );
}

#[test]
fn rs_13_and_rs_21_refuse_what_two_packs_cannot_be() {
    let base = rules("cancellation-6").to_value();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        f(&mut v);
        v
    };
    // RS-13.7: packs is 1 or 2.
    refused(with(&|v| v["deck"]["packs"] = json!(3)), "deck.packs");
    refused(with(&|v| v["deck"]["packs"] = json!(0)), "deck.packs");
    refused(with(&|v| v["deck"]["packs"] = json!("2")), "deck.packs");
    // RS-13.7: cancellation only with two packs.
    refused(
        json!({"name": "x", "players": 4, "deck": {"lowest_rank": "2", "removed": []},
               "passing": null, "opening_card": "2C", "first_trick_ban": true,
               "hearts_breaking": "heart", "card_points": {"QS": 13}, "moon": null,
               "target": 100, "cancellation": {"last_trick": "leader"}}),
        "cancellation",
    );
    refused(
        with(&|v| v["cancellation"] = json!({"last_trick": "first"})),
        "cancellation.last_trick",
    );
    refused(
        with(&|v| v["cancellation"] = json!({"last_trick": "leader", "x": 1})),
        "cancellation.x",
    );
    // RS-13.3: the opening card has exactly one copy left (none removed here: two).
    refused(
        with(&|v| v["deck"]["removed"] = json!(["3D", "2D"])),
        "opening_card",
    );
    // RS-13.1: no card removed more times than there are packs.
    refused(
        with(&|v| v["deck"]["removed"] = json!(["2C", "2C", "2C"])),
        "deck.removed",
    );
    // With one pack, twice is once too many.
    refused(
        json!({"name": "x", "players": 4, "deck": {"lowest_rank": "2", "removed": ["2D", "2D"]},
               "passing": null, "opening_card": null, "first_trick_ban": false,
               "hearts_breaking": "heart", "card_points": {"QS": 13}, "moon": null,
               "target": 100}),
        "deck.removed",
    );
    // RS-3: 3 to 10 seats.
    refused(with(&|v| v["players"] = json!(11)), "players");
    refused(with(&|v| v["players"] = json!(2)), "players");
}

#[test]
fn rs_3_allows_ten_seats_and_rs_21_counts_every_copy() {
    let r = rules("cancellation-10");
    assert_eq!(r.players(), 10);
    assert_eq!(r.packs(), 2);
    // 104 cards less one each of 2C, 3C, 2D, 3D (D-17): 100, 10 each.
    assert_eq!(r.deck_len(), 100);
    assert_eq!(r.hand_size(), 10);
    assert_eq!(r.deck_cards().count(card("2C")), 1);
    assert_eq!(r.deck_cards().count(card("4C")), 2);
    let r6 = rules("cancellation-6");
    assert_eq!((r6.deck_len(), r6.hand_size()), (102, 17));
    let r8 = rules("cancellation-8");
    assert_eq!(
        (r8.deck_len(), r8.hand_size(), r8.opening_card()),
        (104, 13, None)
    );
    // SCORE-2 with two packs: every copy of every point card, 26 hearts and 2 QS: 52.
    assert_eq!(r8.positive_total(), 52);
    assert_eq!(r6.cancellation(), Some(LastTrick::Leader));
}

#[test]
fn rs_16_the_canonical_object_writes_packs_and_cancellation_only_where_set() {
    let r = rules("cancellation-6");
    let v = r.to_value();
    assert_eq!(v["deck"]["packs"], json!(2));
    assert_eq!(v["cancellation"], json!({"last_trick": "leader"}));
    assert_eq!(Ruleset::from_value(&v).unwrap(), r);
    // `removed` sorted with its repeats adjacent.
    let mut w = v.clone();
    w["deck"]["removed"] = json!(["2D", "2C", "2C", "3D"]);
    w["opening_card"] = json!(null);
    w["players"] = json!(5);
    let r2 = Ruleset::from_value(&w).unwrap();
    assert_eq!(
        r2.to_value()["deck"]["removed"],
        json!(["2C", "2C", "2D", "3D"])
    );
    // A one-pack ruleset writes neither, and `"cancellation": null` means absent (RS-19).
    let h = rules("hearts-4");
    let hv = h.to_value();
    assert!(hv["deck"].get("packs").is_none());
    assert!(hv.get("cancellation").is_none());
    let mut with_null = hv.clone();
    with_null["cancellation"] = Value::Null;
    with_null["deck"]["packs"] = json!(1);
    let same = Ruleset::from_value(&with_null).unwrap();
    assert_eq!(same, h);
    assert_eq!(same.to_json_string(), h.to_json_string());
    // A null takes it out through replace() too.
    let off = r
        .replace(json!({"cancellation": null}).as_object().unwrap())
        .unwrap();
    assert_eq!(off.cancellation(), None);
    assert!(off.to_value().get("cancellation").is_none());
}

// ------------------------------------------------------------------ the seeded deal (SEED-3)

#[test]
fn seed_3_a_two_pack_deck_starts_with_both_copies_side_by_side() {
    let r = rules("cancellation-8");
    let deck = r.deck_cards().to_strings();
    assert_eq!(&deck[..6], ["2C", "2C", "3C", "3C", "4C", "4C"]);
    assert_eq!(deck.len(), 104);
    // Fisher–Yates spelled out over that order, and SEED-4's seat order.
    for seed in [0u64, 5, 99] {
        let mut g = SplitMix64::new(seed);
        let mut d: Vec<Card> = r.deck_cards().to_vec();
        for i in (1..d.len()).rev() {
            let j = g.below(i as u64 + 1) as usize;
            d.swap(i, j);
        }
        let dealer = 3;
        let mut want = [CardMultiset::EMPTY; 8];
        for (k, c) in d.iter().enumerate() {
            want[(dealer + 1 + k) % 8].insert(*c);
        }
        let got = SplitMix64::new(seed).deal(&r, dealer);
        assert_eq!(&got[..8], &want[..], "seed {seed}");
        // Deterministic, 13 each, every card twice across the table.
        let again = deal_from_seed(&r, seed, 2, 3);
        assert_eq!(again, deal_from_seed(&r, seed, 2, 3));
        assert_eq!(again[0], got[..8].to_vec());
        let mut all = CardMultiset::EMPTY;
        for h in &again[0] {
            assert_eq!(h.len(), 13);
            all = all.plus(*h);
        }
        assert_eq!(all, r.deck_cards());
    }
}

// ------------------------------------------------------------------ a hand with held-over tricks

const HANDS: [&str; 4] = [
    "QC QC KD AD QH KS",
    "KC AC QD AH KH QS",
    "KC AC QD AH KH QS",
    "QH AS AS KD AD KS",
];

fn trick_json(g: &Game, i: usize) -> Value {
    g.tricks_json()[i].clone()
}

#[test]
fn deal_1_a_two_pack_deal_is_a_multiset_of_the_deck() {
    let r = small(json!({}));
    let mut g = Game::new(r.clone(), None, 0, None).unwrap();
    let mut bad: Vec<Vec<Card>> = HANDS.iter().map(|h| cards(h)).collect();
    // A third QC (the deck holds two).
    bad[1][0] = card("QC");
    let e = g.deal(Some(bad)).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidDeal);
    assert_eq!(g.phase(), Phase::Deal);
    g.deal(Some(HANDS.iter().map(|h| cards(h)).collect()))
        .unwrap();
    assert_eq!(
        g.hand(0).unwrap().to_strings(),
        ["QC", "QC", "KD", "AD", "QH", "KS"]
    );
    assert_eq!(
        g.observation(3).unwrap()["hand"],
        json!(["KD", "AD", "QH", "KS", "AS", "AS"])
    );
}

#[test]
fn play_9_held_over_tricks_go_to_the_next_winner_and_the_last_to_its_rule() {
    for (rule, last_winner) in [("leader", 3), ("later-highest", 0)] {
        let r = small(json!({"cancellation": {"last_trick": rule}}));
        let mut g = dealt(r, 0, &HANDS);
        // PLAY-2: no opening card, the seat left of the dealer (0) leads.
        assert_eq!(g.to_move(), Some(1));
        // Trick 0: both AH and both QH cancel: held over, worth 4, seat 1 leads again.
        play_script(&mut g, "AH AH QH QH");
        assert_eq!(
            trick_json(&g, 0),
            json!({"leader": 1, "cards": [
                {"seat": 1, "card": "AH"}, {"seat": 2, "card": "AH"},
                {"seat": 3, "card": "QH"}, {"seat": 0, "card": "QH"}],
                "winner": null, "points": 0})
        );
        assert_eq!(g.to_move(), Some(1));
        assert_eq!(g.points(), [0, 0, 0, 0]);
        assert_eq!(
            g.hand_state().held_over().to_strings(),
            ["QH", "QH", "AH", "AH"]
        );
        // OBS-3 version 3: the held-over block counts copies.
        let mut obs = vec![0; ENCODING_LENGTH];
        encode_observation(&g, 2, &mut obs).unwrap();
        assert_eq!(obs[1383 + usize::from(card("AH").id())], 2);
        assert_eq!(obs[1383 + usize::from(card("QH").id())], 2);
        assert_eq!(obs[1383..].iter().sum::<i32>(), 4);
        // Seat 2 holds one KC, one AC, ...: its hand block counts 1 each; seat 0 two QC.
        encode_observation(&g, 0, &mut obs).unwrap();
        assert_eq!(obs[usize::from(card("QC").id())], 2);
        // Trick 1: the KH cancel, the others discard: held over again, worth 2.
        play_script(&mut g, "KH KH AS KS");
        assert_eq!(trick_json(&g, 1)["winner"], Value::Null);
        assert_eq!(g.to_move(), Some(1));
        // Trick 2: AC stands and wins, capturing both held-over tricks: 0 + 4 + 2.
        play_script(&mut g, "AC KC AS QC");
        assert_eq!(trick_json(&g, 2)["winner"], json!(1));
        assert_eq!(trick_json(&g, 2)["points"], json!(6));
        assert_eq!(g.points(), [0, 6, 0, 0]);
        assert!(g.hand_state().held_over().is_empty());
        // Trick 3: the QS cancel, the KS stands: seat 3 takes 26.
        play_script(&mut g, "QS QS KS QC");
        assert_eq!(g.points(), [0, 6, 0, 26]);
        // Trick 4: every diamond cancelled, held over; seat 3 leads again.
        play_script(&mut g, "KD KD QD QD");
        assert_eq!(trick_json(&g, 4)["winner"], Value::Null);
        assert_eq!(g.to_move(), Some(3));
        // Trick 5, the last: the AD cancel; RS-22 names the winner, who takes trick 4 too.
        play_script(&mut g, "AD AD KC AC");
        assert_eq!(g.hand_scores(), [vec![0, 6, 0, 26]]);
        let last = &g.last_hand_json()["tricks"][5];
        assert_eq!(last["winner"], json!(last_winner), "{rule}");
        assert_eq!(last["points"], json!(0));
        assert_eq!(g.last_hand_json()["tricks"][4]["winner"], Value::Null);
        // Every trick's points add up to the hand's (TRICK-1).
        let sum: i64 = g.last_hand_json()["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["points"].as_i64().unwrap())
            .sum();
        assert_eq!(sum, 32);
    }
}

#[test]
fn play_9_undo_and_replay_keep_held_over_tricks() {
    let r = small(json!({}));
    let mut g = dealt(r, 0, &HANDS);
    let start = g.clone();
    play_script(&mut g, "AH AH QH QH KH KH AS");
    let mid = g.clone();
    play_script(&mut g, "KS");
    g.undo().unwrap();
    assert_eq!(g, mid);
    assert_eq!(g.hand_state().held_over().len(), 4);
    for _ in 0..7 {
        g.undo().unwrap();
    }
    assert_eq!(g, start);
}

// ------------------------------------------------------------------ passing with copies (PASS-2, ACT-2, ACT-3)

#[test]
fn pass_2_a_seat_holding_both_copies_may_pass_both() {
    let r = small(json!({"passing": {"cycle": ["left"], "size": 3}}));
    let mut g = dealt(r, 0, &HANDS);
    assert_eq!(g.phase(), Phase::Pass);
    // Seat 1 holds one KC: naming it twice is duplicate-card; a card it lacks card-not-held.
    let e = g.pass_cards(cards("KC KC AC"), Some(1)).unwrap_err();
    assert_eq!(e.code, ErrorCode::DuplicateCard);
    let e = g.pass_cards(cards("KC AC AS"), Some(1)).unwrap_err();
    assert_eq!(e.code, ErrorCode::CardNotHeld);
    // Seat 0 holds two QC: both may go, a third may not.
    let e = g.pass_cards(cards("QC QC QC"), Some(0)).unwrap_err();
    assert_eq!(e.code, ErrorCode::DuplicateCard);
    let before = g.clone();
    assert_eq!(g.state_json(), before.state_json());
    g.pass_cards(cards("QC QD QC"), Some(0)).unwrap_err(); // QD not held
    assert_eq!(g, before);
    g.pass_cards(cards("QC KD QC"), Some(0)).unwrap();
    assert_eq!(
        g.passed(0).unwrap().unwrap().to_strings(),
        ["QC", "QC", "KD"]
    );
    assert_eq!(g.hand(0).unwrap().to_strings(), ["AD", "QH", "KS"]);
    // Seat 3 selects AS twice by id (ACT-2); AS is then no longer a legal id (ACT-3).
    let as_id = 52 + u16::from(card("AS").id());
    assert!(g.legal_actions(Some(3)).unwrap().contains(&as_id));
    g.apply_action(as_id, Some(3)).unwrap();
    assert!(g.legal_actions(Some(3)).unwrap().contains(&as_id));
    g.apply_action(as_id, Some(3)).unwrap();
    assert!(!g.legal_actions(Some(3)).unwrap().contains(&as_id));
    let before = g.clone();
    let e = g.apply_action(as_id, Some(3)).unwrap_err();
    assert_eq!(e.code, ErrorCode::DuplicateCard);
    assert_eq!(g, before);
    assert_eq!(g.selected(3).unwrap(), cards("AS AS"));
    g.apply_action(52 + u16::from(card("QH").id()), Some(3))
        .unwrap();
    assert_eq!(
        g.passed(3).unwrap().unwrap().to_strings(),
        ["QH", "AS", "AS"]
    );
    g.pass_cards(cards("KC AC QD"), Some(1)).unwrap();
    g.pass_cards(cards("KC AC QD"), Some(2)).unwrap();
    // PASS-3: left; seat 0 receives seat 3's QH AS AS.
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(
        g.received(0).unwrap().unwrap().to_strings(),
        ["QH", "AS", "AS"]
    );
    assert_eq!(
        g.hand(0).unwrap().to_strings(),
        ["AD", "QH", "QH", "KS", "AS", "AS"]
    );
    // Seat 2 passed its KC AC QD to seat 3 and got seat 1's: one of each again.
    assert_eq!(
        g.hand(2).unwrap().to_strings(),
        ["KC", "AC", "QD", "KH", "AH", "QS"]
    );
    assert_eq!(
        g.hand(3).unwrap().to_strings(),
        ["KC", "AC", "QD", "KD", "AD", "KS"]
    );
}

// ------------------------------------------------------------------ whole matches

#[test]
fn the_cancellation_presets_play_whole_matches_and_replay_from_their_records() {
    for name in ["cancellation-6", "cancellation-8", "cancellation-10"] {
        let r = rules(name);
        let mut g = Game::new(r.clone(), Some(2026), 0, None).unwrap();
        let mut rng = SplitMix64::new(3);
        let mut steps = 0;
        while g.phase() != Phase::Over && steps < 200_000 {
            let ids = g.legal_actions(None).unwrap();
            let id = ids[rng.below(ids.len() as u64) as usize];
            g.apply_action(id, None).unwrap();
            steps += 1;
            if let Some(t) = g.tricks().last() {
                assert!(t.winner.is_some() || t.points == 0);
            }
        }
        assert_eq!(g.phase(), Phase::Over, "{name}");
        // REC-2: the record (seeded) and its binary form replay to the same scores.
        let again = Game::from_record(&g.to_record()).unwrap();
        let bytes = g.to_record_bytes(reversis_core::RecordFormat::MsgPack);
        assert_eq!(Game::from_record_bytes(&bytes).unwrap(), g);
        // With the deals written out and no seed, too.
        let mut unseeded = g.to_record();
        unseeded["seed"] = Value::Null;
        assert_eq!(Game::from_record(&unseeded).unwrap().scores(), g.scores());
        assert_eq!(again.scores(), g.scores(), "{name}");
        assert_eq!(again.hand_scores(), g.hand_scores(), "{name}");
        // Each hand is worth 52 in all, or a moon's 52 to everyone else (D-18).
        for row in g.hand_scores() {
            let sum: i64 = row.iter().sum();
            let n = r.players() as i64;
            assert!(
                sum == 52 || sum == 52 * (n - 1) || sum == -52,
                "{name} {row:?}"
            );
        }
    }
}

#[test]
fn simulate_plays_two_pack_hands_as_the_rules_do() {
    let r = rules("cancellation-6");
    let a = reversis_core::simulate(&r, 200, 7, 1);
    assert_eq!(a, reversis_core::simulate(&r, 200, 7, 3));
    for row in a.chunks(6) {
        let sum: i32 = row.iter().sum();
        assert!(sum == 52 || sum == 52 * 5 || sum == -52, "{row:?}");
    }
}
