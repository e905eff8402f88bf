//! The batch simulator against a hard-wired baseline: `cargo bench -p reversis-core --bench
//! baseline`.
//!
//! The baseline below plays 4-player, 52-card, standard-rules Hearts with no generality at all:
//! constant masks, no ruleset, no passing, one function. Both sides play hold hands of the
//! `hearts-4` rules (the preset with `passing` set to null, so no hand of the batch passes):
//! the 2♣ opening, no point card on the first trick unless a seat holds nothing else, no heart
//! led before a heart or Q♠ has been played unless the leader holds only hearts, hearts 1 each,
//! Q♠ 13, and the moon at the taker's choice with a bonus of 26.
//!
//! Both sides draw from SplitMix64 with the same derivation per hand and the same bounded draw
//! (Lemire's multiply-shift with rejection), deal by Fisher–Yates, draw once per decision (a
//! forced one included) and pick the `k`-th legal card in ascending order with the same
//! byte-wise select, so they play the very same hands by the same means. The bench reports
//! whether their scores agree (and whether two threads give what one does), and checks that
//! every hand adds up to 26 or a moon's 78 or −26 on every side.
//!
//! Each round times the baseline, `simulate` on one thread and `simulate` on two threads, in
//! an order that rotates from round to round so that a burst of load on a shared machine falls
//! on all three alike; the figures are medians over the rounds.

use std::hint::black_box;
use std::time::Instant;

use reversis_core::{preset, simulate};

const HANDS: usize = 200_000;
const ROUNDS: usize = 15;

const HEARTS: u64 = 0x1FFF << 26;
const QUEEN_OF_SPADES: u64 = 1 << 49;
const POINT_CARDS: u64 = HEARTS | QUEEN_OF_SPADES;

/// SplitMix64 (spec `seeding.md`, SEED-1).
struct Rng(u64);

