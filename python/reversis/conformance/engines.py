"""The two ways the runner reaches an implementation: in process, or through the driver protocol.

Both present the operations of spec/driver.md as methods; a rejected operation raises
:class:`EngineError` carrying the implementation's error code.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from types import ModuleType
from typing import Any, NoReturn

from ..errors import ReversisError

PROTOCOL_VERSION = 1
ALL_KINDS = ["card", "ruleset", "seed", "game", "record"]


class EngineError(Exception):
    """An operation the implementation rejected, with the spec's error code."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code


class EngineFault(Exception):
    """The implementation misbehaved: it crashed, hung, or answered outside the protocol."""


def game_view(game: Any) -> dict[str, Any]:
    """The view of conformance/README.md, read through the Python API of spec/api.md."""
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

    def close(self) -> None:
        """Forget every game."""
        self._games.clear()

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
        return {
            "name": f"reversis ({self.name})",
            "protocol": PROTOCOL_VERSION,
            "version": getattr(self.module, "__version__", "unknown"),
            "capabilities": {
                "players": [3, 4, 5, 6, 7],
                "presets": self.module.preset_names(),
                "custom_rulesets": True,
                "kinds": ALL_KINDS,
                "observations": True,
                "error_codes": True,
                "action_ids": True,
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

    def _cmd_deal_from_seed(self, ruleset: Any, seed: int, deals: int, hand_number: int = 0) -> dict[str, Any]:
        return {"deals": self.module.deal_from_seed(self._ruleset(ruleset), seed, deals, hand_number)}

    def _cmd_new_game(
        self, ruleset: Any, seed: int | None = None, hand_number: int = 0, scores: list[int] | None = None
    ) -> dict[str, Any]:
        return self._keep(self.module.Game(self._ruleset(ruleset), seed, hand_number=hand_number, scores=scores))

    def _game(self, game: int) -> Any:
        if isinstance(game, bool) or not isinstance(game, int) or game not in self._games:
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

    def _cmd_record(self, game: int) -> dict[str, Any]:
        return {"record": self._game(game).to_record()}

    def _cmd_load_record(self, record: Any) -> dict[str, Any]:
        return self._keep(self.module.Game.from_record(record))

    def _cmd_drop(self, game: int) -> dict[str, Any]:
        self._games.pop(game, None)
        return {}


class DriverEngine:
    """An implementation in any language, driven as a subprocess over JSON Lines (spec/driver.md).

    Every request waits at most ``timeout`` seconds; a crash, a hang, garbage or a wrong answer
    raises :class:`EngineFault`, kills the process, and the next request starts a fresh one.
    """

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        """Prepare to run ``command`` (split like a shell would); the process starts on first use."""
        self.command = shlex.split(command)
        self.name = command
        self.timeout = timeout
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._next_id = 0
        self.stderr_tail: list[str] = []

    def _start(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._lines = queue.Queue()
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            start_new_session=True,
        )
        lines = self._lines
        threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
        threading.Thread(target=self._drain_stderr, args=(process.stderr,), daemon=True).start()
        self._process = process
        return process

    def _drain_stderr(self, stream: Any) -> None:
        for line in stream:
            self.stderr_tail = [*self.stderr_tail[-19:], line.rstrip("\n")]

    def close(self) -> None:
        """Ask the implementation to quit, then make sure it and its children are gone."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(json.dumps({"id": 0, "cmd": "quit"}) + "\n")
                process.stdin.flush()
                process.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        _kill_group(process)

    def call(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; see the class docstring for faults."""
        process = self._start()
        self._next_id += 1
        request_id = self._next_id
        try:
            assert process.stdin is not None
            process.stdin.write(json.dumps({"id": request_id, "cmd": cmd, **args}) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            self._fault(f"could not write the {cmd} request: the implementation closed its input")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._fault(f"no answer to {cmd} within {self.timeout:g} s")
        if line is None:
            code = process.poll()
            self._fault(f"the implementation exited (status {code}) before answering {cmd}")
        try:
            answer = json.loads(line)
        except ValueError:
            self._fault(f"answer to {cmd} is not JSON: {line[:200]!r}")
        if not isinstance(answer, dict) or answer.get("id") != request_id or not isinstance(answer.get("ok"), bool):
            self._fault(f"answer to {cmd} (request {request_id}) is not a protocol answer: {line[:200]!r}")
        if not answer["ok"]:
            code = answer.get("error")
            if not isinstance(code, str):
                self._fault(f"failed answer to {cmd} carries no error code: {line[:200]!r}")
            raise EngineError(code, str(answer.get("message", "")))
        return answer

    def _fault(self, reason: str) -> NoReturn:
        process, self._process = self._process, None
        if process is not None:
            _kill_group(process)
        raise EngineFault(reason)


def _pump(stream: Any, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill the implementation and anything it started, then reap it."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    for stream in (process.stdin, process.stdout, process.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


def builtin_engine(name: str) -> ModuleEngine:
    """The in-process adapter for a built-in engine: ``rust`` or ``reference``."""
    if name == "reference":
        from .. import reference

        return ModuleEngine(reference, "reference")
    if name == "rust":
        import reversis

        return ModuleEngine(reversis, "rust")
    raise ValueError(f"unknown engine {name!r}; use 'rust' or 'reference'")
