//! Exact sampling of the hidden cards from one seat's point of view (001 ¶9: a computer player
//! uses only its own hand and public information). The players built on it live in the
//! `reversis-players` crate.
//!
//! A [`Knowledge`] holds what one seat knows: its hand, the cards played, the cards it passed
//! that their receiver still holds, every seat's number of cards and every revealed void. A
//! [`Sampler`] counts the layouts of the hidden cards consistent with it and draws one exactly
//! uniformly: the hidden cards are grouped by suit, a dynamic programme over the suits whose
//! state is the vector of the other seats' remaining capacities counts the completions
//! (memoised), and a draw picks each suit's split (how many cards each seat gets, 0 where it is
//! void) with probability proportional to multinomial × completions, then places the suit's
//! cards uniformly into that split.
//!
//! [`Sampler::with_exclusions`] adds what a seat's legal plays reveal beyond its voids (a card
//! it cannot hold, one by one): each suit's hidden cards are split further into groups of cards
//! that the same seats may hold, and the groups take the suits' place in the programme.
//! [`revealed`] reads those cards off the hand's plays with the inverses of the rules of play
//! ([`crate::kernel`]), and [`Sampler::after_plays`] samples with them: the layouts it draws are
//! exactly those from which every play of the hand was legal.
//!
//! # Two packs: what is uniform
//!
//! With two packs (RS-21) a hand is a multiset, and a card may have two hidden copies. A
//! uniform deal makes every *physical* deal equally likely, the two copies of a card told
//! apart, and nothing a seat sees tells them apart: the posterior is uniform over the physical
//! layouts of the hidden copies, not over the multiset layouts. A multiset layout weighs the
//! number of ways its copies can be assigned: 2 where the two hidden copies of a card lie in
//! two hands, 1 where both lie in one. The sampler counts and draws the hidden copies as
//! distinct items (a group then holds up to 26 of them, both copies of 13 cards, and both
//! copies of a card are always in one group, as what the seats may hold is a property of the
//! card), which is exactly that weighting; [`Sampler::count`] counts physical layouts. With one
//! pack every multiset layout is one physical layout, and nothing changes. Two-pack counts need
//! up to 264 bits (90!/10!⁹ for ten seats of ten cards), so a two-pack sampler counts in
//! 320-bit integers; a one-pack one in `u128`, as before.

#![allow(clippy::needless_range_loop)]

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::card::{Card, CardMultiset, CardSet, SUIT_MASKS};
use crate::error::{Error, ErrorCode};
use crate::hand::HandState;
use crate::kernel;
use crate::rng::SplitMix64;
use crate::ruleset::Ruleset;
use crate::seat::{PerSeat, MAX_PLAYERS};

// The most other seats a sampler deals to: every seat of the largest table but the observer's.
const OTHERS: usize = MAX_PLAYERS - 1;

// The most items of one level: both copies of the 13 cards of a suit.
const LEVEL_MAX: usize = 26;

/// What one seat knows about where the cards are (OBS-1, from its own point of view). With two
/// packs (RS-21) every entry counts copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Knowledge {
    /// The observing seat.
    pub seat: usize,
    /// The observer's cards.
    pub hand: CardMultiset,
    /// Every card played this hand, the trick in progress included.
    pub played: CardMultiset,
    /// Cards known to be in a given other seat's hand (cards the observer passed that the
    /// receiver has not played yet); the observer's own entry is empty.
    pub known: PerSeat<CardMultiset>,
    /// Each seat's number of cards in hand (the observer's included).
    pub counts: PerSeat<u8>,
    /// Each seat's revealed voids, a 4-bit mask by suit index (C=0, D=1, H=2, S=3).
    pub voids: PerSeat<u8>,
}

/// A layout: the cards of each seat, every copy (entries beyond `players` are empty).
pub type Layout = PerSeat<CardMultiset>;

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidAction, message)
}

// The multiset sum of `a` and `b`, or `None` where a card would have more than two copies.
fn sum_of(a: CardMultiset, b: CardMultiset) -> Option<CardMultiset> {
    ((a.twice & b.set) | (a.set & b.twice) == 0).then(|| a.plus(b))
}

// A multiplicative hasher for the packed memo keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b) ^ self.0.rotate_left(8));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ (x >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

type Memo<W> = HashMap<u64, W, BuildHasherDefault<KeyHasher>>;

