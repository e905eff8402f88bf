//! The rules of play read backwards (the kernel's inverses), at the positions of real hands: a
//! card is legal from a hand exactly when the hand holds none of the cards its play reveals,
//! and the sampler's layouts after a hand's plays are layouts from which every play was legal,
//! with every revealed void and known card in place.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{
    revealed, Card, CardMultiset, CardSet, Game, HandState, MoonChoice, PerSeat, Phase, Ruleset,
    Sampler, SplitMix64, FIELDS, FULL_DECK, SUIT_MASKS,
};

/// Every preset, and variants for the rules the presets leave out: a free first lead under
/// `heart` breaking, a heart for the opening card, no ban, `none` breaking; and every value of
/// every simple field of the table on a preset (`table_variants`).
fn variants() -> Vec<Ruleset> {
    let mut all: Vec<Ruleset> = reversis_core::preset_names()
        .into_iter()
        .map(rules)
        .collect();
    all.push(modified("hearts-4", |m| {
        m.insert("opening_card".into(), serde_json::Value::Null);
        m.insert("hearts_breaking".into(), "heart".into());
    }));
    all.push(modified("hearts-3", |m| {
        m.insert("opening_card".into(), "2H".into());
        m.insert("passing".into(), serde_json::Value::Null);
    }));
    all.push(modified("hearts-5", |m| {
        m.insert("first_trick_ban".into(), false.into());
        m.insert("hearts_breaking".into(), "none".into());
    }));
    all.push(modified("cancellation-6", |m| {
        m.insert("first_trick_ban".into(), false.into());
        m.insert("hearts_breaking".into(), "heart".into());
    }));
    all.extend(table_variants());
    all
}

#[test]
fn the_variants_set_every_value_of_every_simple_field_of_the_table() {
    let all = table_variants();
    let mut seen = 0;
    for f in FIELDS.iter().filter(|f| f.is_simple()) {
        if matches!(f.name, "players" | "target") {
            continue;
        }
        for value in simple_values(f.kind) {
            seen += 1;
            assert!(
                all.iter().any(|r| r.field(f.name).as_ref() == Some(&value)),
                "no variant with {} = {value}",
                f.name
            );
        }
    }
    // first_trick_ban's two values, hearts_breaking's three, count_down's two at least.
    assert!(seen >= 7, "{seen}");
}

/// A deal of `rules` from `rng`: uniform, or (one time in two) lumpy, the deck sorted by suit
/// with a few random swaps, so that hands of one suit, of hearts only and of point cards only
/// come up, and with them the plays that reveal most.
fn deal(rules: &Ruleset, rng: &mut SplitMix64) -> Vec<Vec<Card>> {
    // Every copy (RS-21).
    let mut deck: Vec<Card> = rules.deck_cards().to_vec();
    if rng.below(2) == 0 {
        rng.shuffle(&mut deck);
    } else {
        for _ in 0..rng.below(12) {
            let (i, j) = (rng.below(deck.len() as u64), rng.below(deck.len() as u64));
            deck.swap(i as usize, j as usize);
        }
        // Whole runs to a seat, rotated so that the seat holding hearts varies.
        let shift = rng.below(deck.len() as u64) as usize;
        deck.rotate_left(shift);
    }
    let size = rules.hand_size();
    deck.chunks(size).map(|c| c.to_vec()).collect()
}

