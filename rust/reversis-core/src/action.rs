//! Actions (spec `records.md`, ACT-1).

use std::fmt;

use serde_json::{Map, Value};

use crate::card::{quote, Card};
use crate::error::{Error, ErrorCode};
use crate::ruleset::{describe, MoonChoice};

/// An action of ACT-1. Seats are not range-checked here (the game does that, reporting
/// `invalid-action`); cards are any of the 52 (whether they are in the deck is the game's
/// concern).
///
/// # Examples
///
/// ```
/// use reversis_core::Action;
/// let a = Action::from_json_str(r#"{"type": "play", "seat": 2, "card": "q♠"}"#).unwrap();
/// assert_eq!(a.to_value().to_string(), r#"{"card":"QS","seat":2,"type":"play"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `deal`: one hand per seat, seat 0 first (DEAL-1).
    Deal {
        /// The hands.
        hands: Vec<Vec<Card>>,
    },
    /// `pass`: the cards a seat passes (PASS-2).
    Pass {
        /// The seat.
        seat: usize,
        /// The cards, as given (duplicates are kept so that they can be reported).
        cards: Vec<Card>,
    },
    /// `play`: a card played by a seat (PLAY-3).
    Play {
        /// The seat.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// `moon`: the taker's choice (SCORE-3).
    Moon {
        /// The seat.
        seat: usize,
        /// The choice.
        choice: MoonChoice,
    },
}

fn bad(msg: impl fmt::Display) -> Error {
    Error::new(ErrorCode::InvalidAction, format!("invalid action: {msg}"))
}

fn seat_of(v: &Value) -> Result<usize, Error> {
    match v.as_u64() {
        Some(u) => Ok(usize::try_from(u).unwrap_or(usize::MAX)),
        None => Err(bad(format_args!(
            "seat must be a non-negative integer, got {}",
            describe(v)
        ))),
    }
}

fn items<'a>(v: &'a Value, what: &str) -> Result<&'a [Value], Error> {
    v.as_array().map(Vec::as_slice).ok_or_else(|| {
        bad(format_args!(
            "{what} must be an array of cards, got {}",
            describe(v)
        ))
    })
}

/// A card in an action: a string CARD-4 reads; anything else in a card's place is
/// `invalid-card` (CARD-4 "anything else").
fn card_of(v: &Value) -> Result<Card, Error> {
    match v.as_str() {
        Some(s) => Card::parse(s),
        None => Err(Error::new(
            ErrorCode::InvalidCard,
            format!("invalid card: {}", describe(v)),
        )),
    }
}

fn cards(vs: &[Value]) -> Result<Vec<Card>, Error> {
    vs.iter().map(card_of).collect()
}

