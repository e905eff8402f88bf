"""Seeded, saved matches: starting a match from a seed, saving it and resuming it (001 ¶12).

A match started from a seed deals the same hands every time and in both engines (SEED-5); a
new match without one draws a fresh 64-bit seed. A saved match is its record (REC-1), encoded
as JSON or MessagePack (REC-3); resuming replays the record (REC-2), so a save written by one
engine resumes in the other. Saves are written atomically: a reader sees the old file or the
new one, never a torn one.

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
import secrets
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = [
    "default_save_path",
    "load_game",
    "new_seed",
    "record_format",
    "save_game",
    "start_match",
]

#: File suffixes saved as MessagePack; every other suffix is saved as JSON.
MSGPACK_SUFFIXES = (".msgpack", ".mpk", ".mp")


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


def save_game(
    game: Any, path: str | os.PathLike[str], format: str | None = None, *, engine: ModuleType | None = None
) -> None:
    """Write ``game``'s record to ``path`` atomically, as JSON or MessagePack.

    ``format`` defaults to :func:`record_format` of the path. The parent directory is created
    if needed; the record goes to a temporary file beside ``path`` that replaces it in one step.
    """
    module = _engine(engine)
    data = module.dump_record(game.to_record(), format or record_format(path))
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def load_game(path: str | os.PathLike[str], *, engine: ModuleType | None = None) -> Any:
    """The match saved at ``path``, replayed in ``engine`` (the Rust-backed one by default).

    :raises OSError: if the file cannot be read.
    :raises reversis.InvalidInputError: ``invalid-record`` if it is not a valid record.
    """
    module = _engine(engine)
    return module.Game.from_record(module.load_record(Path(path).read_bytes()))
