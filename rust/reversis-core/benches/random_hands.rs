//! Random play of whole hands inside the core: `cargo bench -p reversis-core`.
//!
//! Prints the median time per hand over several rounds for each preset, single-threaded and
//! on every core, and checks each result so that a fast wrong answer fails.

use std::time::Instant;

use reversis_core::{preset, preset_names, simulate};

const HANDS: usize = 50_000;
const ROUNDS: usize = 7;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("median per hand over {ROUNDS} rounds of {HANDS} random hands");
    for name in preset_names() {
        let rules = preset(name).expect("every preset name loads");
        let positive = rules.positive_total();
        let negative: i32 = rules.card_points().iter().map(|&(_, v)| v.min(0)).sum();
        for threads in [1, cores] {
            let mut samples = Vec::with_capacity(ROUNDS);
            for round in 0..ROUNDS {
                let started = Instant::now();
                let scores = simulate(&rules, HANDS, round as u64, threads);
                samples.push(started.elapsed().as_secs_f64() / HANDS as f64);
                // Every hand distributes all of its points, or a moon's total.
                let moon_totals = rules.moon().map_or(vec![], |m| {
                    let others = (rules.players() as i32 - 1) * m.bonus;
                    vec![others + negative, -m.bonus + negative]
                });
                for row in scores.chunks(rules.players()) {
                    let total: i32 = row.iter().sum();
                    assert!(
                        total == positive + negative || moon_totals.contains(&total),
                        "{name}: a hand's scores {row:?} do not add up"
                    );
                }
            }
            let seconds = median(samples);
            println!(
                "{name:<16} threads {threads}: {:>8.2} µs/hand  {:>10.0} hands/s",
                seconds * 1e6,
                1.0 / seconds
            );
        }
    }
}
