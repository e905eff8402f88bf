//! The sampler's exclusions (what legal play reveals beyond voids) and the search player.
#![allow(clippy::needless_range_loop)]

#[path = "../../reversis-core/tests/common/mod.rs"]
mod common;

use std::collections::HashMap;

use common::*;
use reversis_core::{
    preset_names, Card, CardMultiset, CardSet, ErrorCode, Game, HandState, Knowledge,
    PassDirection, PerSeat, Phase, Ruleset, Sampler, SplitMix64, Suit, MAX_PLAYERS, MOON_ADD_ID,
    MOON_SUBTRACT_ID, PASS_BASE,
};
use reversis_players::{
    count_consistent_layouts, count_observation_layouts, knowledge_from_observation,
    play_exclusions, policy_decision, sample_consistent_layouts, search_decision,
    search_decision_timed, search_decision_with, Budget, RolloutSeats, Style,
};
use serde_json::Value;

/// Every play of the hand so far in order, from an observation.
fn plays(o: &Value) -> Vec<(usize, Card)> {
    let mut out = Vec::new();
    let mut add = |list: &Value| {
        for p in list.as_array().unwrap() {
            out.push((
                p["seat"].as_u64().unwrap() as usize,
                card(p["card"].as_str().unwrap()),
            ));
        }
    };
    for t in o["tricks"].as_array().unwrap() {
        add(&t["cards"]);
    }
    add(&o["trick"]);
    out
}

/// A layout of every seat's hand.
type Hands = [CardMultiset; MAX_PLAYERS];

/// Every layout of the hidden cards (one hand per seat, as now) under which the hand's plays,
/// replayed from the first lead, were all legal and the seat to move is the observation's: the
/// truth that the sampler's knowledge and exclusions must describe exactly, with the number of
/// physical layouts each stands for (with two packs, RS-21, the two copies of a card told
/// apart). Tries every seat for every hidden copy within the seats' card counts.
fn replay_brute_force(r: &Ruleset, o: &Value) -> HashMap<Hands, u128> {
    let n = r.players();
    let k = knowledge_from_observation(r, o).unwrap();
    let history = plays(o);
    let mut by = [CardMultiset::EMPTY; MAX_PLAYERS];
    for &(s, c) in &history {
        by[s].insert(c);
    }
    let mut fixed = [CardMultiset::EMPTY; MAX_PLAYERS];
    let mut seen = k.hand.plus(k.played);
    fixed[k.seat] = k.hand;
    for s in 0..n {
        fixed[s] = fixed[s].plus(k.known[s]);
        seen = seen.plus(k.known[s]);
    }
    let hidden: Vec<Card> = r.deck_cards().minus(seen).to_vec();
    let mut room = [0usize; MAX_PLAYERS];
    for s in 0..n {
        room[s] = usize::from(k.counts[s]) - fixed[s].len();
    }
    let dealer = o["dealer"].as_u64().unwrap() as usize;
    let to_move = o["to_move"].as_u64().map(|s| s as usize);
    let mut out = HashMap::new();
    let mut layout = fixed;
    fn go(
        i: usize,
        hidden: &[Card],
        room: &mut [usize; MAX_PLAYERS],
        layout: &mut Hands,
        k: &Knowledge,
        check: &mut dyn FnMut(&Hands),
        n: usize,
    ) {
        if i == hidden.len() {
            check(layout);
            return;
        }
        for s in 0..n {
            if s == k.seat || room[s] == 0 {
                continue;
            }
            room[s] -= 1;
            let before = layout[s];
            layout[s].insert(hidden[i]);
            go(i + 1, hidden, room, layout, k, check, n);
            layout[s] = before;
            room[s] += 1;
        }
    }
    let mut check = |l: &Hands| {
        let mut start = [CardMultiset::EMPTY; MAX_PLAYERS];
        for s in 0..n {
            start[s] = l[s].plus(by[s]);
        }
        let mut h = HandState::new(r, &start[..n], dealer);
        for &(s, c) in &history {
            if h.to_move() != s || !h.legal_plays(r).contains(c) {
                return;
            }
            h.play_unchecked(r, c);
        }
        if o["phase"] == "play" && Some(h.to_move()) != to_move {
            return;
        }
        *out.entry(*l).or_insert(0) += 1;
    };
    go(0, &hidden, &mut room, &mut layout, &k, &mut check, n);
    out
}

