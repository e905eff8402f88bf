//! The ruleset model (spec `ruleset.md`, RS-1 … RS-15) and the named presets.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::de::{self, DeserializeOwned, IgnoredAny, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::card::{quote, Card, CardMultiset, CardSet, Suit, RANK_CHARS, SUIT_MASKS};
use crate::error::{Error, ErrorCode};
use crate::fields::{
    Field, FieldSpec, FIELDS, FIELD_COUNT, RULESET_FIELDS, RULESET_OPTIONAL_FIELDS,
};

/// A pass direction of RS-5 (SEAT-1: left is `s+1`, right is `s−1`, across is `s+2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassDirection {
    /// To the next seat clockwise, `s+1 mod n`.
    Left,
    /// To the previous seat, `s−1 mod n`.
    Right,
    /// To the seat opposite, `s+2 mod n` (4 players only, RS-13).
    Across,
    /// No passing this hand.
    Hold,
}

impl PassDirection {
    /// The spec string: `left`, `right`, `across` or `hold`.
    pub fn as_str(self) -> &'static str {
        match self {
            PassDirection::Left => "left",
            PassDirection::Right => "right",
            PassDirection::Across => "across",
            PassDirection::Hold => "hold",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<PassDirection> {
        match s {
            "left" => Some(PassDirection::Left),
            "right" => Some(PassDirection::Right),
            "across" => Some(PassDirection::Across),
            "hold" => Some(PassDirection::Hold),
            _ => None,
        }
    }

    /// The seat that receives the cards `seat` passes, at a table of `players` (SEAT-1,
    /// PASS-3). `Hold` gives `seat` itself.
    #[inline]
    pub fn target(self, seat: usize, players: usize) -> usize {
        match self {
            PassDirection::Left => (seat + 1) % players,
            PassDirection::Right => (seat + players - 1) % players,
            PassDirection::Across => (seat + 2) % players,
            PassDirection::Hold => seat,
        }
    }

    /// The seat whose cards `seat` receives (the inverse of [`PassDirection::target`]).
    #[inline]
    pub fn source(self, seat: usize, players: usize) -> usize {
        match self {
            PassDirection::Left => (seat + players - 1) % players,
            PassDirection::Right => (seat + 1) % players,
            PassDirection::Across => (seat + players - 2) % players,
            PassDirection::Hold => seat,
        }
    }
}

impl fmt::Display for PassDirection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The passing rule of RS-5.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Passing {
    /// Hand `h` uses `cycle[h mod len]`.
    pub cycle: Vec<PassDirection>,
    /// The number of cards each seat passes.
    pub size: usize,
}

/// When hearts may be led (RS-8, PLAY-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeartsBreaking {
    /// `none`: hearts may always be led.
    None,
    /// `heart`: once a heart has been played.
    Heart,
    /// `heart-or-QS`: once a heart or `QS` has been played.
    HeartOrQs,
}

impl HeartsBreaking {
    /// The spec string: `none`, `heart` or `heart-or-QS`.
    pub fn as_str(self) -> &'static str {
        match self {
            HeartsBreaking::None => "none",
            HeartsBreaking::Heart => "heart",
            HeartsBreaking::HeartOrQs => "heart-or-QS",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<HeartsBreaking> {
        match s {
            "none" => Some(HeartsBreaking::None),
            "heart" => Some(HeartsBreaking::Heart),
            "heart-or-QS" => Some(HeartsBreaking::HeartOrQs),
            _ => None,
        }
    }
}

/// How a moon is scored (RS-10, SCORE-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoonScoring {
    /// The taker 0, every other seat `bonus`.
    AddToOthers,
    /// The taker `−bonus`, every other seat 0.
    SubtractFromTaker,
    /// The taker chooses one of the two (SCORE-3).
    TakerChoice,
}

impl MoonScoring {
    /// The spec string.
    pub fn as_str(self) -> &'static str {
        match self {
            MoonScoring::AddToOthers => "add-to-others",
            MoonScoring::SubtractFromTaker => "subtract-from-taker",
            MoonScoring::TakerChoice => "taker-choice",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<MoonScoring> {
        match s {
            "add-to-others" => Some(MoonScoring::AddToOthers),
            "subtract-from-taker" => Some(MoonScoring::SubtractFromTaker),
            "taker-choice" => Some(MoonScoring::TakerChoice),
            _ => None,
        }
    }
}

/// The taker's choice under `taker-choice` (SCORE-3, ACT-1 `moon`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoonChoice {
    /// `add-to-others`.
    AddToOthers,
    /// `subtract-from-taker`.
    SubtractFromTaker,
}

impl MoonChoice {
    /// The spec string.
    pub fn as_str(self) -> &'static str {
        match self {
            MoonChoice::AddToOthers => "add-to-others",
            MoonChoice::SubtractFromTaker => "subtract-from-taker",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<MoonChoice> {
        match s {
            "add-to-others" => Some(MoonChoice::AddToOthers),
            "subtract-from-taker" => Some(MoonChoice::SubtractFromTaker),
            _ => None,
        }
    }
}

/// Who wins a last trick in which every card of the suit led is cancelled (RS-22, PLAY-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LastTrick {
    /// `leader`: the seat that led it.
    Leader,
    /// `later-highest`: the seat that played the later copy of the highest card of the suit
    /// led.
    LaterHighest,
}

impl LastTrick {
    /// The spec string: `leader` or `later-highest`.
    pub fn as_str(self) -> &'static str {
        match self {
            LastTrick::Leader => "leader",
            LastTrick::LaterHighest => "later-highest",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<LastTrick> {
        match s {
            "leader" => Some(LastTrick::Leader),
            "later-highest" => Some(LastTrick::LaterHighest),
            _ => None,
        }
    }
}

/// The cards a moon needs (RS-24 `moon.needs`, SCORE-6; added in 1.4.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoonNeeds {
    /// `point-cards` (the default): every point card.
    #[default]
    PointCards,
    /// `every-scoring-card`: every point card and every card worth less than zero.
    EveryScoringCard,
}

impl MoonNeeds {
    /// The spec string.
    pub fn as_str(self) -> &'static str {
        match self {
            MoonNeeds::PointCards => "point-cards",
            MoonNeeds::EveryScoringCard => "every-scoring-card",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<MoonNeeds> {
        match s {
            "point-cards" => Some(MoonNeeds::PointCards),
            "every-scoring-card" => Some(MoonNeeds::EveryScoringCard),
            _ => None,
        }
    }
}

/// The moon rule of RS-10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moon {
    /// How the moon is scored.
    pub scoring: MoonScoring,
    /// The bonus, a positive integer.
    pub bonus: i32,
    /// The cards the moon needs.
    pub needs: MoonNeeds,
}

/// How a rule that replaces the scores of a hand is scored (SCORE-2 … SCORE-5): a ruleset's
/// `scoring` and `bonus` of such a rule, its moon's (RS-10, which the moon's [`Moon`] holds with
/// the cards it needs) or its sun's (RS-23, SCORE-5; added in 1.4.0: a seat that captured every
/// trick of a hand). One type for every such rule, so that a new one needs none of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShotRule {
    /// How the rule is scored, as a moon is.
    pub scoring: MoonScoring,
    /// The bonus, a positive integer.
    pub bonus: i32,
}

impl Moon {
    /// How the moon is scored, as every rule that replaces a hand's scores is.
    #[inline]
    pub fn shot_rule(&self) -> ShotRule {
        ShotRule {
            scoring: self.scoring,
            bonus: self.bonus,
        }
    }
}

/// How the count-down ends (RS-25 `count_down_end`, MATCH-8; added in 1.4.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CountDownEnd {
    /// `stop-at-zero` (the default): a total stops at zero, and a total at or below zero ends
    /// the match.
    #[default]
    StopAtZero,
    /// `exact-zero`: a total that would pass below zero bounces back by the excess, and only
    /// a total of exactly zero ends the match.
    ExactZero,
    /// `below-zero`: totals go below zero, and a total at or below zero ends the match.
    BelowZero,
}

impl CountDownEnd {
    /// The spec string.
    pub fn as_str(self) -> &'static str {
        match self {
            CountDownEnd::StopAtZero => "stop-at-zero",
            CountDownEnd::ExactZero => "exact-zero",
            CountDownEnd::BelowZero => "below-zero",
        }
    }

    /// Parses the spec string.
    pub fn from_name(s: &str) -> Option<CountDownEnd> {
        match s {
            "stop-at-zero" => Some(CountDownEnd::StopAtZero),
            "exact-zero" => Some(CountDownEnd::ExactZero),
            "below-zero" => Some(CountDownEnd::BelowZero),
            _ => None,
        }
    }
}

