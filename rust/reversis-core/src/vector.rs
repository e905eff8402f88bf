//! A batched environment for learning code: many games of one ruleset stepped together, with
//! flat buffers of acting seats, legal-action masks (ACT-2, ACT-3), observations in the OBS-3
//! encoding, rewards, terminations and episode scores, in the manner of EnvPool's or pgx's
//! batched APIs.
//!
//! Everything a step writes lives in flat, row-major buffers (`num_envs` rows) that learning
//! code can read as slices without copying. Games auto-reset: when a game's episode ends during
//! a step, its row reports `terminated = 1`, the step's rewards and the finished episode's
//! scores, while its acting seat, mask and observation already describe the first decision of
//! its next episode.
//!
//! The observations are `i32` by default, or `u8` ([`ObservationDtype`]) where the ruleset
//! and the kind of episode keep every value within 0–255: a quarter of the memory to write and
//! to read. Each buffer starts on a 64-byte boundary, and the threads of a step take runs of
//! games that start at multiples of 64 games, so that no two threads write the same cache line.
//!
//! # Examples
//!
//! ```
//! use reversis_core::{preset, Episode, Rewards, VectorEnv, NUM_ACTIONS};
//!
//! let mut env = VectorEnv::new(preset("hearts-4").unwrap(), 8, 42, Episode::Hand, Rewards::HandEnd)
//!     .unwrap();
//! let width = NUM_ACTIONS as usize;
//! let mut finished = 0;
//! while finished < 8 {
//!     // The lowest legal id of every game.
//!     let actions: Vec<u16> = env
//!         .legal_action_mask()
//!         .chunks(width)
//!         .map(|row| row.iter().position(|&b| b == 1).unwrap() as u16)
//!         .collect();
//!     env.step(&actions).unwrap();
//!     finished += env.terminated().iter().filter(|&&t| t == 1).count();
//! }
//! ```

use std::sync::{Arc, Mutex};

use crate::action::{Decision, NUM_ACTIONS};
use crate::card::CardMultiset;
use crate::error::{Error, ErrorCode};
use crate::game::Game;
use crate::hand::HandState;
use crate::kernel::Scoring;
use crate::position::{Outcome, Phase, Position};
use crate::rng::SplitMix64;
use crate::ruleset::{MoonScoring, PassDirection, Ruleset};
use crate::seat::{PerSeat, MAX_PLAYERS};

/// The number of integers of the OBS-3 encoding, whatever the ruleset.
pub const ENCODING_LENGTH: usize = 1435;

/// The version of the OBS-3 encoding [`encode_observation`] writes (Python's
/// `reversis.encoding.ENCODING_VERSION`).
pub const ENCODING_VERSION: u32 = 3;

/// The most games a [`VectorEnv`] holds.
pub const MAX_ENVS: usize = 1 << 16;

const ACTIONS: usize = NUM_ACTIONS as usize;
const SEATS: usize = MAX_PLAYERS;
const CARDS: usize = 52;

// OBS-3 offsets (version 3).
pub(crate) const AT_HAND: usize = 0;
pub(crate) const AT_PLAYED: usize = AT_HAND + CARDS;
pub(crate) const AT_TRICK: usize = AT_PLAYED + SEATS * CARDS;
pub(crate) const AT_PASSED: usize = AT_TRICK + SEATS * CARDS;
pub(crate) const AT_RECEIVED: usize = AT_PASSED + CARDS;
pub(crate) const AT_VOIDS: usize = AT_RECEIVED + CARDS;
pub(crate) const AT_POINTS: usize = AT_VOIDS + SEATS * 4;
pub(crate) const AT_SCORES: usize = AT_POINTS + SEATS;
pub(crate) const AT_PHASE: usize = AT_SCORES + SEATS;
pub(crate) const AT_HEARTS: usize = AT_PHASE + 5;
pub(crate) const AT_TO_MOVE: usize = AT_HEARTS + 1;
pub(crate) const AT_DIRECTION: usize = AT_TO_MOVE + SEATS + 1;
pub(crate) const AT_LEGAL: usize = AT_DIRECTION + 5;
pub(crate) const AT_SELECTED: usize = AT_LEGAL + CARDS;
pub(crate) const AT_COUNT_DOWN: usize = AT_SELECTED + CARDS;
pub(crate) const AT_HELD_OVER: usize = AT_COUNT_DOWN + 1;

// The table of spec/records.md's OBS-3, offset by offset.
const _: () = assert!(SEATS == 10);
const _: () = assert!(AT_PLAYED == 52 && AT_TRICK == 572 && AT_PASSED == 1092);
const _: () = assert!(AT_RECEIVED == 1144 && AT_VOIDS == 1196 && AT_POINTS == 1236);
const _: () = assert!(AT_SCORES == 1246 && AT_PHASE == 1256 && AT_HEARTS == 1261);
const _: () = assert!(AT_TO_MOVE == 1262 && AT_DIRECTION == 1273 && AT_LEGAL == 1278);
const _: () = assert!(AT_SELECTED == 1330 && AT_COUNT_DOWN == 1382 && AT_HELD_OVER == 1383);
const _: () = assert!(AT_HELD_OVER + CARDS == ENCODING_LENGTH);

// The SplitMix64 increment, and a second odd constant, for [`episode_seed`].
const MIX_INDEX: u64 = 0x9E37_79B9_7F4A_7C15;
const MIX_EPISODE: u64 = 0xD1B5_4A32_D192_ED69;

// The values of an OBS-3 block: a seat's points or total, a count of copies, a flag.
trait Element: Copy + Default + Send + Sync {
    // The items of a 64-byte line: what one bit of a row's dirty mask stands for.
    const LINE: usize;
    // `v`, which the environment's checks keep within the type's range.
    fn of(v: i64) -> Self;
}

impl Element for i32 {
    const LINE: usize = 16;
    fn of(v: i64) -> i32 {
        // The Python encoding stores an `int` in an `array('i')`: the totals fit.
        v as i32
    }
}

impl Element for u8 {
    const LINE: usize = 64;
    fn of(v: i64) -> u8 {
        debug_assert!((0..=255).contains(&v), "{v} is not a uint8 observation");
        v as u8
    }
}

// A row's lines fit the `u128` that records which of them hold a nonzero value.
const _: () = assert!(ENCODING_LENGTH.div_ceil(<i32 as Element>::LINE) <= 128);

// Writes the nonzero entries of an encoding into a row that is all zeros, noting the lines it
// writes, so that the row can be cleared later by those lines alone: an encoding has about a
// hundred nonzero entries among 1435, and zeroing whole rows was most of a step's work.
struct Sink<'a, T> {
    out: &'a mut [T],
    dirty: u128,
}

impl<'a, T: Element> Sink<'a, T> {
    fn new(out: &'a mut [T]) -> Self {
        Sink { out, dirty: 0 }
    }

    #[inline]
    fn put(&mut self, at: usize, v: i64) {
        self.out[at] = T::of(v);
        self.dirty |= 1 << (at / T::LINE);
    }

    #[inline]
    fn value(&mut self, at: usize, v: i64) {
        if v != 0 {
            self.put(at, v);
        }
    }

    fn cards(&mut self, at: usize, bits: u64, v: i64) {
        let mut m = bits;
        while m != 0 {
            self.put(at + m.trailing_zeros() as usize, v);
            m &= m - 1;
        }
    }