/// Plays the first hand of `g` with `choose` picking among the legal action ids until the
/// observer `seat` sees at most `max_hidden` hidden cards (or the play ends).
fn play_until(g: &mut Game, seat: usize, max_hidden: usize, rng: &mut SplitMix64) {
    while g.phase() == Phase::Pass || g.phase() == Phase::Play {
        if g.phase() == Phase::Play {
            let k = g.knowledge(seat).unwrap();
            let hidden: usize = (0..g.ruleset().players())
                .filter(|&s| s != seat)
                .map(|s| usize::from(k.counts[s]) - k.known[s].len())
                .sum();
            if hidden <= max_hidden {
                return;
            }
        }
        let ids = g.legal_actions(None).unwrap();
        let id = ids[rng.below(ids.len() as u64) as usize];
        g.apply_action(id, None).unwrap();
    }
}

/// Hearts hands for the four seats of a 52-card deck: `special` for seat `at`, the rest of the
/// deck dealt in shuffled order to the other seats.
fn deal_around(special: &[Card], at: usize, rng: &mut SplitMix64) -> Vec<Vec<Card>> {
    let mut rest: Vec<Card> = (0..52)
        .map(Card::new)
        .filter(|c| !special.contains(c))
        .collect();
    rng.shuffle(&mut rest);
    let mut hands = vec![Vec::new(); 4];
    hands[at] = special.to_vec();
    let mut it = rest.into_iter();
    for s in 0..4 {
        while hands[s].len() < 13 {
            hands[s].push(it.next().unwrap());
        }
    }
    hands
}

/// Positions whose exact count the replay can check, with what they are: random games of every
/// preset, and deals built so that legal play reveals more than voids (a hand of point cards
/// discarding on the first trick; a hand of hearts leading before hearts are broken).
fn endgames(crafted_hidden: usize) -> Vec<(Ruleset, Value, &'static str)> {
    let mut out = Vec::new();
    let mut rng = SplitMix64::new(77);
    for name in [
        "hearts-3",
        "hearts-4",
        "hearts-5",
        "hearts-computer",
        "hartenjagen",
        "omnibus-4",
        "cancellation-6",
        "cancellation-8",
        "cancellation-10",
    ] {
        let r = rules(name);
        // Two packs (RS-21): fewer hidden copies for more seats, to keep the enumeration small.
        let hidden = if r.two_packs() { 7 } else { 9 };
        for seed in 0..8u64 {
            let mut g = Game::new(r.clone(), Some(seed), seed % 4, None).unwrap();
            let seat = (seed as usize) % r.players();
            play_until(&mut g, seat, hidden, &mut rng);
            if g.phase() == Phase::Play {
                out.push((r.clone(), g.observation(seat).unwrap(), "random"));
            }
        }
    }
    // Diamonds score too, so that a hand of point cards need not be nearly every heart.
    let diamonds = modified("hearts-computer", |m| {
        let points = m["card_points"].as_object_mut().unwrap();
        for rank in "23456789TJQKA".chars() {
            points.insert(format!("{rank}D"), Value::from(1));
        }
    });
    let points: Vec<Card> = diamonds.point_cards().into_iter().collect();
    for seed in 0..24u64 {
        // Seat 1 holds only point cards: its first-trick discard shows it (PLAY-5).
        let mut special = points.clone();
        rng.shuffle(&mut special);
        special.truncate(13);
        let hands = deal_around(&special, 1, &mut rng);
        let mut g = Game::new(diamonds.clone(), None, 3, None).unwrap();
        g.deal(Some(hands)).unwrap();
        let seat = [0, 2, 3][seed as usize % 3];
        play_until(&mut g, seat, crafted_hidden, &mut rng);
        if g.phase() == Phase::Play {
            out.push((
                diamonds.clone(),
                g.observation(seat).unwrap(),
                "point cards",
            ));
        }
    }
    for seed in 0..24u64 {
        // Seat 2 wins three club tricks and then leads from ten hearts, unbroken (PLAY-6).
        let r = rules(if seed % 2 == 0 {
            "hearts-computer"
        } else {
            "hearts-4"
        });
        let mut others: Vec<Card> = (0..52)
            .map(Card::new)
            .filter(|c| c.suit() == Suit::Diamonds || c.suit() == Suit::Spades)
            .chain(cards("QH KH AH"))
            .collect();
        rng.shuffle(&mut others);
        let mut hands = vec![
            cards("2C 3C 4C 5C"),
            cards("6C 7C 8C"),
            cards("AC KC QC 2H 3H 4H 5H 6H 7H 8H 9H TH JH"),
            cards("9C TC JC"),
        ];
        let mut it = others.into_iter();
        for s in [0, 1, 3] {
            while hands[s].len() < 13 {
                hands[s].push(it.next().unwrap());
            }
        }
        let mut g = Game::new(r.clone(), None, 3, None).unwrap();
        g.deal(Some(hands)).unwrap();
        let seat = [0, 1, 3][seed as usize % 3];
        play_until(&mut g, seat, crafted_hidden, &mut rng);
        if g.phase() == Phase::Play {
            out.push((r, g.observation(seat).unwrap(), "hearts lead"));
        }
    }
    out
}