/// A validated ruleset (RS-1 … RS-15): one value of the ruleset model, with its derived masks
/// and tables. Immutable; compares equal by value.
///
/// # Examples
///
/// ```
/// let r = reversis_core::preset("hearts-5").unwrap();
/// assert_eq!(r.players(), 5);
/// assert_eq!(r.deck().len(), 50);
/// assert_eq!(r.hand_size(), 10);
/// assert_eq!(r.opening_card().unwrap().to_string(), "3C");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    // RS-1: the identifier, `[a-z0-9-]+`.
    name: String,
    // RS-2: informative title, kept for round trips.
    title: Option<String>,
    // RS-2: informative sources, kept for round trips.
    sources: Option<Vec<String>>,
    // RS-3: number of seats, 3–10.
    players: usize,
    // RS-4: rank index (0 = `2`) of the lowest rank in the deck.
    lowest_rank: u8,
    // RS-4: cards removed from the deck, sorted, repeats adjacent (one entry per copy).
    removed: Vec<Card>,
    // RS-21 (1.2.0): copies of each card shuffled together, 1 or 2.
    packs: u8,
    // RS-5: the passing rule, or none.
    passing: Option<Passing>,
    // RS-6: the card that opens the first trick, or a free lead left of the dealer.
    opening_card: Option<Card>,
    // The value of every simple field of the table (`crate::fields`: RS-7 `first_trick_ban`,
    // RS-8 `hearts_breaking`, RS-20 `count_down`, …) as a code, at the field's index; `None`
    // for a field this file reads itself, and for an optional field without a default left out.
    values: [Option<i64>; FIELD_COUNT],
    // RS-9: the scoring cards and their values, sorted by card.
    card_points: Vec<(Card, i32)>,
    // RS-10: the moon rule, or none.
    moon: Option<Moon>,
    // RS-23 (1.4.0): the sun rule, or none.
    sun: Option<ShotRule>,
    // RS-11: the match ends after the hand in which a total reaches this; none (RS-26) where
    // only `deals` ends it.
    target: Option<u64>,
    // RS-26 (1.4.0): the match ends after hand `deals − 1` at the latest.
    deals: Option<u64>,
    // RS-22 (1.2.0): identical cards cancel (PLAY-9), and who wins a wholly cancelled last
    // trick; `None` where they do not cancel.
    cancellation: Option<LastTrick>,
    // Derived (RS-4, RS-12): the deck mask (the cards with at least one copy).
    deck: CardSet,
    // Derived (RS-4, RS-21): the cards with two copies in the deck.
    deck_twice: CardSet,
    // Derived (RS-12): cards per seat, also tricks per hand.
    hand_size: usize,
    // Derived (RS-9, RS-14): cards worth more than 0.
    point_cards: CardSet,
    // Derived (RS-9): cards worth anything, more or less than 0.
    scoring_cards: CardSet,
    // Derived (RS-7, RS-14): the point cards where the first-trick ban is on, else none. Kept
    // apart from `values` because every legality check of a first trick reads it.
    first_trick_banned: CardSet,
    // Derived (RS-8, RS-15): the cards whose play breaks hearts (empty for `none`).
    breakers: CardSet,
    // Derived (RS-9): points of every card id, 0 for non-scoring cards.
    points: [i32; 52],
    // Derived: the sum of all positive card values (the "positive part" of SCORE-2).
    positive_total: i32,
}

/// The version of the specification this crate implements (spec `README.md` §Version). Rulesets
/// and records of any 1.x version are read as RS-18 and REC-5 say; those of another major
/// version are refused.
pub const SPEC_VERSION: &str = "1.4.0";

/// The major version of [`SPEC_VERSION`]: the one major version this crate reads (RS-18).
const SPEC_MAJOR: &str = "1";

// The fields of the table (`crate::fields`) this file reads itself, in clause functions of
// their own: their checks reach into nested objects or across fields. Every other field is of a
// simple kind and read from its entry of the table alone (`simple_fields`).
const OWN_FIELDS: [Field; 14] = [
    Field::Name,
    Field::Title,
    Field::Sources,
    Field::SpecVersion,
    Field::Players,
    Field::Deck,
    Field::Passing,
    Field::OpeningCard,
    Field::CardPoints,
    Field::Moon,
    Field::Sun,
    Field::Target,
    Field::Deals,
    Field::Cancellation,
];

// Whether `f` is read from the table alone. (A field of another kind not listed above has no
// reading yet: serde refuses it as unknown.)
fn generic(f: &FieldSpec) -> bool {
    f.is_simple() && !OWN_FIELDS.contains(&f.field)
}

fn bad(field: &str, msg: impl fmt::Display) -> Error {
    Error::new(
        ErrorCode::InvalidRuleset,
        format!("invalid ruleset: field '{field}' {msg}"),
    )
}

pub(crate) fn describe(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(60).collect();
        format!("{cut}...")
    } else {
        s
    }
}

/// The integer value of a JSON number that is an integer (not a float, not a boolean).
pub(crate) fn as_int(v: &Value) -> Option<i128> {
    if let Some(u) = v.as_u64() {
        Some(u as i128)
    } else {
        v.as_i64().map(|i| i as i128)
    }
}

/// RS-17, RS-18, REC-5: checks a `spec_version` as given (`None` where the object has none,
/// which reads as 1.0.0). The error is the rest of a sentence whose subject is the field, for
/// the caller to wrap in its own error code.
pub(crate) fn check_spec_version(v: Option<&Value>) -> Result<(), String> {
    let Some(v) = v else {
        return Ok(());
    };
    let text = v.as_str().filter(|s| {
        let parts: Vec<&str> = s.split('.').collect();
        parts.len() == 3
            && parts.iter().all(|p| {
                !p.is_empty()
                    && p.bytes().all(|b| b.is_ascii_digit())
                    && (p.len() == 1 || !p.starts_with('0'))
            })
    });
    let Some(text) = text else {
        return Err(format!(
            "must be a version MAJOR.MINOR.PATCH such as '1.0.0', got {}",
            describe(v)
        ));
    };
    // Without leading zeros, the major version is 1 exactly when it is written "1".
    if text.split('.').next() != Some(SPEC_MAJOR) {
        return Err(format!(
            "is {}, a major version this implementation of {SPEC_VERSION} cannot read (it reads {SPEC_MAJOR}.x)",
            quote(text)
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Reading a ruleset takes two steps, as a chess position is read from a raw setup: step 1 reads
// the JSON object into a `RawRuleset` (serde), which has every field in its JSON type, knows
// which fields exist (an unknown field is refused, RS-18) and which may be left out (RS-19), and
// checks nothing else; step 2 (`RawRuleset::validate`) checks it clause by clause, RS-1 … RS-15,
// into a `Ruleset`.

/// A value as written: of the JSON type its field needs, or else the value itself and what is
/// wrong with it, kept for the clause that reads the field to name it (ERR-2). Reading one never
/// fails, so step 1 fails only for the shape of an object: a missing or unknown field.
enum Typed<T> {
    Ok(T),
    Bad(Value, String),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Typed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Typed<T>, D::Error> {
        Value::deserialize(d).map(Typed::read)
    }
}

impl<T: DeserializeOwned> Typed<T> {
    fn read(v: Value) -> Typed<T> {
        match T::deserialize(&v) {
            Ok(t) => Typed::Ok(t),
            Err(e) => Typed::Bad(v, e.to_string()),
        }
    }
}

impl<T> Typed<T> {
    /// The value, or `invalid-ruleset`: `field` must be `what`.
    fn or_bad(self, field: &str, what: &str) -> Result<T, Error> {
        match self {
            Typed::Ok(t) => Ok(t),
            Typed::Bad(v, _) => Err(bad(
                field,
                format_args!("must be {what}, got {}", describe(&v)),
            )),
        }
    }

    /// The value of a nested object (`deck`, `passing`, `moon`), or `invalid-ruleset` for its
    /// shape: not an object, or a missing or unknown field, named `field.key`.
    fn or_shape(self, field: &str) -> Result<T, Error> {
        match self {
            Typed::Ok(t) => Ok(t),
            Typed::Bad(v, e) => Err(shape_error(field, &v, &e)),
        }
    }
}

/// The error for the shape of an object (`field` empty for the ruleset itself), from what serde
/// reported: its wording for these two cases is that of `serde::de::Error`'s `unknown_field` and
/// `missing_field`.
fn shape_error(field: &str, v: &Value, serde_message: &str) -> Error {
    let path = |k: &str| {
        if field.is_empty() {
            k.to_string()
        } else {
            format!("{field}.{k}")
        }
    };
    let Some(obj) = v.as_object() else {
        return if field.is_empty() {
            Error::new(
                ErrorCode::InvalidRuleset,
                format!("invalid ruleset: must be an object, got {}", describe(v)),
            )
        } else {
            bad(
                field,
                format_args!("must be an object, got {}", describe(v)),
            )
        };
    };
    // RS-18: a field this implementation does not know.
    if let Some(k) = obj
        .keys()
        .find(|k| serde_message.starts_with(&format!("unknown field `{k}`, ")))
    {
        return bad(&path(k), "is not a known field");
    }
    // RS-19: a core field left out.
    if let Some(k) = serde_message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return bad(&path(k), "is missing");
    }
    if field.is_empty() {
        Error::new(
            ErrorCode::InvalidRuleset,
            format!("invalid ruleset: {serde_message}"),
        )
    } else {
        bad(field, serde_message)
    }
}

/// For an optional field (RS-19): present, even as `null`, is `Some`; only an absent field takes
/// the default `None`. (serde alone would read a `null` as absent.)
fn present<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> Result<Option<Typed<T>>, D::Error> {
    Typed::deserialize(d).map(Some)
}

/// For a nested object: only a JSON object is read as one (serde would also read a struct from
/// an array, field by field).
fn object<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Typed<T>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(if v.is_object() {
        Typed::read(v)
    } else {
        Typed::Bad(v, String::new())
    })
}

/// For a nested object that may be `null` (`passing`, `moon`).
fn object_or_null<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> Result<Typed<Option<T>>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(if v.is_object() || v.is_null() {
        Typed::read(v)
    } else {
        Typed::Bad(v, String::new())
    })
}

/// For an optional nested object that may be `null` (`cancellation`): absent is `None`, and a
/// `null` reads as `Some(Ok(None))`, which means what absence does (RS-19, RS-22).
fn present_object_or_null<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> Result<Option<Typed<Option<T>>>, D::Error> {
    object_or_null(d).map(Some)
}

/// A JSON integer: a number without a fraction, never a boolean (ERR-6: −2⁶³ … 2⁶⁴−1).
struct Int(i128);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Int, D::Error> {
        struct IntVisitor;
        impl<'de> Visitor<'de> for IntVisitor {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_u64<E: de::Error>(self, x: u64) -> Result<Int, E> {
                Ok(Int(x.into()))
            }
            fn visit_i64<E: de::Error>(self, x: i64) -> Result<Int, E> {
                Ok(Int(x.into()))
            }
        }
        d.deserialize_any(IntVisitor)
    }
}

