//! The JSON views of a game (API-3, API-9, OBS-1, EVT-2, TRICK-1): the shapes both engines
//! share, built from the game's queries, kept apart so that the rules in `mod.rs` read without
//! them.

use serde_json::{Map, Value};

use crate::card::{Card, CardMultiset, CardSet, Suit};
use crate::error::Error;
use crate::hand::CompletedTrick;
use crate::position::Phase;

use super::Game;

fn cards_value(cs: CardSet) -> Value {
    Value::from(cs.to_strings())
}

// A multiset of cards (CARD-2): sorted, a card once per copy.
fn multiset_value(cs: CardMultiset) -> Value {
    Value::from(cs.to_strings())
}

fn opt_cards(c: Option<CardMultiset>) -> Value {
    c.map_or(Value::Null, multiset_value)
}

fn opt_seat(s: Option<usize>) -> Value {
    s.map_or(Value::Null, Value::from)
}

fn selection_value(cards: &[Card]) -> Value {
    Value::Array(cards.iter().map(|c| Value::from(c.to_string())).collect())
}

// The bodies of the JSON views. Their public methods, with their docs, stay in `mod.rs`:
// rustdoc lists a submodule's `impl` before its parent's, so public methods here would open
// `Game`'s page on the JSON views instead of on `new`.
impl Game {
    fn voids_value(&self) -> Value {
        Value::Array(
            (0..self.players())
                .map(|s| {
                    let m = self.pos.hand.voids(s);
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

    pub(super) fn tricks_value(&self) -> Value {
        Value::Array(self.hand_tricks().map(CompletedTrick::to_value).collect())
    }

    pub(super) fn trick_value(&self) -> Value {
        Value::Array(
            self.pos
                .hand
                .trick()
                .map(|(s, c)| serde_json::json!({"seat": s, "card": c.to_string()}))
                .collect(),
        )
    }

    pub(super) fn last_hand_value(&self) -> Value {
        match self.last_hand {
            None => Value::Null,
            Some(l) => l.summary.last_hand_value(self.last_hand_tricks().iter()),
        }
    }

    pub(super) fn observation_value(&self, seat: usize) -> Result<Value, Error> {
        self.seat_ok(seat)?;
        let mut o = Map::new();
        o.insert("seat".into(), Value::from(seat));
        o.insert("phase".into(), Value::from(self.pos.phase.as_str()));
        o.insert("hand_number".into(), Value::from(self.pos.hand_number));
        o.insert("dealer".into(), Value::from(self.dealer()));
        o.insert(
            "pass_direction".into(),
            self.pass_direction()
                .map_or(Value::Null, |d| Value::from(d.as_str())),
        );
        o.insert("to_move".into(), opt_seat(self.to_move()));
        o.insert("awaiting_pass".into(), Value::from(self.awaiting_pass()));
        o.insert("hand".into(), multiset_value(self.pos.hand.hand(seat)));
        o.insert("passed".into(), opt_cards(self.passed(seat)?));
        o.insert(
            "selected".into(),
            selection_value(&self.selection_order(seat)),
        );
        o.insert("received".into(), opt_cards(self.received(seat)?));
        o.insert("tricks".into(), self.tricks_json());
        o.insert("trick".into(), self.trick_json());
        o.insert("hearts_broken".into(), Value::from(self.hearts_broken()));
        o.insert("count_down".into(), Value::from(self.count_down()));
        o.insert("voids".into(), self.voids_value());
        o.insert("points".into(), Value::from(self.points().to_vec()));
        o.insert("scores".into(), Value::from(self.scores().to_vec()));
        let legal = if self.pos.phase == Phase::Play && self.pos.hand.to_move() == seat {
            self.legal_plays()
        } else {
            CardSet::EMPTY
        };
        o.insert("legal".into(), cards_value(legal));
        o.insert("moon_taker".into(), opt_seat(self.moon_taker()));
        Ok(Value::Object(o))
    }

    pub(super) fn state_value(&self) -> Value {
        let n = self.players();
        let mut o = Map::new();
        o.insert("ruleset".into(), self.ruleset.to_value());
        o.insert("seed".into(), self.seed.map_or(Value::Null, Value::from));
        o.insert("seed_deals".into(), Value::from(self.seed_deals));
        o.insert("phase".into(), Value::from(self.pos.phase.as_str()));
        o.insert("hand_number".into(), Value::from(self.pos.hand_number));
        o.insert("to_move".into(), opt_seat(self.to_move()));
        o.insert("moon_taker".into(), opt_seat(self.moon_taker()));
        o.insert("winners".into(), Value::from(self.winners()));
        o.insert(
            "hands".into(),
            Value::Array(
                (0..n)
                    .map(|s| multiset_value(self.pos.hand.hand(s)))
                    .collect(),
            ),
        );
        o.insert(
            "selected".into(),
            Value::Array(
                (0..n)
                    .map(|s| selection_value(&self.selection_order(s)))
                    .collect(),
            ),
        );
        let passed: Vec<Value> = (0..n)
            .map(|s| opt_cards(self.passed(s).ok().flatten()))
            .collect();
        o.insert("passed".into(), Value::Array(passed));
        let received: Vec<Value> = (0..n)
            .map(|s| opt_cards(self.received(s).ok().flatten()))
            .collect();
        o.insert("received".into(), Value::Array(received));
        o.insert("trick".into(), self.trick_json());
        o.insert("tricks".into(), self.tricks_json());
        o.insert("hearts_broken".into(), Value::from(self.hearts_broken()));
        o.insert("count_down".into(), Value::from(self.count_down()));
        o.insert("voids".into(), self.voids_value());
        o.insert("points".into(), Value::from(self.points().to_vec()));
        o.insert("scores".into(), Value::from(self.scores().to_vec()));
        Value::Object(o)
    }
}
