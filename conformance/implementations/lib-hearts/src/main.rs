//! lib-hearts 0.1.28 (crates.io) behind the reversis driver protocol (spec/driver.md).
//!
//! Every rule answer is the engine's: which card is legal (`Game::validate_play`), what a pass
//! or a play is refused for (`GameError`), who wins a trick and who leads next
//! (`Game::compute_score`), what each card and each hand scores (`Card::get_value`, the players'
//! scores). The harness translates cards between CARD-2 ids and the engine's deck positions,
//! puts a given deal into the engine, and keeps what the protocol needs and the engine does not
//! hold: the hand number, the match totals, the completed tricks and the record. README.md says
//! why each claim of `hello` is what it is.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use lib_hearts::{
    get_card_by_idx, Card, Game, GameError, GameState, Player, TypeCard, CARD_TO_START, DECK_SIZE,
    NUMBER_REPLACEABLE_CARDS, PLAYER_CARD_SIZE, PLAYER_NUMBER,
};
use serde_json::{json, Map, Value};
use uuid::Uuid;

const RANKS: &[u8; 13] = b"23456789TJQKA";
const SUITS: &[u8; 4] = b"CDHS";

/// Every preset of spec/rulesets/, to tell one the engine does not play from an unknown name.
const PRESET_NAMES: [&str; 14] = [
    "black-maria",
    "cancellation-10",
    "cancellation-6",
    "cancellation-8",
    "hartenjagen",
    "hartenjagen-count-down",
    "hearts-3",
    "hearts-4",
    "hearts-5",
    "hearts-6",
    "hearts-7",
    "hearts-computer",
    "omnibus-4",
    "spot-hearts",
];

/// The claimed presets, as spec/rulesets/ holds them (records carry the whole object, REC-1).
const CLAIMED: [(&str, &str); 2] = [
    (
        "hearts-4",
        r#"{"name": "hearts-4", "title": "Classic Hearts, 4 players", "sources": ["002_a19656d00d6dcc0e.txt", "004_6369656a193d5fe2.txt", "D-1", "D-2", "D-4", "D-5"], "players": 4, "deck": {"lowest_rank": "2", "removed": []}, "passing": {"cycle": ["left", "right", "across", "hold"], "size": 3}, "opening_card": "2C", "first_trick_ban": true, "hearts_breaking": "heart-or-QS", "card_points": {"2H": 1, "3H": 1, "4H": 1, "5H": 1, "6H": 1, "7H": 1, "8H": 1, "9H": 1, "TH": 1, "JH": 1, "QH": 1, "KH": 1, "AH": 1, "QS": 13}, "moon": {"scoring": "taker-choice", "bonus": 26}, "target": 100}"#,
    ),
    (
        "hearts-computer",
        r#"{"name": "hearts-computer", "title": "Computer-table Hearts", "sources": ["001_8139d5a4893f2ae5.txt", "D-2", "D-4"], "players": 4, "deck": {"lowest_rank": "2", "removed": []}, "passing": {"cycle": ["left", "right", "across", "hold"], "size": 3}, "opening_card": "2C", "first_trick_ban": true, "hearts_breaking": "heart", "card_points": {"2H": 1, "3H": 1, "4H": 1, "5H": 1, "6H": 1, "7H": 1, "8H": 1, "9H": 1, "TH": 1, "JH": 1, "QH": 1, "KH": 1, "AH": 1, "QS": 13}, "moon": {"scoring": "add-to-others", "bonus": 26}, "target": 100}"#,
    ),
];

/// The fields on which the engine plays a claimed preset by another rule (README.md): it always
/// passes to the next seat (lib.rs:397-403), hearts break only on a heart (lib.rs:640-659), and a
/// moon scores add-to-others 26 at once, with no choice (lib.rs:706-713).
fn variants() -> Value {
    let passing = json!({"cycle": ["left"], "size": NUMBER_REPLACEABLE_CARDS});
    json!({
        "hearts-4": {
            "passing": passing,
            "hearts_breaking": "heart",
            "moon": {"scoring": "add-to-others", "bonus": 26},
        },
        "hearts-computer": {"passing": passing},
    })
}

