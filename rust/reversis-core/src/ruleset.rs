//! The ruleset model (spec `ruleset.md`, RS-1 … RS-15) and the named presets.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::card::{quote, Card, CardSet, Suit, RANK_CHARS, SUIT_MASKS};
use crate::error::{Error, ErrorCode};

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

/// The moon rule of RS-10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moon {
    /// How the moon is scored.
    pub scoring: MoonScoring,
    /// The bonus, a positive integer.
    pub bonus: i32,
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
    // RS-3: number of seats, 3–7.
    players: usize,
    // RS-4: rank index (0 = `2`) of the lowest rank in the deck.
    lowest_rank: u8,
    // RS-4: cards removed from the deck, sorted.
    removed: Vec<Card>,
    // RS-5: the passing rule, or none.
    passing: Option<Passing>,
    // RS-6: the card that opens the first trick, or a free lead left of the dealer.
    opening_card: Option<Card>,
    // RS-7: no point cards discarded on the first trick (with the D-2 fallback).
    first_trick_ban: bool,
    // RS-8: when hearts may be led.
    hearts_breaking: HeartsBreaking,
    // RS-9: the scoring cards and their values, sorted by card.
    card_points: Vec<(Card, i32)>,
    // RS-10: the moon rule, or none.
    moon: Option<Moon>,
    // RS-11: the match ends after the hand in which a total reaches this.
    target: u64,
    // Derived (RS-4, RS-12): the deck mask.
    deck: CardSet,
    // Derived (RS-12): cards per seat, also tricks per hand.
    hand_size: usize,
    // Derived (RS-9, RS-14): cards worth more than 0.
    point_cards: CardSet,
    // Derived (RS-8, RS-15): the cards whose play breaks hearts (empty for `none`).
    breakers: CardSet,
    // Derived (RS-9): points of every card id, 0 for non-scoring cards.
    points: [i32; 52],
    // Derived: the sum of all positive card values (the "positive part" of SCORE-2).
    positive_total: i32,
}

const FIELDS: [&str; 12] = [
    "name",
    "title",
    "sources",
    "players",
    "deck",
    "passing",
    "opening_card",
    "first_trick_ban",
    "hearts_breaking",
    "card_points",
    "moon",
    "target",
];
const OPTIONAL: [&str; 2] = ["title", "sources"];

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

fn exact_keys(
    field: &str,
    v: &Value,
    required: &[&str],
    optional: &[&str],
) -> Result<Map<String, Value>, Error> {
    let obj = v.as_object().ok_or_else(|| {
        bad(
            field,
            format_args!("must be an object, got {}", describe(v)),
        )
    })?;
    for k in obj.keys() {
        if !required.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
            let name = if field.is_empty() {
                k.clone()
            } else {
                format!("{field}.{k}")
            };
            return Err(bad(&name, "is not a known field"));
        }
    }
    for k in required {
        if !obj.contains_key(*k) {
            let name = if field.is_empty() {
                (*k).to_string()
            } else {
                format!("{field}.{k}")
            };
            return Err(bad(&name, "is missing"));
        }
    }
    Ok(obj.clone())
}

/// The integer value of a JSON number that is an integer (not a float, not a boolean).
pub(crate) fn as_int(v: &Value) -> Option<i128> {
    if let Some(u) = v.as_u64() {
        Some(u as i128)
    } else {
        v.as_i64().map(|i| i as i128)
    }
}

