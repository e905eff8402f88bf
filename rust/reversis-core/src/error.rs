//! The closed list of error codes (spec `errors.md`, ERR-1 … ERR-5).

use std::fmt;

/// An error code of `errors.md`. `as_str` gives the kebab-case code that every implementation,
/// the driver protocol and the conformance cases share (ERR-1).
///
/// The variants are declared in the order of the tables of `errors.md` (ERR-2, then ERR-3),
/// which is the order of [`ErrorCode::ALL`] and of Python's `ERROR_CODES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `invalid-card`: a card string is not a card, CARD-4 (ERR-2).
    InvalidCard,
    /// `invalid-action`: an action is not a well-formed ACT-1 object (ERR-2).
    InvalidAction,
    /// `invalid-ruleset`: a ruleset is malformed or impossible, RS-13 (ERR-2).
    InvalidRuleset,
    /// `unknown-preset`: no preset has that name (ERR-2).
    UnknownPreset,
    /// `invalid-deal`: a deal breaks DEAL-1 (ERR-2).
    InvalidDeal,
    /// `invalid-record`: a record or its encoding is malformed, or rejected on replay (ERR-2).
    InvalidRecord,
    /// `no-seed`: a deal from the seed is asked of an unseeded game (ERR-2).
    NoSeed,
    /// `invalid-setup`: a game is started with a seed, hand number or totals that are not
    /// valid values, API-3 (ERR-2).
    InvalidSetup,
    /// `match-over`: any action after the game is over, MATCH-4 (ERR-3).
    MatchOver,
    /// `wrong-phase`: the action's type does not belong to the current phase.
    WrongPhase,
    /// `moon-choice-pending`: any action but `moon` while the taker must choose, SCORE-3.
    MoonChoicePending,
    /// `not-moon-taker`: a `moon` action by a seat that is not the taker, SCORE-3.
    NotMoonTaker,
    /// `wrong-seat`: a play by a seat that is not the seat to move, PLAY-3.
    WrongSeat,
    /// `already-passed`: a second pass by the same seat in one hand, PASS-2.
    AlreadyPassed,
    /// `wrong-pass-size`: a pass of a number of cards other than `passing.size`, PASS-2.
    WrongPassSize,
    /// `duplicate-card`: a pass that names a card twice, PASS-2.
    DuplicateCard,
    /// `card-not-held`: a card (played or passed) that the seat does not hold, PLAY-3, PASS-2.
    CardNotHeld,
    /// `must-lead-opening-card`: the first lead is not the opening card, PLAY-1.
    MustLeadOpeningCard,
    /// `must-follow-suit`: a card off the suit led by a seat that holds that suit, PLAY-4.
    MustFollowSuit,
    /// `points-on-first-trick`: a point card discarded on the first trick, PLAY-5.
    PointsOnFirstTrick,
    /// `hearts-not-broken`: a heart led before hearts are broken, PLAY-6.
    HeartsNotBroken,
    /// `nothing-to-undo`: `undo()` on a game with no accepted action left to take back, API-8.
    NothingToUndo,
}

impl ErrorCode {
    /// Every code, in the order of the tables of `errors.md`: the input errors of ERR-2, then the
    /// illegal actions of ERR-3, `nothing-to-undo` last (API-6 `ERROR_CODES`).
    pub const ALL: [ErrorCode; 22] = [
        ErrorCode::InvalidCard,
        ErrorCode::InvalidAction,
        ErrorCode::InvalidRuleset,
        ErrorCode::UnknownPreset,
        ErrorCode::InvalidDeal,
        ErrorCode::InvalidRecord,
        ErrorCode::NoSeed,
        ErrorCode::InvalidSetup,
        ErrorCode::MatchOver,
        ErrorCode::WrongPhase,
        ErrorCode::MoonChoicePending,
        ErrorCode::NotMoonTaker,
        ErrorCode::WrongSeat,
        ErrorCode::AlreadyPassed,
        ErrorCode::WrongPassSize,
        ErrorCode::DuplicateCard,
        ErrorCode::CardNotHeld,
        ErrorCode::MustLeadOpeningCard,
        ErrorCode::MustFollowSuit,
        ErrorCode::PointsOnFirstTrick,
        ErrorCode::HeartsNotBroken,
        ErrorCode::NothingToUndo,
    ];

    /// The kebab-case code of `errors.md`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(reversis_core::ErrorCode::HeartsNotBroken.as_str(), "hearts-not-broken");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidAction => "invalid-action",
            ErrorCode::InvalidCard => "invalid-card",
            ErrorCode::InvalidRuleset => "invalid-ruleset",
            ErrorCode::UnknownPreset => "unknown-preset",
            ErrorCode::InvalidDeal => "invalid-deal",
            ErrorCode::InvalidRecord => "invalid-record",
            ErrorCode::NoSeed => "no-seed",
            ErrorCode::InvalidSetup => "invalid-setup",
            ErrorCode::MatchOver => "match-over",
            ErrorCode::MoonChoicePending => "moon-choice-pending",
            ErrorCode::WrongPhase => "wrong-phase",
            ErrorCode::NotMoonTaker => "not-moon-taker",
            ErrorCode::WrongSeat => "wrong-seat",
            ErrorCode::AlreadyPassed => "already-passed",
            ErrorCode::WrongPassSize => "wrong-pass-size",
            ErrorCode::DuplicateCard => "duplicate-card",
            ErrorCode::CardNotHeld => "card-not-held",
            ErrorCode::MustLeadOpeningCard => "must-lead-opening-card",
            ErrorCode::MustFollowSuit => "must-follow-suit",
            ErrorCode::PointsOnFirstTrick => "points-on-first-trick",
            ErrorCode::HeartsNotBroken => "hearts-not-broken",
            ErrorCode::NothingToUndo => "nothing-to-undo",
        }
    }

    /// The code with this kebab-case name, if any.
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether this is an input error of ERR-2 (`InvalidInputError` in Python); otherwise it is
    /// an illegal action of ERR-3 (`IllegalActionError`).
    pub fn is_input_error(self) -> bool {
        matches!(
            self,
            ErrorCode::InvalidAction
                | ErrorCode::InvalidCard
                | ErrorCode::InvalidRuleset
                | ErrorCode::UnknownPreset
                | ErrorCode::InvalidDeal
                | ErrorCode::InvalidRecord
                | ErrorCode::NoSeed
                | ErrorCode::InvalidSetup
        )
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error: a code of the closed list and a lowercase message that names the problem and
/// quotes the offending input (ERR-5). Callers check the code, never the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The code (ERR-2, ERR-3).
    pub code: ErrorCode,
    /// A human message, lowercase.
    pub message: String,
}

impl Error {
    /// A new error.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
        }
    }

    /// The code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
