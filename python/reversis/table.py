"""Seeded, saved matches: starting a match from a seed, saving it and resuming it (001 ¶12).

A match started from a seed deals the same hands every time and in both engines (SEED-5); a
new match without one draws a fresh 64-bit seed. A saved match is its record (REC-1), encoded
as JSON or MessagePack (REC-3); resuming replays the record (REC-2), so a save written by one
engine resumes in the other.

Nothing that is not ours is ever replaced:

- Saves are written atomically: the record goes to a temporary file in the directory of the
  file it replaces, which is then renamed over it, so a reader sees the old file or the new one.
  A symlinked save is written *through* the link: the link stays and its target is replaced.
- Only a regular file, or a path where nothing exists yet, is written (:func:`check_save_path`):
  a device, a FIFO or a directory is refused with :class:`SaveError`, before anything is opened.
- A file that is not a saved match is never overwritten: :func:`move_aside` renames it to a
  name that says so (``save.json.unreadable-20261201T203000``), and the caller says where.
- :class:`SaveLock` is an advisory lock (``flock``) on a lock file beside the save, so two
  processes never write one save; temporary files of a writer that was killed are removed by
  :func:`remove_stale_temp_files`.

>>> import reversis, tempfile, os
>>> game = start_match(reversis.preset("hearts-computer"), seed=7)
>>> path = os.path.join(tempfile.mkdtemp(), "save.json")
>>> save_game(game, path)
>>> load_game(path).state() == game.state()
True
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from .errors import InvalidInputError

__all__ = [
    "SaveError",
    "SaveInUse",
    "SaveLock",
    "check_save_path",
    "default_save_path",
    "load_game",
    "move_aside",
    "new_seed",
    "record_format",
    "remove_stale_temp_files",
    "replace_atomically",
    "save_game",
    "start_match",
]

#: File suffixes saved as MessagePack; every other suffix is saved as JSON.
MSGPACK_SUFFIXES = (".msgpack", ".mpk", ".mp")
#: The most bytes read from a save (ERR-6: a record's encoding is at most 64 MiB).
MAX_SAVE_BYTES = 64 * 1024 * 1024
#: The suffix of every temporary file (its prefix is ``.`` and the name of the file it replaces).
TEMP_SUFFIX = ".tmp"
_UTF8_BOM = b"\xef\xbb\xbf"
#: First bytes of a MessagePack map: a record's binary form starts with one (REC-3).
_MSGPACK_MAP = {*range(0x80, 0x90), 0xDE, 0xDF}


class SaveError(OSError):
    """A save that cannot be written or read for a reason of its own (not a full disk): the message says why."""


class SaveInUse(SaveError):
    """Another process holds the save's lock (:class:`SaveLock`)."""


def _engine(engine: ModuleType | None) -> ModuleType:
    if engine is None:
        import reversis

        return reversis
    return engine


def new_seed() -> int:
    """A fresh unsigned 64-bit seed from the operating system's entropy."""
    return secrets.randbits(64)


def start_match(ruleset: Any, seed: int | None = None, *, engine: ModuleType | None = None) -> Any:
    """A new match under ``ruleset``, dealt from ``seed`` (a fresh seed when ``None``).

    The same seed deals the same hands in every engine; read the seed back from ``game.seed``.
    """
    module = _engine(engine)
    return module.Game(ruleset, new_seed() if seed is None else seed)


def default_save_path() -> Path:
    """Where ``reversis play`` keeps its match: ``$XDG_DATA_HOME/reversis/save.json``.

    ``XDG_DATA_HOME`` defaults to ``~/.local/share`` when unset or empty.
    """
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "reversis" / "save.json"


def record_format(path: str | os.PathLike[str]) -> str:
    """The encoding of a save at ``path``: ``"msgpack"`` for ``.msgpack``, ``.mpk`` or ``.mp``, else ``"json"``."""
    return "msgpack" if Path(path).suffix.lower() in MSGPACK_SUFFIXES else "json"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_save_path(path: str | os.PathLike[str]) -> Path:
    """The file a save at ``path`` writes: ``path`` itself, or the target of a symlink.

    Nothing is opened, so a FIFO cannot hang the caller.

    :raises SaveError: if that file exists and is not a regular file (a device, a FIFO, a
        directory), or if the symlinks loop.
    """
    given = Path(path).expanduser()
    try:
        target = Path(os.path.realpath(given)) if given.is_symlink() else given
    except OSError as error:  # a symlink loop
        raise SaveError(f"cannot use {given} as a save: {error.strerror or error}") from None
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return target
    except NotADirectoryError:
        return target  # reported when the directory is made
    if stat.S_ISLNK(info.st_mode):  # realpath gave up: a loop
        raise SaveError(f"cannot use {given} as a save: its symlinks loop")
    if not stat.S_ISREG(info.st_mode):
        shown = f"{given} (the target of the symlink, {target})" if target != given else str(given)
        raise SaveError(
            f"cannot use {shown} as a save: it is {_kind(info.st_mode)}, not a regular file; give --save a file name"
        )
    return target