/// Plays one hand of `rules` at `hand_number` from a deal of `rng` with random legal choices
/// (passes too), calling `at` at every play decision.
fn random_hand(rules: &Ruleset, hand_number: u64, rng: &mut SplitMix64, mut at: impl FnMut(&Game)) {
    let mut g = Game::new(rules.clone(), None, hand_number, None).unwrap();
    g.deal(Some(deal(rules, rng))).unwrap();
    loop {
        match g.phase() {
            Phase::Pass => {
                let size = rules.passing().unwrap().size;
                for seat in g.awaiting_pass() {
                    let mut hand = g.hand(seat).unwrap().to_vec();
                    rng.shuffle(&mut hand);
                    g.pass_cards(hand[..size].to_vec(), Some(seat)).unwrap();
                }
            }
            Phase::Play => {
                at(&g);
                let legal = g.legal_plays();
                let card = legal.nth(rng.below(legal.len() as u64) as usize).unwrap();
                g.play(card, None).unwrap();
            }
            Phase::Moon => g.choose_moon(MoonChoice::AddToOthers, None).unwrap(),
            Phase::Deal | Phase::Over => return,
        }
    }
}

/// A hand of random cards of `pool` that holds `card`.
fn random_hand_with(card: Card, pool: u64, rng: &mut SplitMix64) -> CardSet {
    let mut h = card.bit();
    for c in CardSet(pool) {
        if rng.below(3) == 0 {
            h |= c.bit();
        }
    }
    CardSet(h)
}

#[test]
fn a_card_is_legal_exactly_from_the_hands_that_hold_nothing_its_play_reveals() {
    let mut rng = SplitMix64::new(11);
    // Plays seen that reveal nothing, a void, a hand of hearts, a hand of point cards, and the
    // opening card's absence.
    let mut shown = [0usize; 5];
    for rules in variants() {
        let points = rules.point_cards().0;
        for hand_number in 0..8 {
            random_hand(&rules, hand_number, &mut rng.clone(), |g| {
                let st: HandState = *g.hand_state();
                let seat = st.to_move();
                let unplayed = rules.deck().0 & !st.played().set;
                // The hand itself: nothing a legal card reveals is in it.
                for c in st.legal_plays(&rules) {
                    assert!((st.reveals(&rules, c) & st.held(seat)).is_empty());
                }
                // Other hands in the same position, some of one suit, of hearts or of points.
                for c in CardSet(unplayed) {
                    let excluded = st.reveals(&rules, c).0;
                    let non_points = rules.deck().0 & !points;
                    let kind = if excluded == 0 {
                        0
                    } else if SUIT_MASKS.contains(&excluded) {
                        1
                    } else if excluded == FULL_DECK & !SUIT_MASKS[2] {
                        2
                    } else if non_points & !excluded == 0 {
                        3
                    } else {
                        assert_eq!(Some(excluded), rules.opening_card().map(|o| o.bit()));
                        4
                    };
                    shown[kind] += 1;
                    for pool in [unplayed, unplayed & SUIT_MASKS[2], unplayed & points] {
                        let mut other = st;
                        let h = random_hand_with(c, pool, &mut rng);
                        other.set_hand(seat, h);
                        assert_eq!(
                            other.legal_plays(&rules).contains(c),
                            (h.0 & excluded) == 0,
                            "{} {c} from {h}, revealing {}",
                            rules.name(),
                            CardSet(excluded)
                        );
                    }
                }
            });
            rng.next_u64();
        }
    }
    assert!(shown.iter().all(|&k| k > 100), "{shown:?}");
}

/// The hand's plays so far, in order, and the seat that leads the first trick.
fn plays_of(g: &Game) -> (Vec<(usize, Card)>, usize) {
    let mut plays: Vec<(usize, Card)> = g.tricks().iter().flat_map(|t| t.plays()).collect();
    plays.extend(g.trick());
    let leader = plays.first().map_or_else(|| g.to_move().unwrap(), |p| p.0);
    (plays, leader)
}

