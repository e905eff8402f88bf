"""The two ways the runner reaches an implementation: in process, or through the driver protocol.

Both present the operations of spec/driver.md as methods; a rejected operation raises
:class:`EngineError` carrying the implementation's error code.
"""

from __future__ import annotations

import base64
import json
import subprocess
import time
from types import ModuleType
from typing import Any, Callable, NamedTuple, NoReturn

from .._jsonlines import (
    STDERR_KEPT,
    Child,
    InputClosed,
    LineTooLong,
    NotJson,
    OutputEnded,
    ReadTimeout,
    StartError,
    WriteTimeout,
    exit_text,
    parse_line,
    shut_down,
    split_command,
)
from ..errors import ReversisError

PROTOCOL_VERSION = 1
ALL_KINDS = ["card", "ruleset", "seed", "game", "record", "record-bytes", "perft"]


class EngineError(Exception):
    """An operation the implementation rejected, with the spec's error code and its message."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class EngineFault(Exception):
    """The implementation misbehaved: it crashed, hung, or answered outside the protocol.

    ``stderr`` holds the end of what the implementation had written to standard error.
    """

    def __init__(self, reason: str, stderr: str = "") -> None:
        super().__init__(reason)
        self.stderr = stderr


class EngineTimeout(EngineFault):
    """The implementation gave no answer within the timeout."""


def game_view(game: Any) -> dict[str, Any]:
    """The view of spec/driver.md DRV-6, read through the Python API of spec/api.md."""
    tricks = game.tricks_played
    players = game.ruleset.players
    return {
        "phase": game.phase,
        "hand_number": game.hand_number,
        "dealer": game.dealer,
        "pass_direction": game.pass_direction,
        "to_move": game.to_move,
        "moon_taker": game.moon_taker,
        "awaiting_pass": game.awaiting_pass,
        "legal": game.legal_plays(),
        "hands": [game.hand(seat) for seat in range(players)],
        "trick": game.trick,
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "hearts_broken": game.hearts_broken,
        "count_down": game.count_down,
        "points": game.points,
        "scores": game.scores,
        "hand_scores": game.hand_scores,
        "winners": game.winners,
        "to_act": game.to_act,
        "legal_actions": game.legal_actions(),
        "selected": [game.selected(seat) for seat in range(players)],
        "events": game.events,
        "last_hand": game.last_hand,
    }


class ModuleEngine:
    """An engine module presenting the API of spec/api.md, called in process."""

    def __init__(self, module: ModuleType, name: str) -> None:
        """Wrap ``module`` (``reversis`` or ``reversis.reference``) under a display name."""
        self.module = module
        self.name = name
        self._games: dict[int, Any] = {}
        self._next = 0

    #: Games never outlive an in-process engine's lifetime (see :attr:`DriverEngine.generation`).
    generation = 0

    def close(self) -> None:
        """Forget every game."""
        self._games.clear()

    def kill(self) -> None:
        """The same as :meth:`close`: nothing runs outside this process."""
        self.close()

    def stderr_tail(self, limit: int = 0) -> str:
        """Nothing: an in-process engine has no standard error of its own."""
        return ""

    def holds(self, game: Any) -> bool:
        """Whether ``game`` is the id of a game this engine holds."""
        return isinstance(game, int) and not isinstance(game, bool) and game in self._games

    def call(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Run one protocol command in process; the same answers a driver gives (spec/driver.md)."""
        try:
            return getattr(self, f"_cmd_{cmd}")(**args)
        except ReversisError as error:
            raise EngineError(error.code, str(error)) from None

    def _ruleset(self, ruleset: Any) -> Any:
        if isinstance(ruleset, str):
            return self.module.preset(ruleset)
        return self.module.Ruleset.from_json(ruleset)

    def _keep(self, game: Any) -> dict[str, Any]:
        self._next += 1
        self._games[self._next] = game
        return {"game": self._next}

    def _cmd_hello(self) -> dict[str, Any]:
        # One package, one spec version (and so one range of table sizes, RS-3) for both engines.
        from ..reference.ruleset import MAX_PLAYERS, MIN_PLAYERS, SPEC_VERSION

        return {
            "name": f"reversis ({self.name})",
            "protocol": PROTOCOL_VERSION,
            "spec_version": SPEC_VERSION,
            "version": getattr(self.module, "__version__", "unknown"),
            "capabilities": {
                "players": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                "presets": self.module.preset_names(),
                "custom_rulesets": True,
                "kinds": ALL_KINDS,
                "observations": True,
                "error_codes": True,
                "action_ids": True,
                "observation_tensor": True,
                "perft": True,
            },
        }

    def _cmd_parse_card(self, text: Any) -> dict[str, Any]:
        return {"card": self.module.parse_card(text)}

    def _cmd_ruleset(self, ruleset: Any) -> dict[str, Any]:
        value = self._ruleset(ruleset)
        return {
            "ruleset": value.to_json(),
            "hand_size": value.hand_size,
            "deck": value.deck,
            "point_cards": value.point_cards,
        }

    def _cmd_seed_draws(self, seed: int, count: int) -> dict[str, Any]:
        return {"draws": [f"0x{draw:016X}" for draw in self.module.seed_draws(seed, count)]}

    def _cmd_deal_from_seed(
        self, ruleset: Any, seed: int, deals: int, hand_number: int | None = None
    ) -> dict[str, Any]:
        # DRV-3: an optional argument given as null is the same as the argument left out.
        hand_number = 0 if hand_number is None else hand_number
        return {"deals": self.module.deal_from_seed(self._ruleset(ruleset), seed, deals, hand_number)}

    def _cmd_new_game(
        self, ruleset: Any, seed: int | None = None, hand_number: int | None = None, scores: list[int] | None = None
    ) -> dict[str, Any]:
        # DRV-3: null is the default (the Python API's hand_number=None is invalid-setup instead).
        hand_number = 0 if hand_number is None else hand_number
        return self._keep(self.module.Game(self._ruleset(ruleset), seed, hand_number=hand_number, scores=scores))

    def _game(self, game: int) -> Any:
        if not self.holds(game):
            raise EngineError("invalid-request", f"no game {game!r}")
        return self._games[game]

    def _cmd_apply(self, game: int, action: Any) -> dict[str, Any]:
        self._game(game).apply(action)
        return {}

    def _cmd_apply_action(self, game: int, action: Any, seat: Any = None) -> dict[str, Any]:
        self._game(game).apply_action(action, seat)
        return {}

    def _cmd_undo(self, game: int) -> dict[str, Any]:
        self._game(game).undo()
        return {}

    def _cmd_view(self, game: int) -> dict[str, Any]:
        return {"view": game_view(self._game(game))}

    def _cmd_state(self, game: int) -> dict[str, Any]:
        return {"state": self._game(game).state()}

    def _cmd_observation(self, game: int, seat: int) -> dict[str, Any]:
        return {"observation": self._game(game).observation(seat)}

    def _cmd_observation_tensor(self, game: int, seat: int) -> dict[str, Any]:
        return {"tensor": _encoder(self.module)(self._game(game), seat)}

    def _cmd_perft(self, game: int, depth: Any, unit: Any, divide: Any = None) -> dict[str, Any]:
        # DRV-8: with divide, the count is the sum of the divide, which is perft's (PERFT-4).
        if divide is not None and not isinstance(divide, bool):
            raise EngineError("invalid-setup", f"divide is true or false, not {json.dumps(divide)[:80]}")
        if not isinstance(unit, str):  # required here: the API's default of None is not the protocol's
            raise EngineError("invalid-setup", f"a perft unit is 'decisions' or 'tricks', not {json.dumps(unit)[:80]}")
        position = self._game(game)
        if divide:
            counts = position.divide(depth, unit)
            return {"count": sum(counts.values()), "divide": counts}
        return {"count": position.perft(depth, unit)}

    def _cmd_record(self, game: int) -> dict[str, Any]:
        return {"record": self._game(game).to_record()}

    def _cmd_load_record(self, record: Any) -> dict[str, Any]:
        return self._keep(self.module.Game.from_record(record))

    def _cmd_load_record_bytes(self, data: Any) -> dict[str, Any]:
        try:
            raw = base64.b64decode(data, validate=True) if isinstance(data, str) else None
        except ValueError:
            raw = None
        if raw is None:
            raise EngineError("invalid-request", "'data' must be base64 text (RFC 4648)")
        return self._keep(self.module.Game.from_record(self.module.load_record(raw)))

    def _cmd_record_bytes(self, game: int, format: Any) -> dict[str, Any]:
        encoded = self.module.dump_record(self._game(game).to_record(), format)
        return {"data": base64.b64encode(encoded).decode("ascii")}

    def _cmd_drop(self, game: int) -> dict[str, Any]:
        self._games.pop(game, None)
        return {}


