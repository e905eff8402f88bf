//! The rules of play, each written once as a function of card masks (bit `c` is card id `c`,
//! CARD-2), and beside each rule of legality its inverse: what a legal play shows about the
//! hand it came from (spec `game.md`, PLAY-1 … PLAY-8, SCORE-1, SCORE-2).
//!
//! [`HandState`](crate::HandState) (and through it the match's positions), the batch playout of
//! [`simulate`](crate::simulate) and the sampler's reading of a hand's plays
//! ([`revealed`](crate::revealed)) call these functions; nothing else states a rule of play.
//! They take what they need of a ruleset as masks, so a caller that plays millions of hands
//! reads the ruleset once, and they are `#[inline(always)]`, so that a constant argument (no
//! opening card after the first lead, no ban after the first trick) folds away.
//!
//! Every rule of legality here has one shape: a card `c` the seat holds is legal unless the
//! hand also holds a card of a set `E(c)` (the opening card, a card that is not a heart, a card
//! of the suit led, a card worth no points). So "`c` was played legally" says exactly "the hand
//! held no card of `E(c)`", and the inverse returns `E(c)`: nothing less, so that a sampler
//! that excludes those cards draws only hands the plays were legal from, and nothing more, so
//! that it misses none of them. Cards leave a hand only by being played, so what a play shows
//! the seat did not hold, it does not hold later in the hand either.
//!
//! # Examples
//!
//! ```
//! use reversis_core::{kernel, Card};
//! let bit = |s: &str| s.parse::<Card>().unwrap().bit();
//! let held = bit("2H") | bit("9H") | bit("QS") | bit("3D");
//! // A first trick led with a club: no club to follow, and the ban keeps the 3D alone.
//! let clubs = reversis_core::Suit::Clubs.mask().0;
//! let points = 0x1FFF << 26 | bit("QS");
//! assert_eq!(kernel::follow_mask(held, clubs, points), bit("3D"));
//! // A seat that discards the 9H there shows that it holds no club and no card worth nothing,
//! // which is why this hand may not discard it.
//! let shown = kernel::follow_reveals(bit("9H"), clubs, points);
//! assert_eq!(shown & clubs, clubs);
//! assert_eq!(shown & held, bit("3D"));
//! ```

use crate::card::{Card, Suit, FULL_DECK, SUIT_MASKS};
use crate::error::{Error, ErrorCode};
use crate::fields::Field;
use crate::ruleset::{LastTrick, MoonChoice, MoonScoring, Ruleset};

const HEARTS: u64 = SUIT_MASKS[Suit::Hearts as usize];

/// The mask of the suit of a one-card mask.
#[inline(always)]
pub fn suit_of(card: u64) -> u64 {
    SUIT_MASKS[(card.trailing_zeros() / 13) as usize & 3]
}

// ------------------------------------------------------------------ the first leader

/// PLAY-1, PLAY-2: the seat that leads the first trick among `hands` (one mask per seat): the
/// holder of the opening card (`opening` its bit, 0 where the ruleset has none), else the seat
/// left of `dealer`.
#[inline(always)]
pub fn first_leader(hands: &[u64], dealer: usize, opening: u64) -> usize {
    let left = dealer + 1;
    let left = if left == hands.len() { 0 } else { left };
    hands.iter().position(|&h| h & opening != 0).unwrap_or(left)
}

/// The inverse of [`first_leader`]: the seat `leader` leads the first trick, so a seat other
/// than it holds no opening card.
#[inline(always)]
pub fn first_leader_reveals(seat: usize, leader: usize, opening: u64) -> u64 {
    if seat == leader {
        0
    } else {
        opening
    }
}

// ------------------------------------------------------------------ the lead

/// PLAY-1: the cards `held` leaves for a lead where `opening` is the opening card's bit on the
/// hand's first lead (0 at any other lead, or without an opening card): the opening card alone
/// where the leader holds it.
#[inline(always)]
pub fn opening_lead(held: u64, opening: u64) -> u64 {
    if held & opening != 0 {
        opening
    } else {
        held
    }
}

/// The inverse of [`opening_lead`]: a lead of `card` other than the opening card shows that
/// the leader did not hold the opening card.
#[inline(always)]
pub fn opening_lead_reveals(card: u64, opening: u64) -> u64 {
    opening & !card
}