    // A card block that counts copies (OBS-3 version 3): 1 for each card held, 2 for each held
    // twice.
    fn count(&mut self, at: usize, cards: CardMultiset) {
        self.cards(at, cards.set, 1);
        self.cards(at, cards.twice, 2);
    }
}

// Zeroes the lines of `row` that `dirty` names, leaving it all zeros where a `Sink` wrote it.
fn clear<T: Element>(row: &mut [T], dirty: u128) {
    let mut m = dirty;
    while m != 0 {
        let at = m.trailing_zeros() as usize * T::LINE;
        let end = (at + T::LINE).min(row.len());
        row[at..end].fill(T::default());
        m &= m - 1;
    }
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Deal => 0,
        Phase::Pass => 1,
        Phase::Play => 2,
        Phase::Moon => 3,
        Phase::Over => 4,
    }
}

fn direction_index(direction: Option<PassDirection>) -> usize {
    match direction {
        Some(PassDirection::Left) => 0,
        Some(PassDirection::Right) => 1,
        Some(PassDirection::Across) => 2,
        Some(PassDirection::Hold) => 3,
        None => 4,
    }
}

/// `invalid-setup` unless `out` holds exactly one encoding (OBS-3), for both encoders.
pub(crate) fn check_encoding_buffer(out: &[i32]) -> Result<(), Error> {
    if out.len() != ENCODING_LENGTH {
        return Err(Error::new(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: an encoding holds {ENCODING_LENGTH} integers, got a buffer of {}",
                out.len()
            ),
        ));
    }
    Ok(())
}

/// Writes the OBS-3 encoding of `game`'s observation for `seat` (OBS-1) into `out`, which must
/// hold [`ENCODING_LENGTH`] integers: the same integers as Python's
/// `reversis.encoding.encode_observation(game.observation(seat))`. Seats are relative to
/// `seat`; blocks of relative seats at or above the player count are 0.
///
/// # Errors
///
/// `invalid-action` when the seat is out of range; `invalid-setup` when `out` does not have
/// [`ENCODING_LENGTH`] integers.
///
/// # Examples
///
/// ```
/// use reversis_core::{encode_observation, preset, Game, ENCODING_LENGTH};
/// let game = Game::new(preset("hearts-4").unwrap(), Some(7), 0, None).unwrap();
/// let mut out = vec![0; ENCODING_LENGTH];
/// encode_observation(&game, 2, &mut out).unwrap();
/// assert_eq!(out[..52].iter().sum::<i32>(), 13); // seat 2's hand
/// assert_eq!(out[1256 + 1], 1); // phase pass
/// ```
pub fn encode_observation(game: &Game, seat: usize, out: &mut [i32]) -> Result<(), Error> {
    check_encoding_buffer(out)?;
    game.hand(seat)?;
    out.fill(0);
    encode(game.ruleset(), game.position(), seat, &mut Sink::new(out));
    Ok(())
}

/// What OBS-3 encodes for one seat: everything that seat has seen of the hand and the match.
///
/// [`encode_observation`] reads it off a game; a search that plays a hand out in a layout of
/// the hidden cards assembles it for each seat of its playouts ([`encode_view`]), to ask a
/// network (spec/learned.md) what that seat would play there.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// The hand as it stands: every seat's cards, the trick, the points taken, the voids.
    pub hand: &'a HandState,
    /// The cards each seat has played this hand, the trick in progress included.
    pub played_by: &'a PerSeat<CardMultiset>,
    /// The cards the seat passed this hand, once it has.
    pub passed: Option<CardMultiset>,
    /// The cards the seat received this hand, once the exchange has happened.
    pub received: Option<CardMultiset>,
    /// Each seat's total before this hand.
    pub scores: &'a PerSeat<i64>,
    /// The phase of the position.
    pub phase: Phase,
    /// The seat to play or to choose, if any.
    pub to_move: Option<usize>,
    /// The number of the hand in the match, which gives its pass direction.
    pub hand_number: u64,
    /// The cards the seat has selected to pass (ACT-2) and not yet passed.
    pub selection: CardMultiset,
    /// Whether this is a count-down hand (MATCH-5).
    pub count_down: bool,
}

/// OBS-3 of `view` for `seat`, a seat of the table, into `out` (ENCODING_LENGTH values).
///
/// # Errors
///
/// `invalid-setup` when `out` does not hold ENCODING_LENGTH values, or `seat` is not a seat of
/// the table.
pub fn encode_view(
    rules: &Ruleset,
    view: &SeatView<'_>,
    seat: usize,
    out: &mut [i32],
) -> Result<(), Error> {
    check_encoding_buffer(out)?;
    if seat >= rules.players() {
        return Err(Error::new(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: seat {seat} is not a seat of a {}-seat table",
                rules.players()
            ),
        ));
    }
    out.fill(0);
    encode_seat_view(rules, view, seat, &mut Sink::new(out));
    Ok(())
}

// OBS-3 of `pos` for `seat`, a seat of the table, into a row of ENCODING_LENGTH zeros.
fn encode<T: Element>(rules: &Ruleset, pos: &Position, seat: usize, out: &mut Sink<'_, T>) {
    let mut played_by = PerSeat::splat(CardMultiset::EMPTY);
    for (other, cards) in played_by.iter_mut().enumerate().take(rules.players()) {
        *cards = pos.played_by(other);
    }
    let view = SeatView {
        hand: &pos.hand,
        played_by: &played_by,
        passed: pos.passed(seat),
        received: pos.received(rules, seat),
        scores: &pos.scores,
        phase: pos.phase,
        to_move: pos.seat_to_move(rules),
        hand_number: pos.hand_number,
        selection: pos.selection(seat),
        count_down: pos.count_down,
    };
    encode_seat_view(rules, &view, seat, out);
}

fn encode_seat_view<T: Element>(
    rules: &Ruleset,
    view: &SeatView<'_>,
    seat: usize,
    out: &mut Sink<'_, T>,
) {
    let n = rules.players();
    let rel = |other: usize| (other + n - seat) % n;
    let hand = view.hand;
    out.count(AT_HAND, hand.hand(seat));
    for other in 0..n {
        out.count(AT_PLAYED + rel(other) * CARDS, view.played_by[other]);
    }
    for (s, c) in hand.trick() {
        out.put(AT_TRICK + rel(s) * CARDS + usize::from(c.id()), 1);
    }
    if let Some(p) = view.passed {
        out.count(AT_PASSED, p);
    }
    if let Some(r) = view.received {
        out.count(AT_RECEIVED, r);
    }
    for (other, &points) in hand.points().iter().enumerate() {
        let k = rel(other);
        let v = hand.voids(other);
        for suit in 0..4 {
            out.value(AT_VOIDS + k * 4 + suit, i64::from(v >> suit & 1));
        }
        out.value(AT_POINTS + k, i64::from(points));
        out.value(AT_SCORES + k, view.scores[other]);
    }
    out.put(AT_PHASE + phase_index(view.phase), 1);
    out.value(AT_HEARTS, i64::from(hand.hearts_broken()));
    out.put(AT_TO_MOVE + view.to_move.map_or(SEATS, rel), 1);
    out.put(
        AT_DIRECTION + direction_index(rules.pass_direction(view.hand_number)),
        1,
    );
    if view.phase == Phase::Play && hand.to_move() == seat {
        out.cards(AT_LEGAL, hand.legal_plays(rules).0, 1);
    }
    out.count(AT_SELECTED, view.selection);
    out.value(AT_COUNT_DOWN, i64::from(view.count_down));
    out.count(AT_HELD_OVER, hand.held_over());
}