/// Step 1: a ruleset object as written (RS-1 … RS-11, RS-17), every field in its JSON type.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleset {
    // RS-1
    name: Typed<String>,
    // RS-2, optional (RS-19: absent is none)
    #[serde(default, deserialize_with = "present")]
    title: Option<Typed<String>>,
    #[serde(default, deserialize_with = "present")]
    sources: Option<Typed<Vec<Typed<String>>>>,
    // RS-17, optional (RS-19: absent is 1.0.0). Checked before this structure is read (RS-18)
    // and not part of the ruleset's value: known here only so that it is not an unknown field.
    #[serde(default, rename = "spec_version")]
    _spec_version: Option<IgnoredAny>,
    // RS-3
    players: Typed<Int>,
    // RS-4
    #[serde(deserialize_with = "object")]
    deck: Typed<RawDeck>,
    // RS-5
    #[serde(deserialize_with = "object_or_null")]
    passing: Typed<Option<RawPassing>>,
    // RS-6
    opening_card: Typed<Option<Value>>,
    // The fields read from the table alone (RS-7, RS-8, RS-20, …), taken out of the object
    // before serde reads it, as written, at the field's index (`None` for a field left out).
    #[serde(skip)]
    simple: Vec<Option<Value>>,
    // RS-9
    card_points: Typed<BTreeMap<String, Typed<Int>>>,
    // RS-10
    #[serde(deserialize_with = "object_or_null")]
    moon: Typed<Option<RawMoon>>,
    // RS-23 (1.4.0), optional (RS-19: absent, or null, is none)
    #[serde(default, deserialize_with = "present_object_or_null")]
    sun: Option<Typed<Option<RawSun>>>,
    // RS-11 (null only where `deals` is set, RS-26)
    target: Typed<Option<Int>>,
    // RS-26 (1.4.0), optional (RS-19: absent, or null, is none); read here, not from the
    // table, as it runs to 2^64−1 (ERR-6) as `target` does.
    #[serde(default, deserialize_with = "present")]
    deals: Option<Typed<Option<Int>>>,
    // RS-22, optional (RS-19: absent, or null, is none)
    #[serde(default, deserialize_with = "present_object_or_null")]
    cancellation: Option<Typed<Option<RawCancellation>>>,
}

/// RS-22 as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCancellation {
    last_trick: Typed<String>,
}

/// RS-4 as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    lowest_rank: Typed<String>,
    removed: Typed<Vec<Value>>,
    // RS-21, optional (RS-19: absent is 1)
    #[serde(default, deserialize_with = "present")]
    packs: Option<Typed<Int>>,
}

/// RS-5 as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPassing {
    cycle: Typed<Vec<Value>>,
    size: Typed<Int>,
}

/// RS-10 as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoon {
    scoring: Typed<String>,
    bonus: Typed<Int>,
    // RS-24 (1.4.0), optional (RS-19: absent is point-cards)
    #[serde(default, deserialize_with = "present")]
    needs: Option<Typed<String>>,
}

/// RS-23 as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSun {
    scoring: Typed<String>,
    bonus: Typed<Int>,
}

/// RS-4, RS-12: the deck as validated.
struct Deck {
    lowest_rank: u8,
    // One entry per copy removed, sorted.
    removed: Vec<Card>,
    packs: u8,
    cards: CardSet,
    twice: CardSet,
    hand_size: usize,
}

impl Deck {
    // The copies of `c` in the deck.
    fn copies(&self, c: Card) -> i128 {
        i128::from(self.cards.contains(c)) + i128::from(self.twice.contains(c))
    }
}

/// RS-9, RS-14: the card values as validated.
struct Points {
    table: [i32; 52],
    card_points: Vec<(Card, i32)>,
    point_cards: CardSet,
    scoring_cards: CardSet,
    positive_total: i32,
    // ERR-6: the sum of the values' magnitudes, each counted once per copy in the deck (a hand's
    // points add up every copy captured, SCORE-1), which with the moon bonus stays below 2^31.
    magnitude: i128,
}

