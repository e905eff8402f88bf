//! The hidden-card sampler and the Monte Carlo player (001 ¶9).
#![allow(clippy::needless_range_loop)]

#[path = "../../reversis-core/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;

use common::*;
use reversis_core::{
    count_layouts, preset_names, CardSet, Game, Knowledge, Phase, Ruleset, Sampler, SplitMix64,
};
use reversis_players::{
    count_observation_layouts, monte_carlo_evaluate, monte_carlo_play, sample_layouts,
};
use serde_json::Value;

/// Every layout consistent with `k`, by trying every seat for every hidden card.
fn brute_force(rules: &Ruleset, k: &Knowledge) -> Vec<[u64; 7]> {
    let n = rules.players();
    let mut seen = k.hand.0 | k.played.0;
    for s in 0..n {
        seen |= k.known[s].0;
    }
    let hidden: Vec<u8> = CardSet(rules.deck().0 & !seen)
        .into_iter()
        .map(|c| c.id())
        .collect();
    let others: Vec<usize> = (0..n).filter(|&s| s != k.seat).collect();
    let mut out = Vec::new();
    let total = others.len().pow(hidden.len() as u32);
    for code in 0..total {
        let mut layout = [0u64; 7];
        layout[k.seat] = k.hand.0;
        for s in 0..n {
            layout[s] |= k.known[s].0;
        }
        let mut x = code;
        for &c in &hidden {
            layout[others[x % others.len()]] |= 1 << c;
            x /= others.len();
        }
        let ok = (0..n).all(|s| {
            layout[s].count_ones() as u8 == k.counts[s]
                && (0..4).all(|suit| {
                    k.voids[s] & (1 << suit) == 0 || layout[s] & (0x1FFF << (13 * suit)) == 0
                })
        });
        if ok {
            out.push(layout);
        }
    }
    out
}

/// A random knowledge with at most `max_hidden` hidden cards for seat 0 of `rules`.
fn random_knowledge(rules: &Ruleset, rng: &mut SplitMix64, max_hidden: usize) -> Knowledge {
    let n = rules.players();
    let mut deck: Vec<u8> = rules.deck().into_iter().map(|c| c.id()).collect();
    rng.shuffle(&mut deck);
    let hidden_n = 1 + rng.below(max_hidden as u64) as usize;
    let mut k = Knowledge::default();
    // Hidden cards come first; the rest split between played, known and the observer.
    let mut caps = vec![0u8; n];
    for _ in 0..hidden_n {
        let s = 1 + rng.below(n as u64 - 1) as usize;
        caps[s] += 1;
    }
    let mut at = hidden_n;
    for s in 1..n {
        let known = rng.below(2) as usize;
        for _ in 0..known {
            k.known[s].0 |= 1 << deck[at];
            at += 1;
        }
        k.counts[s] = caps[s] + known as u8;
        k.voids[s] = rng.below(16) as u8 & rng.below(16) as u8;
    }
    let own = rng.below(4) as usize;
    for _ in 0..own {
        k.hand.0 |= 1 << deck[at];
        at += 1;
    }
    k.counts[0] = own as u8;
    for &c in &deck[at..] {
        k.played.0 |= 1 << c;
    }
    k
}

#[test]
fn count_layouts_equals_brute_force() {
    let mut rng = SplitMix64::new(11);
    let mut nonzero = 0;
    for name in ["hearts-3", "hearts-4", "hearts-5", "hartenjagen"] {
        let r = rules(name);
        let max_hidden = if r.players() == 5 { 7 } else { 9 };
        for _ in 0..60 {
            let k = random_knowledge(&r, &mut rng, max_hidden);
            let want = brute_force(&r, &k).len() as u128;
            assert_eq!(count_layouts(&r, &k).unwrap(), want, "{name} {k:?}");
            nonzero += usize::from(want > 0);
        }
    }
    assert!(nonzero > 60, "too few consistent cases: {nonzero}");
}

