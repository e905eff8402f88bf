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
use crate::ruleset::{
    CountDownEnd, LastTrick, Moon, MoonChoice, MoonNeeds, MoonScoring, Ruleset, ShotRule,
};

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
/// [`Field`](crate::fields::Field), which the table of `spec/schemas/ruleset.schema.json`
/// declares, or a mask the ruleset derives once, as [`Ruleset::first_trick_banned`], where a
/// check of every card reads it), and its stage
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
            banned: rules.first_trick_banned().0,
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

// ------------------------------------------------------------------ the race of the moon

/// A race of SCORE-2, trick by trick: the seats that have captured a card of some kind so far
/// this hand, a card the moon needs or any card ([`Races`], [`Scoring::capture`]). When the
/// hand is complete every card has been captured, so the only seat that captured any of them
/// captured them all: it shot the moon (or the sun).
///
/// Races compare and hash by what they decide (nobody yet, one seat, several), not by which
/// several seats: two hands that differ only there play on alike.
#[derive(Clone, Copy, Debug)]
pub struct MoonRace(u16);

impl MoonRace {
    /// Nothing captured yet.
    pub const START: MoonRace = MoonRace(0);

    /// The race after `winner` won a trick, which held a card the race follows where `points`
    /// is true.
    #[inline(always)]
    pub fn after(self, winner: usize, points: bool) -> MoonRace {
        MoonRace(self.0 | u16::from(points) << winner)
    }

    /// The one seat that has captured the cards the race follows, if exactly one has: once the
    /// hand is complete, the seat that shot the moon.
    #[inline(always)]
    pub fn taker(self) -> Option<usize> {
        self.0
            .is_power_of_two()
            .then_some(self.0.trailing_zeros() as usize)
    }

    /// Whether `seat` can still capture every card the race follows: no other seat has one.
    #[inline(always)]
    pub fn open_for(self, seat: usize) -> bool {
        self.0 & !(1u16 << seat) == 0
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

// ------------------------------------------------------------------ the plan of scoring

/// The races of a hand, trick by trick: the moon's (SCORE-2: the seats that captured a card the
/// moon needs) and the sun's (SCORE-5: the seats that won a trick; a held-over trick, PLAY-9,
/// is won by the seat that captures it). Once the hand is complete, the one seat of a race, if
/// it has only one, took all there was to take. Both are one word, the moon's seats in its low
/// half and the sun's in its high half, so that [`Scoring::capture`] updates them with one
/// `or`; they compare and hash by what each decides, as a [`MoonRace`] does.
#[derive(Clone, Copy, Debug)]
pub struct Races(u32);

// The seats of a race fit in half a word.
const _: () = assert!(crate::seat::MAX_PLAYERS <= 16);

impl Races {
    /// Nothing captured yet.
    pub const START: Races = Races(0);

    /// The races where `moon` and `sun` are as they say.
    pub fn new(moon: MoonRace, sun: MoonRace) -> Races {
        Races(u32::from(moon.0) | u32::from(sun.0) << 16)
    }

    /// The moon's race: the seats that captured a card the moon needs.
    #[inline(always)]
    pub fn moon(self) -> MoonRace {
        MoonRace(self.0 as u16)
    }

    /// The sun's race: the seats that won a trick.
    #[inline(always)]
    pub fn sun(self) -> MoonRace {
        MoonRace((self.0 >> 16) as u16)
    }
}

impl PartialEq for Races {
    fn eq(&self, other: &Races) -> bool {
        self.moon() == other.moon() && self.sun() == other.sun()
    }
}

impl Eq for Races {}

impl std::hash::Hash for Races {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.moon().hash(state);
        self.sun().hash(state);
    }
}

/// A seat that shot the moon or the sun in a completed hand (SCORE-2), and how its shot is
/// scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shot {
    /// The seat that shot.
    pub taker: usize,
    /// How the shot is scored: as it says, or at the taker's choice (SCORE-3).
    pub scoring: MoonScoring,
    /// The bonus the shot scores.
    pub bonus: i32,
}