#[test]
fn consistent_counts_equal_the_replay_of_every_layout() {
    let mut sharper: HashMap<&str, usize> = HashMap::new();
    let cases = endgames(12);
    assert!(cases.len() >= 50, "{} cases", cases.len());
    for (r, o, what) in &cases {
        let truth = replay_brute_force(r, o);
        assert!(!truth.is_empty());
        let count = count_consistent_layouts(r, o).unwrap();
        let physical: u128 = truth.values().sum();
        assert_eq!(count, physical, "{what} {} {o}", r.name());
        if r.two_packs() {
            *sharper.entry("two packs").or_default() += 1;
        }
        let voids_only = count_observation_layouts(r, o).unwrap();
        assert!(voids_only >= count);
        if voids_only > count {
            *sharper.entry(what).or_default() += 1;
        }
    }
    // The built deals do reveal more than voids.
    assert!(
        sharper.get("point cards").copied().unwrap_or(0) >= 3,
        "{sharper:?}"
    );
    assert!(
        sharper.get("hearts lead").copied().unwrap_or(0) >= 3,
        "{sharper:?}"
    );
    assert!(
        sharper.get("two packs").copied().unwrap_or(0) >= 12,
        "{sharper:?}"
    );
}

#[test]
fn consistent_samples_are_uniform_where_play_reveals_more() {
    let mut tested = 0;
    let mut two_packs = 0;
    for (i, (r, o, _)) in endgames(7).iter().enumerate() {
        let truth = replay_brute_force(r, o);
        let physical: u128 = truth.values().sum();
        if !(3..=60).contains(&truth.len())
            || (!r.two_packs() && count_observation_layouts(r, o).unwrap() == physical)
        {
            continue;
        }
        tested += 1;
        two_packs += usize::from(r.two_packs());
        let draws = 300 * truth.len();
        let mut freq: HashMap<Hands, usize> = truth.keys().map(|l| (*l, 0)).collect();
        for l in sample_consistent_layouts(r, o, draws, i as u64).unwrap() {
            *freq.get_mut(&l.0).expect("a sample is a consistent layout") += 1;
        }
        // Each layout weighed by its physical layouts (RS-21).
        let chi2: f64 = freq
            .iter()
            .map(|(l, &o)| {
                let e = draws as f64 * truth[l] as f64 / physical as f64;
                (o as f64 - e).powi(2) / e
            })
            .sum();
        let df = (truth.len() - 1) as f64;
        assert!(
            chi2 < df + 7.0 * (2.0 * df).sqrt() + 20.0,
            "chi2 {chi2} df {df}"
        );
    }
    assert!(
        tested >= 4 && two_packs >= 2,
        "{tested} cases tested, {two_packs} of two packs"
    );
}

