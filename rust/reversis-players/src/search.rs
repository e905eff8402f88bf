//! The search player: determinized playouts with the rule-based policy, one decision at a time.
//!
//! A decision (a card, a pass, a moon choice) is made from the observation alone. For a card or
//! a pass, each candidate is played in layouts of the hidden cards and the hand is finished by
//! every seat following the rule-based policy ([`crate::policy`]), the searcher's own later
//! decisions too. The searcher also goes for the moon, which the policy never does
//! ([`crate::policy::Policy::shoot`]): a pass is tried that keeps the high cards, played on going
//! for the moon, and once the searcher has captured every point card taken so far each card is
//! tried both ways, going with its better plan. A playout is scored with the ruleset's moon rule
//! as own hand score minus the others' mean. The layouts are drawn exactly uniformly among those
//! consistent with everything the seat knows (voids and what the legality of the plays reveals
//! included, [`crate::play_exclusions`]) and then weighed by how likely the other seats' plays so
//! far are in them if those seats follow the policy (a belief): a seat that ducked with the nine
//! under the jack shows that it holds no ten, to a searcher that knows how it plays.
//!
//! The budget goes to the candidates by sequential halving (Karnin, Koren and Somekh, 2013):
//! rounds of equal budget, each playing every surviving candidate in the same layouts, with the
//! same generator stream, and keeping the better half, so that the comparisons are paired and
//! most playouts go to the close calls. The moon choice is evaluated exactly.
//!
//! [`Style`] varies it: the match as the objective, a network playing the playouts' cards, a
//! network's value ending a card's playouts at the searcher's next decision, or a defence against
//! another seat's run at the moon.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use reversis_core::encode_view;
use reversis_core::kernel::{Races, Scoring, Shot};
use reversis_core::{
    Card, CardMultiset, CardSet, Error, ErrorCode, HandState, Knowledge, Layout, MoonChoice,
    PassDirection, PerSeat, Phase, Ruleset, Sampler, SeatView, SplitMix64, ENCODING_LENGTH,
    MAX_PLAYERS, MOON_ADD_ID, MOON_SUBTRACT_ID, PASS_BASE, SUIT_MASKS,
};
use serde_json::Value;

use crate::equity::{MatchEquity, Standing};
use crate::learned::{Network, Scratch};
use crate::policy::Policy;
use crate::{
    cards_of, field, final_scores, history_of, invalid, knowledge_from_observation, margin,
    play_exclusions, public_state, seat_of,
};

/// How much a decision may spend: a number of playouts, a time, or both (whichever runs out
/// first). A pass, which decides the whole hand and comes once a hand, gets
/// [`Budget::PASS_FACTOR`] times the budget.
///
/// A decision bounded by playouts alone is a function of the observation and the seed; one
/// bounded by time also depends on the machine's speed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// The most playouts of one decision.
    pub playouts: Option<u64>,
    /// The most time of one decision (checked between layouts, so slightly exceeded).
    pub time: Option<Duration>,
}

impl Budget {
    /// How many times the budget of a card a pass gets.
    pub const PASS_FACTOR: u32 = 4;

    /// A budget of `playouts` playouts per decision.
    pub fn playouts(playouts: u64) -> Budget {
        Budget {
            playouts: Some(playouts),
            time: None,
        }
    }

    /// A budget of `time` per decision.
    pub fn time(time: Duration) -> Budget {
        Budget {
            playouts: None,
            time: Some(time),
        }
    }

    fn check(&self) -> Result<(), Error> {
        match (self.playouts, self.time) {
            (None, None) => Err(invalid("a budget needs a number of playouts or a time")),
            (Some(0), _) => Err(invalid("a budget of playouts must be at least 1")),
            (_, Some(t)) if t.is_zero() => Err(invalid("a budget of time must not be zero")),
            _ => Ok(()),
        }
    }

    fn scaled(&self, factor: u32) -> Budget {
        Budget {
            playouts: self.playouts.map(|p| p.saturating_mul(u64::from(factor))),
            time: self.time.map(|t| t.saturating_mul(factor)),
        }
    }
}

/// The search player's decision for the observer of `obs` (OBS-1) under `rules`, as the action
/// ids (ACT-2) that make it: one id for a card (phase `play`, the observer to play) or a moon
/// choice (phase `moon`, the observer the taker), and for a pass (phase `pass`, the observer
/// still to pass) the ids `52 + c` of its cards, ascending (the ACT-1 `pass` of those cards,
/// which replaces any selection in progress). Uses the observation only. Deterministic for a
/// `seed` when `budget` has no time.
///
/// # Errors
///
/// `invalid-action` if the observation is malformed or inconsistent, the observer has no
/// decision to make, or the budget is empty.
pub fn search_decision(
    rules: &Ruleset,
    obs: &Value,
    budget: Budget,
    seed: u64,
) -> Result<Vec<u16>, Error> {
    search_decision_timed(rules, obs, budget, seed, &monotonic)
}

/// The process's monotonic clock, [`Instant`]'s: the time since a fixed instant of the process.
pub fn monotonic() -> Duration {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed()
}

/// [`search_decision`] with the time budget read from `clock` (a monotonic clock: the time
/// since any fixed instant): for targets whose standard
/// library has no clock (`wasm32-unknown-unknown`, where [`Instant::now`] panics), the host
/// gives its own.
///
/// # Errors
///
/// As [`search_decision`].
pub fn search_decision_timed(
    rules: &Ruleset,
    obs: &Value,
    budget: Budget,
    seed: u64,
    clock: &dyn Fn() -> Duration,
) -> Result<Vec<u16>, Error> {
    search_decision_with(rules, obs, budget, Style::default(), seed, clock)
}

/// How the search player plays: what for, whether it may go for the moon, and who plays its
/// playouts.
#[derive(Clone, Copy, Debug)]
pub struct Style<'n> {
    /// What it plays for.
    pub objective: Objective,
    /// Whether it also tries going for the moon (SCORE-2), which its playouts' rule-based
    /// policy never does: a pass that keeps its high cards, and each card once it has taken
    /// every point card so far. Without, it only ever shoots where ducking would not stop it.
    pub shoot: bool,
    /// The network that plays every seat's cards in the playouts (spec/learned.md, its legal
    /// card with the highest logit), each seat shown what it would see there: its hand, the
    /// plays so far, the points, the totals, and its pass and receipt where the searcher knows
    /// them (all of them in a pass's playouts, where the deal is drawn whole; in a card's, the
    /// searcher's own and the receipt of the seat it passed to). `None`: the rule-based policy
    /// ([`crate::policy`]). The belief that weighs the layouts and the moon plan stay the
    /// policy's.
    pub rollouts: Option<&'n Network>,
    /// Whose cards the network of `rollouts` plays: every seat's, or the searcher's alone (its
    /// own later decisions), the other seats following the rule-based policy.
    pub rollout_seats: RolloutSeats,
    /// The network whose value (spec/learned.md, LRN-7) ends a card's playouts: each is played
    /// by the rule-based policy only until the searcher's next decision, and scored there by
    /// the value of the searcher's view, turned into a margin as if the hand gave out every
    /// card's points and no moon. `None`: every playout runs to the end of the hand. Needs a
    /// network with a value, the objective `Points` outside a count-down hand, and one pack.
    pub leaves: Option<&'n Network>,
    /// Whether the search defends against the moon: where another seat has captured every
    /// point card taken so far, half of a card's layouts (the same for every card) have that
    /// seat go for the moon in the playouts ([`crate::policy::Policy::shoot`]), which the
    /// rule-based policy never does, so that a card is also judged by whether it lets a run
    /// through.
    pub defend: bool,
    /// Whether the belief also weighs the pass the searcher received: each layout by how close
    /// the rule-based policy's pass from the passer's hand before the exchange in it
    /// ([`crate::policy::Policy::pass`]) comes to the cards received, where the passer's own
    /// receipt, unless it was the searcher's pass, is drawn from what it holds and has played.
    /// One pack.
    pub weigh_passes: bool,
}

impl Style<'_> {
    /// Whether the settings go together, whatever the table: `rollout_seats` other than
    /// `Every` needs `rollouts` (without a network the rule-based policy plays every seat's
    /// cards), `leaves` a network with a value, and `defend` playouts that run to the end of the
    /// hand, so no `leaves`. What the table must allow is checked by the search itself.
    ///
    /// # Errors
    ///
    /// `invalid-setup`, naming the setting refused.
    pub fn check(self) -> Result<(), Error> {
        let refused = if self.rollout_seats != RolloutSeats::Every && self.rollouts.is_none() {
            "rollout seats say whose cards a network plays in the playouts; without rollouts the rule-based policy plays them all"
        } else if self.leaves.is_some_and(|net| !net.has_value()) {
            "the leaves' network has no value (a format version 2 network has one)"
        } else if self.leaves.is_some() && self.defend {
            "defending against the moon plays another seat's run to the end of the hand, which the leaves cut short"
        } else {
            return Ok(());
        };
        Err(Error::new(
            ErrorCode::InvalidSetup,
            format!("invalid setup: {refused}"),
        ))
    }

    // Whether the search tries going for the moon at all: asked for, and the ruleset has one.
    fn tries_moon(self, rules: &Ruleset) -> bool {
        self.shoot && rules.moon().is_some()
    }

    // The seat whose run at the moon a card decision of `root` defends against, if any.
    fn threat(self, rules: &Ruleset, root: &Root) -> Option<usize> {
        if !self.defend || rules.moon().is_none() {
            return None;
        }
        root.probe
            .sole_point_taker()
            .filter(|&taker| taker != root.seat)
    }
}

impl Default for Style<'_> {
    fn default() -> Self {
        Style {
            objective: Objective::Points,
            shoot: true,
            rollouts: None,
            rollout_seats: RolloutSeats::Every,
            leaves: None,
            defend: false,
            weigh_passes: false,
        }
    }
}

/// A [`Style`] that owns its networks: the settings of a search player made once and asked for
/// many decisions (each binding's search style keeps one).
#[derive(Clone, Debug)]
pub struct OwnedStyle {
    /// [`Style::objective`].
    pub objective: Objective,
    /// [`Style::shoot`].
    pub shoot: bool,
    /// [`Style::rollouts`].
    pub rollouts: Option<Network>,
    /// [`Style::rollout_seats`].
    pub rollout_seats: RolloutSeats,
    /// [`Style::leaves`].
    pub leaves: Option<Network>,
    /// [`Style::defend`].
    pub defend: bool,
    /// [`Style::weigh_passes`].
    pub weigh_passes: bool,
}