/// The element type of a [`VectorEnv`]'s observation buffer (API-11's `observation_dtype`).
///
/// OBS-3 holds counts of copies (0 to 2), flags, and each seat's points and total: `Uint8`
/// holds them all where [`ObservationDtype::check`] finds that the points and the totals
/// stay within 0–255.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Episode, ObservationDtype};
/// assert_eq!(ObservationDtype::from_name("uint8"), Some(ObservationDtype::Uint8));
/// assert_eq!(ObservationDtype::default().as_str(), "int32");
/// let hearts = preset("hearts-4").unwrap();
/// assert!(ObservationDtype::Uint8.check(&hearts, Episode::Hand).is_ok());
/// // The moon may subtract from the taker's total: a match's totals can go below zero.
/// let e = ObservationDtype::Uint8.check(&hearts, Episode::Match).unwrap_err();
/// assert!(e.message().contains("scores"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObservationDtype {
    /// `int32`: any ruleset, any episode.
    #[default]
    Int32,
    /// `uint8`: where every value fits 0–255.
    Uint8,
}

impl ObservationDtype {
    /// The name of the type: `int32` or `uint8`, as NumPy spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ObservationDtype::Int32 => "int32",
            ObservationDtype::Uint8 => "uint8",
        }
    }

    /// The type named `name` (`int32` or `uint8`).
    pub fn from_name(name: &str) -> Option<ObservationDtype> {
        match name {
            "int32" => Some(ObservationDtype::Int32),
            "uint8" => Some(ObservationDtype::Uint8),
            _ => None,
        }
    }

    /// Whether every value the observation of a game of `ruleset` can hold, over episodes of
    /// kind `episode`, fits this type (API-11). `Int32` always does. For `Uint8`:
    ///
    /// - the `points` block holds a seat's points of the hand as captured, between the sum of
    ///   the negative card values and the sum of the positive ones (each copy counted): no
    ///   card may be worth less than 0, and the positive values may add up to 255 at most;
    /// - the `scores` block holds the totals, always 0 in [`Episode::Hand`]. In
    ///   [`Episode::Match`] a total must never go below zero (no card worth less than 0, no
    ///   rule that replaces a hand's scores and may subtract from the taker, no count-down
    ///   `below-zero`) and never above 255: a total that an observation shows is below
    ///   `target` (the match is not over; a ruleset without a target has no bound), or under
    ///   `count_down` at most `target − 1` plus the most one hand can add (the positive values,
    ///   or the `bonus` such a rule adds to the other seats), since count-down hands only lower
    ///   totals. The rules are [`Scoring::shot_rules`](crate::kernel::Scoring::shot_rules), the
    ///   bounds
    ///   [`Scoring::live_total_bounds`](crate::kernel::Scoring::live_total_bounds).
    ///
    /// # Errors
    ///
    /// `invalid-setup` naming the block (`points` or `scores`) and why it does not fit.
    pub fn check(self, ruleset: &Ruleset, episode: Episode) -> Result<(), Error> {
        if self == ObservationDtype::Int32 {
            return Ok(());
        }
        let refuse = |block: &str, why: String| {
            Err(Error::new(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: observation_dtype \"uint8\" cannot hold the {block} block of \
                     {}: {why}",
                    ruleset.name()
                ),
            ))
        };
        let scoring = Scoring::new(ruleset);
        let (negative, positive) = scoring.points_bounds();
        if negative < 0 {
            let (card, value) = ruleset
                .card_points()
                .iter()
                .copied()
                .find(|(_, v)| *v < 0)
                .expect("a card worth less than 0");
            return refuse(
                "points",
                format!("{card} is worth {value}, and a seat's points go below 0 when it takes it"),
            );
        }
        if positive > 255 {
            return refuse(
                "points",
                format!("the cards are worth {positive} together, and a seat can take them all"),
            );
        }
        if episode == Episode::Hand {
            return Ok(());
        }
        let (least, most) = scoring.live_total_bounds();
        if least.is_none() {
            // With no card worth less than 0, a rule that replaces a hand's scores and may
            // subtract from its taker lowers a total, or a count-down that goes below zero.
            let subtracts = scoring
                .shot_rules()
                .find(|(_, rule)| rule.scoring != MoonScoring::AddToOthers);
            let why = match subtracts {
                Some((name, rule)) => format!(
                    "the {name} is scored {}, so a match's totals can go below 0",
                    rule.scoring.as_str()
                ),
                None => {
                    "the count-down goes below zero, so a match's totals can go below 0".to_string()
                }
            };
            return refuse("scores", why);
        }
        let how = if ruleset.count_down() {
            " (target − 1, plus one hand before the count-down)"
        } else {
            " (target − 1)"
        };
        match most {
            Some(highest) if highest > 255 => refuse(
                "scores",
                format!("a match's totals reach {highest}{how}, above 255"),
            ),
            Some(_) => Ok(()),
            None => refuse(
                "scores",
                "the ruleset has no target, so a match's totals have no bound".to_string(),
            ),
        }
    }
}

/// The observation buffer of a [`VectorEnv`], of its [`ObservationDtype`]: `num_envs × 1435`
/// integers, row-major.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Episode, ObservationDtype, Observations, Rewards, VectorEnv};
/// let env = VectorEnv::new(preset("hearts-4").unwrap(), 2, 1, Episode::Hand, Rewards::HandEnd)
///     .unwrap()
///     .with_observation_dtype(ObservationDtype::Uint8)
///     .unwrap();
/// let Observations::Uint8(rows) = env.observation() else { panic!("uint8 rows") };
/// assert_eq!(rows[..52].iter().map(|&x| u32::from(x)).sum::<u32>(), 13); // game 0's hand
/// assert_eq!(env.observation().to_i32()[..52].iter().sum::<i32>(), 13);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observations<'a> {
    /// `int32` rows.
    Int32(&'a [i32]),
    /// `uint8` rows.
    Uint8(&'a [u8]),
}

impl Observations<'_> {
    /// The type of the entries.
    pub fn dtype(&self) -> ObservationDtype {
        match self {
            Observations::Int32(_) => ObservationDtype::Int32,
            Observations::Uint8(_) => ObservationDtype::Uint8,
        }
    }

    /// The number of entries, `num_envs × 1435`.
    pub fn len(&self) -> usize {
        match self {
            Observations::Int32(rows) => rows.len(),
            Observations::Uint8(rows) => rows.len(),
        }
    }

    /// Whether there is no entry (never, as an environment has a game at least).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i`, as an `i32`.
    pub fn get(&self, i: usize) -> Option<i32> {
        match self {
            Observations::Int32(rows) => rows.get(i).copied(),
            Observations::Uint8(rows) => rows.get(i).map(|&x| i32::from(x)),
        }
    }

    /// Every entry as an `i32`, a copy.
    pub fn to_i32(&self) -> Vec<i32> {
        match self {
            Observations::Int32(rows) => rows.to_vec(),
            Observations::Uint8(rows) => rows.iter().map(|&x| i32::from(x)).collect(),
        }
    }
}