/// PLAY-6: the cards `held` leaves for a lead while hearts are unbroken (`broken` false): no
/// heart, unless every card held is a heart (D-2: a rule that would leave nothing is skipped).
#[inline(always)]
pub fn hearts_lead(held: u64, broken: bool) -> u64 {
    let plain = held & !HEARTS;
    if broken || plain == 0 {
        held
    } else {
        plain
    }
}

/// The inverse of [`hearts_lead`]: a heart led while hearts were unbroken shows a hand of
/// hearts.
#[inline(always)]
pub fn hearts_lead_reveals(card: u64, broken: bool) -> u64 {
    if !broken && card & HEARTS != 0 {
        FULL_DECK & !HEARTS
    } else {
        0
    }
}

/// PLAY-8 for a lead, stage by stage: the cards a leader holding `held` is left after
/// [`opening_lead`], then after [`hearts_lead`] (`opening` and `broken` as they say). The
/// opening card comes first (D-1): a heart opening card is led even while hearts are unbroken.
/// A stage narrows the cards only where the one before left the whole hand, so the stage that
/// narrowed them is the rule a held card outside them breaks.
#[inline(always)]
pub fn lead_cascade(held: u64, opening: u64, broken: bool) -> [u64; 2] {
    let first = opening_lead(held, opening);
    [first, hearts_lead(first, broken)]
}

/// PLAY-8: the legal cards of a leader holding `held`, the last stage of [`lead_cascade`].
#[inline(always)]
pub fn lead_mask(held: u64, opening: u64, broken: bool) -> u64 {
    lead_cascade(held, opening, broken)[1]
}

/// The inverse of [`lead_mask`]: the cards a seat that led `card` legally did not hold. The
/// opening card shows nothing (it is led whatever else the hand holds); any other card shows
/// what [`opening_lead_reveals`] and [`hearts_lead_reveals`] do, the first stage having left
/// the whole hand to the second.
#[inline(always)]
pub fn lead_reveals(card: u64, opening: u64, broken: bool) -> u64 {
    if card & opening != 0 {
        0
    } else {
        opening_lead_reveals(card, opening) | hearts_lead_reveals(card, broken)
    }
}

// ------------------------------------------------------------------ following

/// PLAY-4: the cards `held` leaves for a seat following a trick led in suit `led` (a suit
/// mask): those of the suit led, or every card held where it holds none.
#[inline(always)]
pub fn follow_suit(held: u64, led: u64) -> u64 {
    let follow = held & led;
    if follow != 0 {
        follow
    } else {
        held
    }
}

/// The inverse of [`follow_suit`]: a card not of the suit led shows a void in it (OBS-1).
#[inline(always)]
pub fn follow_suit_reveals(card: u64, led: u64) -> u64 {
    if card & led == 0 {
        led
    } else {
        0
    }
}

/// PLAY-5: the cards `held` leaves for a seat following a trick led in suit `led`, where
/// `banned` is the ruleset's point cards on a first trick under `first_trick_ban` (0 on any
/// other trick or without the ban): a seat that cannot follow suit discards no point card,
/// unless every card it holds is one (001 ¶7, D-2).
#[inline(always)]
pub fn first_trick_discard(held: u64, led: u64, banned: u64) -> u64 {
    let safe = held & !banned;
    if held & led != 0 || safe == 0 {
        held
    } else {
        safe
    }
}

/// The inverse of [`first_trick_discard`]: a point card discarded on a banned first trick
/// shows a hand of point cards (and, as any discard, a void in the suit led).
#[inline(always)]
pub fn first_trick_discard_reveals(card: u64, led: u64, banned: u64) -> u64 {
    if card & led == 0 && card & banned != 0 {
        (FULL_DECK & !banned) | led
    } else {
        0
    }
}

/// PLAY-8 for a card that follows the lead, stage by stage: the cards a seat holding `held` in
/// a trick led in suit `led` is left after [`follow_suit`], then after [`first_trick_discard`]
/// (`banned` as it says). The ban governs discards only, so it never narrows the cards of the
/// suit led; as in [`lead_cascade`], the stage that narrowed the cards is the rule broken.
#[inline(always)]
pub fn follow_cascade(held: u64, led: u64, banned: u64) -> [u64; 2] {
    let first = follow_suit(held, led);
    [first, first_trick_discard(first, led, banned)]
}