impl OwnedStyle {
    /// The style these settings make, borrowing the networks.
    pub fn style(&self) -> Style<'_> {
        Style {
            objective: self.objective,
            shoot: self.shoot,
            rollouts: self.rollouts.as_ref(),
            rollout_seats: self.rollout_seats,
            leaves: self.leaves.as_ref(),
            defend: self.defend,
            weigh_passes: self.weigh_passes,
        }
    }
}

impl Default for OwnedStyle {
    fn default() -> Self {
        let Style {
            objective,
            shoot,
            rollout_seats,
            defend,
            weigh_passes,
            ..
        } = Style::default();
        OwnedStyle {
            objective,
            shoot,
            rollouts: None,
            rollout_seats,
            leaves: None,
            defend,
            weigh_passes,
        }
    }
}

/// Whose cards a network plays in the search's playouts ([`Style::rollouts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RolloutSeats {
    /// Every seat's.
    #[default]
    Every,
    /// The searcher's alone; the other seats follow the rule-based policy.
    Searcher,
}

impl RolloutSeats {
    /// The name: `every` or `searcher`.
    pub fn name(self) -> &'static str {
        match self {
            RolloutSeats::Every => "every",
            RolloutSeats::Searcher => "searcher",
        }
    }

    /// The seats named `name` ([`RolloutSeats::name`]).
    ///
    /// # Errors
    ///
    /// `invalid-action` for any other name.
    pub fn from_name(name: &str) -> Result<RolloutSeats, Error> {
        match name {
            "every" => Ok(RolloutSeats::Every),
            "searcher" => Ok(RolloutSeats::Searcher),
            _ => Err(invalid(format!(
                "unknown rollout seats {name:?}: every or searcher"
            ))),
        }
    }
}

/// What the search player plays for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Objective {
    /// The hand: the fewest points for itself against the others' mean (own hand score minus
    /// the others' mean), whatever the totals.
    #[default]
    Points,
    /// The match: the greatest chance of winning it (MATCH-3) from the totals of the
    /// observation (OBS-1 `scores`, `hand_number`, `count_down`), each finished playout judged
    /// by where it leaves the totals, the match played on from there with hands of the
    /// rule-based policy ([`crate::equity`]); the moon choice by the same chance. Playouts
    /// that leave the chance equal are told apart by the hand's points, as under `Points`.
    Match,
}

impl Objective {
    /// The objective's name: `points` or `match`.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Points => "points",
            Objective::Match => "match",
        }
    }

    /// The objective named `name` ([`Objective::name`]).
    ///
    /// # Errors
    ///
    /// `invalid-action` for any other name.
    pub fn from_name(name: &str) -> Result<Objective, Error> {
        match name {
            "points" => Ok(Objective::Points),
            "match" => Ok(Objective::Match),
            _ => Err(invalid(format!(
                "unknown search objective {name:?}: points or match"
            ))),
        }
    }
}

/// [`search_decision_timed`] playing in `style`.
///
/// # Errors
///
/// As [`search_decision`]; under [`Objective::Match`] also an observation without the match's
/// standing (`scores`, `hand_number`, `count_down`).
pub fn search_decision_with(
    rules: &Ruleset,
    obs: &Value,
    budget: Budget,
    style: Style,
    seed: u64,
    clock: &dyn Fn() -> Duration,
) -> Result<Vec<u16>, Error> {
    budget.check()?;
    style.check()?;
    let mut judge = Judge::new(rules, obs, style.objective, seed)?;
    if style.leaves.is_some() {
        Leaves::check(rules, &judge)?;
    }
    let start = Stopwatch {
        clock,
        start: clock(),
    };
    match field(obs, "phase")?.as_str() {
        Some("play") => Ok(vec![u16::from(
            search_card(rules, obs, budget, style, seed, start, &mut judge)?.id(),
        )]),
        Some("pass") => {
            let budget = budget.scaled(Budget::PASS_FACTOR);
            let cards = search_pass(rules, obs, budget, style, seed, start, &mut judge)?;
            Ok(pass_ids(cards))
        }
        Some("moon") => Ok(vec![moon_id(match &mut judge {
            Judge::Points | Judge::CountDown(_) => moon_choice(rules, obs)?,
            Judge::Match(equity) => match_moon_choice(rules, obs, equity)?,
        })]),
        _ => Err(invalid("the observer has no decision to make")),
    }
}

// How a finished playout is scored for the searcher, lower being better: by its hand scores
// (what the hand adds to each total: in a count-down hand, MATCH-6, the change of each total,
// which taking points lowers), and under `Objective::Match` by the chance of winning the match.
enum Judge<'r> {
    Points,
    // Boxed: an estimator is large, and most searches are of hands outside the count-down.
    CountDown(Box<MatchEquity<'r>>),
    Match(Box<MatchEquity<'r>>),
}

impl<'r> Judge<'r> {
    fn new(
        rules: &'r Ruleset,
        obs: &Value,
        objective: Objective,
        seed: u64,
    ) -> Result<Judge<'r>, Error> {
        let count_down = obs.get("count_down").and_then(Value::as_bool) == Some(true);
        Ok(match objective {
            Objective::Points if !count_down => Judge::Points,
            Objective::Points => Judge::CountDown(Box::new(MatchEquity::new(
                rules,
                standing_of(rules, obs)?,
                seed,
            ))),
            Objective::Match => Judge::Match(Box::new(MatchEquity::new(
                rules,
                standing_of(rules, obs)?,
                seed,
            ))),
        })
    }

    // What the finished hand `h` adds to each seat's total.
    #[inline]
    fn hand_scores(&self, rules: &Ruleset, h: &HandState) -> PerSeat<i32> {
        match self {
            Judge::Points => final_scores(rules, h),
            Judge::CountDown(equity) | Judge::Match(equity) => {
                let mut hand = PerSeat::splat(0i32);
                for (s, x) in hand.iter_mut().zip(equity.hand_scores(h)) {
                    *s = x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
                }
                hand
            }
        }
    }

    #[inline]
    fn score(&mut self, rules: &Ruleset, h: &HandState, seat: usize) -> i64 {
        let hand = self.hand_scores(rules, h);
        let margin = margin(&hand, seat, rules.players());
        match self {
            Judge::Points | Judge::CountDown(_) => margin,
            Judge::Match(equity) => {
                let mut scores = [0i64; MAX_PLAYERS];
                for (s, &x) in scores.iter_mut().zip(hand.iter()) {
                    *s = i64::from(x);
                }
                let chance = equity.chances(&scores)[seat];
                // A chance in millionths; a hand's margin is far below one step of the
                // estimate, so it only breaks ties.
                margin - (chance * 1e6).round() as i64
            }
        }
    }
}

// The match's standing in `obs` (OBS-1): the totals before the hand, its number, whether it is
// a count-down hand.
fn standing_of(rules: &Ruleset, obs: &Value) -> Result<Standing, Error> {
    let n = rules.players();
    let totals = field(obs, "scores")?
        .as_array()
        .filter(|v| v.len() == n)
        .and_then(|v| v.iter().map(Value::as_i64).collect::<Option<Vec<i64>>>())
        .ok_or_else(|| invalid("scores must hold one integer per seat"))?;
    let hand_number = field(obs, "hand_number")?
        .as_u64()
        .ok_or_else(|| invalid("hand_number must be a whole number"))?;
    let count_down = field(obs, "count_down")?
        .as_bool()
        .ok_or_else(|| invalid("count_down must be true or false"))?;
    let mut standing = Standing {
        totals: PerSeat::splat(0),
        hand_number,
        count_down,
    };
    standing.totals[..n].copy_from_slice(&totals);
    Ok(standing)
}

// The moon choice that gives the taker the greater chance of winning the match; on a tie (the
// match far from its end, or decided either way) the choice of `moon_choice`.
fn match_moon_choice(
    rules: &Ruleset,
    obs: &Value,
    equity: &mut MatchEquity<'_>,
) -> Result<MoonChoice, Error> {
    let moon = MoonDecision::of(rules, obs)?;
    let seat = moon.shot.taker;
    let mut chance = |how: MoonChoice| -> Result<f64, Error> {
        let hand = shot_scores(rules, moon.shot, &moon.points, how)?;
        let mut scores = [0i64; MAX_PLAYERS];
        for (s, &x) in scores.iter_mut().zip(&hand) {
            *s = i64::from(x);
        }
        Ok(equity.chances(&scores)[seat])
    };
    let add = chance(MoonChoice::AddToOthers)?;
    let subtract = chance(MoonChoice::SubtractFromTaker)?;
    Ok(if add > subtract {
        MoonChoice::AddToOthers
    } else if subtract > add {
        MoonChoice::SubtractFromTaker
    } else {
        moon_choice_of(rules, moon.shot, &moon.points, &moon.scores)?
    })
}

/// The decision of the search's playout policy (the rule-based player) for the observer of
/// `obs`, as [`search_decision`] gives it: exact ties to the lowest card without a `seed`, as
/// the seedless Python player breaks them, or drawn from a generator seeded with `seed`. The
/// moon choice is the search's own.
///
/// # Errors
///
/// As [`search_decision`].
pub fn policy_decision(rules: &Ruleset, obs: &Value, seed: Option<u64>) -> Result<Vec<u16>, Error> {
    let policy = Policy::new(rules);
    let mut rng = seed.map(SplitMix64::new);
    let mut ties = rng.as_mut();
    match field(obs, "phase")?.as_str() {
        Some("play") => {
            let root = Root::of(rules, obs)?;
            let card = policy.play(rules, &root.probe, &mut ties);
            Ok(vec![u16::from(card.id())])
        }
        Some("pass") => {
            let (hand, size, _) = pass_setup(rules, obs)?;
            Ok(pass_ids(policy.pass(hand, size, &mut ties)))
        }
        Some("moon") => Ok(vec![moon_id(moon_choice(rules, obs)?)]),
        _ => Err(invalid("the observer has no decision to make")),
    }
}

