"""The players of a tournament: from the names of ``--players`` to players seated at a table.

A name is a built-in player type of :data:`PLAYER_CLASSES`, with options for its class after it
(``search:playouts=8000``, ``learned:weights=PATH``), or ``cmd:COMMAND``, a program in any language speaking the player
protocol of spec/player.md, run as a process (:class:`~reversis.players.process.ProcessPlayer`)
for each seat it holds. :class:`PlayerBatch` makes the players of a batch of deals: a fresh
built-in player for every hand, one process per ``cmd:`` player and seat for the whole batch.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import math
import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import TournamentError

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = [
    "COMMAND_PREFIX",
    "DEFAULT_TIME_LIMIT_MS",
    "OPTION_SEPARATOR",
    "PATH_OPTIONS",
    "PLAYER_CLASSES",
    "WORD_OPTIONS",
    "PlayerBatch",
    "check_players",
    "command_line",
    "is_command",
    "load_player_class",
    "make_player",
    "player_options",
    "resolve_players",
    "split_players",
]

#: Player names on the command line, mapped to (module, class); imported only when used.
PLAYER_CLASSES: dict[str, tuple[str, str]] = {
    "random": ("reversis.players", "RandomPlayer"),
    "rules": ("reversis.players.rulebased", "RuleBasedPlayer"),
    "montecarlo": ("reversis.players.montecarlo", "MonteCarloPlayer"),
    "search": ("reversis.players.search", "SearchPlayer"),
    "lowest": ("reversis.players.process", "LowestPlayer"),
    "learned": ("reversis.players.learned", "LearnedPlayer"),
}

#: A built-in player's name may carry options for its class: ``search:playouts=8000`` or
#: ``search:time_ms=50:playouts=20000``, each a keyword argument with a number (or a path or a
#: word, below).
OPTION_SEPARATOR = ":"

#: Options whose value is a path, not a number (``learned:weights=nets/best.rvnn``,
#: ``search:rollouts=learned`` or ``search:rollouts=nets/best.rvnn``): the value is the rest of
#: the name, separators included, so such an option comes last.
PATH_OPTIONS = frozenset({"weights", "rollouts", "leaves"})

#: Options whose value is a word, not a number (``search:objective=match``); the player's
#: class checks the word.
WORD_OPTIONS = frozenset({"objective", "rollout_seats"})

#: Options whose value is ``true`` or ``false`` (``search:shoot=false``).
SWITCH_OPTIONS = frozenset({"shoot", "defend", "weigh_passes"})

#: A player named ``cmd:COMMAND`` is the program ``COMMAND``, through spec/player.md.
COMMAND_PREFIX = "cmd:"
#: The default limit of one decision of a ``cmd:`` player, in milliseconds (PLY-5).
DEFAULT_TIME_LIMIT_MS = 5000


def is_command(name: str) -> bool:
    """Whether the player ``name`` is a program (``cmd:COMMAND``) rather than a built-in player."""
    return name.startswith(COMMAND_PREFIX)


def command_line(name: str) -> str:
    """The command of the player ``cmd:COMMAND``."""
    return name[len(COMMAND_PREFIX) :].strip()


def split_players(text: str) -> list[str]:
    """The player names of ``--players``: split at commas, except commas inside quotes or after a backslash.

    So ``rules,"cmd:./bot --mode 'a,b'"`` is two players, the second's command keeping its
    quotes for the shell-like split of PLY-1.

    :raises TournamentError: for an unclosed quote.
    """
    names: list[str] = []
    current: list[str] = []
    quote = ""
    escaped = False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            names.append("".join(current))
            current = []
            continue
        current.append(ch)
    if quote or escaped:
        raise TournamentError(f"--players has an unclosed quote or a trailing backslash: {text!r}")
    names.append("".join(current))
    names = [name.strip() for name in names]
    if not all(names):
        raise TournamentError(f"--players has an empty entry: {text!r} (a name between every two commas)")
    return names


def player_options(name: str) -> tuple[str, dict[str, int | float | str | bool]]:
    """The registered name and the options of a built-in player's name ``NAME[:KEY=VALUE]...``.

    A value is a number, except for the options of :data:`PATH_OPTIONS`, whose value is the
    rest of the name, those of :data:`WORD_OPTIONS`, a word, and those of
    :data:`SWITCH_OPTIONS`, ``true`` or ``false``.

    :raises TournamentError: for an option that is not ``KEY=NUMBER``, or a path option without
        a path.
    """
    base, *items = name.split(OPTION_SEPARATOR)
    options: dict[str, int | float | str | bool] = {}
    for at, item in enumerate(items):
        key, equals, text = item.partition("=")
        if equals and key in PATH_OPTIONS:
            path = OPTION_SEPARATOR.join([text, *items[at + 1 :]])
            if not path:
                raise TournamentError(f"player {name!r}: the option {key} is {key}=PATH, and the path is empty")
            options[key] = path
            break
        if equals and key in WORD_OPTIONS:
            if not text.isidentifier():
                raise TournamentError(f"player {name!r}: the option {key} is {key}=WORD, not {item!r}")
            options[key] = text
            continue
        if equals and key in SWITCH_OPTIONS:
            if text not in ("true", "false"):
                raise TournamentError(f"player {name!r}: the option {key} is {key}=true or {key}=false, not {item!r}")
            options[key] = text == "true"
            continue
        value: int | float | None = None
        with contextlib.suppress(ValueError):
            value = float(text)
            value = int(text)
        if not equals or not key.isidentifier() or value is None or not math.isfinite(value):
            raise TournamentError(f"player {name!r}: an option is KEY=NUMBER, not {item!r}")
        options[key] = value
    return base, options


def load_player_class(name: str) -> type:
    """The player class registered under ``name`` (options after the name are checked, not used).

    :raises TournamentError: if the name is unknown, its module cannot be imported, or it has
        an option its class does not take.
    """
    base, options = player_options(name)
    if base not in PLAYER_CLASSES:
        raise TournamentError(f"unknown player {base!r}; known players: {', '.join(PLAYER_CLASSES)}")
    module_name, class_name = PLAYER_CLASSES[base]
    try:
        module = importlib.import_module(module_name)
        cls: type = getattr(module, class_name)
    except (ImportError, AttributeError) as error:
        raise TournamentError(
            f"player {base!r} is not available: cannot import {class_name} from {module_name} ({error})"
        ) from error
    parameters = inspect.signature(cls).parameters
    for key in options:
        if key not in parameters or key == "seed":
            raise TournamentError(f"player {base!r} takes no option {key!r}")
    if options:
        try:
            cls(**options)
        except (TypeError, ValueError) as error:
            raise TournamentError(f"player {name!r}: {error}") from None
    return cls


def make_player(name: str, seed: int, rollouts: int | None) -> Any:
    """A new built-in player ``name``: ``seed`` and ``rollouts`` where its class takes them, and the name's options."""
    cls = load_player_class(name)
    parameters = inspect.signature(cls).parameters
    kwargs: dict[str, Any] = {}
    if "seed" in parameters:
        kwargs["seed"] = seed
    if rollouts is not None and "rollouts" in parameters:
        kwargs["rollouts"] = rollouts
    kwargs.update(player_options(name)[1])
    return cls(**kwargs)