impl Shot {
    /// SCORE-3: whether the taker chooses how its shot is scored (phase `moon`).
    #[inline]
    pub fn awaits_choice(&self) -> bool {
        self.scoring == MoonScoring::TakerChoice
    }

    /// SCORE-2, SCORE-3: how the shot is scored: as its scoring says, or under `taker-choice`
    /// as the taker's `choice` says (`None` while the taker has not chosen).
    #[inline]
    pub fn how(&self, choice: Option<MoonChoice>) -> Option<MoonChoice> {
        match self.scoring {
            MoonScoring::AddToOthers => Some(MoonChoice::AddToOthers),
            MoonScoring::SubtractFromTaker => Some(MoonChoice::SubtractFromTaker),
            MoonScoring::TakerChoice => choice,
        }
    }
}

/// What the match does after a hand is scored (MATCH-2, MATCH-5, MATCH-7, `deals`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AfterHand {
    /// Whether the match is over.
    pub over: bool,
    /// Whether the next hand, where there is one, is a count-down hand (MATCH-5).
    pub count_down: bool,
}

/// What the rules of scoring read of a ruleset, built by [`Scoring::new`] (it only reads the
/// ruleset's fields and derived masks, so a caller may build it where it needs it, and one that
/// plays many hands builds it once), and those rules, each written once: the points of a trick
/// (SCORE-1), the moon and the sun at the end of a hand (SCORE-2, SCORE-3), the count-down
/// (MATCH-5 … MATCH-7), the end of the match (MATCH-2, `deals`) and the bounds every score
/// stays within.
///
/// A new rule of scoring adds what it reads here and its clause to the method of its step;
/// `HandState`, the match's `Position`, `simulate` and the vector environment call these and
/// state none of them.
///
/// # Examples
///
/// ```
/// use reversis_core::kernel::{Races, Scoring};
/// use reversis_core::preset;
/// let rules = preset("hartenjagen").unwrap();
/// let scoring = Scoring::new(&rules);
/// let bit = |s: &str| s.parse::<reversis_core::Card>().unwrap().bit();
/// // 000 §04: seat 1 took every point card, 15 in all: 0 for it and 15 for each other seat.
/// let races = scoring.capture(Races::START, 1, bit("QS") | bit("JC") | bit("AH"));
/// let races = scoring.capture(races, 3, bit("2C"));
/// let shot = scoring.shot(races, false).unwrap();
/// let mut points = [0, 15, 0, 0];
/// scoring.score_shot(&mut points, shot, shot.how(None).unwrap());
/// assert_eq!(points, [15, 0, 15, 15]);
/// assert_eq!(scoring.hand_bounds(), (0, 15));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Scoring<'r> {
    rules: &'r Ruleset,
    // SCORE-1: the cards worth anything, the only ones a sum of values visits.
    scoring_cards: u64,
    // SCORE-2: the cards a moon needs, of which the moon's race follows the captures.
    moon_cards: u64,
    moon: Option<Moon>,
    sun: Option<ShotRule>,
}