impl RawRuleset {
    /// Step 1: the object read into its raw structure. Fails for anything but an object, for a
    /// `spec_version` this implementation does not read (RS-18, checked first, so that a
    /// ruleset of another major version is refused as such and not for a field it names
    /// differently), and for a missing core field or an unknown field (RS-18, RS-19).
    fn from_value(v: &Value) -> Result<RawRuleset, Error> {
        let obj = v.as_object().ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidRuleset,
                format!("invalid ruleset: must be an object, got {}", describe(v)),
            )
        })?;
        check_spec_version(obj.get("spec_version")).map_err(|m| bad("spec_version", m))?;
        // RS-18: a field this implementation does not know, the first in the object's order
        // (sorted); then RS-19: the first core field left out, in the table's order.
        if let Some(k) = obj.keys().find(|k| Field::from_name(k).is_none()) {
            return Err(bad(k, "is not a known field"));
        }
        if let Some(f) = FIELDS
            .iter()
            .find(|f| !f.optional && !obj.contains_key(f.name))
        {
            return Err(bad(f.name, "is missing"));
        }
        let mut rest = obj.clone();
        let simple: Vec<Option<Value>> = FIELDS
            .iter()
            .map(|f| {
                if generic(f) {
                    rest.remove(f.name)
                } else {
                    None
                }
            })
            .collect();
        let mut raw = RawRuleset::deserialize(&Value::Object(rest))
            .map_err(|e| shape_error("", v, &e.to_string()))?;
        raw.simple = simple;
        Ok(raw)
    }

    /// Step 2: the clauses of `ruleset.md` in order, each read by its own function.
    fn validate(self) -> Result<Ruleset, Error> {
        // The simple fields are checked in the table's order among the others, so that of
        // several faults the first field's is reported.
        let mut values = [None; FIELD_COUNT];
        let mut simple = SimpleFields {
            written: &self.simple,
            values: &mut values,
            next: 0,
        };
        simple.upto(Field::Name)?;
        let name = rs_1_name(self.name)?;
        simple.upto(Field::Title)?;
        let (title, sources) = rs_2_informative(self.title, self.sources)?;
        simple.upto(Field::Players)?;
        let players = rs_3_players(self.players)?;
        simple.upto(Field::Deck)?;
        let deck = rs_4_deck(self.deck.or_shape("deck")?, players)?;
        simple.upto(Field::Passing)?;
        let passing = rs_5_passing(self.passing.or_shape("passing")?, players, deck.hand_size)?;
        simple.upto(Field::OpeningCard)?;
        let opening_card = rs_6_opening_card(self.opening_card, &deck)?;
        simple.upto(Field::CardPoints)?;
        let points = rs_9_card_points(self.card_points, &deck)?;
        simple.upto(Field::Moon)?;
        let moon = rs_10_moon(self.moon.or_shape("moon")?, &points)?;
        simple.upto(Field::Sun)?;
        let sun = rs_23_sun(self.sun, &points)?;
        simple.upto(Field::Target)?;
        let target = rs_11_target(self.target)?;
        simple.upto(Field::Deals)?;
        let deals = rs_26_deals(self.deals)?;
        simple.upto(Field::Cancellation)?;
        let cancellation = rs_22_cancellation(self.cancellation, deck.packs)?;
        simple.upto_end()?;
        // RS-13 items 8 … 10, across the fields of the match's end.
        let count_down = values[Field::CountDown as usize] == Some(1);
        if self.simple[Field::CountDownEnd as usize].is_some() && !count_down {
            return Err(bad("count_down_end", "is set but count_down is not true"));
        }
        rs_13_match_end(target, count_down, deals)?;
        let breakers = rs_15_breakers(hearts_breaking(&values));
        Ok(Ruleset {
            name,
            title,
            sources,
            players,
            lowest_rank: deck.lowest_rank,
            removed: deck.removed,
            packs: deck.packs,
            passing,
            opening_card,
            values,
            card_points: points.card_points,
            moon,
            sun,
            target,
            deals,
            cancellation,
            deck: deck.cards,
            deck_twice: deck.twice,
            hand_size: deck.hand_size,
            first_trick_banned: if values[Field::FirstTrickBan as usize] == Some(1) {
                points.point_cards
            } else {
                CardSet::EMPTY
            },
            point_cards: points.point_cards,
            scoring_cards: points.scoring_cards,
            breakers,
            points: points.table,
            positive_total: points.positive_total,
        })
    }
}

/// RS-1: `[a-z0-9-]+`.
fn rs_1_name(name: Typed<String>) -> Result<String, Error> {
    let name = name.or_bad("name", "a string")?;
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(bad(
            "name",
            format_args!("must match [a-z0-9-]+, got {}", quote(&name)),
        ));
    }
    Ok(name)
}

/// RS-2: a string and an array of strings, each optional (RS-19).
#[allow(clippy::type_complexity)]
fn rs_2_informative(
    title: Option<Typed<String>>,
    sources: Option<Typed<Vec<Typed<String>>>>,
) -> Result<(Option<String>, Option<Vec<String>>), Error> {
    let title = title.map(|t| t.or_bad("title", "a string")).transpose()?;
    let sources = sources
        .map(|s| {
            s.or_bad("sources", "an array of strings")?
                .into_iter()
                .map(|x| x.or_bad("sources", "an array of strings"))
                .collect::<Result<Vec<String>, Error>>()
        })
        .transpose()?;
    Ok((title, sources))
}

/// RS-3: 3 to 10 seats.
fn rs_3_players(players: Typed<Int>) -> Result<usize, Error> {
    let written = match players {
        Typed::Ok(Int(p)) if (3..=10).contains(&p) => return Ok(p as usize),
        Typed::Ok(Int(p)) => p.to_string(),
        Typed::Bad(v, _) => describe(&v),
    };
    Err(bad(
        "players",
        format_args!("must be an integer from 3 to 10, got {written}"),
    ))
}

/// RS-13.1: a card of rank at least `lowest`, in any form of CARD-4.
fn rs_13_1_card(field: &str, v: &Value, lowest: u8) -> Result<Card, Error> {
    let s = v
        .as_str()
        .ok_or_else(|| bad(field, format_args!("must name a card, got {}", describe(v))))?;
    let c = Card::parse(s)
        .map_err(|_| bad(field, format_args!("names an invalid card {}", quote(s))))?;
    if c.rank() < lowest {
        return Err(bad(
            field,
            format_args!("names {c}, below the deck's lowest rank"),
        ));
    }
    Ok(c)
}

/// RS-4 with RS-13.1 (valid removed cards, none twice), RS-13.2 (an even deal, at least one
/// card each) and RS-12 (the hand size).
fn rs_4_deck(deck: RawDeck, players: usize) -> Result<Deck, Error> {
    let lowest_rank = match &deck.lowest_rank {
        Typed::Ok(s) => {
            let mut cs = s.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => RANK_CHARS.iter().position(|&r| r == c),
                _ => None,
            }
        }
        Typed::Bad(..) => None,
    };
    let lowest_rank = match lowest_rank {
        Some(r) => r as u8,
        None => {
            let written = match deck.lowest_rank {
                Typed::Ok(s) => Value::String(s),
                Typed::Bad(v, _) => v,
            };
            return Err(bad(
                "deck.lowest_rank",
                format_args!(
                    "must be a rank character 2-9, T, J, Q, K or A, got {}",
                    describe(&written)
                ),
            ));
        }
    };
    // RS-21, RS-13.7: 1 or 2.
    let packs = match deck.packs {
        None => 1u8,
        Some(Typed::Ok(Int(p))) if p == 1 || p == 2 => p as u8,
        Some(Typed::Ok(Int(p))) => {
            return Err(bad("deck.packs", format_args!("must be 1 or 2, got {p}")))
        }
        Some(Typed::Bad(v, _)) => {
            return Err(bad(
                "deck.packs",
                format_args!("must be 1 or 2, got {}", describe(&v)),
            ))
        }
    };
    // RS-13.1: each entry takes one copy away, and no card more times than `packs`.
    let mut removed = Vec::new();
    let mut once = CardSet::EMPTY;
    let mut twice = CardSet::EMPTY;
    for x in deck.removed.or_bad("deck.removed", "an array of cards")? {
        let c = rs_13_1_card("deck.removed", &x, lowest_rank)?;
        if twice.contains(c) || (packs == 1 && once.contains(c)) {
            let times = if packs == 1 { "twice" } else { "three times" };
            return Err(bad(
                "deck.removed",
                format_args!("names {c} {times} (deck.packs is {packs})"),
            ));
        }
        if once.contains(c) {
            twice.insert(c);
        }
        once.insert(c);
        removed.push(c);
    }
    removed.sort_unstable();
    let mut all = CardSet::EMPTY;
    for s in Suit::ALL {
        for r in lowest_rank..13 {
            all.insert(Card::from_parts(s, r));
        }
    }
    // The cards left with at least one copy, and with two.
    let (cards, twice) = if packs == 1 {
        (CardSet(all.0 & !once.0), CardSet::EMPTY)
    } else {
        (CardSet(all.0 & !twice.0), CardSet(all.0 & !once.0))
    };
    // RS-13.2, RS-12
    let n = cards.len() + twice.len();
    if n < players || n % players != 0 {
        return Err(bad(
            "deck",
            format_args!("has {n} cards, which do not divide evenly among {players} players"),
        ));
    }
    Ok(Deck {
        lowest_rank,
        removed,
        packs,
        cards,
        twice,
        hand_size: n / players,
    })
}

