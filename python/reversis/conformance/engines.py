"""The two ways the runner reaches an implementation: in process, or through the driver protocol.

Both present the operations of spec/driver.md as methods; a rejected operation raises
:class:`EngineError` carrying the implementation's error code.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Iterator
from types import ModuleType
from typing import Any, NoReturn

from ..errors import ReversisError

PROTOCOL_VERSION = 1
ALL_KINDS = ["card", "ruleset", "seed", "game", "record", "record-bytes"]


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
        from ..reference.ruleset import SPEC_VERSION  # one package, one spec version for both engines

        return {
            "name": f"reversis ({self.name})",
            "protocol": PROTOCOL_VERSION,
            "spec_version": SPEC_VERSION,
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


#: The longest line the runner reads from an implementation (spec/driver.md DRV-2).
MAX_LINE = 16 * 1024 * 1024
#: How much of an implementation's standard error the runner keeps: the last 64 KiB.
STDERR_TAIL = 64 * 1024
#: Seconds an implementation has to exit on its own (after ``quit``, or after closing its
#: output) before the runner kills it.
GRACE = 2.0
_CHUNK = 64 * 1024
#: While it waits for an answer, how often the runner looks whether the implementation has exited,
#: and how long it then waits for an answer still in the pipe.
_POLL = 0.05
_LAST_WORDS = 0.2
#: The signals that must not cut short the killing of an implementation.
_HELD_SIGNALS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class _End:
    """Why an implementation's output stopped giving lines: ``eof``, ``exited``, ``too-long`` or ``input-closed``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