/// PLAY-8: the legal cards of a seat holding `held` in a trick led in suit `led`, the last
/// stage of [`follow_cascade`].
#[inline(always)]
pub fn follow_mask(held: u64, led: u64, banned: u64) -> u64 {
    follow_cascade(held, led, banned)[1]
}

/// The inverse of [`follow_mask`]: the cards a seat that played `card` legally to a trick led
/// in `led` did not hold.
#[inline(always)]
pub fn follow_reveals(card: u64, led: u64, banned: u64) -> u64 {
    follow_suit_reveals(card, led) | first_trick_discard_reveals(card, led, banned)
}

// ------------------------------------------------------------------ the plan of legality

/// What the rules of legality read of a ruleset, as masks, built once by [`Legality::new`]
/// (a caller that plays many hands builds it once), and the PLAY-8 cascades in the state of a
/// trick: whether it is the hand's first, whether hearts are broken, the suit led. A new rule
/// of legality adds its masks here, read from its field ([`Ruleset::value`] of its
/// [`Field`], which the table of `spec/schemas/ruleset.schema.json` declares), and its stage
/// to [`Legality::lead`] or [`Legality::follow`] and to their inverses; `HandState`,
/// `simulate` and the sampler call these and need no change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Legality {
    /// The opening card's bit, 0 without one (PLAY-1, PLAY-2).
    pub opening: u64,
    /// The cards the first-trick ban forbids on the first trick, 0 without the ban (PLAY-5).
    pub banned: u64,
}

// The stages of a cascade one by one: the cards left, and the code of the first stage that
// narrowed them.
struct Cascade {
    legal: u64,
    code: Option<ErrorCode>,
}

impl Cascade {
    #[inline(always)]
    fn stage(mut self, rule: impl FnOnce(u64) -> u64, code: ErrorCode) -> Cascade {
        let left = rule(self.legal);
        if left != self.legal && self.code.is_none() {
            self.code = Some(code);
        }
        self.legal = left;
        self
    }
}

impl Legality {
    /// The masks of `rules`' rules of legality.
    pub fn new(rules: &Ruleset) -> Legality {
        Legality {
            opening: rules.opening_card().map_or(0, |c| c.bit()),
            banned: if rules.flag(Field::FirstTrickBan) {
                rules.point_cards().0
            } else {
                0
            },
        }
    }

    /// PLAY-8 for a lead to the hand's first trick (`first`) or a later one, hearts `broken`
    /// or not: the legal cards of a leader holding `held` ([`lead_cascade`]), and the code of
    /// the stage that narrowed them, the rule a held card outside them breaks (`None` where
    /// every card held is legal).
    #[inline(always)]
    pub fn lead(&self, held: u64, first: bool, broken: bool) -> (u64, Option<ErrorCode>) {
        let opening = if first { self.opening } else { 0 };
        let c = Cascade {
            legal: held,
            code: None,
        };
        let c = c.stage(|h| opening_lead(h, opening), ErrorCode::MustLeadOpeningCard);
        let c = c.stage(|h| hearts_lead(h, broken), ErrorCode::HeartsNotBroken);
        (c.legal, c.code)
    }

    /// The inverse of [`Legality::lead`]: the cards a seat that led `card` legally did not
    /// hold ([`lead_reveals`]).
    #[inline(always)]
    pub fn lead_reveals(&self, card: u64, first: bool, broken: bool) -> u64 {
        let opening = if first { self.opening } else { 0 };
        lead_reveals(card, opening, broken)
    }

    /// PLAY-8 for a card that follows a lead in suit `led` on the hand's first trick (`first`)
    /// or a later one: as [`Legality::lead`], after [`follow_cascade`].
    #[inline(always)]
    pub fn follow(&self, held: u64, led: u64, first: bool) -> (u64, Option<ErrorCode>) {
        let banned = if first { self.banned } else { 0 };
        let c = Cascade {
            legal: held,
            code: None,
        };
        let c = c.stage(|h| follow_suit(h, led), ErrorCode::MustFollowSuit);
        let c = c.stage(
            |h| first_trick_discard(h, led, banned),
            ErrorCode::PointsOnFirstTrick,
        );
        (c.legal, c.code)
    }

