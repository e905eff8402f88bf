//! The portable seeded deal (spec `seeding.md`, SEED-1 … SEED-5).

use crate::card::{Card, CardMultiset, CardSet};
use crate::ruleset::Ruleset;
use crate::seat::{PerSeat, MAX_PLAYERS};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 generator of SEED-1. Its state starts equal to the seed.
///
/// # Examples
///
/// ```
/// use reversis_core::SplitMix64;
/// let mut g = SplitMix64::new(0);
/// assert_eq!(g.next_u64(), 0xE220A8397B1DCDAF);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose state is `seed`.
    #[inline]
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The current state (the seed advanced by one golden-ratio step per draw).
    #[inline]
    pub fn state(&self) -> u64 {
        self.state
    }

    /// One draw (SEED-1).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0 … n−1` (SEED-2): with `t = 2^64 mod n`, draw `x` until `x ≥ t`
    /// and return `x mod n`.
    ///
    /// # Panics
    ///
    /// Panics unless `1 ≤ n < 2^32`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(
            (1..(1u64 << 32)).contains(&n),
            "below(n) needs 1 <= n < 2^32"
        );
        let t = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= t {
                return x % n;
            }
        }
    }

    /// An exactly uniform integer in `0..n` by Lemire's multiply-shift with rejection, which
    /// divides only when a draw falls in the rare biased zone. Not the portable mapping of
    /// SEED-2: the batch simulator uses it, where speed matters and no other implementation
    /// needs to reproduce the draws.
    ///
    /// # Panics
    ///
    /// Panics if `n` is 0.
    #[inline]
    pub fn below_fast(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below_fast(0)");
        let (mut high, mut low) = wide_product(self.next_u64(), n);
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                (high, low) = wide_product(self.next_u64(), n);
            }
        }
        high
    }

    /// Fisher–Yates (SEED-3): for `i` from `len−1` down to 1, `j = below(i+1)`, swap `i` and
    /// `j`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// One deal of `ruleset` with `dealer` dealing (SEED-3, SEED-4): the deck in sorted order
    /// is shuffled, and the card at position `k` goes to seat `(dealer + 1 + k) mod players`.
    /// Returns one multiset per seat (only the first `players` entries are used); with two
    /// packs (RS-21) the deck in sorted order holds each card's copies side by side.
    ///
    /// # Panics
    ///
    /// Panics if `dealer >= ruleset.players()`.
    pub fn deal(&mut self, ruleset: &Ruleset, dealer: usize) -> PerSeat<CardMultiset> {
        self.deal_with(ruleset, dealer, SplitMix64::below)
    }

    /// As [`SplitMix64::deal`], but shuffled with [`SplitMix64::below_fast`]: a uniformly
    /// random deal that is not the portable one of SEED-3.
    ///
    /// # Panics
    ///
    /// Panics if `dealer >= ruleset.players()`.
    pub fn deal_fast(&mut self, ruleset: &Ruleset, dealer: usize) -> PerSeat<CardMultiset> {
        self.deal_with(ruleset, dealer, SplitMix64::below_fast)
    }

    #[inline]
    fn deal_with(
        &mut self,
        ruleset: &Ruleset,
        dealer: usize,
        below: fn(&mut SplitMix64, u64) -> u64,
    ) -> PerSeat<CardMultiset> {
        let n = ruleset.players();
        assert!(dealer < n, "dealer out of range");
        if ruleset.two_packs() {
            return deal_multiset(self, ruleset, dealer, below);
        }
        let (deck, len) = deck_ids(ruleset);
        PerSeat(
            deal_ids(self, &deck, len, n, dealer, below)
                .map(|m| CardMultiset::from_set(CardSet(m))),
        )
    }
}

/// The deal of SEED-3 and SEED-4 of a two-pack deck (RS-21): the deck in sorted order with each
/// card's copies adjacent, shuffled by Fisher–Yates, and position `k` to seat
/// `(dealer + 1 + k) mod players`.
pub(crate) fn deal_multiset(
    rng: &mut SplitMix64,
    ruleset: &Ruleset,
    dealer: usize,
    mut below: impl FnMut(&mut SplitMix64, u64) -> u64,
) -> PerSeat<CardMultiset> {
    let n = ruleset.players();
    let mut cards: Vec<Card> = ruleset.deck_cards().to_vec();
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        cards.swap(i, j);
    }
    let mut hands = PerSeat::splat(CardMultiset::EMPTY);
    for (k, c) in cards.into_iter().enumerate() {
        hands[(dealer + 1 + k) % n].insert(c);
    }
    hands
}

/// The card ids of `ruleset`'s deck in ascending order, the order a deal shuffles from
/// (SEED-3), and their number: the first `len` entries are used, and there are 64, so that an
/// index masked with 63 is in bounds.
pub(crate) fn deck_ids(ruleset: &Ruleset) -> ([u8; 64], usize) {
    let mut deck = [0u8; 64];
    let mut len = 0;
    for c in ruleset.deck() {
        deck[len] = c.id();
        len += 1;
    }
    (deck, len)
}