// The time spent since `start` by `clock`; a clock that goes back reads as no time spent.
#[derive(Clone, Copy)]
struct Stopwatch<'a> {
    clock: &'a dyn Fn() -> Duration,
    start: Duration,
}

impl Stopwatch<'_> {
    fn elapsed(&self) -> Duration {
        (self.clock)().saturating_sub(self.start)
    }
}

fn pass_ids(cards: u64) -> Vec<u16> {
    CardSet(cards)
        .into_iter()
        .map(|c| PASS_BASE + u16::from(c.id()))
        .collect()
}

pub(crate) fn moon_id(choice: MoonChoice) -> u16 {
    match choice {
        MoonChoice::AddToOthers => MOON_ADD_ID,
        MoonChoice::SubtractFromTaker => MOON_SUBTRACT_ID,
    }
}

// Who plays the playouts' cards: the rule-based policy, or a network shown each seat's view.
#[derive(Clone, Copy)]
enum Players<'n> {
    Policy,
    Learned(&'n Network, Standing, RolloutSeats),
}

impl<'n> Players<'n> {
    // The players of `style` for the decision of `obs`; a network needs the match's standing,
    // which its encoding holds.
    fn of(rules: &Ruleset, obs: &Value, style: Style<'n>) -> Result<Players<'n>, Error> {
        Ok(match style.rollouts {
            None => Players::Policy,
            Some(net) => Players::Learned(net, standing_of(rules, obs)?, style.rollout_seats),
        })
    }
}

// What a playout's seats know beyond the hand state (OBS-3's blocks of passes): each seat's
// pass and receipt, where the searcher knows them.
#[derive(Clone, Copy)]
struct Passes {
    passed: PerSeat<Option<CardMultiset>>,
    received: PerSeat<Option<CardMultiset>>,
}

impl Passes {
    const UNKNOWN: Passes = Passes {
        passed: PerSeat::splat(None),
        received: PerSeat::splat(None),
    };

    // OBS-3 of `seat` to play in a playout at `h`, as it would see it there, into `encoding`.
    fn encode(
        &self,
        rules: &Ruleset,
        h: &HandState,
        played_by: &PerSeat<CardMultiset>,
        standing: &Standing,
        seat: usize,
        encoding: &mut [i32],
    ) {
        let view = SeatView {
            hand: h,
            played_by,
            passed: self.passed[seat],
            received: self.received[seat],
            scores: &standing.totals,
            phase: Phase::Play,
            to_move: Some(seat),
            hand_number: standing.hand_number,
            selection: CardMultiset::EMPTY,
            count_down: standing.count_down,
        };
        encode_view(rules, &view, seat, encoding).expect("the seat is at the table");
    }

    // What the observer of `obs` knows: its own pass and receipt, and that the seat it passed
    // to received its pass.
    fn of_observer(rules: &Ruleset, obs: &Value, seat: usize) -> Result<Passes, Error> {
        let mut passes = Passes::UNKNOWN;
        let cards = |key: &str| match field(obs, key)? {
            Value::Null => Ok(None),
            v => cards_of(v, rules).map(Some),
        };
        passes.passed[seat] = cards("passed")?;
        passes.received[seat] = cards("received")?;
        // The receipt shows the exchange has happened: the receiver holds the pass.
        if let (Some(p), Some(_)) = (passes.passed[seat], passes.received[seat]) {
            let dir = field(obs, "pass_direction")?
                .as_str()
                .and_then(PassDirection::from_name)
                .ok_or_else(|| invalid("a pass happened without a pass direction"))?;
            let to = dir.target(seat, rules.players());
            if to != seat {
                passes.received[to] = Some(p);
            }
        }
        Ok(passes)
    }
}

// Who plays a decision's playouts, and what their seats know beyond the hand state.
#[derive(Clone, Copy)]
struct Rollout<'a> {
    policy: &'a Policy,
    players: Players<'a>,
    passes: Passes,
}

// Plays the hand out, every seat's card chosen by `rollout` (exact ties of the policy drawn
// from `seed`); `shooter`, if any, goes for the moon ([`Policy::shoot`]) until another seat
// captures a point card. `played_by` holds the cards each seat has played so far; `searcher`
// is the seat deciding, whose cards alone a network may play.
#[inline]
fn finish(
    rules: &Ruleset,
    rollout: &Rollout<'_>,
    mut h: HandState,
    mut played_by: PerSeat<CardMultiset>,
    seed: u64,
    shooter: Option<usize>,
    searcher: usize,
) -> HandState {
    let Rollout {
        policy,
        players,
        passes,
    } = rollout;
    let mut rng = SplitMix64::new(seed);
    let mut tie = Some(&mut rng);
    let mut learned = match *players {
        Players::Policy => None,
        Players::Learned(net, standing, _) => Some((
            net,
            standing,
            vec![0i32; ENCODING_LENGTH],
            Scratch::default(),
        )),
    };
    while !h.is_complete(rules) {
        let mover = h.to_move();
        let by_net = match *players {
            Players::Policy => false,
            Players::Learned(_, _, RolloutSeats::Every) => true,
            Players::Learned(_, _, RolloutSeats::Searcher) => mover == searcher,
        };
        let card = if shooter == Some(mover) && h.moon_open_for(mover) {
            policy.shoot(rules, &h, &mut tie)
        } else if !by_net {
            policy.play(rules, &h, &mut tie)
        } else if let Some((net, standing, encoding, scratch)) = &mut learned {
            let legal = h.legal_plays(rules).0;
            if legal.count_ones() == 1 {
                Card::new(legal.trailing_zeros() as u8)
            } else {
                passes.encode(rules, &h, &played_by, standing, mover, encoding);
                net.best_play(encoding, legal, scratch)
            }
        } else {
            policy.play(rules, &h, &mut tie)
        };
        if learned.is_some() {
            played_by[mover].insert(card);
        }
        h.play_unchecked(rules, card);
    }
    h
}

// How the searcher plays on in a playout: as the policy does, or going for the moon
// ([`Policy::shoot`]) until another seat captures a point card, which the policy never tries.
// Every seat but the searcher follows the policy either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    Policy,
    Moon,
}

impl Plan {
    // The plans worth trying for the observer of `root`: the moon too (where the style tries
    // it) once it has captured every point card taken so far (and some), where going on for the
    // moon may beat ducking. Trying it from the first trick measured worse: most hands cannot shoot,
    // and an extra plan halves every candidate's playouts.
    fn for_root(rules: &Ruleset, root: &Root, style: Style) -> &'static [Plan] {
        if style.tries_moon(rules) && root.probe.sole_point_taker() == Some(root.seat) {
            &[Plan::Policy, Plan::Moon]
        } else {
            &[Plan::Policy]
        }
    }

    // The seat going for the moon in a playout where `seat` follows the plan: `seat` itself
    // under `Moon`, else `threat`, another seat running at it, if any.
    fn shooter(self, seat: usize, threat: Option<usize>) -> Option<usize> {
        if self == Plan::Moon {
            Some(seat)
        } else {
            threat
        }
    }
}

// Sequential halving over `arms` candidates: `world` draws a determinization, `eval` plays one
// candidate in one (with a seed shared by every candidate of that determinization) and gives
// its score, lower being better. Returns the chosen candidate; ties go to the lower index.
fn halving<W>(
    arms: usize,
    budget: Budget,
    start: Stopwatch<'_>,
    rng: &mut SplitMix64,
    mut world: impl FnMut(&mut SplitMix64) -> W,
    mut eval: impl FnMut(&W, usize, u64) -> i64,
) -> usize {
    if arms <= 1 {
        return 0;
    }
    let rounds = u64::from(usize::BITS - (arms - 1).leading_zeros());
    let mut sums = vec![0i64; arms];
    let mut alive: Vec<usize> = (0..arms).collect();
    let mut used = 0u64;
    for round in 0..rounds {
        let rounds_left = rounds - round;
        // Every surviving candidate has been played in the same layouts, so sums compare.
        let layouts = budget
            .playouts
            .map(|b| (b.saturating_sub(used) / rounds_left / alive.len() as u64).max(1));
        let until = budget.time.map(|t| {
            let spent = start.elapsed();
            spent + t.saturating_sub(spent) / rounds_left as u32
        });
        let mut done = 0u64;
        loop {
            let w = world(rng);
            let seed = rng.next_u64();
            for &arm in &alive {
                sums[arm] += eval(&w, arm, seed);
            }
            used += alive.len() as u64;
            done += 1;
            if layouts.is_some_and(|l| done >= l) || until.is_some_and(|u| start.elapsed() >= u) {
                break;
            }
        }
        alive.sort_by_key(|&arm| (sums[arm], arm));
        alive.truncate(alive.len().div_ceil(2));
    }
    alive[0]
}

// What a play decision starts from: the public state, the observer's knowledge.
struct Root {
    seat: usize,
    dealer: usize,
    // The public state with every hand empty, as the plays left it.
    base: HandState,
    // The same with the observer's hand: its legal cards and its policy decision.
    probe: HandState,
    fresh: bool,
    knowledge: Knowledge,
    // Every play of the hand so far, in order, and the cards each seat has played.
    plays: Vec<(usize, Card)>,
    played_by: PerSeat<CardMultiset>,
}

impl Root {
    fn of(rules: &Ruleset, obs: &Value) -> Result<Root, Error> {
        let n = rules.players();
        let k = knowledge_from_observation(rules, obs)?;
        if field(obs, "phase")?.as_str() != Some("play")
            || field(obs, "to_move")?.as_u64() != Some(k.seat as u64)
        {
            return Err(invalid(format!("seat {} is not to play", k.seat)));
        }
        let dealer = seat_of(field(obs, "dealer")?, n, "dealer")?;
        let base = public_state(rules, obs, &k)?;
        let fresh = base.played().is_empty();
        let mut probe = base;
        probe.set_hand(k.seat, k.hand);
        if fresh {
            probe.start_play(rules, dealer);
        }
        if probe.to_move() != k.seat || probe.legal_plays(rules).is_empty() {
            return Err(invalid(format!("seat {} is not to play", k.seat)));
        }
        let history = history_of(rules, obs)?;
        let plays: Vec<(usize, Card)> = history
            .tricks
            .iter()
            .flat_map(|(t, _)| t.iter().copied())
            .chain(history.trick.iter().copied())
            .collect();
        let mut played_by = PerSeat::splat(CardMultiset::EMPTY);
        for &(s, c) in &plays {
            played_by[s].insert(c);
        }
        Ok(Root {
            seat: k.seat,
            dealer,
            base,
            probe,
            fresh,
            knowledge: k,
            plays,
            played_by,
        })
    }

