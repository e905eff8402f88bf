"""``reversis play``: one person against the computer at a terminal (001).

Seat 0 is the person; every other seat is a computer player that sees only its observation
(001 ¶9). A match is dealt from a seed that is always shown: ``--seed`` replays a deal, a new
match draws a fresh seed (001 ¶12). The match is saved after every action, so quitting, a
closed terminal or a crash loses nothing, and no card can be taken back once an opponent's card
has been revealed; the next ``reversis play`` resumes it.

Nothing the player owns is destroyed (see :mod:`reversis.table`): the save is written only to a
regular file (through a symlink, to its target), a file that is not a saved match is moved aside
under a name that says so, a match in progress is dropped only when the person confirms it, a
finished match is kept beside the save when the next one starts, two sessions on one save are
refused by a lock, and a save that fails is reported at once and again on leaving.

The loop reads lines from stdin and writes to stdout. ``--plain`` prints machine-friendly
``key: value`` lines instead of the board (``legal: 2C 5C`` then ``prompt: play`` before each
input), which is how the tests drive it.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import functools
import importlib
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from ..errors import shown as shown_input
from ..players import Observation, Player, RandomPlayer, observe, why_cannot_play
from ..table import (
    SaveError,
    SaveInUse,
    SaveLock,
    check_save_path,
    default_save_path,
    load_game,
    move_aside,
    new_seed,
    remove_stale_temp_files,
    replace_atomically,
    save_game,
    start_match,
)
from .common import Terminated, count, finite_float, preset_name, save_file, seed

__all__ = ["PlaySession", "explain", "register", "run"]

DEFAULT_PRESET = "hearts-computer"
#: The computer players ``--opponents`` offers.
OPPONENTS = ("rules", "random", "montecarlo", "search", "learned")
DEFAULT_OPPONENTS = "rules"
#: Playouts per legal card of the Monte Carlo player unless ``--rollouts`` says otherwise.
DEFAULT_ROLLOUTS = 100
#: The most ``--rollouts`` takes.
MAX_ROLLOUTS = 100_000
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
NAMES_4 = ["You", "West", "North", "East"]
NAMES = ["You", "Ada", "Bram", "Cleo", "Dirk", "Eva", "Floor", "Gijs", "Hanna", "Ivo"]
QUIT_WORDS = ("quit", "exit")
#: Words for a take-back, which the table does not have (001: no take-back once a card is shown).
TAKE_BACK_WORDS = ("undo", "back", "takeback", "take-back")
MOON_CHOICES = {
    "add": "add-to-others",
    "add-to-others": "add-to-others",
    "subtract": "subtract-from-taker",
    "sub": "subtract-from-taker",
    "subtract-from-taker": "subtract-from-taker",
}
#: Card ranks as typed, for the hint after a bare rank such as ``Q``.
RANK_WORDS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "A"}
#: Typed forms of a suit that the engines do not read: the white suits and emoji variation selectors.
INPUT_FOLD = str.maketrans({"♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣", "\ufe0f": None, "\ufe0e": None})
#: The plain fallback of every decorative character, for a terminal that cannot print it.
ASCII_FALLBACK = str.maketrans(
    {
        "━": "=",
        "·": "-",
        "▸": ">",
        "✗": "x",
        "“": '"',
        "”": '"',
        "’": "'",
        "…": "...",
        "−": "-",
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
    }
)
#: The width every line of the board keeps within.
BOARD_WIDTH = 80

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
RED = "\x1b[31m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

HELP = """\
Type a card to play it: QS, qs, 10h, Q♠ (rank, then suit C D H S or ♣ ♦ ♥ ♠).
When passing, type all the cards to pass on one line: 2C QS 10h.
Commands (type the whole word):
  help    this text
  quit    save the match and leave (it resumes next time)
  new     abandon this match and deal a new one with a fresh seed (asks first)
  replay  restart this match from the first deal of its seed (asks first)
An empty line shows the table again. There is no take-back."""


def visible_width(text: str) -> int:
    """The columns ``text`` takes on a terminal, ANSI colour codes left out."""
    return len(_ANSI.sub("", text))


class Style:
    """How cards and emphasis are printed: Unicode suits, and ANSI colours when ``color``.

    ``unicode`` says whether the output can show characters beyond ASCII at all; when it
    cannot, every decorative character is printed as its plain fallback (:data:`ASCII_FALLBACK`).
    """

    def __init__(self, *, color: bool, symbols: bool, unicode: bool = True) -> None:
        """Print suit symbols when ``symbols``, colours when ``color``, non-ASCII text when ``unicode``."""
        self.color = color
        self.symbols = symbols and unicode
        self.unicode = unicode

    def paint(self, text: str, *codes: str) -> str:
        """``text`` wrapped in the ANSI ``codes`` when colour is on."""
        if not self.color or not codes:
            return text
        return "".join(codes) + text + RESET

    def plain(self, text: str) -> str:
        """``text`` as this output can show it: decorative characters replaced when it is ASCII-only."""
        return text if self.unicode else text.translate(ASCII_FALLBACK)

    def suit(self, suit: str) -> str:
        """A suit's symbol (or letter), red for hearts and diamonds."""
        text = SUIT_SYMBOLS[suit] if self.symbols else suit
        return self.paint(text, RED) if suit in "HD" else text

    def face(self, card: str) -> str:
        """A card as printed, without colour: ``10♥``, ``Q♠`` (``TH``, ``QS`` without symbols)."""
        return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]] if self.symbols else card

    def card(self, card: str) -> str:
        """A card as rank and suit symbol: ``10♥``, ``Q♠``; red for hearts and diamonds."""
        text = self.face(card)
        return self.paint(text, BOLD, RED) if card[1] in "HD" else self.paint(text, BOLD)

    def cards(self, cards: list[str]) -> str:
        """Several cards, space-separated."""
        return " ".join(self.card(card) for card in cards)


