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

use std::sync::Arc;

use crate::action::{Decision, NUM_ACTIONS};
use crate::card::CardMultiset;
use crate::error::{Error, ErrorCode};
use crate::game::Game;
use crate::position::{Outcome, Phase, Position};
use crate::rng::SplitMix64;
use crate::ruleset::{PassDirection, Ruleset};
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
const AT_HAND: usize = 0;
const AT_PLAYED: usize = AT_HAND + CARDS;
const AT_TRICK: usize = AT_PLAYED + SEATS * CARDS;
const AT_PASSED: usize = AT_TRICK + SEATS * CARDS;
const AT_RECEIVED: usize = AT_PASSED + CARDS;
const AT_VOIDS: usize = AT_RECEIVED + CARDS;
const AT_POINTS: usize = AT_VOIDS + SEATS * 4;
const AT_SCORES: usize = AT_POINTS + SEATS;
const AT_PHASE: usize = AT_SCORES + SEATS;
const AT_HEARTS: usize = AT_PHASE + 5;
const AT_TO_MOVE: usize = AT_HEARTS + 1;
const AT_DIRECTION: usize = AT_TO_MOVE + SEATS + 1;
const AT_LEGAL: usize = AT_DIRECTION + 5;
const AT_SELECTED: usize = AT_LEGAL + CARDS;
const AT_COUNT_DOWN: usize = AT_SELECTED + CARDS;
const AT_HELD_OVER: usize = AT_COUNT_DOWN + 1;

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

fn set_cards(out: &mut [i32], at: usize, bits: u64) {
    let mut m = bits;
    while m != 0 {
        out[at + m.trailing_zeros() as usize] = 1;
        m &= m - 1;
    }
}

// A card block that counts copies (OBS-3 version 3): 1 for each card held, 2 for each held twice.
fn count_cards(out: &mut [i32], at: usize, cards: CardMultiset) {
    set_cards(out, at, cards.set);
    let mut m = cards.twice;
    while m != 0 {
        out[at + m.trailing_zeros() as usize] += 1;
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
    if out.len() != ENCODING_LENGTH {
        return Err(Error::new(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: an encoding holds {ENCODING_LENGTH} integers, got a buffer of {}",
                out.len()
            ),
        ));
    }
    game.hand(seat)?;
    encode(game.ruleset(), game.position(), seat, out);
    Ok(())
}

// OBS-3 of `pos` for `seat`, a seat of the table, into `out` of ENCODING_LENGTH integers.
fn encode(rules: &Ruleset, pos: &Position, seat: usize, out: &mut [i32]) {
    out.fill(0);
    let n = rules.players();
    let rel = |other: usize| (other + n - seat) % n;
    let hand = &pos.hand;
    count_cards(out, AT_HAND, hand.hand(seat));
    for other in 0..n {
        count_cards(out, AT_PLAYED + rel(other) * CARDS, pos.played_by(other));
    }
    for (s, c) in hand.trick() {
        out[AT_TRICK + rel(s) * CARDS + usize::from(c.id())] = 1;
    }
    if let Some(p) = pos.passed(seat) {
        count_cards(out, AT_PASSED, p);
    }
    if let Some(r) = pos.received(rules, seat) {
        count_cards(out, AT_RECEIVED, r);
    }
    for (other, &points) in hand.points().iter().enumerate() {
        let k = rel(other);
        let v = hand.voids(other);
        for suit in 0..4 {
            if v & (1 << suit) != 0 {
                out[AT_VOIDS + k * 4 + suit] = 1;
            }
        }
        out[AT_POINTS + k] = points;
        // The Python encoding stores an `int` in an `array('i')`: the totals fit.
        out[AT_SCORES + k] = pos.scores[other] as i32;
    }
    out[AT_PHASE + phase_index(pos.phase)] = 1;
    out[AT_HEARTS] = i32::from(hand.hearts_broken());
    out[AT_TO_MOVE + pos.seat_to_move(rules).map_or(SEATS, rel)] = 1;
    out[AT_DIRECTION + direction_index(rules.pass_direction(pos.hand_number))] = 1;
    if pos.phase == Phase::Play && hand.to_move() == seat {
        set_cards(out, AT_LEGAL, hand.legal_plays(rules).0);
    }
    count_cards(out, AT_SELECTED, pos.selection(seat));
    out[AT_COUNT_DOWN] = i32::from(pos.count_down);
    count_cards(out, AT_HELD_OVER, hand.held_over());
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
// does (`Position` is 240 bytes).
#[derive(Clone, Debug)]
struct Slot {
    pos: Position,
    // The episode the game is playing (0 for the first).
    episode: u64,
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

// The rows of the output buffers for a run of games.
struct Rows<'a> {
    current_player: &'a mut [i32],
    mask: &'a mut [u8],
    observation: &'a mut [i32],
    rewards: &'a mut [f32],
    terminated: &'a mut [u8],
    episode_scores: &'a mut [i64],
    // Each game's action ids this episode, where the environment keeps them.
    logs: &'a mut [Vec<u8>],
}

impl<'a> Rows<'a> {
    // Splits the rows into runs of `size` games of `players` seats.
    fn chunks(self, size: usize, players: usize) -> Vec<Rows<'a>> {
        let Rows {
            current_player,
            mask,
            observation,
            rewards,
            terminated,
            episode_scores,
            logs,
        } = self;
        let mut logs = logs.chunks_mut(size);
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
                logs: logs.next().unwrap_or_default(),
            })
            .collect()
    }
}