#[test]
fn exclusions_count_as_a_brute_force_filter() {
    // Random knowledge and random excluded cards, against every assignment of the hidden cards.
    let mut rng = SplitMix64::new(3);
    let mut nonzero = 0;
    for name in ["hearts-3", "hearts-4", "hearts-5", "hartenjagen"] {
        let r = rules(name);
        let n = r.players();
        for _ in 0..60 {
            let mut deck: Vec<Card> = r.deck().into_iter().collect();
            rng.shuffle(&mut deck);
            let hidden = 2 + rng.below(if n == 5 { 6 } else { 8 }) as usize;
            let mut k = Knowledge::default();
            let mut counts = vec![0u8; n];
            for _ in 0..hidden {
                counts[1 + rng.below(n as u64 - 1) as usize] += 1;
            }
            for s in 1..n {
                k.counts[s] = counts[s];
                k.voids[s] = (rng.below(16) & rng.below(16)) as u8;
            }
            let own = rng.below(3) as usize;
            for &c in &deck[hidden..hidden + own] {
                k.hand.insert(c);
            }
            k.counts[0] = own as u8;
            for &c in &deck[hidden + own..] {
                k.played.insert(c);
            }
            let mut excluded = PerSeat::splat(CardSet::EMPTY);
            for s in 1..n {
                for &c in &deck[..hidden] {
                    if rng.below(4) == 0 {
                        excluded[s].insert(c);
                    }
                }
            }
            let others: Vec<usize> = (1..n).collect();
            let mut want = 0u128;
            for code in 0..others.len().pow(hidden as u32) {
                let mut layout = [0u64; 7];
                let mut x = code;
                for &c in &deck[..hidden] {
                    layout[others[x % others.len()]] |= c.bit();
                    x /= others.len();
                }
                let ok = (1..n).all(|s| {
                    CardSet(layout[s]).len() == usize::from(k.counts[s])
                        && layout[s] & excluded[s].0 == 0
                        && (0..4).all(|suit| {
                            k.voids[s] & (1 << suit) == 0
                                || layout[s] & (0x1FFF << (13 * suit)) == 0
                        })
                });
                want += u128::from(ok);
            }
            assert_eq!(
                Sampler::count_with_exclusions(&r, &k, &excluded).unwrap(),
                want,
                "{name} {k:?} {excluded:?}"
            );
            nonzero += usize::from(want > 0);
            if want > 0 {
                let sampler = Sampler::with_exclusions(&r, &k, &excluded).unwrap();
                for _ in 0..20 {
                    let l = sampler.sample(&mut rng);
                    for s in 1..n {
                        assert!((l[s].distinct() & excluded[s]).is_empty());
                    }
                }
            } else {
                assert!(Sampler::with_exclusions(&r, &k, &excluded).is_err());
            }
        }
    }
    assert!(nonzero > 60, "too few consistent cases: {nonzero}");
}

#[test]
fn without_exclusions_the_draws_are_those_of_the_plain_sampler() {
    let r = rules("hearts-4");
    let g = Game::new(r.clone(), Some(4), 1, None).unwrap();
    let k = g.knowledge(2).unwrap();
    let plain = Sampler::new(&r, &k).unwrap();
    let none = Sampler::with_exclusions(&r, &k, &PerSeat::splat(CardSet::EMPTY)).unwrap();
    let (mut a, mut b) = (SplitMix64::new(8), SplitMix64::new(8));
    for _ in 0..50 {
        assert_eq!(plain.sample(&mut a), none.sample(&mut b));
    }
}

#[test]
fn before_the_first_lead_the_seat_to_move_holds_the_opening_card() {
    // A hold hand: 39 hidden cards in three hands of 13, one of them known to hold 2C.
    for seed in 0..8u64 {
        let g = Game::new(rules("hearts-4"), Some(seed), 3, None).unwrap();
        let leader = g.to_move().unwrap();
        let seat = (leader + 1 + seed as usize % 3) % 4;
        let o = g.observation(seat).unwrap();
        let all = count_observation_layouts(g.ruleset(), &o).unwrap();
        assert_eq!(count_consistent_layouts(g.ruleset(), &o).unwrap() * 3, all);
        let excluded = play_exclusions(g.ruleset(), &o).unwrap();
        for s in 0..4 {
            assert_eq!(excluded[s].to_strings() == ["2C"], s != leader, "seat {s}");
        }
        for l in sample_consistent_layouts(g.ruleset(), &o, 20, seed).unwrap() {
            assert!(l[leader].contains(card("2C")));
        }
        // The leader itself knows its hand: nothing to exclude that matters.
        let own = g.observation(leader).unwrap();
        assert_eq!(
            count_consistent_layouts(g.ruleset(), &own).unwrap(),
            count_observation_layouts(g.ruleset(), &own).unwrap()
        );
    }
}