def _encoder(module: ModuleType) -> Callable[[Any, int], list[int]]:
    """Each engine's own OBS-3 encoder (DRV-7): the core's for ``rust``, the pure-Python one for ``reference``.

    The two are written apart, so the cases hold each to the layout of spec/records.md.
    """
    if getattr(module, "ENGINE", None) == "rust":
        from .._core import _encode_observation

        return _encode_observation

    from ..encoding import encode_observation

    def encode(game: Any, seat: int) -> list[int]:
        # The seat is checked by the observation (ERR-6), before anything is encoded.
        return list(encode_observation(_Seen(game.ruleset, game.observation(seat))))

    return encode


class _Seen(NamedTuple):
    """What :func:`reversis.encoding.encode_observation` reads: the ruleset and an OBS-1 dict."""

    ruleset: Any
    data: dict[str, Any]


#: The longest line the runner reads from an implementation (spec/driver.md DRV-2).
MAX_LINE = 16 * 1024 * 1024
#: How much of an implementation's standard error the runner keeps: the last 64 KiB.
STDERR_TAIL = STDERR_KEPT
#: Seconds an implementation has to exit on its own (after ``quit``, or after closing its
#: output) before the runner kills it.
GRACE = 2.0


class DriverEngine:
    """An implementation in any language, driven as a subprocess over JSON Lines (spec/driver.md).

    Every request waits at most ``timeout`` seconds and reads at most ``max_line`` bytes; a crash,
    a hang, garbage or a wrong answer raises :class:`EngineFault` (:class:`EngineTimeout` for a
    hang), kills the implementation's process group, and the next request starts a fresh process.
    """

    def __init__(self, command: str, timeout: float = 10.0, max_line: int = MAX_LINE) -> None:
        """Prepare to run ``command`` (split like a shell would); the process starts on first use.

        :raises ValueError: for an empty or blank command, or one that cannot be split.
        """
        self.command = split_command(command)
        self.name = command
        self.timeout = timeout
        self.max_line = max_line
        self.generation = 0
        self._child: Child | None = None
        self._last: Child | None = None
        self._next_id = 0

    def __enter__(self) -> DriverEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def _process(self) -> subprocess.Popen[bytes] | None:
        return self._child.process if self._child is not None else None

    def stderr_tail(self, limit: int = STDERR_TAIL) -> str:
        """What the implementation last wrote to standard error (its latest process, even a dead one)."""
        child = self._child or self._last
        return child.stderr_tail(limit) if child is not None else ""

    def _start(self) -> Child:
        if self._child is not None:
            return self._child
        try:
            # A BOM before the first answer is tolerated, as the built-in driver tolerates one before the first request.
            child = Child(self.command, name=self.name, max_line=self.max_line, bom=True)
        except StartError as error:
            raise EngineFault(str(error)) from None
        self._child = self._last = child
        return child

    def close(self) -> None:
        """Ask the implementation to quit, give it a moment, then make sure it and its children are gone."""
        child, self._child = self._child, None
        if child is None:
            return
        self.generation += 1
        self._next_id += 1
        shut_down([(child, {"id": self._next_id, "cmd": "quit"})], GRACE)

    def kill(self) -> None:
        """Kill the implementation and everything it started at once, without asking it to quit."""
        child, self._child = self._child, None
        if child is not None:
            self.generation += 1
            child.kill()

    def call(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; see the class docstring for faults."""
        child = self._start()
        self._next_id += 1
        request_id = self._next_id
        deadline = time.monotonic() + self.timeout
        try:
            child.send({"id": request_id, "cmd": cmd, **args}, deadline)
            raw = child.receive(deadline)
        except WriteTimeout:
            self._fault(f"the implementation did not read the {cmd} request within {self.timeout:g} s", timeout=True)
        except ReadTimeout:
            self._fault(f"no answer to {cmd} within {self.timeout:g} s", timeout=True)
        except LineTooLong:
            self._fault(f"answer to {cmd} is a line longer than {_size(self.max_line)}")
        except InputClosed:
            self._fault(self._ending(child, f"closed its input before reading {cmd}", cmd))
        except OutputEnded:
            self._fault(self._ending(child, f"closed its output before answering {cmd}", cmd))
        try:
            answer = parse_line(raw)
        except NotJson as error:
            if error.text is None:
                self._fault(f"answer to {cmd} is not UTF-8: {raw[:200]!r}")
            self._fault(f"answer to {cmd} is not JSON: {error.text[:200]!r}")
        line = raw.decode("utf-8")
        if not isinstance(answer, dict) or answer.get("id") != request_id or not isinstance(answer.get("ok"), bool):
            self._fault(f"answer to {cmd} (request {request_id}) is not a protocol answer: {line[:200]!r}")
        if not answer["ok"]:
            code = answer.get("error")
            if not isinstance(code, str):
                self._fault(f"failed answer to {cmd} carries no error code: {line[:200]!r}")
            raise EngineError(code, str(answer.get("message", "")))
        return answer

    def _ending(self, child: Child, otherwise: str, cmd: str) -> str:
        """Why the implementation stopped talking: how it exited, if it does soon, else ``otherwise``."""
        status = child.wait_exit(min(GRACE, self.timeout))
        if status is not None:
            return f"the implementation {exit_text(status)} before answering {cmd}"
        return f"the implementation {otherwise}"

    def _fault(self, reason: str, *, timeout: bool = False) -> NoReturn:
        child, self._child = self._child, None
        stderr = ""
        if child is not None:
            self.generation += 1
            child.kill()
            stderr = child.stderr_tail()
        raise (EngineTimeout if timeout else EngineFault)(reason, stderr)


def _size(count: int) -> str:
    mib = count / 2**20
    return f"{mib:g} MiB" if mib >= 1 and mib == int(mib) else f"{count:,} bytes"


def builtin_engine(name: str) -> ModuleEngine:
    """The in-process adapter for a built-in engine: ``rust`` or ``reference``."""
    if name == "reference":
        from .. import reference

        return ModuleEngine(reference, "reference")
    if name == "rust":
        import reversis

        return ModuleEngine(reversis, "rust")
    raise ValueError(f"unknown engine {name!r}; use 'rust' or 'reference'")