def _suit_name(suit: str) -> str:
    return SUIT_NAMES[suit]


def _signed(points: int) -> str:
    """Points with their sign: ``+13``, ``-10``."""
    return f"{points:+d}"


def explain(code: str, game: Any, style: Style, *, card: str | None = None, text: str = "") -> str:
    """Why the person's action was rejected, in words, from the error's ``code`` (spec/errors.md)."""
    ruleset = game.ruleset
    if code == "invalid-card":
        if text.upper() in RANK_WORDS:
            return f"“{text}” is a rank: add the suit, like {text.upper()}S or {text.upper()}♠ (to leave, type quit)"
        return f"“{text}” is not a card: type the rank then the suit, like QS, 10h or Q♠"
    if code == "card-not-held":
        return f"you do not hold {style.card(card)}" if card else "you do not hold that card"
    if code == "must-follow-suit":
        led = game.trick[0]["card"][1] if game.trick else None
        if led is None:
            return "you must follow suit"
        return f"you must follow suit: you hold {_suit_name(led)}"
    if code == "hearts-not-broken":
        how = " (only a heart played breaks them; Q♠ does not)" if ruleset.hearts_breaking == "heart" else ""
        return f"hearts are not broken yet: lead another suit{how}"
    if code == "points-on-first-trick":
        points = ruleset.point_cards
        kinds = []
        if any(c[1] == "H" for c in points):
            kinds.append("a heart")
        kinds += [style.card(c) for c in points if c[1] != "H"]
        named = " or ".join(kinds) if kinds else "a point card"
        return f"no points on the first trick: you may not discard {named} while you hold a card worth nothing"
    if code == "must-lead-opening-card":
        return f"the first trick must be led with {style.card(ruleset.opening_card)}"
    if code == "wrong-pass-size":
        size = ruleset.passing["size"] if ruleset.passing else 0
        return f"pass exactly {size} cards, on one line"
    if code == "duplicate-card":
        return "you named the same card twice: pass different cards"
    if code == "already-passed":
        return "you have already passed this hand"
    if code in ("wrong-seat", "wrong-phase"):
        return "it is not your turn to do that"
    if code == "moon-choice-pending":
        return "first choose how the moon is scored"
    if code == "match-over":
        return "the match is over"
    return code.replace("-", " ")


class Finished(Exception):
    """Raised to leave the game loop with an exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def settings_path(save: Path) -> Path:
    """The file beside a save that remembers the match's computer players: ``NAME.settings``."""
    return save.with_name(save.name + ".settings")


def _settings_problem(data: Any) -> str | None:
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


def _in_progress(game: Any) -> bool:
    """Whether dropping ``game`` loses the person's play: it is not over and seat 0 has acted."""
    return game.phase != "over" and any(action.get("seat") == 0 for action in game.actions)


def _last_trick(game: Any) -> tuple[int | None, list[tuple[int, str]], int] | None:
    """The hand's last completed trick, or ``None`` before its first (never the previous hand's).

    Its winner is ``None`` where the trick was held over (PLAY-9, TRICK-1).
    """
    tricks = list(game.tricks_played)
    if not tricks:
        return None
    trick = tricks[-1]
    winner = None if trick["winner"] is None else int(trick["winner"])
    return winner, [(int(e["seat"]), str(e["card"])) for e in trick["cards"]], int(trick["points"])


