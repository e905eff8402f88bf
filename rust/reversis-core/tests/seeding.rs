//! SEED-1 … SEED-5: the portable seeded deal.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{deal_from_seed, seed_draws, Card, Game, SplitMix64};

#[test]
fn seed_6_first_five_draws_from_seed_0() {
    let mut g = SplitMix64::new(0);
    let want = [
        0xE220A8397B1DCDAFu64,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
        0x1B39896A51A8749B,
    ];
    for w in want {
        assert_eq!(g.next_u64(), w);
    }
}

#[test]
fn seed_2_below_rejects_draws_under_the_threshold() {
    // SEED-2 with n = 3: t = 2^64 mod 3 = 1, so every draw ≥ 1 is kept and reduced mod 3.
    let mut a = SplitMix64::new(0);
    let mut b = SplitMix64::new(0);
    for _ in 0..5 {
        assert_eq!(a.below(3), b.next_u64() % 3);
    }
    // n = 1 always gives 0; n = 2^32 − 1 stays below n.
    assert_eq!(a.below(1), 0);
    for _ in 0..100 {
        assert!(a.below(u32::MAX as u64) < u32::MAX as u64);
    }
}

#[test]
fn seed_3_and_4_shuffle_then_deal_one_card_at_a_time_left_of_the_dealer() {
    for name in reversis_core::preset_names() {
        let r = rules(name);
        for (seed, dealer) in [(0u64, 0usize), (17, 1), (123_456_789, 2)] {
            let mut g = SplitMix64::new(seed);
            // Sorted, each copy of a two-pack deck beside the other (SEED-3).
            let mut deck: Vec<Card> = r.deck_cards().to_vec();
            // Fisher–Yates spelled out from SEED-3.
            let mut i = deck.len() - 1;
            while i >= 1 {
                let j = g.below(i as u64 + 1) as usize;
                deck.swap(i, j);
                i -= 1;
            }
            let n = r.players();
            let mut want = vec![Vec::new(); n];
            for (k, c) in deck.iter().enumerate() {
                want[(dealer + 1 + k) % n].push(*c);
            }
            for h in &mut want {
                h.sort();
            }
            let got = SplitMix64::new(seed).deal(&r, dealer);
            for s in 0..n {
                assert_eq!(got[s].to_vec(), want[s], "{name} seed {seed} seat {s}");
            }
        }
    }
}

#[test]
fn seed_5_one_generator_serves_the_whole_game() {
    let r = rules("hearts-4");
    let deals = deal_from_seed(&r, 2024, 3, 2);
    let mut g = SplitMix64::new(2024);
    for (i, d) in deals.iter().enumerate() {
        let dealer = (2 + i) % 4;
        let want = g.deal(&r, dealer);
        assert_eq!(d.as_slice(), &want[..4]);
        // DEAL-1: disjoint hands covering the deck.
        let mut all = reversis_core::CardSet::EMPTY;
        for h in d {
            assert_eq!(h.len(), 13);
            assert!((all & h.distinct()).is_empty());
            all |= h.distinct();
        }
        assert_eq!(all, r.deck());
    }
    assert_ne!(deals[0], deals[1]);
    // The game deals its first hand from the seed at once.
    let game = Game::new(r.clone(), Some(2024), 2, None).unwrap();
    for s in 0..4 {
        assert_eq!(game.hand(s).unwrap(), deals[0][s]);
    }
    // The same seed replays the same deals; another seed gives new ones.
    assert_eq!(deal_from_seed(&r, 2024, 3, 2), deals);
    assert_ne!(deal_from_seed(&r, 2025, 1, 2)[0], deals[0]);
}

#[test]
fn seed_2_rejects_draws_in_the_zone_and_keeps_t_itself() {
    // The seeds of conformance/seeding/rejection_seeds.py, which inverts SEED-1's output step
    // to choose a draw. 13742489918233434733's first draw is 15, just under t = 2^64 mod 52 = 16:
    // below(52) rejects it and reduces the second draw instead.
    let mut g = SplitMix64::new(13_742_489_918_233_434_733);
    assert_eq!(seed_draws(13_742_489_918_233_434_733, 1), vec![15]);
    assert_eq!(g.below(52), 17_676_635_261_324_908_310 % 52);
    // A first draw of exactly t = 16 is kept.
    assert_eq!(seed_draws(17_707_284_481_778_151_765, 1), vec![16]);
    assert_eq!(SplitMix64::new(17_707_284_481_778_151_765).below(52), 16);
    // 7046029254386353131's first draw is 0: rejected for n = 51 (t = 1), kept for n = 32 (t = 0).
    assert_eq!(seed_draws(7_046_029_254_386_353_131, 1), vec![0]);
    assert_eq!(
        SplitMix64::new(7_046_029_254_386_353_131).below(51),
        16_294_208_416_658_607_535 % 51
    );
    assert_eq!(SplitMix64::new(7_046_029_254_386_353_131).below(32), 0);
    // The deals of the rejection vectors differ from what x mod n without rejection gives.
    let r = rules("hearts-4");
    let dealt = deal_from_seed(&r, 13_742_489_918_233_434_733, 1, 0);
    let mut plain = SplitMix64::new(13_742_489_918_233_434_733);
    let mut deck: Vec<Card> = r.deck().to_vec();
    for i in (1..deck.len()).rev() {
        let j = (plain.next_u64() % (i as u64 + 1)) as usize;
        deck.swap(i, j);
    }
    let mut plain_hands = [reversis_core::CardMultiset::EMPTY; 4];
    for (k, c) in deck.iter().enumerate() {
        plain_hands[(1 + k) % 4].insert(*c);
    }
    assert_ne!(dealt[0].as_slice(), &plain_hands[..]);
}
