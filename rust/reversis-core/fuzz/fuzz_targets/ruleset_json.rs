//! Arbitrary bytes as ruleset JSON text: parsing must succeed or fail with `invalid-ruleset`,
//! never panic; a valid ruleset survives its own JSON, and a seeded game under it plays a hand.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use reversis_core::{ErrorCode, Game, Phase, Ruleset};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ruleset = match Ruleset::from_json_str(text) {
        Ok(ruleset) => ruleset,
        Err(error) => {
            assert_eq!(error.code(), ErrorCode::InvalidRuleset, "{error:?}");
            return;
        }
    };
    let again = Ruleset::from_value(&ruleset.to_value()).expect("a ruleset's own JSON is valid");
    assert_eq!(again.to_value(), ruleset.to_value());
    let mut game = Game::new(Arc::new(ruleset), Some(data.len() as u64), 0, None).expect("a game starts");
    let mut steps = 0;
    while game.hand_number() == 0 && game.phase() != Phase::Over && steps < 1000 {
        steps += 1;
        match game.phase() {
            Phase::Pass => {
                let seat = game.awaiting_pass()[0];
                let size = game.ruleset().passing().expect("passing").size;
                let cards: Vec<_> = game.hand(seat).unwrap().into_iter().take(size).collect();
                game.pass_cards(cards, Some(seat)).expect("a pass of held cards");
            }
            Phase::Play => {
                let legal = game.legal_plays();
                assert!(legal.len() > 0, "no legal play for the seat to move");
                game.play(legal.into_iter().next().unwrap(), None).expect("a legal play");
            }
            Phase::Moon => game
                .choose_moon(reversis_core::MoonChoice::AddToOthers, None)
                .expect("the taker chooses"),
            Phase::Deal | Phase::Over => unreachable!("a seeded game deals by itself"),
        }
    }
});