    // The state of the hand in `layout`, the observer to play.
    #[inline]
    fn state(&self, rules: &Ruleset, layout: &Layout) -> HandState {
        let mut h = self.base;
        for (s, cards) in layout.iter().enumerate().take(rules.players()) {
            h.set_hand(s, *cards);
        }
        if self.fresh {
            h.start_play(rules, self.dealer);
        }
        h
    }
}

// A weighted pool of layouts: drawn from the exact sampler, each weighed by the likelihood of
// the other seats' plays of this hand under the policy, replayed from the first lead in it. A
// play with a choice counts `1 / |tied|` when it is among the policy's best-rated cards and
// `eps[s]` otherwise, where `eps[s]` measures how far seat `s` is from a policy player: the
// fewest plays against the policy that the pool's layouts need from it, out of its plays
// (`(fewest + 1/2) / (plays + 1)`, within [0.02, 0.5]). A policy player's plays thus weigh
// heavily, and those of a seat that plays otherwise hardly move the belief. Drawing from the
// pool by weight is sampling-importance-resampling.
struct Belief {
    pool: Vec<Layout>,
    // Cumulative weights, for drawing by weight.
    cumulative: Vec<f64>,
}

// The pass the searcher received (Style::weigh_passes), to weigh a layout by: who passed it,
// the cards, and what the passer received in turn where the searcher knows it (its own pass).
#[derive(Clone, Copy)]
struct Receipt {
    from: usize,
    cards: u64,
    from_got: Option<u64>,
}

impl Receipt {
    // A card of the received pass that the policy would not have passed from the passer's
    // hand counts this much, as a play against the policy does at the most (Belief::new).
    const MISS: f64 = 0.5;

    // The receipt of the searcher of `obs`, if it has one and the table one pack.
    fn of(rules: &Ruleset, obs: &Value, seat: usize) -> Result<Option<Receipt>, Error> {
        if rules.packs() != 1 {
            return Ok(None);
        }
        let passes = Passes::of_observer(rules, obs, seat)?;
        let Some(received) = passes.received[seat] else {
            return Ok(None);
        };
        let dir = field(obs, "pass_direction")?
            .as_str()
            .and_then(PassDirection::from_name)
            .ok_or_else(|| invalid("a pass happened without a pass direction"))?;
        let from = dir.source(seat, rules.players());
        Ok((from != seat).then(|| Receipt {
            from,
            cards: received.set,
            from_got: passes.received[from].map(|got| got.set),
        }))
    }

    // The log of how likely the receipt is from the passer's cards `after` (in hand and
    // played, after the exchange), its own receipt drawn from them where unknown.
    fn log_likelihood(&self, policy: &Policy, after: u64, rng: &mut SplitMix64) -> f64 {
        let size = self.cards.count_ones() as usize;
        let got = self
            .from_got
            .unwrap_or_else(|| random_subset(after & !self.cards, size, rng));
        let before = (after & !got) | self.cards;
        let hand = CardMultiset {
            set: before,
            twice: 0,
        };
        let passed = policy.pass(hand, size, &mut None);
        let misses = size - (passed & self.cards).count_ones() as usize;
        misses as f64 * Self::MISS.ln()
    }
}

// `k` of the cards of `cards`, drawn uniformly.
fn random_subset(mut cards: u64, k: usize, rng: &mut SplitMix64) -> u64 {
    let mut chosen = 0;
    for _ in 0..k.min(cards.count_ones() as usize) {
        let mut skip = rng.below(u64::from(cards.count_ones()));
        let mut rest = cards;
        while skip > 0 {
            rest &= rest - 1;
            skip -= 1;
        }
        let bit = rest & rest.wrapping_neg();
        chosen |= bit;
        cards &= !bit;
    }
    chosen
}

impl Belief {
    fn new(
        rules: &Ruleset,
        policy: &Policy,
        root: &Root,
        receipt: Option<Receipt>,
        sampler: &Sampler,
        size: usize,
        rng: &mut SplitMix64,
    ) -> Belief {
        let n = rules.players();
        let mut pool = Vec::with_capacity(size);
        // Per layout: the log of the matched plays' 1/|tied|, and each seat's misses.
        let mut matched = Vec::with_capacity(size);
        let mut misses: Vec<[u8; MAX_PLAYERS]> = Vec::with_capacity(size);
        let mut plays = [0u32; MAX_PLAYERS];
        for &(s, _) in &root.plays {
            plays[s] += 1;
        }
        for _ in 0..size {
            let layout = sampler.sample(rng);
            let mut hands = [CardMultiset::EMPTY; MAX_PLAYERS];
            for s in 0..n {
                hands[s] = layout[s].plus(root.played_by[s]);
            }
            let mut h = HandState::new(rules, &hands, root.dealer);
            let mut log = 0.0f64;
            let mut miss = [0u8; MAX_PLAYERS];
            for &(s, c) in &root.plays {
                if s != root.seat {
                    let legal = h.legal_plays(rules).0;
                    if legal.count_ones() > 1 {
                        let tied = policy.choices(&h, legal);
                        if tied & c.bit() != 0 {
                            log -= f64::from(tied.count_ones()).ln();
                        } else {
                            miss[s] = miss[s].saturating_add(1);
                        }
                    }
                }
                h.play_unchecked(rules, c);
            }
            if let Some(r) = receipt {
                let after = layout[r.from].plus(root.played_by[r.from]).set;
                log += r.log_likelihood(policy, after, rng);
            }
            pool.push(layout);
            matched.push(log);
            misses.push(miss);
        }
        let mut log_eps = [0.0f64; MAX_PLAYERS];
        for s in 0..n {
            let fewest = misses.iter().map(|m| m[s]).min().unwrap_or(0);
            let eps = ((f64::from(fewest) + 0.5) / (f64::from(plays[s]) + 1.0)).clamp(0.02, 0.5);
            log_eps[s] = eps.ln();
        }
        let logs: Vec<f64> = matched
            .iter()
            .zip(&misses)
            .map(|(m, miss)| m + (0..n).map(|s| f64::from(miss[s]) * log_eps[s]).sum::<f64>())
            .collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        let cumulative = logs
            .iter()
            .map(|l| {
                total += (l - top).exp();
                total
            })
            .collect();
        Belief { pool, cumulative }
    }

    fn draw(&self, rng: &mut SplitMix64) -> Layout {
        let total = *self.cumulative.last().expect("the pool is not empty");
        let x = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
        let i = self
            .cumulative
            .partition_point(|&c| c <= x)
            .min(self.pool.len() - 1);
        self.pool[i]
    }
}

// The layouts a belief weighs: a quarter of the playouts (in a decision's few thousand
// layouts the heavy ones recur, and a larger pool measured no better), a time budget taken at
// about 200 playouts a millisecond.
fn pool_size(budget: Budget) -> usize {
    let playouts = budget
        .playouts
        .unwrap_or(u64::MAX)
        .min(budget.time.map_or(u64::MAX, |t| t.as_millis() as u64 * 200));
    (playouts / 4).clamp(64, 8192) as usize
}

// One card of each class of legal cards that no play can tell apart: neighbours in a suit with
// equal points and nothing live between them (only cards of completed tricks, or of no deck).
// With two packs (RS-21) a card whose other copy is live (held by anyone, the mover included,
// or in the trick) is a class of its own: which of two identical cards was played first, and
// whether they cancel (PLAY-9), tells it from its neighbours.
fn distinct_cards(rules: &Ruleset, h: &HandState, legal: u64) -> Vec<Card> {
    let deck = rules.deck_cards();
    let trick: CardMultiset = h.trick().map(|(_, c)| c).collect();
    let done = h.played().minus(trick);
    // The cards with no copy left outside the completed tricks, and those with two.
    let dead = done.twice | (done.set & !deck.twice);
    let live = deck.set & !dead;
    let paired = live & !(done.set) & deck.twice;
    let mut out = Vec::new();
    for mask in SUIT_MASKS {
        let mut open: Option<i32> = None;
        for c in CardSet(mask & live) {
            if legal & c.bit() == 0 {
                open = None;
                continue;
            }
            if paired & c.bit() != 0 {
                out.push(c);
                open = None;
                continue;
            }
            let points = rules.points_of(c);
            if open != Some(points) {
                out.push(c);
                open = Some(points);
            }
        }
    }
    out
}

// A card decision: the observer's position and one card of each class of its legal cards
// that no play can tell apart.
struct CardDecision {
    root: Root,
    cards: Vec<Card>,
}

impl CardDecision {
    fn of(rules: &Ruleset, obs: &Value) -> Result<CardDecision, Error> {
        let root = Root::of(rules, obs)?;
        let legal = root.probe.legal_plays(rules).0;
        let cards = distinct_cards(rules, &root.probe, legal);
        Ok(CardDecision { root, cards })
    }
}

// Where a card decision's layouts come from: the exact sampler, and the belief that weighs its
// layouts once another seat has played.
struct CardLayouts {
    sampler: Sampler,
    belief: Option<Belief>,
}

impl CardLayouts {
    // Draws the belief's pool from `rng`, sized for `budget`.
    fn new(
        rules: &Ruleset,
        obs: &Value,
        policy: &Policy,
        root: &Root,
        budget: Budget,
        weigh_passes: bool,
        rng: &mut SplitMix64,
    ) -> Result<CardLayouts, Error> {
        let excluded = play_exclusions(rules, obs)?;
        let sampler = Sampler::with_exclusions(rules, &root.knowledge, &excluded)?;
        let receipt = if weigh_passes {
            Receipt::of(rules, obs, root.seat)?
        } else {
            None
        };
        // Before any other seat has played, or passed to it, there is nothing to weigh.
        let belief =
            (receipt.is_some() || root.plays.iter().any(|&(s, _)| s != root.seat)).then(|| {
                let size = pool_size(budget);
                Belief::new(rules, policy, root, receipt, &sampler, size, rng)
            });
        Ok(CardLayouts { sampler, belief })
    }