class PlaySession:
    """One person at seat 0 against computer players, reading ``inp`` and writing ``out``."""

    def __init__(
        self,
        *,
        engine: ModuleType,
        ruleset_name: str | None,
        save_path: Path,
        opponents: str | None,
        seed: int | None,
        new: bool,
        delay: float,
        plain: bool,
        style: Style,
        inp: TextIO,
        out: TextIO,
        rollouts: int | None = None,
        resume_hint: str = "reversis play",
    ) -> None:
        """Set up the session; :meth:`run` starts or resumes the match.

        ``opponents`` and ``rollouts`` of ``None`` mean: as the saved match had them (kept in
        :func:`settings_path`), else the defaults. ``resume_hint`` is the command that resumes.
        """
        self.engine = engine
        self.ruleset_name = ruleset_name
        self.save_path = save_path
        self.requested_opponents = opponents
        self.requested_rollouts = rollouts
        self.opponents = opponents or DEFAULT_OPPONENTS
        self.rollouts = rollouts or DEFAULT_ROLLOUTS
        self.requested_seed = seed
        self.requested_new = new
        self.delay = delay
        self.plain = plain
        self.style = style
        self.inp = inp
        self.out = out
        self.resume_hint = resume_hint
        self.game: Any = None
        self.players: list[Player | None] = []
        self.opponent_label = ""
        self.last_trick: tuple[int | None, list[tuple[int, str]], int] | None = None
        #: Why the last save failed, or ``None`` when the save on disk holds the match.
        self.save_error: str | None = None
        self._pending: list[Callable[[], None]] = []
        self.dirty = True

    # Output -----------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write a line (decorative characters replaced where the output cannot show them)."""
        self.out.write(self.style.plain(text) + "\n")

    def emit(self, key: str, value: str, pretty: str | None) -> None:
        """An event: ``key: value`` in plain mode, else ``pretty`` (nothing when ``None``)."""
        if self.plain:
            self.say(f"{key}: {value}".rstrip())
        elif pretty is not None:
            self.say(pretty)

    def names(self) -> list[str]:
        """The display names of the seats."""
        count = self.game.ruleset.players
        names = NAMES_4 if count == 4 else NAMES
        return [names[s] if s < len(names) else f"Seat {s}" for s in range(count)]

    def name(self, seat: int) -> str:
        """The display name of a seat."""
        return self.names()[seat]

    def _target(self, direction: str) -> tuple[int, int]:
        """The seats seat 0 passes to and receives from in ``direction``."""
        n = self.game.ruleset.players
        step = {"left": 1, "right": -1, "across": 2}.get(direction, 0)
        return step % n, -step % n

    def _width(self) -> int:
        """The width of a seat's column on the board."""
        return max(6, max(len(name) for name in self.names()) + 1)

    def _score_rows(self, *rows: tuple[str, list[int]]) -> None:
        """A header of seat names, then one row of numbers per ``(label, values)``, in columns."""
        width = self._width()
        self.say(" " * 13 + "".join(f"{name:>{width}}" for name in self.names()))
        for label, numbers in rows:
            self.say(self._columns(label, [(str(v), str(v)) for v in numbers], width))

    # Setup --------------------------------------------------------------------------------------

    def _preset(self) -> Any:
        return self.engine.preset(self.ruleset_name or DEFAULT_PRESET)

    def _opponent_class(self, opponents: str) -> tuple[Any, dict[str, Any], str]:
        """The class of the computer players ``opponents``, its keyword arguments and the label shown."""
        cls: Any = RandomPlayer
        label = "random"
        kwargs: dict[str, Any] = {}
        classes = {
            "rules": ("reversis.players.rulebased", "RuleBasedPlayer"),
            "montecarlo": ("reversis.players.montecarlo", "MonteCarloPlayer"),
            "search": ("reversis.players.search", "SearchPlayer"),
            "learned": ("reversis.players.learned", "LearnedPlayer"),
        }
        if opponents in classes:
            module, name = classes[opponents]
            try:
                cls = getattr(importlib.import_module(module), name)
                label = opponents
                if opponents == "montecarlo":
                    kwargs = {"rollouts": self.rollouts}
                    label = f"montecarlo ({self.rollouts} rollouts)"
            except (ImportError, AttributeError):
                cls, label = RandomPlayer, f"random (the {opponents} player is not available)"
        return cls, kwargs, label

    def _make_players(self) -> None:
        count = self.game.ruleset.players
        cls, kwargs, label = self._opponent_class(self.opponents)
        # Fresh entropy, never the shuffle seed: computer players know only their observation.
        self.players = [None] + [cls(**kwargs) for _ in range(1, count)]
        self.opponent_label = label

    def _cannot_play(self, opponents: str, ruleset: Any) -> str | None:
        cls, kwargs, _ = self._opponent_class(opponents)
        return why_cannot_play(cls(**kwargs), ruleset)

    def _check_opponents(self, ruleset: Any, saved: bool) -> None:
        """Refuse, before any deal, computer players that cannot play ``ruleset``: a usage error saying how to go on.

        ``saved``: the ruleset is the saved match's, which is kept as it is.
        """
        reason = self._cannot_play(self.opponents, ruleset)
        if reason is None:
            return
        others = [name for name in OPPONENTS if name != self.opponents and self._cannot_play(name, ruleset) is None]
        choose = " or ".join(f"--opponents {name}" for name in others)
        problem = f"reversis play: the {self.opponents} player cannot play {ruleset.name} ({reason})"
        if saved:
            ways = []
            if others:
                also = "".join(f" (or --opponents {name})" for name in others[1:])
                ways.append(f"`{self.resume_hint} --opponents {others[0]}`{also} resumes it with other players")
            ways.append(f"`{self.resume_hint} --new` deals another match (after asking to abandon this one)")
            print(f"{problem}; the saved match is kept in {self.save_path}: " + ", or ".join(ways), file=sys.stderr)
        else:
            instead = f"choose {choose}, or another --preset" if others else "choose another --preset"
            print(f"{problem}: {instead}", file=sys.stderr)
        raise Finished(2)

    def _load_settings(self) -> None:
        """Take the saved match's computer players, unless the command line named others.

        A settings file that is not what :meth:`_save_settings` writes is moved aside, as a save
        that is not a saved match is, and said so on standard error: the defaults are used and
        written anew, and the person's file is kept.
        """
        path = settings_path(self.save_path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            problem = _settings_problem(data)
        except FileNotFoundError:
            return
        except OSError as error:
            problem = f"it cannot be read ({error.strerror or error})"
        except ValueError as error:
            problem = f"it is not JSON ({error})" if isinstance(error, json.JSONDecodeError) else "it is not UTF-8"
        if problem is not None:
            try:
                moved = move_aside(path, "unreadable")
            except OSError as error:
                print(
                    f"reversis play: the settings file {path} is not valid: {problem}; it cannot be moved aside "
                    f"({error.strerror or error}), so the defaults are used and it is left as it is",
                    file=sys.stderr,
                )
                return
            print(
                f"reversis play: the settings file {path} is not valid: {problem}; it is kept as {moved.name} "
                "and the defaults are used",
                file=sys.stderr,
            )
            return
        if self.requested_opponents is None and "opponents" in data:
            self.opponents = data["opponents"]
        if self.requested_rollouts is None and "rollouts" in data:
            self.rollouts = data["rollouts"]

    def _save_settings(self) -> None:
        data = {"opponents": self.opponents, "rollouts": self.rollouts}
        with contextlib.suppress(OSError), replace_atomically(settings_path(self.save_path)) as out:
            out.write((json.dumps(data) + "\n").encode())

    def _begin(self, game: Any, how: str) -> None:
        self.game = game
        self.last_trick = _last_trick(game)
        self.dirty = True
        self._make_players()
        self._save()
        self._save_settings()
        self.emit(
            "match",
            f"{how} seed {game.seed} preset {game.ruleset.name} hand {game.hand_number} "
            f"opponents {self.opponent_label}",
            self.style.paint(f"{how.capitalize()} match · {game.ruleset.title} · seed {game.seed}", BOLD, CYAN)
            + f"\n  Computer players: {self.opponent_label}",
        )

    def _move_aside(self, why: str, reason: str) -> bool:
        """Move the save out of the way as ``why`` and say where; whether it could be moved."""
        try:
            moved = move_aside(self.save_path, why)
        except OSError as error:
            self.emit(
                "notice",
                f"cannot move aside: {error}",
                f"{reason} It could not be moved out of the way ({error}), so it is left as it is.",
            )
            return False
        self.emit("moved-aside", f"{why} {moved}", f"{reason} It is kept as {moved}.")
        return True

    def _load_saved(self) -> Any:
        """The saved match, or ``None`` (none, or not a saved match: then moved aside, and said so)."""
        if not os.path.lexists(self.save_path):
            return None
        try:
            return load_game(self.save_path, engine=self.engine)
        except self.engine.ReversisError as error:
            text = str(error).split("is not a saved match: ", 1)[-1]
            reason = f"{self.save_path} is not a saved match ({text})."
        except OSError as error:
            reason = f"{self.save_path} could not be read ({error.strerror or error})."
        if not self._move_aside("unreadable", reason):
            raise Finished(1)
        return None

    def _confirm_drop(self, game: Any, why: str) -> bool:
        """Ask before dropping the match in progress ``game`` for ``why``; whether to drop it."""
        if not _in_progress(game):
            return True
        scores = " ".join(map(str, game.scores))
        self.emit(
            "confirm",
            f"abandon seed {game.seed} hand {game.hand_number} scores {scores}: {why}",
            f"This abandons the match in progress (seed {game.seed}, hand {game.hand_number + 1}, "
            f"scores {scores}) to {why}.",
        )
        words = self._ask("confirm", "Type 'yes' to abandon it, anything else to keep playing it:")
        if words and words[0].lower() in ("yes", "y"):
            return True
        if words and words[0].lower() in QUIT_WORDS:
            self._quit()
        self.emit("kept", f"seed {game.seed}", "Kept the match in progress.")
        self.dirty = True
        return False

    def _start(self) -> None:
        saved = self._load_saved()
        if saved is not None and saved.phase == "over":
            if not self._move_aside("finished", f"The last match (seed {saved.seed}) is over."):
                raise Finished(1)
            saved = None
        if saved is not None:
            wants: str | None = None
            if self.requested_seed is not None:
                wants = f"deal from seed {self.requested_seed}"
            elif self.requested_new:
                wants = "deal a new match (--new)"
            elif self.ruleset_name and saved.ruleset.name != self.ruleset_name:
                wants = f"start {self.ruleset_name} (the saved match is {saved.ruleset.name})"
            if wants is None:
                self._check_opponents(saved.ruleset, saved=True)
                self._begin(saved, "resumed")
                return
            self._check_opponents(self._preset(), saved=False)
            self.game = saved  # end of input at the question leaves it saved as it is
            if not self._confirm_drop(saved, wants):
                self._check_opponents(saved.ruleset, saved=True)
                self._begin(saved, "resumed")
                return
        else:
            self._check_opponents(self._preset(), saved=False)
        if self.requested_seed is not None:
            self._begin(start_match(self._preset(), self.requested_seed, engine=self.engine), "replaying")
        else:
            self._begin(start_match(self._preset(), engine=self.engine), "new")

    def _save(self) -> bool:
        """Save the match; report a failure at once (and a recovery); whether it was saved."""
        try:
            save_game(self.game, self.save_path, engine=self.engine)
        except (OSError, self.engine.ReversisError) as error:
            message = getattr(error, "strerror", None) or str(error)
            if self.save_error is None:
                self.emit(
                    "save-failed",
                    message,
                    self.style.paint(f"Warning: the match cannot be saved to {self.save_path}: {message}", BOLD, RED),
                )
            self.save_error = message
            return False
        if self.save_error is not None:
            self.emit("save-recovered", str(self.save_path), f"Saved again to {self.save_path}.")
        self.save_error = None
        return True

    # The board ----------------------------------------------------------------------------------

    def _show_board(self) -> None:
        """The board, unless it has not changed since it was last shown (plain mode: always)."""
        if self.dirty or self.plain:
            self._board()
            self.dirty = False

    def _columns(self, label: str, cells: list[tuple[str, str]], width: int, tail: str = "") -> str:
        """A board row: ``label``, then one right-aligned cell per seat (``(plain, painted)``), then ``tail``."""
        st = self.style
        row = "  " + st.paint(f"{label:<11}", DIM) + "".join(" " * (width - len(p)) + shown for p, shown in cells)
        return row + ("  " + tail if tail else "")

    def _board(self) -> None:
        game = self.game
        obs = game.observation(0)
        if self.plain:
            self._plain_board(obs)
            return
        st = self.style
        names = self.names()
        width = self._width()
        direction = game.pass_direction
        if direction in (None, "hold"):
            passing = "no passing" if direction is None else "hold (no passing)"
        elif game.phase != "pass":
            passing = f"passed {direction} to {self.name(self._target(direction)[0])}"
        else:
            passing = f"pass {direction} to {self.name(self._target(direction)[0])}"
        title = f" Hand {game.hand_number + 1} · {passing} · seed {game.seed} "
        self.say()
        self.say(st.paint("━━━" + title + "━" * max(3, 64 - len(title)), CYAN))
        self.say(" " * 13 + "".join(f"{name:>{width}}" for name in names))

        def numbers(values: list[int]) -> list[tuple[str, str]]:
            return [(str(v), str(v)) for v in values]

        self.say(self._columns("Scores", numbers(obs["scores"]), width, f"(to {game.ruleset.target})"))
        broken = "hearts broken" if obs["hearts_broken"] and game.ruleset.hearts_breaking != "none" else ""
        self.say(self._columns("This hand", numbers(obs["points"]), width, broken))
        if self.last_trick is not None:
            winner, taken, points = self.last_trick
            played = dict(taken)
            cells = [(st.face(played[s]), st.card(played[s])) if s in played else ("", "") for s in range(len(names))]
            if winner is None:
                took = "held over: the next trick's winner takes it"
            else:
                took = f"{self.name(winner)} took it" + (f" ({_signed(points)})" if points else "")
            self.say(self._columns("Last trick", cells, width, took))
        if obs["phase"] == "play":
            if obs["trick"]:
                played = {e["seat"]: e["card"] for e in obs["trick"]}
                cells = [
                    (st.face(played[s]), st.card(played[s])) if s in played else ("·", st.paint("·", DIM))
                    for s in range(len(names))
                ]
                self.say(self._columns("Trick", cells, width, f"led by {self.name(obs['trick'][0]['seat'])}"))
            else:
                who = "you lead" if obs["to_move"] == 0 else f"{self.name(obs['to_move'])} leads"
                self.say(f"  {st.paint('Trick', DIM)}      {who}")
        legal = set(obs["legal"])
        self.say(f"  {st.paint('Your hand', DIM)}")
        for suit in SUITS:
            cards = [c for c in obs["hand"] if c[1] == suit]
            if not cards:
                continue
            shown = []
            for card in cards:
                face = st.card(card)
                pad = " " * (3 - len(st.face(card)))
                shown.append(f"[{face}]{pad}" if card in legal else f" {face} {pad}")
            lead = f"    {st.suit(suit)}  "
            line = lead
            for cell in shown:
                if visible_width(line + cell) > BOARD_WIDTH and line != lead:
                    self.say(line.rstrip())
                    line = " " * 7
                line += cell + " "
            self.say(line.rstrip())

    def _plain_board(self, obs: dict[str, Any]) -> None:
        game = self.game
        self.say(
            f"board: hand {game.hand_number} phase {obs['phase']} pass {game.pass_direction or 'none'} seed {game.seed}"
        )
        self.say("scores: " + " ".join(map(str, obs["scores"])))
        self.say("points: " + " ".join(map(str, obs["points"])))
        if self.last_trick is not None:
            winner, cards, points = self.last_trick
            taker = "none" if winner is None else winner
            self.say(f"last-trick: {taker} {points} " + " ".join(f"{s}:{c}" for s, c in cards))
        self.say("trick: " + " ".join(f"{e['seat']}:{e['card']}" for e in obs["trick"]))
        self.say("hand: " + " ".join(obs["hand"]))
        self.say("legal: " + " ".join(obs["legal"]))

    # Input --------------------------------------------------------------------------------------

    def _ask(self, kind: str, prompt: str) -> list[str]:
        if self.plain:
            self.say(f"prompt: {kind}")
        else:
            self.say(self.style.paint(prompt, BOLD))
            self.out.write(self.style.paint("> ", BOLD, YELLOW))
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.emit("eof", "", "")
            self._quit()
        return line.translate(INPUT_FOLD).replace(",", " ").split()

    def _reject(self, code: str, why: str) -> None:
        self.emit("rejected", f"{code}: {why}", "  " + self.style.paint("✗", BOLD, YELLOW) + " " + why)

    def _command(self, word: str) -> bool:
        """Run ``word`` if it is a command (the whole word: ``Q`` is the queen); whether it was one."""
        word = word.lower()
        if word in ("help", "?"):
            self.say(HELP)
            self.dirty = True
            return True
        if word in QUIT_WORDS:
            self._quit()
        if word in TAKE_BACK_WORDS:
            self._reject("no-take-back", "there is no take-back: a card once shown stays played")
            return True
        if word == "new":
            if self._replace_match("deal a new match"):
                self._begin(start_match(self.game.ruleset, engine=self.engine), "new")
            return True
        if word == "replay":
            if self._replace_match(f"replay seed {self.game.seed} from its first deal"):
                self._begin(start_match(self.game.ruleset, self.game.seed, engine=self.engine), "replaying")
            return True
        return False

    def _replace_match(self, why: str) -> bool:
        """Make way for another match: confirm dropping one in progress, keep a finished one aside."""
        if self.game.phase == "over":
            if self.save_error is None and os.path.lexists(self.save_path):
                return self._move_aside("finished", f"The finished match (seed {self.game.seed}) is kept.")
            return True
        return self._confirm_drop(self.game, why)

    def _quit(self) -> None:
        saved = self._save()
        if not saved:
            self.emit(
                "unsaved",
                self.save_error or "",
                self.style.paint(
                    f"The match was NOT saved ({self.save_error}); seed {self.game.seed} deals it again.", BOLD, RED
                ),
            )
            raise Finished(1)
        if self.game.phase == "over":
            raise Finished(0)
        self.emit(
            "saved",
            str(self.save_path),
            f"Saved to {self.save_path}. Run `{self.resume_hint}` to resume (seed {self.game.seed}).",
        )
        raise Finished(0)

    def _human_pass(self) -> None:
        size = self.game.ruleset.passing["size"]
        direction = self.game.pass_direction
        to = self.name(self._target(direction)[0])
        self._show_board()
        words = self._ask("pass", f"Choose {size} cards to pass {direction} to {to} (e.g. 2C QS 10h), or 'help':")
        if not words:
            self.dirty = True
            return
        if len(words) == 1 and self._command(words[0]):
            return
        cards = []
        for word in words:
            try:
                cards.append(self.engine.parse_card(word))
            except self.engine.ReversisError as error:
                self._reject(error.code, explain(error.code, self.game, self.style, text=word))
                return
        held = set(self.game.hand(0))
        try:
            self._apply({"type": "pass", "seat": 0, "cards": cards})
        except self.engine.ReversisError as error:
            missing = next((c for c in cards if c not in held), None)
            self._reject(error.code, explain(error.code, self.game, self.style, card=missing))
            return
        shown = sorted(cards, key=self.engine.card_id)
        self.emit("passed", " ".join(shown), f"  You pass {self.style.cards(shown)} {direction} to {to}.")
        self._flush()

    def _human_play(self) -> None:
        self._show_board()
        words = self._ask("play", "Your card ([legal] cards in brackets), or 'help':")
        if not words:
            self.dirty = True
            return
        if len(words) == 1 and self._command(words[0]):
            return
        if len(words) != 1:
            self._reject("one-card", "play one card at a time")
            return
        try:
            card = self.engine.parse_card(words[0])
        except self.engine.ReversisError as error:
            self._reject(error.code, explain(error.code, self.game, self.style, text=words[0]))
            return
        self._play(0, card)

    def _human_moon(self) -> None:
        bonus = self.game.ruleset.moon["bonus"]
        self._show_board()
        words = self._ask(
            "moon",
            f"You shot the moon! Type 'add' (opponents +{bonus}) or 'subtract' (you -{bonus}):",
        )
        if not words:
            self.dirty = True
            return
        if len(words) == 1 and self._command(words[0]):
            return
        choice = MOON_CHOICES.get(words[0].lower())
        if choice is None:
            self._reject("invalid-action", "type 'add' or 'subtract'")
            return
        self._apply({"type": "moon", "seat": 0, "choice": choice})
        self._flush()

    # Actions ------------------------------------------------------------------------------------

    def _play(self, seat: int, card: str) -> None:
        game = self.game
        trick = list(game.trick)
        try:
            self._apply({"type": "play", "seat": seat, "card": card})
        except self.engine.ReversisError as error:
            self._reject(error.code, explain(error.code, game, self.style, card=card))
            return
        verb = "leads" if not trick else "plays"
        who = "You" if seat == 0 else self.name(seat)
        if seat == 0:
            verb = "lead" if not trick else "play"
        self.emit("played", f"{seat} {card}", f"  {who} {verb} {self.style.card(card)}")
        self._flush()

    def _apply(self, action: dict[str, Any]) -> None:
        """Apply an action and save; what it set off (EVT-1) is reported by :meth:`_flush`."""
        game = self.game
        game.apply(action)
        self.dirty = True
        self._save()
        for event in game.events:
            if event["type"] == "trick":
                winner, points = event["winner"], event["points"]
                self.last_trick = (winner, [(entry["seat"], entry["card"]) for entry in event["cards"]], points)
                self._pending.append(functools.partial(self._announce_trick, winner, points))
            elif event["type"] == "exchange":
                self._pending.append(functools.partial(self._exchange, event["direction"]))
            elif event["type"] == "hand":
                self._pending.append(functools.partial(self._hand_done, event))
            elif event["type"] == "deal":
                self.last_trick = None  # a new hand: the last hand's trick is not on the table

    def _flush(self) -> None:
        """Report what the last action finished, in order."""
        pending, self._pending = self._pending, []
        for report in pending:
            report()

    def _announce_trick(self, winner: int | None, points: int) -> None:
        if winner is None:  # PLAY-9: every card of the suit led was cancelled
            self.emit(
                "took",
                "none 0",
                self.style.paint("  ▸ Identical cards cancel: the trick is held over for the next one's winner", DIM),
            )
            return
        plus = f"  ({_signed(points)})" if points else ""
        who = "You take" if winner == 0 else f"{self.name(winner)} takes"
        self.emit(
            "took", f"{winner} {points}", self.style.paint(f"  ▸ {who} the trick{plus}", YELLOW if winner else GREEN)
        )

    def _exchange(self, direction: str | None) -> None:
        obs = self.game.observation(0)
        received = obs.get("received") or []
        giver = self.name(self._target(direction or "hold")[1])
        self.emit(
            "received",
            " ".join(received),
            f"  Cards exchanged: you received {self.style.cards(received)} from {giver}.",
        )

    def _hand_done(self, hand: dict[str, Any]) -> None:
        game = self.game
        scores, moon = hand["scores"], hand["moon_taker"]
        self.emit("hand-over", " ".join(map(str, scores)), self.style.paint("  Hand over.", BOLD))
        if moon is not None:
            self.emit("moon", str(moon), f"  {self.name(moon)} took every point card and shot the moon!")
        self.emit("totals", " ".join(map(str, game.scores)), None)
        if not self.plain:
            self._score_rows(("This hand", scores), ("Totals", game.scores))

    # The loop -----------------------------------------------------------------------------------

    def _computer(self, seat: int) -> None:
        if self.delay > 0:
            self.out.flush()
            time.sleep(self.delay)
        player = self.players[seat]
        assert player is not None
        observation: Observation = observe(self.game, seat)
        action = player.act(observation)
        if action["type"] == "play":
            self._play(seat, action["card"])
        else:
            self._apply(action)
            if action["type"] == "pass":
                self.emit("passed-by", str(seat), None)
            elif action["type"] == "moon":
                self.emit("moon-choice", f"{seat} {action['choice']}", f"  {self.name(seat)} chose {action['choice']}.")
            self._flush()

    def _over(self) -> None:
        game = self.game
        winners = game.winners
        names = " and ".join(self.name(s) for s in winners)
        self.emit("over", "winners " + " ".join(map(str, winners)), None)
        if not self.plain:
            self.say()
            if winners == [0]:
                verdict = "You win!"
            elif 0 in winners:
                verdict = "You share the win!"
            else:
                verdict = f"{names} {'wins' if len(winners) == 1 else 'win'}."
            self.say(self.style.paint(f"Match over after {game.hand_number + 1} hands. {verdict}", BOLD, CYAN))
            self._score_rows(("Final score", game.scores))
            if self.save_error is None:
                aside = f"{self.save_path.name}.finished-<date>"
                self.say(f"  The finished match is kept in {self.save_path}; seed {game.seed} replays it.")
                self.say(f"  A new match keeps it beside, as {aside}.")
        words = self._ask("over", "Type 'new' for a new match, 'replay' to replay this seed, or 'quit':")
        if words and not self._command(words[0]):
            self._reject("invalid-action", "type new, replay or quit")

    def step(self) -> None:
        """Let the next seat act: a computer player at once, the person after a prompt."""
        game = self.game
        self._flush()
        if game.phase == "over":
            self._over()
        elif game.phase == "pass":
            waiting = [s for s in game.awaiting_pass if s != 0]
            if waiting:
                self._computer(waiting[0])
            else:
                self._human_pass()
        elif game.phase in ("play", "moon"):
            if game.to_move == 0:
                self._human_moon() if game.phase == "moon" else self._human_play()
            else:
                self._computer(game.to_move)
        else:  # an unseeded game (a record made elsewhere) waiting for a deal: deal from a fresh seed
            hands = self.engine.deal_from_seed(game.ruleset, new_seed(), hand_number=game.hand_number)[0]
            self._apply({"type": "deal", "hands": hands})

    def _interrupted(self, status: int) -> int:
        """Leave after Ctrl-C or a signal: save, say so in one line, return ``status``."""
        if self.game is None:
            return status
        saved = self._save()
        with contextlib.suppress(OSError, ValueError):  # the terminal may be gone (SIGHUP)
            self.say()
            if saved:
                resume = self.resume_hint
                self.say(f"Interrupted; the match is saved in {self.save_path} (`{resume}` resumes it).")
            else:
                self.say(f"Interrupted; the match was NOT saved ({self.save_error}).")
        return status

    def run(self, game: Any = None) -> int:
        """Play ``game`` (by default: the saved match, or a new one) until the person quits; the exit status.

        :raises SaveError: before anything else, if the save path is not a regular file, or if
            another session holds its lock (:class:`~reversis.table.SaveInUse`).
        """
        self.save_path = check_save_path(self.save_path)
        lock = SaveLock(self.save_path)
        try:
            lock.acquire()
        except SaveInUse:
            raise
        except OSError:
            pass  # no directory to lock in: the first save reports why it cannot save
        try:
            remove_stale_temp_files(self.save_path)
            self._load_settings()
            if game is None:
                self._start()
            else:
                self._begin(game, "given")
            while True:
                self.step()
        except Finished as done:
            return done.status
        except KeyboardInterrupt:
            return self._interrupted(130)
        except Terminated as signal:
            return self._interrupted(signal.status)
        finally:
            lock.release()
            with contextlib.suppress(OSError, ValueError):
                self.out.flush()


def _use_color(args: argparse.Namespace, out: TextIO) -> bool:
    if args.no_color or args.plain or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(out, "isatty", lambda: False)())