impl Action {
    /// Reads an ACT-1 action from a JSON value. Structure is checked first (`invalid-action`),
    /// then card strings (`invalid-card`).
    ///
    /// # Errors
    ///
    /// `invalid-action` for an unknown `type`, missing or extra keys, a value of the wrong
    /// type (a seat that is not a non-negative integer, `cards` or `hands` that are not
    /// arrays), or an unknown moon choice; `invalid-card` for anything in a card's place that
    /// is not a card string CARD-4 reads.
    pub fn from_value(v: &Value) -> Result<Action, Error> {
        let obj = v
            .as_object()
            .ok_or_else(|| bad(format_args!("expected an object, got {}", describe(v))))?;
        let ty = match obj.get("type") {
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                return Err(bad(format_args!(
                    "type must be a string, got {}",
                    describe(other)
                )))
            }
            None => return Err(bad("missing key 'type'")),
        };
        let keys: &[&str] = match ty {
            "deal" => &["type", "hands"],
            "pass" => &["type", "seat", "cards"],
            "play" => &["type", "seat", "card"],
            "moon" => &["type", "seat", "choice"],
            _ => return Err(bad(format_args!("unknown type {}", quote(ty)))),
        };
        for k in obj.keys() {
            if !keys.contains(&k.as_str()) {
                return Err(bad(format_args!(
                    "unexpected key {} in a {ty} action",
                    quote(k)
                )));
            }
        }
        for k in keys {
            if !obj.contains_key(*k) {
                return Err(bad(format_args!(
                    "missing key {} in a {ty} action",
                    quote(k)
                )));
            }
        }
        match ty {
            "deal" => Ok(Action::Deal {
                hands: Action::hands_from_value(&obj["hands"])?,
            }),
            "pass" => {
                let seat = seat_of(&obj["seat"])?;
                let vs = items(&obj["cards"], "cards")?;
                Ok(Action::Pass {
                    seat,
                    cards: cards(vs)?,
                })
            }
            "play" => {
                let seat = seat_of(&obj["seat"])?;
                Ok(Action::Play {
                    seat,
                    card: card_of(&obj["card"])?,
                })
            }
            _ => {
                let seat = seat_of(&obj["seat"])?;
                let cv = &obj["choice"];
                let choice = cv.as_str().and_then(MoonChoice::from_name).ok_or_else(|| {
                    bad(format_args!(
                        "choice must be add-to-others or subtract-from-taker, got {}",
                        describe(cv)
                    ))
                })?;
                Ok(Action::Moon { seat, choice })
            }
        }
    }

    /// Reads the `cards` of a `pass` from a JSON value: an array (`invalid-action`) of card
    /// strings (`invalid-card`).
    ///
    /// # Errors
    ///
    /// As [`Action::from_value`] for the `cards` of a `pass`.
    pub fn cards_from_value(v: &Value) -> Result<Vec<Card>, Error> {
        cards(items(v, "cards")?)
    }

    /// Reads the `hands` of a `deal` from a JSON value: an array of arrays (`invalid-action`) of
    /// card strings (`invalid-card`).
    ///
    /// # Errors
    ///
    /// As [`Action::from_value`] for the `hands` of a `deal`.
    pub fn hands_from_value(v: &Value) -> Result<Vec<Vec<Card>>, Error> {
        let arr = v.as_array().ok_or_else(|| {
            bad(format_args!(
                "hands must be an array of hands, got {}",
                describe(v)
            ))
        })?;
        let hands: Vec<&[Value]> = arr
            .iter()
            .map(|h| items(h, "each hand"))
            .collect::<Result<_, _>>()?;
        hands.into_iter().map(cards).collect()
    }

    /// Reads an ACT-1 action from JSON text.
    ///
    /// # Errors
    ///
    /// As [`Action::from_value`]; text that is not JSON is `invalid-action`.
    pub fn from_json_str(text: &str) -> Result<Action, Error> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| bad(format_args!("not json: {}", e.to_string().to_lowercase())))?;
        Action::from_value(&v)
    }

    /// The canonical form: cards of `deal` hands and of `pass` sorted (ACT-1).
    pub fn canonical(&self) -> Action {
        let mut a = self.clone();
        match &mut a {
            Action::Deal { hands } => hands.iter_mut().for_each(|h| h.sort()),
            Action::Pass { cards, .. } => cards.sort(),
            _ => {}
        }
        a
    }

    /// The action's `type`: `deal`, `pass`, `play` or `moon`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Action::Deal { .. } => "deal",
            Action::Pass { .. } => "pass",
            Action::Play { .. } => "play",
            Action::Moon { .. } => "moon",
        }
    }

    /// The seat the action names, if any (every type but `deal`).
    pub fn seat(&self) -> Option<usize> {
        match self {
            Action::Deal { .. } => None,
            Action::Pass { seat, .. } | Action::Play { seat, .. } | Action::Moon { seat, .. } => {
                Some(*seat)
            }
        }
    }

    /// The action as its ACT-1 JSON object, cards canonical, `deal` and `pass` sorted.
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        o.insert("type".into(), Value::from(self.type_name()));
        let strs = |cs: &[Card]| -> Value {
            let mut v = cs.to_vec();
            v.sort();
            Value::from(v.iter().map(|c| c.to_string()).collect::<Vec<_>>())
        };
        match self {
            Action::Deal { hands } => {
                o.insert(
                    "hands".into(),
                    Value::Array(hands.iter().map(|h| strs(h)).collect()),
                );
            }
            Action::Pass { seat, cards } => {
                o.insert("seat".into(), Value::from(*seat));
                o.insert("cards".into(), strs(cards));
            }
            Action::Play { seat, card } => {
                o.insert("seat".into(), Value::from(*seat));
                o.insert("card".into(), Value::from(card.to_string()));
            }
            Action::Moon { seat, choice } => {
                o.insert("seat".into(), Value::from(*seat));
                o.insert("choice".into(), Value::from(choice.as_str()));
            }
        }
        Value::Object(o)
    }
}

impl fmt::Display for Action {
    /// The canonical JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

/// The size of the action space of ACT-2: 52 plays, 52 selections, two moon choices.
pub const NUM_ACTIONS: u16 = 106;
/// The first selection id (ACT-2): `PASS_BASE + c` selects card `c` toward the seat's pass.
pub const PASS_BASE: u16 = 52;
/// The id of the moon choice `add-to-others` (ACT-2).
pub const MOON_ADD_ID: u16 = 104;
/// The id of the moon choice `subtract-from-taker` (ACT-2).
pub const MOON_SUBTRACT_ID: u16 = 105;

/// One decision of ACT-2, as an action id names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Ids 0 … 51: play the card.
    Play(Card),
    /// Ids 52 … 103: select the card toward the seat's pass.
    Select(Card),
    /// Ids 104 and 105: the moon choice.
    Moon(MoonChoice),
}

