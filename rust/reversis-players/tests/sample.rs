//! The hidden-card sampler and the Monte Carlo player (001 ¶9).
#![allow(clippy::needless_range_loop)]

#[path = "../../reversis-core/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;

use common::*;
use reversis_core::{
    count_layouts, preset_names, Card, CardMultiset, CardSet, Game, Knowledge, PerSeat, Phase,
    Ruleset, Sampler, SplitMix64,
};
use reversis_players::{
    count_observation_layouts, monte_carlo_evaluate, monte_carlo_play, sample_layouts,
};
use serde_json::Value;

/// Every physical layout consistent with `k` and `excluded`, as its multiset layout (the first
/// `players` hands) with the number of physical layouts it stands for: every hidden copy (two
/// copies of a card told apart) tried in every other seat, backtracking on the capacities.
fn brute_force(
    rules: &Ruleset,
    k: &Knowledge,
    excluded: &PerSeat<CardSet>,
) -> HashMap<Vec<CardMultiset>, u128> {
    let n = rules.players();
    let mut seen = k.hand.plus(k.played);
    for s in 0..n {
        seen = seen.plus(k.known[s]);
    }
    let hidden: Vec<Card> = rules.deck_cards().minus(seen).to_vec();
    let others: Vec<usize> = (0..n).filter(|&s| s != k.seat).collect();
    let mut start: Vec<CardMultiset> = (0..n).map(|s| k.known[s]).collect();
    start[k.seat] = k.hand;
    let mut out = HashMap::new();
    fn place(
        at: usize,
        hidden: &[Card],
        others: &[usize],
        k: &Knowledge,
        excluded: &PerSeat<CardSet>,
        layout: &mut Vec<CardMultiset>,
        out: &mut HashMap<Vec<CardMultiset>, u128>,
    ) {
        if at == hidden.len() {
            // The whole hand, known cards included, against the voids and exclusions.
            let fits = |s: usize| {
                layout[s].len() == usize::from(k.counts[s])
                    && layout[s].set & excluded[s].0 == 0
                    && (0..4).all(|suit| {
                        k.voids[s] & (1 << suit) == 0
                            || layout[s].set & (0x1FFF << (13 * suit)) == 0
                    })
            };
            if others.iter().all(|&s| fits(s)) {
                *out.entry(layout.clone()).or_insert(0) += 1;
            }
            return;
        }
        let c = hidden[at];
        for &s in others {
            if layout[s].len() >= usize::from(k.counts[s])
                || k.voids[s] & (1 << c.suit().index()) != 0
                || excluded[s].contains(c)
            {
                continue;
            }
            let before = layout[s];
            layout[s].insert(c);
            place(at + 1, hidden, others, k, excluded, layout, out);
            layout[s] = before;
        }
    }
    place(0, &hidden, &others, k, excluded, &mut start, &mut out);
    out
}

/// A random knowledge with at most `max_hidden` hidden cards (copies) for seat 0 of `rules`.
fn random_knowledge(rules: &Ruleset, rng: &mut SplitMix64, max_hidden: usize) -> Knowledge {
    let n = rules.players();
    // Every copy (RS-21).
    let mut deck: Vec<Card> = rules.deck_cards().to_vec();
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
            k.known[s].insert(deck[at]);
            at += 1;
        }
        k.counts[s] = caps[s] + known as u8;
        k.voids[s] = rng.below(16) as u8 & rng.below(16) as u8;
    }
    let own = rng.below(4) as usize;
    for _ in 0..own {
        k.hand.insert(deck[at]);
        at += 1;
    }
    k.counts[0] = own as u8;
    for &c in &deck[at..] {
        k.played.insert(c);
    }
    k
}

// A few random cards each other seat is known not to hold (none for the observer).
fn random_exclusions(rules: &Ruleset, rng: &mut SplitMix64) -> PerSeat<CardSet> {
    let mut out = PerSeat::splat(CardSet::EMPTY);
    let deck = rules.deck().to_vec();
    for s in 1..rules.players() {
        for _ in 0..rng.below(3) {
            out[s].insert(deck[rng.below(deck.len() as u64) as usize]);
        }
    }
    out
}

/// A small two-pack ruleset (RS-21) of `players` seats: the queens, kings and aces twice, a
/// few copies removed so that the deck deals evenly.
fn small_two_packs(players: usize) -> Ruleset {
    let removed = match players {
        5 => vec!["QC", "QD", "QC", "QD"],
        _ => vec![],
    };
    let text = serde_json::json!({
        "name": format!("small-two-packs-{players}"),
        "players": players,
        "deck": {"lowest_rank": "Q", "removed": removed, "packs": 2},
        "passing": null,
        "opening_card": null,
        "first_trick_ban": false,
        "hearts_breaking": "heart",
        "card_points": {"QH": 1, "KH": 1, "AH": 1, "QS": 13},
        "moon": null,
        "target": 100,
        "cancellation": {"last_trick": "leader"},
    });
    Ruleset::from_value(&text).unwrap()
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
            let want: u128 = brute_force(&r, &k, &PerSeat::splat(CardSet::EMPTY))
                .values()
                .sum();
            assert_eq!(count_layouts(&r, &k).unwrap(), want, "{name} {k:?}");
            nonzero += usize::from(want > 0);
        }
    }
    assert!(nonzero > 60, "too few consistent cases: {nonzero}");
}