    /// The inverse of [`Legality::follow`] ([`follow_reveals`]).
    #[inline(always)]
    pub fn follow_reveals(&self, card: u64, led: u64, first: bool) -> u64 {
        let banned = if first { self.banned } else { 0 };
        follow_reveals(card, led, banned)
    }
}

// ------------------------------------------------------------------ the breaches

/// A card refused to the seat to move: the rule that refused it (the stage of
/// [`Legality::lead`] or [`Legality::follow`] that narrowed the cards, or PLAY-3 for a card not
/// held), as the error code of `errors.md`, the clause id of `game.md` (a stable id: a clause
/// keeps its id across spec versions) and the name of the kernel function that states the
/// rule, with the sentence the refused action's error carries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Breach {
    /// The error code of the refusal (ERR-4).
    pub code: ErrorCode,
    /// The clause of `game.md` that refused the card: `PLAY-1`, `PLAY-3`, `PLAY-4`, `PLAY-5`
    /// or `PLAY-6`.
    pub rule: &'static str,
    /// The kernel function that states the rule: `held` for PLAY-3, else `opening_lead`,
    /// `follow_suit`, `first_trick_discard` or `hearts_lead`.
    pub stage: &'static str,
    /// What the error says, beginning with the code's words (ERR-1).
    pub message: String,
}

/// The words of a suit in a breach's message.
fn suit_words(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}

impl Breach {
    /// The breach of `code`, the code [`Legality::lead`] or [`Legality::follow`] gave (or
    /// `card-not-held`), when `seat` plays `card`: `opening` is the ruleset's opening card and
    /// `led` the suit led to the trick in progress (`None` for a lead).
    pub fn new(
        code: ErrorCode,
        seat: usize,
        card: Card,
        opening: Option<Card>,
        led: Option<Suit>,
    ) -> Breach {
        let (rule, stage, message) = match code {
            ErrorCode::CardNotHeld => (
                "PLAY-3",
                "held",
                format!("card not held: seat {seat} does not hold '{card}'"),
            ),
            ErrorCode::MustLeadOpeningCard => (
                "PLAY-1",
                "opening_lead",
                format!(
                    "must lead opening card: the first trick opens with '{}', not '{card}'",
                    opening.map_or_else(String::new, |c| c.to_string())
                ),
            ),
            ErrorCode::MustFollowSuit => (
                "PLAY-4",
                "follow_suit",
                format!(
                    "must follow suit: seat {seat} holds {} and cannot play '{card}'",
                    led.map_or("the suit led", suit_words)
                ),
            ),
            ErrorCode::PointsOnFirstTrick => (
                "PLAY-5",
                "first_trick_discard",
                format!(
                    "points on first trick: seat {seat} cannot discard the point card '{card}' \
                     while it holds a card worth no points"
                ),
            ),
            _ => (
                "PLAY-6",
                "hearts_lead",
                format!(
                    "hearts not broken: seat {seat} cannot lead '{card}' while it holds a card \
                     that is not a heart"
                ),
            ),
        };
        Breach {
            code,
            rule,
            stage,
            message,
        }
    }

    /// The error the refused play raises.
    pub fn to_error(&self) -> Error {
        Error::new(self.code, self.message.clone())
    }
}

// ------------------------------------------------------------------ the trick

/// PLAY-6: whether playing `cards` breaks hearts, `breakers` being the cards that
/// `hearts_breaking` names (RS-15).
#[inline(always)]
pub fn breaks_hearts(cards: u64, breakers: u64) -> bool {
    cards & breakers != 0
}

/// PLAY-6: whether hearts are broken before any card is played: under `hearts_breaking`
/// `none`, the one value that names no breaker.
#[inline(always)]
pub fn broken_at_start(breakers: u64) -> bool {
    breakers == 0
}

