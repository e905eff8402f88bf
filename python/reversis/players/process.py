"""Players in other processes, written in any language, through the player protocol (spec/player.md).

:class:`ProcessPlayer` is the table's side of the protocol: it starts the player's command in a
process group of its own, says hello (PLY-3), asks one ``act`` per decision (PLY-5) and turns
every fault of PLY-6 into a forfeit of the hand (PLY-7): the process group is killed, the rest of
the seat's hand is played by the fallback, the lowest legal id, and the next hand starts a fresh
process. Whatever the player does, the table waits at most the time limit and holds a bounded
amount of memory, and no process of a player outlives the table: groups are killed on
:meth:`ProcessPlayer.close`, on Ctrl-C and at exit (:func:`kill_all`).

:class:`LowestPlayer` plays the fallback as an ordinary player.
"""

from __future__ import annotations

import atexit
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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Callable, NoReturn

from . import Observation, Player

__all__ = [
    "DEFAULT_TIME_LIMIT_MS",
    "FAULT_KINDS",
    "MAX_LINE",
    "PROTOCOL_VERSION",
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
#: How much of a player's standard error is kept, and how much of it goes with a forfeit (PLY-1, PLY-7).
STDERR_KEPT = 64 * 1024
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
_CHUNK = 64 * 1024
#: How often a wait for an answer looks whether the player has ended meanwhile: its grandchild
#: may hold the output pipe open, so the end of the output alone cannot tell.
_POLL = 0.05
#: Every player process started and not yet killed, for :func:`kill_all`.
_RUNNING: set[_Child] = set()
_HELD_SIGNALS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


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
        selected = set(observation["selected"])
        return sorted(52 + _card_id(card) for card in observation["hand"] if card not in selected)
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


class _End:
    """Why a player's output stopped giving lines: ``eof`` or ``too-long``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


def _exit_text(status: int) -> str:
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = f" ({signal.Signals(-status).name})"
    except ValueError:
        name = ""
    return f"was killed by signal {-status}{name}"


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and termination signals while a process group is killed, so none stops it half-way."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or not _HELD_SIGNALS or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = mask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


class _Child:
    """One run of a player: its process group, the threads that read it, its standard error's tail."""

    def __init__(self, argv: list[str], stderr: str, max_line: int, cwd: str | None, env: dict[str, str] | None):
        self.max_line = max_line
        # Small: a player that floods its output waits on its pipe, the table does not grow.
        self.lines: queue.Queue[bytes | _End] = queue.Queue(maxsize=4)
        self._stop = threading.Event()
        self._stderr = bytearray()
        self._stderr_cut = False
        self._stderr_lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._requests: queue.Queue[bytes | None] | None = None
        streams = {"capture": subprocess.PIPE, "show": None, "discard": subprocess.DEVNULL}
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=streams[stderr],
            bufsize=0,
            cwd=cwd,
            env=env,
            # A group of its own: killing the group reaches whatever the player started, and a
            # Ctrl-C at the terminal reaches the table only, which then kills the group.
            start_new_session=True,
        )
        # Reachable by kill_all from now until it is killed, whatever interrupts what follows.
        _RUNNING.add(self)
        try:
            self._start_threads()
        except BaseException:
            self.kill()
            raise

    def _start_threads(self) -> None:
        assert self.process.stdin is not None
        self._threads.append(threading.Thread(target=self._read_lines, daemon=True))
        if self.process.stderr is not None:
            self._threads.append(threading.Thread(target=self._read_stderr, daemon=True))
        if os.name == "posix":
            os.set_blocking(self.process.stdin.fileno(), False)
        else:  # pipes cannot be made non-blocking: a thread writes, so a player that never reads cannot block the table
            self._requests = queue.Queue()
            self._threads.append(threading.Thread(target=self._write_requests, daemon=True))
        for thread in self._threads:
            thread.start()

    def send(self, data: bytes, deadline: float) -> str | None:
        """Write one line by ``deadline``; else say why not: ``timeout`` or ``closed``."""
        if self._requests is not None:
            self._requests.put(data)
            return None
        stream = self.process.stdin
        assert stream is not None
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(stream.fileno(), view) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                select.select([], [stream], [], min(remaining, _POLL))
            except (OSError, ValueError):
                return "closed"
        return None

    def close_input(self) -> None:
        """The end of the player's input (PLY-4)."""
        if self._requests is not None:
            self._requests.put(None)
            return
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()

    def next_line(self, timeout: float) -> bytes | _End | None:
        """The next line of output, why the output ended, or ``None`` after ``timeout`` seconds."""
        try:
            return self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None

    def exit_status(self) -> int | None:
        """The exit status once the process has ended (``-N`` for signal ``N``), else ``None``.

        The process is not reaped, so its group id stays its own until the group is killed.
        """
        if self.process.returncode is not None:
            return self.process.returncode
        waitid = getattr(os, "waitid", None)
        if waitid is None:
            return self.process.poll()
        try:
            info = waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.process.poll()
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def ended(self) -> bool:
        """Whether the process has ended (not reaped: see :meth:`exit_status`)."""
        return self.exit_status() is not None

    def ending(self, seconds: float) -> str:
        """How the process ended, waiting up to ``seconds`` for it to end, for a fault's reason."""
        deadline = time.monotonic() + seconds
        while (status := self.exit_status()) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return _exit_text(status) if status is not None else ""

    def signal_group(self) -> None:
        """``SIGKILL`` the whole group, with no wait: what a signal handler may do.

        Nothing once the process is reaped: it is reaped only after its group was killed, and
        its id may since belong to another process.
        """
        if self.process.returncode is not None:
            return
        killpg = getattr(os, "killpg", None)
        if killpg is not None:
            with contextlib.suppress(OSError):
                killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.process.kill()

    def kill(self) -> None:
        """Kill the whole process group, reap the process and let the reading threads end; safe to repeat."""
        self._stop.set()
        with _signals_held():
            self.signal_group()
            _RUNNING.discard(self)
        self.close_input()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=1.0)

    def stderr_tail(self, limit: int) -> str:
        """The last ``limit`` bytes of standard error, from a line's start where it was cut."""
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
                self.lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read_lines(self) -> None:
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
            while chunk := os.read(stream.fileno(), _CHUNK):
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_KEPT:
                        del self._stderr[: len(self._stderr) - STDERR_KEPT]
                        self._stderr_cut = True
        except OSError:
            return
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def _write_requests(self) -> None:
        stream = self.process.stdin
        assert stream is not None and self._requests is not None
        try:
            while (data := self._requests.get()) is not None:
                view = memoryview(data)
                while view:
                    view = view[os.write(stream.fileno(), view) :]
        except OSError:
            return
        finally:
            with contextlib.suppress(OSError):
                stream.close()


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


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
        """Prepare to run ``command`` for ``seat`` at a table of ``ruleset``; nothing starts yet."""
        self.argv = shlex.split(command) if isinstance(command, str) else [str(word) for word in command]
        if not self.argv:
            raise ValueError("an empty command")
        if stderr not in ("capture", "show", "discard"):
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
        self._child: _Child | None = None
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
        return self._child.process.pid if self._child is not None else None

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
        child.send(_line(start), time.monotonic() + self.time_limit_ms / 1000)

    def end_hand(self, last_hand: dict[str, Any], totals: Sequence[int]) -> None:
        """Tell the player how the hand it played ended (EVT-2 and the totals); a failed write is no fault."""
        told = self._hand is not None and self.forfeit is None
        self._hand = None
        if not told or self._child is None:
            return
        keys = ("hand_number", "scores", "points", "moon_taker", "moon_choice", "tricks")
        message = {"type": "end", **{key: last_hand[key] for key in keys}, "totals": list(totals)}
        if self._child.send(_line(message), time.monotonic() + GRACE) is not None:
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

    def _spawn(self) -> _Child:
        try:
            child = _Child(self.argv, self.stderr, self.max_line, self.cwd, self.env)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise PlayerFault("start", f"could not start {self.command!r}: {reason}") from None
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

    def _exchange(self, child: _Child, message: dict[str, Any], what: str, limit_ms: int) -> Any:
        """Send ``message`` and read one answer line within ``limit_ms``, parsed as JSON; faults otherwise."""
        deadline = time.monotonic() + limit_ms / 1000
        unsent = child.send(_line(message), deadline)
        if unsent == "timeout":
            self._fault("timeout", f"it did not read {what} within {limit_ms} ms")
        if unsent == "closed":
            ended = child.ending(0.2) or "closed its standard input"
            self._fault("exited", f"it {ended} before reading {what}")
        item = self._next_answer(child, deadline)
        if item is None:
            self._fault("timeout", f"no answer to {what} within {limit_ms} ms")
        if isinstance(item, _End):
            if item.kind == "too-long":
                self._fault("too-long", f"the answer to {what} is a line longer than {self.max_line:,} bytes")
            ended = child.ending(0.2) or "closed its standard output"
            self._fault("exited", f"it {ended} before answering {what}")
        try:
            text = item.decode("utf-8")
            return json.loads(text, parse_constant=_not_json)
        except (ValueError, RecursionError):
            self._fault("not-json", f"the answer to {what} is not JSON: {item[:200]!r}")

    def _next_answer(self, child: _Child, deadline: float) -> bytes | _End | None:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            item = child.next_line(min(remaining, _POLL))
            if item is not None:
                return item
            if child.ended():
                # A line written just before the end may still be on its way from the pipe.
                return child.next_line(_POLL) or _End("eof")


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
        for player in closing:
            child = player._child
            if child is not None and not child.ended():
                child.send(_line({"type": "quit"}), time.monotonic() + 0.1)
                child.close_input()
        deadline = time.monotonic() + GRACE
        for player in closing:
            while player._child is not None and not player._child.ended() and time.monotonic() < deadline:
                time.sleep(0.01)
    finally:
        # Killed even after it exited: whatever it started in its group goes with it (PLY-4).
        for player in closing:
            player._drop()


def kill_all() -> None:
    """``SIGKILL`` every running player's process group now, without waiting: for exit and signal handlers."""
    with contextlib.suppress(RuntimeError):  # the set changed while a handler interrupted its update
        for child in list(_RUNNING):
            child.signal_group()


atexit.register(kill_all)