/// The engine asks for the length of a match in hands, not for a target score; the most it takes
/// is more than any case plays (README.md, divergences).
const HANDS_PER_MATCH: u8 = u8::MAX;

struct Refusal {
    code: &'static str,
    message: String,
}

fn refuse<T>(code: &'static str, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        code,
        message: message.into(),
    })
}

fn unsupported<T>(message: impl Into<String>) -> Result<T, Refusal> {
    refuse("unsupported", message)
}

/// The closest code of spec/errors.md to an engine error. `error_codes` is not claimed:
/// `ForbiddenMove` is the engine's one answer to a passed card not held and to a card passed twice.
fn engine_refusal(error: GameError) -> Refusal {
    let code = match error {
        GameError::PlayerDoesntHaveCard | GameError::ForbiddenMove | GameError::UnknownCard => {
            "card-not-held"
        }
        GameError::MustUseStartCard => "must-lead-opening-card",
        GameError::MustPlaySameKind => "must-follow-suit",
        GameError::CannotStartWithQueenOrHeart => "points-on-first-trick",
        GameError::HeartNeverPlayedBefore => "hearts-not-broken",
        GameError::StateError => "wrong-phase",
    };
    Refusal {
        code,
        message: format!("lib-hearts refuses it with {error}"),
    }
}

// ------------------------------------------------------------------------------------- cards

/// The CARD-2 id of the card at `position` of the engine's deck (which runs C, D, S, H).
fn card_id(position: usize) -> usize {
    let card = get_card_by_idx(position);
    let suit = match card.get_type() {
        TypeCard::Club => 0,
        TypeCard::Diamond => 1,
        TypeCard::Heart => 2,
        TypeCard::Spade => 3,
    };
    let rank = match card {
        Card::Number(number, _, _) => usize::from(*number) - 2,
        Card::Jack(..) => 9,
        Card::Queen(..) => 10,
        Card::King(..) => 11,
        Card::Ace(..) => 12,
    };
    suit * 13 + rank
}

/// The engine's deck position of a CARD-2 id.
fn position(id: usize) -> usize {
    (0..DECK_SIZE)
        .find(|&p| card_id(p) == id)
        .expect("lib-hearts' deck holds all 52 cards")
}

fn name(id: usize) -> String {
    format!("{}{}", RANKS[id % 13] as char, SUITS[id / 13] as char)
}

/// Canonical names of deck positions, sorted by CARD-2 id.
fn names(positions: impl IntoIterator<Item = usize>) -> Vec<String> {
    let mut ids: Vec<usize> = positions.into_iter().map(card_id).collect();
    ids.sort_unstable();
    ids.into_iter().map(name).collect()
}

/// Reads a card by CARD-6 and gives its deck position. Notation only: the engine reads no card
/// text but its own emoji.
fn read_card(value: &Value) -> Result<usize, Refusal> {
    let Some(text) = value.as_str() else {
        return refuse("invalid-card", format!("a card is a string, not {value}"));
    };
    let bad = || refuse("invalid-card", format!("not a card: {text:?}"));
    let body = text.trim_matches([' ', '\t', '\n', '\r']);
    let (rank, suit) = if let Some(suit) = body.strip_prefix("10") {
        (8, suit)
    } else {
        let mut chars = body.chars();
        let Some(rank) = chars.next().and_then(|c| {
            RANKS
                .iter()
                .position(|&r| r as char == c.to_ascii_uppercase())
        }) else {
            return bad();
        };
        (rank, chars.as_str())
    };
    let suit = match suit {
        "C" | "c" | "♣" | "♧" => 0,
        "D" | "d" | "♦" | "♢" => 1,
        "H" | "h" | "♥" | "♡" => 2,
        "S" | "s" | "♠" | "♤" => 3,
        _ => return bad(),
    };
    Ok(position(suit * 13 + rank))
}

fn is_heart(position: usize) -> bool {
    *get_card_by_idx(position).get_type() == TypeCard::Heart
}

// ------------------------------------------------------------------------------------- actions

