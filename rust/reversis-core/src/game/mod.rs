//! The match state machine (spec `game.md`): deal, pass, play, moon, score, over; action ids
//! (ACT-2, ACT-3), events (EVT-1, EVT-2) and undo (API-8).
//!
//! This file is the API a caller reads; how the history is stored (`history.rs`) and the JSON
//! views (`views.rs`) are apart, since neither changes what a game does.

mod history;
mod views;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde_json::Value;

use crate::action::{Action, Decision};
use crate::card::{Card, CardMultiset, CardSet};
use crate::error::{Error, ErrorCode};
use crate::event::{Event, Events, HandSummary};
use crate::hand::{CompletedTrick, HandState};
use crate::position::{Outcome, Phase, Position};
use crate::rng::SplitMix64;
use crate::ruleset::{MoonChoice, PassDirection, Ruleset};
use crate::sample::Knowledge;
use crate::seat::{PerSeat, MAX_PLAYERS};

pub use history::ActionLog;
use history::{Checkpoint, Checkpoints, Input, KnownMask, LastHand, Log, Recorded};

// What the last accepted input set off (EVT-1), as flags: the events themselves are built on
// demand from the position and the history, which the next input is the first to change. They
// come in this order whenever several are set.
const EV_EXCHANGE: u8 = 1;
const EV_TRICK: u8 = 2;
const EV_HAND: u8 = 4;
const EV_OVER: u8 = 8;
const EV_DEAL: u8 = 16;

/// One match under one ruleset (API-3): the position (the hand in progress, the totals, the
/// seed's generator) and its history (the accepted actions, the completed tricks, the hand
/// scores, the inputs and a checkpoint a hand for undo), kept in persistent structures shared
/// between copies, so that cloning a game is O(1).
///
/// Every change goes through [`Game::apply`], [`Game::apply_action`] or [`Game::undo`], which
/// either act completely or reject the request and leave the game exactly as it was (ERR-1).
/// Two games are equal exactly when their positions ([`Game::state_json`]) are; the history
/// does not count.
///
/// # Examples
///
/// ```
/// use reversis_core::{preset, Game, Phase};
/// let mut g = Game::new(preset("hartenjagen").unwrap(), Some(42), 0, None).unwrap();
/// assert_eq!(g.phase(), Phase::Play); // no passing in Hartenjagen
/// let start = g.clone();
/// while g.phase() == Phase::Play && g.hand_number() == 0 {
///     let card = g.legal_plays().first().unwrap();
///     g.play(card, None).unwrap();
/// }
/// assert_eq!(g.hand_scores().len(), 1);
/// while g.undo().is_ok() {}
/// assert_eq!(g, start);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    ruleset: Arc<Ruleset>,
    seed: Option<u64>,
    start_hand: u64,
    start_scores: PerSeat<i64>,
    pos: Position,
    // The deals made from the seed so far (API-9 `seed_deals`).
    seed_deals: u64,
    // EV_* flags.
    events: u8,
    last_hand: Option<LastHand>,
    actions: Log<Recorded>,
    // The hands of the deals among the actions.
    deals: Log<PerSeat<CardMultiset>>,
    tricks: Log<CompletedTrick>,
    hand_scores: Log<PerSeat<i64>>,
    inputs: Log<Input>,
    // Newest first; the oldest is the game's start, so it is never empty once built.
    checkpoints: Option<Arc<Checkpoints>>,
    // The acting seat's legal mask: a per-step loop asks for it, then plays one of its ids,
    // which is then legal without the PLAY-8 checks again.
    acting_mask: KnownMask,
}

