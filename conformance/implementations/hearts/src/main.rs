//! The crates.io crate `hearts` 0.1.1 behind the reversis driver protocol (spec/driver.md).
//!
//! Every rule answer comes from `hearts`: `Round::from_deal` checks a deal, `Round::pass` and
//! `Round::play` accept or reject an action and say which rule it breaks (`RoundError`),
//! `Round::legal_plays`, `Trick::winner` and `Trick::points` give the legal cards, the winner
//! and the value of a trick, `RoundResult::scores` prices the moon, `Game` keeps the totals,
//! the pass direction and the end of the match, and `Card::from_str` reads card text. This
//! file translates JSON to those types and back, and keeps what the protocol needs and the
//! crate does not: the list of actions (for records) and the scores of each hand.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use hearts::round::{DealError, RoundError};
use hearts::{Card, Game, Hand, PassDirection, Phase, Round, Rules, Seat, Trick};
use serde_json::{Map, Value, json};

const SEATS: usize = 4;

/// The presets whose rules `hearts` plays (README.md compares them field by field).
const PRESETS: [&str; 2] = ["hearts-4", "hearts-computer"];

/// A rejected request: a code of spec/errors.md or of the protocol, and why.
struct Failure {
    code: &'static str,
    message: String,
}

fn fail<T>(code: &'static str, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { code, message: message.into() })
}

type Answer = Result<Map<String, Value>, Failure>;

fn answer(pairs: Vec<(&str, Value)>) -> Answer {
    Ok(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

// ----------------------------------------------------------------------------- presets

/// The preset's canonical object, as spec/rulesets/NAME.json holds it.
fn preset_object(name: &str) -> Value {
    let hearts = "23456789TJQKA".chars().map(|rank| (format!("{rank}H"), json!(1)));
    let mut card_points: Map<String, Value> = hearts.collect();
    card_points.insert("QS".into(), json!(13));
    let (title, sources, breaking, moon) = if name == "hearts-4" {
        (
            "Classic Hearts, 4 players",
            json!([
                "002_a19656d00d6dcc0e.txt",
                "004_6369656a193d5fe2.txt",
                "D-1",
                "D-2",
                "D-4",
                "D-5"
            ]),
            "heart-or-QS",
            "taker-choice",
        )
    } else {
        (
            "Computer-table Hearts",
            json!(["001_8139d5a4893f2ae5.txt", "D-2", "D-4"]),
            "heart",
            "add-to-others",
        )
    };
    json!({
        "name": name,
        "title": title,
        "sources": sources,
        "players": SEATS,
        "deck": {"lowest_rank": "2", "removed": []},
        "passing": {"cycle": ["left", "right", "across", "hold"], "size": 3},
        "opening_card": "2C",
        "first_trick_ban": true,
        "hearts_breaking": breaking,
        "card_points": card_points,
        "moon": {"scoring": moon, "bonus": 26},
        "target": 100,
    })
}

/// The claimed preset a ruleset argument names (a name, or an object equal to the preset).
fn find_preset(ruleset: &Value) -> Result<&'static str, Failure> {
    let found = match ruleset {
        Value::String(name) => PRESETS.iter().find(|p| *p == name),
        Value::Object(_) => PRESETS.iter().find(|p| preset_object(p) == *ruleset),
        _ => return fail("invalid-ruleset", "a ruleset is a preset name or an object"),
    };
    match found {
        Some(name) => Ok(name),
        None => fail(
            "unsupported",
            format!(
                "hearts 0.1.1 plays one fixed set of rules; only the presets {PRESETS:?} are claimed"
            ),
        ),
    }
}

// ----------------------------------------------------------------------------- notation

/// CARD-3 from the crate's own letters (its `Display` prints suit symbols).
fn card_name(card: Card) -> String {
    format!("{}{}", card.rank.letter(), card.suit.letter())
}

/// A set of cards in CARD-2 order: `Hand` iterates clubs to spades, 2 to A.
fn names(cards: Hand) -> Value {
    cards.into_iter().map(card_name).collect()
}

/// Card text is read by the crate's parser (`Card::from_str`), never by the harness.
fn read_card(value: &Value) -> Result<Card, Failure> {
    let Value::String(text) = value else {
        return fail("invalid-card", format!("a card is a string, not {value}"));
    };
    text.parse().or_else(|error| fail("invalid-card", format!("{text:?}: {error}")))
}

/// A list of cards as the crate's set type. `Hand` is a set: a list naming a card twice has
/// no `Hand`, so the crate cannot be asked about it.
fn read_set(cards: &[Card], what: &str) -> Result<Hand, Failure> {
    let mut set = Hand::EMPTY;
    for &card in cards {
        if !set.insert(card) {
            return fail(
                "unsupported",
                format!(
                    "{what} names {} twice; hearts takes cards as a set (hearts::Hand)",
                    card_name(card)
                ),
            );
        }
    }
    Ok(set)
}

fn direction_name(direction: PassDirection) -> &'static str {
    match direction {
        PassDirection::Left => "left",
        PassDirection::Right => "right",
        PassDirection::Across => "across",
        PassDirection::Hold => "hold",
    }
}