enum Action {
    Deal(Vec<Vec<usize>>),
    Pass(usize, Vec<usize>),
    Play(usize, usize),
    /// Never accepted: the engine has no moon phase; the seat is only checked.
    Moon,
}

/// Reads an ACT-1 action, its faults in the order of ERR-4: shape, cards, seat range.
fn read_action(value: &Value) -> Result<Action, Refusal> {
    let malformed = |why: &str| refuse::<Action>("invalid-action", format!("{why}: {value}"));
    let Some(object) = value.as_object() else {
        return malformed("an action is an object");
    };
    let kind = object.get("type").and_then(Value::as_str).unwrap_or("");
    let keys: &[&str] = match kind {
        "deal" => &["type", "hands"],
        "pass" => &["type", "seat", "cards"],
        "play" => &["type", "seat", "card"],
        "moon" => &["type", "seat", "choice"],
        _ => return malformed("no action type"),
    };
    if object.len() != keys.len() || keys.iter().any(|key| !object.contains_key(*key)) {
        return malformed(&format!("a {kind} has exactly the keys {keys:?}"));
    }
    let seat = match object.get("seat") {
        Some(seat) => match seat.as_u64() {
            Some(seat) => Some(seat),
            None => return malformed("a seat is a non-negative integer"),
        },
        None => None,
    };
    // Only after the shape checks below, which make sure `value` is an array.
    let card_list = |value: &Value| -> Result<Vec<usize>, Refusal> {
        value
            .as_array()
            .into_iter()
            .flatten()
            .map(read_card)
            .collect()
    };
    if kind == "deal"
        && !object["hands"]
            .as_array()
            .is_some_and(|h| h.iter().all(Value::is_array))
    {
        return malformed("a deal's hands are an array of arrays");
    }
    if kind == "pass" && !object["cards"].is_array() {
        return malformed("a pass's cards are an array");
    }
    let moon_choices = ["add-to-others", "subtract-from-taker"];
    if kind == "moon" && !moon_choices.iter().any(|c| object["choice"] == *c) {
        return malformed("a moon choice is add-to-others or subtract-from-taker");
    }
    // Every card is read before the seat's range is checked (ERR-4).
    let cards: Vec<Vec<usize>> = match kind {
        "deal" => object["hands"]
            .as_array()
            .into_iter()
            .flatten()
            .map(card_list)
            .collect::<Result<_, _>>()?,
        "pass" => vec![card_list(&object["cards"])?],
        "play" => vec![vec![read_card(&object["card"])?]],
        _ => Vec::new(),
    };
    let seat = seat.unwrap_or(0);
    if seat >= PLAYER_NUMBER as u64 {
        return malformed(&format!("no seat {seat} at a table of {PLAYER_NUMBER}"));
    }
    let seat = seat as usize;
    Ok(match kind {
        "deal" => Action::Deal(cards),
        "pass" => Action::Pass(seat, cards.concat()),
        "play" => Action::Play(seat, cards[0][0]),
        _ => Action::Moon,
    })
}

// ------------------------------------------------------------------------------------- a game

struct Trick {
    /// (seat, deck position) in playing order.
    cards: Vec<(usize, usize)>,
    winner: usize,
}

impl Trick {
    fn points(&self) -> usize {
        self.cards
            .iter()
            .map(|&(_, p)| get_card_by_idx(p).get_value())
            .sum()
    }

    fn to_json(&self) -> Value {
        json!({
            "leader": self.cards[0].0,
            "cards": played(&self.cards),
            "winner": self.winner,
            "points": self.points(),
        })
    }
}

fn played(cards: &[(usize, usize)]) -> Vec<Value> {
    cards
        .iter()
        .map(|&(seat, p)| json!({"seat": seat, "card": name(card_id(p))}))
        .collect()
}

fn seat_id(seat: usize) -> Uuid {
    Uuid::from_u128(seat as u128 + 1)
}

struct Table {
    ruleset: Value,
    game: Game,
    /// Game::new deals a hand of its own at once; until the first `deal` action it is not ours.
    fresh: bool,
    start_hand: u64,
    start_scores: [i64; PLAYER_NUMBER],
    hand_number: u64,
    totals: [i64; PLAYER_NUMBER],
    hand_scores: Vec<[i64; PLAYER_NUMBER]>,
    /// The completed tricks of the hand in play (or of the last hand, once the match is over).
    tricks: Vec<Trick>,
    actions: Vec<Value>,
}