    fn draw(&self, rng: &mut SplitMix64) -> Layout {
        match &self.belief {
            Some(b) => b.draw(rng),
            None => self.sampler.sample(rng),
        }
    }
}

// A card's playouts ended by a network's value at the searcher's next decision (Style::leaves).
struct Leaves<'n> {
    net: &'n Network,
    standing: Standing,
    passes: Passes,
    // What the hand gives out: every card's points (one pack, every card dealt: DEAL-1), those
    // of a trick still on the table included.
    total: i32,
    encoding: Vec<i32>,
    scratch: Scratch,
}

impl<'n> Leaves<'n> {
    // Scores are margins in points times this, so that a value's fractions count.
    const SCALE: i64 = 1000;

    // Whether a search judged by `judge` may end its playouts by a value (the style's own
    // settings are `Style::check`'s): a table the value cannot judge is the player's setup, not
    // the observation's fault.
    fn check(rules: &Ruleset, judge: &Judge<'_>) -> Result<(), Error> {
        let refused = if !matches!(judge, Judge::Points) {
            "the leaves' value is a hand's points: objective points outside a count-down hand"
        } else if rules.packs() != 1 {
            "the leaves' value is for tables of one pack"
        } else {
            return Ok(());
        };
        Err(Error::new(
            ErrorCode::InvalidSetup,
            format!("invalid setup: {refused}"),
        ))
    }

    fn new(
        rules: &Ruleset,
        obs: &Value,
        net: &'n Network,
        rollout: &Rollout<'_>,
    ) -> Result<Leaves<'n>, Error> {
        Ok(Leaves {
            net,
            standing: standing_of(rules, obs)?,
            passes: rollout.passes,
            total: rules.points_of_set(CardSet(rules.deck_cards().set)),
            encoding: vec![0; ENCODING_LENGTH],
            scratch: Scratch::default(),
        })
    }

    // Plays `h` on by the policy until `seat` is to decide again (exact ties drawn from
    // `seed`), then scores it by the value of `seat`'s view; a hand that ends first is scored
    // as it ended.
    #[allow(clippy::too_many_arguments)]
    fn score(
        &mut self,
        rules: &Ruleset,
        policy: &Policy,
        mut h: HandState,
        mut played_by: PerSeat<CardMultiset>,
        seed: u64,
        seat: usize,
        judge: &mut Judge<'_>,
    ) -> i64 {
        let mut rng = SplitMix64::new(seed);
        let mut tie = Some(&mut rng);
        while !h.is_complete(rules) && h.to_move() != seat {
            let mover = h.to_move();
            let card = policy.play(rules, &h, &mut tie);
            played_by[mover].insert(card);
            h.play_unchecked(rules, card);
        }
        if h.is_complete(rules) {
            return judge.score(rules, &h, seat) * Self::SCALE;
        }
        self.passes.encode(
            rules,
            &h,
            &played_by,
            &self.standing,
            seat,
            &mut self.encoding,
        );
        let value = f64::from(self.net.leaf_value(&self.encoding, &mut self.scratch));
        Self::margin(value, self.total, rules.players())
    }

    // The margin (times SCALE) of a seat expected to score `value` of a hand that gives out
    // `total` points among `n` seats: its score minus the others' mean, `(total - value) / (n - 1)`
    // (no moon).
    fn margin(value: f64, total: i32, n: usize) -> i64 {
        let margin = (n as f64 * value - f64::from(total)) / (n as f64 - 1.0);
        (margin * Self::SCALE as f64).round() as i64
    }
}

fn search_card(
    rules: &Ruleset,
    obs: &Value,
    budget: Budget,
    style: Style,
    seed: u64,
    start: Stopwatch<'_>,
    judge: &mut Judge<'_>,
) -> Result<Card, Error> {
    let CardDecision { root, cards } = CardDecision::of(rules, obs)?;
    if cards.len() == 1 {
        return Ok(cards[0]);
    }
    let policy = Policy::new(rules);
    let rollout = Rollout {
        policy: &policy,
        players: Players::of(rules, obs, style)?,
        passes: Passes::of_observer(rules, obs, root.seat)?,
    };
    let mut rng = SplitMix64::new(seed);
    let layouts = CardLayouts::new(
        rules,
        obs,
        &policy,
        &root,
        budget,
        style.weigh_passes,
        &mut rng,
    )?;
    // Each card is tried under every plan, in the same layouts: the better plan of a card is
    // chosen from what the observer knows, as the card is, never from the hidden cards.
    let plans = Plan::for_root(rules, &root, style);
    let threat = style.threat(rules, &root);
    let mut leaves = match style.leaves {
        None => None,
        Some(net) => Some(Leaves::new(rules, obs, net, &rollout)?),
    };
    let best = halving(
        cards.len() * plans.len(),
        budget,
        start,
        &mut rng,
        |r| layouts.draw(r),
        |layout, arm, s| {
            let mut h = root.state(rules, layout);
            let card = cards[arm % cards.len()];
            h.play_unchecked(rules, card);
            let mut played_by = root.played_by;
            played_by[root.seat].insert(card);
            let plan = plans[arm / cards.len()];
            match &mut leaves {
                Some(leaves) if plan == Plan::Policy => {
                    leaves.score(rules, &policy, h, played_by, s, root.seat, judge)
                }
                _ => {
                    // The layout's shared seed says whether the threat runs in it.
                    let threat = threat.filter(|_| s >> 63 == 1);
                    let shooter = plan.shooter(root.seat, threat);
                    let end = finish(rules, &rollout, h, played_by, s, shooter, root.seat);
                    judge.score(rules, &end, root.seat) * Leaves::SCALE
                }
            }
        },
    );
    Ok(cards[best % cards.len()])
}

// The observer's dealt hand, the pass size and direction, checking that it is to pass.
fn pass_setup(rules: &Ruleset, obs: &Value) -> Result<(CardMultiset, usize, PassDirection), Error> {
    let n = rules.players();
    let seat = seat_of(field(obs, "seat")?, n, "seat")?;
    let awaiting = field(obs, "awaiting_pass")?
        .as_array()
        .ok_or_else(|| invalid("awaiting_pass must be a list"))?;
    if field(obs, "phase")?.as_str() != Some("pass")
        || !field(obs, "passed")?.is_null()
        || !awaiting.iter().any(|s| s.as_u64() == Some(seat as u64))
    {
        return Err(invalid(format!("seat {seat} is not to pass")));
    }
    let direction = field(obs, "pass_direction")?
        .as_str()
        .and_then(PassDirection::from_name)
        .filter(|&d| d != PassDirection::Hold)
        .ok_or_else(|| invalid("a pass needs a pass direction"))?;
    let size = rules
        .passing()
        .map(|p| p.size)
        .ok_or_else(|| invalid("the ruleset has no passing"))?;
    let k = knowledge_from_observation(rules, obs)?;
    if k.hand.len() < size {
        return Err(invalid("the hand is smaller than a pass"));
    }
    Ok((k.hand, size, direction))
}

// The passes worth searching: the policy's, every choice among the most dangerous cards (by
// the policy's measure), and each void of a short side suit filled with the most dangerous
// cards. The policy's comes first, so that it wins ties. A pass holds distinct cards, as the
// policy's does (with two packs, RS-21, one copy of a card held twice).
fn pass_candidates(policy: &Policy, hand: CardMultiset, size: usize) -> Vec<u64> {
    let lengths = crate::policy::lengths(hand);
    let mut order: Vec<Card> = hand.distinct().into_iter().collect();
    order.sort_by_key(|&c| (-policy.pass_danger(c, &lengths), c.id()));
    let mut out = vec![policy.pass(hand, size, &mut None)];
    // The most cards whose choices of `size` number at most 64 (every choice of the whole hand
    // measured no better: the first rounds spread too thin).
    let mut top = size;
    while top < order.len() && binomial(top + 1, size) <= 64 {
        top += 1;
    }
    let mut pick: Vec<usize> = (0..size).collect();
    loop {
        out.push(pick.iter().fold(0u64, |m, &i| m | order[i].bit()));
        // The next combination in lexicographic order.
        let Some(i) = (0..size).rev().find(|&i| pick[i] < top - size + i) else {
            break;
        };
        pick[i] += 1;
        for j in i + 1..size {
            pick[j] = pick[j - 1] + 1;
        }
    }
    for mask in SUIT_MASKS {
        let suit = hand.set & mask;
        // A suit with a card held twice cannot be emptied by a pass of distinct cards.
        if suit == 0 || suit.count_ones() as usize > size || hand.twice & mask != 0 {
            continue;
        }
        let mut pass = suit;
        for c in &order {
            if pass.count_ones() as usize == size {
                break;
            }
            pass |= c.bit();
        }
        out.push(pass);
    }
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|&p| {
        let new = !seen.contains(&p);
        seen.push(p);
        new
    });
    out
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1usize, |acc, i| acc * (n - i) / (i + 1))
}

// A pass decision: the observer's dealt hand, the pass's size and direction, and where the
// deals come from.
struct PassDecision {
    seat: usize,
    dealer: usize,
    hand: CardMultiset,
    size: usize,
    direction: PassDirection,
    policy: Policy,
}

impl PassDecision {
    fn of(rules: &Ruleset, obs: &Value) -> Result<PassDecision, Error> {
        let n = rules.players();
        let (hand, size, direction) = pass_setup(rules, obs)?;
        Ok(PassDecision {
            seat: seat_of(field(obs, "seat")?, n, "seat")?,
            dealer: seat_of(field(obs, "dealer")?, n, "dealer")?,
            hand,
            size,
            direction,
            policy: Policy::new(rules),
        })
    }

    // A deal drawn from `sampler`, and the others' passes in it (made before anyone sees
    // another's).
    fn world(
        &self,
        rules: &Ruleset,
        sampler: &Sampler,
        r: &mut SplitMix64,
    ) -> (Layout, [u64; MAX_PLAYERS]) {
        let deal = sampler.sample(r);
        let mut passes = [0u64; MAX_PLAYERS];
        for s in (0..rules.players()).filter(|&s| s != self.seat) {
            passes[s] = self.policy.pass(deal[s], self.size, &mut Some(&mut *r));
        }
        (deal, passes)
    }