fn trick_cards(trick: Trick) -> Value {
    trick
        .plays()
        .map(|(seat, card)| json!({"seat": seat as usize, "card": card_name(card)}))
        .collect()
}

fn completed_trick(trick: Trick) -> Value {
    json!({
        "leader": trick.leader() as usize,
        "cards": trick_cards(trick),
        "winner": trick.winner().map(|seat| seat as usize),
        "points": trick.points(),
    })
}

/// Where the crate names the rule a play or pass breaks, the code of spec/errors.md for it.
fn round_error(error: RoundError) -> Failure {
    let code = match error {
        RoundError::WrongPhase(_) => "wrong-phase",
        RoundError::NotYourTurn(_) => "wrong-seat",
        RoundError::AlreadyPassed(_) => "already-passed",
        RoundError::WrongPassCount(_) => "wrong-pass-size",
        RoundError::NotInHand(_) => "card-not-held",
        RoundError::MustLeadTwoOfClubs => "must-lead-opening-card",
        RoundError::MustFollowSuit(_) => "must-follow-suit",
        RoundError::HeartsNotBroken => "hearts-not-broken",
        RoundError::FirstTrickPenalty(_) => "points-on-first-trick",
        // Only a `Hand` built from raw bits can hold a non-card; the harness builds none.
        RoundError::UnknownCard => "invalid-card",
        other => panic!("hearts 0.1.1 has no RoundError {other:?}"),
    };
    Failure { code, message: error.to_string() }
}

fn deal_error(error: DealError) -> Failure {
    Failure { code: "invalid-deal", message: error.to_string() }
}

// ----------------------------------------------------------------------------- actions

enum Action {
    Deal([Vec<Card>; SEATS]),
    Pass(Vec<Card>),
    Play(Card),
    Moon,
}

fn read_cards(value: &Value) -> Result<Vec<Card>, Failure> {
    let Some(cards) = value.as_array() else {
        return fail("invalid-action", format!("cards are an array, not {value}"));
    };
    cards.iter().map(read_card).collect()
}

/// ACT-1, checked in ERR-4's order: the shape, then the cards, then a seat outside the table.
/// The seat is `None` for a deal.
fn read_action(action: &Value) -> Result<(Action, Option<Seat>), Failure> {
    let shape = |message: String| fail("invalid-action", message);
    let Some(fields) = action.as_object() else {
        return shape(format!("an action is an object, not {action}"));
    };
    let kind = fields.get("type").and_then(Value::as_str).unwrap_or("");
    let keys: &[&str] = match kind {
        "deal" => &["type", "hands"],
        "pass" => &["type", "seat", "cards"],
        "play" => &["type", "seat", "card"],
        "moon" => &["type", "seat", "choice"],
        _ => return shape(format!("no action type {:?}", fields.get("type"))),
    };
    if fields.len() != keys.len() || keys.iter().any(|key| !fields.contains_key(*key)) {
        return shape(format!("a {kind} action has exactly the keys {keys:?}"));
    }
    let seat = fields.get("seat").map(|seat| seat.as_u64().ok_or(seat));
    if let Some(Err(seat)) = seat {
        return shape(format!("a seat is an integer 0 … 2⁶⁴−1, not {seat}"));
    }
    let action = match kind {
        "deal" => {
            let hands =
                fields["hands"].as_array().filter(|hands| hands.iter().all(Value::is_array));
            let Some(hands) = hands else {
                return shape("a deal's hands are an array of arrays".into());
            };
            let hands: Vec<Vec<Card>> = hands.iter().map(read_cards).collect::<Result<_, _>>()?;
            let count = hands.len();
            let Ok(hands) = hands.try_into() else {
                let why = format!("{count} hands: hearts::Round::from_deal takes exactly four");
                return fail("unsupported", why);
            };
            Action::Deal(hands)
        }
        "pass" => Action::Pass(read_cards(&fields["cards"])?),
        "play" => Action::Play(read_card(&fields["card"])?),
        _ if matches!(fields["choice"].as_str(), Some("add-to-others" | "subtract-from-taker")) => {
            Action::Moon
        }
        _ => return shape("a moon choice is add-to-others or subtract-from-taker".into()),
    };
    match seat {
        Some(Ok(seat)) if seat >= SEATS as u64 => {
            shape(format!("no seat {seat} at a table of four"))
        }
        Some(Ok(seat)) => Ok((action, Some(Seat::ALL[seat as usize]))),
        _ => Ok((action, None)),
    }
}