impl Table {
    fn new(ruleset: Value, hand_number: u64, scores: [i64; PLAYER_NUMBER]) -> Self {
        let players = [0, 1, 2, 3].map(|seat| (seat_id(seat), false));
        Table {
            ruleset,
            game: Game::new(players, HANDS_PER_MATCH),
            fresh: true,
            start_hand: hand_number,
            start_scores: scores,
            hand_number,
            totals: scores,
            hand_scores: Vec::new(),
            tricks: Vec::new(),
            actions: Vec::new(),
        }
    }

    fn phase(&self) -> &'static str {
        match self.game.state {
            _ if self.fresh => "deal",
            GameState::ExchangeCards { .. } => "pass",
            GameState::PlayingHand { .. } => "play",
            // The harness settles every full trick at once (`play` below).
            GameState::ComputeScore { .. } => unreachable!("a full trick left unscored"),
            GameState::EndHand => "deal",
            GameState::End => "over",
        }
    }

    fn passed(&self, seat: usize) -> bool {
        match &self.game.state {
            GameState::ExchangeCards { commands } => {
                commands.iter().flatten().any(|(from, _)| *from == seat)
            }
            _ => false,
        }
    }

    fn held(&self, seat: usize) -> Vec<usize> {
        self.game.players[seat]
            .get_cards_and_pos_in_deck()
            .iter()
            .flatten()
            .map(|&(p, _)| p)
            .collect()
    }

    fn trick_in_progress(&self) -> Vec<(usize, usize)> {
        match self.game.state {
            GameState::PlayingHand { stack, .. } => stack.iter().flatten().copied().collect(),
            _ => Vec::new(),
        }
    }

    fn apply(&mut self, value: &Value) -> Result<(), Refusal> {
        let action = read_action(value)?;
        if self.phase() == "over" {
            return refuse(
                "match-over",
                "lib-hearts has played every hand of the match",
            );
        }
        let canonical = match action {
            Action::Deal(hands) => self.deal(hands)?,
            Action::Pass(seat, cards) => self.pass(seat, cards)?,
            Action::Play(seat, card) => self.play(seat, card)?,
            Action::Moon => {
                return refuse(
                    "wrong-phase",
                    "lib-hearts has no moon phase: it scores a moon as it happens (lib.rs:706)",
                )
            }
        };
        self.actions.push(canonical);
        Ok(())
    }

    fn deal(&mut self, hands: Vec<Vec<usize>>) -> Result<Value, Refusal> {
        if self.phase() != "deal" {
            return refuse("wrong-phase", format!("a deal in phase {}", self.phase()));
        }
        let mut seen = [false; DECK_SIZE];
        let partition = hands.len() == PLAYER_NUMBER
            && hands.iter().all(|hand| hand.len() == PLAYER_CARD_SIZE)
            && hands
                .iter()
                .flatten()
                .all(|&p| !std::mem::replace(&mut seen[p], true));
        if !partition {
            return unsupported(
                "lib-hearts deals for itself and checks no deal: the harness can put into it \
                 only 4 disjoint hands of 13 cards",
            );
        }
        let mut game = self.game;
        if !self.fresh {
            // The engine's own step to the next hand; the hands it shuffles are replaced below.
            game.deal_cards().map_err(engine_refusal)?;
        }
        // Player::new is the engine's one way to give a seat its cards. Its score starts at 0,
        // which is why the harness keeps the match totals (README.md).
        for (seat, hand) in hands.iter().enumerate() {
            let mut cards = hand.clone();
            cards.sort_unstable();
            let slots: [Option<usize>; PLAYER_CARD_SIZE] =
                std::array::from_fn(|slot| Some(cards[slot]));
            game.players[seat] = Player::new(seat_id(seat), false, slots);
            if cards.iter().any(|&p| *get_card_by_idx(p) == CARD_TO_START) {
                // As the engine's own deal does (lib.rs:464-466): the holder of 2C acts first.
                game.current_player_pos = seat;
            }
        }
        self.game = game;
        self.fresh = false;
        Ok(json!({"type": "deal", "hands": hands.into_iter().map(names).collect::<Vec<_>>()}))
    }

    fn pass(&mut self, seat: usize, cards: Vec<usize>) -> Result<Value, Refusal> {
        if self.phase() != "pass" {
            return refuse("wrong-phase", format!("a pass in phase {}", self.phase()));
        }
        if self.passed(seat) {
            return refuse("already-passed", format!("seat {seat} has passed"));
        }
        let Ok(cards) = <[usize; NUMBER_REPLACEABLE_CARDS]>::try_from(cards.clone()) else {
            return refuse(
                "wrong-pass-size",
                format!(
                    "lib-hearts passes {NUMBER_REPLACEABLE_CARDS} cards, not {}",
                    cards.len()
                ),
            );
        };
        let mut game = self.game;
        // The engine takes passes in a seat order of its own, from its current player; the
        // protocol takes them in any order, so the engine is pointed at the seat passing.
        game.current_player_pos = seat;
        game.exchange_cards(cards).map_err(engine_refusal)?;
        self.game = game;
        Ok(json!({"type": "pass", "seat": seat, "cards": names(cards)}))
    }

    fn play(&mut self, seat: usize, card: usize) -> Result<Value, Refusal> {
        if self.phase() != "play" {
            return refuse("wrong-phase", format!("a play in phase {}", self.phase()));
        }
        // The engine's play takes no seat: it plays for its current player.
        let to_move = self.game.current_player_pos;
        if seat != to_move {
            return refuse(
                "wrong-seat",
                format!("seat {to_move} is to play, not {seat}"),
            );
        }
        let mut game = self.game;
        game.play(card).map_err(engine_refusal)?;
        let mut trick = None;
        if let GameState::ComputeScore { stack, .. } = game.state {
            let cards = stack.iter().flatten().copied().collect();
            game.compute_score().map_err(engine_refusal)?;
            trick = Some(Trick {
                cards,
                winner: game.current_player_pos,
            });
        }
        self.game = game;
        self.tricks.extend(trick);
        if matches!(self.game.state, GameState::EndHand | GameState::End) {
            self.score_hand();
        }
        Ok(json!({"type": "play", "seat": seat, "card": name(card_id(card))}))
    }

    fn score_hand(&mut self) {
        // Each seat's Player was made afresh at the deal, so its engine score is this hand's.
        let scores = self.game.players.map(|p| p.get_score() as i64);
        for (total, score) in self.totals.iter_mut().zip(scores) {
            *total = total.saturating_add(score);
        }
        self.hand_scores.push(scores);
        if self.game.state == GameState::EndHand {
            self.hand_number = self.hand_number.wrapping_add(1);
            self.tricks.clear();
        }
    }

    fn view(&self) -> Value {
        let phase = self.phase();
        let holding = phase == "pass" || phase == "play";
        let hands: Vec<Vec<String>> = (0..PLAYER_NUMBER)
            .map(|seat| {
                if holding {
                    names(self.held(seat))
                } else {
                    Vec::new()
                }
            })
            .collect();
        let trick = self.trick_in_progress();
        let mut points = [0usize; PLAYER_NUMBER];
        for done in &self.tricks {
            points[done.winner] += done.points();
        }
        // The engine lets a heart be led once a heart is among the hand's completed tricks
        // (lib.rs:640-659); a lead only ever follows a completed trick.
        let hearts_broken = self
            .tricks
            .iter()
            .flat_map(|t| t.cards.iter())
            .chain(trick.iter())
            .any(|&(_, p)| is_heart(p));
        let (to_move, legal) = if phase == "play" {
            let seat = self.game.current_player_pos;
            let legal = self.held(seat).into_iter();
            let legal = legal.filter(|&p| self.game.validate_play(p).is_ok());
            (json!(seat), names(legal))
        } else {
            (Value::Null, Vec::new())
        };
        let awaiting: Vec<usize> = if phase == "pass" {
            (0..PLAYER_NUMBER).filter(|&s| !self.passed(s)).collect()
        } else {
            Vec::new()
        };
        let tricks: Vec<Value> = self.tricks.iter().map(Trick::to_json).collect();
        json!({
            "phase": phase,
            "hand_number": self.hand_number,
            "dealer": self.hand_number % PLAYER_NUMBER as u64,
            // Seat s's cards always go to seat s+1 (lib.rs:397-403): left, SEAT-1.
            "pass_direction": "left",
            "to_move": to_move,
            "moon_taker": null,
            "awaiting_pass": awaiting,
            "legal": legal,
            "hands": hands,
            "trick": played(&trick),
            "last_trick": tricks.last(),
            "tricks": tricks,
            "hearts_broken": hearts_broken,
            "points": points,
            "scores": self.totals,
            "hand_scores": self.hand_scores,
            // The engine names no winner; with HANDS_PER_MATCH it never ends a match anyway.
            "winners": [],
            "count_down": false,
        })
    }

    fn record(&self) -> Value {
        json!({
            "format": "reversis-record",
            "version": 1,
            "ruleset": self.ruleset,
            "seed": null,
            "start": {"hand_number": self.start_hand, "scores": self.start_scores},
            "actions": self.actions,
        })
    }
}