/// The seed of episode `episode` of game `index` of a [`VectorEnv`] seeded with `seed`:
/// `a = SplitMix64(seed ^ index·0x9E3779B97F4A7C15).next_u64()`, then
/// `SplitMix64(a ^ episode·0xD1B54A32D192ED69).next_u64()` (products wrapping). It does not
/// depend on the number of games or of threads.
///
/// # Examples
///
/// ```
/// use reversis_core::episode_seed;
/// assert_eq!(episode_seed(42, 3, 0), episode_seed(42, 3, 0));
/// assert_ne!(episode_seed(42, 3, 0), episode_seed(42, 3, 1));
/// assert_ne!(episode_seed(42, 3, 0), episode_seed(42, 4, 0));
/// ```
pub fn episode_seed(seed: u64, index: usize, episode: u64) -> u64 {
    let a = SplitMix64::new(seed ^ (index as u64).wrapping_mul(MIX_INDEX)).next_u64();
    SplitMix64::new(a ^ episode.wrapping_mul(MIX_EPISODE)).next_u64()
}

/// What one episode of a [`VectorEnv`] game is.
///
/// # Examples
///
/// ```
/// use reversis_core::Episode;
/// assert_ne!(Episode::Hand, Episode::Match);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Episode {
    /// One hand, from zero totals: episode `e` plays hand number `e mod (players × cycle)`
    /// (`cycle` the length of the passing cycle, 1 without passing), so the dealer and the
    /// pass direction rotate over episodes as over a match's hands. It ends when the hand is
    /// scored (its `hand` event).
    Hand,
    /// A whole match from hand 0 and zero totals; it ends in phase `over`.
    Match,
}

/// When a [`VectorEnv`] pays rewards. A seat's reward is minus the points a step scores for
/// it, so lower points (better in the Hearts family) are higher rewards.
///
/// # Examples
///
/// ```
/// use reversis_core::Rewards;
/// assert_ne!(Rewards::HandEnd, Rewards::PerTrick);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rewards {
    /// On the step that scores a hand (its `hand` event), minus the hand's scores, after the
    /// moon rule (EVT-1 `scores`).
    HandEnd,
    /// On the step that completes a trick, minus its points to its winner; on the step that
    /// scores the hand, the moon adjustment (minus the hand's scores plus the points as
    /// captured), so the rewards of a hand sum to the `HandEnd` rewards.
    PerTrick,
}

// One game of the batch: a position without history, so that a game costs what its position
// does (`Position` is 240 bytes), and what the environment knows of its rows.
#[derive(Clone, Debug)]
struct Slot {
    pos: Position,
    // The episode the game is playing (0 for the first).
    episode: u64,
    // The lines of its observation row that hold a nonzero value (see `Sink`).
    dirty: u128,
}

#[derive(Clone, Copy)]
struct Config {
    seed: u64,
    episode: Episode,
    rewards: Rewards,
    players: usize,
    // The hand-number period of `Episode::Hand`.
    period: u64,
}

impl Config {
    fn hand_number(&self, episode: u64) -> u64 {
        match self.episode {
            Episode::Hand => episode % self.period,
            Episode::Match => 0,
        }
    }

    // Episode `episode` of game `index` at its start: as `Game::new` with its seed deals it.
    fn start(&self, ruleset: &Ruleset, index: usize, episode: u64) -> Position {
        let seed = episode_seed(self.seed, index, episode);
        let mut pos = Position::new(ruleset, seed, self.hand_number(episode), PerSeat::splat(0));
        pos.deal_from_rng(ruleset);
        pos
    }
}

// The bytes of a cache line, the unit the threads' runs are aligned to.
const LINE_BYTES: usize = 64;

// A run of games that starts at a multiple of this many games starts every buffer on a line of
// its own, the buffers starting on one: it is a whole number of lines of the narrowest row
// (`terminated`, a byte a game, and a `uint8` observation row of 1435 bytes).
const RUN_ALIGN: usize = 64;

// A buffer of `len` items whose first item starts a cache line. It over-allocates by a line
// and starts where the line does, so that the memory stays a plain, safe `Vec`; the `Vec` is
// never resized, so the items never move.
#[derive(Debug)]
struct Aligned<T> {
    data: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> Aligned<T> {
    fn new(len: usize) -> Aligned<T> {
        let size = std::mem::size_of::<T>();
        let data = vec![T::default(); len + LINE_BYTES / size];
        let start = (LINE_BYTES - data.as_ptr() as usize % LINE_BYTES) % LINE_BYTES / size;
        Aligned { data, start, len }
    }

    fn as_slice(&self) -> &[T] {
        &self.data[self.start..self.start + self.len]
    }

    fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data[self.start..self.start + self.len]
    }
}

// A clone is a new allocation, aligned in its own right.
impl<T: Copy + Default> Clone for Aligned<T> {
    fn clone(&self) -> Aligned<T> {
        let mut copy = Aligned::new(self.len);
        copy.as_mut_slice().copy_from_slice(self.as_slice());
        copy
    }
}

// The observation buffer, of either element type.
#[derive(Clone, Debug)]
enum ObservationRows {
    Int32(Aligned<i32>),
    Uint8(Aligned<u8>),
}

impl ObservationRows {
    fn new(dtype: ObservationDtype, len: usize) -> ObservationRows {
        match dtype {
            ObservationDtype::Int32 => ObservationRows::Int32(Aligned::new(len)),
            ObservationDtype::Uint8 => ObservationRows::Uint8(Aligned::new(len)),
        }
    }
}

// The rows of the output buffers for a run of games, the observations' of element type `T`.
struct Rows<'a, T> {
    current_player: &'a mut [i32],
    mask: &'a mut [u8],
    observation: &'a mut [T],
    rewards: &'a mut [f32],
    terminated: &'a mut [u8],
    episode_scores: &'a mut [i64],
    // Each game's legal ids, as written to its mask row (see `VectorEnv::legal`).
    legal: &'a mut [u128],
    // Each game's action ids this episode, where the environment keeps them.
    logs: &'a mut [Vec<u8>],
}

// The rows of every game, of whichever observation type.
enum AnyRows<'a> {
    Int32(Rows<'a, i32>),
    Uint8(Rows<'a, u8>),
}

// Runs `$body` with `$rows` bound to the `Rows` of an `AnyRows`, compiled once per type.
macro_rules! with_rows {
    ($any:expr, $rows:pat => $body:expr) => {
        match $any {
            AnyRows::Int32($rows) => $body,
            AnyRows::Uint8($rows) => $body,
        }
    };
}

impl<'a, T> Rows<'a, T> {
    // Splits the rows into runs of `size` games of `players` seats.
    fn chunks(self, size: usize, players: usize) -> Vec<Rows<'a, T>> {
        let Rows {
            current_player,
            mask,
            observation,
            rewards,
            terminated,
            episode_scores,
            legal,
            logs,
        } = self;
        let mut logs = logs.chunks_mut(size);
        let mut legal = legal.chunks_mut(size);
        current_player
            .chunks_mut(size)
            .zip(mask.chunks_mut(size * ACTIONS))
            .zip(observation.chunks_mut(size * ENCODING_LENGTH))
            .zip(rewards.chunks_mut(size * players))
            .zip(terminated.chunks_mut(size))
            .zip(episode_scores.chunks_mut(size * players))
            .map(|(((((c, m), o), r), t), e)| Rows {
                current_player: c,
                mask: m,
                observation: o,
                rewards: r,
                terminated: t,
                episode_scores: e,
                legal: legal.next().unwrap_or_default(),
                logs: logs.next().unwrap_or_default(),
            })
            .collect()
    }
}