impl<'r> Scoring<'r> {
    /// The plan of `rules`' rules of scoring.
    #[inline]
    pub fn new(rules: &'r Ruleset) -> Scoring<'r> {
        // Only cards of the deck can be captured.
        let deck = rules.deck().0;
        let moon = rules.moon();
        let needs = moon.map_or(MoonNeeds::PointCards, |m| m.needs);
        Scoring {
            rules,
            scoring_cards: rules.scoring_cards().0 & deck,
            moon_cards: match needs {
                MoonNeeds::PointCards => rules.point_cards().0 & deck,
                // Every card worth less than zero too (Hoyle's slam takes the 10♦).
                MoonNeeds::EveryScoringCard => rules.scoring_cards().0 & deck,
            },
            moon,
            sun: rules.sun(),
        }
    }

    // -------------------------------------------------------------- SCORE-1

    /// SCORE-1: the value of the card of id `id` (0 for a card that does not score).
    ///
    /// # Panics
    ///
    /// Panics if `id` is not a card id (0 … 51).
    #[inline(always)]
    pub fn card_points(&self, id: u8) -> i32 {
        self.rules.points_table()[id as usize]
    }

    /// SCORE-1: the value of the cards of the mask `cards`, one copy of each.
    #[inline(always)]
    pub fn points_of(&self, cards: u64) -> i32 {
        let table = self.rules.points_table();
        let mut m = cards & self.scoring_cards;
        let mut sum = 0;
        while m != 0 {
            sum += table[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        sum
    }

    // -------------------------------------------------------------- SCORE-2, SCORE-3

    /// SCORE-2: the races after `seat` captured the cards of `cards` (a trick it won, with the
    /// tricks held over it captured; or every card it captured this hand): the moon's where
    /// they hold a card the moon needs (a point card, or under `moon.needs`
    /// `every-scoring-card` any card worth anything), the sun's where they hold any card. A
    /// bit set, not a branch: whether a trick holds points is a coin toss to a predictor.
    #[inline(always)]
    pub fn capture(&self, races: Races, seat: usize, cards: u64) -> Races {
        let seats = u32::from(cards & self.moon_cards != 0) | u32::from(cards != 0) << 16;
        Races(races.0 | seats << seat)
    }

    /// SCORE-2: the shot of a completed hand whose races are `races`: the sun where the ruleset
    /// has one and one seat won every trick, which takes precedence over the moon; else the
    /// moon where the ruleset has one and one seat captured every card it needs. `None` in a
    /// count-down hand (`count_down`, MATCH-6), which has neither.
    #[inline]
    pub fn shot(&self, races: Races, count_down: bool) -> Option<Shot> {
        if count_down {
            return None;
        }
        let sun = self.sun.and_then(|s| {
            races.sun().taker().map(|taker| Shot {
                taker,
                scoring: s.scoring,
                bonus: s.bonus,
            })
        });
        sun.or_else(|| {
            let m = self.moon?;
            races.moon().taker().map(|taker| Shot {
                taker,
                scoring: m.scoring,
                bonus: m.bonus,
            })
        })
    }

    /// SCORE-2: the hand's scores where `shot` was scored `how`, from `points`, each seat's
    /// points for the hand (one entry per seat): the positive part of the points, all of it the
    /// taker's, is replaced by the taker's 0 and every other seat's bonus (`add-to-others`) or
    /// by the taker's `−bonus` (`subtract-from-taker`). Cards worth less than zero still count
    /// for whoever took them (D-8).
    ///
    /// # Panics
    ///
    /// Panics if the taker is not a seat of `points`.
    #[inline]
    pub fn score_shot(&self, points: &mut [i32], shot: Shot, how: MoonChoice) {
        points[shot.taker] -= self.rules.positive_total();
        match how {
            MoonChoice::AddToOthers => {
                for (seat, score) in points.iter_mut().enumerate() {
                    if seat != shot.taker {
                        *score += shot.bonus;
                    }
                }
            }
            MoonChoice::SubtractFromTaker => points[shot.taker] -= shot.bonus,
        }
    }

    // -------------------------------------------------------------- the match

    /// MATCH-2: whether any of `totals` (one per seat) has reached or passed the target (never
    /// without one).
    #[inline]
    fn reached_target(&self, totals: &[i64]) -> bool {
        self.rules.target().is_some_and(|target| {
            let target = i128::from(target);
            totals.iter().any(|&t| i128::from(t) >= target)
        })
    }

    /// MATCH-5: whether a match whose totals are `totals` (one per seat) is in its count-down,
    /// so that its coming hand is a count-down hand: under `count_down`, a total at or past
    /// the target.
    #[inline]
    pub fn in_count_down(&self, totals: &[i64]) -> bool {
        self.rules.count_down() && self.reached_target(totals)
    }

    /// MATCH-6, MATCH-8: the score of a count-down hand for a seat whose total was `total` and
    /// whose points for the hand are `points` (SCORE-1): the change of its total, which goes
    /// down by the points (points below zero raise it, D-8) and, as `count_down_end` says,
    /// stops at zero (`max(total − points, min(total, 0))`), bounces back from it by the
    /// excess (`|total − points|`), or passes below it (`total − points`).
    #[inline]
    pub fn count_down_score(&self, total: i64, points: i32) -> i64 {
        let (t, p) = (i128::from(total), i128::from(points));
        let after = match self.rules.count_down_end() {
            CountDownEnd::StopAtZero => (t - p).max(t.min(0)),
            // MATCH-8: a total already below zero (a moon that subtracted before the
            // count-down) is lowered no further, as under stop-at-zero.
            CountDownEnd::ExactZero if t < 0 => (t - p).max(t),
            CountDownEnd::ExactZero => (t - p).abs(),
            CountDownEnd::BelowZero => t - p,
        };
        // The change, within what a total holds (SCORE-4 saturates).
        let after = after.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
        (after - t).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }

    /// MATCH-2, MATCH-5, MATCH-7, MATCH-9: what the match does after hand `hand_number` (a
    /// count-down hand where `count_down`) has brought the totals to `totals` (one per seat).
    /// The count-down's race is won by a total at or below zero, under every `count_down_end`
    /// (MATCH-8); under `deals` the hand numbered `deals − 1` or later is the last.
    #[inline]
    pub fn after_hand(&self, totals: &[i64], count_down: bool, hand_number: u64) -> AfterHand {
        let last_deal = self.rules.deals().is_some_and(|d| hand_number >= d - 1);
        if count_down {
            // The count-down is never left.
            AfterHand {
                over: totals.iter().any(|&t| t <= 0) || last_deal,
                count_down: true,
            }
        } else if self.reached_target(totals) {
            // MATCH-2, or MATCH-5: the count-down starts with the next hand.
            AfterHand {
                over: !self.rules.count_down() || last_deal,
                count_down: self.rules.count_down(),
            }
        } else {
            AfterHand {
                over: last_deal,
                count_down: false,
            }
        }
    }

    // -------------------------------------------------------------- the bounds of the scores

    /// SCORE-1: the least and the most a seat's points for one hand can be, as captured: the
    /// sum of the values below zero and the sum of those above, every copy in the deck counted.
    pub fn points_bounds(&self) -> (i64, i64) {
        let deck = self.rules.deck_cards();
        let negative: i64 = self
            .rules
            .card_points()
            .iter()
            .filter(|(_, v)| *v < 0)
            .map(|&(c, v)| i64::from(v) * i64::from(deck.count(c)))
            .sum();
        (negative, i64::from(self.rules.positive_total()))
    }

    /// SCORE-2, SCORE-5: the rules of the ruleset that replace the scores of a hand, each with
    /// the name of its field as the spec names it (`moon`, RS-10; `sun`, RS-23), in the order
    /// of the spec's fields. The callers that bound or explain scores (the bounds below, API-11's
    /// check) iterate these and name no rule of their own.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::kernel::Scoring;
    /// use reversis_core::{preset, MoonScoring};
    /// // The omnibus alternative's moon and sun both take their bonus from the taker.
    /// let rules = preset("omnibus-alternative").unwrap();
    /// let shots: Vec<_> = Scoring::new(&rules).shot_rules().collect();
    /// let named: Vec<_> = shots.iter().map(|&(name, rule)| (name, rule.bonus)).collect();
    /// assert_eq!(named, [("moon", 26), ("sun", 52)]);
    /// assert!(shots.iter().all(|(_, r)| r.scoring == MoonScoring::SubtractFromTaker));
    /// ```
    pub fn shot_rules(&self) -> impl Iterator<Item = (&'static str, ShotRule)> {
        let moon = self.moon.map(|m| ("moon", m.shot_rule()));
        let sun = self.sun.map(|s| ("sun", s));
        moon.into_iter().chain(sun)
    }

    /// SCORE-2 … SCORE-5: the least and the most one seat's score for a hand can be outside the
    /// count-down (the only hands of a match from totals of 0 before one reaches the target):
    /// the least the negative values, less the bonus of a rule of [`Scoring::shot_rules`] that
    /// may subtract from its taker; the most the positive values, or the bonus such a rule may
    /// add to the other seats where larger. Bounds no hand passes, not always reached.
    pub fn hand_bounds(&self) -> (i64, i64) {
        let (negative, positive) = self.points_bounds();
        let (mut least, mut most) = (negative, positive);
        for (_, rule) in self.shot_rules() {
            let bonus = i64::from(rule.bonus);
            if rule.scoring != MoonScoring::AddToOthers {
                least = least.min(negative - bonus);
            }
            if rule.scoring != MoonScoring::SubtractFromTaker {
                most = most.max(bonus);
            }
        }
        (least, most)
    }

    /// The least and the most a seat's total can be in a match from totals of 0 while the
    /// match goes on (in every position before it is over), `None` where API-11 gives no
    /// bound. The least is 0, or none where a hand outside the count-down can score below zero
    /// or the count-down goes below zero (`below-zero`; the other ends stop or bounce at zero,
    /// MATCH-8). The most is `target − 1` (MATCH-2); under `count_down` it is the most the hand
    /// that starts the count-down can bring a total to, `target − 1` plus the most of
    /// [`Scoring::hand_bounds`] (a bounce brings a total no higher than the points), or none
    /// where values below zero raise a total in every count-down hand; none without a target.
    pub fn live_total_bounds(&self) -> (Option<i128>, Option<i128>) {
        let (negative, _) = self.points_bounds();
        let (least, most) = self.hand_bounds();
        let below_zero =
            self.rules.count_down() && self.rules.count_down_end() == CountDownEnd::BelowZero;
        let low = (least >= 0 && !below_zero).then_some(0);
        let high = match self.rules.target() {
            None => None,
            Some(target) if !self.rules.count_down() => Some(i128::from(target) - 1),
            Some(_) if negative < 0 => None,
            Some(target) => Some(i128::from(target) - 1 + i128::from(most.max(0))),
        };
        (low, high)
    }

    /// The least and the most a seat's total can be at any point of a match from totals of 0
    /// that lasts at most `hands` hands (at most `deals`), its final totals included: each hand
    /// can lower a total by the least of [`Scoring::hand_bounds`], and under `below-zero` the
    /// last count-down hand by the positive values; a total below the target can rise by the
    /// most of one hand (without a target, each hand can), and in the count-down by the values
    /// below zero each hand.
    pub fn total_bounds(&self, hands: u64) -> (i128, i128) {
        let (least, most) = self.hand_bounds();
        let (negative, positive) = self.points_bounds();
        let hands = i128::from(self.rules.deals().map_or(hands, |d| hands.min(d)));
        let mut low = hands * i128::from(least.min(0));
        let most = i128::from(most.max(0));
        let mut high = match self.rules.target() {
            Some(target) => i128::from(target) - 1 + most,
            None => hands * most,
        };
        if self.rules.count_down() {
            high += hands * i128::from(-negative);
            if self.rules.count_down_end() == CountDownEnd::BelowZero {
                low -= i128::from(positive);
            }
        }
        (low, high)
    }
}

/// Rulesets of four cards a seat, so that a seat wins every trick or takes every scoring card in
/// some of the hands, one for each scoring of each rule of [`Scoring::shot_rules`] beyond the
/// moon (whose scorings the presets cover), each such rule's bonus 52: for the tests of the
/// plays that score hands, which so cover every rule that replaces a hand's scores.
#[cfg(test)]
pub(crate) fn small_shot_rulesets() -> Vec<Ruleset> {
    [
        MoonScoring::AddToOthers,
        MoonScoring::SubtractFromTaker,
        MoonScoring::TakerChoice,
    ]
    .into_iter()
    .map(|scoring| {
        let small = serde_json::json!({
            "name": "small", "players": 4,
            "deck": {"lowest_rank": "J", "removed": []}, "passing": null,
            "opening_card": null, "first_trick_ban": false, "hearts_breaking": "heart",
            "card_points": {"JH": 1, "QH": 1, "KH": 1, "AH": 1, "QS": 13, "JD": -10},
            "moon": {"scoring": "taker-choice", "bonus": 26, "needs": "every-scoring-card"},
            "sun": {"scoring": scoring.as_str(), "bonus": 52}, "target": 100});
        Ruleset::from_value(&small).expect("a valid variant")
    })
    .collect()
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

        // hartenjagen (000 §04): 15 points in all, 0 for the taker and 15 for each other seat;
        // with the JD worth −10 on top (D-8), the −10 stays with its taker.
        let hartenjagen = crate::ruleset::preset("hartenjagen").expect("hartenjagen");
        let jd = hartenjagen
            .replace(
                serde_json::json!({"card_points": {"JD": -10}})
                    .as_object()
                    .expect("{}"),
            )
            .expect("a valid variant");
        let scoring = Scoring::new(&jd);
        // Tricks won by several seats: no sun.
        let several = MoonRace::START.after(0, true).after(1, true);
        let races = |moon| Races::new(moon, several);
        let shot = scoring
            .shot(races(race), false)
            .expect("seat 1 shot the moon");
        assert_eq!(shot.taker, 1);
        let mut s = [0, 15 - 10, 0, 0];
        scoring.score_shot(&mut s, shot, shot.how(None).expect("add-to-others"));
        assert_eq!(s, [15, -10, 15, 15]);
        // No moon in a count-down hand (MATCH-6), and none where several seats took points.
        assert_eq!(scoring.shot(races(race), true), None);
        assert_eq!(scoring.shot(races(race.after(0, true)), false), None);
        // hearts-4: the taker's −26 where it subtracts, and its choice under taker-choice.
        let hearts = crate::ruleset::preset("hearts-4").expect("hearts-4");
        let scoring = Scoring::new(&hearts);
        let shot = scoring
            .shot(races(race), false)
            .expect("seat 1 shot the moon");
        assert!(shot.awaits_choice());
        assert_eq!(shot.how(None), None);
        let mut s = [0, 26, 0, 0];
        scoring.score_shot(&mut s, shot, MoonChoice::SubtractFromTaker);
        assert_eq!(s, [0, -26, 0, 0]);
        let fixed = Shot {
            scoring: MoonScoring::AddToOthers,
            ..shot
        };
        assert_eq!(
            fixed.how(Some(MoonChoice::SubtractFromTaker)),
            Some(MoonChoice::AddToOthers)
        );
    }

    #[test]
    fn the_points_of_a_trick_are_its_cards_values() {
        let id = |s: &str| s.parse::<Card>().expect("a card").id();
        // SCORE-1 (000 §06): KC, JC, QS, 8C under hartenjagen: 2 + 5.
        let hartenjagen = crate::ruleset::preset("hartenjagen").expect("hartenjagen");
        let scoring = Scoring::new(&hartenjagen);
        let trick = [id("KC"), id("JC"), id("QS"), id("8C")];
        assert_eq!(
            trick.iter().map(|&c| scoring.card_points(c)).sum::<i32>(),
            7
        );
        assert_eq!(
            scoring.points_of(bit("KC") | bit("JC") | bit("QS") | bit("8C")),
            7
        );
        // omnibus-4: the JD's −10 counts too.
        let omnibus = crate::ruleset::preset("omnibus-4").expect("omnibus-4");
        let scoring = Scoring::new(&omnibus);
        assert_eq!(
            scoring.points_of(bit("JD") | bit("QS") | bit("2H")),
            13 + 1 - 10
        );
        assert_eq!(scoring.points_bounds(), (-10, 26));
        // A hand scores from −10 less the taker's 26 to 26.
        assert_eq!(scoring.hand_bounds(), (-36, 26));
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