/// How `play_hand`'s search decides: its playouts, its style, and after how many of its
/// decisions the hand stops.
struct Searching<'n> {
    playouts: u64,
    style: Style<'n>,
    limit: usize,
}

/// `play_hand`'s search in the default style, to the end of the hand.
fn searched(playouts: u64) -> Searching<'static> {
    Searching {
        playouts,
        style: Style::default(),
        limit: usize::MAX,
    }
}

/// Plays one hand of `r` from a seeded game at `hand_number`, the search at the seats where
/// `searcher` is true and the policy elsewhere, checking that every decision is legal, until
/// the hand is scored or the search has made its limit of decisions; returns the game and the
/// search's decisions in order.
fn play_hand(
    r: &Ruleset,
    seed: u64,
    hand_number: u64,
    Searching {
        playouts,
        style,
        limit,
    }: Searching<'_>,
    searcher: impl Fn(usize) -> bool,
) -> (Game, Vec<Vec<u16>>) {
    let mut g = Game::new(r.clone(), Some(seed), hand_number, None).unwrap();
    let mut made = Vec::new();
    let mut step = 0u64;
    let no_clock = || std::time::Duration::ZERO;
    while g.hands_scored() == 0 && made.len() < limit {
        let seat = g.to_act().unwrap();
        let o = g.observation(seat).unwrap();
        step += 1;
        let ids = if searcher(seat) {
            let budget = Budget::playouts(playouts);
            let ids = search_decision_with(r, &o, budget, style, seed ^ step, &no_clock).unwrap();
            made.push(ids.clone());
            ids
        } else {
            policy_decision(r, &o, Some(step)).unwrap()
        };
        let legal = g.legal_actions(Some(seat)).unwrap();
        match g.phase() {
            Phase::Pass => {
                assert_eq!(ids.len(), r.passing().unwrap().size);
                assert!(ids.windows(2).all(|w| w[0] < w[1]));
                assert!(ids.iter().all(|id| legal.contains(id)), "{ids:?}");
            }
            _ => {
                assert_eq!(ids.len(), 1);
                assert!(legal.contains(&ids[0]), "{} {ids:?} {legal:?}", r.name());
            }
        }
        for id in ids {
            g.apply_action(id, Some(seat)).unwrap();
        }
    }
    (g, made)
}

#[test]
fn the_search_plays_legal_actions_on_every_preset() {
    for name in preset_names() {
        let r = rules(name);
        for seed in 0..2u64 {
            // Hand numbers 0 and 1: a pass where the ruleset has passing.
            play_hand(&r, seed, seed, searched(60), |s| s % 2 == 0);
        }
    }
}

#[test]
fn the_search_is_deterministic_for_a_seed() {
    let r = rules("hearts-computer");
    let (_, a) = play_hand(&r, 5, 0, searched(200), |s| s != 1);
    let (_, b) = play_hand(&r, 5, 0, searched(200), |s| s != 1);
    assert_eq!(a, b);
}

#[test]
fn a_moon_taker_chooses_by_the_match_totals() {
    // Seat 0 holds every club: it leads them all and takes every trick (SCORE-2).
    let r = rules("hearts-4");
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD 2H 3H 4H 5H",
        "JD QD KD AD 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ];
    let mut g = dealt(r.clone(), 3, &hands);
    while g.phase() == Phase::Play {
        let seat = g.to_move().unwrap();
        let o = g.observation(seat).unwrap();
        let ids = search_decision(&r, &o, Budget::playouts(50), 1).unwrap();
        g.apply_action(ids[0], Some(seat)).unwrap();
    }
    assert_eq!(g.phase(), Phase::Moon);
    let mut o = g.observation(0).unwrap();
    // Level at 0: adding to the others brings the end nearer for the leader.
    assert_eq!(
        search_decision(&r, &o, Budget::playouts(1), 0).unwrap(),
        [MOON_ADD_ID]
    );
    // Adding 26 would end the match with seat 3 lowest: subtract instead.
    o["scores"] = serde_json::json!([90, 80, 80, 60]);
    assert_eq!(
        search_decision(&r, &o, Budget::playouts(1), 0).unwrap(),
        [MOON_SUBTRACT_ID]
    );
    // Adding 26 ends the match with seat 0 the winner alone.
    o["scores"] = serde_json::json!([30, 80, 80, 80]);
    assert_eq!(
        search_decision(&r, &o, Budget::playouts(1), 0).unwrap(),
        [MOON_ADD_ID]
    );
    // Trailing, far from the end: subtract, which puts the end off.
    o["scores"] = serde_json::json!([40, 10, 20, 30]);
    assert_eq!(
        search_decision(&r, &o, Budget::playouts(1), 0).unwrap(),
        [MOON_SUBTRACT_ID]
    );
    // Nobody else has a choice to make.
    let other = g.observation(1).unwrap();
    assert!(search_decision(&r, &other, Budget::playouts(1), 0).is_err());
}