/// RS-5 with RS-13.4: a cycle of known directions, `across` only with 4 players, not only
/// `hold`; a size from 1 to the hand size.
fn rs_5_passing(
    passing: Option<RawPassing>,
    players: usize,
    hand_size: usize,
) -> Result<Option<Passing>, Error> {
    let Some(p) = passing else {
        return Ok(None);
    };
    let entries = p.cycle.or_bad("passing.cycle", "an array of directions")?;
    if entries.is_empty() {
        return Err(bad("passing.cycle", "must not be empty"));
    }
    let mut cycle = Vec::with_capacity(entries.len());
    for d in &entries {
        let dir = d
            .as_str()
            .and_then(PassDirection::from_name)
            .ok_or_else(|| {
                bad(
                    "passing.cycle",
                    format_args!(
                        "entries must be left, right, across or hold, got {}",
                        describe(d)
                    ),
                )
            })?;
        if dir == PassDirection::Across && players != 4 {
            return Err(bad(
                "passing.cycle",
                format_args!("uses across with {players} players (4 only)"),
            ));
        }
        cycle.push(dir);
    }
    if cycle.iter().all(|&d| d == PassDirection::Hold) {
        return Err(bad(
            "passing.cycle",
            "is only hold (a table that never passes says null)",
        ));
    }
    let written = match p.size {
        Typed::Ok(Int(s)) if s >= 1 && s <= hand_size as i128 => {
            return Ok(Some(Passing {
                cycle,
                size: s as usize,
            }))
        }
        Typed::Ok(Int(s)) => s.to_string(),
        Typed::Bad(v, _) => describe(&v),
    };
    Err(bad(
        "passing.size",
        format_args!("must be an integer from 1 to the hand size {hand_size}, got {written}"),
    ))
}

/// RS-6 with RS-13.1 and RS-13.3: a card of the deck, or `null`.
fn rs_6_opening_card(opening: Typed<Option<Value>>, deck: &Deck) -> Result<Option<Card>, Error> {
    let opening = match opening {
        Typed::Ok(v) => v,
        Typed::Bad(v, _) => Some(v),
    };
    let Some(v) = opening else {
        return Ok(None);
    };
    let c = rs_13_1_card("opening_card", &v, deck.lowest_rank)?;
    if !deck.cards.contains(c) {
        return Err(bad("opening_card", format_args!("{c} is not in the deck")));
    }
    // RS-13.3: one holder (PLAY-1), so exactly one copy.
    if deck.twice.contains(c) {
        return Err(bad(
            "opening_card",
            format_args!(
                "{c} has two copies in the deck, and it must have exactly one \
                 (deck.removed takes one away)"
            ),
        ));
    }
    Ok(Some(c))
}

/// The fields read from the table alone, as written (`None` for one left out, at the field's
/// index), checked one by one in the table's order up to a given field: each of its kind (or
/// `null` where it may be), as its code; an optional field left out is its default.
struct SimpleFields<'a> {
    written: &'a [Option<Value>],
    values: &'a mut [Option<i64>; FIELD_COUNT],
    next: usize,
}

impl SimpleFields<'_> {
    /// Checks the fields before `field`.
    fn upto(&mut self, field: Field) -> Result<(), Error> {
        self.check(field as usize)
    }

    /// Checks the rest.
    fn upto_end(&mut self) -> Result<(), Error> {
        self.check(FIELD_COUNT)
    }

    fn check(&mut self, end: usize) -> Result<(), Error> {
        while self.next < end {
            let f = &FIELDS[self.next];
            self.values[self.next] = match &self.written[self.next] {
                _ if !generic(f) => None,
                // Absent: the default, none where it is null or not stated.
                None => match f.default_value() {
                    Value::Null => None,
                    d => Some(
                        f.kind
                            .read(&d)
                            .expect("the schema's default is of its field's kind"),
                    ),
                },
                Some(Value::Null) if f.nullable => None,
                Some(v) => Some(f.kind.read(v).ok_or_else(|| {
                    bad(
                        f.name,
                        format_args!("must be {}, got {}", f.kind.expected(), describe(v)),
                    )
                })?),
            };
            self.next += 1;
        }
        Ok(())
    }
}

/// RS-8: the breaking rule of a ruleset's values.
fn hearts_breaking(values: &[Option<i64>; FIELD_COUNT]) -> HeartsBreaking {
    match values[Field::HeartsBreaking as usize] {
        Some(0) => HeartsBreaking::None,
        Some(1) => HeartsBreaking::Heart,
        _ => HeartsBreaking::HeartOrQs,
    }
}

/// RS-9 with RS-13.1 and RS-13.3 (cards of the deck, none twice), non-zero integer values, and
/// RS-14 (the point cards are those worth more than 0); ERR-6 bounds the values.
fn rs_9_card_points(
    card_points: Typed<BTreeMap<String, Typed<Int>>>,
    deck: &Deck,
) -> Result<Points, Error> {
    let cp = card_points.or_bad("card_points", "an object of card to integer")?;
    let mut table = [0i32; 52];
    let mut seen = CardSet::EMPTY;
    let mut magnitude: i128 = 0;
    for (k, val) in cp {
        let c = rs_13_1_card("card_points", &Value::String(k), deck.lowest_rank)?;
        if seen.contains(c) {
            return Err(bad("card_points", format_args!("names {c} twice")));
        }
        seen.insert(c);
        if !deck.cards.contains(c) {
            return Err(bad("card_points", format_args!("{c} is not in the deck")));
        }
        let x = match val {
            Typed::Ok(Int(x)) if x != 0 => x,
            Typed::Ok(_) => {
                return Err(bad(
                    "card_points",
                    format_args!("value of {c} must be a non-zero integer, got 0"),
                ))
            }
            Typed::Bad(v, _) => {
                return Err(bad(
                    "card_points",
                    format_args!(
                        "value of {c} must be a non-zero integer, got {}",
                        describe(&v)
                    ),
                ))
            }
        };
        magnitude += x.abs() * deck.copies(c);
        if magnitude > i32::MAX as i128 {
            return Err(bad(
                "card_points",
                "values are too large (their magnitudes must add up to less than 2^31)",
            ));
        }
        table[c.id() as usize] = x as i32;
    }
    let card_points: Vec<(Card, i32)> = seen
        .into_iter()
        .map(|c| (c, table[c.id() as usize]))
        .collect();
    let point_cards: CardSet = seen
        .into_iter()
        .filter(|c| table[c.id() as usize] > 0)
        .collect();
    // Each copy counts (SCORE-1, D-15).
    let positive_total: i32 = point_cards
        .into_iter()
        .map(|c| table[c.id() as usize] * deck.copies(c) as i32)
        .sum();
    Ok(Points {
        table,
        card_points,
        point_cards,
        scoring_cards: seen,
        positive_total,
        magnitude,
    })
}

/// RS-10 with RS-13.5 (a moon needs a point card); ERR-6 bounds the bonus.
fn rs_10_moon(moon: Option<RawMoon>, points: &Points) -> Result<Option<Moon>, Error> {
    let Some(m) = moon else {
        return Ok(None);
    };
    let scoring = match m.scoring {
        Typed::Ok(s) => MoonScoring::from_name(&s).ok_or(Value::String(s)),
        Typed::Bad(v, _) => Err(v),
    }
    .map_err(|written| {
        bad(
            "moon.scoring",
            format_args!(
                "must be add-to-others, subtract-from-taker or taker-choice, got {}",
                describe(&written)
            ),
        )
    })?;
    let bonus = match m.bonus {
        Typed::Ok(Int(b)) if b >= 1 && b + points.magnitude <= i32::MAX as i128 => b as i32,
        Typed::Ok(Int(b)) if b >= 1 => {
            return Err(bad(
                "moon.bonus",
                "is too large (with the card values it must stay below 2^31)",
            ))
        }
        Typed::Ok(Int(b)) => {
            return Err(bad(
                "moon.bonus",
                format_args!("must be a positive integer, got {b}"),
            ))
        }
        Typed::Bad(v, _) => {
            return Err(bad(
                "moon.bonus",
                format_args!("must be a positive integer, got {}", describe(&v)),
            ))
        }
    };
    if points.point_cards.is_empty() {
        return Err(bad(
            "moon",
            "is set but no card of the deck is a point card",
        ));
    }
    let needs = match m.needs {
        None => Ok(MoonNeeds::default()),
        Some(Typed::Ok(s)) => MoonNeeds::from_name(&s).ok_or(Value::String(s)),
        Some(Typed::Bad(v, _)) => Err(v),
    }
    .map_err(|written| {
        bad(
            "moon.needs",
            format_args!(
                "must be point-cards or every-scoring-card, got {}",
                describe(&written)
            ),
        )
    })?;
    Ok(Some(Moon {
        scoring,
        bonus,
        needs,
    }))
}