// The number of games each thread of a step takes: as even a split as `threads` allows,
// rounded up to a multiple of `RUN_ALIGN` games once a run is that long, so that the runs of
// two threads never share a cache line of any buffer (a line both write would travel between
// their caches on every step).
fn run_size(num: usize, threads: usize) -> usize {
    let size = num.div_ceil(threads.clamp(1, num));
    if size >= RUN_ALIGN {
        size.next_multiple_of(RUN_ALIGN)
    } else {
        size
    }
}

// Byte `k` of `MASK_BYTES[b]` is bit `k` of `b`: eight entries of a mask row at once.
const MASK_BYTES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 == 1 {
                table[b] |= 1 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    table
};

// Writes the mask row of the legal ids `legal`: 1 for each legal id.
fn write_mask(row: &mut [u8], legal: u128) {
    let mut chunks = row.chunks_exact_mut(8);
    for (k, chunk) in chunks.by_ref().enumerate() {
        let byte = (legal >> (8 * k)) as u8;
        let bytes = MASK_BYTES[usize::from(byte)].to_le_bytes();
        // Most of a row keeps its bytes from step to step (the selection ids in phase play,
        // the plays in phase pass): a line left unwritten stays shared with the threads that
        // read it, rather than being taken back from them.
        if *chunk != bytes {
            chunk.copy_from_slice(&bytes);
        }
    }
    let done = ACTIONS - ACTIONS % 8;
    for (i, b) in chunks.into_remainder().iter_mut().enumerate() {
        *b = (legal >> (done + i) & 1) as u8;
    }
}

// Writes game `j` of the run's acting seat, mask and observation.
fn write_view<T: Element>(rules: &Ruleset, slot: &mut Slot, rows: &mut Rows<'_, T>, j: usize) {
    // Every episode starts dealt, and one that ends is replaced: there is an acting seat.
    let seat = slot.pos.acting_seat(rules);
    rows.current_player[j] = seat.map_or(-1, |s| s as i32);
    let legal = seat.map_or(0, |s| slot.pos.legal_mask(rules, s));
    rows.legal[j] = legal;
    write_mask(&mut rows.mask[j * ACTIONS..(j + 1) * ACTIONS], legal);
    let row = &mut rows.observation[j * ENCODING_LENGTH..(j + 1) * ENCODING_LENGTH];
    clear(row, slot.dirty);
    let mut sink = Sink::new(row);
    if let Some(s) = seat {
        encode(rules, &slot.pos, s, &mut sink);
    }
    slot.dirty = sink.dirty;
}

// A piece of a step: games `base..base + slots.len()`, their actions and their rows.
struct Piece<'a, T> {
    base: usize,
    slots: &'a mut [Slot],
    actions: &'a [u16],
    rows: Rows<'a, T>,
}

// Starts every game of the run on its next episode and clears its rows.
fn reset_run<T: Element>(
    cfg: &Config,
    ruleset: &Ruleset,
    base: usize,
    slots: &mut [Slot],
    mut rows: Rows<'_, T>,
) {
    for (j, slot) in slots.iter_mut().enumerate() {
        slot.episode += 1;
        slot.pos = cfg.start(ruleset, base + j, slot.episode);
        write_view(ruleset, slot, &mut rows, j);
    }
    for log in rows.logs.iter_mut() {
        log.clear();
    }
    rows.rewards.fill(0.0);
    rows.terminated.fill(0);
    rows.episode_scores.fill(0);
}

// Applies a checked action id for the acting seat.
fn apply_checked(rules: &Ruleset, pos: &mut Position, id: u16) -> Outcome {
    let seat = pos
        .acting_seat(rules)
        .expect("a checked id has an acting seat");
    match Decision::from_id(id).expect("a checked id is an id") {
        Decision::Play(card) => pos.play(rules, card),
        Decision::Select(card) => pos.select(rules, seat, card),
        Decision::Moon(choice) => pos.moon(rules, choice),
    }
}

// Applies one (checked) action to every game of the run, auto-resetting finished episodes.
fn step_run<T: Element>(
    cfg: &Config,
    ruleset: &Ruleset,
    base: usize,
    slots: &mut [Slot],
    actions: &[u16],
    mut rows: Rows<'_, T>,
) {
    let n = cfg.players;
    for (j, (slot, &id)) in slots.iter_mut().zip(actions).enumerate() {
        let out = apply_checked(ruleset, &mut slot.pos, id);
        if let Some(log) = rows.logs.get_mut(j) {
            // Ids are below 106.
            log.push(id as u8);
        }
        let reward = &mut rows.rewards[j * n..(j + 1) * n];
        reward.fill(0.0);
        if let (Some(t), Rewards::PerTrick) = (out.trick, cfg.rewards) {
            // A held-over trick (PLAY-9) pays nobody; its winner's trick pays for both.
            if let Some(w) = t.winner {
                reward[usize::from(w)] -= t.points as f32;
            }
        }
        if let Some(h) = out.hand {
            for (s, r) in reward.iter_mut().enumerate() {
                *r -= match cfg.rewards {
                    // The moon adjustment: the trick paid the points as captured.
                    Rewards::PerTrick => (h.scores[s] - i64::from(h.points[s])) as f32,
                    Rewards::HandEnd => h.scores[s] as f32,
                };
            }
        }
        let scores = &mut rows.episode_scores[j * n..(j + 1) * n];
        let ended = match (cfg.episode, out.hand) {
            (Episode::Hand, Some(h)) => {
                scores.copy_from_slice(h.scores.first(n));
                true
            }
            (Episode::Match, Some(_)) if slot.pos.phase == Phase::Over => {
                scores.copy_from_slice(slot.pos.scores.first(n));
                true
            }
            (Episode::Match, Some(_)) => {
                // As a seeded game does: the next hand comes from the seed's generator.
                slot.pos.deal_from_rng(ruleset);
                false
            }
            _ => false,
        };
        if ended {
            rows.terminated[j] = 1;
            slot.episode += 1;
            slot.pos = cfg.start(ruleset, base + j, slot.episode);
            if let Some(log) = rows.logs.get_mut(j) {
                log.clear();
            }
        } else {
            rows.terminated[j] = 0;
            scores.fill(0);
        }
        write_view(ruleset, slot, &mut rows, j);
    }
}

