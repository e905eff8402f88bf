//! Helpers shared by the integration tests.
#![allow(dead_code)]

use reversis_core::{preset, preset_names, Card, CardSet, FieldKind, Game, Phase, Ruleset, FIELDS};
use serde_json::Value;

/// Cards from a space-separated list of card strings.
pub fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// A card set from a space-separated list.
pub fn set(s: &str) -> CardSet {
    cards(s).into_iter().collect()
}

/// A card.
pub fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// An unseeded game of `ruleset` at `hand_number`, dealt the given hands.
pub fn dealt(ruleset: Ruleset, hand_number: u64, hands: &[&str]) -> Game {
    let mut g = Game::new(ruleset, None, hand_number, None).unwrap();
    g.deal(Some(hands.iter().map(|h| cards(h)).collect()))
        .unwrap();
    g
}

/// A preset by name, as an owned value.
pub fn rules(name: &str) -> Ruleset {
    (*preset(name).unwrap()).clone()
}

/// A preset changed by `f` on its JSON form.
pub fn modified(name: &str, f: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Ruleset {
    let mut v = preset(name).unwrap().to_value();
    f(v.as_object_mut().unwrap());
    Ruleset::from_value(&v).unwrap()
}

/// The seat to move plays `c`; panics with the error if it is rejected.
pub fn play(g: &mut Game, c: &str) {
    let seat = g.to_move().expect("a seat to move");
    g.play(card(c), Some(seat))
        .unwrap_or_else(|e| panic!("play {c} by seat {seat}: {} ({})", e.code, e.message));
}

/// Plays a space-separated script of cards, each by the seat to move.
pub fn play_script(g: &mut Game, script: &str) {
    for c in script.split_whitespace() {
        play(g, c);
    }
}

/// Plays until the phase is no longer `play`: the seat to move plays the first legal card of
/// its preference list (space-separated), else its lowest legal card.
pub fn play_out(g: &mut Game, prefs: &[&str]) {
    let hand = g.hand_number();
    while g.phase() == Phase::Play && g.hand_number() == hand {
        let seat = g.to_move().unwrap();
        let legal = g.legal_plays();
        let pick = prefs
            .get(seat)
            .map(|p| cards(p))
            .unwrap_or_default()
            .into_iter()
            .find(|c| legal.contains(*c))
            .or_else(|| legal.first())
            .unwrap();
        g.play(pick, Some(seat)).unwrap();
    }
}

/// Plays random legal cards (lowest legal) until the hand number changes or the game leaves
/// phase play/pass; passes the three lowest cards where a pass is due.
pub fn finish_hand_lowest(g: &mut Game) {
    let hand = g.hand_number();
    loop {
        if g.hand_number() != hand {
            return;
        }
        match g.phase() {
            Phase::Pass => {
                let seat = g.awaiting_pass()[0];
                let size = g.ruleset().passing().unwrap().size;
                let cs = g.hand(seat).unwrap().to_vec()[..size].to_vec();
                g.pass_cards(cs, Some(seat)).unwrap();
            }
            Phase::Play => {
                let c = g.legal_plays().first().unwrap();
                g.play(c, None).unwrap();
            }
            Phase::Moon => {
                g.choose_moon(reversis_core::MoonChoice::AddToOthers, None)
                    .unwrap();
            }
            _ => return,
        }
    }
}

/// Every value a field of a simple kind of the table takes in the tests: both booleans, every
/// string of an enumeration, an integer's least value and the next (or 1 and 2 without a least).
pub fn simple_values(kind: FieldKind) -> Vec<Value> {
    match kind {
        FieldKind::Boolean => vec![false.into(), true.into()],
        FieldKind::Enum(names) => names.iter().map(|&n| n.into()).collect(),
        FieldKind::Integer { min, max } => {
            let lo = min
                .unwrap_or(1)
                .clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
            let mut v = vec![Value::from(lo)];
            if max.map_or(true, |m| m > i128::from(lo)) {
                v.push(Value::from(lo + 1));
            }
            v
        }
        FieldKind::Other => Vec::new(),
    }
}

/// The presets with every value of every field of a simple kind of the table that is optional
/// or a rule of play (not `players`, `target`: their values change the deal and the match, not
/// the play), each set on one preset in turn (the presets taken round, the next one where the
/// value is not valid on it): so a field the schema gains is played with no change here.
pub fn table_variants() -> Vec<Ruleset> {
    let names = preset_names();
    let mut out = Vec::new();
    let mut turn = 0;
    for f in FIELDS.iter().filter(|f| f.is_simple()) {
        if matches!(f.name, "players" | "target") {
            continue;
        }
        for value in simple_values(f.kind) {
            turn += 1;
            // The next preset the value is valid on (a field may need another's value, RS-13).
            let valid = (0..names.len()).find_map(|k| {
                let mut v = preset(names[(turn + k) % names.len()]).unwrap().to_value();
                v[f.name] = value.clone();
                Ruleset::from_value(&v).ok()
            });
            out.extend(valid);
        }
    }
    out
}
