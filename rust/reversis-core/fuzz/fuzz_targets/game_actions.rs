//! Structured fuzzing of the state machine: the input's bytes pick a ruleset (a preset or one
//! built from the bytes), a seed or explicit deals, and a sequence of actions, legal and
//! illegal, some of them mangled JSON. After every step the invariants must hold:
//! - no panic; an error is typed (a code of spec/errors.md);
//! - a rejected action leaves the state exactly as it was (ERR-1);
//! - every card of the deck is in exactly one place (hands, tricks, passes in flight);
//! - the legal set is never empty while a seat must play;
//! - totals change only when a hand ends, by a row that adds up to the card total or a moon's;
//! - the game's record replays to the same state, in JSON and MessagePack.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use reversis_core::{
    dump_record, load_record, preset, preset_names, CardMultiset, FieldKind, Game, Phase,
    RecordFormat, Ruleset, FIELDS,
};
use serde_json::{json, Value};

struct Bytes<'a>(&'a [u8], usize);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        b
    }
    fn done(&self) -> bool {
        self.1 >= self.0.len()
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (u16::from_le_bytes([self.next(), self.next()]) as usize) % n
        }
    }
}

const CARDS: [&str; 53] = [
    "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2D", "3D",
    "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "2H", "3H", "4H", "5H",
    "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S",
    "8S", "9S", "TS", "JS", "QS", "KS", "AS", "XX",
];

fn built_ruleset(b: &mut Bytes) -> Option<Ruleset> {
    let players = 3 + b.below(5);
    let lowest = ["2", "5", "7"][b.below(3)];
    let low_index = CARDS.iter().position(|c| c.starts_with(lowest)).unwrap_or(0);
    let deck: Vec<&str> = CARDS[..52]
        .iter()
        .copied()
        .filter(|c| {
            let rank = CARDS.iter().position(|x| x == c).unwrap() % 13;
            rank >= low_index
        })
        .collect();
    // Remove cards from a byte-chosen start, wrapping round, until the deck divides evenly.
    let mut removed: Vec<&str> = Vec::new();
    let start = b.below(deck.len());
    let mut k = 0;
    while (deck.len() - removed.len()) % players != 0 {
        removed.push(deck[(start + k) % deck.len()]);
        k += 1;
    }
    removed.sort_unstable();
    let cycles = ["left", "right", "across", "hold"];
    let passing = if b.next() % 3 == 0 {
        Value::Null
    } else {
        let cycle: Vec<&str> = (0..1 + b.below(4)).map(|_| cycles[b.below(4)]).collect();
        json!({"cycle": cycle, "size": b.below(5)})
    };
    let mut points = serde_json::Map::new();
    for _ in 0..b.below(8) {
        let value = (b.next() as i8) as i64;
        points.insert(deck[b.below(deck.len())].to_owned(), json!(value));
    }
    let moon = match b.next() % 4 {
        0 => Value::Null,
        k => {
            let scoring = ["add-to-others", "subtract-from-taker", "taker-choice"][k as usize - 1];
            json!({"scoring": scoring, "bonus": 1 + b.below(30)})
        }
    };
    let opening = if b.next() % 2 == 0 {
        Value::Null
    } else {
        json!(deck[b.below(deck.len())])
    };
    let breaking = ["none", "heart", "heart-or-QS"][b.below(3)];
    let mut value = json!({
        "name": "fuzz",
        "players": players,
        "deck": {"lowest_rank": lowest, "removed": removed},
        "passing": passing,
        "opening_card": opening,
        "first_trick_ban": b.next() % 2 == 0,
        "hearts_breaking": breaking,
        "card_points": points,
        "moon": moon,
        "target": 1 + b.below(60),
    });
    // Every field of a simple kind of the table left out above, set or not by the bytes: a
    // field the schema gains is fuzzed with no change here.
    for f in FIELDS.iter().filter(|f| f.is_simple()) {
        if value.get(f.name).is_none() && b.next() % 2 == 0 {
            value[f.name] = simple_value(f.kind, b.next());
        }
    }
    Ruleset::from_value(&value).ok()
}

// A value of a field of a simple kind, picked by `byte`: a boolean, a string of the enumeration,
// or an integer from its least value (or 0) up by 0 to 3, within its greatest.
fn simple_value(kind: FieldKind, byte: u8) -> Value {
    match kind {
        FieldKind::Boolean => json!(byte % 2 == 0),
        FieldKind::Enum(names) => json!(names[byte as usize % names.len()]),
        FieldKind::Integer { min, max } => {
            let x = min.unwrap_or(0) + i128::from(byte % 4);
            let x = max.map_or(x, |m| x.min(m));
            json!(x as i64)
        }
        FieldKind::Other => Value::Null,
    }
}

fn check_cards(game: &Game) {
    let n = game.ruleset().players();
    // Every copy (RS-21): with two packs a card may be in two places, never in more than the
    // deck holds.
    let deck = game.ruleset().deck_cards();
    let mut seen = CardMultiset::default();
    let mut add = |cards: CardMultiset| {
        for card in cards.to_vec() {
            assert!(seen.count(card) < deck.count(card), "a card is in more places than copies");
            seen.insert(card);
        }
    };
    for seat in 0..n {
        add(game.hand(seat).unwrap());
        if game.received(seat).unwrap().is_none() {
            if let Some(passed) = game.passed(seat).unwrap() {
                add(passed);
            }
        }
    }
    for (_, card) in game.trick() {
        add(CardMultiset::from_iter([card]));
    }
    for trick in game.tricks_json().as_array().unwrap() {
        for played in trick["cards"].as_array().unwrap() {
            let card = reversis_core::Card::parse(played["card"].as_str().unwrap()).unwrap();
            add(CardMultiset::from_iter([card]));
        }
    }
    match game.phase() {
        Phase::Pass | Phase::Play | Phase::Moon => assert_eq!(seen, deck, "cards lost"),
        Phase::Deal | Phase::Over => {}
    }
}

