"""The one error of the tournament, raised by every module of it."""

from __future__ import annotations

__all__ = ["TournamentError"]


class TournamentError(Exception):
    """A tournament that cannot be run as asked (unknown or unavailable player, bad sizes)."""