#[test]
fn a_pass_is_of_the_observers_cards_and_only_while_it_is_to_pass() {
    let r = rules("hearts-4");
    let mut g = Game::new(r.clone(), Some(9), 0, None).unwrap();
    let o = g.observation(0).unwrap();
    let ids = search_decision(&r, &o, Budget::playouts(400), 2).unwrap();
    let hand = g.hand(0).unwrap();
    assert_eq!(ids.len(), 3);
    assert!(ids
        .iter()
        .all(|&id| hand.contains(Card::new((id - PASS_BASE) as u8))));
    for id in ids {
        g.apply_action(id, Some(0)).unwrap();
    }
    assert!(search_decision(&r, &g.observation(0).unwrap(), Budget::playouts(10), 2).is_err());
    // Wrong phase, empty budget, a seat not to play.
    assert!(search_decision(&r, &o, Budget::default(), 2).is_err());
    assert!(search_decision(&r, &o, Budget::playouts(0), 2).is_err());
    let g = Game::new(r.clone(), Some(9), 3, None).unwrap();
    let idle = (g.to_move().unwrap() + 1) % 4;
    assert!(search_decision(&r, &g.observation(idle).unwrap(), Budget::playouts(10), 2).is_err());
    let _ = PassDirection::Left;
}

#[test]
fn a_time_budget_is_kept() {
    let r = rules("hearts-computer");
    let g = Game::new(r.clone(), Some(3), 0, None).unwrap();
    let o = g.observation(1).unwrap();
    let start = std::time::Instant::now();
    let budget = Budget::time(std::time::Duration::from_millis(20));
    search_decision(&r, &o, budget, 1).unwrap();
    // A pass gets four times a card's budget, 80 ms; the clock is read between layouts (a
    // loaded machine may stretch them).
    assert!(start.elapsed() < std::time::Duration::from_millis(2000));
}

#[test]
fn a_time_budget_is_read_from_the_clock_given() {
    use std::cell::Cell;
    use std::time::Duration;
    let r = rules("hearts-computer");
    let g = Game::new(r.clone(), Some(3), 0, None).unwrap();
    let o = g.observation(1).unwrap();
    let budget = Budget::time(Duration::from_millis(50));
    // Each reading advances a millisecond: the decision must stop after about 4 x 50 readings
    // of this clock (a pass gets four times the budget), whatever the wall clock does.
    let readings = Cell::new(0u64);
    let clock = || {
        readings.set(readings.get() + 1);
        Duration::from_millis(readings.get())
    };
    let ids = search_decision_timed(&r, &o, budget, 1, &clock).unwrap();
    assert_eq!(ids.len(), r.passing().unwrap().size);
    let legal = g.legal_actions(Some(1)).unwrap();
    assert!(ids.iter().all(|id| legal.contains(id)));
    let read = readings.get();
    assert!((200..=260).contains(&read), "{read} readings");
}