// Binomial coefficients C(n, k) for n ≤ 26 (a level holds at most 26 items).
const fn binomials() -> [[u64; LEVEL_MAX + 1]; LEVEL_MAX + 1] {
    let mut t = [[0u64; LEVEL_MAX + 1]; LEVEL_MAX + 1];
    let mut n = 0;
    while n <= LEVEL_MAX {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

const BINOM: [[u64; LEVEL_MAX + 1]; LEVEL_MAX + 1] = binomials();

/// An exactly uniform integer in `0..n` (`n ≥ 1`): with `t = 2^128 mod n`, draw 128-bit `x`
/// until `x ≥ t` and return `x mod n`.
fn below_u128(rng: &mut SplitMix64, n: u128) -> u128 {
    assert!(n > 0, "below_u128(0)");
    if let Ok(small) = u64::try_from(n) {
        return u128::from(rng.below_fast(small));
    }
    let t = n.wrapping_neg() % n;
    loop {
        let x = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        if x >= t {
            return x % n;
        }
    }
}

// The numbers the sampler counts layouts in: `u128` with one pack, [`Wide`] with two.
trait Weight: Copy + Ord + std::fmt::Debug {
    // Whether this is the two-pack type: the one-pack sampler's code is compiled without the
    // two-pack branches (see `state_key`, `key` and `free`), as fast as before two packs.
    const TWO_PACKS: bool;
    const ZERO: Self;
    const ONE: Self;
    fn add(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    fn times(self, k: u64) -> Self;
    // `self / k`, exact where `k` divides it.
    fn over(self, k: u64) -> Self;
    // An exactly uniform value in `0..n` (`n ≥ 1`).
    fn below(rng: &mut SplitMix64, n: Self) -> Self;
    fn to_u128(self) -> Option<u128>;
}

impl Weight for u128 {
    const TWO_PACKS: bool = false;
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    #[inline]
    fn add(self, other: u128) -> u128 {
        self + other
    }
    #[inline]
    fn sub(self, other: u128) -> u128 {
        self - other
    }
    #[inline]
    fn times(self, k: u64) -> u128 {
        u128::from(k) * self
    }
    #[inline]
    fn over(self, k: u64) -> u128 {
        self / u128::from(k)
    }
    #[inline]
    fn below(rng: &mut SplitMix64, n: u128) -> u128 {
        below_u128(rng, n)
    }
    #[inline]
    fn to_u128(self) -> Option<u128> {
        Some(self)
    }
}

// A 320-bit unsigned integer, least significant limb first: room for every two-pack count
// (at most 2^264) and its partial sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide([u64; 5]);

impl Ord for Wide {
    fn cmp(&self, other: &Wide) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Wide) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Weight for Wide {
    const TWO_PACKS: bool = true;
    const ZERO: Wide = Wide([0; 5]);
    const ONE: Wide = Wide([1, 0, 0, 0, 0]);
    #[inline]
    fn add(self, other: Wide) -> Wide {
        let mut out = [0u64; 5];
        let mut carry = false;
        for i in 0..5 {
            let (s, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            out[i] = s;
            carry = c1 || c2;
        }
        assert!(!carry, "a layout count overflows 320 bits");
        Wide(out)
    }
    #[inline]
    fn sub(self, other: Wide) -> Wide {
        let mut out = [0u64; 5];
        let mut borrow = false;
        for i in 0..5 {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            out[i] = d;
            borrow = b1 || b2;
        }
        debug_assert!(!borrow, "Wide::sub below zero");
        Wide(out)
    }
    #[inline]
    fn times(self, k: u64) -> Wide {
        let mut out = [0u64; 5];
        let mut carry = 0u128;
        for i in 0..5 {
            let p = u128::from(self.0[i]) * u128::from(k) + carry;
            out[i] = p as u64;
            carry = p >> 64;
        }
        assert!(carry == 0, "a layout count overflows 320 bits");
        Wide(out)
    }
    fn over(self, k: u64) -> Wide {
        let mut out = [0u64; 5];
        let mut rest = 0u128;
        for i in (0..5).rev() {
            let x = (rest << 64) | u128::from(self.0[i]);
            out[i] = (x / u128::from(k)) as u64;
            rest = x % u128::from(k);
        }
        Wide(out)
    }
    fn below(rng: &mut SplitMix64, n: Wide) -> Wide {
        if let Some(small) = n.to_u128() {
            let x = below_u128(rng, small);
            return Wide([x as u64, (x >> 64) as u64, 0, 0, 0]);
        }
        // Rejection from the smallest power of two above `n`: each try succeeds with
        // probability above one half.
        let top = (0..5).rev().find(|&i| n.0[i] != 0).expect("n is not zero");
        let bits = 64 - n.0[top].leading_zeros();
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        loop {
            let mut x = [0u64; 5];
            for limb in x.iter_mut().take(top + 1) {
                *limb = rng.next_u64();
            }
            x[top] &= mask;
            let x = Wide(x);
            if x < n {
                return x;
            }
        }
    }
    #[inline]
    fn to_u128(self) -> Option<u128> {
        (self.0[2..].iter().all(|&l| l == 0))
            .then(|| u128::from(self.0[0]) | (u128::from(self.0[1]) << 64))
    }
}

/// The layouts of the hidden cards consistent with a [`Knowledge`]: counts them exactly and
/// draws them exactly uniformly (with two packs, uniformly among the physical layouts: see the
/// module's documentation). Build one per decision; drawing does not allocate.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Game, Sampler, SplitMix64};
/// let rules = preset("cancellation-6").unwrap();
/// let g = Game::new(rules.clone(), Some(1), 1, None).unwrap();
/// let k = g.knowledge(0).unwrap();
/// let layout = Sampler::new(&rules, &k).unwrap().sample(&mut SplitMix64::new(7));
/// assert_eq!(layout[0], k.hand);
/// // Every copy of the two packs (RS-21) is in a hand or played.
/// let held: usize = layout.iter().map(|h| h.len()).sum();
/// assert_eq!(held + k.played.len(), rules.deck_len());
/// ```
#[derive(Clone, Debug)]
pub struct Sampler {
    counts: Counts,
}

#[derive(Clone, Debug)]
enum Counts {
    One(Core<u128>),
    Two(Core<Wide>),
}

// The levels and the memo of a sampler, counting in `W`.
#[derive(Clone, Debug)]
struct Core<W> {
    // The observer's hand and the known cards, placed.
    base: Layout,
    // The other seats, in seat order.
    others: [u8; OTHERS],
    n_others: usize,
    // The levels: groups of hidden cards that the same seats may hold, at most 26 items each
    // (a group never spans two suits), in suit order. Without exclusions a group is a suit.
    suit_cards: Vec<CardMultiset>,
    suit_len: Vec<u8>,
    // Per level: bit j set when other seat j may hold the group's cards.
    allowed: Vec<u16>,
    // Per level: each other seat's signature over that level and the later ones (bit `l` set
    // when it may hold level `l`); seats with equal signatures are interchangeable from there on.
    class: Vec<[u64; OTHERS]>,
    n_suits: usize,
    // The other seats' capacities (cards in hand minus known cards).
    caps0: [u8; OTHERS],
    // The bits of one capacity in a memo key: enough for the largest.
    cap_bits: u32,
    // With two packs, where every other seat may hold every hidden card (no void, exclusion or
    // group of its own: early in a hand, where the programme is largest), the layouts are the
    // multinomial deals of the hidden items, counted in closed form and drawn by a shuffle.
    free: bool,
    memo: Memo<W>,
    total: W,
}

impl Sampler {
    /// Checks `knowledge` against `rules` and counts its layouts.
    ///
    /// # Errors
    ///
    /// `invalid-action` if the knowledge is inconsistent: more copies of a card than the deck
    /// holds between the hand, the played cards and the known ones, foreign cards, card counts
    /// that do not add up, or no layout at all.
    pub fn new(rules: &Ruleset, knowledge: &Knowledge) -> Result<Sampler, Error> {
        Sampler::with_exclusions(rules, knowledge, &PerSeat::splat(CardSet::EMPTY))
    }

    /// As [`Sampler::new`], and seat `s` holds no copy of the cards of `excluded[s]`: what the
    /// legality of its plays reveals beyond voids (a heart led before hearts were broken shows a
    /// hand of hearts, a point card discarded under the first-trick ban a hand of point cards,
    /// the seat to lead the first trick holds the opening card). The observer's own entry and
    /// cards that are not hidden are ignored. With every entry empty it is [`Sampler::new`], to
    /// the draw.
    ///
    /// # Errors
    ///
    /// As [`Sampler::new`].
    pub fn with_exclusions(
        rules: &Ruleset,
        knowledge: &Knowledge,
        excluded: &PerSeat<CardSet>,
    ) -> Result<Sampler, Error> {
        Sampler::build(rules, knowledge, excluded)?
            .ok_or_else(|| invalid("no layout of the hidden cards is consistent"))
    }

    /// As [`Sampler::new`], among the layouts from which every play of the hand was legal:
    /// `plays` are the hand's plays in order from the first lead, `leader` the seat that leads
    /// the first trick, and the cards each seat cannot hold are [`revealed`]'s. For a knowledge
    /// of the hands in play (phase `play` or later), not of the deal before a pass, from which
    /// the first leader does not follow.
    ///
    /// # Errors
    ///
    /// As [`revealed`] and [`Sampler::new`], and `invalid-action` where the knowledge's played
    /// cards are not those of `plays`.
    pub fn after_plays(
        rules: &Ruleset,
        knowledge: &Knowledge,
        leader: usize,
        plays: &[(usize, Card)],
    ) -> Result<Sampler, Error> {
        let excluded = revealed(rules, leader, plays)?;
        let played: CardMultiset = plays.iter().map(|&(_, c)| c).collect();
        if played != knowledge.played || plays.len() != knowledge.played.len() {
            return Err(invalid("the played cards are not those of the plays"));
        }
        Sampler::with_exclusions(rules, knowledge, &excluded)
    }

    /// The number of layouts consistent with `knowledge` and `excluded` (see
    /// [`Sampler::with_exclusions`]).
    ///
    /// # Errors
    ///
    /// As [`Sampler::new`], except that no consistent layout gives `Ok(0)`; and
    /// `invalid-action` where the number does not fit in 128 bits (early in a two-pack hand).
    pub fn count_with_exclusions(
        rules: &Ruleset,
        knowledge: &Knowledge,
        excluded: &PerSeat<CardSet>,
    ) -> Result<u128, Error> {
        match Sampler::build(rules, knowledge, excluded)? {
            None => Ok(0),
            Some(s) => s.count_exact().ok_or_else(|| {
                invalid("the number of layouts is 2^128 or more, too many to count in 128 bits")
            }),
        }
    }

    // As `with_exclusions`, with `None` where the knowledge is consistent in itself but no
    // layout fits it.
    fn build(
        rules: &Ruleset,
        knowledge: &Knowledge,
        excluded: &PerSeat<CardSet>,
    ) -> Result<Option<Sampler>, Error> {
        let counts = if rules.two_packs() {
            Core::<Wide>::build(rules, knowledge, excluded, true)?.map(Counts::Two)
        } else {
            Core::<u128>::build(rules, knowledge, excluded, true)?.map(Counts::One)
        };
        Ok(counts.map(|counts| Sampler { counts }))
    }

    /// The number of consistent layouts (physical layouts with two packs), or `u128::MAX`
    /// where it is that or more: early in a two-pack hand it can reach 2^264.
    pub fn count(&self) -> u128 {
        self.count_exact().unwrap_or(u128::MAX)
    }

    // The number of consistent layouts where it fits in 128 bits.
    fn count_exact(&self) -> Option<u128> {
        match &self.counts {
            Counts::One(c) => Some(c.total),
            Counts::Two(c) => c.total.to_u128(),
        }
    }

    /// One layout drawn exactly uniformly among the consistent ones (among the physical ones
    /// with two packs): one hand per seat, the observer's own included.
    #[inline]
    pub fn sample(&self, rng: &mut SplitMix64) -> Layout {
        match &self.counts {
            Counts::One(c) => c.sample(rng),
            Counts::Two(c) => c.sample(rng),
        }
    }
}

impl<W: Weight> Core<W> {
    // One layout drawn exactly uniformly where every other seat may hold every hidden item: a
    // uniformly random order of the items, dealt to the seats by capacity.
    fn sample_free(&self, rng: &mut SplitMix64) -> Layout {
        let mut out = self.base;
        let mut items: Vec<u8> = Vec::with_capacity(104);
        for group in &self.suit_cards {
            items.extend(group.into_iter().map(|c| c.id()));
        }
        for i in (1..items.len()).rev() {
            let j = rng.below_fast(i as u64 + 1) as usize;
            items.swap(i, j);
        }
        let mut at = 0;
        for j in 0..self.n_others {
            let seat = usize::from(self.others[j]);
            for &c in &items[at..at + usize::from(self.caps0[j])] {
                out[seat].insert(Card::new(c));
            }
            at += usize::from(self.caps0[j]);
        }
        out
    }

    fn build(
        rules: &Ruleset,
        knowledge: &Knowledge,
        excluded: &PerSeat<CardSet>,
        allow_free: bool,
    ) -> Result<Option<Core<W>>, Error> {
        let n = rules.players();
        let k = knowledge;
        if k.seat >= n {
            return Err(invalid(format!("no seat {} at a table of {n}", k.seat)));
        }
        let deck = rules.deck_cards();
        let mut seen = sum_of(k.hand, k.played)
            .filter(|s| s.is_subset(deck))
            .ok_or_else(|| {
                invalid("the hand and the played cards hold more copies of a card than the deck")
            })?;
        if !k.known[k.seat].is_empty() {
            return Err(invalid(
                "the observer's own entry of known cards must be empty",
            ));
        }
        if usize::from(k.counts[k.seat]) != k.hand.len() {
            return Err(invalid(format!(
                "seat {} holds {} cards, not {}",
                k.seat,
                k.hand.len(),
                k.counts[k.seat]
            )));
        }
        let mut base = PerSeat::splat(CardMultiset::EMPTY);
        base[k.seat] = k.hand;
        let mut others = [0u8; OTHERS];
        let mut caps0 = [0u8; OTHERS];
        let mut n_others = 0;
        let mut cap_sum = 0usize;
        for s in 0..n {
            if s == k.seat {
                continue;
            }
            let known = k.known[s];
            seen = sum_of(seen, known)
                .filter(|s| s.is_subset(deck))
                .ok_or_else(|| invalid("a known card is also elsewhere or not in the deck"))?;
            for (suit, mask) in SUIT_MASKS.iter().enumerate() {
                if known.set & mask != 0 && k.voids[s] & (1 << suit) != 0 {
                    // Seat `s` is void in a suit it is known to hold.
                    return Ok(None);
                }
            }
            if known.set & excluded[s].0 != 0 {
                return Ok(None);
            }
            base[s] = known;
            let cap = usize::from(k.counts[s])
                .checked_sub(known.len())
                .ok_or_else(|| {
                    invalid(format!("seat {s} holds fewer cards than it is known to"))
                })?;
            others[n_others] = s as u8;
            caps0[n_others] = cap as u8;
            n_others += 1;
            cap_sum += cap;
        }
        let hidden = deck.minus(seen);
        if hidden.len() != cap_sum {
            return Err(invalid(format!(
                "{} hidden cards for {cap_sum} places in the other hands",
                hidden.len()
            )));
        }
        let largest = caps0.iter().copied().max().unwrap_or(0);
        let cap_bits = (u8::BITS - largest.leading_zeros()).max(1);
        // The key's fixed fields take 15 bits (see `key`); at most 36 bits of capacities remain
        // for any table of RS-3 (nine seats of 10 cards with two packs, 4 bits each).
        debug_assert!(15 + n_others as u32 * cap_bits <= 64, "memo key overflow");
        let mut sampler = Core {
            base,
            others,
            n_others,
            suit_cards: Vec::new(),
            suit_len: Vec::new(),
            allowed: Vec::new(),
            class: Vec::new(),
            n_suits: 0,
            caps0,
            cap_bits,
            free: false,
            memo: Memo::default(),
            total: W::ZERO,
        };
        for (suit, mask) in SUIT_MASKS.iter().enumerate() {
            let allowed_of = |card: u64| {
                let mut allowed = 0u16;
                for j in 0..n_others {
                    let s = others[j] as usize;
                    if k.voids[s] & (1 << suit) == 0 && excluded[s].0 & card == 0 {
                        allowed |= 1 << j;
                    }
                }
                allowed
            };
            let mut rest = hidden.set & mask;
            while rest != 0 {
                let allowed = allowed_of(rest & rest.wrapping_neg());
                let cards = CardSet(rest)
                    .into_iter()
                    .filter(|c| allowed_of(c.bit()) == allowed)
                    .fold(0u64, |m, c| m | c.bit());
                rest &= !cards;
                let group = CardMultiset {
                    set: cards,
                    twice: cards & hidden.twice,
                };
                sampler.suit_cards.push(group);
                sampler.suit_len.push(group.len() as u8);
                sampler.allowed.push(allowed);
                sampler.n_suits += 1;
            }
        }
        sampler.class = vec![[0u64; OTHERS]; sampler.n_suits];
        for level in 0..sampler.n_suits {
            for j in 0..n_others {
                for later in level..sampler.n_suits {
                    sampler.class[level][j] |=
                        u64::from((sampler.allowed[later] >> j) & 1) << later;
                }
            }
        }
        let everyone = (1u16 << n_others) - 1;
        sampler.free = W::TWO_PACKS && allow_free && sampler.allowed.iter().all(|&a| a == everyone);
        sampler.total = if sampler.free {
            // The multinomial (items; capacities), as a product of binomials C(rest, cap),
            // each built up a factor at a time: every quotient is exact, as the total so far
            // times C(rest, i) times (rest − i) is the total so far times C(rest, i + 1) (i + 1).
            let mut total = W::ONE;
            let mut rest = hidden.len() as u64;
            for &cap in &caps0[..n_others] {
                for i in 0..u64::from(cap) {
                    total = total.times(rest - i).over(i + 1);
                }
                rest -= u64::from(cap);
            }
            total
        } else {
            let len = sampler.suit_len.first().copied().unwrap_or(0);
            sampler.count_from(0, 0, len, caps0)
        };
        Ok((sampler.total > W::ZERO).then_some(sampler))
    }

    // The memo key of a state: level (at most 52, 6 bits), next seat to fill (at most 9, 4
    // bits), items of the level left (at most 26, 5 bits), and the capacities, `cap_bits` each
    // (at most 36 bits in all: see `build`). The capacities go in from the last seat, whose
    // unused entries are 0, so that only the seats at the table take room.
    #[inline]
    fn key(&self, level: usize, j: usize, left: u8, caps: &[u8; OTHERS]) -> u64 {
        if !W::TWO_PACKS {
            // One pack: 13 items a level at most (4 bits) and 7 seats (5 bits a capacity, the
            // unused ones 0), in 59 bits with constant shifts, as fast as before two packs.
            let mut key = ((level as u64) << 8) | ((j as u64) << 4) | u64::from(left);
            for &c in caps {
                key = (key << 5) | u64::from(c);
            }
            return key;
        }
        let mut key = 0u64;
        for &c in caps.iter().rev() {
            key = (key << self.cap_bits) | u64::from(c);
        }
        (key << 15) | ((level as u64) << 9) | ((j as u64) << 5) | u64::from(left)
    }

    // The capacities at the start of suit `level` in canonical order (sorted down within each
    // class of interchangeable seats), and the permutation: canonical position `i` holds the
    // capacity of other seat `perm[i]`.
    #[inline]
    fn canon(&self, level: usize, caps: &[u8; OTHERS]) -> ([u8; OTHERS], [u8; OTHERS]) {
        let class = &self.class[level];
        let mut perm: [u8; OTHERS] = std::array::from_fn(|i| i as u8);
        for i in 0..self.n_others {
            for k in i + 1..self.n_others {
                if class[i] == class[k] && caps[perm[k] as usize] > caps[perm[i] as usize] {
                    perm.swap(i, k);
                }
            }
        }
        let mut out = [0u8; OTHERS];
        for i in 0..self.n_others {
            out[i] = caps[perm[i] as usize];
        }
        (out, perm)
    }

    // The most items other seat `j` may take of the group at `level`.
    #[inline]
    fn max_take(&self, level: usize, j: usize, caps: &[u8; OTHERS]) -> u8 {
        if self.allowed[level] & (1 << j) != 0 {
            caps[j]
        } else {
            0
        }
    }

    // The number of ways to finish from a state: `left` items of the group at `level` still to
    // give to other seats `j..`, then every later group, within the capacities `caps`.
    fn count_from(&mut self, level: usize, j: usize, left: u8, caps: [u8; OTHERS]) -> W {
        if level == self.n_suits {
            return W::ONE;
        }
        if j == self.n_others {
            if left != 0 {
                return W::ZERO;
            }
            let next = level + 1;
            let len = if next < self.n_suits {
                self.suit_len[next]
            } else {
                0
            };
            return self.count_from(next, 0, len, caps);
        }
        let caps = if j == 0 {
            self.canon(level, &caps).0
        } else {
            caps
        };
        let key = self.state_key(level, j, left, &caps);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let room: u8 = (j + 1..self.n_others)
            .map(|i| self.max_take(level, i, &caps))
            .sum();
        let lo = left.saturating_sub(room);
        let hi = self.max_take(level, j, &caps).min(left);
        let mut total = W::ZERO;
        for x in lo..=hi {
            let mut next = caps;
            next[j] -= x;
            let ways = self.count_from(level, j + 1, left - x, next);
            total = total.add(ways.times(BINOM[left as usize][x as usize]));
        }
        self.memo.insert(key, total);
        total
    }

    // As `count_from`, from the memo (every state a draw reaches was counted).
    #[inline]
    fn value(&self, level: usize, j: usize, left: u8, caps: &[u8; OTHERS]) -> W {
        if level == self.n_suits {
            return W::ONE;
        }
        if j == self.n_others {
            if left != 0 {
                return W::ZERO;
            }
            let next = level + 1;
            let len = if next < self.n_suits {
                self.suit_len[next]
            } else {
                0
            };
            return self.value(next, 0, len, caps);
        }
        if j == 0 {
            self.memo[&self.state_key(level, 0, left, &self.canon(level, caps).0)]
        } else {
            self.memo[&self.state_key(level, j, left, caps)]
        }
    }

    // The memo key of a state whose capacities are canonical at the group's start (`j == 0`).
    // Within a group the count does not change either when two seats still to take from it
    // swap capacities, if they may hold the same groups from this one on, or when two seats
    // done with it do, if they may hold the same later groups: with two packs the key sorts
    // those capacities too, which makes the memo of a two-pack table many times smaller. One
    // pack keeps the plain key, as cheap as it was.
    #[inline]
    fn state_key(&self, level: usize, j: usize, left: u8, caps: &[u8; OTHERS]) -> u64 {
        if !W::TWO_PACKS || j == 0 {
            return self.key(level, j, left, caps);
        }
        let here = &self.class[level];
        let later = self.class.get(level + 1);
        let signature = |i: usize| {
            if i >= j {
                (1, here[i])
            } else {
                (0, later.map_or(0, |c| c[i]))
            }
        };
        let mut sorted = *caps;
        for i in 0..self.n_others {
            for k in i + 1..self.n_others {
                if signature(i) == signature(k) && sorted[k] > sorted[i] {
                    sorted.swap(i, k);
                }
            }
        }
        self.key(level, j, left, &sorted)
    }

    // One layout drawn exactly uniformly (see `Sampler::sample`).
    fn sample(&self, rng: &mut SplitMix64) -> Layout {
        if W::TWO_PACKS && self.free {
            return self.sample_free(rng);
        }
        let mut out = self.base;
        let mut caps = self.caps0;
        for level in 0..self.n_suits {
            // A uniformly random order of the group's items (each copy one), dealt to the seats
            // in turn.
            let mut cards = [0u8; LEVEL_MAX];
            let mut len = 0;
            let group = self.suit_cards[level];
            for c in CardSet(group.set).into_iter().chain(CardSet(group.twice)) {
                cards[len] = c.id();
                len += 1;
            }
            for i in (1..len).rev() {
                let j = rng.below_fast(i as u64 + 1) as usize;
                cards.swap(i, j);
            }
            let mut left = self.suit_len[level];
            let mut at = 0;
            let (mut caps_c, perm) = self.canon(level, &caps);
            for j in 0..self.n_others {
                // Seat j takes x items with probability C(left, x) × ways(after) / ways(now).
                let caps = caps_c;
                let total = self.value(level, j, left, &caps);
                let mut r = W::below(rng, total);
                let room: u8 = (j + 1..self.n_others)
                    .map(|i| self.max_take(level, i, &caps))
                    .sum();
                let lo = left.saturating_sub(room);
                let hi = self.max_take(level, j, &caps).min(left);
                let mut take = hi;
                for x in lo..=hi {
                    let mut next = caps;
                    next[j] -= x;
                    let w = self
                        .value(level, j + 1, left - x, &next)
                        .times(BINOM[left as usize][x as usize]);
                    if r < w {
                        take = x;
                        break;
                    }
                    r = r.sub(w);
                }
                let seat = self.others[perm[j] as usize] as usize;
                let hand = &mut out[seat];
                for &c in &cards[at..at + take as usize] {
                    let bit = 1u64 << c;
                    hand.twice |= hand.set & bit;
                    hand.set |= bit;
                }
                at += take as usize;
                caps_c[j] -= take;
                left -= take;
            }
            for j in 0..self.n_others {
                caps[perm[j] as usize] = caps_c[j];
            }
        }
        out
    }
}

/// The cards each seat cannot hold, as the legality of a hand's plays shows them, for
/// [`Sampler::with_exclusions`]. `plays` are the hand's plays in order from the first lead, and
/// `leader` is the seat that leads the first trick (the first play's seat, once there is one).
///
/// The hand is replayed, and each play read through the inverse of the rule it was made under
/// ([`HandState::reveals`]): a suit not followed, the opening card not led, every card but
/// hearts where a heart was led before hearts were broken, every card worth nothing where a
/// point card was discarded on a banned first trick. The first leader holds the opening card
/// (PLAY-1), so no other seat does (a two-pack deck has one copy of it, RS-13). What a play shows a seat did not hold then, it does not hold later in
/// the hand: cards leave a hand only by being played. A seat's revealed voids are among its
/// cards here; a card in an entry is one the seat holds no copy of.
///
/// # Errors
///
/// `invalid-action` if a seat is not one of the table, `leader` is not the first play's seat,
/// a play is out of turn, a card is played more times than the deck has copies of it, or a
/// seat plays more cards than a hand holds.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, revealed, Card};
/// let rules = preset("hearts-4").unwrap();
/// let card = |s: &str| s.parse::<Card>().unwrap();
/// let plays = [(0, card("2C")), (1, card("QS"))];
/// let shown = revealed(&rules, 0, &plays).unwrap();
/// // Seat 1 holds no club and, having discarded QS on the first trick, no card worth nothing.
/// assert!(shown[1].contains(card("AC")) && shown[1].contains(card("KS")));
/// assert!(!shown[1].contains(card("5H")));
/// // Seat 0 led the opening card, which nobody else can have held.
/// assert!(shown[2].contains(card("2C")) && shown[0].is_empty());
/// ```
pub fn revealed(
    rules: &Ruleset,
    leader: usize,
    plays: &[(usize, Card)],
) -> Result<PerSeat<CardSet>, Error> {
    let n = rules.players();
    if leader >= n {
        return Err(invalid(format!("no seat {leader} at a table of {n}")));
    }
    if plays.first().is_some_and(|&(s, _)| s != leader) {
        return Err(invalid(format!("seat {leader} does not lead the hand")));
    }
    let deck = rules.deck_cards();
    let mut own = PerSeat::splat(CardMultiset::EMPTY);
    let mut seen = CardMultiset::EMPTY;
    for &(s, c) in plays {
        if s >= n {
            return Err(invalid(format!("no seat {s} at a table of {n}")));
        }
        if seen.count(c) >= deck.count(c) {
            return Err(invalid(format!(
                "{c} is played more times than the deck has copies of it"
            )));
        }
        seen.insert(c);
        own[s].insert(c);
        if own[s].len() > rules.hand_size() {
            return Err(invalid(format!("seat {s} played too many cards")));
        }
    }
    // Each seat holds just the cards it will play: the rules read the context, not the hands.
    let mut st = HandState::empty(rules);
    for (s, cards) in own.iter().enumerate().take(n) {
        st.set_hand(s, *cards);
    }
    st.lead_from(leader);
    let opening = rules.opening_card().map_or(0, |c| c.bit());
    let mut out = PerSeat::splat(CardSet::EMPTY);
    for (s, set) in out.iter_mut().enumerate().take(n) {
        set.0 |= kernel::first_leader_reveals(s, leader, opening);
    }
    for &(s, c) in plays {
        if st.to_move() != s {
            return Err(invalid(format!("seat {s} played {c} out of turn")));
        }
        out[s] |= st.reveals(rules, c);
        st.play_unchecked(rules, c);
    }
    Ok(out)
}

/// The number of layouts of the hidden cards consistent with `knowledge`.
///
/// # Errors
///
/// As [`Sampler::new`], except that no consistent layout gives `Ok(0)`.
pub fn count_layouts(rules: &Ruleset, knowledge: &Knowledge) -> Result<u128, Error> {
    Sampler::count_with_exclusions(rules, knowledge, &PerSeat::splat(CardSet::EMPTY))
}