fn err(code: ErrorCode, msg: impl Into<String>) -> Error {
    Error::new(code, msg)
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
        let given = scores.unwrap_or_else(|| vec![0; n]);
        if given.len() != n {
            return Err(err(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: scores must have one total per seat ({n}), got {}",
                    given.len()
                ),
            ));
        }
        let mut scores = PerSeat::splat(0i64);
        scores.first_mut(n).copy_from_slice(&given);
        let mut g = Game {
            pos: Position::new(&ruleset, seed.unwrap_or(0), hand_number, scores),
            seed_deals: 0,
            ruleset,
            seed,
            start_hand: hand_number,
            start_scores: scores,
            events: 0,
            last_hand: None,
            actions: Log::new(),
            deals: Log::new(),
            tricks: Log::new(),
            hand_scores: Log::new(),
            inputs: Log::new(),
            checkpoints: None,
            acting_mask: KnownMask::default(),
        };
        if g.seed.is_some() {
            // The deal takes the start's checkpoint.
            g.deal_next_from_seed();
            g.events = 0;
        } else {
            g.checkpoint();
        }
        Ok(g)
    }

    fn players(&self) -> usize {
        self.ruleset.players()
    }

    // ------------------------------------------------------------------ transitions

    // Opens an undo unit: called once an input has been checked (or when it is replayed),
    // before anything changes.
    fn begin(&mut self, input: Input) {
        self.inputs.push(input);
        self.events = 0;
    }

    // The input of an ACT-1 action about to be recorded.
    fn action_input(&self) -> Input {
        Input::Action(self.actions.len() as u32)
    }

    fn checkpoint(&mut self) {
        let cp = Checkpoint {
            pos: self.pos,
            seed_deals: self.seed_deals,
            last_hand: self.last_hand,
            actions: self.actions.len(),
            deals: self.deals.len(),
            tricks: self.tricks.len(),
            hand_scores: self.hand_scores.len(),
            inputs: self.inputs.len(),
        };
        let older = self.checkpoints.take();
        self.checkpoints = Some(Arc::new(Checkpoints { cp, older }));
    }

    fn deal_next_from_seed(&mut self) {
        let hands = self.pos.deal_from_rng(&self.ruleset);
        self.seed_deals += 1;
        self.dealt(hands);
    }

    fn do_deal(&mut self, hands: PerSeat<CardMultiset>) {
        self.pos.deal(&self.ruleset, &hands);
        self.dealt(hands);
    }

    // Records a deal the position has made.
    fn dealt(&mut self, hands: PerSeat<CardMultiset>) {
        self.actions.push(Recorded::Deal(self.deals.len() as u32));
        self.deals.push(hands);
        self.events |= EV_DEAL;
        // A deal is the last thing an input does: the input is complete.
        self.checkpoint();
    }

    // Records what a transition of the position set off, and deals the next hand from the seed
    // once one is scored and the match goes on.
    fn record(&mut self, out: Outcome) {
        if let Some((seat, cards)) = out.pass {
            self.actions.push(Recorded::Pass {
                seat: seat as u8,
                cards,
            });
        }
        if out.exchanged {
            self.events |= EV_EXCHANGE;
        }
        if let Some(t) = out.trick {
            self.tricks.push(t);
            self.events |= EV_TRICK;
        }
        if let Some(summary) = out.hand {
            self.hand_scores.push(summary.scores);
            self.last_hand = Some(LastHand {
                summary,
                trick_end: self.tricks.len(),
            });
            self.events |= EV_HAND;
            if self.pos.phase == Phase::Over {
                self.events |= EV_OVER;
            } else if self.seed.is_some() {
                self.deal_next_from_seed();
            }
        }
    }

    fn do_pass(&mut self, seat: usize, set: CardMultiset) {
        let out = self.pos.pass(&self.ruleset, seat, set);
        self.record(out);
    }

    fn do_play(&mut self, card: Card) {
        let seat = self.pos.hand.to_move();
        let out = self.pos.play(&self.ruleset, card);
        self.actions.push(Recorded::Play {
            seat: seat as u8,
            card,
        });
        self.record(out);
    }

    fn do_moon(&mut self, seat: usize, choice: MoonChoice) {
        self.actions.push(Recorded::Moon {
            seat: seat as u8,
            choice,
        });
        let out = self.pos.moon(&self.ruleset, choice);
        self.record(out);
    }

    fn do_select(&mut self, seat: usize, card: Card) {
        let out = self.pos.select(&self.ruleset, seat, card);
        self.record(out);
    }

    // Makes an input again (undo's replay): it was accepted, so it is not checked again.
    fn redo(&mut self, input: Input, log: &Log<Recorded>, deals: &Log<PerSeat<CardMultiset>>) {
        self.begin(input);
        match input {
            Input::Select { seat, card } => self.do_select(seat.into(), card),
            Input::Action(i) => match log[i as usize] {
                Recorded::Deal(d) => self.do_deal(deals[d as usize]),
                Recorded::Pass { seat, cards } => self.do_pass(seat.into(), cards),
                Recorded::Play { card, .. } => self.do_play(card),
                Recorded::Moon { seat, choice } => self.do_moon(seat.into(), choice),
            },
        }
    }

    // ------------------------------------------------------------------ checks

    fn phase_error(&self, ty: &str, wanted: Phase, shown: &dyn fmt::Display) -> Option<Error> {
        self.pos.phase_error(ty, wanted, shown)
    }

    fn acting(&self, seat: Option<usize>, ty: &str, wanted: Phase) -> Result<usize, Error> {
        self.pos.acting(&self.ruleset, seat, ty, wanted)
    }

    fn check_deal(&self, hands: &[Vec<Card>]) -> Result<PerSeat<CardMultiset>, Error> {
        let r = &self.ruleset;
        let n = r.players();
        if hands.len() != n {
            return Err(err(
                ErrorCode::InvalidDeal,
                format!("invalid deal: expected {n} hands, got {}", hands.len()),
            ));
        }
        let deck = r.deck_cards();
        let mut seen = CardMultiset::EMPTY;
        let mut out = PerSeat::splat(CardMultiset::EMPTY);
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
                // DEAL-1: no card more times than the deck holds it.
                if seen.count(c) >= deck.count(c) {
                    return Err(err(
                        ErrorCode::InvalidDeal,
                        format!(
                            "invalid deal: card '{c}' is dealt more times than the deck holds it"
                        ),
                    ));
                }
                seen.insert(c);
                out[s].insert(c);
            }
        }
        Ok(out)
    }

    // ------------------------------------------------------------------ actions

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
        if let Some(seat) = action.seat() {
            Position::seat_in_table(&self.ruleset, seat, action)?;
        }
        let wanted = match action {
            Action::Deal { .. } => Phase::Deal,
            Action::Pass { .. } => Phase::Pass,
            Action::Play { .. } => Phase::Play,
            Action::Moon { .. } => Phase::Moon,
        };
        if let Some(e) = self.phase_error(action.type_name(), wanted, action) {
            return Err(e);
        }
        match action {
            Action::Deal { hands } => {
                let hands = self.check_deal(hands)?;
                self.begin(self.action_input());
                self.do_deal(hands);
            }
            Action::Pass { seat, cards } => {
                let set = self.pos.check_pass(&self.ruleset, *seat, cards)?;
                self.begin(self.action_input());
                self.do_pass(*seat, set);
            }
            Action::Play { seat, card } => {
                self.pos.check_play(&self.ruleset, *seat, *card)?;
                self.begin(self.action_input());
                self.do_play(*card);
            }
            Action::Moon { seat, choice } => {
                self.pos.check_moon(&self.ruleset, *seat)?;
                self.begin(self.action_input());
                self.do_moon(*seat, *choice);
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

    /// Applies action id `id` (ACT-2, ACT-3) for `seat`, by default the acting seat
    /// ([`Game::to_act`]). A selection that completes the seat's pass applies, and records, the
    /// ACT-1 `pass` of the selected cards. A rejected id changes nothing.
    ///
    /// # Errors
    ///
    /// `invalid-action` for an id outside 0 … 105 or a seat outside the table, or for no seat
    /// where there is no acting seat outside phases `deal` and `over` (in those the phase's own
    /// error comes first); otherwise as the ACT-1 action of the decision would be (ERR-4), the
    /// checks of a selection being `already-passed`, `duplicate-card` (selected already) and
    /// `card-not-held`.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Game};
    /// let mut g = Game::new(preset("hearts-4").unwrap(), Some(9), 0, None).unwrap();
    /// let ids = g.legal_actions(None).unwrap(); // seat 0 selects its pass card by card
    /// for &id in &ids[..3] {
    ///     g.apply_action(id, None).unwrap();
    /// }
    /// assert_eq!(g.to_act(), Some(1));
    /// assert_eq!(g.actions().len(), 2); // the deal and seat 0's pass
    /// ```
    pub fn apply_action(&mut self, id: u16, seat: Option<usize>) -> Result<(), Error> {
        if let Some(card) = self.known_legal_play(id, seat) {
            self.begin(self.action_input());
            self.do_play(card);
            return Ok(());
        }
        let (seat, decision) = self.pos.check_id(&self.ruleset, id, seat)?;
        match decision {
            Decision::Play(card) => {
                self.begin(self.action_input());
                self.do_play(card);
            }
            Decision::Moon(choice) => {
                self.begin(self.action_input());
                self.do_moon(seat, choice);
            }
            Decision::Select(card) => {
                self.begin(Input::Select {
                    seat: seat as u8,
                    card,
                });
                self.do_select(seat, card);
            }
        }
        Ok(())
    }

    /// Takes back the last accepted action with everything it set off, or a single selection
    /// (API-8): the game is then equal to what it was before it, its actions and hand scores
    /// are what they were, and its events are empty.
    ///
    /// # Errors
    ///
    /// `nothing-to-undo` at the game's start.
    pub fn undo(&mut self) -> Result<(), Error> {
        self.acting_mask.forget();
        // Everything but the last input is made again from the latest checkpoint before it.
        let Some(keep) = self.inputs.len().checked_sub(1) else {
            return Err(err(
                ErrorCode::NothingToUndo,
                "nothing to undo: the game is at its start",
            ));
        };
        let cp = loop {
            let Some(head) = self.checkpoints.take() else {
                unreachable!("the game's start is a checkpoint");
            };
            if head.cp.inputs <= keep {
                let cp = head.cp;
                self.checkpoints = Some(head);
                break cp;
            }
            self.checkpoints = match Arc::try_unwrap(head) {
                Ok(mut node) => node.older.take(),
                Err(shared) => shared.older.clone(),
            };
        };
        let log = self.actions.clone();
        let deals = self.deals.clone();
        let inputs = self.inputs.clone();
        self.pos = cp.pos;
        self.seed_deals = cp.seed_deals;
        self.last_hand = cp.last_hand;
        self.actions.truncate(cp.actions);
        self.deals.truncate(cp.deals);
        self.tricks.truncate(cp.tricks);
        self.hand_scores.truncate(cp.hand_scores);
        self.inputs.truncate(cp.inputs);
        for i in cp.inputs..keep {
            self.redo(inputs[i], &log, &deals);
        }
        self.events = 0;
        Ok(())
    }

    // Seat `seat`'s selection in the order selected. It only grows by the seat's selections
    // and is emptied by its pass and at a deal, so it is the seat's latest selections, as many
    // as it holds; the position keeps only the set.
    fn selection_order(&self, seat: usize) -> Vec<Card> {
        let mut left = self.pos.selection(seat).len();
        let mut out = Vec::with_capacity(left);
        let mut i = self.inputs.len();
        while left > 0 && i > 0 {
            i -= 1;
            if let Input::Select { seat: s, card } = self.inputs[i] {
                if usize::from(s) == seat {
                    left -= 1;
                    out.push(card);
                }
            }
        }
        out.reverse();
        out
    }

    /// The number of undo units left ([`Game::undo`] succeeds that many times).
    pub fn undo_depth(&self) -> usize {
        self.inputs.len()
    }

    /// The selections made since the last recorded action that are still pending, oldest first,
    /// as `(seat, card)`: what a record does not hold (ACT-2 selections are not actions).
    pub fn pending_selections(&self) -> Vec<(usize, Card)> {
        // A seat's selection only grows by its selections and is emptied by its pass and at a
        // deal: it is the seat's latest selections, as many as it holds.
        let n = self.players();
        let mut left = [0usize; MAX_PLAYERS];
        for (s, l) in left.iter_mut().enumerate().take(n) {
            *l = self.pos.selection(s).len();
        }
        let mut total: usize = left.iter().sum();
        let mut out = Vec::with_capacity(total);
        let mut i = self.inputs.len();
        while total > 0 && i > 0 {
            i -= 1;
            if let Input::Select { seat, card } = self.inputs[i] {
                let s = usize::from(seat);
                if left[s] > 0 {
                    left[s] -= 1;
                    total -= 1;
                    out.push((s, card));
                }
            }
        }
        out.reverse();
        out
    }

    /// Applies a `deal` of the given hands (API-3 `deal`). Without hands it is a deal from the
    /// seed, which a game in phase `deal` (always unseeded, DEAL-3) cannot make.
    ///
    /// # Errors
    ///
    /// Without hands: `match-over`, `moon-choice-pending` or `wrong-phase` outside phase
    /// `deal`, else `no-seed`. With hands: as [`Game::apply`].
    pub fn deal(&mut self, hands: Option<Vec<Vec<Card>>>) -> Result<(), Error> {
        match hands {
            Some(hands) => self.apply(&Action::Deal { hands }),
            None => {
                let shown = "a deal from the seed";
                if let Some(e) = self.phase_error("deal", Phase::Deal, &shown) {
                    return Err(e);
                }
                Err(err(
                    ErrorCode::NoSeed,
                    "no seed: this game has no seed to deal from",
                ))
            }
        }
    }

    /// Applies a `pass` for `seat`, by default the acting seat (API-3 `pass_cards`).
    ///
    /// # Errors
    ///
    /// As [`Game::apply`], and as [`Game::apply_action`] for the default seat.
    pub fn pass_cards(&mut self, cards: Vec<Card>, seat: Option<usize>) -> Result<(), Error> {
        let seat = self.acting(seat, "pass", Phase::Pass)?;
        self.apply(&Action::Pass { seat, cards })
    }

    /// Applies a `play` for `seat`, by default the acting seat (API-3 `play`).
    ///
    /// # Errors
    ///
    /// As [`Game::pass_cards`].
    pub fn play(&mut self, card: Card, seat: Option<usize>) -> Result<(), Error> {
        let seat = self.acting(seat, "play", Phase::Play)?;
        self.apply(&Action::Play { seat, card })
    }

    /// Applies a `moon` for `seat`, by default the acting seat (API-3 `choose_moon`).
    ///
    /// # Errors
    ///
    /// As [`Game::pass_cards`] (`wrong-phase` when no choice is pending).
    pub fn choose_moon(&mut self, choice: MoonChoice, seat: Option<usize>) -> Result<(), Error> {
        let seat = self.acting(seat, "moon", Phase::Moon)?;
        self.apply(&Action::Moon { seat, choice })
    }

    // ------------------------------------------------------------------ reading

    /// The ruleset.
    pub fn ruleset(&self) -> &Arc<Ruleset> {
        &self.ruleset
    }

    /// The seed, if the game is seeded.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The number of deals made from the seed so far (API-9 `seed_deals`; 0 unseeded).
    pub fn seed_deals(&self) -> u64 {
        self.seed_deals
    }

    /// The hand number the game started at (REC-1 `start`).
    pub fn start_hand_number(&self) -> u64 {
        self.start_hand
    }

    /// The totals the game started with (REC-1 `start`).
    pub fn start_scores(&self) -> &[i64] {
        self.start_scores.first(self.players())
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.pos.phase
    }

    /// The number of the hand in progress (or about to be dealt, or last played once over).
    pub fn hand_number(&self) -> u64 {
        self.pos.hand_number
    }

    /// The dealer of the current hand (DEAL-2).
    pub fn dealer(&self) -> usize {
        self.ruleset.dealer(self.pos.hand_number)
    }

    /// The current hand's pass direction, `None` where the ruleset has no passing (PASS-1).
    pub fn pass_direction(&self) -> Option<PassDirection> {
        self.ruleset.pass_direction(self.pos.hand_number)
    }

    /// The seat to play (phase `play`) or to choose (phase `moon`), else `None`.
    pub fn to_move(&self) -> Option<usize> {
        self.pos.seat_to_move(&self.ruleset)
    }

    /// The acting seat of ACT-3: the seat to move in phase `play`, the moon taker in phase
    /// `moon`, the lowest seat still awaiting its pass in phase `pass`, else `None`.
    pub fn to_act(&self) -> Option<usize> {
        self.pos.acting_seat(&self.ruleset)
    }

    /// The seats that must still pass this hand, sorted (empty outside phase `pass`).
    pub fn awaiting_pass(&self) -> Vec<usize> {
        if self.pos.phase != Phase::Pass {
            return Vec::new();
        }
        (0..self.players())
            .filter(|&s| !self.pos.has_passed(s))
            .collect()
    }

    /// The legal action ids of `seat` (by default the acting seat) as a mask, bit `i` for id
    /// `i` (ACT-3); 0 where the seat has none.
    ///
    /// # Errors
    ///
    /// `invalid-action` for a seat outside the table.
    pub fn legal_mask(&self, seat: Option<usize>) -> Result<u128, Error> {
        let seat = match seat {
            Some(s) => {
                self.seat_ok(s)?;
                s
            }
            None => {
                let inputs = self.inputs.len();
                if let Some(mask) = self.acting_mask.get(inputs) {
                    return Ok(mask);
                }
                let mask = if self.pos.phase == Phase::Play {
                    // The per-step case, straight to the cascade of the seat to move.
                    u128::from(self.pos.hand.legal_plays(&self.ruleset).0)
                } else {
                    self.to_act()
                        .map_or(0, |s| self.pos.legal_mask(&self.ruleset, s))
                };
                self.acting_mask.set(inputs, mask);
                return Ok(mask);
            }
        };
        Ok(self.pos.legal_mask(&self.ruleset, seat))
    }

    // The card of play id `id` when the acting seat's mask, known since the last input, has it
    // and `seat` is that seat or the default.
    fn known_legal_play(&self, id: u16, seat: Option<usize>) -> Option<Card> {
        let mask = self.acting_mask.get(self.inputs.len())?;
        let legal = id < 52
            && mask >> id & 1 == 1
            && self.pos.phase == Phase::Play
            && seat.map_or(true, |s| s == self.pos.hand.to_move());
        legal.then(|| Card::new(id as u8))
    }

    /// The legal action ids of `seat` (by default the acting seat), ascending (ACT-3).
    ///
    /// # Errors
    ///
    /// As [`Game::legal_mask`].
    pub fn legal_actions(&self, seat: Option<usize>) -> Result<Vec<u16>, Error> {
        let mut m = self.legal_mask(seat)?;
        let mut out = Vec::with_capacity(m.count_ones() as usize);
        while m != 0 {
            out.push(m.trailing_zeros() as u16);
            m &= m - 1;
        }
        Ok(out)
    }

    /// The trick in progress as `(seat, card)` in playing order.
    pub fn trick(&self) -> Vec<(usize, Card)> {
        self.pos.hand.trick().collect()
    }

    fn hand_tricks(&self) -> impl Iterator<Item = &CompletedTrick> + '_ {
        let len = self.tricks.len();
        let k = self.pos.hand.tricks_played().min(len);
        self.tricks.iter_from(len - k)
    }

    /// The completed tricks of the current hand.
    pub fn tricks(&self) -> Vec<CompletedTrick> {
        self.hand_tricks().copied().collect()
    }

    /// The number of completed tricks this hand.
    pub fn tricks_played(&self) -> usize {
        self.pos.hand.tricks_played()
    }

    /// Whether hearts are broken (PLAY-6).
    pub fn hearts_broken(&self) -> bool {
        self.pos.hand.hearts_broken()
    }

    /// Whether the hand (the coming one in phase `deal`, the last one once the match is over)
    /// is a count-down hand (MATCH-5).
    pub fn count_down(&self) -> bool {
        self.pos.count_down
    }

    /// Each seat's points captured so far this hand (SCORE-1).
    pub fn points(&self) -> &[i32] {
        self.pos.hand.points()
    }

    /// The match totals.
    pub fn scores(&self) -> &[i64] {
        self.pos.scores.first(self.players())
    }

    /// The scores of every completed hand, oldest first.
    pub fn hand_scores(&self) -> Vec<Vec<i64>> {
        let n = self.players();
        self.hand_scores
            .iter()
            .map(|r| r.first(n).to_vec())
            .collect()
    }

    /// The number of completed hands.
    pub fn hands_scored(&self) -> usize {
        self.hand_scores.len()
    }

    /// The seat that must make the moon choice (SCORE-3), only in phase `moon`.
    pub fn moon_taker(&self) -> Option<usize> {
        if self.pos.phase == Phase::Moon {
            self.pos.hand.moon_taker(&self.ruleset)
        } else {
            None
        }
    }

    /// The winners once the game is over (MATCH-3): every seat with the lowest total; empty
    /// before.
    pub fn winners(&self) -> Vec<usize> {
        if self.pos.phase != Phase::Over {
            return Vec::new();
        }
        let scores = self.scores();
        let min = scores.iter().copied().min().unwrap_or(0);
        (0..scores.len()).filter(|&s| scores[s] == min).collect()
    }

    /// Every accepted action so far, canonical: an O(1) snapshot of the history.
    pub fn actions(&self) -> ActionLog {
        ActionLog {
            log: self.actions.clone(),
            deals: self.deals.clone(),
            players: self.players(),
        }
    }

    /// What the last accepted action set off (EVT-1), built on demand; empty after
    /// [`Game::undo`].
    pub fn events(&self) -> Events {
        let mut out = Events::default();
        let f = self.events;
        if f & EV_EXCHANGE != 0 {
            let direction = self.pass_direction().unwrap_or(PassDirection::Hold);
            out.push(Event::Exchange { direction });
        }
        if f & EV_TRICK != 0 {
            if let Some(t) = self.tricks.last() {
                out.push(Event::Trick(*t));
            }
        }
        if f & EV_HAND != 0 {
            if let Some(l) = self.last_hand {
                out.push(Event::Hand(l.summary));
            }
        }
        if f & EV_OVER != 0 {
            let winners = self.winners().into_iter().fold(0u16, |m, s| m | (1 << s));
            out.push(Event::Over { winners });
        }
        if f & EV_DEAL != 0 {
            out.push(Event::Deal {
                hand_number: self.pos.hand_number,
                dealer: self.dealer() as u8,
            });
        }
        out
    }

    /// The most recently scored hand (EVT-2), if any.
    pub fn last_hand(&self) -> Option<HandSummary> {
        self.last_hand.map(|l| l.summary)
    }

    /// The completed tricks of the most recently scored hand (EVT-2 `tricks`).
    pub fn last_hand_tricks(&self) -> Vec<CompletedTrick> {
        match self.last_hand {
            None => Vec::new(),
            Some(l) => {
                let k = self.ruleset.hand_size().min(l.trick_end);
                self.tricks
                    .iter_from(l.trick_end - k)
                    .take(k)
                    .copied()
                    .collect()
            }
        }
    }

    /// The last hand as the JSON object of EVT-2, or `null`.
    pub fn last_hand_json(&self) -> Value {
        self.last_hand_value()
    }

    pub(crate) fn position(&self) -> &Position {
        &self.pos
    }

    /// The per-hand state (for search: clone it and use [`HandState::play_unchecked`]).
    pub fn hand_state(&self) -> &HandState {
        &self.pos.hand
    }

    /// The seed generator, positioned after the deals made so far.
    pub fn generator(&self) -> SplitMix64 {
        self.pos.rng
    }

    fn seat_ok(&self, seat: usize) -> Result<(), Error> {
        let n = self.players();
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
    pub fn hand(&self, seat: usize) -> Result<CardMultiset, Error> {
        self.seat_ok(seat)?;
        Ok(self.pos.hand.hand(seat))
    }

    /// The cards `seat` has selected toward its pass (ACT-2), in the order selected.
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn selected(&self, seat: usize) -> Result<Vec<Card>, Error> {
        self.seat_ok(seat)?;
        Ok(self.selection_order(seat))
    }

    /// The cards `seat` passed this hand, if it has passed.
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn passed(&self, seat: usize) -> Result<Option<CardMultiset>, Error> {
        self.seat_ok(seat)?;
        Ok(self.pos.passed(seat))
    }

    /// The cards `seat` received this hand, once the exchange has happened (PASS-3).
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn received(&self, seat: usize) -> Result<Option<CardMultiset>, Error> {
        self.seat_ok(seat)?;
        Ok(self.pos.received(&self.ruleset, seat))
    }

    /// The legal cards of the seat to move (PLAY-8); empty outside phase `play`.
    pub fn legal_plays(&self) -> CardSet {
        if self.pos.phase == Phase::Play {
            self.pos.hand.legal_plays(&self.ruleset)
        } else {
            CardSet::EMPTY
        }
    }

    /// What `seat` knows about where the cards are, for the sampler: in phases `play`, `moon`
    /// and `over` the layout of the hands now; in phase `pass` that of the deal (the seat's
    /// hand with the cards it passed, every seat holding `hand_size` cards).
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range, or in phase `deal` (nothing is dealt).
    pub fn knowledge(&self, seat: usize) -> Result<Knowledge, Error> {
        self.seat_ok(seat)?;
        let n = self.players();
        let h = &self.pos.hand;
        let mut k = Knowledge {
            seat,
            hand: h.hand(seat),
            ..Knowledge::default()
        };
        match self.pos.phase {
            Phase::Deal => {
                return Err(err(
                    ErrorCode::InvalidAction,
                    "invalid action: nothing has been dealt yet",
                ))
            }
            Phase::Pass => {
                if let Some(p) = self.passed(seat)? {
                    k.hand = k.hand.plus(p);
                }
                k.counts.first_mut(n).fill(self.ruleset.hand_size() as u8);
                return Ok(k);
            }
            _ => {}
        }
        k.played = h.played();
        for s in 0..n {
            k.counts[s] = h.hand(s).len() as u8;
            k.voids[s] = h.voids(s);
        }
        if let (Some(p), true) = (self.passed(seat)?, self.pos.exchanged()) {
            let to = self
                .pass_direction()
                .unwrap_or(PassDirection::Hold)
                .target(seat, n);
            if to != seat {
                // The receiver still holds a passed copy unless it has played as many copies of
                // the card as it was passed (with two packs, another seat may play the other
                // copy; with one, whoever plays it is the receiver).
                let mut by_receiver = CardMultiset::EMPTY;
                let tricks = self.hand_tricks().flat_map(|t| t.plays());
                for (s, c) in tricks.chain(h.trick()) {
                    if s == to {
                        by_receiver.insert(c);
                    }
                }
                k.known[to] = p.minus(by_receiver);
            }
        }
        Ok(k)
    }

    // ------------------------------------------------------------------ JSON views (`views.rs`)

    /// The completed tricks of this hand as JSON (API-3 `tricks_played`, OBS-1 `tricks`,
    /// TRICK-1): `[{leader, cards: [{seat, card}], winner, points}]`.
    pub fn tricks_json(&self) -> Value {
        self.tricks_value()
    }

    /// The trick in progress as JSON (TRICK-1): `[{seat, card}]`.
    pub fn trick_json(&self) -> Value {
        self.trick_value()
    }

    /// The events of the last accepted action as JSON (EVT-1).
    pub fn events_json(&self) -> Value {
        self.events().to_value()
    }

    /// The observation of `seat` (OBS-1): exactly the keys `seat`, `phase`, `hand_number`,
    /// `dealer`, `pass_direction`, `to_move`, `awaiting_pass`, `hand`, `passed`, `selected`,
    /// `received`, `tricks`, `trick`, `hearts_broken`, `count_down`, `voids`, `points`, `scores`, `legal`,
    /// `moon_taker`. It depends on nothing hidden from `seat` (OBS-2).
    ///
    /// # Errors
    ///
    /// `invalid-action` when the seat is out of range.
    pub fn observation(&self, seat: usize) -> Result<Value, Error> {
        self.observation_value(seat)
    }

    /// The position as JSON data (API-9), the same in both engines: `ruleset`, `seed`,
    /// `seed_deals`, `phase`, `hand_number`, `to_move`, `moon_taker`, `winners`, `hands`,
    /// `selected`, `passed`, `received`, `trick`, `tricks`, `hearts_broken`, `count_down`, `voids`, `points`,
    /// `scores`. The history is not part of it, so it costs the same whatever the length of
    /// the match. Two games are equal exactly when their states are.
    pub fn state_json(&self) -> Value {
        self.state_value()
    }

    // ------------------------------------------------------------------ records

    // Replays a record's actions on this freshly built game (REC-2): in a seeded game a recorded
    // `deal` must be the deal the seed made at that point and is not applied again, so the
    // undo units are those of the original game.
    pub(crate) fn replay(&mut self, actions: &[Action]) -> Result<(), (usize, Error)> {
        let mut matched = 0;
        for (i, a) in actions.iter().enumerate() {
            if self.seed.is_some() {
                if let Action::Deal { .. } = a {
                    let made = self.actions.get(matched).copied();
                    let expected = made.filter(|r| matches!(r, Recorded::Deal(_)));
                    let same = expected
                        .map(|r| r.to_action(self.players(), &self.deals) == a.canonical())
                        .unwrap_or(false);
                    if !same {
                        return Err((
                            i,
                            err(
                                ErrorCode::InvalidRecord,
                                "the deal differs from what the seed deals",
                            ),
                        ));
                    }
                    matched += 1;
                    continue;
                }
                if matched != self.actions.len() {
                    return Err((
                        i,
                        err(
                            ErrorCode::InvalidRecord,
                            "the record lacks the deal the seed made before it",
                        ),
                    ));
                }
            }
            let before = self.actions.len();
            self.apply(a).map_err(|e| (i, e))?;
            // The action itself; a deal the seed made after it is matched by the next one.
            matched = before + 1;
        }
        Ok(())
    }
}

impl PartialEq for Game {
    /// Equal positions (API-3, API-9): the history does not count.
    fn eq(&self, other: &Game) -> bool {
        let n = self.players();
        let (a, b) = (&self.pos, &other.pos);
        (Arc::ptr_eq(&self.ruleset, &other.ruleset) || self.ruleset == other.ruleset)
            && self.seed == other.seed
            && self.seed_deals == other.seed_deals
            && a.phase == b.phase
            && a.hand_number == b.hand_number
            && a.hand == b.hand
            && a.exchanged() == b.exchanged()
            && (0..n).all(|s| a.passed(s) == b.passed(s))
            && (0..n).all(|s| self.selection_order(s) == other.selection_order(s))
            && a.scores.first(n) == b.scores.first(n)
            && self.hand_tricks().eq(other.hand_tricks())
    }
}

impl Eq for Game {}

impl Hash for Game {
    /// Hashes the position, as equality compares it.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.players();
        let p = &self.pos;
        self.ruleset.hash(state);
        self.seed.hash(state);
        self.seed_deals.hash(state);
        p.phase.hash(state);
        p.hand_number.hash(state);
        p.hand.hash(state);
        p.exchanged().hash(state);
        for s in 0..n {
            p.passed(s).hash(state);
            self.selection_order(s).hash(state);
        }
        p.scores.first(n).hash(state);
        for t in self.hand_tricks() {
            t.hash(state);
        }
    }
}

