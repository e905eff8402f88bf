//! Exact sampling of the hidden cards from one seat's point of view, and a Monte Carlo player
//! built on it (001 ¶9: a computer player uses only its own hand and public information).
//!
//! A [`Knowledge`] holds what one seat knows: its hand, the cards played, the cards it passed
//! that their receiver still holds, every seat's number of cards and every revealed void. A
//! [`Sampler`] counts the layouts of the hidden cards consistent with it and draws one exactly
//! uniformly: the hidden cards are grouped by suit, a dynamic programme over the suits whose
//! state is the vector of the other seats' remaining capacities counts the completions (in
//! `u128`, memoised), and a draw picks each suit's split (how many cards each seat gets, 0
//! where it is void) with probability proportional to multinomial × completions, then places
//! the suit's cards uniformly into that split.

#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde_json::Value;

use crate::card::{Card, CardSet, SUIT_MASKS};
use crate::error::{Error, ErrorCode};
use crate::hand::HandState;
use crate::rng::SplitMix64;
use crate::ruleset::{MoonChoice, MoonScoring, PassDirection, Ruleset};

/// What one seat knows about where the cards are (OBS-1, from its own point of view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Knowledge {
    /// The observing seat.
    pub seat: usize,
    /// The observer's cards.
    pub hand: CardSet,
    /// Every card played this hand, the trick in progress included.
    pub played: CardSet,
    /// Cards known to be in a given other seat's hand (cards the observer passed that the
    /// receiver has not played yet); the observer's own entry is empty.
    pub known: [CardSet; 7],
    /// Each seat's number of cards in hand (the observer's included).
    pub counts: [u8; 7],
    /// Each seat's revealed voids, a 4-bit mask by suit index (C=0, D=1, H=2, S=3).
    pub voids: [u8; 7],
}

/// A layout: the cards of each seat (entries beyond `players` are empty).
pub type Layout = [CardSet; 7];

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidAction, message)
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

type Memo = HashMap<u64, u128, BuildHasherDefault<KeyHasher>>;

