"""Perft counts of any implementation, and the first position where two implementations' counts part.

An implementation that claims the capability ``perft`` (spec/driver.md DRV-4, DRV-8) is asked
for its counts; any other is **walked**: the runner builds the position with ``new_game`` and
``apply``, reads the acting seat's decisions from ``view`` (PERFT-1: the ``legal`` cards in phase
``play``, the two choices in phase ``moon``, the distinct sets of ``passing.size`` cards of the
seat's hand in phase ``pass``) and counts the sequences itself, as spec/perft.md defines them.
With the capability ``action_ids`` it steps back with ``undo``; without it, it builds the
position again from the start for every step back.

:func:`find_divergence` descends through the divide counts of two implementations to the first
position where they disagree on what the acting seat may do, and says so in one line.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Union

from .engines import DriverEngine, EngineError, ModuleEngine

Engine = Union[ModuleEngine, DriverEngine]

MOON_CHOICES = ("add-to-others", "subtract-from-taker")
#: The order of CARD-2 (clubs, diamonds, hearts, spades; 2 … A), for sorting passes by card.
_RANKS = "23456789TJQKA"
_SUITS = "CDHS"


def _card_order(card: str) -> tuple[int, int]:
    return _SUITS.index(card[-1]), _RANKS.index(card[0])


@dataclass
class Position:
    """A named position: a ruleset, a start and the ACT-1 actions that reach it.

    The ruleset is a preset name or a ruleset object, the start ``seed``, ``hand_number`` and
    ``scores`` (DRV-3 ``new_game``), as a ``perft`` case gives them.
    """

    ruleset: Any
    start: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    #: A record (REC-1) to replay (``load_record``) instead of ``start``; ``actions`` follow it.
    record: dict[str, Any] | None = None

    @classmethod
    def of_record(cls, record: dict[str, Any], actions: list[dict[str, Any]] | None = None) -> Position:
        """The position a record replays to (REC-2), then ``actions``."""
        return cls(record["ruleset"], {}, list(actions or []), record)

    @classmethod
    def of(cls, case_or_position: Any) -> Position:
        """The position of a ``perft`` case (its ``ruleset``, ``start`` and ``steps``), or the position itself."""
        if isinstance(case_or_position, Position):
            return case_or_position
        data = case_or_position.data if hasattr(case_or_position, "data") else case_or_position
        steps = data.get("steps", [])
        return cls(data["ruleset"], dict(data.get("start") or {}), [step["action"] for step in steps])


def pass_size(ruleset: Any) -> int:
    """``passing.size`` of a preset name or a ruleset object (0 where nothing is passed)."""
    if isinstance(ruleset, str):
        from .. import reference

        passing = reference.preset(ruleset).passing
    else:
        passing = ruleset.get("passing")
    return int(passing["size"]) if passing else 0


def view_decisions(view: dict[str, Any], size: int) -> list[tuple[str, dict[str, Any]]]:
    """The acting seat's decisions read from a DRV-6 view (PERFT-1), as divide keys (PERFT-4) and ACT-1 actions."""
    phase = view["phase"]
    if phase == "play":
        seat = view["to_move"]
        return [(card, {"type": "play", "seat": seat, "card": card}) for card in view["legal"]]
    if phase == "moon":
        seat = view["moon_taker"]
        return [(choice, {"type": "moon", "seat": seat, "choice": choice}) for choice in MOON_CHOICES]
    if phase == "pass":
        seat = min(view["awaiting_pass"])
        hand = sorted(view["hands"][seat], key=_card_order)
        chosen = sorted(set(combinations(hand, size)), key=lambda cards: [_card_order(c) for c in cards])
        return [("+".join(cards), {"type": "pass", "seat": seat, "cards": list(cards)}) for cards in chosen]
    return []