    // The hands after every seat passes its `passes` from `deal`, and what each then knows:
    // every pass is known in a drawn deal, each seat seeing its own and its receipt.
    fn exchange(
        &self,
        rules: &Ruleset,
        deal: &Layout,
        passes: &[u64; MAX_PLAYERS],
    ) -> (Layout, Passes) {
        let n = rules.players();
        let mut hands = PerSeat::splat(CardMultiset::EMPTY);
        let mut known = Passes::UNKNOWN;
        for (to, cards) in hands.iter_mut().enumerate().take(n) {
            let from = self.direction.source(to, n);
            let (given, got) = (
                CardMultiset::from_set(CardSet(passes[to])),
                CardMultiset::from_set(CardSet(passes[from])),
            );
            *cards = deal[to].minus(given).plus(got);
            known.passed[to] = Some(given);
            known.received[to] = Some(got);
        }
        (hands, known)
    }

    // The hand played out by `players` from `deal` after the observer passes `pass` and the
    // others `passes`.
    fn play(
        &self,
        rules: &Ruleset,
        players: Players<'_>,
        (deal, passes): &(Layout, [u64; MAX_PLAYERS]),
        pass: u64,
        seed: u64,
        plan: Plan,
    ) -> HandState {
        let mut passes = *passes;
        passes[self.seat] = pass;
        let (hands, known) = self.exchange(rules, deal, &passes);
        let h = HandState::new(rules, &hands[..], self.dealer);
        let rollout = Rollout {
            policy: &self.policy,
            players,
            passes: known,
        };
        let played_by = PerSeat::splat(CardMultiset::EMPTY);
        let shooter = plan.shooter(self.seat, None);
        finish(rules, &rollout, h, played_by, seed, shooter, self.seat)
    }
}

fn search_pass(
    rules: &Ruleset,
    obs: &Value,
    budget: Budget,
    style: Style,
    seed: u64,
    start: Stopwatch<'_>,
    judge: &mut Judge<'_>,
) -> Result<u64, Error> {
    let decision = PassDecision::of(rules, obs)?;
    let candidates = pass_candidates(&decision.policy, decision.hand, decision.size);
    // One more candidate where the ruleset has a moon: the pass of a hand going for it, played
    // on going for it (the policy's candidates are played on by the policy, which never does).
    let moon = style
        .tries_moon(rules)
        .then(|| moon_pass(&decision.policy, decision.hand, decision.size));
    if candidates.len() == 1 && moon.is_none() {
        return Ok(candidates[0]);
    }
    let sampler = Sampler::new(rules, &knowledge_from_observation(rules, obs)?)?;
    let players = Players::of(rules, obs, style)?;
    let mut rng = SplitMix64::new(seed);
    let arm = |arm: usize| match moon {
        Some(pass) if arm == candidates.len() => (pass, Plan::Moon),
        _ => (candidates[arm], Plan::Policy),
    };
    let best = halving(
        candidates.len() + usize::from(moon.is_some()),
        budget,
        start,
        &mut rng,
        |r| decision.world(rules, &sampler, r),
        |world, at, s| {
            let (pass, plan) = arm(at);
            let h = decision.play(rules, players, world, pass, s, plan);
            judge.score(rules, &h, decision.seat)
        },
    );
    Ok(arm(best).0)
}

// The pass of a hand going for the moon: the cards the policy would least like to be rid of
// (the low cards that cannot win a trick), keeping the high ones that can.
fn moon_pass(policy: &Policy, hand: CardMultiset, size: usize) -> u64 {
    let lengths = crate::policy::lengths(hand);
    let mut order: Vec<Card> = hand.distinct().into_iter().collect();
    order.sort_by_key(|&c| (policy.pass_danger(c, &lengths), c.id()));
    order[..size].iter().fold(0u64, |m, c| m | c.bit())
}

// The moon choice, evaluated exactly: both choices leave the taker the same distance from every
// other seat, so they differ only in where the totals stand. A choice that ends the match with
// the taker winning alone is best, then one that ends it in a shared win; one that ends it with
// the taker losing is worst. Otherwise, leading (or level), the taker adds to the others, which
// brings the end nearer; trailing, it subtracts from itself, which puts the end off.
fn moon_choice(rules: &Ruleset, obs: &Value) -> Result<MoonChoice, Error> {
    let moon = MoonDecision::of(rules, obs)?;
    moon_choice_of(rules, moon.shot, &moon.points, &moon.scores)
}

// A moon choice to make: the observer's shot, every seat's points of the hand as captured and
// the match totals before it.
struct MoonDecision {
    shot: Shot,
    points: Vec<i128>,
    scores: Vec<i128>,
}

impl MoonDecision {
    fn of(rules: &Ruleset, obs: &Value) -> Result<MoonDecision, Error> {
        let n = rules.players();
        let seat = seat_of(field(obs, "seat")?, n, "seat")?;
        if field(obs, "moon_taker")?.as_u64() != Some(seat as u64) {
            return Err(invalid(format!("seat {seat} has no moon choice to make")));
        }
        let numbers = |key: &str| -> Result<Vec<i128>, Error> {
            field(obs, key)?
                .as_array()
                .filter(|v| v.len() == n)
                .and_then(|v| {
                    v.iter()
                        .map(|x| {
                            x.as_i64()
                                .map(i128::from)
                                .or_else(|| x.as_u64().map(i128::from))
                        })
                        .collect()
                })
                .ok_or_else(|| invalid(format!("{key} must hold one integer per seat")))
        };
        let shot = shot_of(rules, obs)?
            .filter(|s| s.taker == seat)
            .ok_or_else(|| {
                invalid(format!(
                    "seat {seat} shot nothing that replaces the hand's scores"
                ))
            })?;
        Ok(MoonDecision {
            shot,
            points: numbers("points")?,
            scores: numbers("scores")?,
        })
    }
}

// Every seat's hand score when the taker of `shot` makes `choice`, from the points it captured
// (the kernel's, SCORE-2, SCORE-5).
fn shot_scores(
    rules: &Ruleset,
    shot: Shot,
    points: &[i128],
    choice: MoonChoice,
) -> Result<Vec<i32>, Error> {
    let mut hand: Vec<i32> = points
        .iter()
        .map(|&p| i32::try_from(p).map_err(|_| invalid("points out of range")))
        .collect::<Result<_, _>>()?;
    Scoring::new(rules).score_shot(&mut hand, shot, choice);
    Ok(hand)
}

// The shot of the hand of `obs` (SCORE-2), from its tricks (OBS-1): their races replayed
// by the kernel's plan of scoring, a trick held over going to the next trick's winner (PLAY-9).
fn shot_of(rules: &Ruleset, obs: &Value) -> Result<Option<Shot>, Error> {
    let scoring = Scoring::new(rules);
    let tricks = field(obs, "tricks")?
        .as_array()
        .ok_or_else(|| invalid("tricks must be a list"))?;
    let (mut races, mut held) = (Races::START, 0u64);
    for trick in tricks {
        let cards = trick
            .get("cards")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("a trick must hold its cards"))?;
        for play in cards {
            let card: Card = play
                .get("card")
                .and_then(Value::as_str)
                .and_then(|c| c.parse().ok())
                .ok_or_else(|| invalid("a trick's card must be a card"))?;
            held |= card.bit();
        }
        if let Some(w) = trick.get("winner").and_then(Value::as_u64) {
            races = scoring.capture(
                races,
                seat_of(&Value::from(w), rules.players(), "winner")?,
                held,
            );
            held = 0;
        }
    }
    Ok(scoring.shot(races, false))
}

// The moon choice of the taker of `shot` (under any rule of `Scoring::shot_rules`), from every seat's points of
// the hand, as captured, and the match totals before it (one entry per seat of the table each).
// The hand's scores under each choice are the kernel's (SCORE-2, SCORE-5).
pub(crate) fn moon_choice_of(
    rules: &Ruleset,
    shot: Shot,
    points: &[i128],
    scores: &[i128],
) -> Result<MoonChoice, Error> {
    let n = rules.players();
    if !shot.awaits_choice() {
        return Err(invalid("the ruleset gives no moon choice"));
    }
    let seat = shot.taker;
    // Without a target only the number of deals ends the match, which this ranking leaves out.
    let target = rules.target().map_or(i128::MAX, i128::from);
    let rank = |choice: MoonChoice| -> Result<_, Error> {
        let hand = shot_scores(rules, shot, points, choice)?;
        let totals: Vec<i128> = (0..n).map(|s| scores[s] + i128::from(hand[s])).collect();
        let low = *totals.iter().min().expect("a table has seats");
        let winners = totals.iter().filter(|&&t| t == low).count();
        let lead = totals[seat]
            - (0..n)
                .filter(|&s| s != seat)
                .map(|s| totals[s])
                .min()
                .unwrap_or(0);
        let preferred = (choice == MoonChoice::AddToOthers) == (lead <= 0);
        let standing = if totals.iter().all(|&t| t < target) {
            2
        } else if totals[seat] != low {
            4
        } else if winners == 1 {
            0
        } else {
            1
        };
        Ok((standing, !preferred))
    };
    let add = rank(MoonChoice::AddToOthers)?;
    let subtract = rank(MoonChoice::SubtractFromTaker)?;
    Ok(if subtract < add {
        MoonChoice::SubtractFromTaker
    } else {
        MoonChoice::AddToOthers
    })
}

/// One candidate of a decision with what it is expected to score, from [`evaluate_decision`].
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The action ids (ACT-2) that make it, as [`search_decision`] gives a decision.
    pub action: Vec<u16>,
    /// The observer's expected score for the hand, in the ruleset's points (SCORE-1: what the
    /// hand adds to its total, the moon rule included), over the layouts measured; lower is
    /// better.
    pub points: f64,
    /// The expected own hand score minus the other seats' mean hand score, in points: the
    /// measure the search minimises (own points alone ignore what the others take).
    pub margin: f64,
}

/// A decision of the observer reviewed from its observation: the search player's choice and an
/// estimate of each candidate, from [`evaluate_decision`].
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// What the search player chooses: [`search_decision`] with the same budget and seed.
    pub choice: Vec<u16>,
    /// The candidates with their estimates: every legal card of the observer in card order,
    /// the search's pass then the pass given, or both moon choices (add, then subtract).
    pub estimates: Vec<Estimate>,
    /// The layouts of the hidden cards each estimate was measured on, the same for every
    /// candidate (0 for a moon choice, which is exact).
    pub layouts: u64,
}