/// `num_envs` games of one ruleset, stepped together, for learning code (like EnvPool's or
/// pgx's batched APIs).
///
/// Games auto-reset: when a game's episode ends during a step, its row reports
/// `terminated = 1`, the step's rewards and the finished episode's scores, while its acting
/// seat, mask and observation already describe the first decision of its next episode.
///
/// Game `i` plays episode `e` from the seed [`episode_seed`]`(seed, i, e)`, so it plays the
/// same deals and positions whatever the number of games or threads. The buffers are
/// row-major, one row per game, each starting on a 64-byte boundary:
///
/// | buffer | row | content |
/// | --- | --- | --- |
/// | [`current_player`](VectorEnv::current_player) | 1 `i32` | the acting seat (ACT-3) |
/// | [`legal_action_mask`](VectorEnv::legal_action_mask) | 106 `u8` | 1 for each legal id (ACT-2) |
/// | [`observation`](VectorEnv::observation) | 1435 `i32` or `u8` ([`ObservationDtype`]) | OBS-3 of the acting seat |
/// | [`rewards`](VectorEnv::rewards) | players `f32` | the step's reward of each seat |
/// | [`terminated`](VectorEnv::terminated) | 1 `u8` | 1 when the step ended the game's episode |
/// | [`episode_scores`](VectorEnv::episode_scores) | players `i64` | the finished episode's scores, where terminated |
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Episode, Rewards, VectorEnv};
///
/// let mut env =
///     VectorEnv::new(preset("hearts-4").unwrap(), 2, 1, Episode::Match, Rewards::PerTrick).unwrap();
/// assert_eq!(env.current_player(), [0, 0]); // seat 0 selects its pass first
/// let first = env.legal_action_mask().iter().position(|&b| b == 1).unwrap() as u16;
/// assert!(env.step(&[first, 200]).unwrap_err().message().contains("game 1"));
/// ```
#[derive(Clone, Debug)]
pub struct VectorEnv {
    ruleset: Arc<Ruleset>,
    seed: u64,
    episode: Episode,
    rewards_kind: Rewards,
    period: u64,
    slots: Vec<Slot>,
    current_player: Aligned<i32>,
    mask: Aligned<u8>,
    observation: ObservationRows,
    rewards: Aligned<f32>,
    terminated: Aligned<u8>,
    episode_scores: Aligned<i64>,
    // The legal ids of each game's acting seat, as written to its mask row. Steps are checked
    // against these, never against the buffers, which other code may read (and, against the
    // rules, write) through the pointers the buffers hand out. Apart from the games, so that
    // checking a step reads 16 bytes a game rather than the line of a game that another
    // thread steps.
    legal: Aligned<u128>,
    // Each game's action ids this episode, one byte each, with `with_history`; else empty.
    logs: Vec<Vec<u8>>,
}

impl VectorEnv {
    /// `num_envs` games of `ruleset`, each on its episode 0, seeded from `seed`, with `int32`
    /// observations (see [`VectorEnv::with_observation_dtype`]).
    ///
    /// # Errors
    ///
    /// `invalid-setup` when `num_envs` is 0 or above [`MAX_ENVS`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv};
    /// let env = VectorEnv::new(preset("hearts-5").unwrap(), 4, 9, Episode::Hand, Rewards::HandEnd)
    ///     .unwrap();
    /// assert_eq!(env.num_envs(), 4);
    /// assert_eq!(env.observation().len(), 4 * 1435);
    /// assert!(VectorEnv::new(preset("hearts-5").unwrap(), 0, 9, Episode::Hand, Rewards::HandEnd)
    ///     .is_err());
    /// ```
    pub fn new(
        ruleset: impl Into<Arc<Ruleset>>,
        num_envs: usize,
        seed: u64,
        episode: Episode,
        rewards: Rewards,
    ) -> Result<VectorEnv, Error> {
        if num_envs == 0 || num_envs > MAX_ENVS {
            return Err(Error::new(
                ErrorCode::InvalidSetup,
                format!("invalid setup: num_envs must be in 1-{MAX_ENVS}, got {num_envs}"),
            ));
        }
        let ruleset: Arc<Ruleset> = ruleset.into();
        let players = ruleset.players();
        let cycle = ruleset.passing().map_or(1, |p| p.cycle.len().max(1));
        let period = (players * cycle) as u64;
        let mut env = VectorEnv {
            ruleset,
            seed,
            episode,
            rewards_kind: rewards,
            period,
            slots: Vec::with_capacity(num_envs),
            current_player: Aligned::new(num_envs),
            mask: Aligned::new(num_envs * ACTIONS),
            observation: ObservationRows::new(ObservationDtype::Int32, num_envs * ENCODING_LENGTH),
            rewards: Aligned::new(num_envs * players),
            terminated: Aligned::new(num_envs),
            episode_scores: Aligned::new(num_envs * players),
            legal: Aligned::new(num_envs),
            logs: Vec::new(),
        };
        let cfg = env.config();
        for i in 0..num_envs {
            let pos = cfg.start(&env.ruleset, i, 0);
            env.slots.push(Slot {
                pos,
                episode: 0,
                dirty: 0,
            });
        }
        env.write_views();
        Ok(env)
    }

    /// Keeps each game's action ids of its episode (one byte an action), so that
    /// [`VectorEnv::game`] can rebuild the game with its history; without it a game is its
    /// position alone. A game under way starts its episode again from the deal.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv};
    /// let env = VectorEnv::new(preset("hearts-4").unwrap(), 2, 0, Episode::Hand, Rewards::HandEnd)
    ///     .unwrap();
    /// assert!(env.game(0).is_err());
    /// let env = env.with_history();
    /// assert_eq!(env.game(1).unwrap().to_act(), Some(0));
    /// ```
    pub fn with_history(mut self) -> VectorEnv {
        if self.logs.is_empty() {
            self.logs = vec![Vec::new(); self.slots.len()];
            let cfg = self.config();
            for (j, slot) in self.slots.iter_mut().enumerate() {
                slot.pos = cfg.start(&self.ruleset, j, slot.episode);
            }
            self.write_views();
            self.rewards.as_mut_slice().fill(0.0);
            self.terminated.as_mut_slice().fill(0);
            self.episode_scores.as_mut_slice().fill(0);
        }
        self
    }

    /// Writes the observations as `dtype` from now on (API-11's `observation_dtype`); the
    /// games are not touched, and the observation buffer is written anew.
    ///
    /// # Errors
    ///
    /// `invalid-setup` when `dtype` cannot hold every value of the observations of this
    /// ruleset and kind of episode ([`ObservationDtype::check`]); the environment is then
    /// dropped.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, ObservationDtype, Rewards, VectorEnv};
    /// let make = |name: &str| {
    ///     VectorEnv::new(preset(name).unwrap(), 2, 0, Episode::Hand, Rewards::HandEnd).unwrap()
    /// };
    /// let env = make("hearts-4").with_observation_dtype(ObservationDtype::Uint8).unwrap();
    /// assert_eq!(env.observation_dtype(), ObservationDtype::Uint8);
    /// assert_eq!(env.observation().to_i32(), make("hearts-4").observation().to_i32());
    /// // JD is worth -10 in Omnibus Hearts.
    /// let e = make("omnibus-4").with_observation_dtype(ObservationDtype::Uint8).unwrap_err();
    /// assert!(e.message().contains("points block"));
    /// ```
    pub fn with_observation_dtype(mut self, dtype: ObservationDtype) -> Result<VectorEnv, Error> {
        dtype.check(&self.ruleset, self.episode)?;
        if dtype != self.observation_dtype() {
            self.observation = ObservationRows::new(dtype, self.slots.len() * ENCODING_LENGTH);
            for slot in &mut self.slots {
                slot.dirty = 0;
            }
            self.write_views();
        }
        Ok(self)
    }

    /// Whether the environment keeps each game's history ([`VectorEnv::with_history`]).
    pub fn has_history(&self) -> bool {
        !self.logs.is_empty()
    }

    /// The element type of the observations.
    pub fn observation_dtype(&self) -> ObservationDtype {
        match self.observation {
            ObservationRows::Int32(_) => ObservationDtype::Int32,
            ObservationRows::Uint8(_) => ObservationDtype::Uint8,
        }
    }