impl Decision {
    /// The decision of action id `id` (ACT-2).
    ///
    /// # Errors
    ///
    /// `invalid-action` for an id outside 0 … 105.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversis_core::{Card, Decision};
    /// let qs: Card = "QS".parse().unwrap();
    /// assert_eq!(Decision::from_id(49).unwrap(), Decision::Play(qs));
    /// assert_eq!(Decision::from_id(101).unwrap(), Decision::Select(qs));
    /// assert_eq!(Decision::from_id(106).unwrap_err().code.as_str(), "invalid-action");
    /// ```
    pub fn from_id(id: u16) -> Result<Decision, Error> {
        match id {
            0..=51 => Ok(Decision::Play(Card::new(id as u8))),
            52..=103 => Ok(Decision::Select(Card::new((id - PASS_BASE) as u8))),
            MOON_ADD_ID => Ok(Decision::Moon(MoonChoice::AddToOthers)),
            MOON_SUBTRACT_ID => Ok(Decision::Moon(MoonChoice::SubtractFromTaker)),
            _ => Err(bad(format_args!(
                "an action id is an integer from 0 to {}, got {id}",
                NUM_ACTIONS - 1
            ))),
        }
    }

    /// The decision's action id.
    pub fn id(self) -> u16 {
        match self {
            Decision::Play(c) => u16::from(c.id()),
            Decision::Select(c) => PASS_BASE + u16::from(c.id()),
            Decision::Moon(MoonChoice::AddToOthers) => MOON_ADD_ID,
            Decision::Moon(MoonChoice::SubtractFromTaker) => MOON_SUBTRACT_ID,
        }
    }
}

impl fmt::Display for Decision {
    /// The label of API-10: `play QS`, `pass QS`, `moon add-to-others`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Play(c) => write!(f, "play {c}"),
            Decision::Select(c) => write!(f, "pass {c}"),
            Decision::Moon(m) => write!(f, "moon {}", m.as_str()),
        }
    }
}

/// The ids that, applied in order for the action's seat, do what `action` does (API-10): one for
/// a `play` or a `moon`, one per card, ascending, for a `pass`.
///
/// # Errors
///
/// `invalid-action` for a `deal`, which has no ids (deals are chance, ACT-2).
///
/// # Examples
///
/// ```
/// use reversis_core::{action_ids, Action};
/// let a = Action::from_json_str(r#"{"type": "pass", "seat": 1, "cards": ["QS", "2C", "AH"]}"#);
/// assert_eq!(action_ids(&a.unwrap()).unwrap(), [52, 90, 101]);
/// ```
pub fn action_ids(action: &Action) -> Result<Vec<u16>, Error> {
    match action {
        Action::Deal { .. } => Err(bad("a deal has no action ids")),
        Action::Play { card, .. } => Ok(vec![Decision::Play(*card).id()]),
        Action::Moon { choice, .. } => Ok(vec![Decision::Moon(*choice).id()]),
        Action::Pass { cards, .. } => {
            let mut ids: Vec<u16> = cards.iter().map(|&c| Decision::Select(c).id()).collect();
            ids.sort_unstable();
            Ok(ids)
        }
    }
}

/// The ACT-1 action of `seat` made of `ids` (API-10): one play id, one moon id, or selection
/// ids, each at most twice (a `pass` of those cards; twice passes both copies of a card of two
/// packs, RS-21).
///
/// # Errors
///
/// `invalid-action` for anything else: no ids, an id outside 0 … 105, a mix of kinds, more than
/// one play or moon id, or a selection id given three times.
pub fn action_from_ids(ids: &[u16], seat: usize) -> Result<Action, Error> {
    let decisions = ids
        .iter()
        .map(|&i| Decision::from_id(i))
        .collect::<Result<Vec<_>, _>>()?;
    match decisions.as_slice() {
        [] => Err(bad("no action ids")),
        [Decision::Play(card)] => Ok(Action::Play { seat, card: *card }),
        [Decision::Moon(choice)] => Ok(Action::Moon {
            seat,
            choice: *choice,
        }),
        many => {
            let mut set = crate::card::CardMultiset::EMPTY;
            for d in many {
                match d {
                    Decision::Select(c) if set.count(*c) < 2 => set.insert(*c),
                    _ => {
                        return Err(bad(format_args!(
                        "ids {ids:?} are neither one play, one moon choice nor pass ids, each at most twice"
                    )))
                    }
                }
            }
            Ok(Action::Pass {
                seat,
                cards: set.to_vec(),
            })
        }
    }
}

/// The label of action id `id` for people (API-10): `play QS`, `pass QS`, `moon add-to-others`.
///
/// # Errors
///
/// `invalid-action` for an id outside 0 … 105.
pub fn action_label(id: u16) -> Result<String, Error> {
    Ok(Decision::from_id(id)?.to_string())
}
