//! The facts that follow from the rules and a match's state, for the programs that present a
//! game (the web table, `reversis play`, the learning adapters): who passes to whom this hand,
//! how the match ends and where it stands, why a card is refused, and the OBS-3 encoding of an
//! observation as a seat sees it. Each is derived here once, from the ruleset and the core's
//! state, so that no caller restates a rule to find it; both bindings serve them as they are.
//!
//! # Examples
//!
//! ```
//! use reversis_core::{preset, Game, MatchEnd};
//!
//! let game = Game::new(preset("hearts-4").unwrap(), Some(1), 0, None).unwrap();
//! let passes = game.pass_plan().unwrap(); // hand 0 passes left (PASS-1)
//! assert_eq!((passes.to[0], passes.from[0]), (1, 3));
//! let standing = game.standing();
//! assert_eq!(standing.ends, [MatchEnd::Target { target: 100 }]);
//! assert!(!standing.over);
//! ```

use serde_json::{json, Value};

use crate::card::{Card, Suit};
use crate::error::{Error, ErrorCode};
use crate::game::Game;
use crate::kernel::{Breach, Scoring};
use crate::position::Phase;
use crate::ruleset::{CountDownEnd, PassDirection, Ruleset};
use crate::seat::MAX_PLAYERS;
use crate::vector::{
    AT_COUNT_DOWN, AT_DIRECTION, AT_HAND, AT_HEARTS, AT_HELD_OVER, AT_LEGAL, AT_PASSED, AT_PHASE,
    AT_PLAYED, AT_POINTS, AT_RECEIVED, AT_SCORES, AT_SELECTED, AT_TO_MOVE, AT_TRICK, AT_VOIDS,
    ENCODING_LENGTH,
};

// ------------------------------------------------------------------ the pass

/// Who passes to whom in one hand (PASS-1, PASS-3): each seat's cards go to `to[seat]`, and
/// the cards it receives come from `from[seat]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PassPlan {
    /// The hand's direction: `left`, `right` or `across` (a hold hand has no plan).
    pub direction: PassDirection,
    /// The number of cards each seat passes (RS-6 `passing.size`).
    pub size: usize,
    /// The seat each seat passes to.
    pub to: Vec<usize>,
    /// The seat each seat receives from.
    pub from: Vec<usize>,
}

impl PassPlan {
    /// The plan of hand `hand_number` under `rules`: `None` where the hand has no pass (no
    /// passing in the ruleset, or a `hold` hand).
    pub fn of(rules: &Ruleset, hand_number: u64) -> Option<PassPlan> {
        if !rules.passes_on(hand_number) {
            return None;
        }
        let direction = rules.pass_direction(hand_number)?;
        let n = rules.players();
        Some(PassPlan {
            direction,
            size: rules.passing().map_or(0, |p| p.size),
            to: (0..n).map(|s| direction.target(s, n)).collect(),
            from: (0..n).map(|s| direction.source(s, n)).collect(),
        })
    }

    /// As JSON: `{"direction", "size", "to", "from"}`.
    pub fn to_value(&self) -> Value {
        json!({
            "direction": self.direction.as_str(),
            "size": self.size,
            "to": self.to,
            "from": self.from,
        })
    }
}

// ------------------------------------------------------------------ the end of the match

/// One way the match can end, with how far the match has gone toward it. A ruleset's endings
/// are a list (see [`MatchStanding::ends`]): the match ends when any of them does, so that an
/// ending a ruleset adds (a fixed number of deals beside a target, say) is one more entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MatchEnd {
    /// MATCH-2: the match ends after the hand after which a total has reached or passed
    /// `target`.
    Target {
        /// The ruleset's `target` (RS-11).
        target: u64,
    },
    /// MATCH-5 to MATCH-8 (`count_down`, RS-20): the hand after which a total first reaches
    /// or passes `target` starts the count-down; from the next hand on each total goes down
    /// by its points, as `count_down_end` says (RS-25), and the match ends after the hand
    /// after which a total is at or below zero.
    CountDown {
        /// The ruleset's `target`.
        target: u64,
        /// How a count-down total meets zero (RS-25, MATCH-8).
        end: CountDownEnd,
        /// Whether the count-down has started: the coming or current hand is a count-down
        /// hand (MATCH-5).
        counting: bool,
        /// The seats whose totals were at or past the target when the count-down started,
        /// sorted; empty before it has.
        reached: Vec<usize>,
        /// The number of the first count-down hand (the hand after the one that reached the
        /// target, or the match's first where it started past it); `None` before it has.
        first_hand: Option<u64>,
    },
    /// MATCH-9 (`deals`, RS-26): the match ends after the hand numbered `deals − 1`.
    Deals {
        /// The ruleset's `deals`.
        deals: u64,
    },
}