    fn config(&self) -> Config {
        Config {
            seed: self.seed,
            episode: self.episode,
            rewards: self.rewards_kind,
            players: self.ruleset.players(),
            period: self.period,
        }
    }

    fn parts(&mut self) -> (&Ruleset, &mut [Slot], AnyRows<'_>) {
        let (current_player, mask) = (self.current_player.as_mut_slice(), self.mask.as_mut_slice());
        let (rewards, terminated) = (self.rewards.as_mut_slice(), self.terminated.as_mut_slice());
        let episode_scores = self.episode_scores.as_mut_slice();
        let (legal, logs) = (self.legal.as_mut_slice(), &mut self.logs);
        macro_rules! rows {
            ($observation:expr) => {
                Rows {
                    current_player,
                    mask,
                    observation: $observation.as_mut_slice(),
                    rewards,
                    terminated,
                    episode_scores,
                    legal,
                    logs,
                }
            };
        }
        let rows = match &mut self.observation {
            ObservationRows::Int32(o) => AnyRows::Int32(rows!(o)),
            ObservationRows::Uint8(o) => AnyRows::Uint8(rows!(o)),
        };
        (&self.ruleset, &mut self.slots, rows)
    }

    // Writes every game's acting seat, mask and observation.
    fn write_views(&mut self) {
        let (ruleset, slots, rows) = self.parts();
        with_rows!(rows, mut rows => {
            for (j, slot) in slots.iter_mut().enumerate() {
                write_view(ruleset, slot, &mut rows, j);
            }
        });
    }

    /// Abandons every game's episode and starts its next one (so a reset never replays a
    /// deal); rewards, terminations and episode scores become 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv};
    /// let mut env =
    ///     VectorEnv::new(preset("hearts-4").unwrap(), 3, 5, Episode::Hand, Rewards::HandEnd).unwrap();
    /// env.reset();
    /// assert_eq!(env.episode_index(2), 1);
    /// ```
    pub fn reset(&mut self) {
        let cfg = self.config();
        let (ruleset, slots, rows) = self.parts();
        with_rows!(rows, rows => reset_run(&cfg, ruleset, 0, slots, rows));
    }

    // Checks every game's action against its legal ids (the current state's).
    fn check(&self, actions: &[u16]) -> Result<(), Error> {
        if actions.len() != self.slots.len() {
            return Err(Error::new(
                ErrorCode::InvalidAction,
                format!(
                    "invalid action: {} actions for {} games",
                    actions.len(),
                    self.slots.len()
                ),
            ));
        }
        let legal = self.legal.as_slice();
        for (i, (&id, &ids)) in actions.iter().zip(legal).enumerate() {
            if usize::from(id) >= ACTIONS || ids >> id & 1 == 0 {
                let slot = &self.slots[i];
                // The game's own checks say why.
                let why = match slot.pos.check_id(&self.ruleset, id, None) {
                    Err(e) => (e.code(), e.message().to_string()),
                    Ok(_) => (ErrorCode::InvalidAction, "not a legal id".to_string()),
                };
                return Err(Error::new(
                    why.0,
                    format!("game {i}: action id {id} is illegal: {}", why.1),
                ));
            }
        }
        Ok(())
    }

    /// Applies `actions[i]` to game `i` for its acting seat, on one thread (see
    /// [`VectorEnv::step_threads`]).
    ///
    /// # Errors
    ///
    /// As [`VectorEnv::step_threads`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv};
    /// let mut env =
    ///     VectorEnv::new(preset("hearts-4").unwrap(), 1, 3, Episode::Hand, Rewards::HandEnd).unwrap();
    /// let id = env.legal_action_mask().iter().position(|&b| b == 1).unwrap() as u16;
    /// env.step(&[id]).unwrap();
    /// assert_eq!(env.terminated(), [0]);
    /// ```
    pub fn step(&mut self, actions: &[u16]) -> Result<(), Error> {
        self.step_threads(actions, 1)
    }

    /// Applies `actions[i]` to game `i` for its acting seat (a selection toward a pass, a
    /// play or a moon choice, ACT-2), on `threads` threads (0 counts as 1): the calling thread
    /// and `threads − 1` scoped ones, each stepping a contiguous run of games that writes its
    /// own rows of every buffer ([`VectorEnv::run_size`]), in pieces of 64 games; a thread done
    /// with its run takes the pieces another has not started, from the end of that run. The
    /// result is the same whatever `threads`. Every action is checked before any is applied.
    ///
    /// # Errors
    ///
    /// When `actions` does not have one id per game (`invalid-action`), or when an id is not
    /// legal for its game's acting seat: the error of that game's rejection, its message
    /// naming the game's index. Nothing changes then.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv, NUM_ACTIONS};
    /// let mut one =
    ///     VectorEnv::new(preset("hearts-4").unwrap(), 6, 3, Episode::Match, Rewards::PerTrick).unwrap();
    /// let mut two = one.clone();
    /// for _ in 0..60 {
    ///     let actions: Vec<u16> = one
    ///         .legal_action_mask()
    ///         .chunks(NUM_ACTIONS as usize)
    ///         .map(|row| row.iter().rposition(|&b| b == 1).unwrap() as u16)
    ///         .collect();
    ///     one.step(&actions).unwrap();
    ///     two.step_threads(&actions, 4).unwrap();
    /// }
    /// assert_eq!(one.observation(), two.observation());
    /// ```
    pub fn step_threads(&mut self, actions: &[u16], threads: usize) -> Result<(), Error> {
        self.step_with(actions, threads, &ScopedThreads)
    }

    /// As [`VectorEnv::step_threads`], the runs of games handed to `runner` as jobs, which
    /// runs them all before it returns: for a pool of threads kept from step to step, where
    /// starting threads on every step would cost a noticeable part of it.
    ///
    /// # Errors
    ///
    /// As [`VectorEnv::step_threads`]; nothing is handed to `runner` then.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Job, Rewards, StepRunner, VectorEnv};
    /// // Runs the jobs one after the other on the calling thread.
    /// struct InTurn;
    /// impl StepRunner for InTurn {
    ///     fn run(&self, jobs: Vec<Job<'_>>) {
    ///         jobs.into_iter().for_each(|job| job());
    ///     }
    /// }
    /// let mut env =
    ///     VectorEnv::new(preset("hearts-4").unwrap(), 200, 3, Episode::Hand, Rewards::HandEnd).unwrap();
    /// let mut other = env.clone();
    /// let first: Vec<u16> = (0..200).map(|i| env.legal_action_mask()[i * 106..].iter().position(|&b| b == 1).unwrap() as u16).collect();
    /// env.step_with(&first, 3, &InTurn).unwrap();
    /// other.step(&first).unwrap();
    /// assert_eq!(env.observation(), other.observation());
    /// ```
    pub fn step_with(
        &mut self,
        actions: &[u16],
        threads: usize,
        runner: &dyn StepRunner,
    ) -> Result<(), Error> {
        self.check(actions)?;
        let cfg = self.config();
        let size = run_size(actions.len(), threads);
        let (ruleset, slots, rows) = self.parts();
        if size == actions.len() {
            with_rows!(rows, rows => step_run(&cfg, ruleset, 0, slots, actions, rows));
            return Ok(());
        }
        with_rows!(rows, rows => {
            // Each run is cut into pieces of `RUN_ALIGN` games; a thread steps the pieces of its
            // own run first, then takes those that other runs have not started, from their
            // ends: a thread slowed down (by its caches, or by another program on its core)
            // hands the rest of its run to one that is done.
            let piece = size.min(RUN_ALIGN);
            let per_run = size / piece;
            let pieces: Vec<Mutex<Option<Piece<'_, _>>>> = slots
                .chunks_mut(piece)
                .zip(actions.chunks(piece))
                .zip(rows.chunks(piece, cfg.players))
                .enumerate()
                .map(|(k, ((slots, actions), rows))| {
                    Mutex::new(Some(Piece {
                        base: k * piece,
                        slots,
                        actions,
                        rows,
                    }))
                })
                .collect();
            let runs = pieces.len().div_ceil(per_run);
            let (cfg, pieces) = (&cfg, &pieces);
            let jobs = (0..runs)
                .map(|run| {
                    Box::new(move || {
                        let own = pieces.chunks(per_run).nth(run).into_iter().flatten();
                        let others = (1..runs)
                            .flat_map(|d| pieces.chunks(per_run).nth((run + d) % runs))
                            .flat_map(|other| other.iter().rev());
                        for cell in own.chain(others) {
                            let taken = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
                            if let Some(p) = taken {
                                step_run(cfg, ruleset, p.base, p.slots, p.actions, p.rows);
                            }
                        }
                    }) as Job<'_>
                })
                .collect();
            runner.run(jobs);
        });
        Ok(())
    }

