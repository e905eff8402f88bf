//! Perft and divide (spec `perft.md`, PERFT-1 … PERFT-6): the number of legal sequences of
//! decisions from a position, counted by walking the position (a `Copy` value) and, at the last
//! level, by the size of the legal set alone.

use crate::action::Action;
use crate::card::{Card, CardMultiset, CardSet};
use crate::error::{Error, ErrorCode};
use crate::game::Game;
use crate::position::{Phase, Position};
use crate::ruleset::{MoonChoice, Ruleset};

/// The largest depth perft and divide take, in either unit (PERFT-5, ERR-6). No depth near it
/// finishes; it bounds the recursion, not the time, which the caller bounds by interrupting.
pub const MAX_PERFT_DEPTH: u64 = 32;

/// How many positions are expanded between two calls of the caller's `stop` (a few
/// milliseconds of work).
const STOP_INTERVAL: u64 = 1 << 12;

/// What a perft depth counts (PERFT-2, PERFT-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PerftUnit {
    /// `decisions`: sequences of `depth` decisions.
    Decisions,
    /// `tricks`: sequences of decisions until `depth` more tricks are complete.
    Tricks,
}

impl PerftUnit {
    /// The spec's name: `decisions` or `tricks`.
    pub fn as_str(self) -> &'static str {
        match self {
            PerftUnit::Decisions => "decisions",
            PerftUnit::Tricks => "tricks",
        }
    }

    /// The unit of this name.
    ///
    /// # Errors
    ///
    /// `invalid-setup` for any other name (PERFT-5).
    pub fn from_name(name: &str) -> Result<PerftUnit, Error> {
        match name {
            "decisions" => Ok(PerftUnit::Decisions),
            "tricks" => Ok(PerftUnit::Tricks),
            _ => Err(Error::new(
                ErrorCode::InvalidSetup,
                format!("invalid setup: a perft unit is 'decisions' or 'tricks', not {name:?}"),
            )),
        }
    }
}

/// One decision of PERFT-1: a whole pass of the acting seat, a play, or the moon choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PerftDecision {
    /// The acting seat passes these cards (a multiset with two packs).
    Pass(CardMultiset),
    /// The seat to move plays this card.
    Play(Card),
    /// The moon taker chooses.
    Moon(MoonChoice),
}

impl PerftDecision {
    /// The divide key of PERFT-4: the card (`QS`); the passed cards in sorted order joined by
    /// `+` (`2C+2C+QS`); the moon choice (`add-to-others`).
    pub fn key(&self) -> String {
        match self {
            PerftDecision::Play(card) => card.to_string(),
            PerftDecision::Pass(cards) => cards.to_strings().join("+"),
            PerftDecision::Moon(choice) => choice.as_str().to_owned(),
        }
    }

    /// The ACT-1 action of this decision by `seat`.
    pub fn action(&self, seat: usize) -> Action {
        match *self {
            PerftDecision::Play(card) => Action::Play { seat, card },
            PerftDecision::Pass(cards) => Action::Pass {
                seat,
                cards: cards.to_vec(),
            },
            PerftDecision::Moon(choice) => Action::Moon { seat, choice },
        }
    }
}

/// The number of distinct multisets of `size` cards drawn from `hand` (PERFT-1: two copies of
/// a card are one choice). With `a` cards held once and `b` held twice, choosing which `t` of
/// the `b` go twice leaves `size − 2t` distinct cards from the other `a + b − t`.
pub fn pass_count(hand: CardMultiset, size: usize) -> u64 {
    let twice = hand.twice.count_ones() as u64;
    let distinct = hand.set.count_ones() as u64;
    let size = size as u64;
    (0..=twice.min(size / 2))
        .map(|t| binomial(twice, t) * binomial(distinct - t, size - 2 * t))
        .sum()
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    // Exact at every step: the running product is C(n, i) after step i.
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Every multiset of `size` cards from `hand`, in the order of their sorted card lists.
fn passes(hand: CardMultiset, size: usize) -> Vec<CardMultiset> {
    fn extend(
        cards: &[(Card, u8)],
        size: usize,
        chosen: CardMultiset,
        out: &mut Vec<CardMultiset>,
    ) {
        if chosen.len() == size {
            out.push(chosen);
            return;
        }
        let Some((&(card, copies), rest)) = cards.split_first() else {
            return;
        };
        // Sorted lists: those holding this card come before those that skip it, and two
        // copies before one.
        let most = copies.min((size - chosen.len()) as u8);
        for taken in (1..=most).rev() {
            let mut with = chosen;
            for _ in 0..taken {
                with.insert(card);
            }
            extend(rest, size, with, out);
        }
        extend(rest, size, chosen, out);
    }
    let cards: Vec<(Card, u8)> = CardSet(hand.set)
        .into_iter()
        .map(|c| (c, hand.count(c)))
        .collect();
    let mut out = Vec::new();
    extend(&cards, size, CardMultiset::EMPTY, &mut out);
    out
}

/// The decisions of the acting seat at `pos` (PERFT-1), in divide order, and that seat.
fn decisions(rules: &Ruleset, pos: &Position) -> (usize, Vec<PerftDecision>) {
    match pos.phase {
        Phase::Play => (
            pos.hand.to_move(),
            pos.hand
                .legal_plays(rules)
                .into_iter()
                .map(PerftDecision::Play)
                .collect(),
        ),
        Phase::Pass => {
            let seat = pos.acting_seat(rules).unwrap_or(0);
            let size = rules.passing().map_or(0, |p| p.size);
            let all = passes(pos.hand.hand(seat), size);
            (seat, all.into_iter().map(PerftDecision::Pass).collect())
        }
        Phase::Moon => (
            pos.acting_seat(rules).unwrap_or(0),
            vec![
                PerftDecision::Moon(MoonChoice::AddToOthers),
                PerftDecision::Moon(MoonChoice::SubtractFromTaker),
            ],
        ),
        Phase::Deal | Phase::Over => (0, Vec::new()),
    }
}

/// The walk of one perft call.
struct Walk<'a> {
    rules: &'a Ruleset,
    unit: PerftUnit,
    // A seeded game deals its next hand itself (DEAL-3); an unseeded one waits in phase deal.
    seeded: bool,
    stop: &'a mut dyn FnMut() -> bool,
    expanded: u64,
    stopped: bool,
}