#[test]
fn a_sun_taker_chooses_with_the_suns_bonus() {
    // hearts-4 with a sun at the taker's choice, 52 (SCORE-5): seat 0 holds every club and
    // takes every trick, so it shoots the sun, which takes precedence over the moon's 26.
    let mut v = rules("hearts-4").to_value();
    v["sun"] = serde_json::json!({"scoring": "taker-choice", "bonus": 52});
    let r = reversis_core::Ruleset::from_value(&v).unwrap();
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD 2H 3H 4H 5H",
        "JD QD KD AD 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ];
    let mut g = dealt(r.clone(), 3, &hands);
    while g.phase() == Phase::Play {
        let seat = g.to_move().unwrap();
        let o = g.observation(seat).unwrap();
        let ids = search_decision(&r, &o, Budget::playouts(50), 1).unwrap();
        g.apply_action(ids[0], Some(seat)).unwrap();
    }
    assert_eq!(g.phase(), Phase::Moon);
    let mut o = g.observation(0).unwrap();
    // From 90, 60, 60, 60: adding 52 takes the others to 112 and ends the match with seat 0
    // the winner alone; the moon's 26 would leave every total below 100, and seat 0, leading
    // by 30, would subtract.
    o["scores"] = serde_json::json!([90, 60, 60, 60]);
    assert_eq!(
        search_decision(&r, &o, Budget::playouts(1), 0).unwrap(),
        [MOON_ADD_ID]
    );
    let moon = rules("hearts-4");
    assert_eq!(
        search_decision(&moon, &o, Budget::playouts(1), 0).unwrap(),
        [MOON_SUBTRACT_ID]
    );
}

/// The network shipped with the Python package, read from the checkout.
fn shipped_network() -> reversis_players::Network {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../python/reversis/players/learned-hearts-computer.rvnn"
    );
    reversis_players::Network::from_bytes(&std::fs::read(path).unwrap()).unwrap()
}

/// The search's first eight decisions (its pass and its first cards) in one hand of `seed`, three
/// playouts each (a network decides far more slowly than the policy in a test build), the
/// playouts' cards played by `net`, at every seat but seat 1 (the policy).
fn play_hand_rolled_by(
    r: &Ruleset,
    seed: u64,
    hand_number: u64,
    net: Option<&reversis_players::Network>,
) -> Vec<Vec<u16>> {
    let style = Style {
        rollouts: net,
        ..Default::default()
    };
    let searching = Searching {
        playouts: 3,
        style,
        limit: 8,
    };
    play_hand(r, seed, hand_number, searching, |s| s != 1).1
}

#[test]
fn a_network_plays_the_searchs_playouts_on_every_preset() {
    let net = shipped_network();
    for name in preset_names() {
        // Hand 1: a pass where the ruleset has passing.
        play_hand_rolled_by(&rules(name), 2, 1, Some(&net));
    }
    let r = rules("hearts-computer");
    let a = play_hand_rolled_by(&r, 2, 1, Some(&net));
    assert_eq!(a, play_hand_rolled_by(&r, 2, 1, Some(&net)));
}

#[test]
fn the_network_in_the_playouts_changes_the_searchs_decisions() {
    let r = rules("hearts-computer");
    let net = shipped_network();
    let differ = (0..4u64)
        .filter(|&seed| {
            play_hand_rolled_by(&r, seed, 0, Some(&net)) != play_hand_rolled_by(&r, seed, 0, None)
        })
        .count();
    assert!(
        differ > 0,
        "the network's playouts decided as the policy's in every hand"
    );
}

// One card decision of a seat with a choice, in a hand played by the rule-based policy: the
// seat, the hand state, and the default search's decision beside the one in a given style.
struct Beside {
    seat: usize,
    hand: HandState,
    plain: Vec<u16>,
    styled: Vec<u16>,
}

// Every card decision with a choice in hand `hand_number` of `hearts-computer` for each of
// `seeds`, searched with 200 playouts by default and in `style` on the same seed.
fn beside_the_default(hand_number: u64, seeds: std::ops::Range<u64>, style: Style) -> Vec<Beside> {
    let r = rules("hearts-computer");
    let no_clock = || std::time::Duration::ZERO;
    let budget = Budget::playouts(200);
    let mut out = Vec::new();
    for seed in seeds {
        let mut g = Game::new(r.clone(), Some(seed), hand_number, None).unwrap();
        let mut step = 0u64;
        while g.hands_scored() == 0 {
            step += 1;
            let seat = g.to_act().unwrap();
            let o = g.observation(seat).unwrap();
            if g.phase() == Phase::Play && g.legal_actions(Some(seat)).unwrap().len() > 1 {
                out.push(Beside {
                    seat,
                    hand: *g.hand_state(),
                    plain: search_decision(&r, &o, budget, step).unwrap(),
                    styled: search_decision_with(&r, &o, budget, style, step, &no_clock).unwrap(),
                });
            }
            let ids = policy_decision(&r, &o, Some(step)).unwrap();
            for id in ids {
                g.apply_action(id, Some(seat)).unwrap();
            }
        }
    }
    out
}