    /// The number of games each thread of a step on `threads` threads takes, the last run
    /// taking what is left: `num_envs / threads` rounded up, and once that is at least 64, up
    /// again to a multiple of 64, so that each run's rows start on a cache line of their own
    /// in every buffer. So 1,024 games on 2 threads are two runs of 512, 1,000 games on 3
    /// threads runs of 384, 384 and 232, and 100 games on 2 threads two runs of 50.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::VectorEnv;
    /// assert_eq!(VectorEnv::run_size(1024, 2), 512);
    /// assert_eq!(VectorEnv::run_size(1000, 3), 384);
    /// assert_eq!(VectorEnv::run_size(100, 2), 50);
    /// assert_eq!(VectorEnv::run_size(5, 0), 5);
    /// ```
    pub fn run_size(num_envs: usize, threads: usize) -> usize {
        run_size(num_envs.max(1), threads)
    }

    /// The number of games.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv};
    /// let env = VectorEnv::new(preset("hearts-3").unwrap(), 5, 0, Episode::Hand, Rewards::HandEnd)
    ///     .unwrap();
    /// assert_eq!(env.num_envs(), 5);
    /// ```
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The seed the games' episode seeds derive from ([`episode_seed`]).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// What an episode is.
    pub fn episode(&self) -> Episode {
        self.episode
    }

    /// When rewards are paid.
    pub fn rewards_kind(&self) -> Rewards {
        self.rewards_kind
    }

    /// The ruleset of every game.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// Game `i` as a [`Game`] (for inspection: records, JSON observations), rebuilt from its
    /// episode's seed and action ids: the game its episode is, history included.
    ///
    /// # Errors
    ///
    /// `invalid-setup` when the environment keeps no history ([`VectorEnv::with_history`]);
    /// `invalid-action` when `i` is not below [`VectorEnv::num_envs`].
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Episode, Rewards, VectorEnv};
    /// let env = VectorEnv::new(preset("hearts-4").unwrap(), 2, 0, Episode::Hand, Rewards::HandEnd)
    ///     .unwrap()
    ///     .with_history();
    /// assert_eq!(env.game(1).unwrap().to_act(), Some(0));
    /// assert!(env.game(2).is_err());
    /// ```
    pub fn game(&self, i: usize) -> Result<Game, Error> {
        let n = self.slots.len();
        let Some(slot) = self.slots.get(i) else {
            return Err(Error::new(
                ErrorCode::InvalidAction,
                format!("invalid action: game index {i} is out of range 0-{}", n - 1),
            ));
        };
        let Some(log) = self.logs.get(i) else {
            return Err(Error::new(
                ErrorCode::InvalidSetup,
                "invalid setup: this environment keeps no history, so a game cannot be rebuilt \
                 (create it with history)",
            ));
        };
        let cfg = self.config();
        let seed = episode_seed(self.seed, i, slot.episode);
        let mut game = Game::new(
            Arc::clone(&self.ruleset),
            Some(seed),
            cfg.hand_number(slot.episode),
            None,
        )?;
        for &id in log {
            game.apply_action(u16::from(id), None)?;
        }
        Ok(game)
    }

    /// The episode game `i` is playing, 0 for its first.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`VectorEnv::num_envs`].
    pub fn episode_index(&self, i: usize) -> u64 {
        self.slots[i].episode
    }

    /// Game `i`'s position, for players that decide for its acting seat from what that seat
    /// may see.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`VectorEnv::num_envs`].
    pub fn position(&self, i: usize) -> &Position {
        &self.slots[i].pos
    }

    /// The acting seat of every game (ACT-3), `num_envs` entries.
    pub fn current_player(&self) -> &[i32] {
        self.current_player.as_slice()
    }

    /// The legal ids of every game's acting seat, `num_envs × 106` entries of 0 or 1.
    pub fn legal_action_mask(&self) -> &[u8] {
        self.mask.as_slice()
    }

    /// The OBS-3 encoding of every game's acting seat's observation, `num_envs × 1435`
    /// entries of the environment's [`ObservationDtype`].
    pub fn observation(&self) -> Observations<'_> {
        match &self.observation {
            ObservationRows::Int32(rows) => Observations::Int32(rows.as_slice()),
            ObservationRows::Uint8(rows) => Observations::Uint8(rows.as_slice()),
        }
    }

    /// Every seat's reward for the last step, `num_envs × players`.
    pub fn rewards(&self) -> &[f32] {
        self.rewards.as_slice()
    }

    /// 1 for every game whose episode the last step ended (the game has auto-reset), else 0.
    pub fn terminated(&self) -> &[u8] {
        self.terminated.as_slice()
    }

    /// The scores of the episode each game ended in the last step (the hand's scores for
    /// [`Episode::Hand`], the final totals for [`Episode::Match`]), `num_envs × players`; 0 where
    /// not terminated.
    pub fn episode_scores(&self) -> &[i64] {
        self.episode_scores.as_slice()
    }
}

/// A run of games of one step, as [`VectorEnv::step_with`] hands it to a [`StepRunner`].
pub type Job<'a> = Box<dyn FnOnce() + Send + 'a>;

/// What runs the jobs of a step of [`VectorEnv::step_with`]: each job exactly once, all of
/// them before `run` returns (the jobs borrow the environment for that long). A job that
/// panics may be re-raised once every job has run.
pub trait StepRunner {
    /// Runs every job of `jobs`, on whichever threads, and returns when all have run.
    fn run(&self, jobs: Vec<Job<'_>>);
}

// The runner of `step_threads`: the first job on the calling thread, every other on a scoped
// thread started for it.
struct ScopedThreads;

impl StepRunner for ScopedThreads {
    fn run(&self, jobs: Vec<Job<'_>>) {
        let mut jobs = jobs.into_iter();
        let first = jobs.next();
        std::thread::scope(|scope| {
            for job in jobs {
                scope.spawn(job);
            }
            if let Some(job) = first {
                job();
            }
        });
    }
}