/// Reviews the decision the observer of `obs` (OBS-1) has to make under `rules`, from the
/// observation alone: the search player's choice, exactly [`search_decision`] with a budget of
/// `playouts` and `seed`, and what each candidate is expected to score for the observer.
///
/// - Phase `play`: every legal card of the observer. The cards are played in the same layouts
///   of the hidden cards, drawn as the search draws them (uniformly among those consistent with
///   what the observer knows, then weighed by the belief of how the other seats' plays so far
///   fit the rule-based player), and each hand finished by every seat following the search's
///   playout policy (and, where the search tries it, the observer also going for the moon, a
///   card taking the better of its two estimates by margin); one card of each class that no
///   play can tell apart is measured, and the others of its class get its estimate. Each card is measured on `playouts / classes`
///   layouts (at least one; `playouts / (2 × classes)` with the moon tried too), so that the
///   estimates cost about the playouts of the search.
/// - Phase `pass`: the search's pass, then `action` (a pass of the observer, as the ids
///   `52 + c`) where it differs, each on the same `4 × playouts / candidates` deals (a pass gets
///   [`Budget::PASS_FACTOR`] times the budget, as in the search; half as many where the ruleset
///   has a moon, each pass then played on both by the policy and going for the moon, and
///   estimated by the better), the other seats' passes drawn from the rule-based player in
///   each.
/// - Phase `moon`: both choices with the hand's exact scores under each (the search decides by
///   the match totals, [`search_decision`]).
///
/// `action`, where given, must be a decision the observer may make (a legal card, a pass of
/// `size` distinct cards of its hand, a moon choice); in phase `play` and `moon` every
/// candidate is measured anyway. Deterministic for `seed`.
///
/// # Errors
///
/// `invalid-action` if the observation is malformed or inconsistent (a field missing
/// included), the observer has no decision to make, `playouts` is 0, or `action` is not one
/// the observer may make.
pub fn evaluate_decision(
    rules: &Ruleset,
    obs: &Value,
    playouts: u64,
    seed: u64,
    action: Option<&[u16]>,
) -> Result<Evaluation, Error> {
    let budget = Budget::playouts(playouts);
    budget.check()?;
    match field(obs, "phase")?.as_str() {
        Some("play") => evaluate_card(rules, obs, playouts, seed, action),
        Some("pass") => evaluate_pass(rules, obs, playouts, seed, action),
        Some("moon") => evaluate_moon(rules, obs, action),
        _ => Err(invalid("the observer has no decision to make")),
    }
}

// The search's decision with a budget of `playouts` alone, which reads no clock (there is none
// to read on `wasm32-unknown-unknown`): the same as `search_decision`'s.
fn searched(rules: &Ruleset, obs: &Value, playouts: u64, seed: u64) -> Result<Vec<u16>, Error> {
    let no_clock = || Duration::ZERO;
    search_decision_timed(rules, obs, Budget::playouts(playouts), seed, &no_clock)
}

// Sums of a candidate's hand scores over layouts, as estimates.
#[derive(Clone, Copy, Default)]
struct Tally {
    points: i64,
    margin: i64,
}

impl Tally {
    fn add(&mut self, rules: &Ruleset, judge: &Judge<'_>, h: &HandState, seat: usize) {
        let scores = judge.hand_scores(rules, h);
        self.points += i64::from(scores[seat]);
        self.margin += margin(&scores, seat, rules.players());
    }

    fn estimate(self, rules: &Ruleset, action: Vec<u16>, layouts: u64) -> Estimate {
        let layouts = layouts as f64;
        Estimate {
            action,
            points: self.points as f64 / layouts,
            margin: self.margin as f64 / layouts / (rules.players() - 1) as f64,
        }
    }
}

// Candidate `i`'s tally under the plan that served it best (the least margin), of tallies per
// plan.
fn better_plan(tallies: &[Vec<Tally>], i: usize) -> Tally {
    tallies
        .iter()
        .map(|row| row[i])
        .min_by_key(|t| t.margin)
        .expect("at least one plan")
}

fn evaluate_card(
    rules: &Ruleset,
    obs: &Value,
    playouts: u64,
    seed: u64,
    action: Option<&[u16]>,
) -> Result<Evaluation, Error> {
    let CardDecision { root, cards } = CardDecision::of(rules, obs)?;
    let legal = root.probe.legal_plays(rules);
    if let Some(ids) = action {
        let played = match ids {
            [id] => Card::from_id(u32::from(*id)),
            _ => None,
        };
        if !played.is_some_and(|c| legal.contains(c)) {
            return Err(invalid(format!(
                "{ids:?} is not a legal card of seat {}",
                root.seat
            )));
        }
    }
    let choice = searched(rules, obs, playouts, seed)?;
    let judge = Judge::new(rules, obs, Objective::Points, seed)?;
    let policy = Policy::new(rules);
    let mut rng = SplitMix64::new(seed);
    let worlds = CardLayouts::new(
        rules,
        obs,
        &policy,
        &root,
        Budget::playouts(playouts),
        false,
        &mut rng,
    )?;
    let plans = Plan::for_root(rules, &root, Style::default());
    // The review's playouts are the rule-based policy's, as the default search's.
    let rollout = Rollout {
        policy: &policy,
        players: Players::Policy,
        passes: Passes::UNKNOWN,
    };
    let layouts = (playouts / (cards.len() * plans.len()) as u64).max(1);
    // Per plan, per card; a card is estimated by its better plan, as the search chooses.
    let mut tallies = vec![vec![Tally::default(); cards.len()]; plans.len()];
    for _ in 0..layouts {
        let layout = worlds.draw(&mut rng);
        let s = rng.next_u64();
        for (plan, row) in plans.iter().zip(tallies.iter_mut()) {
            for (tally, &card) in row.iter_mut().zip(&cards) {
                let mut h = root.state(rules, &layout);
                h.play_unchecked(rules, card);
                let mut played_by = root.played_by;
                played_by[root.seat].insert(card);
                tally.add(
                    rules,
                    &judge,
                    &finish(
                        rules,
                        &rollout,
                        h,
                        played_by,
                        s,
                        plan.shooter(root.seat, None),
                        root.seat,
                    ),
                    root.seat,
                );
            }
        }
    }
    let tallies: Vec<Tally> = (0..cards.len()).map(|i| better_plan(&tallies, i)).collect();
    // A card is measured by the one its class was measured by: the last before it in its suit.
    let estimates = legal
        .into_iter()
        .map(|c| {
            let class = cards
                .iter()
                .rposition(|r| r.suit() == c.suit() && r.id() <= c.id())
                .expect("every legal card is in a class");
            tallies[class].estimate(rules, vec![u16::from(c.id())], layouts)
        })
        .collect();
    Ok(Evaluation {
        choice,
        estimates,
        layouts,
    })
}

fn evaluate_pass(
    rules: &Ruleset,
    obs: &Value,
    playouts: u64,
    seed: u64,
    action: Option<&[u16]>,
) -> Result<Evaluation, Error> {
    let decision = PassDecision::of(rules, obs)?;
    let given = action.map(|ids| pass_of_ids(&decision, ids)).transpose()?;
    let choice = searched(rules, obs, playouts, seed)?;
    let judge = Judge::new(rules, obs, Objective::Points, seed)?;
    let mut candidates = vec![pass_of_ids(&decision, &choice)?];
    candidates.extend(given.filter(|&p| p != candidates[0]));
    let sampler = Sampler::new(rules, &knowledge_from_observation(rules, obs)?)?;
    let mut rng = SplitMix64::new(seed);
    // Each pass played on by the policy and, where the ruleset has a moon, going for it: a pass
    // is estimated by its better plan, as the search may play it either way.
    let plans: &[Plan] = if Style::default().tries_moon(rules) {
        &[Plan::Policy, Plan::Moon]
    } else {
        &[Plan::Policy]
    };
    let budget = playouts.saturating_mul(u64::from(Budget::PASS_FACTOR));
    let layouts = (budget / (candidates.len() * plans.len()) as u64).max(1);
    let mut tallies = vec![vec![Tally::default(); candidates.len()]; plans.len()];
    for _ in 0..layouts {
        let world = decision.world(rules, &sampler, &mut rng);
        let s = rng.next_u64();
        for (&plan, row) in plans.iter().zip(tallies.iter_mut()) {
            for (tally, &pass) in row.iter_mut().zip(&candidates) {
                let h = decision.play(rules, Players::Policy, &world, pass, s, plan);
                tally.add(rules, &judge, &h, decision.seat);
            }
        }
    }
    let estimates = candidates
        .iter()
        .enumerate()
        .map(|(i, &pass)| better_plan(&tallies, i).estimate(rules, pass_ids(pass), layouts))
        .collect();
    Ok(Evaluation {
        choice,
        estimates,
        layouts,
    })
}

// The cards of a pass given as its action ids, checked to be `size` distinct cards of the
// observer's hand.
fn pass_of_ids(decision: &PassDecision, ids: &[u16]) -> Result<u64, Error> {
    let mut pass = 0u64;
    for &id in ids {
        let card = id
            .checked_sub(PASS_BASE)
            .and_then(|c| Card::from_id(u32::from(c)))
            .filter(|&c| decision.hand.count(c) > 0 && pass & c.bit() == 0)
            .ok_or_else(|| {
                invalid(format!(
                    "{ids:?} is not a pass of {} distinct cards of seat {}'s hand",
                    decision.size, decision.seat
                ))
            })?;
        pass |= card.bit();
    }
    if ids.len() != decision.size {
        return Err(invalid(format!(
            "{ids:?} is not a pass of {} distinct cards of seat {}'s hand",
            decision.size, decision.seat
        )));
    }
    Ok(pass)
}

