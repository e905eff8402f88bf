"""The save file of ``reversis play``: the match after every action, and its computer players beside it.

Nothing the person owns is destroyed (see :mod:`reversis.table`): the save is written atomically
and only to a regular file (through a symlink, to its target); a file that is not a saved match,
or a settings file that is not ours, is moved aside under a name that says so; a match in
progress is dropped only when the person confirms it; and a save that fails is reported at once,
as is its recovery.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, NoReturn

from ...errors import shown as shown_input
from ...table import (
    SaveInUse,
    SaveLock,
    check_save_path,
    load_game,
    move_aside,
    remove_stale_temp_files,
    replace_atomically,
    save_game,
)
from .game import DEFAULT_OPPONENTS, DEFAULT_ROLLOUTS, MAX_ROLLOUTS, OPPONENTS, in_progress
from .screen import BOLD, QUIT_WORDS, RED, Screen


def settings_path(save: Path) -> Path:
    """The file beside a save that remembers the match's computer players: ``NAME.settings``."""
    return save.with_name(save.name + ".settings")


def settings_problem(data: Any) -> str | None:
    """What is wrong with the contents of a settings file (:func:`settings_path`), or ``None``."""
    if not isinstance(data, dict):
        return "it is not a JSON object"
    opponents = data.get("opponents", DEFAULT_OPPONENTS)
    if opponents not in OPPONENTS:
        return f"'opponents' is {shown_input(opponents)}, not one of {', '.join(OPPONENTS)}"
    rollouts = data.get("rollouts", DEFAULT_ROLLOUTS)
    if not isinstance(rollouts, int) or isinstance(rollouts, bool) or not 1 <= rollouts <= MAX_ROLLOUTS:
        return f"'rollouts' is {shown_input(rollouts)}, not an integer from 1 to {MAX_ROLLOUTS:,}"
    return None


class Stuck(Exception):
    """The save is in the way and could not be moved aside (already said): the command ends."""


class MatchSave:
    """The save at ``path``, read and written with ``engine``; what happens to it is said on ``screen``."""

    def __init__(self, path: Path, engine: ModuleType, screen: Screen) -> None:
        """Nothing is read or written until asked."""
        self.path = path
        self.engine = engine
        self.screen = screen
        #: Why the last save failed, or ``None`` when the save on disk holds the match.
        self.error: str | None = None

    def lock(self) -> SaveLock:
        """Check the path and take its lock; the lock, to release when the session ends.

        :raises SaveError: if the path is not a regular file, or if another session holds its
            lock (:class:`~reversis.table.SaveInUse`).
        """
        self.path = check_save_path(self.path)
        lock = SaveLock(self.path)
        try:
            lock.acquire()
        except SaveInUse:
            raise
        except OSError:
            pass  # no directory to lock in: the first save reports why it cannot save
        return lock

    def clear_interrupted_writes(self) -> None:
        """Remove the temporary files that writes of this save cut short left behind."""
        remove_stale_temp_files(self.path)

    def read_settings(self) -> dict[str, Any]:
        """The saved match's computer players (``opponents``, ``rollouts``), where a settings file says.

        A settings file that is not what :meth:`write_settings` writes is moved aside, as a save
        that is not a saved match is, and said so on standard error: nothing is read from it,
        the defaults are written anew, and the person's file is kept.
        """
        path = settings_path(self.path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            problem = settings_problem(data)
        except FileNotFoundError:
            return {}
        except OSError as error:
            problem = f"it cannot be read ({error.strerror or error})"
        except ValueError as error:
            problem = f"it is not JSON ({error})" if isinstance(error, json.JSONDecodeError) else "it is not UTF-8"
        if problem is None:
            return dict(data)
        try:
            moved = move_aside(path, "unreadable")
        except OSError as error:
            print(
                f"reversis play: the settings file {path} is not valid: {problem}; it cannot be moved aside "
                f"({error.strerror or error}), so the defaults are used and it is left as it is",
                file=sys.stderr,
            )
            return {}
        print(
            f"reversis play: the settings file {path} is not valid: {problem}; it is kept as {moved.name} "
            "and the defaults are used",
            file=sys.stderr,
        )
        return {}

    def write_settings(self, opponents: str, rollouts: int) -> None:
        """Remember the match's computer players beside the save (a failure only loses the memory)."""
        data = {"opponents": opponents, "rollouts": rollouts}
        with contextlib.suppress(OSError), replace_atomically(settings_path(self.path)) as out:
            out.write((json.dumps(data) + "\n").encode())

    def move_aside(self, why: str, reason: str) -> bool:
        """Move the save out of the way as ``why`` and say where; whether it could be moved."""
        try:
            moved = move_aside(self.path, why)
        except OSError as error:
            self.screen.emit(
                "notice",
                f"cannot move aside: {error}",
                f"{reason} It could not be moved out of the way ({error}), so it is left as it is.",
            )
            return False
        self.screen.emit("moved-aside", f"{why} {moved}", f"{reason} It is kept as {moved}.")
        return True

    def load(self) -> Any:
        """The saved match, or ``None`` (none, or not a saved match: then moved aside, and said so).

        :raises Stuck: if the file is not a saved match and cannot be moved aside.
        """
        if not os.path.lexists(self.path):
            return None
        try:
            return load_game(self.path, engine=self.engine)
        except self.engine.ReversisError as error:
            text = str(error).split("is not a saved match: ", 1)[-1]
            reason = f"{self.path} is not a saved match ({text})."
        except OSError as error:
            reason = f"{self.path} could not be read ({error.strerror or error})."
        if not self.move_aside("unreadable", reason):
            raise Stuck
        return None

    def write(self, game: Any) -> bool:
        """Save ``game``; report a failure at once (and a recovery); whether it was saved."""
        try:
            save_game(game, self.path, engine=self.engine)
        except (OSError, self.engine.ReversisError) as error:
            message = getattr(error, "strerror", None) or str(error)
            if self.error is None:
                self.screen.emit(
                    "save-failed",
                    message,
                    self.screen.style.paint(f"Warning: the match cannot be saved to {self.path}: {message}", BOLD, RED),
                )
            self.error = message
            return False
        if self.error is not None:
            self.screen.emit("save-recovered", str(self.path), f"Saved again to {self.path}.")
        self.error = None
        return True

    def confirm_drop(self, game: Any, why: str, quit: Callable[[], NoReturn]) -> bool:
        """Ask before dropping the match in progress ``game`` for ``why``; whether to drop it.

        ``quit`` is called where the person answers with a word that leaves, or input ends.
        """
        if not in_progress(game):
            return True
        scores = " ".join(map(str, game.scores))
        self.screen.emit(
            "confirm",
            f"abandon seed {game.seed} hand {game.hand_number} scores {scores}: {why}",
            f"This abandons the match in progress (seed {game.seed}, hand {game.hand_number + 1}, "
            f"scores {scores}) to {why}.",
        )
        words = self.screen.ask("confirm", "Type 'yes' to abandon it, anything else to keep playing it:")
        if words is None:
            quit()
        if words and words[0].lower() in ("yes", "y"):
            return True
        if words and words[0].lower() in QUIT_WORDS:
            quit()
        self.screen.emit("kept", f"seed {game.seed}", "Kept the match in progress.")
        self.screen.dirty = True
        return False

    def finished(self, game: Any) -> bool:
        """Make way for the next match after the finished ``game``: keep its save aside; whether the way is clear."""
        if self.error is None and os.path.lexists(self.path):
            return self.move_aside("finished", f"The finished match (seed {game.seed}) is kept.")
        return True
