//! A batch simulator: many independent hands under a uniformly random legal policy, played
//! with mask operations only.

use crate::card::CardSet;
use crate::hand::HandState;
use crate::rng::SplitMix64;
use crate::ruleset::{MoonChoice, MoonScoring, Ruleset};
use crate::seat::PerSeat;

/// The generator of hand `index` in a batch seeded with `seed`: the state is the first draw of
/// a SplitMix64 whose state is `seed XOR (index × 0xD1B54A32D192ED03)` (multiplication
/// wrapping modulo 2^64). Distinct indices give distinct states, so every hand is fully
/// determined by `(seed, index)` whatever the thread count.
#[inline]
pub fn hand_generator(seed: u64, index: u64) -> SplitMix64 {
    let mut g = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix64::new(g.next_u64())
}

#[inline]
fn random_card(rng: &mut SplitMix64, set: CardSet) -> crate::card::Card {
    let k = rng.below_fast(set.len() as u64) as usize;
    set.nth(k).expect("random_card: k < len")
}

/// Plays one full hand with uniformly random choices and returns each seat's hand score
/// (entries beyond `players` are 0). `hand_number` fixes the dealer and pass direction; the
/// hand is dealt from `rng` by Fisher–Yates and SEED-4's order (with
/// [`SplitMix64::below_fast`], so not the portable deal of SEED-3), each passing seat passes `passing.size` cards
/// chosen uniformly, every play is uniform among the legal cards (PLAY-8), and a taker's moon
/// choice is uniform. When `masks` is given, the legal mask of each play is written to it in
/// playing order.
///
/// # Panics
///
/// Panics if `masks` is given and shorter than the deck.
pub fn play_random_hand(
    rules: &Ruleset,
    rng: &mut SplitMix64,
    hand_number: u64,
    mut masks: Option<&mut [u64]>,
) -> PerSeat<i32> {
    let n = rules.players();
    let dealer = rules.dealer(hand_number);
    let mut hands = rng.deal_fast(rules, dealer);
    if rules.passes_on(hand_number) {
        let dir = rules.pass_direction(hand_number).expect("passes_on");
        let size = rules.passing().map_or(0, |p| p.size);
        let mut out = PerSeat::splat(CardSet::EMPTY);
        for (h, o) in hands.iter_mut().zip(out.iter_mut()).take(n) {
            for _ in 0..size {
                let c = random_card(rng, CardSet(h.0 & !o.0));
                o.insert(c);
            }
            h.0 &= !o.0;
        }
        for (s, o) in out.iter().enumerate().take(n) {
            hands[dir.target(s, n)].0 |= o.0;
        }
    }
    let mut st = HandState::new(rules, &hands[..n], dealer);
    let mut k = 0;
    while !st.is_complete(rules) {
        let legal = st.legal_plays(rules);
        if let Some(m) = masks.as_deref_mut() {
            m[k] = legal.0;
        }
        k += 1;
        let card = random_card(rng, legal);
        st.play_unchecked(rules, card);
    }
    let choice = match rules.moon() {
        Some(m) if m.scoring == MoonScoring::TakerChoice && st.moon_taker(rules).is_some() => {
            Some(if rng.below_fast(2) == 0 {
                MoonChoice::AddToOthers
            } else {
                MoonChoice::SubtractFromTaker
            })
        }
        _ => None,
    };
    st.hand_scores(rules, choice)
}

fn run<F>(hands: usize, threads: usize, row: usize, out: &mut [i32], f: F)
where
    F: Fn(usize, &mut [i32]) + Sync,
{
    if hands == 0 {
        return;
    }
    let threads = threads.clamp(1, hands);
    let per = hands.div_ceil(threads);
    if threads == 1 {
        for (i, chunk) in out.chunks_mut(row).enumerate() {
            f(i, chunk);
        }
        return;
    }
    std::thread::scope(|scope| {
        for (t, part) in out.chunks_mut(per * row).enumerate() {
            let f = &f;
            scope.spawn(move || {
                for (j, chunk) in part.chunks_mut(row).enumerate() {
                    f(t * per + j, chunk);
                }
            });
        }
    });
}

/// Plays `hands` independent full hands under a uniformly random legal policy and returns
/// their hand scores, row-major: `hands × players` entries, hand `i`'s seat `s` at
/// `i * players + s`.
///
/// Hand `i` is hand number `i` (its dealer and pass direction, PASS-1) and draws everything
/// (deal, passes, plays, moon choice) from [`hand_generator`]`(seed, i)`, so the result is the
/// same for any number of `threads` (0 is taken as 1). Work is split into contiguous ranges
/// over `std::thread::scope`.
///
/// # Examples
///
/// ```
/// let r = reversis_core::preset("hearts-4").unwrap();
/// let a = reversis_core::simulate(&r, 100, 9, 1);
/// assert_eq!(a, reversis_core::simulate(&r, 100, 9, 4));
/// assert_eq!(a.len(), 400);
/// ```
pub fn simulate(ruleset: &Ruleset, hands: usize, seed: u64, threads: usize) -> Vec<i32> {
    let n = ruleset.players();
    let mut out = vec![0i32; hands * n];
    run(hands, threads, n, &mut out, |i, row| {
        let mut rng = hand_generator(seed, i as u64);
        let s = play_random_hand(ruleset, &mut rng, i as u64, None);
        row.copy_from_slice(&s[..n]);
    });
    out
}

/// As [`simulate`], and also returns the legal-card mask (CARD-2 bits) of every play decision:
/// `hands × deck size` masks, hand `i`'s `k`-th play at `i * deck_size + k`, in playing order.
/// The scores are identical to those of [`simulate`] with the same arguments.
pub fn simulate_with_masks(
    ruleset: &Ruleset,
    hands: usize,
    seed: u64,
    threads: usize,
) -> (Vec<i32>, Vec<u64>) {
    let n = ruleset.players();
    let d = ruleset.deck().len();
    let mut scores = vec![0i32; hands * n];
    let mut masks = vec![0u64; hands * d];
    if hands == 0 {
        return (scores, masks);
    }
    let threads = threads.clamp(1, hands);
    let per = hands.div_ceil(threads);
    std::thread::scope(|scope| {
        for (t, (sp, mp)) in scores
            .chunks_mut(per * n)
            .zip(masks.chunks_mut(per * d))
            .enumerate()
        {
            scope.spawn(move || {
                for (j, (row, mrow)) in sp.chunks_mut(n).zip(mp.chunks_mut(d)).enumerate() {
                    let i = (t * per + j) as u64;
                    let mut rng = hand_generator(seed, i);
                    let s = play_random_hand(ruleset, &mut rng, i, Some(mrow));
                    row.copy_from_slice(&s[..n]);
                }
            });
        }
    });
    (scores, masks)
}