// ------------------------------------------------------------------------------------- setup

/// A claimed preset's object, from its name or an equal object.
fn claimed_ruleset(ruleset: &Value) -> Result<Value, Refusal> {
    let presets = CLAIMED.map(|(name, text)| {
        (
            name,
            serde_json::from_str::<Value>(text).expect("a preset is JSON"),
        )
    });
    match ruleset {
        Value::String(wanted) => match presets.into_iter().find(|(name, _)| name == wanted) {
            Some((_, object)) => Ok(object),
            None if PRESET_NAMES.contains(&wanted.as_str()) => {
                unsupported(format!("lib-hearts does not play preset {wanted:?}"))
            }
            None => refuse("unknown-preset", format!("no preset {wanted:?}")),
        },
        Value::Object(_) => match presets.into_iter().find(|(_, object)| object == ruleset) {
            Some((_, object)) => Ok(object),
            None => unsupported("lib-hearts plays only the presets it claims, no custom ruleset"),
        },
        other => refuse(
            "invalid-ruleset",
            format!("a ruleset is a preset name or an object, not {other}"),
        ),
    }
}

/// Reads a game's start (API-3); `what` is the code of a bad value there.
fn new_table(
    ruleset: &Value,
    seed: &Value,
    hand_number: &Value,
    scores: &Value,
    what: &'static str,
) -> Result<Table, Refusal> {
    let ruleset = claimed_ruleset(ruleset)?;
    let hand_number = match hand_number {
        Value::Null => 0,
        value => match value.as_u64() {
            Some(number) => number,
            None => return refuse(what, format!("a hand number is 0 … 2^64-1, not {value}")),
        },
    };
    let totals = match scores {
        Value::Null => Some([0; PLAYER_NUMBER]),
        Value::Array(items) if items.len() == PLAYER_NUMBER => {
            let read: Option<Vec<i64>> = items.iter().map(Value::as_i64).collect();
            read.map(|read| std::array::from_fn(|seat| read[seat]))
        }
        _ => None,
    };
    let Some(totals) = totals else {
        return refuse(
            what,
            format!("scores are {PLAYER_NUMBER} integers, not {scores}"),
        );
    };
    match seed {
        Value::Null => Ok(Table::new(ruleset, hand_number, totals)),
        value if value.is_u64() => unsupported(
            "lib-hearts shuffles with rand::thread_rng, which nothing can seed: no SEED-1 deals",
        ),
        value => refuse(what, format!("a seed is 0 … 2^64-1, not {value}")),
    }
}

