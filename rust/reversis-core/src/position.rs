//! The match state machine without its history (spec `game.md`): a position, its phase, its
//! checks and its transitions. [`crate::Game`] records the history (actions, tricks, hand
//! scores, undo) on top of it; [`crate::VectorEnv`] steps positions alone, which is why a
//! position is small (it is `Copy` and holds no pointer) and every per-seat table of cards in it
//! is three bit planes.

use std::fmt;

use crate::action::{Action, Decision, MOON_ADD_ID, MOON_SUBTRACT_ID, PASS_BASE};
use crate::card::{Card, CardMultiset, CardSet};
use crate::error::{Error, ErrorCode};
use crate::event::HandSummary;
use crate::hand::{CompletedTrick, HandState};
use crate::kernel::{self, Scoring};
use crate::rng::SplitMix64;
use crate::ruleset::{MoonChoice, PassDirection, Ruleset};
use crate::seat::{PerSeat, MAX_PLAYERS};

fn err(code: ErrorCode, msg: impl Into<String>) -> Error {
    Error::new(code, msg)
}

// The seats fit in four bits with one value, 15, left for "no seat".
const _: () = assert!(MAX_PLAYERS < 16);

/// The seat value of [`SeatPlanes`] that is no seat.
pub(crate) const NO_SEAT: usize = 15;

/// A seat per card, or none, as four bit planes: bit `c` of plane `k` is bit `k` of the seat
/// of card `c`, all four set for no seat. 32 bytes, where a set per seat takes 80.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SeatPlanes([u64; 4]);

impl SeatPlanes {
    pub(crate) const NONE: SeatPlanes = SeatPlanes([!0; 4]);

    /// The cards of `seat`.
    pub(crate) fn cards_of(&self, seat: usize) -> CardSet {
        let mut m = !0u64;
        for (k, plane) in self.0.iter().enumerate() {
            m &= if seat >> k & 1 == 1 { *plane } else { !*plane };
        }
        CardSet(m & CardSet::FULL.0)
    }

    /// Gives `cards` to `seat`.
    pub(crate) fn assign(&mut self, cards: CardSet, seat: usize) {
        for (k, plane) in self.0.iter_mut().enumerate() {
            if seat >> k & 1 == 1 {
                *plane |= cards.0;
            } else {
                *plane &= !cards.0;
            }
        }
    }
}

/// A seat per copy of a card (two packs, RS-21), or none: the first copy's seat in one
/// [`SeatPlanes`], the second's in another. With one pack the second is always empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CopyPlanes([SeatPlanes; 2]);

impl CopyPlanes {
    pub(crate) const NONE: CopyPlanes = CopyPlanes([SeatPlanes::NONE; 2]);

    /// The copies of `seat`.
    pub(crate) fn cards_of(&self, seat: usize) -> CardMultiset {
        let a = self.0[0].cards_of(seat).0;
        let b = self.0[1].cards_of(seat).0;
        CardMultiset {
            set: a | b,
            twice: a & b,
        }
    }

    /// Gives the copies `cards` to `seat`: each to the first plane where the card has no seat.
    pub(crate) fn add(&mut self, cards: CardMultiset, seat: usize) {
        let free = self.0[0].cards_of(NO_SEAT).0;
        let first = cards.set & free;
        let second = (cards.set & !free) | cards.twice;
        if first != 0 {
            self.0[0].assign(CardSet(first), seat);
        }
        if second != 0 {
            self.0[1].assign(CardSet(second), seat);
        }
    }

    /// Takes every copy from `seat`.
    pub(crate) fn clear(&mut self, seat: usize) {
        for plane in &mut self.0 {
            let mine = plane.cards_of(seat);
            plane.assign(mine, NO_SEAT);
        }
    }
}

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

/// What one transition set off, for the history of a [`crate::Game`] and the rewards of a
/// [`crate::VectorEnv`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Outcome {
    /// A pass the transition completed: the seat and its cards.
    pub(crate) pass: Option<(usize, CardMultiset)>,
    /// Whether the cards were exchanged (PASS-3).
    pub(crate) exchanged: bool,
    /// The trick the transition completed.
    pub(crate) trick: Option<CompletedTrick>,
    /// The hand the transition scored; the match is then over or waits for the next deal.
    pub(crate) hand: Option<HandSummary>,
}