fn evaluate_moon(
    rules: &Ruleset,
    obs: &Value,
    action: Option<&[u16]>,
) -> Result<Evaluation, Error> {
    let moon = MoonDecision::of(rules, obs)?;
    if let Some(ids) = action {
        if ids != [MOON_ADD_ID] && ids != [MOON_SUBTRACT_ID] {
            return Err(invalid(format!("{ids:?} is not a moon choice")));
        }
    }
    let choice = moon_choice_of(rules, moon.shot, &moon.points, &moon.scores)?;
    let seat = moon.shot.taker;
    let n = rules.players();
    let estimates = [MoonChoice::AddToOthers, MoonChoice::SubtractFromTaker]
        .into_iter()
        .map(|how| {
            let hand = shot_scores(rules, moon.shot, &moon.points, how)?;
            let mut scores = PerSeat::splat(0i32);
            scores[..n].copy_from_slice(&hand[..n]);
            let tally = Tally {
                points: i64::from(scores[seat]),
                margin: margin(&scores, seat, n),
            };
            Ok(tally.estimate(rules, vec![moon_id(how)], 1))
        })
        .collect::<Result<_, Error>>()?;
    Ok(Evaluation {
        choice: vec![moon_id(choice)],
        estimates,
        layouts: 0,
    })
}

#[cfg(test)]
mod tests {
    use reversis_core::{encode_observation, preset, Game, ENCODING_LAYOUT};

    use super::*;

    fn set_of(text: &str) -> u64 {
        text.split_whitespace()
            .map(|c| Card::parse(c).unwrap().bit())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn a_receipt_is_as_likely_as_the_policy_would_have_passed_it() {
        let rules = preset("hearts-computer").unwrap();
        let policy = Policy::new(&rules);
        let mut rng = SplitMix64::new(0);
        // The passer's receipt was the searcher's pass: its hand before the exchange is exact.
        let got = set_of("4H 5H 6H");
        let kept = set_of("5C 6D 7D 8D 9H 2H 3H");
        // Short below the queen of spades, the policy passes it and the spades above it.
        let spades = set_of("QS KS AS");
        let clubs = set_of("2C 3C 4C");
        let mut likelihood = |passed: u64, before: u64| {
            let receipt = Receipt {
                from: 1,
                cards: passed,
                from_got: Some(got),
            };
            receipt.log_likelihood(&policy, (before & !passed) | got, &mut rng)
        };
        assert_eq!(likelihood(spades, kept | spades | clubs), 0.0);
        let missed = likelihood(clubs, kept | spades | clubs);
        assert!(
            (missed - 3.0 * Receipt::MISS.ln()).abs() < 1e-12,
            "{missed}"
        );
        // One of three: the queen passed with two low clubs, the king and ace kept.
        let two = set_of("QS 2C 3C");
        let one_miss = likelihood(two, kept | spades | clubs);
        assert!(
            (one_miss - 2.0 * Receipt::MISS.ln()).abs() < 1e-12,
            "{one_miss}"
        );
    }

    // The entries of `encoding` outside the blocks named `hidden`.
    fn without(encoding: &[i32], hidden: &[&str]) -> Vec<i32> {
        let mut out = encoding.to_vec();
        for &(name, at, len) in &ENCODING_LAYOUT {
            if hidden.contains(&name) {
                out[at..at + len].fill(0);
            }
        }
        out
    }

    // What the search's network is shown for `seat` in the true layout of `g`'s hand.
    fn shown(rules: &Ruleset, g: &Game, obs: &Value, seat: usize) -> Vec<i32> {
        let root = Root::of(rules, obs).unwrap();
        let passes = Passes::of_observer(rules, obs, root.seat).unwrap();
        let standing = standing_of(rules, obs).unwrap();
        let view = SeatView {
            hand: g.hand_state(),
            played_by: &root.played_by,
            passed: passes.passed[seat],
            received: passes.received[seat],
            scores: &standing.totals,
            phase: Phase::Play,
            to_move: Some(g.hand_state().to_move()),
            hand_number: standing.hand_number,
            selection: CardMultiset::EMPTY,
            count_down: standing.count_down,
        };
        let mut out = vec![0; ENCODING_LENGTH];
        encode_view(rules, &view, seat, &mut out).unwrap();
        out
    }

    // A format version 2 network whose logits are all 0 and whose value is `value` (binary16 bits).
    fn constant_value_network(value: u16) -> Network {
        let mut file = b"RVNN".to_vec();
        file.extend(2u16.to_le_bytes());
        file.extend(1u16.to_le_bytes());
        file.extend(0u32.to_le_bytes());
        file.extend((ENCODING_LENGTH as u32).to_le_bytes());
        file.extend(107u32.to_le_bytes());
        file.extend([0, 0, 0, 0]);
        file.extend(vec![0u8; 2 * 107 * ENCODING_LENGTH]);
        for id in 0..107 {
            file.extend((if id == 106 { value } else { 0 }).to_le_bytes());
        }
        Network::from_bytes(&file).unwrap()
    }

    #[test]
    fn a_leaf_gives_out_every_cards_points_those_of_the_trick_on_the_table_too() {
        let rules = preset("hearts-computer").unwrap();
        let net = constant_value_network(0x4900); // 10.0
        let queen = Card::parse("QS").unwrap();
        let mut rng = SplitMix64::new(5);
        let mut checked = 0;
        for seed in 0..40u64 {
            let mut g = Game::new(rules.clone(), Some(seed), 3, None).unwrap();
            while g.phase() == Phase::Play {
                let h = g.hand_state();
                if h.trick().any(|(_, c)| c == queen) {
                    let seat = h.to_move();
                    let obs = g.observation(seat).unwrap();
                    let policy = Policy::new(&rules);
                    let rollout = Rollout {
                        policy: &policy,
                        players: Players::of(&rules, &obs, Style::default()).unwrap(),
                        passes: Passes::of_observer(&rules, &obs, seat).unwrap(),
                    };
                    let root = Root::of(&rules, &obs).unwrap();
                    let mut leaves = Leaves::new(&rules, &obs, &net, &rollout).unwrap();
                    let score = leaves.score(
                        &rules,
                        &policy,
                        *h,
                        root.played_by,
                        0,
                        seat,
                        &mut Judge::Points,
                    );
                    // 10 of the 26 points the hand gives out, the queen's 13 among them: 10
                    // against the others' mean of 16 / 3, whoever has taken what so far.
                    assert_eq!(score, ((10.0 - 16.0 / 3.0) * 1000.0f64).round() as i64);
                    checked += 1;
                    break;
                }
                let ids = g.legal_actions(None).unwrap();
                g.apply_action(ids[rng.below(ids.len() as u64) as usize], None)
                    .unwrap();
            }
        }
        assert!(
            checked >= 10,
            "{checked} positions with the queen on the table"
        );
    }

    #[test]
    fn a_card_searchs_network_sees_what_each_seat_sees_where_the_searcher_knows_it() {
        let rules = preset("hearts-computer").unwrap();
        let n = rules.players();
        let mut rng = SplitMix64::new(3);
        let mut checked = 0;
        // Hand 0 passes left, hand 3 holds: each seat's pass and receipt, or none.
        for hand_number in [0u64, 3] {
            for seed in 0..4u64 {
                let mut g = Game::new(rules.clone(), Some(seed), hand_number, None).unwrap();
                while g.phase() != Phase::Play {
                    let ids = g.legal_actions(None).unwrap();
                    let id = ids[rng.below(ids.len() as u64) as usize];
                    g.apply_action(id, None).unwrap();
                }
                for _ in 0..(5 + seed as usize * 9) {
                    let ids = g.legal_actions(None).unwrap();
                    g.apply_action(ids[rng.below(ids.len() as u64) as usize], None)
                        .unwrap();
                }
                let observer = g.hand_state().to_move();
                let obs = g.observation(observer).unwrap();
                let receiver = rules
                    .pass_direction(hand_number)
                    .map_or(observer, |d| d.target(observer, n));
                for seat in 0..n {
                    let mut truth = vec![0; ENCODING_LENGTH];
                    encode_observation(&g, seat, &mut truth).unwrap();
                    let hidden: &[&str] = if seat == observer {
                        &[]
                    } else if seat == receiver {
                        &["passed"]
                    } else {
                        &["passed", "received"]
                    };
                    assert_eq!(
                        shown(&rules, &g, &obs, seat),
                        without(&truth, hidden),
                        "hand {hand_number}, seed {seed}, seat {seat} seen by {observer}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 2 * 4 * n);
    }

    #[test]
    fn a_pass_searchs_network_sees_what_each_seat_sees_at_the_first_lead() {
        let rules = preset("hearts-computer").unwrap();
        let n = rules.players();
        let mut rng = SplitMix64::new(11);
        for hand_number in [0u64, 1, 2] {
            let mut g = Game::new(rules.clone(), Some(hand_number), hand_number, None).unwrap();
            while g.phase() != Phase::Pass {
                g.apply_action(g.legal_actions(None).unwrap()[0], None)
                    .unwrap();
            }
            let obs = g.observation(0).unwrap();
            let decision = PassDecision::of(&rules, &obs).unwrap();
            let mut deal = PerSeat::splat(CardMultiset::EMPTY);
            for (s, cards) in deal.iter_mut().enumerate().take(n) {
                *cards = g.hand_state().hand(s);
            }
            let mut passes = [0u64; MAX_PLAYERS];
            while g.phase() == Phase::Pass {
                let seat = g.to_act().unwrap();
                let ids = g.legal_actions(Some(seat)).unwrap();
                let id = ids[rng.below(ids.len() as u64) as usize];
                if let Some(c) = id.checked_sub(PASS_BASE).filter(|&c| c < 52) {
                    passes[seat] ^= 1 << c;
                }
                g.apply_action(id, Some(seat)).unwrap();
            }
            let (hands, known) = decision.exchange(&rules, &deal, &passes);
            let h = HandState::new(&rules, &hands[..], decision.dealer);
            assert_eq!(&h, g.hand_state(), "hand {hand_number}");
            let standing = standing_of(&rules, &obs).unwrap();
            for seat in 0..n {
                let view = SeatView {
                    hand: &h,
                    played_by: &PerSeat::splat(CardMultiset::EMPTY),
                    passed: known.passed[seat],
                    received: known.received[seat],
                    scores: &standing.totals,
                    phase: Phase::Play,
                    to_move: Some(h.to_move()),
                    hand_number: standing.hand_number,
                    selection: CardMultiset::EMPTY,
                    count_down: standing.count_down,
                };
                let (mut shown, mut truth) = (vec![0; ENCODING_LENGTH], vec![0; ENCODING_LENGTH]);
                encode_view(&rules, &view, seat, &mut shown).unwrap();
                encode_observation(&g, seat, &mut truth).unwrap();
                assert_eq!(shown, truth, "hand {hand_number}, seat {seat}");
            }
        }
    }
}