#[test]
fn two_pack_counts_are_the_physical_layouts_of_brute_force() {
    // Small two-pack rulesets: many cards held twice, played twice and hidden twice.
    let mut rng = SplitMix64::new(21);
    let mut nonzero = 0;
    let mut doubled = 0;
    for players in [3, 4, 5, 6] {
        let r = small_two_packs(players);
        assert!(r.two_packs());
        for _ in 0..60 {
            let k = random_knowledge(&r, &mut rng, 8);
            for excluded in [
                PerSeat::splat(CardSet::EMPTY),
                random_exclusions(&r, &mut rng),
            ] {
                let all = brute_force(&r, &k, &excluded);
                let want: u128 = all.values().sum();
                let got = Sampler::count_with_exclusions(&r, &k, &excluded).unwrap();
                assert_eq!(got, want, "{players} seats {k:?} {excluded:?}");
                nonzero += usize::from(want > 0);
                doubled += usize::from(all.values().any(|&w| w == 2));
            }
        }
    }
    assert!(nonzero > 120 && doubled > 30, "{nonzero} {doubled}");
}

// Draws `per * layouts` samples and checks them against the exact distribution `all` (each
// multiset layout weighed by its physical layouts): every draw is one of them, and a
// chi-squared test against a generous bound (p ≈ 1e-6).
fn check_draws(
    sampler: &Sampler,
    all: &HashMap<Vec<CardMultiset>, u128>,
    n: usize,
    rng: &mut SplitMix64,
) {
    let total: u128 = all.values().sum();
    assert_eq!(sampler.count(), total);
    let draws = 300 * all.len();
    let mut freq: HashMap<Vec<CardMultiset>, usize> = all.keys().map(|l| (l.clone(), 0)).collect();
    for _ in 0..draws {
        let l = sampler.sample(rng);
        *freq
            .get_mut(&l[..n])
            .expect("a sample is a consistent layout") += 1;
    }
    let chi2: f64 = freq
        .iter()
        .map(|(l, &o)| {
            let e = draws as f64 * all[l] as f64 / total as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    let df = (all.len() - 1) as f64;
    assert!(
        chi2 < df + 7.0 * (2.0 * df).sqrt() + 20.0,
        "chi2 {chi2} df {df}"
    );
}

#[test]
fn samples_are_uniform_on_small_cases() {
    let mut rng = SplitMix64::new(5);
    let r = rules("hearts-4");
    let mut tested = 0;
    while tested < 5 {
        let k = random_knowledge(&r, &mut rng, 7);
        let all = brute_force(&r, &k, &PerSeat::splat(CardSet::EMPTY));
        if !(3..=40).contains(&all.len()) {
            continue;
        }
        tested += 1;
        assert!(all.values().all(|&w| w == 1));
        check_draws(&Sampler::new(&r, &k).unwrap(), &all, r.players(), &mut rng);
    }
}

#[test]
fn two_pack_samples_are_uniform_over_physical_layouts() {
    let mut rng = SplitMix64::new(6);
    let mut tested = 0;
    let mut weighed = 0;
    for players in [3, 4, 5, 6] {
        let r = small_two_packs(players);
        let mut here = 0;
        while here < 3 {
            let k = random_knowledge(&r, &mut rng, 7);
            let excluded = if here % 2 == 0 {
                PerSeat::splat(CardSet::EMPTY)
            } else {
                random_exclusions(&r, &mut rng)
            };
            let all = brute_force(&r, &k, &excluded);
            if !(3..=60).contains(&all.len()) {
                continue;
            }
            here += 1;
            weighed += usize::from(all.values().any(|&w| w > 1));
            let sampler = Sampler::with_exclusions(&r, &k, &excluded).unwrap();
            check_draws(&sampler, &all, players, &mut rng);
        }
        tested += here;
    }
    assert!(tested == 12 && weighed >= 4, "{tested} {weighed}");
}

/// The hand's plays so far, in order, and the seat that leads the first trick.
fn plays_of(g: &Game) -> (Vec<(usize, Card)>, usize) {
    let mut plays: Vec<(usize, Card)> = g.tricks().iter().flat_map(|t| t.plays()).collect();
    plays.extend(g.trick());
    let leader = plays.first().map_or_else(|| g.to_move().unwrap(), |p| p.0);
    (plays, leader)
}

#[test]
fn two_pack_samples_from_real_games_are_exact() {
    // Knowledge from random games of the cancellation presets, late in a hand so that brute
    // force can enumerate the hidden copies, with what the plays reveal.
    let mut rng = SplitMix64::new(8);
    let mut tested = 0;
    for name in ["cancellation-6", "cancellation-8", "cancellation-10"] {
        let r = rules(name);
        let n = r.players();
        let mut here = 0;
        for seed in 0..200u64 {
            if here == 4 {
                break;
            }
            // Played on at random until the observer sees at most 5 to 8 hidden copies.
            let seat = (seed as usize * 3) % n;
            let most = 5 + (seed as usize % 4);
            let mut g = random_game(&r, seed, seed % 2, 0);
            let mut play = SplitMix64::new(seed);
            let hidden = |g: &Game| {
                let k = g.knowledge(seat).unwrap();
                (0..n)
                    .filter(|&s| s != seat)
                    .map(|s| usize::from(k.counts[s]) - k.known[s].len())
                    .sum::<usize>()
            };
            while g.phase() == Phase::Play && hidden(&g) > most {
                let legal = g.legal_plays();
                let c = legal.nth(play.below(legal.len() as u64) as usize).unwrap();
                g.play(c, None).unwrap();
            }
            if g.phase() != Phase::Play {
                continue;
            }
            let k = g.knowledge(seat).unwrap();
            let o = g.observation(seat).unwrap();
            let k2 = reversis_players::knowledge_from_observation(&r, &o).unwrap();
            assert_eq!(k, k2, "{name} seed {seed}");
            let (plays, leader) = plays_of(&g);
            let excluded = reversis_core::revealed(&r, leader, &plays).unwrap();
            assert_eq!(excluded, reversis_players::play_exclusions(&r, &o).unwrap());
            let all = brute_force(&r, &k, &excluded);
            if !(2..=80).contains(&all.len()) {
                continue;
            }
            // The true hands are among the layouts.
            let truth: Vec<CardMultiset> = (0..n).map(|s| g.hand(s).unwrap()).collect();
            assert!(all.contains_key(&truth), "{name} seed {seed}");
            let sampler = Sampler::after_plays(&r, &k, leader, &plays).unwrap();
            check_draws(&sampler, &all, n, &mut rng);
            here += 1;
        }
        assert!(here >= 2, "{name}: {here} cases");
        tested += here;
    }
    assert!(tested >= 6);
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
        "cancellation-6",
        "cancellation-8",
        "cancellation-10",
    ] {
        let r = rules(name);
        for seed in 0..12u64 {
            let mut plays = (seed as usize * 7) % r.deck_len();
            if r.two_packs() && seed > 0 {
                // Mid-hand two-pack states are slow to count in a debug build: the last quarter.
                plays = r.deck_len() - 1 - plays % (r.deck_len() / 4);
            }
            let g = random_game(&r, seed, seed % 3, plays);
            for seat in 0..r.players() {
                let o = g.observation(seat).unwrap();
                let layouts = sample_layouts(&r, &o, 20, seed).unwrap();
                for l in layouts {
                    for s in 0..r.players() {
                        let truth = g.hand(s).unwrap();
                        assert_eq!(l[s].len(), truth.len());
                        if s == seat {
                            assert_eq!(l[s], truth);
                        }
                        // No more copies of a card than the deck has, held or played.
                        let all = l[s].plus(played(&o));
                        assert_eq!(all.len(), l[s].len() + played(&o).len());
                        assert!(all.is_subset(r.deck_cards()));
                        for v in o["voids"][s].as_array().unwrap() {
                            let suit = reversis_core::Suit::from_index(suit_index(v));
                            assert!(l[s].distinct().of_suit(suit).is_empty());
                        }
                    }
                    if let (Some(p), false) = (o["passed"].as_array(), o["received"].is_null()) {
                        let dir = reversis_core::PassDirection::from_name(
                            o["pass_direction"].as_str().unwrap(),
                        )
                        .unwrap();
                        let to = dir.target(seat, r.players());
                        // A passed copy is held by its receiver until it plays that card.
                        let by_receiver: CardMultiset = plays_of(&g)
                            .0
                            .into_iter()
                            .filter(|&(s, _)| s == to)
                            .map(|(_, c)| c)
                            .collect();
                        let passed: CardMultiset =
                            p.iter().map(|c| card(c.as_str().unwrap())).collect();
                        assert!(passed.minus(by_receiver).is_subset(l[to]));
                    }
                }
            }
        }
    }
}

fn played(o: &Value) -> CardMultiset {
    let mut s = CardMultiset::EMPTY;
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
        for seed in 0..6u64 {
            let mut plays = (seed as usize * 5) % r.deck_len();
            if r.two_packs() && seed > 0 {
                // Mid-hand two-pack states are slow to count in a debug build: the last quarter.
                plays = r.deck_len() - 1 - plays % (r.deck_len() / 4);
            }
            let g = random_game(&r, seed, seed % 4, plays);
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
    for (name, seed) in [
        ("hearts-4", 1u64),
        ("hartenjagen", 2),
        ("hearts-3", 3),
        ("cancellation-6", 4),
        ("cancellation-8", 5),
        ("cancellation-10", 6),
    ] {
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
