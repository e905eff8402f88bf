//! The core's per-step loop on `hearts-4` hold hands (its `passing` set to null), for counting
//! instructions: a game per hand, then `legal_mask` and `apply_action` with a uniformly random
//! legal id until the hand is scored (a moon choice included).
//!
//! ```text
//! cargo build --release -p reversis-core --example count_steps
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/count_steps 2000
//! ```
//!
//! The instructions of one hand are the difference between two hand counts' totals divided by
//! the difference of the counts (`benches/README.md`).

use reversis_core::{preset, Game, SplitMix64};

fn main() {
    let hands: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000);
    let hearts = preset("hearts-4").expect("hearts-4");
    let hold = hearts
        .replace(
            serde_json::json!({"passing": null})
                .as_object()
                .expect("an object"),
        )
        .expect("hearts-4 without passing");
    let hold = std::sync::Arc::new(hold);
    let mut pick = SplitMix64::new(11);
    let mut total = 0i64;
    for i in 0..hands {
        let mut game = Game::new(hold.clone(), Some(i), 0, None).expect("a game");
        // A seeded game deals its next hand at once: the first hand scored ends the loop.
        while game.hands_scored() == 0 {
            let mut mask = game.legal_mask(None).expect("a mask");
            let k = pick.next_u64() % u64::from(mask.count_ones());
            for _ in 0..k {
                mask &= mask - 1;
            }
            let id = mask.trailing_zeros() as u16;
            game.apply_action(id, None).expect("a legal id");
        }
        total += game.scores().iter().sum::<i64>();
    }
    println!("{hands} hands, checksum {total}");
}