// Keeps the per-seat tables honest: a table never has more seats than the arrays hold.
const _: () = assert!(MAX_PLAYERS <= 16);

#[cfg(test)]
mod tests {
    use super::Game;
    use crate::{preset, ErrorCode, Phase};

    #[test]
    fn a_game_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Game>();
    }

    // The acting seat's mask, known after a `legal_mask()`, is never used for another position:
    // not after a play, nor after an undo and a different play at the same number of inputs.
    #[test]
    fn the_known_mask_is_the_mask_of_the_position() {
        let mut game = Game::new(preset("hearts-4").unwrap(), Some(5), 3, None).unwrap();
        let fresh = |g: &Game| g.legal_mask(g.to_act()).unwrap();
        let mut undone = 0;
        while game.phase() == Phase::Play {
            let mask = game.legal_mask(None).unwrap();
            assert_eq!(mask, fresh(&game));
            let ids: Vec<u16> = (0..52).filter(|&id| mask >> id & 1 == 1).collect();
            if let [first, second, ..] = ids[..] {
                game.apply_action(first, None).unwrap();
                assert_eq!(game.legal_mask(None).unwrap(), fresh(&game));
                game.undo().unwrap();
                game.apply_action(second, None).unwrap();
                assert_eq!(game.legal_mask(None).unwrap(), fresh(&game));
                game.undo().unwrap();
                assert_eq!(game.legal_mask(None).unwrap(), mask);
                game.apply_action(second, None).unwrap();
                undone += 1;
                continue;
            }
            // A card held but not legal, and a legal card for the wrong seat, are refused with
            // the codes of the checks and change nothing.
            let to_move = game.to_move().unwrap();
            let held = game.hand(to_move).unwrap();
            let before = game.clone();
            if let Some(card) = held.to_vec().into_iter().find(|c| mask >> c.id() & 1 == 0) {
                let refused = game.apply_action(u16::from(card.id()), None).unwrap_err();
                assert_ne!(refused.code(), ErrorCode::CardNotHeld);
                assert_eq!(game, before);
            }
            let other = (to_move + 1) % 4;
            let refused = game.apply_action(ids[0], Some(other)).unwrap_err();
            assert_eq!(refused.code(), ErrorCode::WrongSeat);
            assert_eq!(game, before);
            game.apply_action(ids[0], None).unwrap();
        }
        assert!(undone > 10, "{undone} positions had two legal cards");
    }
}