#[test]
fn defending_against_the_moon_changes_only_decisions_where_another_seat_could_run() {
    let defending = Style {
        defend: true,
        ..Default::default()
    };
    let (mut threatened, mut changed, mut open) = (0, 0, 0);
    // Hand 3 holds: the first trick is played at once.
    for d in beside_the_default(3, 0..12, defending) {
        match d.hand.sole_point_taker() {
            Some(taker) if taker != d.seat => {
                threatened += 1;
                changed += usize::from(d.plain != d.styled);
            }
            // Nobody else can run: the same search, to the playout.
            _ => {
                open += 1;
                assert_eq!(d.plain, d.styled);
            }
        }
    }
    assert!(
        open > 50 && threatened > 20,
        "{open} open, {threatened} threatened"
    );
    assert!(
        changed > 0,
        "defending changed none of {threatened} decisions"
    );
}

// A format version 1 network (spec/learned.md): one layer of zeros from the encoding to the 106
// logits, and no value.
fn network_without_a_value() -> reversis_players::Network {
    let inputs = reversis_core::ENCODING_LENGTH;
    let mut file = b"RVNN".to_vec();
    file.extend(1u16.to_le_bytes());
    file.extend(1u16.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend((inputs as u32).to_le_bytes());
    file.extend(106u32.to_le_bytes());
    file.extend([0, 0, 0, 0]);
    file.extend(vec![0u8; 2 * 106 * inputs + 2 * 106]);
    let net = reversis_players::Network::from_bytes(&file).unwrap();
    assert!(!net.has_value());
    net
}

#[test]
fn settings_that_cannot_go_together_are_refused_before_any_table() {
    let net = shipped_network();
    let plain = network_without_a_value();
    let refused = [
        (
            Style {
                rollout_seats: RolloutSeats::Searcher,
                ..Default::default()
            },
            "without rollouts",
        ),
        (
            Style {
                leaves: Some(&plain),
                ..Default::default()
            },
            "has no value",
        ),
        (
            Style {
                leaves: Some(&net),
                defend: true,
                ..Default::default()
            },
            "defending against the moon",
        ),
    ];
    let r = rules("hearts-computer");
    let g = Game::new(r.clone(), Some(4), 3, None).unwrap();
    let o = g.observation(g.to_act().unwrap()).unwrap();
    let no_clock = || std::time::Duration::ZERO;
    for (style, why) in refused {
        let error = style.check().unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidSetup, "{why}");
        assert!(error.message().contains(why), "{}", error.message());
        let searched = search_decision_with(&r, &o, Budget::playouts(5), style, 1, &no_clock);
        assert_eq!(searched.unwrap_err().message(), error.message());
    }
    for fine in [
        Style::default(),
        Style {
            rollouts: Some(&net),
            rollout_seats: RolloutSeats::Searcher,
            ..Default::default()
        },
        Style {
            leaves: Some(&net),
            ..Default::default()
        },
    ] {
        fine.check().unwrap();
    }
}

#[test]
fn weighing_the_pass_received_changes_only_decisions_after_a_pass() {
    let weighing = Style {
        weigh_passes: true,
        ..Default::default()
    };
    // Hand 0 passes left, hand 3 holds.
    let passed = beside_the_default(0, 0..6, weighing);
    let changed = passed.iter().filter(|d| d.plain != d.styled).count();
    assert!(
        passed.len() > 100 && changed > 0,
        "{changed} of {} decisions changed",
        passed.len()
    );
    let held = beside_the_default(3, 0..6, weighing);
    assert!(held.len() > 100);
    for d in held {
        assert_eq!(
            d.plain, d.styled,
            "without a pass there is nothing to weigh"
        );
    }
}