impl Walk<'_> {
    /// The position after `decision` at `pos`, and whether it completed a trick.
    fn after(&self, pos: &Position, seat: usize, decision: PerftDecision) -> (Position, bool) {
        let mut next = *pos;
        let out = match decision {
            PerftDecision::Play(card) => next.play(self.rules, card),
            PerftDecision::Pass(cards) => next.pass(self.rules, seat, cards),
            PerftDecision::Moon(choice) => next.moon(self.rules, choice),
        };
        if next.phase == Phase::Deal && self.seeded {
            next.deal_from_rng(self.rules);
        }
        (next, out.trick.is_some())
    }

    /// What is left to count below a decision that leaves `left` to go (PERFT-2, PERFT-3).
    fn left_after(&self, left: u64, completed_trick: bool) -> u64 {
        match self.unit {
            PerftUnit::Decisions => left - 1,
            PerftUnit::Tricks => left - u64::from(completed_trick),
        }
    }

    /// PERFT-2 and PERFT-3 at `pos` with `left` to go; 0 once stopped (the result is dropped).
    fn count(&mut self, pos: &Position, left: u64) -> u64 {
        if left == 0 {
            return 1;
        }
        // Bulk counting: where every decision ends the sequence, the leaves are the decisions.
        let last = left == 1
            && match self.unit {
                PerftUnit::Decisions => true,
                PerftUnit::Tricks => {
                    pos.phase == Phase::Play && pos.hand.trick_len() + 1 == self.rules.players()
                }
            };
        match pos.phase {
            // PERFT-2: nobody acts, so the sequence ends here.
            Phase::Deal | Phase::Over => return 1,
            Phase::Play if last => return pos.hand.legal_plays(self.rules).len() as u64,
            Phase::Pass if last => {
                let seat = pos.acting_seat(self.rules).unwrap_or(0);
                let size = self.rules.passing().map_or(0, |p| p.size);
                return pass_count(pos.hand.hand(seat), size);
            }
            Phase::Moon if last => return 2,
            _ => {}
        }
        self.expanded += 1;
        if self.expanded % STOP_INTERVAL == 0 && (self.stop)() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let mut total = 0u64;
        if pos.phase == Phase::Play {
            // The commonest case without the vector of decisions.
            for card in pos.hand.legal_plays(self.rules) {
                let (next, trick) = self.after(pos, 0, PerftDecision::Play(card));
                total = total.saturating_add(self.count(&next, self.left_after(left, trick)));
            }
            return total;
        }
        let (seat, all) = decisions(self.rules, pos);
        for decision in all {
            let (next, trick) = self.after(pos, seat, decision);
            total = total.saturating_add(self.count(&next, self.left_after(left, trick)));
        }
        total
    }
}

/// The checks of PERFT-5: the depth, then a position where a seat acts.
fn check(game: &Game, depth: u64, least: u64) -> Result<(), Error> {
    if depth < least || depth > MAX_PERFT_DEPTH {
        return Err(Error::new(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: the depth must be an integer from {least} to {MAX_PERFT_DEPTH}, got {depth}"
            ),
        ));
    }
    match game.phase() {
        Phase::Deal => Err(Error::new(
            ErrorCode::WrongPhase,
            "wrong phase: no seat decides in phase deal (a deal is chance, not a decision)",
        )),
        Phase::Over => Err(Error::new(
            ErrorCode::MatchOver,
            "match over: no seat decides once the match is over",
        )),
        _ => Ok(()),
    }
}