fn is_version(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| {
            !part.is_empty()
                && part.bytes().all(|b| b.is_ascii_digit())
                && (part.len() == 1 || !part.starts_with('0'))
        })
}

fn load_record(record: &Value) -> Result<Table, Refusal> {
    let invalid = |why: String| refuse("invalid-record", why);
    let Some(object) = record.as_object() else {
        return invalid(format!("a record is an object, not {record}"));
    };
    if let Some(version) = object.get("spec_version") {
        let text = version.as_str().unwrap_or("");
        if !is_version(text) || !text.starts_with("1.") {
            return invalid(format!("spec_version {version} is not a 1.y.z version"));
        }
    }
    let keys = ["format", "version", "ruleset", "seed", "start", "actions"];
    let extra = object
        .keys()
        .any(|key| key != "spec_version" && !keys.contains(&key.as_str()));
    if extra || keys.iter().any(|key| !object.contains_key(*key)) {
        return invalid(format!("a record has exactly the keys {keys:?}"));
    }
    if object["format"] != "reversis-record" || object["version"] != 1 {
        return invalid("not a version-1 reversis record".into());
    }
    let start = &object["start"];
    let Some(start_keys) = start.as_object() else {
        return invalid(format!("a record's start is an object, not {start}"));
    };
    let start_ok =
        start_keys.len() == 2 && !start["hand_number"].is_null() && !start["scores"].is_null();
    let Some(actions) = object["actions"].as_array().filter(|_| start_ok) else {
        return invalid(
            "a record's start is {hand_number, scores} and its actions an array".into(),
        );
    };
    let mut table = new_table(
        &object["ruleset"],
        &object["seed"],
        &start["hand_number"],
        &start["scores"],
        "invalid-record",
    )?;
    for (index, action) in actions.iter().enumerate() {
        if let Err(refusal) = table.apply(action) {
            if refusal.code == "unsupported" {
                return Err(refusal);
            }
            return invalid(format!("action {index} is refused: {}", refusal.message));
        }
    }
    Ok(table)
}