class Walker:
    """One implementation, reached through protocol calls, at positions below one named position.

    ``perft`` and ``divide`` use the implementation's own command where it claims ``perft`` and
    ``use_command`` is true, and walk it otherwise.
    """

    def __init__(self, engine: Engine, position: Position, *, use_command: bool = True) -> None:
        """Prepare to count ``position`` on ``engine`` (``hello`` is asked once, here)."""
        self.engine = engine
        self.position = position
        capabilities = engine.call("hello").get("capabilities") or {}
        self.claims_perft = bool(capabilities.get("perft")) and use_command
        self.can_undo = bool(capabilities.get("action_ids"))
        self.players = _players(position.ruleset)
        self.size = pass_size(position.ruleset)
        self.requests = 0

    def _call(self, cmd: str, **args: Any) -> dict[str, Any]:
        self.requests += 1
        return self.engine.call(cmd, **args)

    def open(self, path: list[dict[str, Any]]) -> int:
        """A new game at the named position, then ``path``'s actions; the caller drops it."""
        if self.position.record is not None:
            game = int(self._call("load_record", record=self.position.record)["game"])
        else:
            game = int(self._call("new_game", ruleset=self.position.ruleset, **self.position.start)["game"])
        with self.holding(lambda: game, keep=True):
            for action in [*self.position.actions, *path]:
                self._call("apply", game=game, action=action)
        return game

    @contextlib.contextmanager
    def holding(self, game: Callable[[], int], *, keep: bool = False) -> Iterator[None]:
        """Drops the game ``game()`` names after the block (unless ``keep``), and after a rejected request.

        After any other exception (a fault, Ctrl-C) the implementation is in a state nobody
        knows, with an answer perhaps still on its way: nothing more is asked of it, and the
        caller kills it.
        """
        try:
            yield
        except EngineError:
            with contextlib.suppress(EngineError):
                self._call("drop", game=game())
            raise
        if not keep:
            self._call("drop", game=game())

    def view(self, path: list[dict[str, Any]]) -> dict[str, Any]:
        """The view (DRV-6) at ``path`` below the named position."""
        game = self.open(path)
        with self.holding(lambda: game):
            view = dict(self._call("view", game=game)["view"])
        return view

    def resolve(self, keys: list[str]) -> list[dict[str, Any]]:
        """The ACT-1 actions of a path of decision keys (PERFT-4) from the named position.

        :raises ValueError: naming the first key that is not a decision where it is given, and
            the decisions there.
        """
        path: list[dict[str, Any]] = []
        for index, key in enumerate(keys):
            choices = dict(view_decisions(self.view(path), self.size))
            if key not in choices:
                where = f"after {' '.join(keys[:index])}" if index else "at the position"
                shown = ", ".join(choices) if len(choices) <= 40 else f"{len(choices)} decisions"
                raise ValueError(
                    f"{where}, {key!r} is not a decision of the acting seat; the decisions are: {shown or 'none'}"
                )
            path.append(choices[key])
        return path

    def divide(self, path: list[dict[str, Any]], depth: int, unit: str) -> dict[str, int]:
        """Divide (PERFT-4) at ``path``: by the implementation's command, or by walking it."""
        cursor = _Cursor(self, path)
        with self.holding(lambda: cursor.game):
            if self.claims_perft:
                answer = self._call("perft", game=cursor.game, depth=depth, unit=unit, divide=True)
                counts = {str(key): int(count) for key, count in answer["divide"].items()}
            else:
                view = cursor.view()
                _check_phase(view)
                counts = {}
                for key, action in view_decisions(view, self.size):
                    below = depth - 1 if unit == "decisions" else depth - self._completes_trick(view, action)
                    with cursor.step(action):
                        counts[key] = self._walk_count(cursor, below, unit)
        return counts

    def perft(self, path: list[dict[str, Any]], depth: int, unit: str) -> int:
        """Perft (PERFT-2, PERFT-3) at ``path``: by the implementation's command, or by walking it."""
        cursor = _Cursor(self, path)
        with self.holding(lambda: cursor.game):
            if self.claims_perft:
                total = int(self._call("perft", game=cursor.game, depth=depth, unit=unit)["count"])
            else:
                _check_phase(cursor.view())
                total = self._walk_count(cursor, depth, unit)
        return total

    def _completes_trick(self, view: dict[str, Any], action: dict[str, Any]) -> bool:
        """Whether ``action`` is the last card of the trick in progress (one card from each seat)."""
        return action["type"] == "play" and len(view["trick"]) == self.players - 1

    def _walk_count(self, cursor: _Cursor, left: int, unit: str) -> int:
        if left == 0:
            return 1
        view = cursor.view()
        choices = view_decisions(view, self.size)
        if not choices:
            return 1  # PERFT-2: nobody decides, the sequence ends here
        last = unit == "decisions" or (view["phase"] == "play" and len(view["trick"]) == self.players - 1)
        if left == 1 and last:
            return len(choices)
        total = 0
        for _, action in choices:
            below = left - 1 if unit == "decisions" else left - self._completes_trick(view, action)
            with cursor.step(action):
                total += self._walk_count(cursor, below, unit)
        return total