def check_players(names: Sequence[str], ruleset: Ruleset | None = None) -> None:
    """Refuse a list of player names that cannot play, before anything is started.

    :raises TournamentError: for a repeated name, an unknown or unavailable built-in player,
        one with a bad option or one that cannot be made (a learned player whose network file is
        missing), a built-in player that cannot play ``ruleset`` (its answer to
        :func:`reversis.players.why_cannot_play`), and a ``cmd:`` player whose command cannot be
        split or is empty.
    """
    if len(set(names)) != len(names):
        raise TournamentError("each player type may be named once")
    for name in names:
        if not is_command(name):
            load_player_class(name)
            try:
                player = make_player(name, 0, None)
            except (TypeError, ValueError) as error:
                raise TournamentError(f"player {name!r}: {error}") from None
            if ruleset is not None:
                reason = _cannot_play(name, player, ruleset)
                if reason is not None:
                    raise TournamentError(f"player {name!r} cannot play {ruleset.name}: {reason}")
            continue
        try:
            words = shlex.split(command_line(name))
        except ValueError as error:
            raise TournamentError(f"player {name!r}: {error}") from None
        if not words:
            raise TournamentError(f"player {name!r} names no command: write cmd:PROGRAM ARGS")


#: The answers of :func:`_cannot_play` so far: a tournament checks its players more than once.
_ANSWERS: dict[tuple[str, str], str | None] = {}


