//! Helpers shared by the integration tests.
#![allow(dead_code)]

use reversis_core::{preset, Card, CardSet, Game, Phase, Ruleset};
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