impl Rng {
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` by Lemire's multiply-shift with rejection.
    #[inline(always)]
    fn below(&mut self, n: u64) -> u64 {
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as u64
    }

    /// The generator of hand `index`, derived as `reversis_core::hand_generator` does.
    #[inline(always)]
    fn for_hand(seed: u64, index: u64) -> Rng {
        let mut g = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Rng(g.next_u64())
    }

    /// One card of `legal` chosen uniformly, as a one-bit mask: the `k`-th lowest, found by
    /// the byte-wise select `simulate` uses (running counts by byte, then a table for the byte
    /// the card is in), which also gives the set's size for the draw.
    #[inline(always)]
    fn pick(&mut self, legal: u64) -> u64 {
        const ONES8: u64 = 0x0101_0101_0101_0101;
        let mut s = legal - ((legal >> 1) & 0x5555_5555_5555_5555);
        s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
        s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        let prefix = s.wrapping_mul(ONES8);
        let k = self.below(prefix >> 56);
        let below =
            ((k.wrapping_mul(ONES8) | 0x8080_8080_8080_8080) - prefix) & 0x8080_8080_8080_8080;
        let place = 64 - below.leading_zeros();
        let before = ((prefix << 8) >> place) & 0xFF;
        let byte = (legal >> place) & 0xFF;
        1 << ((place + u32::from(SELECT_IN_BYTE[byte as usize][((k - before) & 7) as usize])) & 63)
    }
}

/// For each byte value and rank `r`, the position of its `r`-th lowest set bit.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if (byte >> bit) & 1 == 1 {
                table[byte][rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The 13-card mask of the suit of a one-bit card mask.
#[inline(always)]
fn suit_of(card: u64) -> u64 {
    0x1FFF << (13 * (card.trailing_zeros() / 13))
}

/// One hold hand dealt by `dealer`, played at random; returns each seat's score.
#[inline(always)]
fn play_hand(rng: &mut Rng, dealer: usize) -> [i32; 4] {
    let mut deck = [0u8; 52];
    for (i, c) in deck.iter_mut().enumerate() {
        *c = i as u8;
    }
    let mut hands = [0u64; 4];
    // The card at position `i` goes to seat `dealer + 1 + i`; each position is final once the
    // shuffle has passed it.
    for i in (1..52).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        deck.swap(i, j);
        hands[(dealer + 1 + i) & 3] |= 1 << deck[i];
    }
    hands[(dealer + 1) & 3] |= 1 << deck[0];

    let mut leader = (0..4).find(|&s| hands[s] & 1 != 0).unwrap_or(0);
    let mut broken = false;
    let mut points = [0i32; 4];
    for trick in 0..13 {
        let mut seat = leader;
        let held = hands[seat];
        // Every decision draws once, a forced one included, as `simulate` does.
        let lead = rng.pick(if trick == 0 {
            1
        } else if broken {
            held
        } else {
            let plain = held & !HEARTS;
            if plain != 0 {
                plain
            } else {
                held
            }
        });
        hands[seat] ^= lead;
        let suit = suit_of(lead);
        let mut cards = lead;
        let mut best = lead;
        let mut winner = seat;
        for _ in 1..4 {
            seat = (seat + 1) & 3;
            let held = hands[seat];
            let follow = held & suit;
            let legal = if follow != 0 {
                follow
            } else if trick == 0 {
                let safe = held & !POINT_CARDS;
                if safe != 0 {
                    safe
                } else {
                    held
                }
            } else {
                held
            };
            let card = rng.pick(legal);
            hands[seat] ^= card;
            cards |= card;
            if card & suit != 0 && card > best {
                best = card;
                winner = seat;
            }
        }
        broken |= cards & POINT_CARDS != 0;
        points[winner] += (cards & HEARTS).count_ones() as i32
            + if cards & QUEEN_OF_SPADES != 0 { 13 } else { 0 };
        leader = winner;
    }
    if let Some(taker) = (0..4).find(|&s| points[s] == 26) {
        if rng.below(2) == 0 {
            points = [26; 4];
            points[taker] = 0;
        } else {
            points = [0; 4];
            points[taker] = -26;
        }
    }
    points
}

/// `hands` hold hands played by the baseline on one thread, row-major like `simulate`.
fn baseline(hands: usize, seed: u64) -> Vec<i32> {
    let mut out = vec![0i32; hands * 4];
    for (i, row) in out.chunks_exact_mut(4).enumerate() {
        let mut rng = Rng::for_hand(seed, i as u64);
        row.copy_from_slice(&play_hand(&mut rng, i & 3));
    }
    out
}

fn check(side: &str, scores: &[i32]) {
    for row in scores.chunks(4) {
        let total: i32 = row.iter().sum();
        assert!(
            matches!(total, 26 | 78 | -26),
            "{side}: a hand's scores {row:?} do not add up"
        );
    }
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let hold = preset("hearts-4")
        .expect("the hearts-4 preset loads")
        .replace(
            serde_json::json!({"passing": null})
                .as_object()
                .expect("an object"),
        )
        .expect("hearts-4 without passing is a ruleset");
    let mut times: [Vec<f64>; 3] = Default::default();
    let mut same = true;
    for round in 0..ROUNDS {
        let seed = round as u64;
        let mut base = Vec::new();
        let mut one = Vec::new();
        let mut two = Vec::new();
        for k in 0..3 {
            let side = (round + k) % 3;
            let started = Instant::now();
            let scores = match side {
                0 => baseline(black_box(HANDS), black_box(seed)),
                1 => simulate(&hold, black_box(HANDS), black_box(seed), 1),
                _ => simulate(&hold, black_box(HANDS), black_box(seed), 2),
            };
            times[side].push(started.elapsed().as_secs_f64() / HANDS as f64);
            check(
                ["baseline", "simulate", "simulate, 2 threads"][side],
                &scores,
            );
            match side {
                0 => base = scores,
                1 => one = scores,
                _ => two = scores,
            }
        }
        same &= base == one && two == one;
    }
    let [base, one, two] = times.map(median);
    println!(
        "hearts-4 hold hands (passing: null), median per hand over {ROUNDS} rounds of {HANDS}"
    );
    println!(
        "baseline (hard-wired)     {:>6.3} µs/hand  {:>9.0} hands/s",
        base * 1e6,
        1.0 / base
    );
    println!(
        "simulate, 1 thread        {:>6.3} µs/hand  {:>9.0} hands/s",
        one * 1e6,
        1.0 / one
    );
    println!(
        "simulate, 2 threads       {:>6.3} µs/hand  {:>9.0} hands/s",
        two * 1e6,
        1.0 / two
    );
    println!("simulate / baseline speed {:>6.2}x (1 thread)", base / one);
    println!("simulate 2 threads vs 1   {:>6.2}x", one / two);
    println!(
        "same scores hand for hand (baseline, simulate on 1 and 2 threads): {}",
        if same { "yes" } else { "no" }
    );
}
