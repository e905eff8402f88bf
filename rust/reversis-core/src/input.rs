//! The arguments of the bindings' functions read once for both (spec `errors.md`, ERR-2, ERR-6):
//! a seat, a card, an action id, a moon choice, a count, a time budget, a list of scores, the
//! depth and unit of perft, each
//! from its JSON value, with the error code and the message a bad one gets.
//!
//! A binding hands over the value as JSON (`None` where it has none: a value of a type JSON does
//! not hold, an integer beyond 64 bits) and how it shows the value in a message (Python's
//! `repr`, JavaScript's JSON form), so that a message quotes the value as the caller wrote it.
//!
//! # Examples
//!
//! ```
//! use reversis_core::input;
//! use serde_json::json;
//! let shown = || "7".to_string();
//! assert_eq!(input::seat_of(Some(&json!(2)), 4, shown).unwrap(), 2);
//! let e = input::seat_of(Some(&json!(7)), 4, shown).unwrap_err();
//! assert_eq!((e.code.as_str(), e.message.as_str()), ("invalid-action", "no seat 7 at a table of 4"));
//! ```

use std::time::Duration;

use serde_json::Value;

use crate::action::NUM_ACTIONS;
use crate::card::Card;
use crate::error::{Error, ErrorCode};
use crate::perft::{PerftUnit, MAX_PERFT_DEPTH};
use crate::ruleset::MoonChoice;

/// An integer from 0 to 2⁶⁴−1 (never a boolean or a float), else `code`: "`what` must be an
/// integer from 0 to 2**64-1".
///
/// # Errors
///
/// `code` for anything else.
pub fn unsigned(
    value: Option<&Value>,
    code: ErrorCode,
    what: &str,
    shown: impl FnOnce() -> String,
) -> Result<u64, Error> {
    value.and_then(Value::as_u64).ok_or_else(|| {
        Error::new(
            code,
            format!(
                "{what} must be an integer from 0 to 2**64-1, not {}",
                shown()
            ),
        )
    })
}

/// A count from `low` to `high`, else `invalid-setup` naming `what`.
///
/// # Errors
///
/// `invalid-setup` for anything else.
pub fn count(
    value: Option<&Value>,
    what: &str,
    low: u64,
    high: u64,
    shown: impl FnOnce() -> String,
) -> Result<usize, Error> {
    match value.and_then(Value::as_u64) {
        Some(n) if (low..=high).contains(&n) => Ok(n as usize),
        _ => Err(Error::new(
            ErrorCode::InvalidSetup,
            format!(
                "{what} must be an integer from {low} to {high}, not {}",
                shown()
            ),
        )),
    }
}

/// A seat argument of an action: `null` (the default seat, `None`) or an integer from 0 to
/// 2⁶⁴−1 (ERR-6), else `invalid-action`. Whether it is a seat of the table is the game's check.
///
/// # Errors
///
/// `invalid-action` for anything else.
pub fn seat(value: Option<&Value>, shown: impl FnOnce() -> String) -> Result<Option<usize>, Error> {
    if value == Some(&Value::Null) {
        return Ok(None);
    }
    let n = unsigned(value, ErrorCode::InvalidAction, "a seat", shown)?;
    Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)))
}

/// A seat of a table of `players`, else `invalid-action`.
///
/// # Errors
///
/// `invalid-action` for anything else.
pub fn seat_of(
    value: Option<&Value>,
    players: usize,
    shown: impl FnOnce() -> String,
) -> Result<usize, Error> {
    match value.and_then(Value::as_u64) {
        Some(i) if i < players as u64 => Ok(i as usize),
        _ => Err(Error::new(
            ErrorCode::InvalidAction,
            format!("no seat {} at a table of {players}", shown()),
        )),
    }
}

/// A card in any form of CARD-4, else `invalid-card`.
///
/// # Errors
///
/// `invalid-card` for a string that is no card, or a value that is not a string.
pub fn card(value: Option<&Value>, shown: impl FnOnce() -> String) -> Result<Card, Error> {
    match value.and_then(Value::as_str) {
        Some(text) => Card::parse(text),
        None => Err(Error::new(
            ErrorCode::InvalidCard,
            format!("a card must be a string, not {}", shown()),
        )),
    }
}

/// An action id (ACT-2): an integer from 0 to `NUM_ACTIONS − 1`, else `invalid-action`.
///
/// # Errors
///
/// `invalid-action` for anything else.
pub fn action_id(value: Option<&Value>, shown: impl FnOnce() -> String) -> Result<u16, Error> {
    match value.and_then(Value::as_u64) {
        Some(id) if id < u64::from(NUM_ACTIONS) => Ok(id as u16),
        _ => Err(Error::new(
            ErrorCode::InvalidAction,
            format!(
                "an action id is an integer from 0 to {}, not {}",
                NUM_ACTIONS - 1,
                shown()
            ),
        )),
    }
}

/// A moon choice (SCORE-3): `add-to-others` or `subtract-from-taker`, else `invalid-action`.
///
/// # Errors
///
/// `invalid-action` for anything else.
pub fn moon_choice(
    value: Option<&Value>,
    shown: impl FnOnce() -> String,
) -> Result<MoonChoice, Error> {
    value
        .and_then(Value::as_str)
        .and_then(MoonChoice::from_name)
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidAction,
                format!(
                    "a moon choice is add-to-others or subtract-from-taker, not {}",
                    shown()
                ),
            )
        })
}