// ----------------------------------------------------------------------------- the match

/// One match: the crate's `Game` and the `Round` in play, with the protocol's bookkeeping.
struct Match {
    preset: &'static str,
    start_hand: u64,
    start_scores: Vec<Value>,
    game: Game,
    /// The hand in play; `None` while waiting for a deal.
    round: Option<Round>,
    /// The hand that ended the match, which the view keeps showing (DRV-6 `over`).
    last: Option<Round>,
    hand_scores: Vec<[u16; SEATS]>,
    actions: Vec<Value>,
}

/// Read a start (`hand_number`, `scores`) and build the crate's `Game` for it. `Game::new`
/// starts at hand 0 from zero totals; its serde form is the crate's way to start elsewhere.
fn start_game(hand_number: &Value, scores: &Value) -> Result<(u64, Vec<Value>, Game), Failure> {
    let hand = match hand_number {
        Value::Null => 0,
        value => match value.as_u64() {
            Some(hand) => hand,
            None => {
                return fail(
                    "invalid-setup",
                    format!("a hand number is an integer 0 … 2⁶⁴−1, not {value}"),
                );
            }
        },
    };
    let totals: Vec<i64> = match scores {
        Value::Null => vec![0; SEATS],
        Value::Array(items) if items.len() == SEATS && items.iter().all(Value::is_i64) => {
            items.iter().filter_map(Value::as_i64).collect()
        }
        value => {
            return fail("invalid-setup", format!("scores are four integers, not {value}"));
        }
    };
    let Ok(deals) = u32::try_from(hand) else {
        return fail("unsupported", format!("hand {hand}: hearts::Game counts hands in a u32"));
    };
    let mut kept = [0u16; SEATS];
    for (slot, &total) in kept.iter_mut().zip(&totals) {
        let Ok(total) = u16::try_from(total) else {
            return fail(
                "unsupported",
                format!("a total of {total}: hearts::Game keeps totals as u16"),
            );
        };
        *slot = total;
    }
    let mut form = serde_json::to_value(Game::new(Rules::new())).expect("a Game serializes");
    form["scores"] = json!(kept);
    form["deals"] = json!(deals);
    let game = serde_json::from_value(form).expect("hearts reads back the Game form it writes");
    Ok((hand, totals.into_iter().map(Value::from).collect(), game))
}

impl Match {
    fn new(
        preset: &'static str,
        seed: &Value,
        hand_number: &Value,
        scores: &Value,
    ) -> Result<Self, Failure> {
        if !seed.is_null() {
            if seed.as_u64().is_none() {
                return fail(
                    "invalid-setup",
                    format!("a seed is an integer 0 … 2⁶⁴−1, not {seed}"),
                );
            }
            return fail(
                "unsupported",
                "hearts deals from its own rand::Rng shuffle, not from reversis seeds (seeding.md)",
            );
        }
        let (start_hand, start_scores, game) = start_game(hand_number, scores)?;
        Ok(Self {
            preset,
            start_hand,
            start_scores,
            game,
            round: None,
            last: None,
            hand_scores: Vec::new(),
            actions: Vec::new(),
        })
    }

