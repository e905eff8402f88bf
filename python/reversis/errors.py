"""The typed errors of spec/errors.md, shared by both engines.

Every error carries one of the spec's kebab-case codes in ``code``; callers match on the code,
never on the message.
"""

from __future__ import annotations

import reprlib

__all__ = [
    "ERROR_CODES",
    "ILLEGAL_CODES",
    "INPUT_CODES",
    "IllegalActionError",
    "InvalidInputError",
    "ReversisError",
    "shown",
]

#: ERR-2 then ERR-3: every code of spec/errors.md, in the order of its tables (API-6).
ERROR_CODES = (
    # ERR-2: the input is malformed or impossible in itself.
    "invalid-card",
    "invalid-action",
    "invalid-ruleset",
    "unknown-preset",
    "invalid-deal",
    "invalid-record",
    "no-seed",
    "invalid-setup",
    # ERR-3: the action is well formed but the rules forbid it now.
    "match-over",
    "wrong-phase",
    "moon-choice-pending",
    "not-moon-taker",
    "wrong-seat",
    "already-passed",
    "wrong-pass-size",
    "duplicate-card",
    "card-not-held",
    "must-lead-opening-card",
    "must-follow-suit",
    "points-on-first-trick",
    "hearts-not-broken",
    "nothing-to-undo",
)
#: ERR-2.
INPUT_CODES = frozenset(ERROR_CODES[: ERROR_CODES.index("invalid-setup") + 1])
#: ERR-3.
ILLEGAL_CODES = frozenset(ERROR_CODES[ERROR_CODES.index("match-over") :])


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 80
_REPR.maxother = 80


def shown(value: object) -> str:
    """A short ``repr`` of user input for an error message, bounded in length and depth.

    A hostile (huge or deeply nested) value never makes building the message fail or crawl.
    """
    try:
        return _REPR.repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        return f"<{type(value).__name__}>"


class ReversisError(ValueError):
    """Base of every reversis error; ``code`` is the spec's error code (ERR-1)."""

    code: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[object, ...]:
        # Pickle calls the class with ``args``, the message alone: a task's error sent back
        # from a worker process or a Ray task must be rebuilt with its code, or not at all.
        return type(self), (self.code, str(self)), self.__dict__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self)!r})"

    @staticmethod
    def of(code: str, message: str) -> ReversisError:
        """Build the error subclass that ``code`` belongs to.

        :raises KeyError: if ``code`` is not a code of spec/errors.md.
        """
        if code in INPUT_CODES:
            return InvalidInputError(code, message)
        if code in ILLEGAL_CODES:
            return IllegalActionError(code, message)
        raise KeyError(f"unknown error code: {code!r}")


class InvalidInputError(ReversisError):
    """Malformed or impossible input: a bad card, action, ruleset, deal or record (ERR-2)."""


class IllegalActionError(ReversisError):
    """A well-formed action that the rules forbid in the current state (ERR-3)."""