impl MatchEnd {
    /// As JSON, an object whose `kind` names the ending: `target` (`{"kind", "target"}`) or
    /// `count-down` (`{"kind", "target", "count_down_end", "counting", "reached",
    /// "first_hand"}`) or `deals` (`{"kind", "deals"}`).
    pub fn to_value(&self) -> Value {
        match self {
            MatchEnd::Target { target } => json!({"kind": "target", "target": target}),
            MatchEnd::Deals { deals } => json!({"kind": "deals", "deals": deals}),
            MatchEnd::CountDown {
                target,
                end,
                counting,
                reached,
                first_hand,
            } => json!({
                "kind": "count-down",
                "target": target,
                "count_down_end": end.as_str(),
                "counting": counting,
                "reached": reached,
                "first_hand": first_hand,
            }),
        }
    }
}

/// How a match ends and where it stands: its endings, the totals, the seats with the lowest
/// total (the winners once the match is over, MATCH-3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MatchStanding {
    /// The ways the match ends; it ends when any of them does.
    pub ends: Vec<MatchEnd>,
    /// The match totals, one per seat.
    pub totals: Vec<i64>,
    /// Whether the match is over (phase `over`).
    pub over: bool,
    /// The seats with the lowest total, sorted: those leading, and the winners once over.
    pub lowest: Vec<usize>,
}

impl MatchStanding {
    /// As JSON: `{"ends": [...], "totals", "over", "lowest", "winners"}` (`winners` empty
    /// until the match is over).
    pub fn to_value(&self) -> Value {
        let winners: &[usize] = if self.over { &self.lowest } else { &[] };
        json!({
            "ends": self.ends.iter().map(MatchEnd::to_value).collect::<Vec<_>>(),
            "totals": self.totals,
            "over": self.over,
            "lowest": self.lowest,
            "winners": winners,
        })
    }
}

// ------------------------------------------------------------------ a game's facts

impl Game {
    /// Who passes to whom in the current hand (the coming one in phase `deal`); `None` where
    /// it has no pass.
    pub fn pass_plan(&self) -> Option<PassPlan> {
        PassPlan::of(self.ruleset(), self.hand_number())
    }

    /// How the match ends and where it stands.
    pub fn standing(&self) -> MatchStanding {
        let rules = self.ruleset();
        let totals = self.scores().to_vec();
        let lowest = match totals.iter().min() {
            Some(&min) => (0..totals.len()).filter(|&s| totals[s] == min).collect(),
            None => Vec::new(),
        };
        let mut ends = Vec::new();
        match rules.target() {
            // RS-13 item 10: a count-down has a target.
            Some(target) if rules.count_down() => {
                let (reached, first_hand) = if self.count_down() {
                    self.count_down_start()
                } else {
                    (Vec::new(), None)
                };
                ends.push(MatchEnd::CountDown {
                    target,
                    end: rules.count_down_end(),
                    counting: self.count_down(),
                    reached,
                    first_hand,
                });
            }
            Some(target) => ends.push(MatchEnd::Target { target }),
            None => {}
        }
        if let Some(deals) = rules.deals() {
            ends.push(MatchEnd::Deals { deals });
        }
        MatchStanding {
            ends,
            totals,
            over: self.phase() == Phase::Over,
            lowest,
        }
    }