/// RS-23: `sun`, `null` (or absent), or `{scoring, bonus}` read as RS-10 reads a moon's; ERR-6
/// bounds the bonus.
fn rs_23_sun(
    written: Option<Typed<Option<RawSun>>>,
    points: &Points,
) -> Result<Option<ShotRule>, Error> {
    let Some(s) = written.map(|s| s.or_shape("sun")).transpose()?.flatten() else {
        return Ok(None);
    };
    let scoring = match s.scoring {
        Typed::Ok(s) => MoonScoring::from_name(&s).ok_or(Value::String(s)),
        Typed::Bad(v, _) => Err(v),
    }
    .map_err(|written| {
        bad(
            "sun.scoring",
            format_args!(
                "must be add-to-others, subtract-from-taker or taker-choice, got {}",
                describe(&written)
            ),
        )
    })?;
    let bonus = match s.bonus {
        Typed::Ok(Int(b)) if b >= 1 && b + points.magnitude <= i32::MAX as i128 => b as i32,
        Typed::Ok(Int(b)) if b >= 1 => {
            return Err(bad(
                "sun.bonus",
                "is too large (with the card values it must stay below 2^31)",
            ))
        }
        Typed::Ok(Int(b)) => {
            return Err(bad(
                "sun.bonus",
                format_args!("must be a positive integer, got {b}"),
            ))
        }
        Typed::Bad(v, _) => {
            return Err(bad(
                "sun.bonus",
                format_args!("must be a positive integer, got {}", describe(&v)),
            ))
        }
    };
    Ok(Some(ShotRule { scoring, bonus }))
}

/// RS-26, RS-13 item 11: `deals`, `null` (or absent) or an integer 1 … 2^64−1.
fn rs_26_deals(written: Option<Typed<Option<Int>>>) -> Result<Option<u64>, Error> {
    match written {
        None | Some(Typed::Ok(None)) => Ok(None),
        Some(Typed::Ok(Some(Int(d)))) if d >= 1 && d <= u64::MAX as i128 => Ok(Some(d as u64)),
        Some(Typed::Ok(Some(Int(d)))) => Err(bad(
            "deals",
            format_args!("must be a positive integer, got {d}"),
        )),
        Some(Typed::Bad(v, _)) => Err(bad(
            "deals",
            format_args!("must be a positive integer, got {}", describe(&v)),
        )),
    }
}

/// RS-13 items 9 and 10: `target` is null only where `deals` is set (a match needs an end),
/// and `count_down` is true only where there is a target (the count-down starts at it).
fn rs_13_match_end(target: Option<u64>, count_down: bool, deals: Option<u64>) -> Result<(), Error> {
    if target.is_none() && deals.is_none() {
        return Err(bad(
            "target",
            "is null but deals is not set (a match needs an end)",
        ));
    }
    if target.is_none() && count_down {
        return Err(bad(
            "count_down",
            "is true but target is null (the count-down starts at the target)",
        ));
    }
    Ok(())
}

/// RS-11 with RS-13.6: a positive integer (ERR-6: at most 2^64−1), or null (RS-26, checked
/// with `deals` by [`rs_13_match_end`]).
fn rs_11_target(target: Typed<Option<Int>>) -> Result<Option<u64>, Error> {
    match target {
        Typed::Ok(None) => Ok(None),
        Typed::Ok(Some(Int(t))) if t >= 1 && t <= u64::MAX as i128 => Ok(Some(t as u64)),
        Typed::Ok(Some(Int(t))) => Err(bad(
            "target",
            format_args!("must be a positive integer, got {t}"),
        )),
        Typed::Bad(v, _) => Err(bad(
            "target",
            format_args!("must be a positive integer, got {}", describe(&v)),
        )),
    }
}

/// RS-22 with RS-13.7: `null` (or absent), or `{last_trick}`, only with two packs.
fn rs_22_cancellation(
    written: Option<Typed<Option<RawCancellation>>>,
    packs: u8,
) -> Result<Option<LastTrick>, Error> {
    let Some(c) = written
        .map(|c| c.or_shape("cancellation"))
        .transpose()?
        .flatten()
    else {
        return Ok(None);
    };
    let rule = match c.last_trick {
        Typed::Ok(s) => LastTrick::from_name(&s).ok_or(Value::String(s)),
        Typed::Bad(v, _) => Err(v),
    }
    .map_err(|written| {
        bad(
            "cancellation.last_trick",
            format_args!(
                "must be leader or later-highest, got {}",
                describe(&written)
            ),
        )
    })?;
    if packs != 2 {
        return Err(bad(
            "cancellation",
            format_args!("is set but deck.packs is {packs} (cancellation needs 2)"),
        ));
    }
    Ok(Some(rule))
}

/// RS-8, RS-15: the cards whose play breaks hearts, by suit and `QS`, whatever their values.
fn rs_15_breakers(breaking: HeartsBreaking) -> CardSet {
    let hearts = CardSet(SUIT_MASKS[Suit::Hearts as usize]);
    match breaking {
        HeartsBreaking::None => CardSet::EMPTY,
        HeartsBreaking::Heart => hearts,
        HeartsBreaking::HeartOrQs => hearts | CardSet::from(Card::QUEEN_OF_SPADES),
    }
}