// Writes game `j` of the run's acting seat, mask and observation.
fn write_view(rules: &Ruleset, pos: &Position, rows: &mut Rows<'_>, j: usize) {
    // Every episode starts dealt, and one that ends is replaced: there is an acting seat.
    let seat = pos.acting_seat(rules);
    rows.current_player[j] = seat.map_or(-1, |s| s as i32);
    let mask = seat.map_or(0, |s| pos.legal_mask(rules, s));
    let row = &mut rows.mask[j * ACTIONS..(j + 1) * ACTIONS];
    for (i, b) in row.iter_mut().enumerate() {
        *b = (mask >> i & 1) as u8;
    }
    let obs = &mut rows.observation[j * ENCODING_LENGTH..(j + 1) * ENCODING_LENGTH];
    match seat {
        Some(s) => encode(rules, pos, s, obs),
        None => obs.fill(0),
    }
}

// Starts every game of the run on its next episode and clears its rows.
fn reset_run(cfg: &Config, ruleset: &Ruleset, base: usize, slots: &mut [Slot], mut rows: Rows<'_>) {
    for (j, slot) in slots.iter_mut().enumerate() {
        slot.episode += 1;
        slot.pos = cfg.start(ruleset, base + j, slot.episode);
        write_view(ruleset, &slot.pos, &mut rows, j);
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
fn step_run(
    cfg: &Config,
    ruleset: &Ruleset,
    base: usize,
    slots: &mut [Slot],
    actions: &[u16],
    mut rows: Rows<'_>,
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
        write_view(ruleset, &slot.pos, &mut rows, j);
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
/// row-major, one row per game:
///
/// | buffer | row | content |
/// | --- | --- | --- |
/// | [`current_player`](VectorEnv::current_player) | 1 | the acting seat (ACT-3) |
/// | [`legal_action_mask`](VectorEnv::legal_action_mask) | 106 | 1 for each legal id (ACT-2) |
/// | [`observation`](VectorEnv::observation) | 1435 | OBS-3 of the acting seat |
/// | [`rewards`](VectorEnv::rewards) | players | the step's reward of each seat |
/// | [`terminated`](VectorEnv::terminated) | 1 | 1 when the step ended the game's episode |
/// | [`episode_scores`](VectorEnv::episode_scores) | players | the finished episode's scores, where terminated |
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
    current_player: Vec<i32>,
    mask: Vec<u8>,
    observation: Vec<i32>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    episode_scores: Vec<i64>,
    // Each game's action ids this episode, one byte each, with `with_history`; else empty.
    logs: Vec<Vec<u8>>,
}

impl VectorEnv {
    /// `num_envs` games of `ruleset`, each on its episode 0, seeded from `seed`.
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
            current_player: vec![0; num_envs],
            mask: vec![0; num_envs * ACTIONS],
            observation: vec![0; num_envs * ENCODING_LENGTH],
            rewards: vec![0.0; num_envs * players],
            terminated: vec![0; num_envs],
            episode_scores: vec![0; num_envs * players],
            logs: Vec::new(),
        };
        let cfg = env.config();
        for i in 0..num_envs {
            let pos = cfg.start(&env.ruleset, i, 0);
            env.slots.push(Slot { pos, episode: 0 });
        }
        let ruleset = Arc::clone(&env.ruleset);
        let (slots, mut rows) = env.parts();
        for (j, slot) in slots.iter().enumerate() {
            write_view(&ruleset, &slot.pos, &mut rows, j);
        }
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
            let ruleset = Arc::clone(&self.ruleset);
            let (slots, mut rows) = self.parts();
            for (j, slot) in slots.iter_mut().enumerate() {
                slot.pos = cfg.start(&ruleset, j, slot.episode);
                write_view(&ruleset, &slot.pos, &mut rows, j);
            }
            rows.rewards.fill(0.0);
            rows.terminated.fill(0);
            rows.episode_scores.fill(0);
        }
        self
    }

    /// Whether the environment keeps each game's history ([`VectorEnv::with_history`]).
    pub fn has_history(&self) -> bool {
        !self.logs.is_empty()
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

    fn parts(&mut self) -> (&mut [Slot], Rows<'_>) {
        (
            &mut self.slots,
            Rows {
                current_player: &mut self.current_player,
                mask: &mut self.mask,
                observation: &mut self.observation,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                episode_scores: &mut self.episode_scores,
                logs: &mut self.logs,
            },
        )
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
        let ruleset = Arc::clone(&self.ruleset);
        let (slots, rows) = self.parts();
        reset_run(&cfg, &ruleset, 0, slots, rows);
    }

    // Checks every game's action against its mask (the current state's).
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
        for (i, &id) in actions.iter().enumerate() {
            let legal = usize::from(id) < ACTIONS && self.mask[i * ACTIONS + usize::from(id)] == 1;
            if !legal {
                // The game's own checks say why.
                let why = match self.slots[i].pos.check_id(&self.ruleset, id, None) {
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
    /// play or a moon choice, ACT-2), splitting the games into `threads` contiguous runs
    /// stepped on scoped threads (0 counts as 1). The result is the same whatever `threads`.
    /// Every action is checked before any is applied.
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
        self.check(actions)?;
        let cfg = self.config();
        let ruleset = Arc::clone(&self.ruleset);
        let num = self.slots.len();
        let threads = threads.clamp(1, num);
        let (slots, rows) = self.parts();
        if threads == 1 {
            step_run(&cfg, &ruleset, 0, slots, actions, rows);
            return Ok(());
        }
        let size = num.div_ceil(threads);
        let runs = rows.chunks(size, cfg.players);
        std::thread::scope(|scope| {
            let handles: Vec<_> = slots
                .chunks_mut(size)
                .zip(actions.chunks(size))
                .zip(runs)
                .enumerate()
                .map(|(k, ((s, a), r))| {
                    let ruleset = &ruleset;
                    let cfg = &cfg;
                    scope.spawn(move || step_run(cfg, ruleset, k * size, s, a, r))
                })
                .collect();
            for h in handles {
                h.join().expect("a step thread panicked");
            }
        });
        Ok(())
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
        &self.current_player
    }

    /// The legal ids of every game's acting seat, `num_envs × 106` entries of 0 or 1.
    pub fn legal_action_mask(&self) -> &[u8] {
        &self.mask
    }

    /// The OBS-3 encoding of every game's acting seat's observation, `num_envs × 1435`.
    pub fn observation(&self) -> &[i32] {
        &self.observation
    }

    /// Every seat's reward for the last step, `num_envs × players`.
    pub fn rewards(&self) -> &[f32] {
        &self.rewards
    }

    /// 1 for every game whose episode the last step ended (the game has auto-reset), else 0.
    pub fn terminated(&self) -> &[u8] {
        &self.terminated
    }

    /// The scores of the episode each game ended in the last step (the hand's scores for
    /// [`Episode::Hand`], the final totals for [`Episode::Match`]), `num_envs × players`; 0 where
    /// not terminated.
    pub fn episode_scores(&self) -> &[i64] {
        &self.episode_scores
    }
}
