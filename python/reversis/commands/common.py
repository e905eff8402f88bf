"""What every subcommand shares: option types that refuse bad values, and signals as exceptions.

The option types are ``argparse`` ``type=`` functions, so a bad value is a usage error (exit
status 2) before any work starts. Seeds follow one rule everywhere: an integer from 0 to
2⁶⁴−1, written in decimal or as ``0x`` hexadecimal (ERR-6).

:func:`install_signal_handlers` turns ``SIGTERM`` and ``SIGHUP`` into :class:`Terminated`, an
exception that unwinds like ``KeyboardInterrupt`` does for ``SIGINT``, so ``finally`` blocks run:
temporary files are removed, worker processes are stopped and a match in progress is saved.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = [
    "MAX_RULESET_BYTES",
    "MAX_SEED",
    "STDOUT",
    "Terminated",
    "count",
    "driver_command",
    "finite_float",
    "install_signal_handlers",
    "non_negative",
    "output_file",
    "positive",
    "preset_name",
    "ruleset_file",
    "save_file",
    "seed",
    "writable_file",
]

#: The largest seed (ERR-6: seeds are integers in 0 … 2⁶⁴−1).
MAX_SEED = 2**64 - 1
#: The most bytes of a ruleset file read: every preset is a few hundred, and ``/dev/zero`` is endless.
MAX_RULESET_BYTES = 1024 * 1024


class Terminated(BaseException):
    """Raised in the main thread when the process receives ``SIGTERM`` or ``SIGHUP``.

    A ``BaseException``, like ``KeyboardInterrupt``, so ``except Exception`` does not swallow
    it; :attr:`status` is the conventional exit status, 128 plus the signal's number.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.status = 128 + signum


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


def driver_command(text: str) -> str:
    """``--driver CMD``: a command line, split as a shell would, whose program can be run.

    An empty or blank command, an unclosed quote and a program that is not there are usage
    errors, never a run that tests something else or nothing.
    """
    from .._jsonlines import split_command

    try:
        argv = split_command(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        runnable = os.path.isfile(program) and os.access(program, os.X_OK)
    else:
        runnable = shutil.which(program) is not None
    if not runnable:
        raise argparse.ArgumentTypeError(f"no program {program!r} to run")
    return text


def install_signal_handlers() -> Callable[[], None]:
    """Make ``SIGTERM`` and ``SIGHUP`` raise :class:`Terminated` (where the platform has them).

    A signal that was ignored when the process started (``nohup``) stays ignored. Returns a
    function that puts the previous handlers back.
    """
    previous: dict[int, Any] = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            handler = signal.getsignal(number)
            if handler == signal.SIG_IGN:
                continue
            signal.signal(number, _raise_terminated)
            previous[number] = handler
        except (ValueError, OSError):  # not the main thread, or not allowed here
            continue

    def restore() -> None:
        for number, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler if handler is not None else signal.SIG_DFL)

    return restore


