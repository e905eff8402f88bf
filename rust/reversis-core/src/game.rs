//! The match state machine (spec `game.md`): deal, pass, play, moon, score, over.

use std::fmt;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::action::Action;
use crate::card::{Card, CardSet, Suit};
use crate::error::{Error, ErrorCode};
use crate::hand::{CompletedTrick, HandState};
use crate::rng::SplitMix64;
use crate::ruleset::{MoonChoice, MoonScoring, PassDirection, Ruleset};

/// The phase of a game (game.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Waiting for a `deal` action (DEAL-3).
    Deal,
    /// Seats are passing (PASS-2).
    Pass,
    /// Tricks are being played (PLAY-*).
    Play,
    /// The moon taker must choose (SCORE-3).
    Moon,
    /// The match is over (MATCH-2).
    Over,
}

impl Phase {
    /// The spec string: `deal`, `pass`, `play`, `moon` or `over`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Deal => "deal",
            Phase::Pass => "pass",
            Phase::Play => "play",
            Phase::Moon => "moon",
            Phase::Over => "over",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One match under one ruleset (API-3): the hand in progress, the totals, the history of hand
/// scores and of accepted actions, and the seed's generator.
///
/// Every change goes through [`Game::apply`], which either applies an action completely or
/// rejects it and leaves the game exactly as it was (ERR-1).
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Game, Phase};
/// let mut g = Game::new(preset("hartenjagen").unwrap(), Some(42), 0, None).unwrap();
/// assert_eq!(g.phase(), Phase::Play); // no passing in Hartenjagen
/// while g.phase() == Phase::Play && g.hand_number() == 0 {
///     let card = g.legal_plays().first().unwrap();
///     g.play(card, None).unwrap();
/// }
/// assert_eq!(g.hand_scores().len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    ruleset: Arc<Ruleset>,
    seed: Option<u64>,
    rng: SplitMix64,
    start_hand: u64,
    start_scores: Vec<i64>,
    hand_number: u64,
    phase: Phase,
    hand: HandState,
    passed: [Option<CardSet>; 7],
    exchanged: bool,
    tricks: Vec<CompletedTrick>,
    scores: Vec<i64>,
    hand_scores: Vec<Vec<i64>>,
    actions: Vec<Action>,
}

fn err(code: ErrorCode, msg: impl Into<String>) -> Error {
    Error::new(code, msg)
}

fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}

fn cards_value(cs: CardSet) -> Value {
    Value::from(cs.to_strings())
}