/// One deal (SEED-3, SEED-4) of the first `len` cards of `deck` (see [`deck_ids`]) to
/// `players` seats, `dealer` dealing: Fisher–Yates with `below` (for `i` from `len−1` down to
/// 1, `j = below(i+1)`, swap `i` and `j`), and the card that ends at position `k` goes to seat
/// `(dealer + 1 + k) mod players`. A position is final once the shuffle has passed it, so its
/// card is dealt there and then and the array is never read again. One mask per seat.
#[inline(always)]
pub(crate) fn deal_ids(
    rng: &mut SplitMix64,
    deck: &[u8; 64],
    len: usize,
    players: usize,
    dealer: usize,
    mut below: impl FnMut(&mut SplitMix64, u64) -> u64,
) -> [u64; MAX_PLAYERS] {
    let n = players;
    let mut cards = *deck;
    let mut hands = [0u64; MAX_PLAYERS];
    let mut seat = (dealer + len) % n;
    for i in (1..len).rev() {
        let j = below(rng, i as u64 + 1) as usize & 63;
        let c = cards[j];
        cards[j] = cards[i & 63];
        hands[seat] |= 1u64 << (c & 63);
        seat = if seat == 0 { n - 1 } else { seat - 1 };
    }
    if len > 0 {
        hands[seat] |= 1u64 << (cards[0] & 63);
    }
    hands
}

/// The first `count` draws of SEED-1 from `seed` (API-5 `seed_draws`).
///
/// # Examples
///
/// ```
/// assert_eq!(reversis_core::seed_draws(0, 1), [0xE220A8397B1DCDAF]);
/// ```
pub fn seed_draws(seed: u64, count: usize) -> Vec<u64> {
    let mut g = SplitMix64::new(seed);
    (0..count).map(|_| g.next_u64()).collect()
}

/// The first `deals` deals of a game seeded with `seed` that starts at hand `hand_number`
/// (API-5, SEED-5): deal `i` is dealt by the dealer of hand `hand_number + i`, all from one
/// generator. Each deal is a list of one sorted hand per seat (a multiset with two packs).
///
/// # Examples
///
/// ```
/// let r = reversis_core::preset("hearts-4").unwrap();
/// let deals = reversis_core::deal_from_seed(&r, 7, 2, 0);
/// assert_eq!(deals.len(), 2);
/// assert!(deals[0].iter().all(|h| h.len() == 13));
/// ```
pub fn deal_from_seed(
    ruleset: &Ruleset,
    seed: u64,
    deals: usize,
    hand_number: u64,
) -> Vec<Vec<CardMultiset>> {
    let mut g = SplitMix64::new(seed);
    (0..deals as u64)
        .map(|i| {
            let dealer = ruleset.dealer(hand_number.wrapping_add(i));
            g.deal(ruleset, dealer)[..ruleset.players()].to_vec()
        })
        .collect()
}

/// The high and low 64 bits of `x * n`.
#[inline(always)]
fn wide_product(x: u64, n: u64) -> (u64, u64) {
    // WebAssembly has no 64×64→128 multiply: a `u128` product there is a call to a 128-bit
    // multiply routine. For the small `n` of card draws, two 64-bit products give it exactly.
    #[cfg(target_arch = "wasm32")]
    if n <= u64::from(u32::MAX) {
        return wide_product_by_halves(x, n);
    }
    let product = u128::from(x) * u128::from(n);
    ((product >> 64) as u64, product as u64)
}

/// `wide_product` for `n < 2^32` from the products of `n` with the two 32-bit halves of `x`:
/// `x·n = xh·n·2^32 + xl·n`, so the high word is `(xh·n + ⌊xl·n / 2^32⌋) / 2^32`, and neither
/// product nor their sum (below `2^64`) overflows.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)]
fn wide_product_by_halves(x: u64, n: u64) -> (u64, u64) {
    debug_assert!(n <= u64::from(u32::MAX));
    let high = ((x >> 32) * n + (((x & 0xffff_ffff) * n) >> 32)) >> 32;
    (high, x.wrapping_mul(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_by_halves_is_the_full_product() {
        let mut rng = SplitMix64::new(11);
        let edges = [
            0,
            1,
            u64::MAX,
            u64::MAX - 1,
            1 << 32,
            (1 << 32) - 1,
            1 << 63,
        ];
        let factors = [1, 2, 3, 13, 52, 104, u64::from(u32::MAX)];
        for n in factors {
            let draws: Vec<u64> = (0..2_000).map(|_| rng.next_u64()).collect();
            for x in edges.into_iter().chain(draws) {
                let full = u128::from(x) * u128::from(n);
                assert_eq!(
                    wide_product_by_halves(x, n),
                    ((full >> 64) as u64, full as u64),
                    "{x} * {n}"
                );
            }
        }
    }
}