fn allowed_sums(rules: &Ruleset) -> Vec<i64> {
    let values: Vec<i64> = rules
        .deck()
        .into_iter()
        .map(|c| rules.points_of(c) as i64)
        .collect();
    let positive: i64 = values.iter().filter(|v| **v > 0).sum();
    let negative: i64 = values.iter().filter(|v| **v < 0).sum();
    let mut sums = vec![positive + negative];
    if let Some(moon) = rules.moon() {
        let bonus = moon.bonus as i64;
        sums.push(negative + (rules.players() as i64 - 1) * bonus);
        sums.push(negative - bonus);
    }
    sums
}

fn legal_action(game: &Game, b: &mut Bytes) -> Option<Value> {
    match game.phase() {
        Phase::Pass => {
            let awaiting = game.awaiting_pass();
            let seat = awaiting[b.below(awaiting.len())];
            let size = game.ruleset().passing()?.size;
            let mut hand: Vec<String> = game.hand(seat).ok()?.to_strings();
            let mut cards = Vec::new();
            for _ in 0..size {
                cards.push(hand.remove(b.below(hand.len())));
            }
            Some(json!({"type": "pass", "seat": seat, "cards": cards}))
        }
        Phase::Play => {
            let legal = game.legal_plays().to_strings();
            assert!(!legal.is_empty(), "no legal play for the seat to move");
            let card = &legal[b.below(legal.len())];
            Some(json!({"type": "play", "seat": game.to_move()?, "card": card}))
        }
        Phase::Moon => {
            let choice = ["add-to-others", "subtract-from-taker"][b.below(2)];
            Some(json!({"type": "moon", "seat": game.moon_taker()?, "choice": choice}))
        }
        Phase::Deal => {
            let rules = game.ruleset();
            let mut deck = rules.deck().to_strings();
            let n = rules.players();
            let mut hands = vec![Vec::new(); n];
            let mut seat = 0;
            while !deck.is_empty() {
                let card = deck.remove(b.below(deck.len()));
                hands[seat % n].push(card);
                seat += 1;
            }
            Some(json!({"type": "deal", "hands": hands}))
        }
        Phase::Over => None,
    }
}

fn mangle(action: Value, b: &mut Bytes) -> Value {
    let junk = [
        json!(null),
        json!(-1),
        json!(u64::MAX),
        json!(1.5),
        json!("ZZ"),
        json!([]),
        json!({}),
        json!(true),
        json!("2C"),
        json!(["2C", "2C", "3C"]),
    ];
    let mut action = action;
    let keys = ["type", "seat", "card", "cards", "hands", "choice", "extra"];
    let key = keys[b.below(keys.len())];
    if b.next() % 4 == 0 {
        if let Some(map) = action.as_object_mut() {
            map.remove(key);
        }
    } else if let Some(map) = action.as_object_mut() {
        map.insert(key.to_owned(), junk[b.below(junk.len())].clone());
    }
    action
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data, 0);
    let rules = if b.next() % 2 == 0 {
        let names = preset_names();
        preset(names[b.below(names.len())]).unwrap()
    } else {
        match built_ruleset(&mut b) {
            Some(rules) => Arc::new(rules),
            None => return,
        }
    };
    let seed = if b.next() % 2 == 0 {
        None
    } else {
        Some(u64::from_le_bytes([b.next(), b.next(), b.next(), b.next(), 0, 0, 0, b.next()]))
    };
    let mut game = Game::new(rules.clone(), seed, b.below(10) as u64, None).unwrap();
    let sums = allowed_sums(&rules);
    let mut steps = 0;
    while !b.done() && steps < 2000 {
        steps += 1;
        let before = game.state_json();
        let totals = game.scores().to_vec();
        let hands_done = game.hand_scores().len();
        let op = b.next() % 8;
        let action = match op {
            0..=4 => match legal_action(&game, &mut b) {
                Some(action) => action,
                None => json!({"type": "play", "seat": 0, "card": "2C"}),
            },
            5 => json!({"type": "play", "seat": b.below(8), "card": CARDS[b.below(53)]}),
            6 => {
                let base = legal_action(&game, &mut b)
                    .unwrap_or_else(|| json!({"type": "moon", "seat": 0, "choice": "x"}));
                mangle(base, &mut b)
            }
            _ => json!({
                "type": "pass",
                "seat": b.below(8),
                "cards": (0..b.below(5)).map(|_| CARDS[b.below(53)]).collect::<Vec<_>>(),
            }),
        };
        match game.apply_value(&action) {
            Ok(()) => {
                if game.hand_scores().len() == hands_done {
                    assert_eq!(game.scores(), &totals[..], "totals changed mid-hand");
                } else {
                    let scored = game.hand_scores();
                    let row = scored.last().unwrap();
                    assert!(sums.contains(&row.iter().sum()), "hand scores {row:?} vs {sums:?}");
                }
            }
            Err(error) => {
                let _ = error.code().as_str();
                assert_eq!(game.state_json(), before, "a rejected {action} changed the state");
            }
        }
        check_cards(&game);
    }
    let record = game.to_record();
    for format in [RecordFormat::Json, RecordFormat::MsgPack] {
        let bytes = dump_record(&record, format).unwrap();
        let loaded = load_record(&bytes).unwrap();
        let replayed = Game::from_record(&loaded).unwrap();
        assert_eq!(replayed.state_json(), game.state_json());
    }
});
