"""JSON Lines over the pipes of a child process: the transport of spec/driver.md and spec/player.md.

:class:`Child` runs a command in a process group of its own, writes one JSON object a line to
its standard input, reads its standard output one line at a time, each line bounded in length
and waited for until a deadline, keeps the tail of its standard error, and kills its whole
group. Whatever the child does (never reading, never answering, writing without end, exiting,
leaving children behind) the caller waits at most until its deadline and holds a bounded amount
of memory, and no group outlives this process: each is killed by :meth:`Child.kill`, and every
one still running by :func:`kill_all`, at exit or from a signal handler.

What the lines mean, and how a fault is worded, is each protocol's own: the transport only says
which way a line failed to go or come, as one of the kinds of :class:`TransportError`.
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
from typing import Any, NoReturn

__all__ = [
    "STDERR_KEPT",
    "STDERR_MODES",
    "Child",
    "InputClosed",
    "LineTooLong",
    "NotJson",
    "OutputEnded",
    "ReadTimeout",
    "StartError",
    "TransportError",
    "WriteTimeout",
    "exit_text",
    "kill_all",
    "parse_line",
    "shut_down",
    "split_command",
]

#: How much of a child's standard error is kept: the last 64 KiB (DRV-2, PLY-1).
STDERR_KEPT = 64 * 1024
#: What becomes of a child's standard error: kept (its tail), passed to ours, or thrown away.
STDERR_MODES = ("capture", "show", "discard")
#: Seconds a farewell line may take to write before the child is given up on (:func:`shut_down`).
FAREWELL_WRITE = 0.1
#: How often a wait for a line looks whether the child has ended meanwhile: a process it started
#: may hold its output open, so the end of the output alone cannot tell.
_POLL = 0.05
#: Once the child has ended, how long a line it wrote just before may take to come out of the pipe.
_LAST_WORDS = 0.2
#: Read lines waiting for the caller: few, so that a flood of lines makes the child wait on its
#: pipe instead of this process growing.
_QUEUED_LINES = 2
#: How long :meth:`Child.kill` waits for the reaped process, then for its reading threads.
_REAP = 5.0
_JOIN = 1.0
_CHUNK = 64 * 1024
_BOM = b"\xef\xbb\xbf"
#: The signals that must not cut short the killing of a group.
_HELD_SIGNALS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
#: Every child started and not yet killed, for :func:`kill_all`.
_RUNNING: set[Child] = set()


class TransportError(Exception):
    """A line that could not be written to a child or read from it; each subclass is one way."""


class StartError(TransportError):
    """The command could not be started: ``reason`` says why (the system's words)."""

    def __init__(self, command: str, reason: str) -> None:
        super().__init__(f"could not start {command!r}: {reason}")
        self.command = command
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its fields, not from ``args`` (the message alone), when sent back from a worker.
        return type(self), (self.command, self.reason), self.__dict__


class WriteTimeout(TransportError):
    """The child did not read a line before the deadline: its input pipe stayed full."""


class InputClosed(TransportError):
    """The child's input is closed (it ended, or closed its standard input) before a line was written."""


class ReadTimeout(TransportError):
    """No whole line came from the child before the deadline."""


class OutputEnded(TransportError):
    """The child ended, or closed its standard output, before a whole line came."""


class LineTooLong(TransportError):
    """The child wrote a line longer than ``limit`` bytes (the newline not counted)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a line longer than {limit:,} bytes")
        self.limit = limit

    def __reduce__(self) -> tuple[object, ...]:
        return type(self), (self.limit,), self.__dict__


class NotJson(TransportError):
    """A line that is not JSON: ``line`` as read, ``text`` as decoded, ``None`` where it is not UTF-8."""

    def __init__(self, line: bytes, text: str | None) -> None:
        super().__init__("a line that is not UTF-8" if text is None else "a line that is not JSON")
        self.line = line
        self.text = text

    def __reduce__(self) -> tuple[object, ...]:
        return type(self), (self.line, self.text), self.__dict__


def split_command(command: str | Sequence[str]) -> list[str]:
    """The words of ``command``: a command line split as a POSIX shell would (PLY-1), or the words given.

    :raises ValueError: for an empty or blank command, or a line that cannot be split (an unclosed quote).
    """
    if isinstance(command, str):
        try:
            words = shlex.split(command)
        except ValueError as error:
            raise ValueError(f"cannot read the command {command!r}: {error}") from None
    else:
        words = [str(word) for word in command]
    if not words:
        raise ValueError("the command is empty")
    return words


def exit_text(status: int) -> str:
    """How a process ended, from its exit status (``-N`` for signal ``N``): for a fault's reason."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = f" ({signal.Signals(-status).name})"
    except ValueError:
        name = ""
    return f"was killed by signal {-status}{name}"


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def parse_line(line: bytes) -> Any:
    """The JSON value of one line (RFC 8259: ``NaN`` and ``Infinity`` are not JSON).

    :raises NotJson: for a line that is not UTF-8, or not JSON.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise NotJson(line, None) from None
    try:
        return json.loads(text, parse_constant=_not_json)
    except (ValueError, RecursionError):
        raise NotJson(line, text) from None


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C and termination signals for the few statements that kill a group.

    A signal arriving half-way would otherwise leave the group alive; it is delivered as soon as
    the statements are done.
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


class _End:
    """Why the child's output stopped giving lines: ``eof``, ``too-long`` or ``input-closed``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


class Child:
    """A command run in a process group of its own, spoken to in JSON Lines over its pipes.

    Threads read standard output (as lines of at most ``max_line`` bytes) and, under
    ``stderr="capture"``, standard error, of which the last :data:`STDERR_KEPT` bytes are kept;
    standard input is written without blocking (by a thread where pipes cannot be made
    non-blocking). ``stderr`` is one of :data:`STDERR_MODES`. With ``bom`` a byte order mark
    before the first line is dropped. The process is never reaped before its group is killed, so
    the group's id stays its own until then.

    :raises StartError: if the command cannot be started.
    :raises ValueError: for an empty ``argv`` or an unknown ``stderr``.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str | None = None,
        max_line: int,
        stderr: str = "capture",
        bom: bool = False,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """Start ``argv``; ``name`` is the command as messages show it (by default its words, joined)."""
        if not argv:
            raise ValueError("the command is empty")
        if stderr not in STDERR_MODES:
            raise ValueError(f"stderr is 'capture', 'show' or 'discard', not {stderr!r}")
        self.name = name if name is not None else shlex.join(argv)
        self.max_line = max_line
        self._bom = bom
        self._lines: queue.Queue[bytes | _End] = queue.Queue(maxsize=_QUEUED_LINES)
        self._stop = threading.Event()
        self._stderr = bytearray()
        self._stderr_cut = False
        self._stderr_lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._requests: queue.Queue[bytes | None] | None = None
        streams = {"capture": subprocess.PIPE, "show": None, "discard": subprocess.DEVNULL}
        try:
            self.process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=streams[stderr],
                bufsize=0,
                cwd=cwd,
                env=env,
                # A group of its own: killing the group reaches whatever the child started, and a
                # Ctrl-C at the terminal reaches this process only, which then kills the group.
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise StartError(self.name, reason) from None
        # Reachable by kill_all from now until it is killed, whatever interrupts what follows.
        _RUNNING.add(self)
        try:
            self._start_threads()
        except BaseException:
            self.kill()
            raise

    @property
    def pid(self) -> int:
        """The process id, which is also its process group's id."""
        return self.process.pid

    def _start_threads(self) -> None:
        assert self.process.stdin is not None
        self._threads.append(threading.Thread(target=self._read_lines, daemon=True))
        if self.process.stderr is not None:
            self._threads.append(threading.Thread(target=self._read_stderr, daemon=True))
        if os.name == "posix":
            # Written from the calling thread: one thread hop less per line than a writer thread.
            os.set_blocking(self.process.stdin.fileno(), False)
        else:  # pipes cannot be made non-blocking: a thread writes, so a child that never reads blocks nobody
            self._requests = queue.Queue()
            self._threads.append(threading.Thread(target=self._write_requests, daemon=True))
        for thread in self._threads:
            thread.start()

    # -- talking

    def send(self, message: Any, deadline: float) -> None:
        """Write ``message`` as one line of compact JSON, by ``deadline`` (of :func:`time.monotonic`).

        :raises WriteTimeout: if the child has not read enough of its input by then.
        :raises InputClosed: if its input is closed.
        """
        data = json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"
        if self._requests is not None:
            self._requests.put(data)
            return
        stream = self.process.stdin
        assert stream is not None
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(stream.fileno(), view) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise WriteTimeout("the child did not read its input in time") from None
                select.select([], [stream], [], remaining)
            except (OSError, ValueError):
                raise InputClosed("the child's input is closed") from None

    def receive(self, deadline: float) -> bytes:
        """The next line of output, without its newline, by ``deadline`` (of :func:`time.monotonic`).

        :raises ReadTimeout: if no whole line came by then.
        :raises OutputEnded: if the child ended or closed its output first.
        :raises LineTooLong: for a line longer than ``max_line`` bytes.
        :raises InputClosed: where a writer thread found the input closed.
        """
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                item = self._lines.get(timeout=min(remaining, _POLL))
            except queue.Empty:
                if not self.ended():
                    continue
                try:  # after a last look for a line written just before the end, the end is the answer
                    item = self._lines.get(timeout=min(remaining, _LAST_WORDS))
                except queue.Empty:
                    raise OutputEnded("the child ended") from None
            if isinstance(item, _End):
                self._ended(item)
            if self._bom:
                self._bom = False
                item = item.removeprefix(_BOM)
            return item
        raise ReadTimeout("no whole line in time")

    def _ended(self, end: _End) -> NoReturn:
        if end.kind == "too-long":
            raise LineTooLong(self.max_line)
        if end.kind == "input-closed":
            raise InputClosed("the child's input is closed")
        raise OutputEnded("the child closed its output")

    def close_input(self) -> None:
        """Close the child's standard input: the end of its input."""
        if self._requests is not None:
            self._requests.put(None)
            return
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()

    # -- its end

    def exit_status(self) -> int | None:
        """The exit status once the process has ended (``-N`` for signal ``N``), else ``None``; it is not reaped."""
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

    def wait_exit(self, seconds: float) -> int | None:
        """The exit status, waiting up to ``seconds`` for the process to end; ``None`` if it still runs."""
        deadline = time.monotonic() + seconds
        while (status := self.exit_status()) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return status

    def signal_group(self) -> None:
        """``SIGKILL`` the whole group, without waiting: what a signal handler may do.

        The group is killed even when its leader has ended: a process it left behind keeps the
        group's id from being reused. Nothing once the process is reaped, which happens only
        after its group was killed: its id may since be another's.
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
        """Kill the whole group, reap the process and let the reading threads end; safe to repeat."""
        self._stop.set()
        with _signals_held():
            self.signal_group()
            _RUNNING.discard(self)
        self.close_input()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=_REAP)
        # The last words of a crashing child are often the most useful ones: its stderr is read to the end.
        deadline = time.monotonic() + _JOIN
        for thread in self._threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def stderr_tail(self, limit: int = STDERR_KEPT) -> str:
        """The last ``limit`` bytes of standard error kept, from a line's start where they were cut."""
        with self._stderr_lock:
            data = bytes(self._stderr[-limit:])
            cut = self._stderr_cut or len(self._stderr) > limit
        text = data.decode("utf-8", "replace")
        if cut and "\n" in text:
            text = text.split("\n", 1)[1]
        return text

    # -- the threads

    def _deliver(self, item: bytes | _End) -> bool:
        while not self._stop.is_set():
            try:
                self._lines.put(item, timeout=0.1)
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
            while True:
                try:
                    chunk = os.read(stream.fileno(), _CHUNK)
                except OSError:
                    return
                if not chunk:
                    return
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_KEPT:
                        del self._stderr[: len(self._stderr) - STDERR_KEPT]
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


def shut_down(farewells: Iterable[tuple[Child, Any]], grace: float) -> None:
    """End children together, each given its farewell line, then killed after at most ``grace`` seconds.

    Each child still running gets its farewell and the end of its input, and all share the
    ``grace`` seconds to exit; then every group is killed, even one whose leader exited, so that
    nothing a child started outlives it.
    """
    pairs = list(farewells)
    try:
        for child, message in pairs:
            if not child.ended():
                with contextlib.suppress(TransportError):
                    child.send(message, time.monotonic() + FAREWELL_WRITE)
                child.close_input()
        deadline = time.monotonic() + grace
        for child, _ in pairs:
            child.wait_exit(deadline - time.monotonic())
    finally:
        for child, _ in pairs:
            child.kill()


def kill_all() -> None:
    """``SIGKILL`` the group of every child still running, without waiting: for exit and signal handlers."""
    with contextlib.suppress(RuntimeError):  # the set changed while a handler interrupted its update
        for child in list(_RUNNING):
            child.signal_group()


atexit.register(kill_all)