/// Everything that is the position (API-9) but the ruleset, the seed, the number of deals made
/// from it and the completed tricks (the history's). Outside the crate it is read only, through
/// [`crate::VectorEnv::position`], by players that decide for its acting seat; a method that
/// takes a ruleset must be given the game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) rng: SplitMix64,
    pub(crate) hand_number: u64,
    pub(crate) hand: HandState,
    // The seat that selected (ACT-2) or passed each card this hand: a seat's selection while it
    // awaits its pass, its pass once `passed_mask` has it.
    pass_seats: CopyPlanes,
    // The seat that played each copy this hand, the trick in progress included.
    play_seats: CopyPlanes,
    pub(crate) scores: PerSeat<i64>,
    pub(crate) phase: Phase,
    // Bit `s` once seat `s` has passed this hand.
    passed_mask: u16,
    exchanged: bool,
    // MATCH-5: whether this hand (the coming one in phase `deal`) is a count-down hand.
    pub(crate) count_down: bool,
}

impl Position {
    /// A match at hand `hand_number` with the totals `scores`, waiting for its deal.
    pub(crate) fn new(
        rules: &Ruleset,
        seed: u64,
        hand_number: u64,
        scores: PerSeat<i64>,
    ) -> Position {
        Position {
            rng: SplitMix64::new(seed),
            hand_number,
            hand: HandState::empty(rules),
            pass_seats: CopyPlanes::NONE,
            play_seats: CopyPlanes::NONE,
            scores,
            phase: Phase::Deal,
            passed_mask: 0,
            exchanged: false,
            count_down: Scoring::new(rules).in_count_down(scores.first(rules.players())),
        }
    }

    // ------------------------------------------------------------------ reading

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The hand in progress, every seat's cards included: a player reads from it only what its
    /// seat may see (OBS-1).
    pub fn hand_state(&self) -> &HandState {
        &self.hand
    }

    /// The match totals, one per seat of the table first.
    pub fn scores(&self) -> &PerSeat<i64> {
        &self.scores
    }

    pub(crate) fn dealer(&self, rules: &Ruleset) -> usize {
        rules.dealer(self.hand_number)
    }

    pub(crate) fn has_passed(&self, seat: usize) -> bool {
        self.passed_mask & (1 << seat) != 0
    }

    pub(crate) fn exchanged(&self) -> bool {
        self.exchanged
    }

    /// The cards `seat` has selected toward its pass (ACT-2), as a multiset.
    pub fn selection(&self, seat: usize) -> CardMultiset {
        if self.has_passed(seat) {
            CardMultiset::EMPTY
        } else {
            self.pass_seats.cards_of(seat)
        }
    }

    /// The cards `seat` passed this hand, once it has.
    pub(crate) fn passed(&self, seat: usize) -> Option<CardMultiset> {
        self.has_passed(seat)
            .then(|| self.pass_seats.cards_of(seat))
    }

    /// The cards `seat` received this hand, once the exchange has happened (PASS-3).
    pub(crate) fn received(&self, rules: &Ruleset, seat: usize) -> Option<CardMultiset> {
        if !self.exchanged {
            return None;
        }
        let dir = rules
            .pass_direction(self.hand_number)
            .unwrap_or(PassDirection::Hold);
        Some(self.pass_seats.cards_of(dir.source(seat, rules.players())))
    }

    /// The cards `seat` has played this hand, the trick in progress included.
    pub(crate) fn played_by(&self, seat: usize) -> CardMultiset {
        self.play_seats.cards_of(seat)
    }

    /// The seat to play (phase `play`) or to choose (phase `moon`).
    pub(crate) fn seat_to_move(&self, rules: &Ruleset) -> Option<usize> {
        match self.phase {
            Phase::Play => Some(self.hand.to_move()),
            Phase::Moon => self.hand.moon_taker(rules),
            _ => None,
        }
    }