    // MATCH-5: the seats at or past the target when the count-down started, and its first
    // hand: the start's totals, then after each scored hand, the first at which a total
    // reached it (the kernel's Scoring::in_count_down, seat by seat).
    fn count_down_start(&self) -> (Vec<usize>, Option<u64>) {
        let scoring = Scoring::new(self.ruleset());
        let mut totals: Vec<i64> = self.start_scores().to_vec();
        let first = self.start_hand_number();
        let at_target = |totals: &[i64]| -> Vec<usize> {
            (0..totals.len())
                .filter(|&s| scoring.in_count_down(&totals[s..=s]))
                .collect()
        };
        let reached = at_target(&totals);
        if !reached.is_empty() {
            return (reached, Some(first));
        }
        for (index, row) in self.hand_scores().iter().enumerate() {
            for (total, score) in totals.iter_mut().zip(row) {
                *total = total.saturating_add(*score);
            }
            let reached = at_target(&totals);
            if !reached.is_empty() {
                return (reached, Some(first.wrapping_add(index as u64 + 1)));
            }
        }
        (Vec::new(), None)
    }

    /// Why the seat to move may not play `card` now: the rule that refuses it (PLAY-3 for a
    /// card it does not hold, else the stage of PLAY-8 that narrowed its legal cards), `None`
    /// where the card is legal or the phase is not `play`.
    pub fn breach(&self, card: Card) -> Option<Breach> {
        if self.phase() != Phase::Play {
            return None;
        }
        let pos = self.position();
        let rules = self.ruleset();
        let seat = pos.hand.to_move();
        pos.hand
            .check_play(rules, card)
            .err()
            .map(|code| pos.breach(rules, code, seat, card))
    }
}

// ------------------------------------------------------------------ OBS-3 from an observation

/// The blocks of the OBS-3 encoding (spec `records.md`), in order: name, offset, length.
pub const ENCODING_LAYOUT: [(&str, usize, usize); 16] = [
    ("hand", AT_HAND, CARDS),
    ("played", AT_PLAYED, SEATS * CARDS),
    ("trick", AT_TRICK, SEATS * CARDS),
    ("passed", AT_PASSED, CARDS),
    ("received", AT_RECEIVED, CARDS),
    ("voids", AT_VOIDS, SEATS * 4),
    ("points", AT_POINTS, SEATS),
    ("scores", AT_SCORES, SEATS),
    ("phase", AT_PHASE, PHASES.len()),
    ("hearts_broken", AT_HEARTS, 1),
    ("to_move", AT_TO_MOVE, SEATS + 1),
    ("pass_direction", AT_DIRECTION, DIRECTIONS.len() + 1),
    ("legal", AT_LEGAL, CARDS),
    ("selected", AT_SELECTED, CARDS),
    ("count_down", AT_COUNT_DOWN, 1),
    ("held_over", AT_HELD_OVER, CARDS),
];

const CARDS: usize = 52;
const SEATS: usize = MAX_PLAYERS;
const PHASES: [&str; 5] = ["deal", "pass", "play", "moon", "over"];
const DIRECTIONS: [&str; 4] = ["left", "right", "across", "hold"];

// The layout covers the encoding, block after block.
const _: () = {
    let mut at = 0;
    let mut i = 0;
    while i < ENCODING_LAYOUT.len() {
        assert!(ENCODING_LAYOUT[i].1 == at);
        at += ENCODING_LAYOUT[i].2;
        i += 1;
    }
    assert!(at == ENCODING_LENGTH);
};

fn bad(message: impl Into<String>) -> Error {
    Error::new(
        ErrorCode::InvalidAction,
        format!("invalid observation: {}", message.into()),
    )
}

fn key<'a>(obs: &'a Value, name: &str) -> Result<&'a Value, Error> {
    obs.get(name)
        .ok_or_else(|| bad(format!("it has no '{name}'")))
}

fn list<'a>(v: &'a Value, what: &str) -> Result<&'a [Value], Error> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| bad(format!("'{what}' is not a list")))
}