#[test]
fn samples_are_uniform_on_small_cases() {
    let mut rng = SplitMix64::new(5);
    let r = rules("hearts-4");
    let mut tested = 0;
    while tested < 5 {
        let k = random_knowledge(&r, &mut rng, 7);
        let all = brute_force(&r, &k);
        if !(3..=40).contains(&all.len()) {
            continue;
        }
        tested += 1;
        let sampler = Sampler::new(&r, &k).unwrap();
        let draws = 400 * all.len();
        let mut freq: HashMap<[u64; 7], usize> = all.iter().map(|l| (*l, 0)).collect();
        for _ in 0..draws {
            let l = sampler.sample(&mut rng);
            let key: [u64; 7] = std::array::from_fn(|s| l[s].0);
            *freq.get_mut(&key).expect("a sample is a consistent layout") += 1;
        }
        // Chi-squared with len-1 degrees of freedom, against a generous bound (p ≈ 1e-6).
        let e = 400.0;
        let chi2: f64 = freq.values().map(|&o| (o as f64 - e).powi(2) / e).sum();
        let df = (all.len() - 1) as f64;
        assert!(
            chi2 < df + 7.0 * (2.0 * df).sqrt() + 20.0,
            "chi2 {chi2} df {df}"
        );
    }
}

#[test]
fn the_largest_count_fits() {
    // hearts-7 before the pass: the deal, 42 hidden cards in six hands of 7.
    let r = rules("hearts-7");
    let g = Game::new(r.clone(), Some(1), 0, None).unwrap();
    assert_eq!(g.phase(), Phase::Pass);
    let o = g.observation(0).unwrap();
    let mut want = 1u128;
    let mut left = 42u128;
    for _ in 0..6 {
        let mut c = 1u128;
        for i in 0..7 {
            c = c * (left - i) / (i + 1);
        }
        want *= c;
        left -= 7;
    }
    assert_eq!(count_observation_layouts(&r, &o).unwrap(), want);
    let layouts = sample_layouts(&r, &o, 3, 9).unwrap();
    for l in layouts {
        assert!(l[..7].iter().all(|h| h.len() == 7));
    }
}

/// Plays a seeded game with uniformly random choices for `plays` plays into its first hand.
fn random_game(r: &Ruleset, seed: u64, hand_number: u64, plays: usize) -> Game {
    let mut g = Game::new(r.clone(), Some(seed), hand_number, None).unwrap();
    let mut rng = SplitMix64::new(seed ^ 0xABCD);
    if g.phase() == Phase::Pass {
        let size = r.passing().unwrap().size;
        for s in 0..r.players() {
            let mut h = g.hand(s).unwrap().to_vec();
            rng.shuffle(&mut h);
            g.pass_cards(h[..size].to_vec(), Some(s)).unwrap();
        }
    }
    for _ in 0..plays {
        if g.phase() != Phase::Play {
            break;
        }
        let legal = g.legal_plays();
        let c = legal.nth(rng.below(legal.len() as u64) as usize).unwrap();
        g.play(c, None).unwrap();
    }
    g
}

fn suit_index(v: &Value) -> usize {
    "CDHS".find(v.as_str().unwrap()).unwrap()
}

#[test]
fn samples_respect_everything_the_seat_knows() {
    for name in [
        "hearts-3",
        "hearts-4",
        "hearts-5",
        "hearts-6",
        "hearts-7",
        "hartenjagen",
    ] {
        let r = rules(name);
        for seed in 0..12u64 {
            let plays = (seed as usize * 7) % r.deck().len();
            let g = random_game(&r, seed, seed % 3, plays);
            for seat in 0..r.players() {
                let o = g.observation(seat).unwrap();
                let layouts = sample_layouts(&r, &o, 20, seed).unwrap();
                for l in layouts {
                    for s in 0..r.players() {
                        let truth = g.hand(s).unwrap();
                        assert_eq!(l[s].len(), truth.len());
                        if s == seat {
                            assert_eq!(l[s], truth.distinct());
                        }
                        assert!(
                            (l[s] & g.observation(seat).map(|_| played(&o)).unwrap()).is_empty()
                        );
                        for v in o["voids"][s].as_array().unwrap() {
                            assert!(l[s]
                                .of_suit(reversis_core::Suit::from_index(suit_index(v)))
                                .is_empty());
                        }
                    }
                    if let (Some(p), false) = (o["passed"].as_array(), o["received"].is_null()) {
                        let dir = reversis_core::PassDirection::from_name(
                            o["pass_direction"].as_str().unwrap(),
                        )
                        .unwrap();
                        let to = dir.target(seat, r.players());
                        for c in p {
                            let c = card(c.as_str().unwrap());
                            assert!(played(&o).contains(c) || l[to].contains(c));
                        }
                    }
                }
            }
        }
    }
}

