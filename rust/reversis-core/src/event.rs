//! What an accepted action set off (spec `records.md`, EVT-1, EVT-2).

use serde_json::{json, Value};

use crate::hand::CompletedTrick;
use crate::ruleset::{MoonChoice, PassDirection};
use crate::seat::PerSeat;

/// A scored hand (EVT-1 `hand`, EVT-2): its number, the points as captured (before the moon
/// rule), the moon taker and the choice applied, and the scores added to the totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandSummary {
    /// The hand's number (DEAL-2).
    pub hand_number: u64,
    /// The number of seats.
    pub players: u8,
    /// Each seat's points as captured (SCORE-1).
    pub points: PerSeat<i32>,
    /// The seat that captured every point card, where the ruleset has a moon (SCORE-2).
    pub moon_taker: Option<u8>,
    /// How the moon was scored, where there was one.
    pub moon_choice: Option<MoonChoice>,
    /// The hand's scores, added to the totals (SCORE-4).
    pub scores: PerSeat<i64>,
}

impl HandSummary {
    fn insert_into(&self, o: &mut serde_json::Map<String, Value>) {
        let n = usize::from(self.players);
        o.insert("hand_number".into(), Value::from(self.hand_number));
        o.insert("points".into(), Value::from(self.points.first(n).to_vec()));
        o.insert(
            "moon_taker".into(),
            self.moon_taker.map_or(Value::Null, Value::from),
        );
        o.insert(
            "moon_choice".into(),
            self.moon_choice
                .map_or(Value::Null, |c| Value::from(c.as_str())),
        );
        o.insert("scores".into(), Value::from(self.scores.first(n).to_vec()));
    }

    /// The EVT-2 object of the last hand, given its completed tricks.
    pub fn last_hand_value<'a>(&self, tricks: impl Iterator<Item = &'a CompletedTrick>) -> Value {
        let mut o = serde_json::Map::new();
        self.insert_into(&mut o);
        o.insert(
            "tricks".into(),
            Value::Array(tricks.map(CompletedTrick::to_value).collect()),
        );
        Value::Object(o)
    }
}

/// One event of EVT-1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The last pass of the hand was submitted and the cards changed hands (PASS-3).
    Exchange {
        /// The hand's direction.
        direction: PassDirection,
    },
    /// A trick was completed (PLAY-7).
    Trick(CompletedTrick),
    /// A hand was scored (SCORE-1 … SCORE-4).
    Hand(HandSummary),
    /// The match ended (MATCH-2); the winners as a bit mask by seat (MATCH-3).
    Over {
        /// Bit `s` set for every winning seat.
        winners: u16,
    },
    /// A hand was dealt.
    Deal {
        /// The hand's number.
        hand_number: u64,
        /// Its dealer (DEAL-2).
        dealer: u8,
    },
}

impl Event {
    /// The event as the JSON object of EVT-1.
    pub fn to_value(&self) -> Value {
        match self {
            Event::Exchange { direction } => {
                json!({"type": "exchange", "direction": direction.as_str()})
            }
            Event::Trick(t) => {
                let mut v = t.to_value();
                v["type"] = Value::from("trick");
                v
            }
            Event::Hand(h) => {
                let mut o = serde_json::Map::new();
                o.insert("type".into(), Value::from("hand"));
                h.insert_into(&mut o);
                Value::Object(o)
            }
            Event::Over { winners } => {
                let seats: Vec<usize> = (0..16).filter(|s| winners >> s & 1 == 1).collect();
                json!({"type": "over", "winners": seats})
            }
            Event::Deal {
                hand_number,
                dealer,
            } => json!({"type": "deal", "hand_number": hand_number, "dealer": dealer}),
        }
    }
}

/// The events of one accepted action, in order (at most four: a play can complete a trick,
/// score the hand, and end the match or deal the next hand). The game builds them on demand
/// ([`crate::Game::events`]) from what it keeps; `Copy`, so that building them costs no
/// allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Events {
    items: [Option<Event>; 4],
}

impl Events {
    pub(crate) fn push(&mut self, e: Event) {
        if let Some(slot) = self.items.iter_mut().find(|s| s.is_none()) {
            *slot = Some(e);
        }
    }

    /// The events in order.
    pub fn iter(&self) -> impl Iterator<Item = &Event> + '_ {
        self.items.iter().map_while(Option::as_ref)
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.items[0].is_none()
    }

    /// The events as a JSON array (API-3 `events`).
    pub fn to_value(&self) -> Value {
        Value::Array(self.iter().map(Event::to_value).collect())
    }
}
