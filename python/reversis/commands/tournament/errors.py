"""The errors of the tournament, raised by every module of it."""

from __future__ import annotations

__all__ = ["TournamentError", "WorkerError"]


class TournamentError(Exception):
    """A tournament that cannot be run as asked (unknown or unavailable player, bad sizes)."""


class WorkerError(TournamentError, OSError):
    """A worker that died while playing deals, or whose result or error could not be delivered.

    An :class:`OSError` too, so the command line reports it as one line, like an unreadable file.
    """