class _Child:
    """One run of an implementation: its process group, the threads that talk to it, its stderr tail.

    Threads read standard output and standard error; standard input is written without
    blocking (by a thread where pipes cannot be made non-blocking). Whatever the implementation
    does (never reading, never answering, writing without end) the runner waits at most its
    timeout and holds a bounded amount of memory.
    """

    def __init__(self, command: list[str], max_line: int) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            # Its own process group, so that killing it reaches whatever it started.
            start_new_session=True,
        )
        self.max_line = max_line
        # Small: a flood of lines makes the implementation wait on its pipe, not the runner grow.
        self.answers: queue.Queue[bytes | _End] = queue.Queue(maxsize=2)
        self.first_line = True
        self._stop = threading.Event()
        self._stderr = bytearray()
        self._stderr_cut = False
        self._stderr_lock = threading.Lock()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        threads = [threading.Thread(target=self._read_answers, daemon=True), self._stderr_reader]
        self._requests: queue.Queue[bytes | None] | None = None
        assert self.process.stdin is not None
        if os.name == "posix":
            # Written from the calling thread: one thread hop less per request than a writer thread.
            os.set_blocking(self.process.stdin.fileno(), False)
        else:
            self._requests = queue.Queue()
            threads.append(threading.Thread(target=self._write_requests, daemon=True))
        for thread in threads:
            thread.start()

    def send(self, data: bytes, timeout: float) -> str | None:
        """Write one request line within ``timeout`` seconds; else say why not: ``timeout`` or ``input-closed``."""
        if self._requests is not None:
            self._requests.put(data)
            return None
        stream = self.process.stdin
        assert stream is not None
        deadline = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(stream.fileno(), view) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                select.select([], [stream], [], remaining)
            except (OSError, ValueError):
                return "input-closed"
        return None

    def close_input(self) -> None:
        """Close the implementation's standard input: the end of its input (DRV-2)."""
        if self._requests is not None:
            self._requests.put(None)
            return
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()

    def next_answer(self, timeout: float) -> bytes | _End | None:
        """The next line of output (without its newline), why the output ended, or ``None`` on timeout."""
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                return self.answers.get(timeout=min(remaining, _POLL))
            except queue.Empty:
                pass
            if self.process.poll() is not None:
                # A process it started may hold its output open, so no end of output comes: after
                # a last look for an answer written just before it exited, the exit is the answer.
                try:
                    return self.answers.get(timeout=min(remaining, _LAST_WORDS))
                except queue.Empty:
                    return _End("exited")
        return None

    def wait_exit(self, seconds: float) -> int | None:
        """The exit status once the process has ended within ``seconds``, else ``None``."""
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the whole process group, then reap the process; safe to repeat."""
        self._stop.set()
        with _signals_held():
            _kill_group(self.process)
        self.close_input()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        # The last words of a crashing implementation are often the most useful ones.
        self._stderr_reader.join(timeout=0.5)

    def stderr_tail(self, limit: int = STDERR_TAIL) -> str:
        """The last ``limit`` bytes the implementation wrote to standard error, from a line start."""
        with self._stderr_lock:
            data = bytes(self._stderr[-limit:])
            cut = self._stderr_cut or len(self._stderr) > limit
        text = data.decode("utf-8", "replace")
        if cut and "\n" in text:
            text = text.split("\n", 1)[1]
        return text

    def _deliver(self, item: bytes | _End) -> bool:
        while not self._stop.is_set():
            try:
                self.answers.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read_answers(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        pending = bytearray()
        try:
            while True:
                try:
                    chunk = os.read(stream.fileno(), _CHUNK)
                except OSError:
                    chunk = b""
                if not chunk:
                    self._deliver(_End("eof"))
                    return
                start = 0
                while (newline := chunk.find(b"\n", start)) >= 0:
                    if len(pending) + newline - start > self.max_line:
                        self._deliver(_End("too-long"))
                        return
                    pending += chunk[start:newline]
                    if not self._deliver(bytes(pending)):
                        return
                    pending.clear()
                    start = newline + 1
                pending += chunk[start:]
                if len(pending) > self.max_line:
                    self._deliver(_End("too-long"))
                    return
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        try:
            while True:
                try:
                    chunk = os.read(stream.fileno(), _CHUNK)
                except OSError:
                    return
                if not chunk:
                    return
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_TAIL:
                        del self._stderr[: len(self._stderr) - STDERR_TAIL]
                        self._stderr_cut = True
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def _write_requests(self) -> None:
        stream = self.process.stdin
        assert stream is not None and self._requests is not None
        try:
            while (data := self._requests.get()) is not None:
                view = memoryview(data)
                try:
                    while view:
                        view = view[os.write(stream.fileno(), view) :]
                except OSError:
                    if not self._stop.is_set():
                        self._deliver(_End("input-closed"))
                    return
        finally:
            with contextlib.suppress(OSError):
                stream.close()


class DriverEngine:
    """An implementation in any language, driven as a subprocess over JSON Lines (spec/driver.md).

    Every request waits at most ``timeout`` seconds and reads at most ``max_line`` bytes; a crash,
    a hang, garbage or a wrong answer raises :class:`EngineFault` (:class:`EngineTimeout` for a
    hang), kills the implementation's process group, and the next request starts a fresh process.
    """

    def __init__(self, command: str, timeout: float = 10.0, max_line: int = MAX_LINE) -> None:
        """Prepare to run ``command`` (split like a shell would); the process starts on first use."""
        self.command = shlex.split(command)
        self.name = command
        self.timeout = timeout
        self.max_line = max_line
        self.generation = 0
        self._child: _Child | None = None
        self._last: _Child | None = None
        self._next_id = 0
        _LIVE.add(self)

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

    def _start(self) -> _Child:
        if self._child is not None:
            return self._child
        try:
            child = _Child(self.command, self.max_line)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise EngineFault(f"could not start {self.name!r}: {reason}") from None
        self._child = self._last = child
        return child

    def close(self) -> None:
        """Ask the implementation to quit, give it a moment, then make sure it and its children are gone."""
        child, self._child = self._child, None
        if child is None:
            return
        self.generation += 1
        try:
            if child.process.poll() is None:
                self._next_id += 1
                child.send(json.dumps({"id": self._next_id, "cmd": "quit"}).encode() + b"\n", GRACE)
                child.close_input()
                child.wait_exit(GRACE)
        finally:
            child.kill()

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
        unsent = child.send(json.dumps({"id": request_id, "cmd": cmd, **args}).encode("utf-8") + b"\n", self.timeout)
        if unsent == "timeout":
            self._fault(f"the implementation did not read the {cmd} request within {self.timeout:g} s", timeout=True)
        if unsent == "input-closed":
            self._fault(self._ending(child, _End("input-closed"), cmd))
        item = child.next_answer(max(0.0, deadline - time.monotonic()))
        if item is None:
            self._fault(f"no answer to {cmd} within {self.timeout:g} s", timeout=True)
        if isinstance(item, _End):
            self._fault(self._ending(child, item, cmd))
        try:
            line = item.decode("utf-8")
        except UnicodeDecodeError:
            self._fault(f"answer to {cmd} is not UTF-8: {item[:200]!r}")
        if child.first_line:
            child.first_line = False
            line = line.removeprefix("\ufeff")
        try:
            answer = json.loads(line, parse_constant=_not_json)
        except (ValueError, RecursionError):
            self._fault(f"answer to {cmd} is not JSON: {line[:200]!r}")
        if not isinstance(answer, dict) or answer.get("id") != request_id or not isinstance(answer.get("ok"), bool):
            self._fault(f"answer to {cmd} (request {request_id}) is not a protocol answer: {line[:200]!r}")
        if not answer["ok"]:
            code = answer.get("error")
            if not isinstance(code, str):
                self._fault(f"failed answer to {cmd} carries no error code: {line[:200]!r}")
            raise EngineError(code, str(answer.get("message", "")))
        return answer

    def _ending(self, child: _Child, end: _End, cmd: str) -> str:
        if end.kind == "too-long":
            return f"answer to {cmd} is a line longer than {_size(self.max_line)}"
        status = child.wait_exit(min(GRACE, self.timeout))
        if status is not None:
            return f"the implementation {exit_text(status)} before answering {cmd}"
        if end.kind == "input-closed":
            return f"the implementation closed its input before reading {cmd}"
        return f"the implementation closed its output before answering {cmd}"

    def _fault(self, reason: str, *, timeout: bool = False) -> NoReturn:
        child, self._child = self._child, None
        stderr = ""
        if child is not None:
            self.generation += 1
            child.kill()
            stderr = child.stderr_tail()
        raise (EngineTimeout if timeout else EngineFault)(reason, stderr)


#: Every driver engine not yet collected, killed at interpreter exit if nobody closed it.
_LIVE: weakref.WeakSet[DriverEngine] = weakref.WeakSet()


@atexit.register
def _kill_leftovers() -> None:
    for engine in list(_LIVE):
        with contextlib.suppress(Exception):
            engine.kill()


def exit_text(status: int) -> str:
    """How a process ended, from :attr:`subprocess.Popen.returncode`: its status, or the signal."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = f" ({signal.Signals(-status).name})"
    except ValueError:
        name = ""
    return f"was killed by signal {-status}{name}"


def _size(count: int) -> str:
    mib = count / 2**20
    return f"{mib:g} MiB" if mib >= 1 and mib == int(mib) else f"{count:,} bytes"


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and termination signals for the few statements that kill an implementation.

    A signal arriving half-way would otherwise leave the process group alive; it is delivered
    as soon as the statements are done.
    """
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or not _HELD_SIGNALS or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = mask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Send SIGKILL to the implementation's process group, then to it alone where groups do not exist.

    The group is killed even when its leader has already exited: a child it left behind keeps
    the group's id from being reused, so the signal reaches exactly what the implementation started.
    """
    killpg = getattr(os, "killpg", None)
    if killpg is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        with contextlib.suppress(OSError):
            process.kill()


def builtin_engine(name: str) -> ModuleEngine:
    """The in-process adapter for a built-in engine: ``rust`` or ``reference``."""
    if name == "reference":
        from .. import reference

        return ModuleEngine(reference, "reference")
    if name == "rust":
        import reversis

        return ModuleEngine(reversis, "rust")
    raise ValueError(f"unknown engine {name!r}; use 'rust' or 'reference'")