def _integer(text: str) -> int:
    try:
        return int(text.strip(), 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def seed(text: str) -> int:
    """A seed: an integer from 0 to 2⁶⁴−1, decimal or ``0x`` hexadecimal."""
    value = _integer(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is an integer from 0 to 2**64-1, not {text}")
    return value


def count(low: int, high: int | None = None, what: str = "a number") -> Callable[[str], int]:
    """A ``type=`` function for an integer from ``low`` to ``high`` (no upper bound when ``None``)."""

    def parse(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            bound = f"from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
            raise argparse.ArgumentTypeError(f"{what} must be {bound}, not {text}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its messages
    return parse


#: An integer of at least 1 (``--jobs``, ``--hands``, ``--repeats`` …).
positive = count(1, what="the value")
#: An integer of at least 0.
non_negative = count(0, what="the value")


def finite_float(low: float = 0.0, *, strict: bool = False, high: float | None = None) -> Callable[[str], float]:
    """A ``type=`` function for a finite number of at least ``low`` (above it when ``strict``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number of seconds, not {text}")
        if value < low or (strict and value == low) or (high is not None and value > high):
            above = f"more than {low:g}" if strict else f"at least {low:g}"
            upto = f" and at most {high:g}" if high is not None else ""
            raise argparse.ArgumentTypeError(f"must be {above}{upto}, not {text}")
        return value

    parse.__name__ = "number"
    return parse


def preset_name(text: str) -> str:
    """``--preset NAME``: the name of a built-in preset, else a usage error listing them."""
    import reversis

    names = reversis.preset_names()
    if text not in names:
        raise argparse.ArgumentTypeError(f"no preset named {text!r}; the presets are {', '.join(names)}")
    return text


def ruleset_file(text: str) -> Ruleset:
    """``--ruleset FILE``: the :class:`reversis.Ruleset` in a JSON file, else a usage error saying what is wrong.

    The file holds one ruleset object of spec/ruleset.md as UTF-8 JSON; what is wrong with a
    ruleset is said as the engine says it (``invalid-ruleset``, naming the field).
    """
    import reversis

    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    try:
        with open(Path(text).expanduser(), "rb") as source:
            data = source.read(MAX_RULESET_BYTES + 1)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot read the ruleset {text}: {error.strerror or error}") from None
    if len(data) > MAX_RULESET_BYTES:
        raise argparse.ArgumentTypeError(
            f"cannot read the ruleset {text}: it is larger than {MAX_RULESET_BYTES:,} bytes, which no ruleset is"
        )
    try:
        return reversis.Ruleset.from_json(data)
    except reversis.InvalidInputError as error:
        raise argparse.ArgumentTypeError(f"{text}: {error}") from None


def save_file(text: str) -> str:
    """``--save PATH``: a save in a directory that exists, a regular file or none yet (never a device or FIFO).

    Only the default save's directory is ever created: a directory named on the command line is
    the person's, and a typing mistake must not make one (as root, anywhere on the disk).
    """
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    from ..table import SaveError, check_save_path

    parent = Path(text).expanduser().resolve().parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"cannot save to {text}: there is no directory {parent} (create it, or choose another file)"
        )
    try:
        check_save_path(text)
    except SaveError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


#: The name of standard output where a file name is asked for.
STDOUT = "-"


def writable_file(text: str) -> str:
    """A path a report can be written to: checked before the run, not after it.

    ``-`` is standard output. A new file needs an existing directory a file can be made in (a
    probe file is made and removed: ``/proc`` or a read-only disk refuses it); an existing path
    must be a regular file that may be written, or a device or FIFO (``/dev/stdout``,
    ``/dev/null``), which is written through (:func:`output_file`).
    """
    if not text:
        raise argparse.ArgumentTypeError("the file name is empty")
    if text == STDOUT:
        return text
    path = Path(text).expanduser()
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot write {text}: {error.strerror or error}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise argparse.ArgumentTypeError(f"cannot write {text}: it is a directory")
        if not os.access(path, os.W_OK):
            raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
        if not stat.S_ISREG(info.st_mode):
            return str(path)  # a device or FIFO is written through, never replaced
    parent = path.resolve().parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: the directory {parent} does not exist")
    try:
        # The report is made as a temporary file beside its target: that must be possible.
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    except OSError as error:
        why = error.strerror or str(error)
        raise argparse.ArgumentTypeError(f"cannot write {text}: no file can be made in {parent} ({why})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return str(path)


@contextlib.contextmanager
def output_file(text: str) -> Iterator[IO[bytes]]:
    """Where a command writes a report named on its command line (:func:`writable_file`).

    ``-`` is standard output, left open; a device or FIFO is written through; a regular file
    is replaced in one step when the block ends (through a symlink, its target), and left as it
    was if the block raises (:func:`reversis.table.replace_atomically`).
    """
    if text == STDOUT:
        sys.stdout.flush()
        out = sys.stdout.buffer
        yield out
        out.flush()
        return
    from ..table import replace_atomically

    with replace_atomically(text, special="write") as out:
        yield out