def _cannot_play(name: str, player: Any, ruleset: Ruleset) -> str | None:
    """Why the player ``name`` (``player``, made to be asked) cannot play ``ruleset``, or ``None``."""
    from reversis.players import why_cannot_play

    key = (name, json.dumps(ruleset.to_json(), sort_keys=True))
    if key not in _ANSWERS:
        _ANSWERS[key] = why_cannot_play(player, ruleset)
    return _ANSWERS[key]


def resolve_players(
    players: Sequence[str],
    ruleset: Ruleset,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
) -> dict[str, str]:
    """The name each player is reported under: its own, or for ``cmd:`` players the ``name`` of their hello.

    Each ``cmd:`` player is started once, says hello to ``ruleset`` and is quit (PLY-3). Its
    hello name is used unless another player has it too, or it is a built-in player's: then its
    ``cmd:`` text.

    :raises TournamentError: for a ``cmd:`` player that cannot be started or gives no valid hello.
    """
    from reversis.players.process import PlayerFault, ProcessPlayer

    hello: dict[str, str] = {}
    for name in players:
        if not is_command(name):
            continue
        try:
            with ProcessPlayer(command_line(name), ruleset, 0, time_limit_ms=time_limit_ms, stderr=bot_stderr) as probe:
                hello[name] = probe.open()
        except PlayerFault as fault:
            tail = fault.stderr.strip().splitlines()[-3:]
            said = "".join(f"\n  {line}" for line in tail)
            raise TournamentError(f"player {name!r} cannot play: {fault.reason}{said}") from None
    taken = [*players, *PLAYER_CLASSES, *hello.values()]
    return {name: hello[name] if name in hello and taken.count(hello[name]) == 1 else name for name in players}


class PlayerBatch:
    """The players of one batch of deals under ``ruleset``, all closed when the ``with`` block ends.

    A built-in player is made fresh for every hand; a ``cmd:`` player is one process per seat it
    holds, serving every hand of the batch, with ``time_limit_ms`` per decision and its standard
    error kept (``bot_stderr`` ``"capture"``) or shown (``"show"``).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        rollouts: int | None = None,
        time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
        bot_stderr: str = "capture",
    ) -> None:
        self.ruleset = ruleset
        self.rollouts = rollouts
        self.time_limit_ms = time_limit_ms
        self.bot_stderr = bot_stderr
        self.processes: dict[tuple[str, int], Any] = {}

    def seat(self, name: str, seat: int, hand_number: int, seed: int) -> Any:
        """The player ``name`` at ``seat`` for the hand ``hand_number``, seeded with ``seed``."""
        if not is_command(name):
            return make_player(name, seed, self.rollouts)
        from reversis.players.process import ProcessPlayer

        key = (name, seat)
        if key not in self.processes:
            self.processes[key] = ProcessPlayer(
                command_line(name), self.ruleset, seat, time_limit_ms=self.time_limit_ms, stderr=self.bot_stderr
            )
        player = self.processes[key]
        # The seed its built-in neighbours would get: a seeded program can play as they do.
        player.start_hand(hand_number, seed)
        return player

    def __enter__(self) -> PlayerBatch:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        from reversis.players.process import close_all

        if exc_type is None:
            close_all(self.processes.values())
        else:  # Ctrl-C or a failure: no quit and no grace, the groups go at once
            for player in self.processes.values():
                player.kill()
        self.processes.clear()