fn card_of(v: &Value, what: &str) -> Result<usize, Error> {
    let text = v
        .as_str()
        .ok_or_else(|| bad(format!("'{what}' holds {v}, not a card")))?;
    Card::parse(text)
        .map(|c| usize::from(c.id()))
        .map_err(|_| bad(format!("'{what}' holds {v}, not a card")))
}

fn cards_of(v: &Value, what: &str) -> Result<Vec<usize>, Error> {
    list(v, what)?.iter().map(|c| card_of(c, what)).collect()
}

fn flag(v: &Value, what: &str) -> Result<i32, Error> {
    v.as_bool()
        .map(i32::from)
        .ok_or_else(|| bad(format!("'{what}' is {v}, not a boolean")))
}

fn int(v: &Value, what: &str) -> Result<i32, Error> {
    v.as_i64()
        .and_then(|i| i32::try_from(i).ok())
        .ok_or_else(|| bad(format!("'{what}' holds {v}, not a 32-bit integer")))
}

/// Writes the OBS-3 encoding of `observation`, the OBS-1 observation a seat sees (its JSON
/// object, as `Game::observation` gives it), at a table of `players`, into `out`, which must
/// hold [`ENCODING_LENGTH`] integers: the same integers as
/// [`encode_observation`](crate::encode_observation) of the game and seat it came from. It
/// reads only the observation, so it can reveal nothing the observation hides (OBS-2).
///
/// # Errors
///
/// `invalid-setup` when `out` does not have [`ENCODING_LENGTH`] integers or `players` is not
/// a number of seats (RS-3); `invalid-action` naming the key when the observation lacks a key
/// OBS-1 gives, or holds a value of the wrong kind there.
///
/// # Examples
///
/// ```
/// use reversis_core::{encode_observation, encode_observation_json, preset, Game, ENCODING_LENGTH};
/// let game = Game::new(preset("hearts-4").unwrap(), Some(7), 0, None).unwrap();
/// let (mut a, mut b) = (vec![0; ENCODING_LENGTH], vec![0; ENCODING_LENGTH]);
/// encode_observation(&game, 2, &mut a).unwrap();
/// encode_observation_json(&game.observation(2).unwrap(), 4, &mut b).unwrap();
/// assert_eq!(a, b);
/// ```
pub fn encode_observation_json(
    observation: &Value,
    players: usize,
    out: &mut [i32],
) -> Result<(), Error> {
    crate::vector::check_encoding_buffer(out)?;
    if !(3..=MAX_PLAYERS).contains(&players) {
        return Err(Error::new(
            ErrorCode::InvalidSetup,
            format!("invalid setup: a table has 3 to {MAX_PLAYERS} seats, not {players}"),
        ));
    }
    if !observation.is_object() {
        return Err(bad("it is not an object"));
    }
    out.fill(0);
    let seat_of = |v: &Value, what: &str| -> Result<usize, Error> {
        v.as_u64()
            .and_then(|s| usize::try_from(s).ok())
            .filter(|&s| s < players)
            .ok_or_else(|| bad(format!("'{what}' holds {v}, not a seat of {players}")))
    };
    let seat = seat_of(key(observation, "seat")?, "seat")?;
    let rel = |other: usize| (other + players - seat) % players;
    // A play of the trick in progress or of a completed trick: its relative seat and card.
    let play = |p: &Value, what: &str| -> Result<(usize, usize), Error> {
        Ok((
            rel(seat_of(key(p, "seat")?, what)?),
            card_of(key(p, "card")?, what)?,
        ))
    };
    // Card blocks count copies (two packs, CARD-2), but for the trick and the legal cards.
    for c in cards_of(key(observation, "hand")?, "hand")? {
        out[AT_HAND + c] += 1;
    }
    let tricks = list(key(observation, "tricks")?, "tricks")?;
    // PLAY-9: the tricks held over since the last trick won, which no seat has captured yet
    // (a won trick captures every trick held over before it).
    let mut held_over = Vec::new();
    for trick in tricks {
        for p in list(key(trick, "cards")?, "tricks")? {
            let (k, c) = play(p, "tricks")?;
            out[AT_PLAYED + k * CARDS + c] += 1;
        }
        if key(trick, "winner")?.is_null() {
            held_over.push(trick);
        } else {
            held_over.clear();
        }
    }
    for p in list(key(observation, "trick")?, "trick")? {
        let (k, c) = play(p, "trick")?;
        out[AT_PLAYED + k * CARDS + c] += 1;
        out[AT_TRICK + k * CARDS + c] = 1;
    }
    for (name, at) in [("passed", AT_PASSED), ("received", AT_RECEIVED)] {
        let v = key(observation, name)?;
        if !v.is_null() {
            for c in cards_of(v, name)? {
                out[at + c] += 1;
            }
        }
    }
    for (other, suits) in list(key(observation, "voids")?, "voids")?
        .iter()
        .enumerate()
        .take(players)
    {
        for s in list(suits, "voids")? {
            let suit = s
                .as_str()
                .and_then(|t| t.parse::<char>().ok())
                .and_then(|ch| Suit::ALL.iter().position(|x| x.char() == ch))
                .ok_or_else(|| bad(format!("'voids' holds {s}, not a suit")))?;
            out[AT_VOIDS + rel(other) * 4 + suit] = 1;
        }
    }
    for (name, at) in [("points", AT_POINTS), ("scores", AT_SCORES)] {
        for (other, v) in list(key(observation, name)?, name)?
            .iter()
            .enumerate()
            .take(players)
        {
            out[at + rel(other)] = int(v, name)?;
        }
    }
    let phase = key(observation, "phase")?;
    let phase = PHASES
        .iter()
        .position(|&p| phase.as_str() == Some(p))
        .ok_or_else(|| bad(format!("'phase' is {phase}, not a phase")))?;
    out[AT_PHASE + phase] = 1;
    out[AT_HEARTS] = flag(key(observation, "hearts_broken")?, "hearts_broken")?;
    let to_move = key(observation, "to_move")?;
    let to_move = if to_move.is_null() {
        SEATS
    } else {
        rel(seat_of(to_move, "to_move")?)
    };
    out[AT_TO_MOVE + to_move] = 1;
    let direction = key(observation, "pass_direction")?;
    let direction = if direction.is_null() {
        DIRECTIONS.len()
    } else {
        DIRECTIONS
            .iter()
            .position(|&d| direction.as_str() == Some(d))
            .ok_or_else(|| bad(format!("'pass_direction' is {direction}, not a direction")))?
    };
    out[AT_DIRECTION + direction] = 1;
    for c in cards_of(key(observation, "legal")?, "legal")? {
        out[AT_LEGAL + c] = 1;
    }
    for c in cards_of(key(observation, "selected")?, "selected")? {
        out[AT_SELECTED + c] += 1;
    }
    out[AT_COUNT_DOWN] = flag(key(observation, "count_down")?, "count_down")?;
    for trick in held_over {
        for p in list(key(trick, "cards")?, "tricks")? {
            out[AT_HELD_OVER + play(p, "tricks")?.1] += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::preset;
    use crate::vector::encode_observation;

    // Plays the lowest legal action of every decision, checking at each the JSON encoder
    // against the encoder of the game itself, for every seat.
    fn agree_through_a_match(name: &str, decisions: usize) {
        let rules = preset(name).unwrap();
        let n = rules.players();
        let mut game = Game::new(rules, Some(11), 0, None).unwrap();
        let mut a = vec![0; ENCODING_LENGTH];
        let mut b = vec![0; ENCODING_LENGTH];
        for _ in 0..decisions {
            if game.phase() == Phase::Deal {
                game.deal(None).unwrap();
            }
            if game.phase() == Phase::Over {
                break;
            }
            for seat in 0..n {
                encode_observation(&game, seat, &mut a).unwrap();
                encode_observation_json(&game.observation(seat).unwrap(), n, &mut b).unwrap();
                assert_eq!(
                    a,
                    b,
                    "{name} seat {seat} after {} actions",
                    game.undo_depth()
                );
            }
            let id = game.legal_actions(None).unwrap()[0];
            game.apply_action(id, None).unwrap();
        }
    }

    #[test]
    fn the_json_encoder_agrees_with_the_game_encoder() {
        for name in crate::ruleset::preset_names() {
            agree_through_a_match(name, 160);
        }
    }

    #[test]
    fn a_malformed_observation_is_named() {
        let game = Game::new(preset("hearts-4").unwrap(), Some(3), 0, None).unwrap();
        let mut out = vec![0; ENCODING_LENGTH];
        let mut obs = game.observation(1).unwrap();
        obs.as_object_mut().unwrap().remove("voids");
        let e = encode_observation_json(&obs, 4, &mut out).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidAction);
        assert!(e.message().contains("'voids'"), "{}", e.message());
        let mut obs = game.observation(1).unwrap();
        obs["hand"][0] = json!("1X");
        let e = encode_observation_json(&obs, 4, &mut out).unwrap_err();
        assert!(e.message().contains("'hand'"), "{}", e.message());
        let obs = game.observation(1).unwrap();
        let e = encode_observation_json(&obs, 2, &mut out).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidSetup);
    }

    #[test]
    fn a_breach_names_its_clause_and_says_its_code_first() {
        let card = Card::parse("KH").unwrap();
        let opening = Card::parse("2C").ok();
        for (code, rule) in [
            (ErrorCode::CardNotHeld, "PLAY-3"),
            (ErrorCode::MustLeadOpeningCard, "PLAY-1"),
            (ErrorCode::MustFollowSuit, "PLAY-4"),
            (ErrorCode::PointsOnFirstTrick, "PLAY-5"),
            (ErrorCode::HeartsNotBroken, "PLAY-6"),
        ] {
            let b = Breach::new(code, 2, card, opening, Some(Suit::Spades));
            assert_eq!((b.code, b.rule), (code, rule));
            // ERR-1: a message begins with its code's words.
            let words = code.as_str().replace('-', " ");
            assert!(
                b.message.starts_with(&format!("{words}: ")),
                "{}",
                b.message
            );
            assert!(b.message.contains("'KH'"), "{}", b.message);
        }
    }

    #[test]
    fn each_seat_passes_to_its_target_and_receives_from_its_source() {
        let rules = preset("hearts-4").unwrap();
        // PASS-1: left, right, across, hold.
        let left = PassPlan::of(&rules, 0).unwrap();
        assert_eq!(left.to, [1, 2, 3, 0]);
        assert_eq!(left.from, [3, 0, 1, 2]);
        assert_eq!(PassPlan::of(&rules, 1).unwrap().to, [3, 0, 1, 2]);
        assert_eq!(PassPlan::of(&rules, 2).unwrap().to, [2, 3, 0, 1]);
        assert_eq!(PassPlan::of(&rules, 3), None);
        assert_eq!(left.size, 3);
    }

    #[test]
    fn the_count_down_names_the_seats_that_reached_the_target() {
        let rules = preset("hartenjagen-count-down").unwrap();
        let target = rules.target().unwrap();
        let before = Game::new(rules.clone(), Some(5), 0, None).unwrap();
        assert_eq!(
            before.standing().ends,
            [MatchEnd::CountDown {
                target,
                end: CountDownEnd::StopAtZero,
                counting: false,
                reached: vec![],
                first_hand: None
            }]
        );
        let t = target as i64;
        let started = Game::new(rules, Some(5), 4, Some(vec![3, t + 2, 0, t])).unwrap();
        let standing = started.standing();
        assert_eq!(
            standing.ends,
            [MatchEnd::CountDown {
                target,
                end: CountDownEnd::StopAtZero,
                counting: true,
                reached: vec![1, 3],
                first_hand: Some(4)
            }]
        );
        assert_eq!(standing.lowest, [2]);
        assert!(!standing.over);
    }

    #[test]
    fn a_match_of_deals_names_its_number_of_hands() {
        // black-maria-deals (D-26): no target, six deals.
        let rules = preset("black-maria-deals").unwrap();
        let game = Game::new(rules, Some(5), 0, None).unwrap();
        assert_eq!(game.standing().ends, [MatchEnd::Deals { deals: 6 }]);
    }
}
