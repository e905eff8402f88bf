//! A player for the reversis player protocol (spec/player.md, protocol version 1).
//!
//! It reads one JSON message a line on standard input and answers on standard output: its
//! `hello`, then for every `act` the lowest of the `legal_actions` (ACT-3), which plays the
//! lowest legal card, passes the lowest cards and adds the moon to the others. `start` and
//! `end` need no answer; `quit`, or the end of input, ends it.

use std::io::{self, BufRead, Write};

use serde_json::{json, Value};

const NAME: &str = "lowest-rust";

fn answer(message: &Value) -> Result<Option<Value>, String> {
    match message["type"].as_str() {
        Some("hello") => Ok(Some(
            json!({"type": "hello", "name": NAME, "protocol_version": 1}),
        )),
        Some("act") => {
            let id = message["id"].as_u64().ok_or("an act without an id")?;
            let lowest = message["legal_actions"]
                .as_array()
                .and_then(|ids| ids.iter().filter_map(Value::as_u64).min())
                .ok_or("an act without legal actions")?;
            Ok(Some(json!({"id": id, "action": lowest})))
        }
        // `start`, `end` and any message without an id need no answer (PLY-2).
        _ => Ok(None),
    }
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        let message: Value = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(error) => {
                eprintln!("{NAME}: not a JSON line: {error}");
                continue;
            }
        };
        if message["type"] == "quit" {
            break;
        }
        match answer(&message) {
            Ok(Some(reply)) => {
                writeln!(stdout, "{reply}")?;
                // One line per answer, at once: the table is waiting for it.
                stdout.flush()?;
            }
            Ok(None) => {}
            Err(problem) => eprintln!("{NAME}: {problem}"),
        }
    }
    Ok(())
}