    /// The acting seat of ACT-3.
    pub fn acting_seat(&self, rules: &Ruleset) -> Option<usize> {
        match self.phase {
            Phase::Pass => (0..rules.players()).find(|&s| !self.has_passed(s)),
            _ => self.seat_to_move(rules),
        }
    }

    /// The legal action ids of `seat`, a seat of the table, as a mask (ACT-3).
    pub fn legal_mask(&self, rules: &Ruleset, seat: usize) -> u128 {
        match self.phase {
            Phase::Play if self.hand.to_move() == seat => {
                u128::from(self.hand.legal_plays(rules).0)
            }
            Phase::Pass if !self.has_passed(seat) => {
                // ACT-3: every card held more times than selected.
                let (hand, sel) = (self.hand.hand(seat), self.selection(seat));
                let free = (hand.set & !sel.set) | (hand.twice & !sel.twice);
                u128::from(free) << PASS_BASE
            }
            Phase::Moon if self.hand.moon_taker(rules) == Some(seat) => {
                (1u128 << MOON_ADD_ID) | (1u128 << MOON_SUBTRACT_ID)
            }
            _ => 0,
        }
    }

    // ------------------------------------------------------------------ checks

    /// The phase errors of ERR-4 for an action of type `ty` that belongs to phase `wanted`:
    /// `match-over`, `moon-choice-pending`, `wrong-phase`.
    pub(crate) fn phase_error(
        &self,
        ty: &str,
        wanted: Phase,
        shown: &dyn fmt::Display,
    ) -> Option<Error> {
        let phase = self.phase;
        if phase == Phase::Over {
            return Some(err(
                ErrorCode::MatchOver,
                format!("match over: no action is accepted, got {shown}"),
            ));
        }
        if phase == Phase::Moon && wanted != Phase::Moon {
            return Some(err(
                ErrorCode::MoonChoicePending,
                format!("moon choice pending: the moon taker must choose first, got {shown}"),
            ));
        }
        if phase != wanted {
            return Some(err(
                ErrorCode::WrongPhase,
                format!("wrong phase: a {ty} action in phase {phase}: {shown}"),
            ));
        }
        None
    }

    pub(crate) fn seat_in_table(
        rules: &Ruleset,
        seat: usize,
        shown: &dyn fmt::Display,
    ) -> Result<(), Error> {
        let n = rules.players();
        if seat >= n {
            return Err(err(
                ErrorCode::InvalidAction,
                format!(
                    "invalid action: seat {seat} is out of range 0-{} in {shown}",
                    n - 1
                ),
            ));
        }
        Ok(())
    }

    /// The seat an API call acts for (ACT-3): the one given, else the acting seat; where there
    /// is none, the phase's own error in phases `deal` and `over`, else `invalid-action`.
    pub(crate) fn acting(
        &self,
        rules: &Ruleset,
        seat: Option<usize>,
        ty: &str,
        wanted: Phase,
    ) -> Result<usize, Error> {
        if let Some(s) = seat {
            return Ok(s);
        }
        if let Some(s) = self.acting_seat(rules) {
            return Ok(s);
        }
        if let Some(e) = self.phase_error(ty, wanted, &format_args!("a {ty} for the acting seat")) {
            return Err(e);
        }
        Err(err(
            ErrorCode::InvalidAction,
            format!("invalid action: no seat is to act in phase {}", self.phase),
        ))
    }

    pub(crate) fn already_passed(&self, seat: usize) -> Result<(), Error> {
        if self.has_passed(seat) {
            return Err(err(
                ErrorCode::AlreadyPassed,
                format!("already passed: seat {seat} has passed this hand"),
            ));
        }
        Ok(())
    }

    fn not_held(seat: usize, c: Card) -> Error {
        err(
            ErrorCode::CardNotHeld,
            format!("card not held: seat {seat} does not hold '{c}'"),
        )
    }