fn played(o: &Value) -> CardSet {
    let mut s = CardSet::EMPTY;
    for t in o["tricks"].as_array().unwrap() {
        for p in t["cards"].as_array().unwrap() {
            s.insert(card(p["card"].as_str().unwrap()));
        }
    }
    for p in o["trick"].as_array().unwrap() {
        s.insert(card(p["card"].as_str().unwrap()));
    }
    s
}

#[test]
fn monte_carlo_plays_a_legal_card_and_is_deterministic() {
    for name in preset_names() {
        let r = rules(name);
        if r.two_packs() {
            // The sampler models one pack: two packs (RS-21) are refused with a typed error.
            let g = Game::new(r.clone(), Some(1), 0, None).unwrap();
            let o = g.observation(0).unwrap();
            let e = reversis_players::monte_carlo_evaluate(&r, &o, 4, 1).unwrap_err();
            assert_eq!(e.code.as_str(), "invalid-ruleset");
            let e = reversis_players::knowledge_from_observation(&r, &o).unwrap_err();
            assert_eq!(e.code.as_str(), "invalid-ruleset");
            continue;
        }
        for seed in 0..6u64 {
            let g = random_game(&r, seed, seed % 4, (seed as usize * 5) % r.deck().len());
            if g.phase() != Phase::Play {
                continue;
            }
            let seat = g.to_move().unwrap();
            let o = g.observation(seat).unwrap();
            let c = monte_carlo_play(&r, &o, 20, seed).unwrap();
            assert!(g.legal_plays().contains(c), "{name}: {c}");
            assert_eq!(monte_carlo_play(&r, &o, 20, seed).unwrap(), c);
            let ev = monte_carlo_evaluate(&r, &o, 10, seed).unwrap();
            assert_eq!(ev.len(), g.legal_plays().len());
            // Not the seat to move: refused.
            let other = g.observation((seat + 1) % r.players()).unwrap();
            assert!(monte_carlo_play(&r, &other, 5, seed).is_err());
        }
    }
}

#[test]
fn monte_carlo_returns_a_forced_card() {
    // The opening card is the only legal lead (PLAY-1).
    let r = rules("hearts-4");
    let g = dealt(
        r.clone(),
        3, // a hold hand
        &[
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 3S QS",
            "KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD 2S",
            "QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH 4S",
            "JH QH KH AH 5S 6S 7S 8S 9S TS JS KS AS",
        ],
    );
    let o = g.observation(0).unwrap();
    assert_eq!(monte_carlo_play(&r, &o, 50, 1).unwrap().to_string(), "2C");
}

#[test]
fn the_game_and_its_observation_give_the_same_knowledge() {
    // `Game::knowledge` (the core) and `knowledge_from_observation` (read from OBS-1 JSON) agree
    // at every decision of a few matches.
    for (name, seed) in [("hearts-4", 1u64), ("hartenjagen", 2), ("hearts-3", 3)] {
        let mut g = Game::new(rules(name), Some(seed), 0, None).unwrap();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..150 {
            for s in 0..g.ruleset().players() {
                let obs = g.observation(s).unwrap();
                let from_obs = reversis_players::knowledge_from_observation(g.ruleset(), &obs);
                assert_eq!(g.knowledge(s).ok(), from_obs.ok(), "{name} seat {s}");
            }
            let ids = g.legal_actions(None).unwrap();
            if ids.is_empty() {
                break;
            }
            let id = ids[rng.below_fast(ids.len() as u64) as usize];
            g.apply_action(id, None).unwrap();
        }
    }
}