// Binomial coefficients C(n, k) for n ≤ 17 (a suit has at most 13 cards).
const fn binomials() -> [[u64; 18]; 18] {
    let mut t = [[0u64; 18]; 18];
    let mut n = 0;
    while n < 18 {
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

const BINOM: [[u64; 18]; 18] = binomials();

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

/// The layouts of the hidden cards consistent with a [`Knowledge`]: counts them exactly and
/// draws them exactly uniformly. Build one per decision; drawing does not allocate.
#[derive(Clone, Debug)]
pub struct Sampler {
    // The observer's hand and the known cards, placed.
    base: Layout,
    // The other seats, in seat order.
    others: [u8; 6],
    n_others: usize,
    // The hidden cards of each suit that has some, in suit order.
    suit_cards: [u64; 4],
    suit_len: [u8; 4],
    // Per suit level: bit j set when other seat j may hold the suit (not void).
    allowed: [u8; 4],
    // Per suit level: each other seat's void signature over that suit and the later ones;
    // seats with equal signatures are interchangeable from there on.
    class: [[u8; 6]; 4],
    n_suits: usize,
    // The other seats' capacities (cards in hand minus known cards).
    caps0: [u8; 6],
    memo: Memo,
    total: u128,
}

impl Sampler {
    /// Checks `knowledge` against `rules` and counts its layouts.
    ///
    /// # Errors
    ///
    /// `invalid-action` if the knowledge is inconsistent: overlapping or foreign cards, card
    /// counts that do not add up, or no layout at all.
    pub fn new(rules: &Ruleset, knowledge: &Knowledge) -> Result<Sampler, Error> {
        let n = rules.players();
        let k = knowledge;
        if k.seat >= n {
            return Err(invalid(format!("no seat {} at a table of {n}", k.seat)));
        }
        let deck = rules.deck().0;
        let mut seen = k.hand.0 | k.played.0;
        if k.hand.0 & k.played.0 != 0 || seen & !deck != 0 {
            return Err(invalid(
                "the hand and the played cards overlap or leave the deck",
            ));
        }
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
        let mut base = [CardSet::EMPTY; 7];
        base[k.seat] = k.hand;
        let mut others = [0u8; 6];
        let mut caps0 = [0u8; 6];
        let mut n_others = 0;
        let mut cap_sum = 0usize;
        for s in 0..n {
            if s == k.seat {
                continue;
            }
            let known = k.known[s].0;
            if known & (seen | !deck) != 0 {
                return Err(invalid("a known card is also elsewhere or not in the deck"));
            }
            for (suit, mask) in SUIT_MASKS.iter().enumerate() {
                if known & mask != 0 && k.voids[s] & (1 << suit) != 0 {
                    return Err(invalid(format!(
                        "no layout: seat {s} is void in a suit it is known to hold"
                    )));
                }
            }
            seen |= known;
            base[s] = k.known[s];
            let cap = usize::from(k.counts[s])
                .checked_sub(k.known[s].len())
                .ok_or_else(|| {
                    invalid(format!("seat {s} holds fewer cards than it is known to"))
                })?;
            others[n_others] = s as u8;
            caps0[n_others] = cap as u8;
            n_others += 1;
            cap_sum += cap;
        }
        let hidden = deck & !seen;
        if hidden.count_ones() as usize != cap_sum {
            return Err(invalid(format!(
                "{} hidden cards for {cap_sum} places in the other hands",
                hidden.count_ones()
            )));
        }
        let mut sampler = Sampler {
            base,
            others,
            n_others,
            suit_cards: [0; 4],
            suit_len: [0; 4],
            allowed: [0; 4],
            class: [[0; 6]; 4],
            n_suits: 0,
            caps0,
            memo: Memo::default(),
            total: 0,
        };
        for (suit, mask) in SUIT_MASKS.iter().enumerate() {
            let cards = hidden & mask;
            if cards == 0 {
                continue;
            }
            let mut allowed = 0u8;
            for j in 0..n_others {
                if k.voids[others[j] as usize] & (1 << suit) == 0 {
                    allowed |= 1 << j;
                }
            }
            let i = sampler.n_suits;
            sampler.suit_cards[i] = cards;
            sampler.suit_len[i] = cards.count_ones() as u8;
            sampler.allowed[i] = allowed;
            sampler.n_suits += 1;
        }
        for level in 0..sampler.n_suits {
            for j in 0..n_others {
                for later in level..sampler.n_suits {
                    sampler.class[level][j] |= ((sampler.allowed[later] >> j) & 1) << later;
                }
            }
        }
        let len = sampler.suit_len[0];
        sampler.total = sampler.count_from(0, 0, len, caps0);
        if sampler.total == 0 {
            return Err(invalid("no layout of the hidden cards is consistent"));
        }
        Ok(sampler)
    }

    /// The number of consistent layouts.
    pub fn count(&self) -> u128 {
        self.total
    }

    // The memo key of a state: suit level, next seat to fill, cards of the suit left, and the
    // capacities.
    #[inline]
    fn key(level: usize, j: usize, left: u8, caps: &[u8; 6]) -> u64 {
        let mut key = ((level as u64) << 7) | ((j as u64) << 4) | u64::from(left);
        for &c in caps {
            key = (key << 5) | u64::from(c);
        }
        key
    }

    // The capacities at the start of suit `level` in canonical order (sorted down within each
    // class of interchangeable seats), and the permutation: canonical position `i` holds the
    // capacity of other seat `perm[i]`.
    #[inline]
    fn canon(&self, level: usize, caps: &[u8; 6]) -> ([u8; 6], [u8; 6]) {
        let class = &self.class[level];
        let mut perm = [0u8, 1, 2, 3, 4, 5];
        for i in 0..self.n_others {
            for k in i + 1..self.n_others {
                if class[i] == class[k] && caps[perm[k] as usize] > caps[perm[i] as usize] {
                    perm.swap(i, k);
                }
            }
        }
        let mut out = [0u8; 6];
        for i in 0..self.n_others {
            out[i] = caps[perm[i] as usize];
        }
        (out, perm)
    }

    // The most cards other seat `j` may take of the suit at `level`.
    #[inline]
    fn max_take(&self, level: usize, j: usize, caps: &[u8; 6]) -> u8 {
        if self.allowed[level] & (1 << j) != 0 {
            caps[j]
        } else {
            0
        }
    }

    // The number of ways to finish from a state: `left` cards of the suit at `level` still to
    // give to other seats `j..`, then every later suit, within the capacities `caps`.
    fn count_from(&mut self, level: usize, j: usize, left: u8, caps: [u8; 6]) -> u128 {
        if level == self.n_suits {
            return 1;
        }
        if j == self.n_others {
            if left != 0 {
                return 0;
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
        let key = Self::key(level, j, left, &caps);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let room: u8 = (j + 1..self.n_others)
            .map(|i| self.max_take(level, i, &caps))
            .sum();
        let lo = left.saturating_sub(room);
        let hi = self.max_take(level, j, &caps).min(left);
        let mut total = 0u128;
        for x in lo..=hi {
            let mut next = caps;
            next[j] -= x;
            let ways = self.count_from(level, j + 1, left - x, next);
            total += u128::from(BINOM[left as usize][x as usize]) * ways;
        }
        self.memo.insert(key, total);
        total
    }

    // As `count_from`, from the memo (every state a draw reaches was counted).
    #[inline]
    fn value(&self, level: usize, j: usize, left: u8, caps: &[u8; 6]) -> u128 {
        if level == self.n_suits {
            return 1;
        }
        if j == self.n_others {
            if left != 0 {
                return 0;
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
            self.memo[&Self::key(level, 0, left, &self.canon(level, caps).0)]
        } else {
            self.memo[&Self::key(level, j, left, caps)]
        }
    }

    /// One layout drawn exactly uniformly among the consistent ones: one hand per seat, the
    /// observer's own included.
    pub fn sample(&self, rng: &mut SplitMix64) -> Layout {
        let mut out = self.base;
        let mut caps = self.caps0;
        for level in 0..self.n_suits {
            // A uniformly random order of the suit's cards, dealt to the seats in turn.
            let mut cards = [0u8; 13];
            let mut len = 0;
            for c in CardSet(self.suit_cards[level]) {
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
                // Seat j takes x cards with probability C(left, x) × ways(after) / ways(now).
                let caps = caps_c;
                let total = self.value(level, j, left, &caps);
                let mut r = below_u128(rng, total);
                let room: u8 = (j + 1..self.n_others)
                    .map(|i| self.max_take(level, i, &caps))
                    .sum();
                let lo = left.saturating_sub(room);
                let hi = self.max_take(level, j, &caps).min(left);
                let mut take = hi;
                for x in lo..=hi {
                    let mut next = caps;
                    next[j] -= x;
                    let w = u128::from(BINOM[left as usize][x as usize])
                        * self.value(level, j + 1, left - x, &next);
                    if r < w {
                        take = x;
                        break;
                    }
                    r -= w;
                }
                let seat = self.others[perm[j] as usize] as usize;
                for &c in &cards[at..at + take as usize] {
                    out[seat].0 |= 1u64 << c;
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

/// The number of layouts of the hidden cards consistent with `knowledge`.
///
/// # Errors
///
/// As [`Sampler::new`], except that no consistent layout gives `Ok(0)`.
pub fn count_layouts(rules: &Ruleset, knowledge: &Knowledge) -> Result<u128, Error> {
    match Sampler::new(rules, knowledge) {
        Ok(s) => Ok(s.count()),
        Err(e) if e.message().starts_with("no layout") => Ok(0),
        Err(e) => Err(e),
    }
}

fn field<'a>(obs: &'a Value, key: &str) -> Result<&'a Value, Error> {
    obs.get(key)
        .ok_or_else(|| invalid(format!("the observation has no {key:?}")))
}

fn seat_of(v: &Value, n: usize, what: &str) -> Result<usize, Error> {
    match v.as_u64() {
        Some(s) if (s as usize) < n => Ok(s as usize),
        _ => Err(invalid(format!("{what} is not a seat: {v}"))),
    }
}

fn card_of(v: &Value, rules: &Ruleset) -> Result<Card, Error> {
    let text = v
        .as_str()
        .ok_or_else(|| invalid(format!("a card must be a string, not {v}")))?;
    let card = Card::parse(text).map_err(|e| invalid(e.message().to_owned()))?;
    if !rules.deck().contains(card) {
        return Err(invalid(format!("{card} is not in the deck")));
    }
    Ok(card)
}

fn cards_of(v: &Value, rules: &Ruleset) -> Result<CardSet, Error> {
    let items = v
        .as_array()
        .ok_or_else(|| invalid(format!("a list of cards was expected, not {v}")))?;
    let mut set = CardSet::EMPTY;
    for item in items {
        let c = card_of(item, rules)?;
        if set.contains(c) {
            return Err(invalid(format!("{c} is repeated")));
        }
        set.insert(c);
    }
    Ok(set)
}

// The `(seat, card)` plays of a list of `{seat, card}` objects.
fn plays_of(v: &Value, rules: &Ruleset) -> Result<Vec<(usize, Card)>, Error> {
    let items = v
        .as_array()
        .ok_or_else(|| invalid(format!("a list of plays was expected, not {v}")))?;
    items
        .iter()
        .map(|p| {
            Ok((
                seat_of(field(p, "seat")?, rules.players(), "a play's seat")?,
                card_of(field(p, "card")?, rules)?,
            ))
        })
        .collect()
}

/// The public record of the hand read from an observation: every trick (completed ones with
/// their winner), in order, and the trick in progress.
struct History {
    tricks: Vec<(Vec<(usize, Card)>, usize)>,
    trick: Vec<(usize, Card)>,
}

fn history_of(rules: &Ruleset, obs: &Value) -> Result<History, Error> {
    let n = rules.players();
    let tricks = field(obs, "tricks")?
        .as_array()
        .ok_or_else(|| invalid("tricks must be a list"))?
        .iter()
        .map(|t| {
            Ok((
                plays_of(field(t, "cards")?, rules)?,
                seat_of(field(t, "winner")?, n, "a trick's winner")?,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let trick = plays_of(field(obs, "trick")?, rules)?;
    Ok(History { tricks, trick })
}

impl Knowledge {
    /// Reads what the observing seat knows from its observation (OBS-1 JSON) under `rules`.
    ///
    /// In phase `play`, `moon` and `over`, the layout is that of the hands now. In phase `pass`
    /// it is that of the deal: the observer's hand is `hand` with the cards it `passed`, and
    /// every seat holds `hand_size` cards.
    ///
    /// # Errors
    ///
    /// `invalid-action` if the observation is malformed or inconsistent, or in phase `deal`.
    pub fn from_observation(rules: &Ruleset, obs: &Value) -> Result<Knowledge, Error> {
        let n = rules.players();
        let seat = seat_of(field(obs, "seat")?, n, "seat")?;
        let phase = field(obs, "phase")?
            .as_str()
            .ok_or_else(|| invalid("phase must be a string"))?;
        let mut k = Knowledge {
            seat,
            hand: cards_of(field(obs, "hand")?, rules)?,
            ..Knowledge::default()
        };
        let voids = field(obs, "voids")?
            .as_array()
            .filter(|v| v.len() == n)
            .ok_or_else(|| invalid("voids must hold one list per seat"))?;
        for (s, list) in voids.iter().enumerate() {
            for suit in list
                .as_array()
                .ok_or_else(|| invalid("a seat's voids must be a list"))?
            {
                let i = match suit.as_str() {
                    Some("C") => 0,
                    Some("D") => 1,
                    Some("H") => 2,
                    Some("S") => 3,
                    _ => return Err(invalid(format!("{suit} is not a suit"))),
                };
                k.voids[s] |= 1 << i;
            }
        }
        let passed = match field(obs, "passed")? {
            Value::Null => None,
            v => Some(cards_of(v, rules)?),
        };
        let received = !field(obs, "received")?.is_null();
        let hand_size = rules.hand_size() as u8;
        match phase {
            "deal" => return Err(invalid("nothing has been dealt yet")),
            "pass" => {
                if let Some(p) = passed {
                    if p.0 & k.hand.0 != 0 {
                        return Err(invalid("a passed card is still in the hand"));
                    }
                    k.hand.0 |= p.0;
                }
                k.counts[..n].fill(hand_size);
                return Ok(k);
            }
            "play" | "moon" | "over" => {}
            other => return Err(invalid(format!("unknown phase {other:?}"))),
        }
        let history = history_of(rules, obs)?;
        let mut played_by = [0u8; 7];
        let plays = history
            .tricks
            .iter()
            .flat_map(|(t, _)| t.iter())
            .chain(history.trick.iter());
        for &(s, c) in plays {
            if k.played.contains(c) {
                return Err(invalid(format!("{c} is played twice")));
            }
            k.played.insert(c);
            played_by[s] += 1;
        }
        for s in 0..n {
            k.counts[s] = hand_size
                .checked_sub(played_by[s])
                .ok_or_else(|| invalid(format!("seat {s} played too many cards")))?;
        }
        if let (Some(p), true) = (passed, received) {
            let dir = field(obs, "pass_direction")?
                .as_str()
                .and_then(PassDirection::from_name)
                .ok_or_else(|| invalid("a pass happened without a pass direction"))?;
            let to = dir.target(seat, n);
            if to != seat {
                k.known[to] = CardSet(p.0 & !k.played.0);
            }
        }
        Ok(k)
    }
}

/// `samples` layouts drawn independently and exactly uniformly among those consistent with
/// what the observer of `obs` knows (see [`Knowledge::from_observation`]), from a generator
/// seeded with `seed`.
///
/// # Errors
///
/// As [`Knowledge::from_observation`] and [`Sampler::new`].
pub fn sample_layouts(
    rules: &Ruleset,
    obs: &Value,
    samples: usize,
    seed: u64,
) -> Result<Vec<Layout>, Error> {
    let sampler = Sampler::new(rules, &Knowledge::from_observation(rules, obs)?)?;
    let mut rng = SplitMix64::new(seed);
    Ok((0..samples).map(|_| sampler.sample(&mut rng)).collect())
}

/// The number of layouts consistent with what the observer of `obs` knows.
///
/// # Errors
///
/// As [`Knowledge::from_observation`] and [`count_layouts`].
pub fn count_observation_layouts(rules: &Ruleset, obs: &Value) -> Result<u128, Error> {
    count_layouts(rules, &Knowledge::from_observation(rules, obs)?)
}

// The public part of the hand as a HandState whose hands are empty: the plays replayed in
// order, so points, voids, broken hearts, the leader and the moon candidate are exact.
fn public_state(rules: &Ruleset, obs: &Value, k: &Knowledge) -> Result<HandState, Error> {
    let n = rules.players();
    let dealer = seat_of(field(obs, "dealer")?, n, "dealer")?;
    let history = history_of(rules, obs)?;
    let mut st = HandState::empty(rules);
    let mut own = [CardSet::EMPTY; 7];
    for (t, _) in &history.tricks {
        for &(s, c) in t {
            own[s].insert(c);
        }
    }
    for &(s, c) in &history.trick {
        own[s].insert(c);
    }
    for (s, cards) in own.iter().enumerate().take(n) {
        st.set_hand(s, *cards);
    }
    st.start_play(rules, dealer);
    let play = |st: &mut HandState, s: usize, c: Card| {
        if st.to_move() != s {
            return Err(invalid(format!("seat {s} played {c} out of turn")));
        }
        Ok(st.play_unchecked(rules, c))
    };
    for (t, winner) in &history.tricks {
        if t.len() != n {
            return Err(invalid("a completed trick must have one card per seat"));
        }
        let mut done = None;
        for &(s, c) in t {
            done = play(&mut st, s, c)?;
        }
        if done.map(|d| d.winner as usize) != Some(*winner) {
            return Err(invalid("a trick's winner does not follow from its cards"));
        }
    }
    for &(s, c) in &history.trick {
        if play(&mut st, s, c)?.is_some() {
            return Err(invalid("the trick in progress is complete"));
        }
    }
    if st.played() != k.played {
        return Err(invalid("the played cards do not add up"));
    }
    Ok(st)
}

// The hand scores of a finished hand, the moon choice (where the taker has one) made to
// minimise the taker's score minus the others' mean.
fn final_scores(rules: &Ruleset, st: &HandState) -> [i32; 7] {
    match (rules.moon(), st.moon_taker(rules)) {
        (Some(m), Some(t)) if m.scoring == MoonScoring::TakerChoice => {
            let a = st.hand_scores(rules, Some(MoonChoice::AddToOthers));
            let b = st.hand_scores(rules, Some(MoonChoice::SubtractFromTaker));
            if margin(&b, t, rules.players()) < margin(&a, t, rules.players()) {
                b
            } else {
                a
            }
        }
        _ => st.hand_scores(rules, None),
    }
}

// (n − 1) × (own score − mean of the others' scores): lower is better for `seat`.
#[inline]
fn margin(scores: &[i32; 7], seat: usize, n: usize) -> i64 {
    let total: i64 = scores[..n].iter().map(|&s| i64::from(s)).sum();
    let own = i64::from(scores[seat]);
    (n as i64 - 1) * own - (total - own)
}

/// The Monte Carlo evaluation of every legal card of the seat to play in `obs`, which must be
/// the observer: for `rollouts` layouts drawn uniformly from what it knows (one layout shared
/// by every card), the card is played and the hand finished by every seat following a simple
/// heuristic with a little noise (`playout_card`).
/// Returns each legal card, in card order, with its mean of own hand score minus the others'
/// mean hand score (lower is better).
///
/// # Errors
///
/// `invalid-action` if the observation is malformed or its seat is not to play.
pub fn monte_carlo_evaluate(
    rules: &Ruleset,
    obs: &Value,
    rollouts: usize,
    seed: u64,
) -> Result<Vec<(Card, f64)>, Error> {
    let rollouts = rollouts.max(1);
    let scale = (rollouts * (rules.players() - 1)) as f64;
    Ok(rollout_sums(rules, obs, rollouts, seed, false)?
        .into_iter()
        .map(|(c, s)| (c, s as f64 / scale))
        .collect())
}

/// The card a Monte Carlo player chooses for the observer of `obs`: the legal card with the
/// best [`monte_carlo_evaluate`] result (the lowest own score minus the others' mean), ties
/// broken by the lowest card id. A single legal card is returned without any rollout.
/// Deterministic for a given `seed`.
///
/// # Errors
///
/// As [`monte_carlo_evaluate`].
pub fn monte_carlo_play(
    rules: &Ruleset,
    obs: &Value,
    rollouts: usize,
    seed: u64,
) -> Result<Card, Error> {
    let sums = rollout_sums(rules, obs, rollouts.max(1), seed, true)?;
    let mut best = sums[0];
    for &(c, v) in &sums[1..] {
        if v < best.1 {
            best = (c, v);
        }
    }
    Ok(best.0)
}

// The playout policy: a plain Hearts heuristic with a little noise, so that the simulated
// opponents duck and dump points roughly as real ones do (uniformly random playouts make every
// card look alike and lose to simple rules). Leading: the lowest card. Following: the highest
// card that still ducks under the winning one, else (last to play) the highest, else the
// lowest. Discarding: the most valuable point card, else the highest card.
fn playout_card(h: &HandState, rules: &Ruleset, rng: &mut SplitMix64) -> Card {
    let legal = h.legal_plays(rules);
    if legal.len() == 1 || rng.below_fast(8) == 0 {
        let i = rng.below_fast(legal.len() as u64) as usize;
        return legal.nth(i).expect("i < len");
    }
    let rank = |c: Card| c.id() % 13;
    let lowest = |set: CardSet| set.into_iter().min_by_key(|&c| (rank(c), c.id()));
    let highest = |set: CardSet| set.into_iter().max_by_key(|&c| (rank(c), c.id()));
    let Some(led) = h.led_suit() else {
        return lowest(legal).expect("legal is not empty");
    };
    let follows = legal.of_suit(led);
    if !follows.is_empty() {
        let winning = h
            .trick()
            .map(|(_, c)| c)
            .filter(|c| c.suit() == led)
            .max_by_key(|c| c.id())
            .expect("the led card is in the trick");
        let ducks = CardSet(follows.0 & (winning.bit() - 1));
        if let Some(card) = highest(ducks) {
            return card;
        }
        let last = h.trick_len() + 1 == h.players();
        let pick = if last {
            highest(follows)
        } else {
            lowest(follows)
        };
        return pick.expect("follows is not empty");
    }
    legal
        .into_iter()
        .filter(|&c| rules.points_of(c) > 0)
        .max_by_key(|&c| (rules.points_of(c), rank(c)))
        .or_else(|| highest(legal))
        .expect("legal is not empty")
}

// Each legal card with its sum of margins over `rollouts` playouts (just the card, with 0,
// when it is the only one and `shortcut` is set).
fn rollout_sums(
    rules: &Ruleset,
    obs: &Value,
    rollouts: usize,
    seed: u64,
    shortcut: bool,
) -> Result<Vec<(Card, i64)>, Error> {
    let n = rules.players();
    let k = Knowledge::from_observation(rules, obs)?;
    if field(obs, "phase")?.as_str() != Some("play")
        || field(obs, "to_move")?.as_u64() != Some(k.seat as u64)
    {
        return Err(invalid(format!("seat {} is not to play", k.seat)));
    }
    let base = public_state(rules, obs, &k)?;
    let mut probe = base;
    probe.set_hand(k.seat, k.hand);
    let fresh = base.played().is_empty();
    let dealer = seat_of(field(obs, "dealer")?, n, "dealer")?;
    if fresh {
        probe.start_play(rules, dealer);
    }
    if probe.to_move() != k.seat {
        return Err(invalid(format!("seat {} is not to play", k.seat)));
    }
    let legal = probe.legal_plays(rules);
    if legal.is_empty() {
        return Err(invalid("the observer has no legal card"));
    }
    let cards = legal.to_vec();
    if shortcut && cards.len() == 1 {
        return Ok(vec![(cards[0], 0)]);
    }
    let sampler = Sampler::new(rules, &k)?;
    let mut rng = SplitMix64::new(seed);
    let mut sums = vec![0i64; cards.len()];
    for _ in 0..rollouts {
        let layout = sampler.sample(&mut rng);
        let mut st = base;
        for (s, cards) in layout.iter().enumerate().take(n) {
            st.set_hand(s, *cards);
        }
        if fresh {
            st.start_play(rules, dealer);
        }
        for (sum, &card) in sums.iter_mut().zip(&cards) {
            let mut h = st;
            h.play_unchecked(rules, card);
            while !h.is_complete(rules) {
                let card = playout_card(&h, rules, &mut rng);
                h.play_unchecked(rules, card);
            }
            *sum += margin(&final_scores(rules, &h), k.seat, n);
        }
    }
    Ok(cards.into_iter().zip(sums).collect())
}