def _is_special(path: Path) -> bool:
    """Whether ``path``, its symlinks followed, is an existing device or FIFO (neither a file nor a directory)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


@contextlib.contextmanager
def replace_atomically(path: str | os.PathLike[str], *, special: str = "refuse") -> Iterator[IO[bytes]]:
    """A binary file whose contents replace ``path`` in one step when the ``with`` block ends.

    The data goes to a temporary file in the directory of the file replaced (through a
    symlink: its target's), flushed to disk, then renamed over it; an existing file keeps its
    permission bits. If the block raises, or a signal's exception unwinds it, the temporary
    file is removed and ``path`` is untouched. ``special`` says what to do when ``path`` is a
    device or FIFO: ``"refuse"`` (:class:`SaveError`) or ``"write"`` through it (``/dev/stdout``).
    """
    given = Path(path).expanduser()
    if special == "write" and _is_special(given):
        # Through the link, as open sees it: /dev/stdout into a pipe is a link to "pipe:[…]",
        # which no path names and no temporary file can be made beside.
        with open(given, "wb") as direct:
            yield direct
        return
    target = check_save_path(given)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_directory(target.parent)


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def save_game(
    game: Any, path: str | os.PathLike[str], format: str | None = None, *, engine: ModuleType | None = None
) -> None:
    """Write ``game``'s record to ``path`` atomically, as JSON or MessagePack.

    ``format`` defaults to :func:`record_format` of the path. The parent directory is created
    if needed; see :func:`replace_atomically` for how the file is replaced.

    :raises SaveError: if ``path`` is a device, a FIFO or a directory.
    :raises OSError: if the file cannot be written (the old one is then untouched).
    :raises reversis.InvalidInputError: ``invalid-record`` if the record cannot be encoded,
        for example one over the limits of ERR-6.
    """
    module = _engine(engine)
    data = module.dump_record(game.to_record(), format or record_format(path))
    with replace_atomically(path) as out:
        out.write(data)


def _not_a_save(path: Path, why: str) -> InvalidInputError:
    return InvalidInputError("invalid-record", f"{path} is not a saved match: {why}")


def load_game(path: str | os.PathLike[str], *, engine: ModuleType | None = None) -> Any:
    """The match saved at ``path``, replayed in ``engine`` (the Rust-backed one by default).

    A JSON save may start with a byte-order mark or white space. Only a regular file is read
    (a FIFO is never waited on).

    :raises SaveError: if ``path`` is not a regular file.
    :raises OSError: if the file cannot be read.
    :raises reversis.InvalidInputError: ``invalid-record`` if it is not a saved match; the
        message says so in those words ("… is not a saved match: it is empty").
    """
    module = _engine(engine)
    where = Path(path).expanduser()
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(where, flags)
    with os.fdopen(fd, "rb") as source:
        info = os.fstat(source.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(f"cannot read {where} as a save: it is {_kind(info.st_mode)}, not a regular file")
        data = source.read(MAX_SAVE_BYTES + 1)
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    stripped = data.lstrip(b" \t\r\n")
    if not stripped:
        raise _not_a_save(where, "it is empty")
    if stripped[:1] == b"{":
        data = stripped
    elif stripped[0] not in _MSGPACK_MAP:
        what = "text" if _is_text(stripped[:512]) else "data"
        raise _not_a_save(where, f"it holds {what} that is not a record")
    try:
        record = module.load_record(data)
        return module.Game.from_record(record)
    except module.ReversisError as error:
        raise _not_a_save(where, str(error)) from error


def _is_text(sample: bytes) -> bool:
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return all(ch.isprintable() or ch.isspace() for ch in text)


def move_aside(path: str | os.PathLike[str], why: str = "unreadable") -> Path:
    """Rename ``path`` to ``NAME.WHY-YYYYMMDDTHHMMSS`` (local time) in its directory; the new path.

    A name already taken gets ``-2``, ``-3`` … appended; nothing is ever overwritten. A
    symlink is moved itself, not its target.
    """
    source = Path(path).expanduser()
    stamp = time.strftime("%Y%m%dT%H%M%S")
    base = source.with_name(f"{source.name}.{why}-{stamp}")
    candidate, number = base, 1
    while os.path.lexists(candidate):
        number += 1
        candidate = base.with_name(f"{base.name}-{number}")
    os.rename(source, candidate)
    return candidate


def remove_stale_temp_files(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files that a killed writer of ``path`` left behind; those removed.

    Call it while holding :class:`SaveLock`: then no live writer owns such a file.
    """
    target = check_save_path(path)
    pattern = re.compile(re.escape(f".{target.name}.") + r"[A-Za-z0-9_]{6,16}" + re.escape(TEMP_SUFFIX))
    removed = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    for entry in entries:
        if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


class SaveLock:
    """An advisory lock (``flock``) on the hidden file ``.NAME.lock`` beside a save.

    Use it as a context manager around everything that reads and writes the save. The lock
    file holds the holder's process id, for the message of :class:`SaveInUse`; it is left in
    place (removing it would race with a process about to lock it). Where ``fcntl`` does not
    exist the lock does nothing.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """The lock of the save at ``path`` (of a symlink's target)."""
        target = check_save_path(path)
        self.path = target.with_name(f".{target.name}.lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock at once, or raise :class:`SaveInUse`."""
        try:
            import fcntl
        except ImportError:  # not on POSIX: no locking
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            save = self.path.with_name(self.path.name[1 : -len(".lock")])
            raise SaveInUse(
                f"{save} is in use by another reversis play{who}: finish that one first, "
                "or give this one its own file with --save"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        """Let go of the lock (closing the file releases it)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)

    def __enter__(self) -> SaveLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
