//! `simulate` on `hearts-4` hands (passing included), one thread, for counting instructions:
//!
//! ```text
//! cargo build --release -p reversis-core --example count_simulate
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/count_simulate 20000
//! ```
//!
//! The instructions of one hand are the difference between two hand counts' totals divided by
//! the difference of the counts (`benches/README.md`), which takes out the start-up.

use std::hint::black_box;

fn main() {
    let hands: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let rules = reversis_core::preset("hearts-4").expect("hearts-4");
    let scores = reversis_core::simulate(&rules, hands, 7, 1);
    println!(
        "{} hands, checksum {}",
        hands,
        black_box(scores).iter().map(|&s| i64::from(s)).sum::<i64>()
    );
}