/// PLAY-7: whether `card` takes the trick from `best`, the card winning it so far (the lead at
/// first), in a trick led in suit `led`: a card of the suit led and higher; a card of another
/// suit never wins. Within a suit a higher bit is a higher rank.
#[inline(always)]
pub fn beats(card: u64, best: u64, led: u64) -> bool {
    card & led > best
}

/// PLAY-7: the position in playing order of the card that wins a trick of `cards` (card ids in
/// playing order, the lead first).
///
/// # Panics
///
/// Panics if `cards` is empty.
#[inline]
pub fn trick_winner(cards: &[u8]) -> usize {
    let led = suit_of(1u64 << cards[0]);
    let mut best = 0;
    for (i, &c) in cards.iter().enumerate().skip(1) {
        if beats(1u64 << c, 1u64 << cards[best], led) {
            best = i;
        }
    }
    best
}

/// PLAY-7 and PLAY-9: who takes a trick of `cards` (card ids in playing order, the lead
/// first), as the position in playing order of the winning card, or `None` where the trick is
/// held over. `cancellation` is the ruleset's RS-22 (`None` where identical cards do not
/// cancel) and `last` whether this is the hand's last trick.
///
/// Without cancellation the highest card of the suit led wins and, of two identical cards, the
/// one played first ([`trick_winner`]). With it, two identical cards cancel and the highest
/// uncancelled card of the suit led wins; where every card of the suit led is cancelled the
/// trick is held over, except the last, which goes to its leader (`leader`) or to the later
/// copy of the highest card of the suit led (`later-highest`).
///
/// # Panics
///
/// Panics if `cards` is empty.
#[inline]
pub fn trick_outcome(cards: &[u8], cancellation: Option<LastTrick>, last: bool) -> Option<usize> {
    let Some(rule) = cancellation else {
        return Some(trick_winner(cards));
    };
    let led = suit_of(1u64 << cards[0]);
    let mut seen = 0u64;
    let mut twice = 0u64;
    for &c in cards {
        let bit = 1u64 << c;
        twice |= seen & bit;
        seen |= bit;
    }
    let standing = seen & !twice & led;
    if standing != 0 {
        let best = 63 - standing.leading_zeros() as u8;
        return cards.iter().position(|&c| c == best);
    }
    if !last {
        return None;
    }
    match rule {
        LastTrick::Leader => Some(0),
        LastTrick::LaterHighest => {
            // Every card of the suit led is cancelled, the lead's included: the highest of
            // them is played twice, and the later copy takes the trick.
            let best = 63 - (twice & led).leading_zeros() as u8;
            cards.iter().rposition(|&c| c == best)
        }
    }
}

// ------------------------------------------------------------------ the moon

/// SCORE-2, trick by trick: the seats that have captured point cards so far this hand. When the
/// hand is complete every point card has been captured, so the only seat that captured any
/// captured them all: it shot the moon.
///
/// Races compare and hash by what they decide (nobody yet, one seat, several), not by which
/// several seats: two hands that differ only there play on alike.
#[derive(Clone, Copy, Debug)]
pub struct MoonRace(u16);

impl MoonRace {
    /// No point card captured yet.
    pub const START: MoonRace = MoonRace(0);

    /// The race after `winner` won a trick, which held a point card where `points` is true.
    /// A bit set, not a branch: whether a trick holds points is a coin toss to a predictor.
    #[inline(always)]
    pub fn after(self, winner: usize, points: bool) -> MoonRace {
        MoonRace(self.0 | u16::from(points) << winner)
    }

    /// The one seat that has captured point cards, if exactly one has: once the hand is
    /// complete, the seat that shot the moon.
    #[inline(always)]
    pub fn taker(self) -> Option<usize> {
        self.0
            .is_power_of_two()
            .then_some(self.0.trailing_zeros() as usize)
    }

    // What the race decides as one byte: the taker so far, 0xFE for nobody, 0xFF for several.
    fn outcome(self) -> u8 {
        match self.taker() {
            Some(seat) => seat as u8,
            None if self.0 == 0 => 0xFE,
            None => 0xFF,
        }
    }
}

impl PartialEq for MoonRace {
    fn eq(&self, other: &MoonRace) -> bool {
        self.outcome() == other.outcome()
    }
}

impl Eq for MoonRace {}