#[test]
fn sampled_layouts_keep_every_revealed_void_and_known_card_and_make_every_play_legal() {
    let mut rng = SplitMix64::new(12);
    let mut narrower = 0;
    let mut checked = 0;
    for rules in variants() {
        let n = rules.players();
        for hand_number in 0..4 {
            let mut moment = 0;
            random_hand(&rules, hand_number, &mut rng.clone(), |g| {
                moment += 1;
                // Two-pack tables (RS-21) are larger and slow to count in mid-hand (a debug
                // build takes seconds): one hand, fewer moments.
                let every = if rules.two_packs() { 61 } else { 9 };
                if moment % every != 1 || (rules.two_packs() && hand_number > 0) {
                    return;
                }
                let (plays, leader) = plays_of(g);
                let mut played_by = PerSeat::splat(CardMultiset::EMPTY);
                for &(s, c) in &plays {
                    played_by[s].insert(c);
                }
                for seat in (0..n).filter(|s| !rules.two_packs() || s % 3 == moment % 3) {
                    let k = g.knowledge(seat).unwrap();
                    let sampler = Sampler::after_plays(&rules, &k, leader, &plays).unwrap();
                    let plain = Sampler::new(&rules, &k).unwrap();
                    assert!(sampler.count() <= plain.count());
                    narrower += usize::from(sampler.count() < plain.count());
                    let mut draw = SplitMix64::new(rng.next_u64());
                    for _ in 0..8 {
                        let layout = sampler.sample(&mut draw);
                        assert_eq!(layout[seat], k.hand);
                        // Every copy of the deck is somewhere, once: in a hand or played.
                        let mut all = k.played;
                        for s in 0..n {
                            assert_eq!(layout[s].len(), usize::from(k.counts[s]));
                            assert_eq!(
                                (layout[s].twice | all.twice) & (layout[s].set & all.set),
                                0
                            );
                            all = all.plus(layout[s]);
                            assert!(k.known[s].is_subset(layout[s]), "a known card");
                            for suit in 0..4 {
                                if k.voids[s] & (1 << suit) != 0 {
                                    assert_eq!(layout[s].set & SUIT_MASKS[suit], 0, "a void");
                                }
                            }
                        }
                        assert_eq!(all, rules.deck_cards());
                        // The hands the plays were made from: every play legal, in turn.
                        let hands: Vec<CardMultiset> =
                            (0..n).map(|s| layout[s].plus(played_by[s])).collect();
                        let mut st = HandState::new(&rules, &hands, g.dealer());
                        assert_eq!(st.to_move(), leader);
                        for &(s, c) in &plays {
                            assert_eq!(st.to_move(), s);
                            assert_eq!(st.check_play(&rules, c), Ok(()), "{} {c}", rules.name());
                            st.play_unchecked(&rules, c);
                        }
                        checked += 1;
                    }
                }
            });
            rng.next_u64();
        }
    }
    assert!(checked > 1000 && narrower > 20, "{checked} {narrower}");
}

#[test]
fn the_revealed_cards_include_the_voids_and_refuse_a_history_out_of_turn() {
    let r = rules("hearts-4");
    let mut g = Game::new(r.clone(), Some(5), 3, None).unwrap();
    play_out_n(&mut g, 9);
    let (plays, leader) = plays_of(&g);
    let shown = revealed(&r, leader, &plays).unwrap();
    for s in 0..4 {
        for suit in 0..4 {
            if g.hand_state().voids(s) & (1 << suit) != 0 {
                assert_eq!(shown[s].0 & SUIT_MASKS[suit], SUIT_MASKS[suit]);
            }
        }
        // What a seat is shown not to hold, it does not hold.
        assert!((shown[s] & g.hand(s).unwrap().distinct()).is_empty());
    }
    let mut swapped = plays.clone();
    swapped.swap(1, 2);
    assert!(revealed(&r, leader, &swapped).is_err());
    assert!(revealed(&r, (leader + 1) % 4, &plays).is_err());
    let mut twice = plays.clone();
    twice.push((twice[4].0, twice[0].1));
    assert!(revealed(&r, leader, &twice).is_err());
    assert!(revealed(&r, 4, &[]).is_err());
}

fn play_out_n(g: &mut Game, plays: usize) {
    for _ in 0..plays {
        let card = g.legal_plays().last().unwrap();
        g.play(card, None).unwrap();
    }
}