def _can_encode(out: TextIO) -> bool:
    """Whether ``out`` can print the board's non-ASCII characters."""
    try:
        "♣♦♥♠━▸✗·“”".encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _prepare_streams() -> None:
    """Never let an encoding end the game: bad input bytes are replaced, unprintable output too.

    Input that the locale calls ASCII is read as UTF-8 (a superset), so ``Q♠`` typed on a UTF-8
    terminal under ``PYTHONIOENCODING=ascii`` is still a card.
    """
    stdin = sys.stdin
    if hasattr(stdin, "reconfigure"):
        try:
            name = codecs.lookup(stdin.encoding or "ascii").name
        except LookupError:
            name = "ascii"
        with contextlib.suppress(ValueError, OSError):
            if name == "ascii":
                stdin.reconfigure(encoding="utf-8", errors="replace")
            else:
                stdin.reconfigure(errors="replace")
    if hasattr(sys.stdout, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):
            sys.stdout.reconfigure(errors="replace")


def run(args: argparse.Namespace) -> int:
    """Run ``reversis play`` with parsed arguments; the exit status."""
    engine: ModuleType = importlib.import_module("reversis" if args.engine == "rust" else "reversis.reference")
    _prepare_streams()
    out = sys.stdout
    unicode = _can_encode(out)
    style = Style(color=_use_color(args, out), symbols=not args.plain, unicode=unicode)
    if args.save is not None:
        save_path = Path(args.save).expanduser()
    else:
        save_path = default_save_path()
        # The one directory ever created: the default save's, which is ours.
        try:
            save_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"reversis play: cannot create {save_path.parent}: {error.strerror or error}", file=sys.stderr)
            return 1
    hint = "reversis play" + (f" --save {shlex.quote(args.save)}" if args.save else "")
    session = PlaySession(
        engine=engine,
        ruleset_name=args.preset,
        save_path=save_path,
        opponents=args.opponents,
        rollouts=args.rollouts,
        seed=args.seed,
        new=args.new,
        delay=args.delay,
        plain=args.plain,
        style=style,
        inp=sys.stdin,
        out=out,
        resume_hint=hint,
    )
    try:
        return session.run()
    except SaveInUse:
        raise
    except SaveError as error:  # a path that became a device or FIFO since the options were read
        print(f"reversis play: error: {error}", file=sys.stderr)
        return 2