    fn phase(&self) -> &'static str {
        if self.game.is_over() {
            return "over";
        }
        match self.round.as_ref().map(Round::phase) {
            None => "deal",
            Some(Phase::Passing) => "pass",
            Some(Phase::Playing) => "play",
            Some(Phase::Finished) => unreachable!("a finished round is recorded at once"),
        }
    }

    fn apply(&mut self, action: &Value) -> Result<(), Failure> {
        let (action, seat) = read_action(action)?;
        let seat = seat.unwrap_or(Seat::North); // a deal has no seat and reads none
        if self.game.is_over() {
            return fail("match-over", "hearts::Game::is_over: a seat has reached the target");
        }
        let phase = self.phase();
        let wrong_phase = || fail("wrong-phase", format!("not possible in phase {phase:?}"));
        let record = match action {
            Action::Deal(hands) => {
                if self.round.is_some() {
                    return wrong_phase();
                }
                let mut sets = [Hand::EMPTY; SEATS];
                for (set, hand) in sets.iter_mut().zip(&hands) {
                    *set = read_set(hand, "a hand of the deal")?;
                }
                let rules = *self.game.rules();
                let round = Round::from_deal(rules, self.game.next_direction(), sets)
                    .map_err(deal_error)?;
                self.round = Some(round);
                json!({"type": "deal", "hands": sets.map(names)})
            }
            Action::Pass(cards) => {
                let Some(round) = self.round.as_mut() else {
                    return wrong_phase();
                };
                let set = read_set(&cards, "the pass")?;
                round.pass(seat, set).map_err(round_error)?;
                json!({"type": "pass", "seat": seat as usize, "cards": names(set)})
            }
            Action::Play(card) => {
                let Some(round) = self.round.as_mut() else {
                    return wrong_phase();
                };
                round.play(seat, card).map_err(round_error)?;
                json!({"type": "play", "seat": seat as usize, "card": card_name(card)})
            }
            // The crate has no moon phase: `RoundResult::scores` prices a moon as soon as the
            // last trick is taken, so a moon choice belongs to none of its phases.
            Action::Moon => return wrong_phase(),
        };
        self.actions.push(record);
        self.score_if_finished();
        Ok(())
    }

    fn score_if_finished(&mut self) {
        let Some(result) = self.round.as_ref().and_then(Round::result) else {
            return;
        };
        self.hand_scores.push(result.scores(self.game.rules()));
        self.game.record(result).expect("a game that is not over records a hand");
        let finished = self.round.take();
        if self.game.is_over() {
            self.last = finished;
        }
    }

    /// DRV-6, without the keys of `action_ids` (not claimed).
    fn view(&self) -> Value {
        let phase = self.phase();
        let shown = self.round.as_ref().or(self.last.as_ref());
        let deals = u64::from(self.game.deals());
        let hand_number = if self.last.is_some() { deals - 1 } else { deals };
        let direction = shown.map_or(self.game.next_direction(), Round::direction);
        let playing = self.round.as_ref().filter(|round| round.phase() == Phase::Playing);
        let to_move = playing.and_then(Round::turn);
        let tricks: Vec<Value> = shown.map_or(Vec::new(), |round| {
            round.tricks().iter().copied().map(completed_trick).collect()
        });
        let winners: Vec<usize> = self
            .game
            .final_score()
            .map_or(Vec::new(), |score| score.winners().map(|seat| seat as usize).collect());
        json!({
            "phase": phase,
            "hand_number": hand_number,
            "dealer": hand_number % SEATS as u64,
            "pass_direction": direction_name(direction),
            "to_move": to_move.map(|seat| seat as usize),
            "moon_taker": null,
            "awaiting_pass": self.round.as_ref().filter(|round| round.phase() == Phase::Passing)
                .map_or(Vec::new(), |round| {
                    Seat::ALL.into_iter().filter(|&seat| round.passed(seat).is_none())
                        .map(|seat| seat as usize).collect()
                }),
            "legal": names(match (playing, to_move) {
                (Some(round), Some(seat)) => round.legal_plays(seat),
                _ => Hand::EMPTY,
            }),
            "hands": Seat::ALL.map(|seat| names(self.round.as_ref().map_or(Hand::EMPTY, |round| round.hand(seat)))),
            "trick": playing.and_then(Round::current_trick).map_or(json!([]), trick_cards),
            "last_trick": tricks.last().cloned(),
            "tricks": tricks,
            "hearts_broken": shown.is_some_and(Round::hearts_broken),
            "points": Seat::ALL.map(|seat| shown.map_or(0, |round| round.points_taken(seat))),
            "scores": self.game.scores(),
            "hand_scores": self.hand_scores,
            "winners": winners,
            "count_down": false,
        })
    }

    /// Equal before and after a rejected action: the crate's own serialized position.
    fn state(&self) -> Value {
        json!({
            "game": serde_json::to_value(self.game).expect("a Game serializes"),
            "round": serde_json::to_value(&self.round).expect("a Round serializes"),
            "actions": self.actions.len(),
        })
    }

    fn record(&self) -> Value {
        json!({
            "format": "reversis-record",
            "version": 1,
            "ruleset": preset_object(self.preset),
            "seed": null,
            "start": {"hand_number": self.start_hand, "scores": self.start_scores},
            "actions": self.actions,
        })
    }

    fn from_record(record: &Value) -> Result<Self, Failure> {
        let invalid = |message: String| fail("invalid-record", message);
        let Some(fields) = record.as_object() else {
            return invalid("a record is an object".into());
        };
        let required = ["format", "version", "ruleset", "seed", "start", "actions"];
        let allowed = |key: &String| required.contains(&key.as_str()) || key == "spec_version";
        if !required.iter().all(|key| fields.contains_key(*key)) || !fields.keys().all(allowed) {
            return invalid(format!("a record has exactly the keys {required:?}"));
        }
        if fields["format"] != "reversis-record" || fields["version"] != 1 {
            return invalid("not a version-1 reversis record".into());
        }
        let (Some(start), Some(actions)) =
            (fields["start"].as_object(), fields["actions"].as_array())
        else {
            return invalid("a record's start is an object and its actions an array".into());
        };
        let (Some(hand), Some(scores)) = (start.get("hand_number"), start.get("scores")) else {
            return invalid("a record's start holds hand_number and scores".into());
        };
        let preset = find_preset(&fields["ruleset"]).or_else(|error| rejected("ruleset", error))?;
        let mut game = Self::new(preset, &fields["seed"], hand, scores)
            .or_else(|error| rejected("start", error))?;
        for (index, action) in actions.iter().enumerate() {
            game.apply(action).or_else(|error| rejected(&format!("action {index}"), error))?;
        }
        Ok(game)
    }
}