impl Game {
    /// Starts a match (API-3, DEAL-2, MATCH-1) at hand `hand_number` with the given totals
    /// (zeros by default). With a seed it deals at once from the seed and deals every later
    /// hand from the same generator (SEED-5); without one it waits in phase `deal`.
    ///
    /// # Errors
    ///
    /// `invalid-setup` when `scores` does not have one total per seat.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Game, Phase};
    /// let g = Game::new(preset("hearts-4").unwrap(), None, 0, None).unwrap();
    /// assert_eq!(g.phase(), Phase::Deal);
    /// let g = Game::new(preset("hearts-4").unwrap(), Some(1), 3, None).unwrap();
    /// assert_eq!(g.phase(), Phase::Play); // hand 3 holds (PASS-1)
    /// assert_eq!(g.dealer(), 3);
    /// ```
    pub fn new(
        ruleset: impl Into<Arc<Ruleset>>,
        seed: Option<u64>,
        hand_number: u64,
        scores: Option<Vec<i64>>,
    ) -> Result<Game, Error> {
        let ruleset: Arc<Ruleset> = ruleset.into();
        let n = ruleset.players();
        let scores = scores.unwrap_or_else(|| vec![0; n]);
        if scores.len() != n {
            return Err(err(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: scores must have one total per seat ({n}), got {}",
                    scores.len()
                ),
            ));
        }
        let mut g = Game {
            hand: HandState::empty(&ruleset),
            ruleset,
            seed,
            rng: SplitMix64::new(seed.unwrap_or(0)),
            start_hand: hand_number,
            start_scores: scores.clone(),
            hand_number,
            phase: Phase::Deal,
            passed: [None; 7],
            exchanged: false,
            tricks: Vec::new(),
            scores,
            hand_scores: Vec::new(),
            actions: Vec::new(),
        };
        if g.seed.is_some() {
            g.deal_next_from_seed();
        }
        Ok(g)
    }

    fn deal_next_from_seed(&mut self) {
        let hands = self.rng.deal(&self.ruleset, self.dealer());
        self.do_deal(hands);
    }

    fn do_deal(&mut self, hands: [CardSet; 7]) {
        let n = self.ruleset.players();
        self.hand = HandState::empty(&self.ruleset);
        for (s, h) in hands.iter().enumerate().take(n) {
            self.hand.set_hand(s, *h);
        }
        self.passed = [None; 7];
        self.exchanged = false;
        self.tricks.clear();
        self.actions.push(Action::Deal {
            hands: hands[..n].iter().map(|h| h.to_vec()).collect(),
        });
        if self.ruleset.passes_on(self.hand_number) {
            self.phase = Phase::Pass;
        } else {
            self.hand.start_play(&self.ruleset, self.dealer());
            self.phase = Phase::Play;
        }
    }

    /// Applies an ACT-1 action (API-3 `apply`). A rejected action changes nothing (ERR-1).
    ///
    /// # Errors
    ///
    /// The first applicable code in the order of ERR-4: `invalid-action` (seat out of range),
    /// `match-over`, `moon-choice-pending`, `wrong-phase`, then by type: `invalid-deal`;
    /// `already-passed`, `wrong-pass-size`, `duplicate-card`, `card-not-held`; `wrong-seat`
    /// and the PLAY-8 cascade; `not-moon-taker`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Action, Game};
    /// let mut g = Game::new(preset("hartenjagen").unwrap(), Some(3), 0, None).unwrap();
    /// let before = g.state_json();
    /// let bad = Action::from_json_str(r#"{"type": "pass", "seat": 0, "cards": []}"#).unwrap();
    /// let err = g.apply(&bad).unwrap_err();
    /// assert_eq!(err.code.as_str(), "wrong-phase"); // Hartenjagen never passes
    /// assert_eq!(g.state_json(), before);
    /// ```
    pub fn apply(&mut self, action: &Action) -> Result<(), Error> {
        let n = self.ruleset.players();
        if let Some(seat) = action.seat() {
            if seat >= n {
                return Err(err(
                    ErrorCode::InvalidAction,
                    format!(
                        "invalid action: seat {seat} is out of range 0-{} in {}",
                        n - 1,
                        action
                    ),
                ));
            }
        }
        if self.phase == Phase::Over {
            return Err(err(
                ErrorCode::MatchOver,
                format!("match over: no action is accepted, got {action}"),
            ));
        }
        if self.phase == Phase::Moon && !matches!(action, Action::Moon { .. }) {
            return Err(err(
                ErrorCode::MoonChoicePending,
                format!("moon choice pending: the moon taker must choose first, got {action}"),
            ));
        }
        let wanted = match action {
            Action::Deal { .. } => Phase::Deal,
            Action::Pass { .. } => Phase::Pass,
            Action::Play { .. } => Phase::Play,
            Action::Moon { .. } => Phase::Moon,
        };
        if self.phase != wanted {
            return Err(err(
                ErrorCode::WrongPhase,
                format!(
                    "wrong phase: a {} action in phase {}: {action}",
                    action.type_name(),
                    self.phase
                ),
            ));
        }
        match action {
            Action::Deal { hands } => {
                let hands = self.check_deal(hands)?;
                self.do_deal(hands);
            }
            Action::Pass { seat, cards } => {
                let set = self.check_pass(*seat, cards)?;
                self.do_pass(*seat, set);
            }
            Action::Play { seat, card } => {
                self.check_play(*seat, *card)?;
                self.do_play(*card);
            }
            Action::Moon { seat, choice } => {
                let taker = self.hand.moon_taker(&self.ruleset);
                if taker != Some(*seat) {
                    return Err(err(
                        ErrorCode::NotMoonTaker,
                        format!(
                            "not moon taker: seat {seat} cannot choose, the taker is seat {}",
                            taker.map_or_else(|| "none".to_string(), |t| t.to_string())
                        ),
                    ));
                }
                self.actions.push(action.canonical());
                self.score_hand(Some(*choice));
            }
        }
        Ok(())
    }

    /// Reads an ACT-1 action from JSON and applies it.
    ///
    /// # Errors
    ///
    /// As [`Action::from_value`] and [`Game::apply`].
    pub fn apply_value(&mut self, action: &Value) -> Result<(), Error> {
        let a = Action::from_value(action)?;
        self.apply(&a)
    }

    fn check_deal(&self, hands: &[Vec<Card>]) -> Result<[CardSet; 7], Error> {
        let r = &self.ruleset;
        let n = r.players();
        if hands.len() != n {
            return Err(err(
                ErrorCode::InvalidDeal,
                format!("invalid deal: expected {n} hands, got {}", hands.len()),
            ));
        }
        let mut seen = CardSet::EMPTY;
        let mut out = [CardSet::EMPTY; 7];
        for (s, h) in hands.iter().enumerate() {
            if h.len() != r.hand_size() {
                return Err(err(
                    ErrorCode::InvalidDeal,
                    format!(
                        "invalid deal: hand {s} has {} cards, expected {}",
                        h.len(),
                        r.hand_size()
                    ),
                ));
            }
            for &c in h {
                if !r.deck().contains(c) {
                    return Err(err(
                        ErrorCode::InvalidDeal,
                        format!("invalid deal: card '{c}' is not in the deck"),
                    ));
                }
                if seen.contains(c) {
                    return Err(err(
                        ErrorCode::InvalidDeal,
                        format!("invalid deal: card '{c}' is dealt twice"),
                    ));
                }
                seen.insert(c);
                out[s].insert(c);
            }
        }
        Ok(out)
    }

    fn check_pass(&self, seat: usize, cards: &[Card]) -> Result<CardSet, Error> {
        if self.passed[seat].is_some() {
            return Err(err(
                ErrorCode::AlreadyPassed,
                format!("already passed: seat {seat} has passed this hand"),
            ));
        }
        let size = self.ruleset.passing().map_or(0, |p| p.size);
        if cards.len() != size {
            return Err(err(
                ErrorCode::WrongPassSize,
                format!(
                    "wrong pass size: seat {seat} passed {} cards, expected {size}",
                    cards.len()
                ),
            ));
        }
        let mut set = CardSet::EMPTY;
        for &c in cards {
            if set.contains(c) {
                return Err(err(
                    ErrorCode::DuplicateCard,
                    format!("duplicate card: '{c}' is passed twice by seat {seat}"),
                ));
            }
            set.insert(c);
        }
        let hand = self.hand.hand(seat);
        for &c in cards {
            if !hand.contains(c) {
                return Err(err(
                    ErrorCode::CardNotHeld,
                    format!("card not held: seat {seat} does not hold '{c}'"),
                ));
            }
        }
        Ok(set)
    }

    fn do_pass(&mut self, seat: usize, set: CardSet) {
        let n = self.ruleset.players();
        self.passed[seat] = Some(set);
        self.hand
            .set_hand(seat, CardSet(self.hand.hand(seat).0 & !set.0));
        self.actions.push(Action::Pass {
            seat,
            cards: set.to_vec(),
        });
        if self.passed[..n].iter().all(Option::is_some) {
            let dir = self
                .ruleset
                .pass_direction(self.hand_number)
                .unwrap_or(PassDirection::Hold);
            for s in 0..n {
                let t = dir.target(s, n);
                let got = self.passed[s].unwrap_or_default();
                self.hand.set_hand(t, self.hand.hand(t) | got);
            }
            self.exchanged = true;
            self.hand.start_play(&self.ruleset, self.dealer());
            self.phase = Phase::Play;
        }
    }

    fn check_play(&self, seat: usize, card: Card) -> Result<(), Error> {
        let to_move = self.hand.to_move();
        if seat != to_move {
            return Err(err(
                ErrorCode::WrongSeat,
                format!("wrong seat: seat {seat} played '{card}' but seat {to_move} is to move"),
            ));
        }
        self.hand.check_play(&self.ruleset, card).map_err(|code| {
            let msg = match code {
                ErrorCode::CardNotHeld => {
                    format!("card not held: seat {seat} does not hold '{card}'")
                }
                ErrorCode::MustLeadOpeningCard => format!(
                    "must lead opening card: the first trick opens with '{}', not '{card}'",
                    self.ruleset
                        .opening_card()
                        .map_or_else(String::new, |c| c.to_string())
                ),
                ErrorCode::MustFollowSuit => format!(
                    "must follow suit: seat {seat} holds {} and cannot play '{card}'",
                    self.hand.led_suit().map_or("the suit led", suit_name)
                ),
                ErrorCode::PointsOnFirstTrick => format!(
                    "points on first trick: seat {seat} cannot discard the point card '{card}' \
                     while it holds a card worth no points"
                ),
                _ => format!(
                    "hearts not broken: seat {seat} cannot lead '{card}' while it holds a card \
                     that is not a heart"
                ),
            };
            err(code, msg)
        })
    }

    fn do_play(&mut self, card: Card) {
        let seat = self.hand.to_move();
        let done = self.hand.play_unchecked(&self.ruleset, card);
        self.actions.push(Action::Play { seat, card });
        if let Some(t) = done {
            self.tricks.push(t);
            if self.hand.is_complete(&self.ruleset) {
                let taker_choice = matches!(
                    self.ruleset.moon(),
                    Some(m) if m.scoring == MoonScoring::TakerChoice
                );
                if taker_choice && self.hand.moon_taker(&self.ruleset).is_some() {
                    self.phase = Phase::Moon;
                } else {
                    self.score_hand(None);
                }
            }
        }
    }

    fn score_hand(&mut self, choice: Option<MoonChoice>) {
        let n = self.ruleset.players();
        let s = self.hand.hand_scores(&self.ruleset, choice);
        let row: Vec<i64> = s[..n].iter().map(|&x| x as i64).collect();
        for (t, x) in self.scores.iter_mut().zip(&row) {
            *t = t.saturating_add(*x);
        }
        self.hand_scores.push(row);
        let target = self.ruleset.target() as i128;
        if self.scores.iter().any(|&t| t as i128 >= target) {
            self.phase = Phase::Over;
            return;
        }
        self.hand_number = self.hand_number.wrapping_add(1);
        self.hand = HandState::empty(&self.ruleset);
        self.passed = [None; 7];
        self.exchanged = false;
        self.tricks.clear();
        self.phase = Phase::Deal;
        if self.seed.is_some() {
            self.deal_next_from_seed();
        }
    }

    /// Applies a `deal`: of the given hands, or without hands the next deal from the seed
    /// (API-3 `deal`).
    ///
    /// # Errors
    ///
    /// `no-seed` when no hands are given and the game is unseeded; otherwise as
    /// [`Game::apply`].
    pub fn deal(&mut self, hands: Option<Vec<Vec<Card>>>) -> Result<(), Error> {
        let hands = match hands {
            Some(h) => h,
            None => {
                if self.seed.is_none() {
                    return Err(err(
                        ErrorCode::NoSeed,
                        "no seed: this game has no seed to deal from",
                    ));
                }
                let mut g = self.rng;
                let dealt = g.deal(&self.ruleset, self.dealer());
                dealt[..self.ruleset.players()]
                    .iter()
                    .map(|h| h.to_vec())
                    .collect()
            }
        };
        self.apply(&Action::Deal { hands })
    }

    /// Applies a `pass` (API-3 `pass_cards`).
    ///
    /// # Errors
    ///
    /// As [`Game::apply`].
    pub fn pass_cards(&mut self, seat: usize, cards: Vec<Card>) -> Result<(), Error> {
        self.apply(&Action::Pass { seat, cards })
    }

    /// Applies a `play`; the seat defaults to the seat to move (API-3 `play`).
    ///
    /// # Errors
    ///
    /// As [`Game::apply`].
    pub fn play(&mut self, card: Card, seat: Option<usize>) -> Result<(), Error> {
        let seat = match seat {
            Some(s) => s,
            None if self.phase == Phase::Play => self.hand.to_move(),
            None => self.to_move().unwrap_or(0),
        };
        self.apply(&Action::Play { seat, card })
    }

    /// Applies a `moon` for the taker (API-3 `choose_moon`).
    ///
    /// # Errors
    ///
    /// As [`Game::apply`] (`wrong-phase` when no choice is pending).
    pub fn choose_moon(&mut self, choice: MoonChoice) -> Result<(), Error> {
        let seat = self.moon_taker().unwrap_or(0);
        self.apply(&Action::Moon { seat, choice })
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// The seed, if the game is seeded.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The hand number the game started at (REC-1 `start`).
    pub fn start_hand_number(&self) -> u64 {
        self.start_hand
    }

    /// The totals the game started with (REC-1 `start`).
    pub fn start_scores(&self) -> &[i64] {
        &self.start_scores
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The number of the hand in progress (or about to be dealt, or last played once over).
    pub fn hand_number(&self) -> u64 {
        self.hand_number
    }

    /// The dealer of the current hand (DEAL-2).
    pub fn dealer(&self) -> usize {
        self.ruleset.dealer(self.hand_number)
    }

    /// The current hand's pass direction, `None` where the ruleset has no passing (PASS-1).
    pub fn pass_direction(&self) -> Option<PassDirection> {
        self.ruleset.pass_direction(self.hand_number)
    }

    /// The seat to play (phase `play`) or to choose (phase `moon`), else `None`.
    pub fn to_move(&self) -> Option<usize> {
        match self.phase {
            Phase::Play => Some(self.hand.to_move()),
            Phase::Moon => self.hand.moon_taker(&self.ruleset),
            _ => None,
        }
    }

    /// The seats that must still pass this hand, sorted (empty outside phase `pass`).
    pub fn awaiting_pass(&self) -> Vec<usize> {
        if self.phase != Phase::Pass {
            return Vec::new();
        }
        (0..self.ruleset.players())
            .filter(|&s| self.passed[s].is_none())
            .collect()
    }

    /// The trick in progress as `(seat, card)` in playing order.
    pub fn trick(&self) -> Vec<(usize, Card)> {
        self.hand.trick().collect()
    }

    /// The completed tricks of the current hand.
    pub fn tricks(&self) -> &[CompletedTrick] {
        &self.tricks
    }

    /// The number of completed tricks this hand.
    pub fn tricks_played(&self) -> usize {
        self.hand.tricks_played()
    }

    /// Whether hearts are broken (PLAY-6).
    pub fn hearts_broken(&self) -> bool {
        self.hand.hearts_broken()
    }

    /// Each seat's points captured so far this hand (SCORE-1).
    pub fn points(&self) -> &[i32] {
        self.hand.points()
    }

    /// The match totals.
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// The scores of every completed hand, oldest first.
    pub fn hand_scores(&self) -> &[Vec<i64>] {
        &self.hand_scores
    }

    /// The seat that must make the moon choice (SCORE-3), only in phase `moon`.
    pub fn moon_taker(&self) -> Option<usize> {
        if self.phase == Phase::Moon {
            self.hand.moon_taker(&self.ruleset)
        } else {
            None
        }
    }

    /// The winners once the game is over (MATCH-3): every seat with the lowest total; empty
    /// before.
    pub fn winners(&self) -> Vec<usize> {
        if self.phase != Phase::Over {
            return Vec::new();
        }
        let min = self.scores.iter().copied().min().unwrap_or(0);
        (0..self.scores.len())
            .filter(|&s| self.scores[s] == min)
            .collect()
    }

    /// Every accepted action so far, canonical.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The per-hand state (for search: clone it and use [`HandState::play_unchecked`]).
    pub fn hand_state(&self) -> &HandState {
        &self.hand
    }

    /// The seed generator, positioned after the deals made so far.
    pub fn generator(&self) -> SplitMix64 {
        self.rng
    }

    fn seat_ok(&self, seat: usize) -> Result<(), Error> {
        let n = self.ruleset.players();
        if seat >= n {
            return Err(err(
                ErrorCode::InvalidAction,
                format!("invalid seat: {seat} is out of range 0-{}", n - 1),
            ));
        }
        Ok(())
    }

    /// A seat's cards.
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn hand(&self, seat: usize) -> Result<CardSet, Error> {
        self.seat_ok(seat)?;
        Ok(self.hand.hand(seat))
    }

    /// The cards `seat` passed this hand, if it has passed.
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn passed(&self, seat: usize) -> Result<Option<CardSet>, Error> {
        self.seat_ok(seat)?;
        Ok(self.passed[seat])
    }

    /// The cards `seat` received this hand, once the exchange has happened (PASS-3).
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn received(&self, seat: usize) -> Result<Option<CardSet>, Error> {
        self.seat_ok(seat)?;
        if !self.exchanged {
            return Ok(None);
        }
        let n = self.ruleset.players();
        let dir = self.pass_direction().unwrap_or(PassDirection::Hold);
        Ok(self.passed[dir.source(seat, n)])
    }

    /// The legal cards of the seat to move (PLAY-8); empty outside phase `play`.
    pub fn legal_plays(&self) -> CardSet {
        if self.phase == Phase::Play {
            self.hand.legal_plays(&self.ruleset)
        } else {
            CardSet::EMPTY
        }
    }

    fn voids_value(&self) -> Value {
        Value::Array(
            (0..self.ruleset.players())
                .map(|s| {
                    let m = self.hand.voids(s);
                    Value::Array(
                        Suit::ALL
                            .iter()
                            .filter(|su| m & (1 << su.index()) != 0)
                            .map(|su| Value::from(su.char().to_string()))
                            .collect(),
                    )
                })
                .collect(),
        )
    }

    /// The completed tricks of this hand as JSON (API-3 `tricks_played`, OBS-1 `tricks`):
    /// `[{leader, cards: [{seat, card}], winner, points}]`.
    pub fn tricks_json(&self) -> Value {
        self.tricks_value()
    }

    /// The trick in progress as JSON (OBS-1 `trick`): `[{seat, card}]`.
    pub fn trick_json(&self) -> Value {
        self.trick_value()
    }

    fn tricks_value(&self) -> Value {
        Value::Array(
            self.tricks
                .iter()
                .map(|t| {
                    json!({
                        "leader": t.leader,
                        "cards": t.plays().map(|(s, c)| json!({"seat": s, "card": c.to_string()})).collect::<Vec<_>>(),
                        "winner": t.winner,
                        "points": t.points,
                    })
                })
                .collect(),
        )
    }

    fn trick_value(&self) -> Value {
        Value::Array(
            self.hand
                .trick()
                .map(|(s, c)| json!({"seat": s, "card": c.to_string()}))
                .collect(),
        )
    }

    fn opt_cards(c: Option<CardSet>) -> Value {
        c.map_or(Value::Null, cards_value)
    }

    fn opt_seat(s: Option<usize>) -> Value {
        s.map_or(Value::Null, Value::from)
    }

    /// The observation of `seat` (OBS-1): exactly the keys `seat`, `phase`, `hand_number`,
    /// `dealer`, `pass_direction`, `to_move`, `awaiting_pass`, `hand`, `passed`, `received`,
    /// `tricks`, `trick`, `hearts_broken`, `voids`, `points`, `scores`, `legal`,
    /// `moon_taker`. It depends on nothing hidden from `seat` (OBS-2).
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn observation(&self, seat: usize) -> Result<Value, Error> {
        self.seat_ok(seat)?;
        let mut o = Map::new();
        o.insert("seat".into(), Value::from(seat));
        self.insert_public_phase(&mut o);
        o.insert("hand".into(), cards_value(self.hand.hand(seat)));
        o.insert("passed".into(), Self::opt_cards(self.passed[seat]));
        o.insert("received".into(), Self::opt_cards(self.received(seat)?));
        o.insert("tricks".into(), self.tricks_value());
        o.insert("trick".into(), self.trick_value());
        o.insert("hearts_broken".into(), Value::from(self.hearts_broken()));
        o.insert("voids".into(), self.voids_value());
        o.insert("points".into(), Value::from(self.points().to_vec()));
        o.insert("scores".into(), Value::from(self.scores.clone()));
        let legal = if self.phase == Phase::Play && self.hand.to_move() == seat {
            self.legal_plays()
        } else {
            CardSet::EMPTY
        };
        o.insert("legal".into(), cards_value(legal));
        o.insert("moon_taker".into(), Self::opt_seat(self.moon_taker()));
        Ok(Value::Object(o))
    }

    // The keys an observation and the whole state share: where the game stands and who acts.
    fn insert_public_phase(&self, o: &mut Map<String, Value>) {
        o.insert("phase".into(), Value::from(self.phase.as_str()));
        o.insert("hand_number".into(), Value::from(self.hand_number));
        o.insert("dealer".into(), Value::from(self.dealer()));
        o.insert(
            "pass_direction".into(),
            self.pass_direction()
                .map_or(Value::Null, |d| Value::from(d.as_str())),
        );
        o.insert("to_move".into(), Self::opt_seat(self.to_move()));
        o.insert("awaiting_pass".into(), Value::from(self.awaiting_pass()));
    }

    /// The whole state as canonical JSON data: two games are in the same state exactly when
    /// their `state_json()` are equal (API-3 `state`). The layout is this implementation's.
    pub fn state_json(&self) -> Value {
        let n = self.ruleset.players();
        let mut o = Map::new();
        o.insert("ruleset".into(), self.ruleset.to_value());
        o.insert("seed".into(), self.seed.map_or(Value::Null, Value::from));
        o.insert(
            "generator".into(),
            self.seed
                .map_or(Value::Null, |_| Value::from(self.rng.state())),
        );
        o.insert(
            "start".into(),
            json!({"hand_number": self.start_hand, "scores": self.start_scores}),
        );
        self.insert_public_phase(&mut o);
        o.insert(
            "hands".into(),
            Value::Array((0..n).map(|s| cards_value(self.hand.hand(s))).collect()),
        );
        o.insert(
            "passed".into(),
            Value::Array((0..n).map(|s| Self::opt_cards(self.passed[s])).collect()),
        );
        o.insert("exchanged".into(), Value::from(self.exchanged));
        o.insert("tricks".into(), self.tricks_value());
        o.insert("trick".into(), self.trick_value());
        o.insert("hearts_broken".into(), Value::from(self.hearts_broken()));
        o.insert("voids".into(), self.voids_value());
        o.insert("points".into(), Value::from(self.points().to_vec()));
        o.insert("scores".into(), Value::from(self.scores.clone()));
        o.insert("hand_scores".into(), Value::from(self.hand_scores.clone()));
        o.insert("moon_taker".into(), Self::opt_seat(self.moon_taker()));
        o.insert("winners".into(), Value::from(self.winners()));
        o.insert("legal".into(), cards_value(self.legal_plays()));
        o.insert(
            "actions".into(),
            Value::Array(self.actions.iter().map(Action::to_value).collect()),
        );
        Value::Object(o)
    }
}