class _Cursor:
    """A game being walked: a step forward is ``apply``, a step back ``undo``.

    Without ``undo`` (no ``action_ids`` claimed), a step back builds the position again from the start.
    """

    def __init__(self, walker: Walker, path: list[dict[str, Any]]) -> None:
        self.walker = walker
        self.path = list(path)
        self.game = walker.open(self.path)

    def view(self) -> dict[str, Any]:
        return dict(self.walker._call("view", game=self.game)["view"])

    def step(self, action: dict[str, Any]) -> _Step:
        return _Step(self, action)

    def forward(self, action: dict[str, Any]) -> None:
        self.walker._call("apply", game=self.game, action=action)
        self.path.append(action)

    def back(self) -> None:
        self.path.pop()
        if self.walker.can_undo:
            self.walker._call("undo", game=self.game)
            return
        self.walker._call("drop", game=self.game)
        self.game = self.walker.open(self.path)


class _Step:
    def __init__(self, cursor: _Cursor, action: dict[str, Any]) -> None:
        self.cursor = cursor
        self.action = action

    def __enter__(self) -> None:
        self.cursor.forward(self.action)

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self.cursor.back()


def _check_phase(view: dict[str, Any]) -> None:
    """PERFT-5: nobody decides in phases ``deal`` and ``over``, so there is nothing to count from."""
    if view["phase"] == "deal":
        raise EngineError("wrong-phase", "no seat decides in phase deal (a deal is chance, not a decision)")
    if view["phase"] == "over":
        raise EngineError("match-over", "no seat decides once the match is over")


def _players(ruleset: Any) -> int:
    if isinstance(ruleset, str):
        from .. import reference

        return int(reference.preset(ruleset).players)
    return int(ruleset["players"])


# --------------------------------------------------------------------------- the first divergence


@dataclass
class Divergence:
    """The first position below a named one where two implementations' decisions differ.

    ``path`` holds the divide keys (PERFT-4) of the decisions from the named position to it;
    ``ours`` and ``theirs`` the keys each implementation allows there (sorted in its own order).
    """

    path: list[str]
    ours: list[str]
    theirs: list[str]
    summary: str


def find_divergence(
    ours: Engine, theirs: Engine, case_or_position: Any, depth: int | None = None, unit: str | None = None
) -> Divergence | None:
    """Descend through divide counts to the first position where ``ours`` and ``theirs`` differ.

    At each position both divides are compared: where the keys differ, that is the divergence;
    where they agree but a count differs, the walk goes down the first such decision (in our
    order) with what is left of the depth. ``None`` when every count agrees. ``depth`` and
    ``unit`` default to the case's (``decisions`` where it has none).
    """
    data = getattr(case_or_position, "data", case_or_position)
    if depth is None:
        depth = int(data["depth"]) if isinstance(data, dict) and "depth" in data else 1
    if unit is None:
        unit = str(data.get("unit", "decisions")) if isinstance(data, dict) else "decisions"
    position = Position.of(case_or_position)
    walkers = Walker(ours, position), Walker(theirs, position)
    path: list[dict[str, Any]] = []
    keys: list[str] = []
    left = depth
    while True:
        mine, other = (walker.divide(path, left, unit) for walker in walkers)
        if set(mine) != set(other):
            return _divergence(keys, list(mine), list(other))
        differing = next((key for key in mine if mine[key] != other[key]), None)
        if differing is None:
            return None
        view = walkers[0].view(path)
        action = dict(view_decisions(view, walkers[0].size))[differing]
        completes = action["type"] == "play" and len(view["trick"]) == walkers[0].players - 1
        below = left - 1 if unit == "decisions" else left - completes
        if below == 0:
            # Every sequence ends with this decision, so each side counts it once: only an
            # implementation's own perft command can say otherwise.
            where = " ".join([*keys, differing])
            summary = (
                f"after {where}, both allow the same decisions, but ours counts {mine[differing]} "
                f"sequences ending there, theirs {other[differing]}"
            )
            return Divergence([*keys, differing], list(mine), list(other), summary)
        path.append(action)
        keys.append(differing)
        left = below


def _divergence(path: list[str], ours: list[str], theirs: list[str]) -> Divergence:
    where = f"after {' '.join(path)}" if path else "at the named position"
    only_ours = [key for key in ours if key not in theirs]
    only_theirs = [key for key in theirs if key not in ours]
    if len(ours) <= 13 and len(theirs) <= 13:
        summary = f"{where}, ours allows [{', '.join(ours)}] theirs allows [{', '.join(theirs)}]"
    else:
        summary = (
            f"{where}, ours allows {len(ours)} decisions, theirs {len(theirs)}: "
            f"only ours [{', '.join(only_ours[:10])}{', …' if len(only_ours) > 10 else ''}], "
            f"only theirs [{', '.join(only_theirs[:10])}{', …' if len(only_theirs) > 10 else ''}]"
        )
    return Divergence(path, ours, theirs, summary)