/// A record's part the replay rejects is `invalid-record` (REC-2), unless the crate cannot
/// express it at all.
fn rejected<T>(what: &str, error: Failure) -> Result<T, Failure> {
    match error.code {
        "unsupported" => Err(error),
        _ => fail("invalid-record", format!("{what}: {}", error.message)),
    }
}

// ----------------------------------------------------------------------------- the driver

struct Driver {
    games: BTreeMap<u64, Match>,
    next_game: u64,
}

/// Each command's arguments: required, then optional (DRV-3).
fn arguments(command: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match command {
        "hello" | "quit" => (&[], &[]),
        "parse_card" => (&["text"], &[]),
        "ruleset" => (&["ruleset"], &[]),
        "seed_draws" => (&["seed", "count"], &[]),
        "deal_from_seed" => (&["ruleset", "seed", "deals"], &["hand_number"]),
        "new_game" => (&["ruleset"], &["seed", "hand_number", "scores"]),
        "apply" => (&["game", "action"], &[]),
        "apply_action" => (&["game", "action"], &["seat"]),
        "observation" => (&["game", "seat"], &[]),
        "record_bytes" => (&["game", "format"], &[]),
        "undo" | "view" | "state" | "record" | "drop" => (&["game"], &[]),
        "load_record" => (&["record"], &[]),
        "load_record_bytes" => (&["data"], &[]),
        _ => return None,
    })
}

impl Driver {
    fn keep(&mut self, game: Match) -> Answer {
        self.next_game += 1;
        self.games.insert(self.next_game, game);
        answer(vec![("game", json!(self.next_game))])
    }

    fn game(&mut self, args: &Map<String, Value>) -> Result<&mut Match, Failure> {
        let id = &args["game"];
        match id.as_u64().and_then(|id| self.games.get_mut(&id)) {
            Some(game) => Ok(game),
            None => fail("invalid-request", format!("no game {id}")),
        }
    }

