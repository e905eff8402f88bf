"""Players in other processes, written in any language, through the player protocol (spec/player.md).

:class:`ProcessPlayer` is the table's side of the protocol: it starts the player's command in a
process group of its own, says hello (PLY-3), asks one ``act`` per decision (PLY-5) and turns
every fault of PLY-6 into a forfeit of the hand (PLY-7): the process group is killed, the rest of
the seat's hand is played by the fallback, the lowest legal id, and the next hand starts a fresh
process. The pipes are the JSON Lines transport the conformance runner's driver client speaks
too (:mod:`reversis._jsonlines`): whatever the player does, the table waits at most the time
limit and holds a bounded amount of memory, and no process of a player outlives the table:
groups are killed on :meth:`ProcessPlayer.close`, on Ctrl-C and at exit (:func:`kill_all`).

:class:`LowestPlayer` plays the fallback as an ordinary player.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Callable, NoReturn

from .._jsonlines import (
    STDERR_KEPT,
    STDERR_MODES,
    Child,
    InputClosed,
    LineTooLong,
    NotJson,
    OutputEnded,
    ReadTimeout,
    StartError,
    TransportError,
    WriteTimeout,
    exit_text,
    kill_all,
    parse_line,
    shut_down,
    split_command,
)
from .base import Observation, Player

__all__ = [
    "DEFAULT_TIME_LIMIT_MS",
    "FAULT_KINDS",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "STDERR_KEPT",
    "Forfeit",
    "LowestPlayer",
    "PlayerFault",
    "ProcessPlayer",
    "close_all",
    "kill_all",
    "legal_action_ids",
]

#: The version of spec/player.md this table speaks (PLY-10).
PROTOCOL_VERSION = 1
#: The longest line a player may write, newline not counted (PLY-1).
MAX_LINE = 1024 * 1024
#: How much of a player's standard error goes with a forfeit (PLY-7); :data:`STDERR_KEPT` of it is kept (PLY-1).
FORFEIT_STDERR = 2 * 1024
#: The default limit of one decision, and the least a hello is given (PLY-3, PLY-5).
DEFAULT_TIME_LIMIT_MS = 5000
MIN_HELLO_TIME_LIMIT_MS = 10_000
#: Seconds a player has to exit after ``quit`` before its group is killed (PLY-4).
GRACE = 2.0
#: The kinds of fault of PLY-6, in the order a line is judged.
FAULT_KINDS = ("start", "exited", "timeout", "too-long", "not-json", "invalid-answer", "illegal-action")
#: The longest ``name`` a hello may give (PLY-3).
MAX_NAME = 64

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"
_MOON_CHOICES = {104: "add-to-others", 105: "subtract-from-taker"}


def _spec_version() -> str:
    try:
        from ..reference.ruleset import SPEC_VERSION
    except ImportError:  # an older reference engine, from before versions were stated
        return "1.0.0"
    return str(SPEC_VERSION)


def _card_id(card: str) -> int:
    """CARD-2: ``suit · 13 + rank`` of a canonical card."""
    return _SUITS.index(card[1]) * 13 + _RANKS.index(card[0])


def _card(card_id: int) -> str:
    return _RANKS[card_id % 13] + _SUITS[card_id // 13]


def legal_action_ids(observation: dict[str, Any]) -> list[int]:
    """The legal action ids of the observing seat (ACT-3), ascending, from its observation (OBS-1) alone."""
    seat = observation["seat"]
    phase = observation["phase"]
    if phase == "play" and observation["to_move"] == seat:
        return sorted(_card_id(card) for card in observation["legal"])
    if phase == "pass" and seat in observation["awaiting_pass"]:
        # ACT-3: every card held more times than it is selected (two packs: a seat may hold two).
        held = list(observation["hand"])
        for card in observation["selected"]:
            if card in held:
                held.remove(card)
        return sorted({52 + _card_id(card) for card in held})
    if phase == "moon" and observation["moon_taker"] == seat:
        return [104, 105]
    return []


def _act_by_ids(observation: Observation, choose: Callable[[dict[str, Any], list[int]], int]) -> dict[str, Any]:
    """The ACT-1 action of the observing seat, made of the ids ``choose`` picks one decision at a time.

    A pass is several decisions (ACT-2); between them only the seat's ``selected`` changes in its
    observation, so each is asked with the observation the game would give after the previous ones.
    """
    data = observation.data
    seat = observation.seat
    if observation.phase == "pass":
        size = int(observation.ruleset.passing["size"])
        selected = list(data["selected"])
        while len(selected) < size:
            selected.append(_card(choose(data, legal_action_ids(data)) - 52))
            data = {**data, "selected": list(selected)}
        return {"type": "pass", "seat": seat, "cards": selected}
    chosen = choose(data, legal_action_ids(data))
    if observation.phase == "moon":
        return {"type": "moon", "seat": seat, "choice": _MOON_CHOICES[chosen]}
    return {"type": "play", "seat": seat, "card": _card(chosen)}


def _lowest(observation: dict[str, Any], legal: list[int]) -> int:
    if not legal:
        raise ValueError(f"seat {observation['seat']} has no decision to make in phase {observation['phase']!r}")
    return min(legal)


class LowestPlayer(Player):
    """Plays the lowest legal id of every decision: the fallback of a forfeited hand (PLY-7), as a player."""

    name = "lowest"

    def act(self, observation: Observation) -> dict[str, Any]:
        """The lowest legal card, the lowest cards to pass, or ``add-to-others``."""
        return _act_by_ids(observation, _lowest)


class PlayerFault(Exception):
    """A player that broke the protocol (PLY-6): ``kind`` is one of :data:`FAULT_KINDS`."""

    def __init__(self, kind: str, reason: str, stderr: str = "") -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason
        self.stderr = stderr

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its fields, not from ``args`` (the message alone), when sent back from a worker.
        return type(self), (self.kind, self.reason, self.stderr), self.__dict__


@dataclass(frozen=True)
class Forfeit:
    """A seat's forfeited hand (PLY-7): the fault's kind and reason, the decision that faulted, its stderr tail."""

    kind: str
    reason: str
    decision: int
    stderr: str = ""

    def to_json(self) -> dict[str, Any]:
        """As JSON data."""
        return asdict(self)


def _is_int(value: Any) -> bool:
    return type(value) is int  # JSON integers only: neither true nor 13.0


def _valid_name(name: Any) -> bool:
    return (
        isinstance(name, str)
        and 0 < len(name) <= MAX_NAME
        and not any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in name)
    )


class ProcessPlayer(Player):
    """A player in another process, speaking spec/player.md; it plays one seat of one ruleset.

    ``command`` is a command line (split as a POSIX shell would) or a list of words. The process
    starts with the first hand (or at :meth:`open`) and serves hand after hand; each fault of
    PLY-6 forfeits the hand in progress (:attr:`forfeit`), its remaining decisions played by the
    lowest legal id, and the next hand starts a new process. ``stderr`` is ``"capture"`` (the
    last 64 KiB kept, a tail of it in each forfeit), ``"show"`` (the table's standard error) or
    ``"discard"``. Close it, or use it as a context manager: :func:`kill_all` at exit is the last
    resort.
    """

    name = "process"

    def __init__(
        self,
        command: str | Sequence[str],
        ruleset: Any,
        seat: int,
        *,
        time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
        stderr: str = "capture",
        max_line: int = MAX_LINE,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """Prepare to run ``command`` for ``seat`` at a table of ``ruleset``; nothing starts yet.

        :raises ValueError: for an empty or blank command, one that cannot be split, an unknown
            ``stderr`` or a time limit under 1 ms.
        """
        self.argv = split_command(command)
        if stderr not in STDERR_MODES:
            raise ValueError(f"stderr is 'capture', 'show' or 'discard', not {stderr!r}")
        if time_limit_ms < 1:
            raise ValueError("the time limit is at least 1 ms")
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.ruleset = ruleset
        self.seat = int(seat)
        self.time_limit_ms = int(time_limit_ms)
        self.hello_time_limit_ms = max(MIN_HELLO_TIME_LIMIT_MS, self.time_limit_ms)
        self.stderr = stderr
        self.max_line = max_line
        self.cwd = cwd
        self.env = env
        #: The player's hello, once it has given one; :attr:`name` is its ``name`` from then on.
        self.hello: dict[str, Any] | None = None
        self.name = self.command
        #: The forfeit of the hand in progress, or ``None`` (PLY-7).
        self.forfeit: Forfeit | None = None
        #: Whether the last decision was the fallback's.
        self.fell_back = False
        self._child: Child | None = None
        self._next_id = 0
        self._hand: int | None = None
        self._decision = 0

    def __enter__(self) -> ProcessPlayer:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.kill()

    @property
    def pid(self) -> int | None:
        """The process id (and group id) of the running player, or ``None``."""
        return self._child.pid if self._child is not None else None

    def open(self) -> str:
        """Start the player and exchange hellos, if it is not running; returns its name.

        :raises PlayerFault: of kind ``start`` if it cannot start or gives no valid hello.
        """
        if self._child is None:
            self._spawn()
        return self.name

    def start_hand(self, hand_number: int, seed: int | None = None) -> None:
        """Begin a hand (PLY-4): start the player if it is not running, and send it ``start``.

        A player that cannot be started (again) forfeits the hand from its first decision (PLY-7).
        """
        self._hand = int(hand_number)
        self._decision = 0
        self.forfeit = None
        if self._child is not None and self._child.ended():
            # Ended between hands: no decision was lost, so a new process and no forfeit (PLY-6).
            self._drop()
        try:
            child = self._child or self._spawn()
        except PlayerFault as fault:
            self.forfeit = Forfeit(fault.kind, fault.reason, 0, fault.stderr)
            return
        start = {"type": "start", "hand_number": self._hand, "seed": seed}
        # A failed write is no fault in itself (PLY-6): the first act finds out why.
        with contextlib.suppress(TransportError):
            child.send(start, time.monotonic() + self.time_limit_ms / 1000)

    def end_hand(self, last_hand: dict[str, Any], totals: Sequence[int]) -> None:
        """Tell the player how the hand it played ended (EVT-2 and the totals); a failed write is no fault."""
        told = self._hand is not None and self.forfeit is None
        self._hand = None
        if not told or self._child is None:
            return
        keys = ("hand_number", "scores", "points", "moon_taker", "moon_choice", "tricks")
        message = {"type": "end", **{key: last_hand[key] for key in keys}, "totals": list(totals)}
        try:
            self._child.send(message, time.monotonic() + GRACE)
        except TransportError:
            self._drop()

    def decide(self, observation: dict[str, Any], legal_actions: Sequence[int]) -> int:
        """The id the player chooses for one decision of its seat (PLY-5), or the fallback's after a fault."""
        legal = [int(i) for i in legal_actions]
        if not legal:
            raise ValueError("a decision needs at least one legal action")
        if observation.get("seat") != self.seat:
            raise ValueError(f"this player plays seat {self.seat}, not {observation.get('seat')}")
        if self._hand is None or observation.get("hand_number") != self._hand:
            self.start_hand(int(observation["hand_number"]))
        decision = self._decision
        self._decision += 1
        if self.forfeit is None:
            try:
                chosen = self._ask(observation, legal)
                self.fell_back = False
                return chosen
            except PlayerFault as fault:
                self.forfeit = Forfeit(fault.kind, fault.reason, decision, fault.stderr)
        self.fell_back = True
        return min(legal)

    def act(self, observation: Observation) -> dict[str, Any]:
        """The seat's ACT-1 action, one protocol decision per id (a pass is several)."""
        fell_back = False

        def choose(data: dict[str, Any], legal: list[int]) -> int:
            nonlocal fell_back
            chosen = self.decide(data, legal)
            fell_back = fell_back or self.fell_back
            return chosen

        action = _act_by_ids(observation, choose)
        self.fell_back = fell_back
        return action

    def close(self) -> None:
        """Send ``quit``, give the player :data:`GRACE` seconds to exit, then kill its group (PLY-4)."""
        close_all([self])

    def kill(self) -> None:
        """Kill the player's process group at once, without a ``quit``."""
        self._drop()

    # -- the protocol

    def _drop(self) -> None:
        child = self._child
        if child is not None:
            child.kill()
        self._child = None

    def _fault(self, kind: str, reason: str) -> NoReturn:
        child = self._child
        stderr = ""
        if child is not None:
            child.kill()
            stderr = child.stderr_tail(FORFEIT_STDERR)
        self._child = None
        raise PlayerFault(kind, reason, stderr)

    def _spawn(self) -> Child:
        try:
            child = Child(
                self.argv, name=self.command, max_line=self.max_line, stderr=self.stderr, cwd=self.cwd, env=self.env
            )
        except StartError as error:
            raise PlayerFault("start", str(error)) from None
        self._child = child
        self._next_id = 0
        hello = {
            "type": "hello",
            "protocol_version": PROTOCOL_VERSION,
            "spec_version": _spec_version(),
            "ruleset": self.ruleset.to_json(),
            "seat": self.seat,
            "time_limit_ms": self.time_limit_ms,
            "hello_time_limit_ms": self.hello_time_limit_ms,
        }
        try:
            answer = self._exchange(child, hello, "hello", self.hello_time_limit_ms)
        except PlayerFault as fault:
            raise PlayerFault("start", f"no valid hello: {fault.reason}", fault.stderr) from None
        if not isinstance(answer, dict) or answer.get("type") != "hello":
            self._fault("start", f"the answer to hello is not a hello: {_shown(answer)}")
        version = answer.get("protocol_version")
        if not _is_int(version) or version != PROTOCOL_VERSION:
            self._fault("start", f"it speaks protocol version {version!r}; this table speaks {PROTOCOL_VERSION}")
        if not _valid_name(answer.get("name")):
            self._fault("start", f"its hello has no valid name (1 to {MAX_NAME} characters): {_shown(answer)}")
        self.hello = answer
        self.name = str(answer["name"])
        return child

    def _ask(self, observation: dict[str, Any], legal: list[int]) -> int:
        child = self._child
        if child is None:  # killed by a failed write after the last hand, and not started again
            raise PlayerFault("exited", "the player's process is gone")
        self._next_id += 1
        number = self._next_id
        message = {
            "type": "act",
            "id": number,
            "observation": observation,
            "legal_actions": legal,
            "time_limit_ms": self.time_limit_ms,
        }
        answer = self._exchange(child, message, f"act {number}", self.time_limit_ms)
        if not isinstance(answer, dict) or not _is_int(answer.get("id")) or answer["id"] != number:
            self._fault("invalid-answer", f"the answer to act {number} does not carry its id: {_shown(answer)}")
        action = answer.get("action")
        if not _is_int(action):
            self._fault("invalid-answer", f"the answer to act {number} has no integer action: {_shown(answer)}")
        if action not in legal:
            self._fault("illegal-action", f"action {action} answered to act {number} is not one of {legal}")
        return int(action)

    def _exchange(self, child: Child, message: dict[str, Any], what: str, limit_ms: int) -> Any:
        """Send ``message`` and read one answer line within ``limit_ms``, parsed as JSON; faults otherwise."""
        deadline = time.monotonic() + limit_ms / 1000
        try:
            child.send(message, deadline)
            line = child.receive(deadline)
        except WriteTimeout:
            self._fault("timeout", f"it did not read {what} within {limit_ms} ms")
        except ReadTimeout:
            self._fault("timeout", f"no answer to {what} within {limit_ms} ms")
        except LineTooLong:
            self._fault("too-long", f"the answer to {what} is a line longer than {self.max_line:,} bytes")
        except InputClosed:
            self._fault("exited", f"it {self._ending(child, 'closed its standard input')} before reading {what}")
        except OutputEnded:
            self._fault("exited", f"it {self._ending(child, 'closed its standard output')} before answering {what}")
        try:
            return parse_line(line)
        except NotJson:
            self._fault("not-json", f"the answer to {what} is not JSON: {line[:200]!r}")

    @staticmethod
    def _ending(child: Child, otherwise: str) -> str:
        """How the player ended, if it does within a moment, else ``otherwise``."""
        status = child.wait_exit(0.2)
        return exit_text(status) if status is not None else otherwise


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 200 else text[:200] + "…"


def close_all(players: Iterable[ProcessPlayer]) -> None:
    """Close players together: each gets ``quit``, all share :data:`GRACE` seconds, then their groups are killed."""
    closing = []
    for player in players:
        player._hand = None
        if player._child is not None:
            closing.append(player)
    try:
        # Killed even after it exited: whatever it started in its group goes with it (PLY-4).
        shut_down([(player._child, {"type": "quit"}) for player in closing if player._child is not None], GRACE)
    finally:
        for player in closing:
            player._drop()
