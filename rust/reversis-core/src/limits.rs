//! The input limits of ERR-6 (spec/errors.md) in one table: both bindings enforce these, and the
//! tests hold the reference engine, the JavaScript package and the spec's text to them.

use crate::{MAX_ENVS, MAX_PERFT_DEPTH, MAX_RECORD_ACTIONS, MAX_RECORD_BYTES};

/// The most deals one `deal_from_seed` call returns.
pub const MAX_DEALS: u64 = 10_000;
/// The most draws one `seed_draws` call returns.
pub const MAX_DRAWS: u64 = 1_000_000;
/// The most hands one `simulate` call plays.
pub const MAX_SIMULATE_HANDS: u64 = 1_000_000;
/// The most threads one `simulate` call, or one vector environment, uses.
pub const MAX_THREADS: u64 = 256;
/// The most layouts one `sample_hidden` call returns.
pub const MAX_SAMPLES: u64 = 100_000;
/// The most playouts per legal card of one Monte Carlo decision.
pub const MAX_ROLLOUTS: u64 = 1_000_000;
/// The most playouts of one search decision.
pub const MAX_PLAYOUTS: u64 = 100_000_000;
/// The longest one search decision may take, in milliseconds.
pub const MAX_SEARCH_MS: u64 = 3_600_000;

/// Every limit by the name the bindings export it under (`reversis._core.LIMITS`, the
/// JavaScript package's `LIMITS`).
pub const LIMITS: [(&str, u64); 12] = [
    ("record_actions", MAX_RECORD_ACTIONS as u64),
    ("record_bytes", MAX_RECORD_BYTES as u64),
    ("deals", MAX_DEALS),
    ("draws", MAX_DRAWS),
    ("simulate_hands", MAX_SIMULATE_HANDS),
    ("threads", MAX_THREADS),
    ("samples", MAX_SAMPLES),
    ("rollouts", MAX_ROLLOUTS),
    ("playouts", MAX_PLAYOUTS),
    ("search_ms", MAX_SEARCH_MS),
    ("envs", MAX_ENVS as u64),
    ("perft_depth", MAX_PERFT_DEPTH),
];
