//! The batch simulator and the HandState layout.
#![allow(clippy::needless_range_loop)]

mod common;

use common::*;
use reversis_core::{simulate, simulate_with_masks, HandState, MoonScoring};

#[test]
fn hand_state_is_small_and_copy() {
    // Ten seats (RS-3) and the held-over cards (PLAY-9) of 1.2.0.
    let size = std::mem::size_of::<HandState>();
    assert!(size <= 200, "{size}");
    fn is_copy<T: Copy>() {}
    is_copy::<HandState>();
}

#[test]
fn simulate_is_identical_for_any_thread_count() {
    for name in ["hearts-4", "hearts-3", "hartenjagen", "hearts-7"] {
        let r = rules(name);
        let one = simulate(&r, 301, 12345, 1);
        assert_eq!(one.len(), 301 * r.players());
        assert_eq!(simulate(&r, 301, 12345, 4), one);
        assert_eq!(simulate(&r, 301, 12345, 3), one);
        assert_eq!(simulate(&r, 301, 12345, 0), one);
        assert_ne!(simulate(&r, 301, 12346, 2), one);
        // Hand i depends on (seed, i) only: a shorter batch is a prefix.
        assert_eq!(simulate(&r, 100, 12345, 2)[..], one[..100 * r.players()]);
    }
    assert!(simulate(&rules("hearts-4"), 0, 1, 4).is_empty());
}

#[test]
fn simulated_hands_add_up_to_the_ruleset_totals() {
    // Classic hearts: 26 per hand (002 §Pontuação); a moon gives 3 × 26 or −26.
    // Hartenjagen: 15 per hand, 45 for a pit (000 §04). Omnibus: 26 − 10 (D-8).
    for (name, plain, add, sub) in [
        ("hearts-4", 26, 78, -26),
        ("hearts-computer", 26, 78, -26),
        ("hearts-5", 26, 104, -26),
        ("hartenjagen", 15, 45, -15),
        ("omnibus-4", 16, 68, -36),
    ] {
        let r = rules(name);
        let n = r.players();
        let out = simulate(&r, 2000, 7, 2);
        let mut moons = 0;
        for row in out.chunks(n) {
            let sum: i32 = row.iter().sum();
            if sum != plain {
                moons += 1;
                let allowed = match r.moon().unwrap().scoring {
                    MoonScoring::AddToOthers => sum == add,
                    MoonScoring::SubtractFromTaker => sum == sub,
                    MoonScoring::TakerChoice => sum == add || sum == sub,
                };
                assert!(allowed, "{name}: {row:?}");
            }
        }
        assert!(moons < 2000 / 5, "{name}: {moons} moons");
    }
}

#[test]
fn simulate_with_masks_matches_simulate() {
    let r = rules("hearts-4");
    let (scores, masks) = simulate_with_masks(&r, 50, 3, 3);
    assert_eq!(scores, simulate(&r, 50, 3, 1));
    assert_eq!(masks.len(), 50 * 52);
    for hand in masks.chunks(52) {
        // The first decision of a hand is the opening lead: 2C only (PLAY-1).
        assert_eq!(hand[0], 1);
        assert!(hand.iter().all(|&m| m != 0 && m & !r.deck().bits() == 0));
        // The last decision has exactly one card.
        assert_eq!(hand[51].count_ones(), 1);
    }
    let (s2, m2) = simulate_with_masks(&r, 50, 3, 1);
    assert_eq!((s2, m2), (scores, masks));
}