impl std::hash::Hash for MoonRace {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.outcome().hash(state);
    }
}

/// SCORE-2, SCORE-3: how a moon is scored under `scoring`: as it says, or under `taker-choice`
/// as the taker's `choice` says (`None` while the taker has not chosen).
#[inline]
pub fn moon_choice(scoring: MoonScoring, choice: Option<MoonChoice>) -> Option<MoonChoice> {
    match scoring {
        MoonScoring::AddToOthers => Some(MoonChoice::AddToOthers),
        MoonScoring::SubtractFromTaker => Some(MoonChoice::SubtractFromTaker),
        MoonScoring::TakerChoice => choice,
    }
}

/// SCORE-2: the hand's scores where `taker` shot the moon, from `points`, each seat's points
/// for the hand (one entry per seat): the positive part of the points, `positive_total` (all
/// of it the taker's), is replaced by the taker's 0 and every other seat's `bonus`
/// (`add-to-others`) or by the taker's `−bonus` (`subtract-from-taker`). Cards worth less than
/// zero still count for whoever took them (D-8).
///
/// # Panics
///
/// Panics if `taker` is not a seat of `points`.
#[inline]
pub fn score_moon(
    points: &mut [i32],
    taker: usize,
    how: MoonChoice,
    bonus: i32,
    positive_total: i32,
) {
    points[taker] -= positive_total;
    match how {
        MoonChoice::AddToOthers => {
            for (seat, score) in points.iter_mut().enumerate() {
                if seat != taker {
                    *score += bonus;
                }
            }
        }
        MoonChoice::SubtractFromTaker => points[taker] -= bonus,
    }
}

#[cfg(test)]
mod tests {
    //! Each inverse against its forward function over every hand of a small universe: a card
    //! is legal from a hand exactly when the hand holds none of the cards the inverse names.

    use super::*;
    use crate::card::Card;

    fn bit(s: &str) -> u64 {
        s.parse::<Card>().expect("a card").bit()
    }

    // Eleven cards of every kind the rules tell apart: hearts, QS, other spades, clubs,
    // diamonds, point cards and others.
    fn universe() -> Vec<u64> {
        [
            "2C", "9C", "3D", "KD", "2H", "7H", "AH", "5S", "QS", "KS", "JD",
        ]
        .iter()
        .map(|s| bit(s))
        .collect()
    }

    // Every non-empty hand of the universe, as masks.
    fn hands() -> impl Iterator<Item = u64> {
        let u = universe();
        (1u32..1 << u.len()).map(move |code| {
            u.iter()
                .enumerate()
                .filter(|(i, _)| code >> i & 1 == 1)
                .fold(0, |m, (_, c)| m | c)
        })
    }

    fn cards(mask: u64) -> impl Iterator<Item = u64> {
        (0..52).map(|i| 1u64 << i).filter(move |b| mask & b != 0)
    }

    // `legal` against its inverse `reveals` for every hand and every card of it.
    fn agree(legal: impl Fn(u64) -> u64, reveals: impl Fn(u64) -> u64, what: &str) {
        for held in hands() {
            let allowed = legal(held);
            assert_ne!(allowed, 0, "{what}: nothing legal from {held:#x}");
            assert_eq!(allowed & !held, 0, "{what}: a card not held is legal");
            for card in cards(held) {
                let excluded = reveals(card);
                assert_eq!(excluded & card, 0, "{what}: a card excludes itself");
                assert_eq!(
                    allowed & card != 0,
                    held & excluded == 0,
                    "{what}: {card:#x} from {held:#x}, excluded {excluded:#x}"
                );
            }
        }
    }

    #[test]
    fn the_inverses_say_exactly_when_a_card_is_legal() {
        let points = HEARTS | bit("QS");
        for opening in [0, bit("2C"), bit("2H"), bit("QS")] {
            for broken in [false, true] {
                agree(
                    |h| lead_mask(h, opening, broken),
                    |c| lead_reveals(c, opening, broken),
                    &format!("lead {opening:#x} {broken}"),
                );
            }
        }
        for led in SUIT_MASKS {
            for banned in [0, points, bit("QS") | bit("JD")] {
                agree(
                    |h| follow_mask(h, led, banned),
                    |c| follow_reveals(c, led, banned),
                    &format!("follow {led:#x} {banned:#x}"),
                );
            }
        }
    }