impl Ruleset {
    /// Parses and validates a ruleset from JSON text (RS-1 … RS-19).
    ///
    /// # Errors
    ///
    /// `invalid-ruleset` with a message naming the field, when the text is not JSON, a core
    /// field is missing, a field is unknown, a value has the wrong type, RS-13 is broken, or
    /// `spec_version` is not a version this crate reads (RS-18).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::Ruleset;
    /// let err = Ruleset::from_json_str("{}").unwrap_err();
    /// assert_eq!(err.code.as_str(), "invalid-ruleset");
    /// ```
    pub fn from_json_str(text: &str) -> Result<Ruleset, Error> {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            Error::new(
                ErrorCode::InvalidRuleset,
                format!(
                    "invalid ruleset: not json: {}",
                    e.to_string().to_lowercase()
                ),
            )
        })?;
        Ruleset::from_value(&v)
    }

    /// Validates a ruleset given as a JSON value (RS-1 … RS-19), in two steps: the object is
    /// read into its raw structure (every field in its JSON type, no unknown field, the core
    /// fields present), which is then checked clause by clause.
    ///
    /// Card strings may use any form of CARD-4; they are stored canonically. A `spec_version`
    /// is checked (RS-18) and not kept: it is not part of the ruleset's value.
    ///
    /// # Errors
    ///
    /// `invalid-ruleset` with a message naming the field.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Ruleset};
    /// let mut v = preset("hearts-4").unwrap().to_value();
    /// v["spec_version"] = "1.0.0".into();
    /// assert_eq!(Ruleset::from_value(&v).unwrap(), *preset("hearts-4").unwrap());
    /// v["spec_version"] = "2.0.0".into();
    /// assert_eq!(Ruleset::from_value(&v).unwrap_err().code.as_str(), "invalid-ruleset");
    /// ```
    pub fn from_value(v: &Value) -> Result<Ruleset, Error> {
        RawRuleset::from_value(v)?.validate()
    }

    /// The ruleset as the JSON object of `ruleset.md`, cards canonical and sorted.
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        o.insert("name".into(), Value::from(self.name.clone()));
        if let Some(t) = &self.title {
            o.insert("title".into(), Value::from(t.clone()));
        }
        if let Some(s) = &self.sources {
            o.insert("sources".into(), Value::from(s.clone()));
        }
        o.insert("players".into(), Value::from(self.players));
        let mut deck = Map::new();
        deck.insert(
            "lowest_rank".into(),
            Value::from(RANK_CHARS[self.lowest_rank as usize].to_string()),
        );
        deck.insert(
            "removed".into(),
            Value::from(
                self.removed
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>(),
            ),
        );
        // RS-21: written only where 2, so that a one-pack ruleset keeps its canonical object.
        if self.packs == 2 {
            deck.insert("packs".into(), Value::from(2));
        }
        o.insert("deck".into(), Value::Object(deck));
        o.insert(
            "passing".into(),
            match &self.passing {
                None => Value::Null,
                Some(p) => {
                    let mut m = Map::new();
                    m.insert(
                        "cycle".into(),
                        Value::from(p.cycle.iter().map(|d| d.as_str()).collect::<Vec<_>>()),
                    );
                    m.insert("size".into(), Value::from(p.size));
                    Value::Object(m)
                }
            },
        );
        o.insert(
            "opening_card".into(),
            self.opening_card
                .map_or(Value::Null, |c| Value::from(c.to_string())),
        );
        // RS-16, RS-19: an optional field at its default stays out, so that the rulesets
        // written before it keep their canonical object.
        for (f, code) in FIELDS.iter().zip(self.values) {
            if let Some(code) = code {
                let v = f.kind.write(code);
                if !f.optional || f.default_value() != v {
                    o.insert(f.name.into(), v);
                }
            }
        }
        let mut cp = Map::new();
        for (c, v) in &self.card_points {
            cp.insert(c.to_string(), Value::from(*v));
        }
        o.insert("card_points".into(), Value::Object(cp));
        o.insert(
            "moon".into(),
            match self.moon {
                None => Value::Null,
                Some(m) => {
                    let mut mm = Map::new();
                    mm.insert("scoring".into(), Value::from(m.scoring.as_str()));
                    mm.insert("bonus".into(), Value::from(m.bonus));
                    // RS-24: written only where not the default.
                    if m.needs != MoonNeeds::default() {
                        mm.insert("needs".into(), Value::from(m.needs.as_str()));
                    }
                    Value::Object(mm)
                }
            },
        );
        // RS-23: written only where set.
        if let Some(s) = self.sun {
            o.insert(
                "sun".into(),
                serde_json::json!({"scoring": s.scoring.as_str(), "bonus": s.bonus}),
            );
        }
        o.insert(
            "target".into(),
            self.target.map_or(Value::Null, Value::from),
        );
        // RS-26: written only where set.
        if let Some(d) = self.deals {
            o.insert("deals".into(), Value::from(d));
        }
        // RS-22: written only where set.
        if let Some(rule) = self.cancellation {
            o.insert(
                "cancellation".into(),
                serde_json::json!({"last_trick": rule.as_str()}),
            );
        }
        Value::Object(o)
    }

    /// The ruleset's canonical JSON text: compact, keys sorted, non-ASCII characters as they
    /// are: the text of Python's `json.dumps(obj, sort_keys=True, separators=(",", ":"),
    /// ensure_ascii=False)`, which both engines hash (API-2).
    pub fn to_json_string(&self) -> String {
        // serde_json's maps are sorted by key (no `preserve_order`), and its compact writer
        // escapes exactly what Python's does with `ensure_ascii=False`.
        self.to_value().to_string()
    }

    /// A new, validated ruleset with some fields changed (API-2 `replace`). `fields` maps the
    /// keywords of API-2 to JSON values: any field of `ruleset.md`, or the shorthands
    /// `lowest_rank`, `removed` (of `deck`), `pass_cycle`, `pass_size` (of `passing`, both
    /// needed where there is none), `moon_scoring`, `moon_bonus` (of `moon`, likewise);
    /// `card_points` is merged into the table, a value of 0 taking the card out; a null takes
    /// an optional field (RS-19) out. Unless `name` is given the result is named
    /// `<name>-custom`, and then titled `<title> (custom)` where there is a title and `title`
    /// is not given.
    ///
    /// # Errors
    ///
    /// `invalid-ruleset` for an unknown keyword, a shorthand of a missing part given alone, or
    /// a result that is not a valid ruleset.
    ///
    /// # Examples
    ///
    /// ```
    /// use serde_json::json;
    /// let r = reversis_core::preset("hearts-4").unwrap();
    /// let omnibus = r.replace(json!({"card_points": {"JD": -10}}).as_object().unwrap()).unwrap();
    /// assert_eq!(omnibus.name(), "hearts-4-custom");
    /// assert_eq!(omnibus.points_of("JD".parse().unwrap()), -10);
    /// ```
    pub fn replace(&self, fields: &Map<String, Value>) -> Result<Ruleset, Error> {
        let mut v = self.to_value();
        let obj = v.as_object_mut().expect("a ruleset is an object");
        const SHORTHANDS: [&str; 6] = [
            "lowest_rank",
            "removed",
            "pass_cycle",
            "pass_size",
            "moon_scoring",
            "moon_bonus",
        ];
        for k in fields.keys() {
            if !RULESET_FIELDS.contains(&k.as_str()) && !SHORTHANDS.contains(&k.as_str()) {
                return Err(Error::new(
                    ErrorCode::InvalidRuleset,
                    format!("invalid ruleset: replace() has no keyword {}", quote(k)),
                ));
            }
        }
        for (k, val) in fields {
            match k.as_str() {
                "card_points" => {
                    let table = val.as_object().ok_or_else(|| {
                        bad("card_points", "must be an object of card to integer")
                    })?;
                    let cp = obj
                        .get_mut("card_points")
                        .and_then(Value::as_object_mut)
                        .expect("card_points is an object");
                    for (card, x) in table {
                        // Keys are read as cards so that `q♠` replaces `QS`.
                        let key =
                            Card::parse(card).map_or_else(|_| card.clone(), |c| c.to_string());
                        if as_int(x) == Some(0) {
                            cp.remove(&key);
                        } else {
                            cp.insert(key, x.clone());
                        }
                    }
                }
                // The optional fields (RS-19) are taken out by a null, back to their default.
                k if RULESET_OPTIONAL_FIELDS.contains(&k) && val.is_null() => {
                    obj.remove(k);
                }
                k if RULESET_FIELDS.contains(&k) => {
                    obj.insert(k.to_string(), val.clone());
                }
                _ => {}
            }
        }
        let parts: [(&str, [&str; 2]); 3] = [
            ("deck", ["lowest_rank", "removed"]),
            ("passing", ["pass_cycle", "pass_size"]),
            ("moon", ["moon_scoring", "moon_bonus"]),
        ];
        for (field, keys) in parts {
            let given: Vec<(&str, &Value)> = keys
                .iter()
                .filter_map(|k| fields.get(*k).map(|x| (*k, x)))
                .collect();
            if given.is_empty() {
                continue;
            }
            let part = obj.entry(field.to_string()).or_insert(Value::Null);
            if !part.is_object() {
                if given.len() < keys.len() {
                    return Err(bad(
                        field,
                        format_args!(
                            "is null, so replace() needs both {} and {}",
                            keys[0], keys[1]
                        ),
                    ));
                }
                *part = Value::Object(Map::new());
            }
            let m = part.as_object_mut().expect("an object");
            for (k, x) in given {
                let sub = match k {
                    "lowest_rank" => "lowest_rank",
                    "removed" => "removed",
                    "pass_cycle" => "cycle",
                    "pass_size" => "size",
                    "moon_scoring" => "scoring",
                    _ => "bonus",
                };
                m.insert(sub.to_string(), x.clone());
            }
        }
        // API-2: unless `name` is given, `<name>-custom`, titled `<title> (custom)` where there
        // is a title and `title` is not given either.
        if !fields.contains_key("name") {
            obj.insert("name".into(), Value::from(format!("{}-custom", self.name)));
            if !fields.contains_key("title") {
                if let Some(t) = &self.title {
                    obj.insert("title".into(), Value::from(format!("{t} (custom)")));
                }
            }
        }
        Ruleset::from_value(&v)
    }

    /// The value of the field `name` of [`RULESET_FIELDS`], as the canonical object holds it,
    /// or for an optional field it leaves out the default (RS-19) its entry of
    /// [`FIELDS`](crate::FIELDS) states, else null. `None` for a name that is not a field. The bindings read the fields that have no
    /// accessor of their own through this, so that a new field needs no code of theirs.
    ///
    /// # Examples
    ///
    /// ```
    /// let r = reversis_core::preset("hearts-4").unwrap();
    /// assert_eq!(r.field("hearts_breaking"), Some(serde_json::json!("heart-or-QS")));
    /// assert_eq!(r.field("count_down"), Some(serde_json::json!(false)));
    /// assert_eq!(r.field("deal"), None);
    /// ```
    pub fn field(&self, name: &str) -> Option<Value> {
        let f = Field::from_name(name)?.spec();
        if generic(f) {
            return Some(
                self.values[f.field as usize].map_or(Value::Null, |code| f.kind.write(code)),
            );
        }
        Some(
            self.to_value()
                .get(name)
                .cloned()
                .unwrap_or_else(|| f.default_value()),
        )
    }

    /// The code of a field read from the table alone (see [`FieldKind`](crate::FieldKind)): a
    /// boolean's 0 or 1, an enumeration's index, an integer; `None` for an optional field
    /// without a default left out (or null), and for a field with an accessor of its own. The
    /// kernel reads the rules' fields here.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{preset, Field};
    /// let r = preset("hearts-4").unwrap();
    /// assert_eq!(r.value(Field::FirstTrickBan), Some(1));
    /// assert_eq!(r.value(Field::HeartsBreaking), Some(2)); // heart-or-QS
    /// ```
    #[inline]
    pub fn value(&self, field: Field) -> Option<i64> {
        self.values[field as usize]
    }

    /// Whether a boolean field read from the table alone is true.
    #[inline]
    pub fn flag(&self, field: Field) -> bool {
        self.values[field as usize] == Some(1)
    }

    /// RS-20: whether reaching the target starts the count-down (MATCH-5) rather than ending
    /// the match.
    pub fn count_down(&self) -> bool {
        self.flag(Field::CountDown)
    }

    /// RS-21: the number of packs shuffled together, 1 or 2.
    #[inline]
    pub fn packs(&self) -> u8 {
        self.packs
    }

    /// Whether two packs are shuffled together (RS-21): hands are then multisets.
    #[inline]
    pub fn two_packs(&self) -> bool {
        self.packs == 2
    }

    /// RS-22: whether identical cards cancel (PLAY-9), and who wins a wholly cancelled last
    /// trick; `None` where they do not.
    #[inline]
    pub fn cancellation(&self) -> Option<LastTrick> {
        self.cancellation
    }

    /// RS-4, RS-21: the deck as a multiset, every copy.
    #[inline]
    pub fn deck_cards(&self) -> CardMultiset {
        CardMultiset {
            set: self.deck.0,
            twice: self.deck_twice.0,
        }
    }

    /// The number of cards in the deck, every copy counted.
    #[inline]
    pub fn deck_len(&self) -> usize {
        self.deck.len() + self.deck_twice.len()
    }

    /// RS-1: the identifier.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// RS-2: the title, if given.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// RS-2: the sources, if given.
    pub fn sources(&self) -> Option<&[String]> {
        self.sources.as_deref()
    }

    /// RS-3: the number of seats.
    #[inline]
    pub fn players(&self) -> usize {
        self.players
    }

    /// RS-4: the lowest rank in the deck as a rank index (0 for `2`, 5 for `7`).
    pub fn lowest_rank(&self) -> u8 {
        self.lowest_rank
    }

    /// RS-4: the cards removed from the deck, sorted, one entry per copy removed.
    pub fn removed(&self) -> &[Card] {
        &self.removed
    }

    /// RS-5: the passing rule, or `None` for no passing.
    pub fn passing(&self) -> Option<&Passing> {
        self.passing.as_ref()
    }

    /// RS-6: the opening card, or `None` for a free lead left of the dealer.
    #[inline]
    pub fn opening_card(&self) -> Option<Card> {
        self.opening_card
    }

    /// RS-7: whether the first-trick ban is on.
    #[inline]
    pub fn first_trick_ban(&self) -> bool {
        self.flag(Field::FirstTrickBan)
    }

    /// RS-8: when hearts may be led.
    #[inline]
    pub fn hearts_breaking(&self) -> HeartsBreaking {
        hearts_breaking(&self.values)
    }

    /// RS-9: the scoring cards and their values, sorted by card.
    pub fn card_points(&self) -> &[(Card, i32)] {
        &self.card_points
    }

    /// RS-10: the moon rule, or `None`.
    #[inline]
    pub fn moon(&self) -> Option<Moon> {
        self.moon
    }

    /// RS-11: the target; `None` (1.4.0) where only [`Ruleset::deals`] ends the match.
    #[inline]
    pub fn target(&self) -> Option<u64> {
        self.target
    }

    /// RS-23: the sun rule, or `None`.
    #[inline]
    pub fn sun(&self) -> Option<ShotRule> {
        self.sun
    }

    /// RS-25: how the count-down ends (MATCH-8); `stop-at-zero` without a count-down.
    #[inline]
    pub fn count_down_end(&self) -> CountDownEnd {
        // The code is the index in the schema's enum: stop-at-zero, exact-zero, below-zero.
        match self.value(Field::CountDownEnd) {
            Some(1) => CountDownEnd::ExactZero,
            Some(2) => CountDownEnd::BelowZero,
            _ => CountDownEnd::StopAtZero,
        }
    }

    /// RS-26: the most hands of a match (MATCH-9), or `None`.
    #[inline]
    pub fn deals(&self) -> Option<u64> {
        self.deals
    }

    /// RS-4: the deck as a mask: the cards with at least one copy (see
    /// [`Ruleset::deck_cards`] for the copies).
    #[inline]
    pub fn deck(&self) -> CardSet {
        self.deck
    }

    /// RS-12: the number of cards per seat, also the number of tricks per hand.
    #[inline]
    pub fn hand_size(&self) -> usize {
        self.hand_size
    }

    /// RS-9, RS-14: the point cards (worth more than 0).
    #[inline]
    pub fn point_cards(&self) -> CardSet {
        self.point_cards
    }

    /// RS-9: the cards worth anything (the point cards and those worth less than 0).
    #[inline]
    pub fn scoring_cards(&self) -> CardSet {
        self.scoring_cards
    }

    /// RS-7, PLAY-5: the cards the first-trick ban keeps off the first trick (the point
    /// cards), empty where the ban is off.
    #[inline]
    pub fn first_trick_banned(&self) -> CardSet {
        self.first_trick_banned
    }

    /// RS-8, RS-15: the cards whose play breaks hearts (empty under `none`).
    #[inline]
    pub fn breakers(&self) -> CardSet {
        self.breakers
    }

    /// RS-9: the value of a card (0 for a card that does not score).
    #[inline]
    pub fn points_of(&self, card: Card) -> i32 {
        self.points[card.id() as usize]
    }

    /// RS-9: the value of every card id.
    #[inline]
    pub fn points_table(&self) -> &[i32; 52] {
        &self.points
    }

    /// The sum of the values of the cards in `cards`.
    #[inline]
    pub fn points_of_set(&self, cards: CardSet) -> i32 {
        cards
            .into_iter()
            .map(|c| self.points[c.id() as usize])
            .sum()
    }

    /// The sum of all positive card values: what a moon taker captures (SCORE-2).
    #[inline]
    pub fn positive_total(&self) -> i32 {
        self.positive_total
    }

    /// DEAL-2, RS-12: the dealer of hand `hand_number`.
    #[inline]
    pub fn dealer(&self, hand_number: u64) -> usize {
        (hand_number % self.players as u64) as usize
    }

    /// PASS-1: the pass direction of hand `hand_number`, `None` where `passing` is null.
    #[inline]
    pub fn pass_direction(&self, hand_number: u64) -> Option<PassDirection> {
        self.passing
            .as_ref()
            .map(|p| p.cycle[(hand_number % p.cycle.len() as u64) as usize])
    }

    /// Whether hand `hand_number` has a passing phase (PASS-1: not null, not `hold`).
    #[inline]
    pub fn passes_on(&self, hand_number: u64) -> bool {
        matches!(self.pass_direction(hand_number), Some(d) if d != PassDirection::Hold)
    }
}