def register(commands: Any) -> None:
    """Add ``play`` to the ``reversis`` command."""
    play = commands.add_parser(
        "play",
        help="play Hearts at the terminal against computer players (3 in the default preset)",
        description="Play a match against the computer: one computer player in each other seat, so 3 in "
        f"the default preset {DEFAULT_PRESET} and 2 to 9 in the others. The match is saved after every "
        "card and resumed the next time, with the same computer players; --seed replays a deal, --new "
        "deals a fresh one (both ask before abandoning a match in progress).",
    )
    play.add_argument(
        "--preset", type=preset_name, default=None, help=f"the ruleset (default {DEFAULT_PRESET}, or the saved match's)"
    )
    play.add_argument("--seed", type=seed, default=None, help="deal from this seed, 0 to 2**64-1 (replays that deal)")
    play.add_argument("--new", action="store_true", help="deal a new match with a fresh seed instead of resuming")
    play.add_argument(
        "--save",
        metavar="PATH",
        type=save_file,
        default=None,
        help="the save file (.json, or .msgpack for binary): a regular file in a directory that exists",
    )
    play.add_argument(
        "--opponents",
        choices=OPPONENTS,
        default=None,
        help=f"the computer players (default {DEFAULT_OPPONENTS}, or the saved match's): rule-based, random, "
        "Monte Carlo, search (the strongest: 4,000 playouts a card) or the learned network; players that "
        "cannot play the ruleset are refused before any deal",
    )
    play.add_argument(
        "--rollouts",
        type=count(1, MAX_ROLLOUTS, "--rollouts"),
        default=None,
        metavar="N",
        help=f"the Monte Carlo player's strength: playouts per legal card (default {DEFAULT_ROLLOUTS}; "
        "more is stronger and slower)",
    )
    play.add_argument(
        "--delay",
        type=finite_float(0.0, high=60.0),
        default=0.0,
        help="seconds to wait before each computer card (0 to 60)",
    )
    play.add_argument("--engine", choices=("rust", "reference"), default="rust", help="the rules engine")
    play.add_argument("--no-color", action="store_true", help="no ANSI colours (also off when NO_COLOR is set)")
    play.add_argument("--plain", action="store_true", help="machine-friendly key: value lines, for scripts and tests")
    play.set_defaults(run=run)