impl Game {
    /// Perft (PERFT-2, PERFT-3): the number of legal sequences of `depth` decisions from this
    /// position, or of decisions until `depth` more tricks are complete; a sequence that
    /// reaches a position where nobody decides ends there and counts once.
    ///
    /// # Errors
    ///
    /// `invalid-setup` for a depth above [`MAX_PERFT_DEPTH`]; `wrong-phase` in phase `deal`,
    /// `match-over` in phase `over` (PERFT-5).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Game, PerftUnit};
    /// let game = Game::new(preset("hearts-4").unwrap(), Some(1), 3, None).unwrap();
    /// // Hand 3 holds: the holder of 2C must lead it (PLAY-1).
    /// assert_eq!(game.perft(1, PerftUnit::Decisions).unwrap(), 1);
    /// ```
    pub fn perft(&self, depth: u64, unit: PerftUnit) -> Result<u64, Error> {
        let never = &mut || false;
        self.perft_until(depth, unit, never)
            .map(|count| count.unwrap_or(0))
    }

    /// [`Game::perft`], asking `stop` now and then whether to give up: `None` once it said so.
    ///
    /// # Errors
    ///
    /// As [`Game::perft`].
    pub fn perft_until(
        &self,
        depth: u64,
        unit: PerftUnit,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Option<u64>, Error> {
        check(self, depth, 0)?;
        let mut walk = Walk {
            rules: self.ruleset(),
            unit,
            seeded: self.seed().is_some(),
            stop,
            expanded: 0,
            stopped: false,
        };
        let count = walk.count(self.position(), depth);
        Ok((!walk.stopped).then_some(count))
    }

    /// Divide (PERFT-4): for each decision of the acting seat, in order (plays by card, passes
    /// by their sorted cards, the moon choices as their ids), its key and the number of the
    /// sequences [`Game::perft`] counts that begin with it. The counts add up to perft's.
    ///
    /// # Errors
    ///
    /// As [`Game::perft`], and `invalid-setup` for a depth of 0.
    pub fn divide(&self, depth: u64, unit: PerftUnit) -> Result<Vec<(String, u64)>, Error> {
        let never = &mut || false;
        self.divide_until(depth, unit, never)
            .map(|found| found.unwrap_or_default())
    }

    /// [`Game::divide`], asking `stop` now and then whether to give up: `None` once it said so.
    ///
    /// # Errors
    ///
    /// As [`Game::divide`].
    pub fn divide_until(
        &self,
        depth: u64,
        unit: PerftUnit,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Option<Vec<(String, u64)>>, Error> {
        check(self, depth, 1)?;
        let mut walk = Walk {
            rules: self.ruleset(),
            unit,
            seeded: self.seed().is_some(),
            stop,
            expanded: 0,
            stopped: false,
        };
        let pos = self.position();
        let (seat, all) = decisions(walk.rules, pos);
        let mut out = Vec::with_capacity(all.len());
        for decision in all {
            let (next, trick) = walk.after(pos, seat, decision);
            let count = walk.count(&next, walk.left_after(depth, trick));
            if walk.stopped {
                return Ok(None);
            }
            out.push((decision.key(), count));
        }
        Ok(Some(out))
    }

    /// The decisions of PERFT-1 at this position, in divide order, each with its ACT-1 action.
    pub fn perft_decisions(&self) -> Vec<(String, Action)> {
        let (seat, all) = decisions(self.ruleset(), self.position());
        all.into_iter().map(|d| (d.key(), d.action(seat))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn multiset(cards: &[&str]) -> CardMultiset {
        let mut m = CardMultiset::EMPTY;
        for c in cards {
            m.insert(c.parse().unwrap());
        }
        m
    }

    #[test]
    fn pass_counts_are_binomials_and_count_two_copies_once() {
        let thirteen = multiset(&[
            "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC",
        ]);
        assert_eq!(pass_count(thirteen, 3), 286);
        assert_eq!(passes(thirteen, 3).len(), 286);
        // {2C, 2C, 3C}: 2C+2C, 2C+3C, and nothing else of two cards.
        let pair = multiset(&["2C", "2C", "3C"]);
        assert_eq!(pass_count(pair, 2), 2);
        let keys: Vec<String> = passes(pair, 2)
            .into_iter()
            .map(|m| PerftDecision::Pass(m).key())
            .collect();
        assert_eq!(keys, ["2C+2C", "2C+3C"]);
        // {2C, 2C, 3C, 3C, 4C} choosing 3: 2C2C3C 2C2C4C 2C3C3C 2C3C4C 3C3C4C.
        let two_pairs = multiset(&["2C", "2C", "3C", "3C", "4C"]);
        assert_eq!(pass_count(two_pairs, 3), 5);
        assert_eq!(passes(two_pairs, 3).len(), 5);
        assert_eq!(pass_count(two_pairs, 0), 1);
        assert_eq!(pass_count(pair, 4), 0);
    }
}