// `PRESET_FILES`: `(name, text)` of every `rulesets/<name>.json`, sorted, listed by build.rs.
include!(concat!(env!("OUT_DIR"), "/presets.rs"));

fn presets() -> &'static [(String, Arc<Ruleset>)] {
    static PRESETS: OnceLock<Vec<(String, Arc<Ruleset>)>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        let mut v: Vec<(String, Arc<Ruleset>)> = PRESET_FILES
            .iter()
            .map(|(name, text)| {
                let r = Ruleset::from_json_str(text)
                    .unwrap_or_else(|e| panic!("preset {name} is invalid: {e}"));
                ((*name).to_string(), Arc::new(r))
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    })
}

/// The preset named `name` (API-2), parsed from `spec/rulesets/<name>.json` at first use.
///
/// # Errors
///
/// `unknown-preset` when no preset has that name.
///
/// # Examples
///
/// ```
/// let r = reversis_core::preset("hearts-4").unwrap();
/// assert_eq!(r.hand_size(), 13);
/// assert_eq!(reversis_core::preset("bridge").unwrap_err().code.as_str(), "unknown-preset");
/// ```
pub fn preset(name: &str) -> Result<Arc<Ruleset>, Error> {
    presets()
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, r)| Arc::clone(r))
        .ok_or_else(|| {
            Error::new(
                ErrorCode::UnknownPreset,
                format!("unknown preset: {}", quote(name)),
            )
        })
}

/// The names of every preset, sorted (API-2).
pub fn preset_names() -> Vec<&'static str> {
    presets().iter().map(|(n, _)| n.as_str()).collect()
}
