//! The vector environment in the core: `cargo bench -p reversis-core --bench vector`.
//!
//! Prints decisions per second of `VectorEnv::step` (1,024 games of hearts-4, random legal ids
//! picked in Rust from the mask buffer, masks and OBS-3 observations written every step) with
//! `int32` and `uint8` observations, on one thread and on two, in alternation: two threads
//! started on every step (`step_threads`), and two kept between steps (`step_with` and the
//! Python binding's pool, `rust/reversis-py/src/pool.rs`, compiled in here). It also prints the
//! memory a game takes: its state (its position, and with history its episode's action ids)
//! apart from its rows of the output buffers, counted by a global allocator that tallies live
//! bytes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use reversis_core::{
    preset, Episode, ObservationDtype, Rewards, SplitMix64, VectorEnv, ENCODING_LENGTH, NUM_ACTIONS,
};

// Its unit tests compile here without a test harness to run them, hence the allowance.
#[path = "../../reversis-py/src/pool.rs"]
#[allow(unused_imports)]
mod pool;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: as the caller's contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const GAMES: usize = 1024;
const STEPS: usize = 200;
const ROUNDS: usize = 9;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

// One uniformly random legal id per game, from the mask buffer.
fn pick(env: &VectorEnv, rng: &mut SplitMix64, out: &mut [u16]) {
    for (row, id) in env
        .legal_action_mask()
        .chunks(NUM_ACTIONS as usize)
        .zip(out.iter_mut())
    {
        let legal = row.iter().filter(|&&b| b == 1).count() as u64;
        let k = rng.below_fast(legal) as usize;
        *id = row
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == 1)
            .nth(k)
            .map(|(i, _)| i as u16)
            .expect("every game has a legal id");
    }
}

fn main() {
    let rules = preset("hearts-4").expect("a preset");
    // (dtype, threads, kept): two threads started on every step, or kept by a pool.
    let configs = [
        (ObservationDtype::Int32, 1usize, false),
        (ObservationDtype::Int32, 2, false),
        (ObservationDtype::Int32, 2, true),
        (ObservationDtype::Uint8, 1, false),
        (ObservationDtype::Uint8, 2, false),
        (ObservationDtype::Uint8, 2, true),
    ];
    let mut kept = pool::Pool::default();
    kept.reserve(2);
    let mut envs = configs.map(|(dtype, threads, kept)| {
        (
            dtype,
            threads,
            kept,
            VectorEnv::new(rules.clone(), GAMES, 1, Episode::Hand, Rewards::HandEnd)
                .and_then(|env| env.with_observation_dtype(dtype))
                .expect("an environment"),
            Vec::with_capacity(ROUNDS),
        )
    });
    let mut rng = SplitMix64::new(7);
    let mut actions = vec![0u16; GAMES];
    for _ in 0..ROUNDS {
        for (_, threads, in_pool, env, rates) in envs.iter_mut() {
            let mut stepping = 0.0;
            for _ in 0..STEPS {
                pick(env, &mut rng, &mut actions);
                let started = Instant::now();
                if *in_pool {
                    env.step_with(&actions, *threads, &kept)
                } else {
                    env.step_threads(&actions, *threads)
                }
                .expect("legal ids");
                stepping += started.elapsed().as_secs_f64();
            }
            rates.push((STEPS * GAMES) as f64 / stepping);
        }
    }
    println!("hearts-4, {GAMES} games, median over {ROUNDS} rounds of {STEPS} steps (the pick not timed):");
    for (dtype, threads, in_pool, _, rates) in &envs {
        let rate = median(rates.clone());
        let one = envs
            .iter()
            .find(|(d, t, _, _, _)| d == dtype && *t == 1)
            .map_or(rate, |(_, _, _, _, r)| median(r.clone()));
        let how = match (threads, in_pool) {
            (1, _) => "1 thread",
            (_, false) => "2 threads started each step",
            (_, true) => "2 threads kept",
        };
        println!(
            "  step, {}, {how:<27} {rate:>10.0} decisions/s ({:.2}x one thread)",
            dtype.as_str(),
            rate / one
        );
    }

    // Memory: live bytes before and after building an environment, and after playing it
    // through 600 steps (several hand episodes, part of a match). Without history a game is
    // its position; with it, also its episode's action ids, a byte each, dropped at its reset.
    // Each buffer is over-allocated by a line, so that it can start on one.
    let lines = 6 * 64;
    let buffers =
        (NUM_ACTIONS as usize + ENCODING_LENGTH * 4 + 4 + 4 * 4 + 1 + 4 * 8) * GAMES + lines;
    let narrow = ENCODING_LENGTH * 3 * GAMES;
    println!(
        "  buffer rows per game: {} bytes ({} with uint8 observations)",
        (buffers - lines) / GAMES,
        (buffers - lines - narrow) / GAMES
    );
    for history in [false, true] {
        for episode in [Episode::Hand, Episode::Match] {
            let before = LIVE.load(Ordering::Relaxed);
            let env = VectorEnv::new(rules.clone(), GAMES, 3, episode, Rewards::HandEnd)
                .expect("an environment");
            let mut env = if history { env.with_history() } else { env };
            let built = LIVE.load(Ordering::Relaxed) - before;
            let mut peak = built;
            for _ in 0..600 {
                pick(&env, &mut rng, &mut actions);
                env.step(&actions).expect("legal ids");
                peak = peak.max(LIVE.load(Ordering::Relaxed) - before);
            }
            println!(
                "  memory per game, history {history}, episode {episode:?}: state {} bytes at the start, up to {} while playing (buffer rows not counted)",
                (built - buffers) / GAMES,
                (peak - buffers) / GAMES,
            );
        }
    }
}
