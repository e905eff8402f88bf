"""Perft and divide (spec/perft.md, PERFT-1 … PERFT-5), written from the spec's text.

A **decision** is what the acting seat of ACT-3 does next: in phase ``pass`` its whole pass (one
decision per distinct set of ``passing.size`` cards of its hand, two copies of a card counting
as one choice), in phase ``play`` one legal card, in phase ``moon`` one of the two choices.
Perft walks the game itself: it applies each decision to a copy, counts below it and takes it
back with :meth:`~reversis.reference.Game.undo`.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Protocol

from ..errors import IllegalActionError, InvalidInputError, shown
from .cards import card_id


class _Game(Protocol):
    """What perft asks of a game: :class:`reversis.reference.Game` (named here, not imported, as it imports this)."""

    @property
    def ruleset(self) -> Any: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def trick(self) -> Any: ...

    def legal_plays(self) -> Any: ...
    def hand(self, seat: int) -> Any: ...
    def apply(self, action: dict[str, Any]) -> Any: ...
    def undo(self) -> Any: ...
    def copy(self) -> Any: ...


#: The largest depth perft and divide take (PERFT-5, ERR-6).
MAX_DEPTH = 32
#: The units of PERFT-2 (``decisions``) and PERFT-3 (``tricks``).
UNITS = ("decisions", "tricks")
MOON_CHOICES = ("add-to-others", "subtract-from-taker")


def decisions(game: _Game) -> list[tuple[str, dict[str, Any]]]:
    """The acting seat's decisions (PERFT-1), each as its divide key and ACT-1 action, in PERFT-4's order."""
    seat = game.to_act
    if game.phase == "play":
        return [(card, {"type": "play", "seat": seat, "card": card}) for card in game.legal_plays()]
    if game.phase == "pass":
        assert seat is not None and game.ruleset.passing is not None
        hand = sorted(game.hand(seat), key=card_id)
        # combinations() of a hand holding two copies of a card gives some sets twice: a set is one decision.
        chosen = sorted(
            set(combinations(hand, game.ruleset.passing["size"])), key=lambda cards: [card_id(c) for c in cards]
        )
        return [("+".join(cards), {"type": "pass", "seat": seat, "cards": list(cards)}) for cards in chosen]
    if game.phase == "moon":
        return [(choice, {"type": "moon", "seat": seat, "choice": choice}) for choice in MOON_CHOICES]
    return []  # phases deal and over: nobody decides


def _completes_trick(game: _Game, action: dict[str, Any]) -> bool:
    """Whether ``action`` is the last card of the trick in progress (one card from each seat, PLAY-3)."""
    return action["type"] == "play" and len(game.trick) == game.ruleset.players - 1


def _count(game: _Game, left: int, unit: str) -> int:
    """The sequences below ``game`` with ``left`` decisions (or tricks) to go."""
    if left == 0:
        return 1
    choices = decisions(game)
    if not choices:
        return 1  # PERFT-2: a sequence that reaches a position where nobody decides ends there
    if unit == "decisions" and left == 1:
        return len(choices)  # each decision is a whole sequence
    total = 0
    for _, action in choices:
        below = left - 1 if unit == "decisions" else left - _completes_trick(game, action)
        game.apply(action)
        total += _count(game, below, unit)
        game.undo()
    return total


def _check(game: _Game, depth: Any, unit: Any, least: int) -> str:
    """PERFT-5's checks: the unit, the depth, then a position where a seat decides; returns the unit."""
    unit = "decisions" if unit is None else unit
    if not isinstance(unit, str) or unit not in UNITS:
        raise InvalidInputError("invalid-setup", f"a perft unit is 'decisions' or 'tricks', not {shown(unit)}")
    if isinstance(depth, bool) or not isinstance(depth, int) or not least <= depth <= MAX_DEPTH:
        raise InvalidInputError(
            "invalid-setup", f"the depth must be an integer from {least} to {MAX_DEPTH}, not {shown(depth)}"
        )
    if game.phase == "deal":
        raise IllegalActionError("wrong-phase", "no seat decides in phase deal (a deal is chance, not a decision)")
    if game.phase == "over":
        raise IllegalActionError("match-over", "no seat decides once the match is over")
    return unit


def perft(game: _Game, depth: int, unit: str | None = "decisions") -> int:
    """The number of legal sequences of ``depth`` decisions, or of decisions until ``depth`` more tricks are complete.

    :raises InvalidInputError: ``invalid-setup`` for a unit or depth outside PERFT-5's.
    :raises IllegalActionError: ``wrong-phase`` in phase ``deal``, ``match-over`` in phase ``over``.
    """
    unit = _check(game, depth, unit, 0)
    return _count(game.copy(), depth, unit)


def divide(game: _Game, depth: int, unit: str | None = "decisions") -> dict[str, int]:
    """For each decision, by its key, the number of the sequences :func:`perft` counts that begin with it (PERFT-4).

    :raises InvalidInputError: as :func:`perft`, and ``invalid-setup`` for a depth of 0.
    """
    unit = _check(game, depth, unit, 1)
    walker = game.copy()
    counts = {}
    for key, action in decisions(walker):
        below = depth - 1 if unit == "decisions" else depth - _completes_trick(walker, action)
        walker.apply(action)
        counts[key] = _count(walker, below, unit)
        walker.undo()
    return counts