fn card_field(field: &str, v: &Value, lowest: u8) -> Result<Card, Error> {
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

impl Ruleset {
    /// Parses and validates a ruleset from JSON text (RS-1 … RS-13).
    ///
    /// # Errors
    ///
    /// `invalid-ruleset` with a message naming the field, when the text is not JSON, a field is
    /// missing or unknown, a value has the wrong type, or RS-13 is broken.
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

    /// Validates a ruleset given as a JSON value (RS-1 … RS-13).
    ///
    /// Card strings may use any form of CARD-4; they are stored canonically.
    ///
    /// # Errors
    ///
    /// `invalid-ruleset` with a message naming the field.
    pub fn from_value(v: &Value) -> Result<Ruleset, Error> {
        if !v.is_object() {
            return Err(Error::new(
                ErrorCode::InvalidRuleset,
                format!("invalid ruleset: must be an object, got {}", describe(v)),
            ));
        }
        let required: Vec<&str> = FIELDS
            .iter()
            .copied()
            .filter(|f| !OPTIONAL.contains(f))
            .collect();
        let obj = exact_keys("", v, &required, &OPTIONAL)?;

        // RS-1
        let name = obj["name"]
            .as_str()
            .ok_or_else(|| bad("name", "must be a string"))?;
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(bad(
                "name",
                format_args!("must match [a-z0-9-]+, got {}", quote(name)),
            ));
        }
        // RS-2
        let title = match obj.get("title") {
            None => None,
            Some(t) => Some(
                t.as_str()
                    .ok_or_else(|| bad("title", "must be a string"))?
                    .to_string(),
            ),
        };
        let sources = match obj.get("sources") {
            None => None,
            Some(s) => {
                let arr = s
                    .as_array()
                    .ok_or_else(|| bad("sources", "must be an array of strings"))?;
                let mut out = Vec::with_capacity(arr.len());
                for x in arr {
                    out.push(
                        x.as_str()
                            .ok_or_else(|| bad("sources", "must be an array of strings"))?
                            .to_string(),
                    );
                }
                Some(out)
            }
        };
        // RS-3
        let players = match as_int(&obj["players"]) {
            Some(p) if (3..=7).contains(&p) => p as usize,
            _ => {
                return Err(bad(
                    "players",
                    format_args!(
                        "must be an integer from 3 to 7, got {}",
                        describe(&obj["players"])
                    ),
                ))
            }
        };
        // RS-4
        let deck_obj = exact_keys("deck", &obj["deck"], &["lowest_rank", "removed"], &[])?;
        let lr = &deck_obj["lowest_rank"];
        let lowest_rank = lr
            .as_str()
            .and_then(|s| {
                let mut cs = s.chars();
                let c = cs.next()?;
                if cs.next().is_some() {
                    return None;
                }
                RANK_CHARS.iter().position(|&r| r == c)
            })
            .ok_or_else(|| {
                bad(
                    "deck.lowest_rank",
                    format_args!(
                        "must be a rank character 2-9, T, J, Q, K or A, got {}",
                        describe(lr)
                    ),
                )
            })? as u8;
        let removed_v = deck_obj["removed"]
            .as_array()
            .ok_or_else(|| bad("deck.removed", "must be an array of cards"))?;
        let mut removed = CardSet::EMPTY;
        for x in removed_v {
            let c = card_field("deck.removed", x, lowest_rank)?;
            if removed.contains(c) {
                return Err(bad("deck.removed", format_args!("names {c} twice")));
            }
            removed.insert(c);
        }
        let mut deck = CardSet::EMPTY;
        for s in Suit::ALL {
            for r in lowest_rank..13 {
                deck.insert(Card::from_parts(s, r));
            }
        }
        deck = CardSet(deck.0 & !removed.0);
        // RS-12, RS-13.2
        let n = deck.len();
        if n < players || n % players != 0 {
            return Err(bad(
                "deck",
                format_args!("has {n} cards, which do not divide evenly among {players} players"),
            ));
        }
        let hand_size = n / players;
        // RS-5, RS-13.4
        let passing = match &obj["passing"] {
            Value::Null => None,
            pv => {
                let p = exact_keys("passing", pv, &["cycle", "size"], &[])?;
                let cyc = p["cycle"]
                    .as_array()
                    .ok_or_else(|| bad("passing.cycle", "must be an array of directions"))?;
                if cyc.is_empty() {
                    return Err(bad("passing.cycle", "must not be empty"));
                }
                let mut cycle = Vec::with_capacity(cyc.len());
                for d in cyc {
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
                let size = match as_int(&p["size"]) {
                    Some(s) if s >= 1 && s <= hand_size as i128 => s as usize,
                    _ => {
                        return Err(bad(
                            "passing.size",
                            format_args!(
                                "must be an integer from 1 to the hand size {hand_size}, got {}",
                                describe(&p["size"])
                            ),
                        ))
                    }
                };
                Some(Passing { cycle, size })
            }
        };
        // RS-6
        let opening_card = match &obj["opening_card"] {
            Value::Null => None,
            v => {
                let c = card_field("opening_card", v, lowest_rank)?;
                if !deck.contains(c) {
                    return Err(bad("opening_card", format_args!("{c} is not in the deck")));
                }
                Some(c)
            }
        };
        // RS-7
        let first_trick_ban = obj["first_trick_ban"]
            .as_bool()
            .ok_or_else(|| bad("first_trick_ban", "must be a boolean"))?;
        // RS-8
        let hb = &obj["hearts_breaking"];
        let hearts_breaking = hb
            .as_str()
            .and_then(HeartsBreaking::from_name)
            .ok_or_else(|| {
                bad(
                    "hearts_breaking",
                    format_args!("must be none, heart or heart-or-QS, got {}", describe(hb)),
                )
            })?;
        // RS-9
        let cp = obj["card_points"]
            .as_object()
            .ok_or_else(|| bad("card_points", "must be an object of card to integer"))?;
        let mut points = [0i32; 52];
        let mut seen = CardSet::EMPTY;
        let mut abs_sum: i128 = 0;
        for (k, val) in cp {
            let c = card_field("card_points", &Value::String(k.clone()), lowest_rank)?;
            if seen.contains(c) {
                return Err(bad("card_points", format_args!("names {c} twice")));
            }
            seen.insert(c);
            if !deck.contains(c) {
                return Err(bad("card_points", format_args!("{c} is not in the deck")));
            }
            let x = match as_int(val) {
                Some(x) if x != 0 => x,
                _ => {
                    return Err(bad(
                        "card_points",
                        format_args!(
                            "value of {c} must be a non-zero integer, got {}",
                            describe(val)
                        ),
                    ))
                }
            };
            abs_sum += x.abs();
            if abs_sum > i32::MAX as i128 {
                return Err(bad(
                    "card_points",
                    "values are too large (their magnitudes must add up to less than 2^31)",
                ));
            }
            points[c.id() as usize] = x as i32;
        }
        let card_points: Vec<(Card, i32)> = seen
            .into_iter()
            .map(|c| (c, points[c.id() as usize]))
            .collect();
        let point_cards: CardSet = seen
            .into_iter()
            .filter(|c| points[c.id() as usize] > 0)
            .collect();
        let positive_total: i32 = point_cards
            .into_iter()
            .map(|c| points[c.id() as usize])
            .sum();
        // RS-10, RS-13.5
        let moon = match &obj["moon"] {
            Value::Null => None,
            mv => {
                let m = exact_keys("moon", mv, &["scoring", "bonus"], &[])?;
                let scoring = m["scoring"]
                    .as_str()
                    .and_then(MoonScoring::from_name)
                    .ok_or_else(|| {
                        bad(
                            "moon.scoring",
                            format_args!(
                                "must be add-to-others, subtract-from-taker or taker-choice, got {}",
                                describe(&m["scoring"])
                            ),
                        )
                    })?;
                let bonus = match as_int(&m["bonus"]) {
                    Some(b) if b >= 1 && b + abs_sum <= i32::MAX as i128 => b as i32,
                    Some(b) if b >= 1 => {
                        return Err(bad(
                            "moon.bonus",
                            "is too large (with the card values it must stay below 2^31)",
                        ))
                    }
                    _ => {
                        return Err(bad(
                            "moon.bonus",
                            format_args!(
                                "must be a positive integer, got {}",
                                describe(&m["bonus"])
                            ),
                        ))
                    }
                };
                if point_cards.is_empty() {
                    return Err(bad(
                        "moon",
                        "is set but no card of the deck is a point card",
                    ));
                }
                Some(Moon { scoring, bonus })
            }
        };
        // RS-11, RS-13.6
        let target = match as_int(&obj["target"]) {
            Some(t) if t >= 1 && t <= u64::MAX as i128 => t as u64,
            _ => {
                return Err(bad(
                    "target",
                    format_args!(
                        "must be a positive integer, got {}",
                        describe(&obj["target"])
                    ),
                ))
            }
        };
        // RS-8, RS-15
        let hearts = CardSet(SUIT_MASKS[Suit::Hearts as usize]);
        let breakers = match hearts_breaking {
            HeartsBreaking::None => CardSet::EMPTY,
            HeartsBreaking::Heart => hearts,
            HeartsBreaking::HeartOrQs => hearts | CardSet::from(Card::QUEEN_OF_SPADES),
        };
        Ok(Ruleset {
            name: name.to_string(),
            title,
            sources,
            players,
            lowest_rank,
            removed: removed.to_vec(),
            passing,
            opening_card,
            first_trick_ban,
            hearts_breaking,
            card_points,
            moon,
            target,
            deck,
            hand_size,
            point_cards,
            breakers,
            points,
            positive_total,
        })
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
        o.insert("first_trick_ban".into(), Value::from(self.first_trick_ban));
        o.insert(
            "hearts_breaking".into(),
            Value::from(self.hearts_breaking.as_str()),
        );
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
                    Value::Object(mm)
                }
            },
        );
        o.insert("target".into(), Value::from(self.target));
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
    /// `card_points` is merged into the table, a value of 0 taking the card out. Unless `name`
    /// is given the result is named `<name>-custom`, and titled `<title> (custom)` where there
    /// is a title and `title` is not given.
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
            if !FIELDS.contains(&k.as_str()) && !SHORTHANDS.contains(&k.as_str()) {
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
                // The optional fields (RS-2) are taken out by a null.
                k if OPTIONAL.contains(&k) && val.is_null() => {
                    obj.remove(k);
                }
                k if FIELDS.contains(&k) => {
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
        if !fields.contains_key("name") {
            obj.insert("name".into(), Value::from(format!("{}-custom", self.name)));
        }
        if !fields.contains_key("title") {
            if let Some(t) = &self.title {
                obj.insert("title".into(), Value::from(format!("{t} (custom)")));
            }
        }
        Ruleset::from_value(&v)
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

    /// RS-4: the cards removed from the deck, sorted.
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
        self.first_trick_ban
    }

    /// RS-8: when hearts may be led.
    #[inline]
    pub fn hearts_breaking(&self) -> HeartsBreaking {
        self.hearts_breaking
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

    /// RS-11: the target.
    #[inline]
    pub fn target(&self) -> u64 {
        self.target
    }

    /// RS-4: the deck as a mask.
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

const PRESET_FILES: [(&str, &str); 8] = [
    ("hartenjagen", include_str!("../rulesets/hartenjagen.json")),
    ("hearts-3", include_str!("../rulesets/hearts-3.json")),
    ("hearts-4", include_str!("../rulesets/hearts-4.json")),
    ("hearts-5", include_str!("../rulesets/hearts-5.json")),
    ("hearts-6", include_str!("../rulesets/hearts-6.json")),
    ("hearts-7", include_str!("../rulesets/hearts-7.json")),
    (
        "hearts-computer",
        include_str!("../rulesets/hearts-computer.json"),
    ),
    ("omnibus-4", include_str!("../rulesets/omnibus-4.json")),
];

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