// ------------------------------------------------------------------------------------- the driver

fn hello() -> Map<String, Value> {
    let answer = json!({
        "name": "lib-hearts",
        "version": "0.1.28",
        "protocol": 1,
        "spec_version": "1.3.0",
        "capabilities": {
            "players": [PLAYER_NUMBER],
            "presets": CLAIMED.map(|(name, _)| name),
            "custom_rulesets": false,
            "kinds": ["game", "perft"],
            "observations": false,
            "error_codes": false,
            "action_ids": false,
            "observation_tensor": false,
            "variants": variants(),
        },
    });
    match answer {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

struct Driver {
    games: HashMap<u64, Table>,
    next_game: u64,
}

impl Driver {
    fn keep(&mut self, table: Table) -> Map<String, Value> {
        self.next_game += 1;
        self.games.insert(self.next_game, table);
        one("game", json!(self.next_game))
    }

    fn table(&mut self, request: &Map<String, Value>) -> Result<&mut Table, Refusal> {
        let game = &request["game"];
        match game.as_u64().and_then(|id| self.games.get_mut(&id)) {
            Some(table) => Ok(table),
            None => refuse("invalid-request", format!("no game {game}")),
        }
    }

    fn handle(
        &mut self,
        cmd: &str,
        request: &Map<String, Value>,
    ) -> Result<Map<String, Value>, Refusal> {
        let (required, optional): (&[&str], &[&str]) = match cmd {
            "hello" | "quit" => (&[], &[]),
            "parse_card" => (&["text"], &[]),
            "ruleset" => (&["ruleset"], &[]),
            "seed_draws" => (&["seed", "count"], &[]),
            "deal_from_seed" => (&["ruleset", "seed", "deals"], &["hand_number"]),
            "new_game" => (&["ruleset"], &["seed", "hand_number", "scores"]),
            "apply" => (&["game", "action"], &[]),
            "apply_action" => (&["game", "action"], &["seat"]),
            "undo" | "view" | "state" | "record" | "drop" => (&["game"], &[]),
            "observation" => (&["game", "seat"], &[]),
            "load_record" => (&["record"], &[]),
            "load_record_bytes" => (&["data"], &[]),
            "record_bytes" => (&["game", "format"], &[]),
            _ => return refuse("invalid-request", format!("unknown command {cmd:?}")),
        };
        let arguments = request.keys().filter(|k| *k != "id" && *k != "cmd");
        let mut given = 0;
        for key in arguments {
            if !required.contains(&key.as_str()) && !optional.contains(&key.as_str()) {
                return refuse(
                    "invalid-request",
                    format!("{cmd} takes no argument {key:?}"),
                );
            }
            given += 1;
        }
        let missing = required.iter().find(|key| !request.contains_key(**key));
        if let Some(key) = missing {
            return refuse(
                "invalid-request",
                format!("{cmd} needs {key:?} ({given} given)"),
            );
        }
        let arg = |key: &str| request.get(key).unwrap_or(&Value::Null);
        match cmd {
            "hello" => Ok(hello()),
            "quit" => Ok(Map::new()),
            "new_game" => {
                let table = new_table(
                    arg("ruleset"),
                    arg("seed"),
                    arg("hand_number"),
                    arg("scores"),
                    "invalid-setup",
                )?;
                Ok(self.keep(table))
            }
            "apply" => {
                self.table(request)?.apply(arg("action"))?;
                Ok(Map::new())
            }
            "view" => Ok(one("view", self.table(request)?.view())),
            "state" => {
                let table = self.table(request)?;
                // The engine's whole Game, private fields included, so that ERR-1 is checked on
                // the engine and not on the harness's copy of it.
                let state = json!({
                    "engine": format!("{:?}", table.game),
                    "fresh": table.fresh,
                    "actions": table.actions.len(),
                });
                Ok(one("state", state))
            }
            "record" => Ok(one("record", self.table(request)?.record())),
            "load_record" => {
                let table = load_record(arg("record"))?;
                Ok(self.keep(table))
            }
            "drop" => {
                self.table(request)?;
                if let Some(id) = arg("game").as_u64() {
                    self.games.remove(&id);
                }
                Ok(Map::new())
            }
            "ruleset" => {
                claimed_ruleset(arg("ruleset"))?;
                unsupported("lib-hearts has no rulesets: it plays one game")
            }
            "parse_card" => unsupported("lib-hearts reads no card text but its own emoji"),
            "seed_draws" | "deal_from_seed" => {
                unsupported("lib-hearts shuffles with rand::thread_rng: no SEED-1 draws or deals")
            }
            "apply_action" | "undo" => unsupported("action ids (ACT-2) and undo are not claimed"),
            "observation" => unsupported("observations (OBS-1) are not claimed"),
            _ => unsupported("encoded records (REC-3) are not claimed"),
        }
    }
}

fn one(key: &str, value: Value) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(key.into(), value);
    map
}

fn answer(id: Value, result: Result<Map<String, Value>, Refusal>) -> String {
    let mut body = Map::new();
    body.insert("id".into(), id);
    match result {
        Ok(results) => {
            body.insert("ok".into(), Value::Bool(true));
            body.extend(results);
        }
        Err(refusal) => {
            body.insert("ok".into(), Value::Bool(false));
            body.insert("error".into(), Value::from(refusal.code));
            body.insert("message".into(), Value::from(refusal.message));
        }
    }
    Value::Object(body).to_string()
}

fn main() -> io::Result<()> {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut driver = Driver {
        games: HashMap::new(),
        next_game: 0,
    };
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let (id, cmd, result) = match serde_json::from_slice::<Value>(&line) {
            Ok(Value::Object(request)) => {
                let id = request.get("id").cloned().unwrap_or(Value::Null);
                match request.get("cmd").and_then(Value::as_str) {
                    Some(cmd) => {
                        let result = driver.handle(cmd, &request);
                        (id, cmd.to_string(), result)
                    }
                    None => (
                        id,
                        String::new(),
                        refuse("invalid-request", "a request has a cmd"),
                    ),
                }
            }
            Ok(_) => (
                Value::Null,
                String::new(),
                refuse("invalid-request", "a request is an object"),
            ),
            Err(error) => (
                Value::Null,
                String::new(),
                refuse("invalid-request", format!("not JSON: {error}")),
            ),
        };
        let quit = cmd == "quit" && result.is_ok();
        writeln!(output, "{}", answer(id, result))?;
        output.flush()?;
        if quit {
            return Ok(());
        }
    }
}
