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

This module is the command and its loop, a shell over three parts: :mod:`.game`, the match's
computer players and who acts next; :mod:`.screen`, what is printed and read; :mod:`.save`, the
save file.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, TextIO

from ...players import Observation, Player, observe
from ...table import SaveError, SaveInUse, default_save_path, new_seed, start_match
from ..common import Terminated, count, finite_float, preset_name, save_file, seed
from .game import (
    DEFAULT_OPPONENTS,
    DEFAULT_PRESET,
    DEFAULT_ROLLOUTS,
    MAX_ROLLOUTS,
    OPPONENTS,
    LastTrick,
    cannot_play,
    last_trick,
    make_players,
    next_seat,
    pass_partners,
)
from .save import MatchSave, Stuck
from .screen import (
    BOLD,
    CYAN,
    MOON_CHOICES,
    QUIT_WORDS,
    RED,
    TAKE_BACK_WORDS,
    Screen,
    Style,
    can_encode,
    explain,
    prepare_streams,
    use_color,
    visible_width,
)

__all__ = ["PlaySession", "Style", "explain", "register", "run", "visible_width"]


class Finished(Exception):
    """Raised to leave the game loop with an exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


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
        :func:`.save.settings_path`), else the defaults. ``resume_hint`` is the command that resumes.
        """
        self.engine = engine
        self.ruleset_name = ruleset_name
        self.requested_opponents = opponents
        self.requested_rollouts = rollouts
        self.opponents = opponents or DEFAULT_OPPONENTS
        self.rollouts = rollouts or DEFAULT_ROLLOUTS
        self.requested_seed = seed
        self.requested_new = new
        self.delay = delay
        self.plain = plain
        self.resume_hint = resume_hint
        self.screen = Screen(style=style, plain=plain, inp=inp, out=out)
        self.save = MatchSave(save_path, engine, self.screen)
        self.game: Any = None
        self.players: list[Player | None] = []
        self.opponent_label = ""
        self.last_trick: LastTrick | None = None
        self._pending: list[Callable[[], None]] = []

    @property
    def inp(self) -> TextIO:
        """Where the person's answers are read."""
        return self.screen.inp

    @inp.setter
    def inp(self, inp: TextIO) -> None:
        self.screen.inp = inp

    @property
    def save_path(self) -> Path:
        """The save file (its target, once :meth:`run` has resolved a symlink)."""
        return self.save.path

    def _name(self, seat: int) -> str:
        return self.screen.name(self.game, seat)

    def _board(self) -> None:
        """The board as it stands, shown now."""
        self.screen.board(self.game, self.last_trick)

    def _ask(self, kind: str, prompt: str) -> list[str]:
        """The words of the person's answer; at the end of input, the session saves and ends."""
        words = self.screen.ask(kind, prompt)
        if words is None:
            self._quit()
        return words

    # Setup --------------------------------------------------------------------------------------

    def _preset(self) -> Any:
        return self.engine.preset(self.ruleset_name or DEFAULT_PRESET)

    def _make_players(self) -> None:
        self.players, self.opponent_label = make_players(self.game.ruleset.players, self.opponents, self.rollouts)

    def _check_opponents(self, ruleset: Any, saved: bool) -> None:
        """Refuse, before any deal, computer players that cannot play ``ruleset``: a usage error saying how to go on.

        ``saved``: the ruleset is the saved match's, which is kept as it is.
        """
        reason = cannot_play(self.opponents, self.rollouts, ruleset)
        if reason is None:
            return
        others = [
            name for name in OPPONENTS if name != self.opponents and cannot_play(name, self.rollouts, ruleset) is None
        ]
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
        """Take the saved match's computer players, unless the command line named others."""
        data = self.save.read_settings()
        if self.requested_opponents is None and "opponents" in data:
            self.opponents = data["opponents"]
        if self.requested_rollouts is None and "rollouts" in data:
            self.rollouts = data["rollouts"]

    def _begin(self, game: Any, how: str) -> None:
        self.game = game
        self.last_trick = last_trick(game)
        self.screen.dirty = True
        self._make_players()
        self._save()
        self.save.write_settings(self.opponents, self.rollouts)
        self.screen.emit(
            "match",
            f"{how} seed {game.seed} preset {game.ruleset.name} hand {game.hand_number} "
            f"opponents {self.opponent_label}",
            self.screen.style.paint(f"{how.capitalize()} match · {game.ruleset.title} · seed {game.seed}", BOLD, CYAN)
            + f"\n  Computer players: {self.opponent_label}",
        )

    def _load_saved(self) -> Any:
        """The saved match, or ``None`` (none, or not a saved match: then moved aside, and said so)."""
        try:
            return self.save.load()
        except Stuck:
            raise Finished(1) from None

    def _start(self) -> None:
        saved = self._load_saved()
        if saved is not None and saved.phase == "over":
            if not self.save.move_aside("finished", f"The last match (seed {saved.seed}) is over."):
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
            if not self.save.confirm_drop(saved, wants, self._quit):
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
        return self.save.write(self.game)

    # Commands -----------------------------------------------------------------------------------

    def _command(self, word: str) -> bool:
        """Run ``word`` if it is a command (the whole word: ``Q`` is the queen); whether it was one."""
        word = word.lower()
        if word in ("help", "?"):
            self.screen.help()
            return True
        if word in QUIT_WORDS:
            self._quit()
        if word in TAKE_BACK_WORDS:
            self.screen.reject("no-take-back", "there is no take-back: a card once shown stays played")
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
            return self.save.finished(self.game)
        return self.save.confirm_drop(self.game, why, self._quit)

    def _quit(self) -> NoReturn:
        saved = self._save()
        if not saved:
            self.screen.emit(
                "unsaved",
                self.save.error or "",
                self.screen.style.paint(
                    f"The match was NOT saved ({self.save.error}); seed {self.game.seed} deals it again.", BOLD, RED
                ),
            )
            raise Finished(1)
        if self.game.phase == "over":
            raise Finished(0)
        self.screen.emit(
            "saved",
            str(self.save_path),
            f"Saved to {self.save_path}. Run `{self.resume_hint}` to resume (seed {self.game.seed}).",
        )
        raise Finished(0)

    # The person's turn --------------------------------------------------------------------------

    def _human_pass(self) -> None:
        size = self.game.pass_plan["size"]
        direction = self.game.pass_direction
        to = self._name(pass_partners(self.game)[0])
        self.screen.show_board(self.game, self.last_trick)
        words = self._ask("pass", f"Choose {size} cards to pass {direction} to {to} (e.g. 2C QS 10h), or 'help':")
        if not words:
            self.screen.dirty = True
            return
        if len(words) == 1 and self._command(words[0]):
            return
        cards = []
        for word in words:
            try:
                cards.append(self.engine.parse_card(word))
            except self.engine.ReversisError as error:
                self.screen.reject(error.code, explain(error.code, self.game, self.screen.style, text=word))
                return
        held = set(self.game.hand(0))
        try:
            self._apply({"type": "pass", "seat": 0, "cards": cards})
        except self.engine.ReversisError as error:
            missing = next((c for c in cards if c not in held), None)
            self.screen.reject(error.code, explain(error.code, self.game, self.screen.style, card=missing))
            return
        shown = sorted(cards, key=self.engine.card_id)
        self.screen.emit("passed", " ".join(shown), f"  You pass {self.screen.style.cards(shown)} {direction} to {to}.")
        self._flush()

    def _human_play(self) -> None:
        self.screen.show_board(self.game, self.last_trick)
        words = self._ask("play", "Your card ([legal] cards in brackets), or 'help':")
        if not words:
            self.screen.dirty = True
            return
        if len(words) == 1 and self._command(words[0]):
            return
        if len(words) != 1:
            self.screen.reject("one-card", "play one card at a time")
            return
        try:
            card = self.engine.parse_card(words[0])
        except self.engine.ReversisError as error:
            self.screen.reject(error.code, explain(error.code, self.game, self.screen.style, text=words[0]))
            return
        self._play(0, card)

    def _human_moon(self) -> None:
        bonus = self.game.ruleset.moon["bonus"]
        self.screen.show_board(self.game, self.last_trick)
        words = self._ask(
            "moon",
            f"You shot the moon! Type 'add' (opponents +{bonus}) or 'subtract' (you -{bonus}):",
        )
        if not words:
            self.screen.dirty = True
            return
        if len(words) == 1 and self._command(words[0]):
            return
        choice = MOON_CHOICES.get(words[0].lower())
        if choice is None:
            self.screen.reject("invalid-action", "type 'add' or 'subtract'")
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
            self.screen.reject(error.code, explain(error.code, game, self.screen.style, card=card))
            return
        verb = "leads" if not trick else "plays"
        who = "You" if seat == 0 else self._name(seat)
        if seat == 0:
            verb = "lead" if not trick else "play"
        self.screen.emit("played", f"{seat} {card}", f"  {who} {verb} {self.screen.style.card(card)}")
        self._flush()

    def _apply(self, action: dict[str, Any]) -> None:
        """Apply an action and save; what it set off (EVT-1) is reported by :meth:`_flush`."""
        game = self.game
        game.apply(action)
        self.screen.dirty = True
        self._save()
        for event in game.events:
            if event["type"] == "trick":
                winner, points = event["winner"], event["points"]
                self.last_trick = (winner, [(entry["seat"], entry["card"]) for entry in event["cards"]], points)
                self._pending.append(functools.partial(self.screen.trick_taken, game, winner, points))
            elif event["type"] == "exchange":
                self._pending.append(functools.partial(self.screen.exchanged, game, event["direction"]))
            elif event["type"] == "hand":
                self._pending.append(functools.partial(self.screen.hand_over, game, event))
            elif event["type"] == "deal":
                self.last_trick = None  # a new hand: the last hand's trick is not on the table

    def _flush(self) -> None:
        """Report what the last action finished, in order."""
        pending, self._pending = self._pending, []
        for report in pending:
            report()

    # The loop -----------------------------------------------------------------------------------

    def _computer(self, seat: int) -> None:
        if self.delay > 0:
            self.screen.out.flush()
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
                self.screen.emit("passed-by", str(seat), None)
            elif action["type"] == "moon":
                self.screen.emit(
                    "moon-choice", f"{seat} {action['choice']}", f"  {self._name(seat)} chose {action['choice']}."
                )
            self._flush()

    def _over(self) -> None:
        self.screen.match_over(self.game, self.save_path, saved=self.save.error is None)
        words = self._ask("over", "Type 'new' for a new match, 'replay' to replay this seed, or 'quit':")
        if words and not self._command(words[0]):
            self.screen.reject("invalid-action", "type new, replay or quit")

    def step(self) -> None:
        """Let the next seat act: a computer player at once, the person after a prompt."""
        game = self.game
        self._flush()
        seat = next_seat(game)
        if game.phase == "over":
            self._over()
        elif seat is None:  # an unseeded game (a record made elsewhere) waiting for a deal: deal from a fresh seed
            hands = self.engine.deal_from_seed(game.ruleset, new_seed(), hand_number=game.hand_number)[0]
            self._apply({"type": "deal", "hands": hands})
        elif seat != 0:
            self._computer(seat)
        elif game.phase == "pass":
            self._human_pass()
        elif game.phase == "moon":
            self._human_moon()
        else:
            self._human_play()

    def _interrupted(self, status: int) -> int:
        """Leave after Ctrl-C or a signal: save, say so in one line, return ``status``."""
        if self.game is None:
            return status
        saved = self._save()
        with contextlib.suppress(OSError, ValueError):  # the terminal may be gone (SIGHUP)
            self.screen.say()
            if saved:
                resume = self.resume_hint
                self.screen.say(f"Interrupted; the match is saved in {self.save_path} (`{resume}` resumes it).")
            else:
                self.screen.say(f"Interrupted; the match was NOT saved ({self.save.error}).")
        return status

    def run(self, game: Any = None) -> int:
        """Play ``game`` (by default: the saved match, or a new one) until the person quits; the exit status.

        :raises SaveError: before anything else, if the save path is not a regular file, or if
            another session holds its lock (:class:`~reversis.table.SaveInUse`).
        """
        lock = self.save.lock()
        try:
            self.save.clear_interrupted_writes()
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
                self.screen.out.flush()


def run(args: argparse.Namespace) -> int:
    """Run ``reversis play`` with parsed arguments; the exit status."""
    engine: ModuleType = importlib.import_module("reversis" if args.engine == "rust" else "reversis.reference")
    prepare_streams()
    out = sys.stdout
    unicode = can_encode(out)
    style = Style(color=use_color(args, out), symbols=not args.plain, unicode=unicode)
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