    pub(crate) fn check_pass(
        &self,
        rules: &Ruleset,
        seat: usize,
        cards: &[Card],
    ) -> Result<CardMultiset, Error> {
        self.already_passed(seat)?;
        let size = rules.passing().map_or(0, |p| p.size);
        if cards.len() != size {
            return Err(err(
                ErrorCode::WrongPassSize,
                format!(
                    "wrong pass size: seat {seat} passed {} cards, expected {size}",
                    cards.len()
                ),
            ));
        }
        // PASS-2: a card named more times than the deck has copies of it, or than the seat
        // holds it where it holds one, is a duplicate; then a card not held.
        let hand = self.hand.hand(seat);
        let mut set = CardMultiset::EMPTY;
        for &c in cards {
            let held = hand.count(c);
            let allowed = if held == 0 { rules.packs() } else { held };
            if set.count(c) >= allowed {
                return Err(err(
                    ErrorCode::DuplicateCard,
                    format!("duplicate card: '{c}' is passed more times than seat {seat} holds it"),
                ));
            }
            set.insert(c);
        }
        if let Some(c) = cards.iter().find(|c| !hand.contains(**c)) {
            return Err(Self::not_held(seat, *c));
        }
        Ok(set)
    }

    pub(crate) fn check_play(&self, rules: &Ruleset, seat: usize, card: Card) -> Result<(), Error> {
        let to_move = self.hand.to_move();
        if seat != to_move {
            return Err(err(
                ErrorCode::WrongSeat,
                format!("wrong seat: seat {seat} played '{card}' but seat {to_move} is to move"),
            ));
        }
        self.hand
            .check_play(rules, card)
            .map_err(|code| self.breach(rules, code, seat, card).to_error())
    }

    /// The breach of `code` when `seat` plays `card` here ([`kernel::Breach::new`]).
    pub(crate) fn breach(
        &self,
        rules: &Ruleset,
        code: ErrorCode,
        seat: usize,
        card: Card,
    ) -> kernel::Breach {
        kernel::Breach::new(code, seat, card, rules.opening_card(), self.hand.led_suit())
    }