    #[test]
    fn the_cascade_keeps_the_order_of_play_8() {
        let points = HEARTS | bit("QS");
        // The opening card first, even a heart while hearts are unbroken (D-1).
        let held = bit("2H") | bit("3D");
        assert_eq!(lead_mask(held, bit("2H"), false), bit("2H"));
        assert_eq!(lead_mask(held, 0, false), bit("3D"));
        // Following suit first: the ban never narrows the suit led, hearts included.
        let held = bit("2H") | bit("AH") | bit("3D");
        assert_eq!(follow_mask(held, HEARTS, points), bit("2H") | bit("AH"));
        assert_eq!(
            follow_mask(held, SUIT_MASKS[0], points),
            bit("3D"),
            "a discard"
        );
        // D-2: a rule that would leave nothing is skipped.
        let held = bit("2H") | bit("QS");
        assert_eq!(follow_mask(held, SUIT_MASKS[0], points), held);
        assert_eq!(
            lead_mask(bit("2H") | bit("AH"), 0, false),
            bit("2H") | bit("AH")
        );
    }

    #[test]
    fn a_trick_goes_to_the_highest_card_of_the_suit_led() {
        let id = |s: &str| s.parse::<Card>().expect("a card").id();
        assert_eq!(trick_winner(&[id("KC"), id("JC"), id("QS"), id("8C")]), 0);
        assert_eq!(trick_winner(&[id("8C"), id("AS"), id("9C")]), 2);
        assert_eq!(trick_winner(&[id("2D"), id("AH"), id("AS"), id("AC")]), 0);
    }

    #[test]
    fn the_moon_goes_to_a_seat_that_took_every_point_card() {
        let race = MoonRace::START.after(2, false);
        assert_eq!(race.taker(), None);
        let race = race.after(1, true).after(3, false).after(1, true);
        assert_eq!(race.taker(), Some(1));
        assert_eq!(race.after(0, true).taker(), None);
        assert_eq!(race.after(0, true).after(1, true).taker(), None);
        // Several seats are several, whichever.
        assert_eq!(race.after(0, true), race.after(3, true).after(2, true));
        assert_ne!(race, race.after(0, true));
        assert_ne!(race, MoonRace::START);
        assert_ne!(
            MoonRace::START.after(0, true),
            MoonRace::START.after(1, true)
        );

        // 000 §04: 0 and 15 each; D-8: the JD's −10 stays with its taker.
        let mut s = [20 - 10, 0, 0, 0];
        score_moon(&mut s, 0, MoonChoice::AddToOthers, 15, 20);
        assert_eq!(s, [-10, 15, 15, 15]);
        let mut s = [26, 0, 0];
        score_moon(&mut s, 0, MoonChoice::SubtractFromTaker, 26, 26);
        assert_eq!(s, [-26, 0, 0]);
        assert_eq!(moon_choice(MoonScoring::TakerChoice, None), None);
        assert_eq!(
            moon_choice(
                MoonScoring::AddToOthers,
                Some(MoonChoice::SubtractFromTaker)
            ),
            Some(MoonChoice::AddToOthers)
        );
    }

    #[test]
    fn the_first_leader_holds_the_opening_card() {
        let hands = [bit("3C"), bit("2C"), bit("4C")];
        assert_eq!(first_leader(&hands, 0, bit("2C")), 1);
        assert_eq!(first_leader(&hands, 2, 0), 0);
        assert_eq!(first_leader(&hands, 0, 0), 1);
        // Whoever holds the opening card, the seats that do not lead are shown not to.
        for holder in 0..3 {
            let mut hands = [bit("3C"), bit("4C"), bit("5C")];
            hands[holder] |= bit("2C");
            let leader = first_leader(&hands, 1, bit("2C"));
            for (seat, hand) in hands.iter().enumerate() {
                let shown = first_leader_reveals(seat, leader, bit("2C"));
                assert_eq!(shown & hand, 0, "seat {seat}");
                assert_eq!(shown == 0, seat == holder, "seat {seat}");
            }
        }
    }
}
