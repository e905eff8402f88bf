//! # reversis-core
//!
//! The rules of the Hearts family as reversis specifies them (`spec/`), in pure Rust: cards and
//! card sets as 64-bit masks, validated data-driven rulesets and the named presets, the hand and
//! match state machines with error codes, records in JSON and MessagePack, observations, the
//! portable seeded deal, and a batch simulator.
//!
//! # Examples
//!
//! ```
//! use reversis_core::{preset, Game, Phase};
//!
//! let mut game = Game::new(preset("hearts-4").unwrap(), Some(2024), 0, None).unwrap();
//! assert_eq!(game.phase(), Phase::Pass); // hand 0 passes left
//! for seat in 0..4 {
//!     let cards = game.hand(seat).unwrap().to_vec()[..3].to_vec();
//!     game.pass_cards(seat, cards).unwrap();
//! }
//! assert_eq!(game.phase(), Phase::Play);
//! let lead = game.legal_plays();
//! assert_eq!(lead.to_strings(), ["2C"]); // PLAY-1
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod action;
mod card;
mod error;
mod game;
mod hand;
mod record;
mod rng;
mod ruleset;
mod sample;
mod simulate;

pub use action::Action;
pub use card::{
    card_id, parse_card, Card, CardSet, CardSetIter, Suit, FULL_DECK, RANK_CHARS, SUIT_CHARS,
    SUIT_MASKS,
};
pub use error::{Error, ErrorCode};
pub use game::{Game, Phase};
pub use hand::{CompletedTrick, HandState};
pub use record::{
    dump_record, load_record, msgpack_decode, msgpack_encode, parse_record, RecordFormat,
    RecordParts, MAX_RECORD_ACTIONS, MAX_RECORD_BYTES, RECORD_FORMAT, RECORD_VERSION,
};
pub use rng::{deal_from_seed, seed_draws, SplitMix64};
pub use ruleset::{
    preset, preset_names, HeartsBreaking, Moon, MoonChoice, MoonScoring, PassDirection, Passing,
    Ruleset,
};
pub use sample::{
    count_layouts, count_observation_layouts, monte_carlo_evaluate, monte_carlo_play,
    sample_layouts, Knowledge, Layout, Sampler,
};
pub use simulate::{hand_generator, play_random_hand, simulate, simulate_with_masks};