    fn handle(&mut self, command: &str, args: &Map<String, Value>) -> Answer {
        let Some((required, optional)) = arguments(command) else {
            return fail("invalid-request", format!("unknown command {command:?}"));
        };
        if !required.iter().all(|key| args.contains_key(*key))
            || !args
                .keys()
                .all(|key| required.contains(&key.as_str()) || optional.contains(&key.as_str()))
        {
            return fail(
                "invalid-request",
                format!("{command} takes {required:?} and optionally {optional:?}"),
            );
        }
        let arg = |key: &str| args.get(key).unwrap_or(&Value::Null);
        match command {
            "hello" => answer(vec![
                ("name", json!("hearts (crates.io, jdh8)")),
                ("version", json!("0.1.1")),
                ("protocol", json!(1)),
                ("spec_version", json!("1.3.0")),
                ("capabilities", capabilities()),
            ]),
            "quit" => answer(vec![]),
            "parse_card" => answer(vec![("card", json!(card_name(read_card(arg("text"))?)))]),
            "ruleset" => {
                let preset = find_preset(arg("ruleset"))?;
                let point_cards: Hand =
                    Hand::ALL.into_iter().filter(|card| card.points() > 0).collect();
                answer(vec![
                    ("ruleset", preset_object(preset)),
                    ("hand_size", json!(Hand::ALL.len() / SEATS)),
                    ("deck", names(Hand::ALL)),
                    ("point_cards", names(point_cards)),
                ])
            }
            "seed_draws" | "deal_from_seed" => fail(
                "unsupported",
                "hearts deals from its own rand::Rng shuffle, not from reversis seeds (seeding.md)",
            ),
            "new_game" => {
                let preset = find_preset(arg("ruleset"))?;
                let game = Match::new(preset, arg("seed"), arg("hand_number"), arg("scores"))?;
                self.keep(game)
            }
            "apply" => {
                self.game(args)?.apply(arg("action"))?;
                answer(vec![])
            }
            "view" => answer(vec![("view", self.game(args)?.view())]),
            "state" => answer(vec![("state", self.game(args)?.state())]),
            "record" => answer(vec![("record", self.game(args)?.record())]),
            "load_record" => {
                let game = Match::from_record(arg("record"))?;
                self.keep(game)
            }
            "drop" => {
                self.game(args)?;
                self.games.remove(&arg("game").as_u64().unwrap_or_default());
                answer(vec![])
            }
            _ => {
                // apply_action, undo, observation, record_bytes, load_record_bytes: hearts has
                // no action ids, no undo, no per-seat observation and no record encoding.
                if args.contains_key("game") {
                    self.game(args)?;
                }
                fail("unsupported", format!("hearts 0.1.1 has nothing that serves {command}"))
            }
        }
    }
}

/// DRV-4: what `hearts` itself decides (README.md says why each claim is made or not).
fn capabilities() -> Value {
    json!({
        "players": [SEATS],
        "presets": PRESETS,
        "custom_rulesets": false,
        "kinds": ["card", "game", "perft"],
        "observations": false,
        "error_codes": true,
        "action_ids": false,
        "observation_tensor": false,
        // hearts-4 played by hearts: only a heart breaks hearts, and the moon is always
        // scored add-to-others (RoundResult::scores).
        "variants": {"hearts-4": {
            "hearts_breaking": "heart",
            "moon": {"scoring": "add-to-others", "bonus": 26},
        }},
    })
}

fn respond(id: Value, body: Result<Map<String, Value>, Failure>) -> String {
    let mut line = Map::new();
    line.insert("id".into(), id);
    match body {
        Ok(results) => {
            line.insert("ok".into(), json!(true));
            line.extend(results);
        }
        Err(failure) => {
            line.insert("ok".into(), json!(false));
            line.insert("error".into(), json!(failure.code));
            line.insert("message".into(), json!(failure.message));
        }
    }
    Value::Object(line).to_string()
}

fn main() -> io::Result<()> {
    let mut driver = Driver { games: BTreeMap::new(), next_game: 0 };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut output = io::stdout().lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&raw);
        if text.trim().is_empty() {
            continue;
        }
        let request = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(request)) => request,
            Ok(_) => {
                writeln!(
                    output,
                    "{}",
                    respond(Value::Null, fail("invalid-request", "a request is an object"))
                )?;
                output.flush()?;
                continue;
            }
            Err(error) => {
                writeln!(
                    output,
                    "{}",
                    respond(Value::Null, fail("invalid-request", format!("not JSON: {error}")))
                )?;
                output.flush()?;
                continue;
            }
        };
        let mut args = request;
        let id = args.remove("id").unwrap_or(Value::Null);
        let body = match args.remove("cmd") {
            Some(Value::String(command)) => {
                let body = driver.handle(&command, &args);
                if command == "quit" && body.is_ok() {
                    writeln!(output, "{}", respond(id, body))?;
                    output.flush()?;
                    return Ok(());
                }
                body
            }
            _ => fail("invalid-request", "a request names its cmd as a string"),
        };
        writeln!(output, "{}", respond(id, body))?;
        output.flush()?;
    }
}