/// The unit of `perft` and `divide` (PERFT-5): `decisions` (also for `null`) or `tricks`, else
/// `invalid-setup`.
///
/// # Errors
///
/// `invalid-setup` for anything else.
pub fn perft_unit(
    value: Option<&Value>,
    shown: impl FnOnce() -> String,
) -> Result<PerftUnit, Error> {
    match value {
        Some(Value::Null) => Ok(PerftUnit::Decisions),
        Some(Value::String(name)) => PerftUnit::from_name(name),
        _ => Err(Error::new(
            ErrorCode::InvalidSetup,
            format!("a perft unit is 'decisions' or 'tricks', not {}", shown()),
        )),
    }
}

/// The depth of `perft` and `divide` (PERFT-5): an integer from 0 to [`MAX_PERFT_DEPTH`], else
/// `invalid-setup`.
///
/// # Errors
///
/// `invalid-setup` for anything else.
pub fn perft_depth(value: Option<&Value>, shown: impl FnOnce() -> String) -> Result<u64, Error> {
    count(value, "the depth", 0, MAX_PERFT_DEPTH, shown).map(|d| d as u64)
}

/// A time budget in milliseconds: a number above 0 and at most `max` (never a boolean), else
/// `invalid-setup` naming `what`.
///
/// # Errors
///
/// `invalid-setup` for anything else.
pub fn millis(
    value: Option<&Value>,
    what: &str,
    max: f64,
    shown: impl FnOnce() -> String,
) -> Result<Duration, Error> {
    match value.and_then(Value::as_f64) {
        Some(ms) if ms > 0.0 && ms <= max => Ok(Duration::from_secs_f64(ms / 1000.0)),
        _ => Err(Error::new(
            ErrorCode::InvalidSetup,
            format!(
                "{what} must be a number above 0 and at most {max}, not {}",
                shown()
            ),
        )),
    }
}

/// A list of integers (each from −2⁶³ to 2⁶³−1, never a boolean), else `invalid-setup`:
/// "`what`", the list as the binding names it (`scores must be a list of integers`).
///
/// # Errors
///
/// `invalid-setup` for anything else.
pub fn integers(
    value: Option<&Value>,
    what: &str,
    shown: impl FnOnce() -> String,
) -> Result<Vec<i64>, Error> {
    value
        .and_then(Value::as_array)
        .and_then(|items| items.iter().map(Value::as_i64).collect())
        .ok_or_else(|| Error::new(ErrorCode::InvalidSetup, format!("{what}, not {}", shown())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shown() -> String {
        "it".to_string()
    }

    #[test]
    fn a_bad_argument_gets_its_code_and_a_message_quoting_it() {
        let bad = [json!(true), json!(-1), json!(1.5), json!("1"), json!(null)];
        for v in &bad {
            let e = unsigned(Some(v), ErrorCode::InvalidSetup, "a seed", shown).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidSetup);
            assert_eq!(
                e.message,
                "a seed must be an integer from 0 to 2**64-1, not it"
            );
            assert_eq!(
                action_id(Some(v), shown).unwrap_err().code,
                ErrorCode::InvalidAction
            );
            assert_eq!(
                card(Some(v), shown).unwrap_err().code,
                ErrorCode::InvalidCard
            );
        }
        assert_eq!(
            unsigned(Some(&json!(u64::MAX)), ErrorCode::InvalidSetup, "x", shown).unwrap(),
            u64::MAX
        );
        assert_eq!(
            unsigned(None, ErrorCode::InvalidAction, "x", shown)
                .unwrap_err()
                .code,
            ErrorCode::InvalidAction
        );
        assert_eq!(seat(Some(&json!(null)), shown).unwrap(), None);
        assert_eq!(seat(Some(&json!(3)), shown).unwrap(), Some(3));
        assert_eq!(
            seat(Some(&json!(true)), shown).unwrap_err().code,
            ErrorCode::InvalidAction
        );
        assert_eq!(
            seat_of(Some(&json!(3)), 3, shown).unwrap_err().message,
            "no seat it at a table of 3"
        );
        assert_eq!(
            count(Some(&json!(0)), "n", 1, 5, shown)
                .unwrap_err()
                .message,
            "n must be an integer from 1 to 5, not it"
        );
        assert_eq!(count(Some(&json!(5)), "n", 1, 5, shown).unwrap(), 5);
        assert_eq!(
            action_id(Some(&json!(NUM_ACTIONS)), shown)
                .unwrap_err()
                .code,
            ErrorCode::InvalidAction
        );
        assert_eq!(
            action_id(Some(&json!(NUM_ACTIONS - 1)), shown).unwrap(),
            NUM_ACTIONS - 1
        );
        assert_eq!(card(Some(&json!("10h")), shown).unwrap().to_string(), "TH");
        assert_eq!(
            card(Some(&json!("1H")), shown).unwrap_err().code,
            ErrorCode::InvalidCard
        );
        assert_eq!(
            moon_choice(Some(&json!("add-to-others")), shown).unwrap(),
            MoonChoice::AddToOthers
        );
        assert_eq!(
            moon_choice(Some(&json!("moon")), shown).unwrap_err().code,
            ErrorCode::InvalidAction
        );
        assert_eq!(
            millis(Some(&json!(0)), "t", 10.0, shown).unwrap_err().code,
            ErrorCode::InvalidSetup
        );
        assert_eq!(
            millis(Some(&json!(true)), "t", 10.0, shown)
                .unwrap_err()
                .code,
            ErrorCode::InvalidSetup
        );
        assert_eq!(
            millis(Some(&json!(2.5)), "t", 10.0, shown).unwrap(),
            Duration::from_micros(2500)
        );
        assert_eq!(
            integers(Some(&json!([1, -2])), "s", shown).unwrap(),
            [1, -2]
        );
        assert_eq!(
            integers(Some(&json!([1, true])), "s must be", shown)
                .unwrap_err()
                .message,
            "s must be, not it"
        );
    }
}