    pub(crate) fn check_moon(&self, rules: &Ruleset, seat: usize) -> Result<(), Error> {
        let taker = self.hand.moon_taker(rules);
        if taker != Some(seat) {
            return Err(err(
                ErrorCode::NotMoonTaker,
                format!(
                    "not moon taker: seat {seat} cannot choose, the taker is seat {}",
                    taker.map_or_else(|| "none".to_string(), |t| t.to_string())
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn check_select(&self, seat: usize, card: Card) -> Result<(), Error> {
        if let Some(e) = self.phase_error(
            "pass",
            Phase::Pass,
            &format_args!("a selection of '{card}' by seat {seat}"),
        ) {
            return Err(e);
        }
        self.already_passed(seat)?;
        // ACT-2: selected already as many times as held (with one pack, selected at all).
        let selected = self.selection(seat).count(card);
        if selected > 0 && selected >= self.hand.hand(seat).count(card) {
            return Err(err(
                ErrorCode::DuplicateCard,
                format!("duplicate card: seat {seat} has selected '{card}' already"),
            ));
        }
        if !self.hand.hand(seat).contains(card) {
            return Err(Self::not_held(seat, card));
        }
        Ok(())
    }

    /// The checks of action id `id` for `seat`, by default the acting seat (ACT-2, ACT-3,
    /// ERR-4): the seat it is for and its decision, once accepted.
    pub(crate) fn check_id(
        &self,
        rules: &Ruleset,
        id: u16,
        seat: Option<usize>,
    ) -> Result<(usize, Decision), Error> {
        let decision = Decision::from_id(id)?;
        if let Some(s) = seat {
            Self::seat_in_table(rules, s, &format_args!("action id {id}"))?;
        }
        let seat = match decision {
            // The per-step case: in phase play no phase error applies to a play (ERR-4).
            Decision::Play(card) if self.phase == Phase::Play => {
                let seat = seat.unwrap_or_else(|| self.hand.to_move());
                self.check_play(rules, seat, card)?;
                seat
            }
            Decision::Play(card) => {
                let seat = self.acting(rules, seat, "play", Phase::Play)?;
                let action = Action::Play { seat, card };
                Self::seat_in_table(rules, seat, &action)?;
                // Outside phase play there always is a phase error.
                return Err(self
                    .phase_error("play", Phase::Play, &action)
                    .unwrap_or_else(|| err(ErrorCode::WrongPhase, "wrong phase")));
            }
            Decision::Moon(choice) => {
                let seat = self.acting(rules, seat, "moon", Phase::Moon)?;
                let action = Action::Moon { seat, choice };
                Self::seat_in_table(rules, seat, &action)?;
                if let Some(e) = self.phase_error("moon", Phase::Moon, &action) {
                    return Err(e);
                }
                self.check_moon(rules, seat)?;
                seat
            }
            Decision::Select(card) => {
                let seat = self.acting(rules, seat, "pass", Phase::Pass)?;
                self.check_select(seat, card)?;
                seat
            }
        };
        Ok((seat, decision))
    }

    // ------------------------------------------------------------------ transitions

    fn clear_hand(&mut self, rules: &Ruleset) {
        self.hand = HandState::empty(rules);
        self.pass_seats = CopyPlanes::NONE;
        self.play_seats = CopyPlanes::NONE;
        self.passed_mask = 0;
        self.exchanged = false;
    }

    /// Deals `hands`, checked (DEAL-3), and opens the pass or the play.
    pub(crate) fn deal(&mut self, rules: &Ruleset, hands: &PerSeat<CardMultiset>) {
        self.clear_hand(rules);
        for (s, h) in hands.first(rules.players()).iter().enumerate() {
            self.hand.set_hand(s, *h);
        }
        if rules.passes_on(self.hand_number) {
            self.phase = Phase::Pass;
        } else {
            self.hand.start_play(rules, self.dealer(rules));
            self.phase = Phase::Play;
        }
    }

    /// Deals the next hand from the seed's generator (SEED-5) and returns it.
    pub(crate) fn deal_from_rng(&mut self, rules: &Ruleset) -> PerSeat<CardMultiset> {
        let hands = self.rng.deal(rules, self.dealer(rules));
        self.deal(rules, &hands);
        hands
    }

    /// Selects `card` toward `seat`'s pass (ACT-2), checked; the selection that reaches the
    /// pass size is the seat's pass.
    pub(crate) fn select(&mut self, rules: &Ruleset, seat: usize, card: Card) -> Outcome {
        self.pass_seats
            .add(CardMultiset::from_set(CardSet(card.bit())), seat);
        let size = rules.passing().map_or(0, |p| p.size);
        let selection = self.selection(seat);
        if selection.len() >= size {
            self.pass(rules, seat, selection)
        } else {
            Outcome::default()
        }
    }

    /// Passes `set`, checked, for `seat` (PASS-2), replacing its selection; the last pass
    /// exchanges the cards and opens the play (PASS-3).
    pub(crate) fn pass(&mut self, rules: &Ruleset, seat: usize, set: CardMultiset) -> Outcome {
        let n = rules.players();
        self.pass_seats.clear(seat);
        self.pass_seats.add(set, seat);
        self.passed_mask |= 1 << seat;
        self.hand.set_hand(seat, self.hand.hand(seat).minus(set));
        let mut out = Outcome {
            pass: Some((seat, set)),
            ..Outcome::default()
        };
        if u32::from(self.passed_mask).count_ones() as usize == n {
            let dir = rules
                .pass_direction(self.hand_number)
                .unwrap_or(PassDirection::Hold);
            for s in 0..n {
                let t = dir.target(s, n);
                let got = self.pass_seats.cards_of(s);
                self.hand.set_hand(t, self.hand.hand(t).plus(got));
            }
            self.exchanged = true;
            out.exchanged = true;
            self.hand.start_play(rules, self.dealer(rules));
            self.phase = Phase::Play;
        }
        out
    }

    /// Plays `card`, checked, for the seat to move; a trick that completes the hand scores it
    /// unless the moon taker must choose (SCORE-3).
    pub(crate) fn play(&mut self, rules: &Ruleset, card: Card) -> Outcome {
        let seat = self.hand.to_move();
        if rules.two_packs() {
            self.play_seats
                .add(CardMultiset::from_set(CardSet(card.bit())), seat);
        } else {
            // One pack: the card's only copy, in the first plane.
            self.play_seats.0[0].assign(CardSet(card.bit()), seat);
        }
        let mut out = Outcome {
            trick: self.hand.play_unchecked(rules, card),
            ..Outcome::default()
        };
        if out.trick.is_some() && self.hand.is_complete(rules) {
            let shot = self.hand.shot(rules, self.count_down);
            if shot.is_some_and(|s| s.awaits_choice()) {
                self.phase = Phase::Moon;
            } else {
                out.hand = Some(self.score_hand(rules, None));
            }
        }
        out
    }

    /// The moon taker's choice, checked: scores the hand.
    pub(crate) fn moon(&mut self, rules: &Ruleset, choice: MoonChoice) -> Outcome {
        Outcome {
            hand: Some(self.score_hand(rules, Some(choice))),
            ..Outcome::default()
        }
    }

    // Scores the completed hand (SCORE-*, MATCH-6): the match is then over (MATCH-2, MATCH-7)
    // or waits for the next hand's deal.
    fn score_hand(&mut self, rules: &Ruleset, choice: Option<MoonChoice>) -> HandSummary {
        let n = rules.players();
        let scoring = Scoring::new(rules);
        let hand = self.hand;
        let shot = hand.shot(rules, self.count_down);
        let mut row = PerSeat::splat(0i64);
        if self.count_down {
            for (seat, &points) in hand.points().iter().enumerate() {
                row[seat] = scoring.count_down_score(self.scores[seat], points);
            }
        } else {
            let s = hand.hand_scores(rules, choice);
            for seat in 0..n {
                row[seat] = i64::from(s[seat]);
            }
        }
        for seat in 0..n {
            self.scores[seat] = self.scores[seat].saturating_add(row[seat]);
        }
        let mut points = PerSeat::splat(0i32);
        points.first_mut(n).copy_from_slice(hand.points());
        let summary = HandSummary {
            hand_number: self.hand_number,
            players: n as u8,
            points,
            moon_taker: shot.map(|s| s.taker as u8),
            moon_choice: shot.and_then(|s| s.how(choice)),
            scores: row,
        };
        let next = scoring.after_hand(self.scores.first(n), self.count_down, self.hand_number);
        if next.over {
            self.phase = Phase::Over;
        } else {
            self.count_down = next.count_down;
            self.hand_number = self.hand_number.wrapping_add(1);
            self.clear_hand(rules);
            self.phase = Phase::Deal;
        }
        summary
    }
}

#[cfg(test)]
mod tests {
    use super::{Position, SeatPlanes};
    use crate::card::CardSet;

    #[test]
    fn seat_planes_keep_one_seat_per_card() {
        let mut p = SeatPlanes::NONE;
        for seat in 0..10 {
            assert!(p.cards_of(seat).is_empty());
        }
        p.assign(CardSet(0b1011), 5);
        p.assign(CardSet(0b0010), 0);
        assert_eq!(p.cards_of(5), CardSet(0b1001));
        assert_eq!(p.cards_of(0), CardSet(0b0010));
        p.assign(CardSet(0b1000), super::NO_SEAT);
        assert_eq!(p.cards_of(5), CardSet(0b0001));
        assert_eq!(p, {
            let mut q = SeatPlanes::NONE;
            q.assign(CardSet(0b0001), 5);
            q.assign(CardSet(0b0010), 0);
            q
        });
    }

    #[test]
    fn a_position_is_small() {
        // What a game of the vector environment costs (bounded at 256 bytes).
        // With 10 seats (RS-3 of 1.2.0) the totals alone take 80 bytes.
        let size = std::mem::size_of::<Position>();
        assert!(size <= 512, "{size}");
    }
}
