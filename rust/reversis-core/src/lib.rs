//! # reversis-core
//!
//! The rules of the Hearts family as reversis specifies them (`spec/`), in pure Rust: cards and
//! card sets as 64-bit masks, validated data-driven rulesets and the named presets, the hand and
//! match state machines with error codes, records in JSON and MessagePack, observations, the
//! portable seeded deal, action ids, events and undo, an exact sampler of hidden cards, and a
//! batch simulator. The rules of play are written once, as functions of card masks beside their
//! inverses, in [`kernel`].
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
//!     game.pass_cards(cards, Some(seat)).unwrap();
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
mod event;
mod facts;
mod fields;
mod game;
mod hand;
pub mod input;
pub mod kernel;
mod limits;
mod perft;
mod position;
mod record;
mod rng;
mod ruleset;
mod sample;
mod seat;
mod simulate;
mod vector;

pub use action::{
    action_from_ids, action_ids, action_label, Action, Decision, MOON_ADD_ID, MOON_SUBTRACT_ID,
    NUM_ACTIONS, PASS_BASE,
};
pub use card::{
    card_id, parse_card, Card, CardMultiset, CardMultisetIter, CardSet, CardSetIter, Suit,
    FULL_DECK, RANK_CHARS, SUIT_CHARS, SUIT_MASKS,
};
pub use error::{Error, ErrorCode};
pub use event::{Event, Events, HandSummary};
pub use facts::{encode_observation_json, MatchEnd, MatchStanding, PassPlan, ENCODING_LAYOUT};
pub use fields::{
    ruleset_field_table, Field, FieldKind, FieldSpec, FIELDS, FIELD_COUNT, RULESET_FIELDS,
    RULESET_OPTIONAL_FIELDS,
};
pub use game::{ActionLog, Game};
pub use hand::{CompletedTrick, HandState};
pub use kernel::Breach;
pub use limits::{
    LIMITS, MAX_DEALS, MAX_DRAWS, MAX_PLAYOUTS, MAX_ROLLOUTS, MAX_SAMPLES, MAX_SEARCH_MS,
    MAX_SIMULATE_HANDS, MAX_THREADS,
};
pub use perft::{pass_count, PerftDecision, PerftUnit, MAX_PERFT_DEPTH};
pub use position::{Phase, Position};
pub use record::{
    dump_record, load_record, msgpack_decode, msgpack_encode, parse_record, RecordFormat,
    RecordParts, MAX_RECORD_ACTIONS, MAX_RECORD_BYTES, RECORD_FORMAT, RECORD_VERSION,
};
pub use rng::{deal_from_seed, seed_draws, SplitMix64};
pub use ruleset::{
    preset, preset_names, CountDownEnd, HeartsBreaking, LastTrick, Moon, MoonChoice, MoonNeeds,
    MoonScoring, PassDirection, Passing, Ruleset, ShotRule, SPEC_VERSION,
};
pub use sample::{count_layouts, revealed, Knowledge, Layout, Sampler};
pub use seat::{PerSeat, MAX_PLAYERS};
pub use simulate::{hand_generator, play_random_hand, simulate, simulate_with_masks};
pub use vector::{
    encode_observation, encode_view, episode_seed, Episode, Job, ObservationDtype, Observations,
    Rewards, SeatView, StepRunner, VectorEnv, ENCODING_LENGTH, ENCODING_VERSION, MAX_ENVS,
};
