"""``reversis play``: one person against the computer at a terminal (001).

Seat 0 is the person; every other seat is a computer player that sees only its observation
(001 ¶9). A match is dealt from a seed that is always shown: ``--seed`` replays a deal, a new
match draws a fresh seed (001 ¶12). The match is saved after every action, so quitting, a
closed terminal or a crash loses nothing, and no card can be taken back once an opponent's card
has been revealed; the next ``reversis play`` resumes it.

The loop reads lines from stdin and writes to stdout. ``--plain`` prints machine-friendly
``key: value`` lines instead of the board (``legal: 2C 5C`` then ``prompt: play`` before each
input), which is how the tests drive it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from ..players import Observation, Player, RandomPlayer, observe
from ..table import default_save_path, load_game, new_seed, save_game, start_match

__all__ = ["PlaySession", "explain", "register", "run"]

DEFAULT_PRESET = "hearts-computer"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
NAMES_4 = ["You", "West", "North", "East"]
NAMES = ["You", "Ada", "Bram", "Cleo", "Dirk", "Eva", "Floor"]
COMMANDS = ("help", "quit", "new", "replay")
MOON_CHOICES = {
    "add": "add-to-others",
    "add-to-others": "add-to-others",
    "subtract": "subtract-from-taker",
    "sub": "subtract-from-taker",
    "subtract-from-taker": "subtract-from-taker",
}

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
RED = "\x1b[31m"
GREEN = "\x1b[32m"
YELLOW = "\x1b[33m"
CYAN = "\x1b[36m"

HELP = """\
Type a card to play it: QS, qs, 10h, Q♠ (rank, then suit C D H S or ♣ ♦ ♥ ♠).
When passing, type all the cards to pass on one line: 2C QS 10h.
Commands:
  help    this text
  quit    save the match and leave (it resumes next time)
  new     abandon this match and deal a new one with a fresh seed
  replay  restart this match from the first deal of its seed
An empty line shows the table again. There is no take-back."""


class Style:
    """How cards and emphasis are printed: Unicode suits, and ANSI colours when ``color``."""

    def __init__(self, *, color: bool, symbols: bool) -> None:
        """Print suit symbols when ``symbols``, colours when ``color``."""
        self.color = color
        self.symbols = symbols

    def paint(self, text: str, *codes: str) -> str:
        """``text`` wrapped in the ANSI ``codes`` when colour is on."""
        if not self.color or not codes:
            return text
        return "".join(codes) + text + RESET

    def suit(self, suit: str) -> str:
        """A suit's symbol (or letter), red for hearts and diamonds."""
        text = SUIT_SYMBOLS[suit] if self.symbols else suit
        return self.paint(text, RED) if suit in "HD" else text

    def card(self, card: str) -> str:
        """A card as rank and suit symbol: ``10♥``, ``Q♠``; red for hearts and diamonds."""
        text = ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]] if self.symbols else card
        return self.paint(text, BOLD, RED) if card[1] in "HD" else self.paint(text, BOLD)

    def cards(self, cards: list[str]) -> str:
        """Several cards, space-separated."""
        return " ".join(self.card(card) for card in cards)


def _suit_name(suit: str) -> str:
    return SUIT_NAMES[suit]


def explain(code: str, game: Any, style: Style, *, card: str | None = None, text: str = "") -> str:
    """Why the person's action was rejected, in words, from the error's ``code`` (spec/errors.md)."""
    ruleset = game.ruleset
    if code == "invalid-card":
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


class PlaySession:
    """One person at seat 0 against computer players, reading ``inp`` and writing ``out``."""

    def __init__(
        self,
        *,
        engine: ModuleType,
        ruleset_name: str | None,
        save_path: Path,
        opponents: str,
        seed: int | None,
        new: bool,
        delay: float,
        plain: bool,
        style: Style,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        """Set up the session; :meth:`run` starts or resumes the match."""
        self.engine = engine
        self.ruleset_name = ruleset_name
        self.save_path = save_path
        self.opponents = opponents
        self.requested_seed = seed
        self.requested_new = new
        self.delay = delay
        self.plain = plain
        self.style = style
        self.inp = inp
        self.out = out
        self.game: Any = None
        self.players: list[Player | None] = []
        self.opponent_label = ""
        self.last_trick: tuple[int, list[tuple[int, str]], int] | None = None
        self.save_warned = False
        self._pending: list[Callable[[], None]] = []
        self.dirty = True

    # Output -----------------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write a line."""
        self.out.write(text + "\n")

    def emit(self, key: str, value: str, pretty: str | None) -> None:
        """An event: ``key: value`` in plain mode, else ``pretty`` (nothing when ``None``)."""
        if self.plain:
            self.say(f"{key}: {value}".rstrip())
        elif pretty is not None:
            self.say(pretty)

    def name(self, seat: int) -> str:
        """The display name of a seat."""
        names = NAMES_4 if self.game.ruleset.players == 4 else NAMES
        return names[seat] if seat < len(names) else f"Seat {seat}"

    def _target(self, direction: str) -> tuple[int, int]:
        """The seats seat 0 passes to and receives from in ``direction``."""
        n = self.game.ruleset.players
        step = {"left": 1, "right": -1, "across": 2}.get(direction, 0)
        return step % n, -step % n

    def _row(self, values: list[int]) -> str:
        return "   ".join(f"{self.name(s)} {v}" for s, v in enumerate(values))

    # Setup --------------------------------------------------------------------------------------

    def _preset(self) -> Any:
        return self.engine.preset(self.ruleset_name or DEFAULT_PRESET)

    def _make_players(self) -> None:
        count = self.game.ruleset.players
        cls: Any = None
        if self.opponents == "rules":
            try:
                cls = getattr(importlib.import_module("reversis.players"), "RuleBasedPlayer", None)
            except ImportError:
                cls = None
        players: list[Player | None] = [None]
        label = "random"
        for _ in range(1, count):
            player: Player | None = None
            if cls is not None:
                try:
                    player = cls()
                    label = getattr(player, "name", "rules")
                except TypeError:
                    player = None
            # Fresh entropy, never the shuffle seed: computer players know only their observation.
            players.append(player or RandomPlayer())
        if self.opponents == "rules" and cls is None:
            label = "random (the rule-based player is not available)"
        self.players = players
        self.opponent_label = label

    def _begin(self, game: Any, how: str) -> None:
        self.game = game
        self.last_trick = None
        self.dirty = True
        self._make_players()
        self._save()
        self.emit(
            "match",
            f"{how} seed {game.seed} preset {game.ruleset.name} hand {game.hand_number} "
            f"opponents {self.opponent_label}",
            self.style.paint(
                f"{how.capitalize()} match · {game.ruleset.title} · seed {game.seed} · computer players: "
                f"{self.opponent_label}",
                BOLD,
                CYAN,
            ),
        )

    def _start(self) -> None:
        if self.requested_seed is not None:
            self._begin(start_match(self._preset(), self.requested_seed, engine=self.engine), "replaying")
            return
        if not self.requested_new and self.save_path.exists():
            try:
                game = load_game(self.save_path, engine=self.engine)
            except (OSError, self.engine.ReversisError) as error:
                self.emit("notice", "unreadable save", f"The saved match could not be read ({error}); dealing anew.")
            else:
                if game.phase == "over":
                    self.emit("notice", "last match over", "The last match is over; dealing a new one.")
                elif self.ruleset_name and game.ruleset.name != self.ruleset_name:
                    self.emit("notice", "preset differs", f"Saved match is {game.ruleset.name}; dealing a new one.")
                else:
                    self._begin(game, "resumed")
                    return
        self._begin(start_match(self._preset(), engine=self.engine), "new")

    def _save(self) -> None:
        try:
            save_game(self.game, self.save_path, engine=self.engine)
        except OSError as error:
            if not self.save_warned:
                self.emit("notice", f"cannot save: {error}", f"Warning: cannot save to {self.save_path}: {error}")
                self.save_warned = True

    # The board ----------------------------------------------------------------------------------

    def _show_board(self) -> None:
        """The board, unless it has not changed since it was last shown (plain mode: always)."""
        if self.dirty or self.plain:
            self._board()
            self.dirty = False

    def _board(self) -> None:
        game = self.game
        obs = game.observation(0)
        if self.plain:
            self._plain_board(obs)
            return
        st = self.style
        direction = game.pass_direction
        if direction in (None, "hold"):
            passing = "no passing" if direction is None else "hold (no passing)"
        elif game.phase != "pass":
            passed_to = self.name(self._target(direction)[0])
            passing = f"passed {direction} to {passed_to}"
        else:
            passing = f"pass {direction} to {self.name(self._target(direction)[0])}"
        title = f" Hand {game.hand_number + 1} · {passing} · seed {game.seed} "
        self.say()
        self.say(st.paint("━━━" + title + "━" * max(3, 64 - len(title)), CYAN))
        self.say(f"  {st.paint('Scores', DIM)}      {self._row(obs['scores'])}    (to {game.ruleset.target})")
        broken = "   hearts broken" if obs["hearts_broken"] and game.ruleset.hearts_breaking != "none" else ""
        self.say(f"  {st.paint('This hand', DIM)}   {self._row(obs['points'])}{broken}")
        if self.last_trick is not None:
            winner, taken, points = self.last_trick
            played = "  ".join(f"{self.name(s)} {st.card(c)}" for s, c in taken)
            plus = f" (+{points})" if points else ""
            self.say(f"  {st.paint('Last trick', DIM)}  {self.name(winner)} took it{plus}: {played}")
        if obs["phase"] == "play":
            trick = "  ".join(f"{self.name(e['seat'])} {st.card(e['card'])}" for e in obs["trick"])
            self.say(f"  {st.paint('Trick', DIM)}       {trick or 'you lead'}")
        legal = set(obs["legal"])
        self.say(f"  {st.paint('Your hand', DIM)}")
        for suit in SUITS:
            cards = [c for c in obs["hand"] if c[1] == suit]
            if not cards:
                continue
            shown = []
            for card in cards:
                face = st.card(card)
                pad = " " * (3 - len(card.replace("T", "10")))
                shown.append(f"[{face}]{pad}" if card in legal else f" {face} {pad}")
            self.say(f"    {st.suit(suit)}  " + " ".join(shown).rstrip())

    def _plain_board(self, obs: dict[str, Any]) -> None:
        game = self.game
        self.say(
            f"board: hand {game.hand_number} phase {obs['phase']} pass {game.pass_direction or 'none'} seed {game.seed}"
        )
        self.say("scores: " + " ".join(map(str, obs["scores"])))
        self.say("points: " + " ".join(map(str, obs["points"])))
        if self.last_trick is not None:
            winner, cards, points = self.last_trick
            self.say(f"last-trick: {winner} {points} " + " ".join(f"{s}:{c}" for s, c in cards))
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
        return line.replace(",", " ").split()

    def _reject(self, code: str, why: str) -> None:
        self.emit("rejected", f"{code}: {why}", "  " + self.style.paint("✗", BOLD, YELLOW) + " " + why)

    def _command(self, word: str) -> bool:
        """Run ``word`` if it is a command; whether it was one."""
        word = word.lower()
        if word in ("help", "?", "h"):
            self.say(HELP)
            return True
        if word in ("quit", "exit", "q"):
            self._quit()
        if word == "new":
            self._begin(start_match(self.game.ruleset, engine=self.engine), "new")
            return True
        if word == "replay":
            self._begin(start_match(self.game.ruleset, self.game.seed, engine=self.engine), "replaying")
            return True
        return False

    def _quit(self) -> None:
        self._save()
        if self.game.phase == "over":
            raise Finished(0)
        self.emit(
            "saved",
            str(self.save_path),
            f"Saved to {self.save_path}. Run `reversis play` to resume (seed {self.game.seed}).",
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
            f"You shot the moon! Type 'add' to add {bonus} to every opponent, or 'subtract' to take {bonus} off yours:",
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
                self._pending.append(lambda winner=winner, points=points: self._announce_trick(winner, points))
            elif event["type"] == "exchange":
                self._pending.append(lambda direction=event["direction"]: self._exchange(direction))
            elif event["type"] == "hand":
                self._pending.append(lambda event=event: self._hand_done(event))

    def _flush(self) -> None:
        """Report what the last action finished, in order."""
        pending, self._pending = self._pending, []
        for report in pending:
            report()

    def _announce_trick(self, winner: int, points: int) -> None:
        plus = f"  (+{points})" if points else ""
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
            self.say(f"  This hand   {self._row(scores)}")
            self.say(f"  Totals      {self._row(game.scores)}")

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
            verdict = "You win!" if winners == [0] else ("You share the win!" if 0 in winners else f"{names} win.")
            self.say(self.style.paint(f"Match over after {game.hand_number + 1} hands. {verdict}", BOLD, CYAN))
            self.say(f"  Final scores  {self._row(game.scores)}")
            self.say(f"  The finished match is kept in {self.save_path}; seed {game.seed} replays it.")
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

    def run(self, game: Any = None) -> int:
        """Play ``game`` (by default: the saved match, or a new one) until the person quits; the exit status."""
        try:
            if game is None:
                self._start()
            else:
                self._begin(game, "given")
            while True:
                self.step()
        except Finished as done:
            return done.status
        except KeyboardInterrupt:
            if self.game is not None:
                self._save()
            self.say()
            self.say(f"Saved to {self.save_path}.")
            return 130
        finally:
            self.out.flush()


def _use_color(args: argparse.Namespace, out: TextIO) -> bool:
    if args.no_color or args.plain or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(out, "isatty", lambda: False)())


def _can_print_symbols(out: TextIO) -> bool:
    try:
        "♣♦♥♠━▸✗".encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def run(args: argparse.Namespace) -> int:
    """Run ``reversis play`` with parsed arguments; the exit status."""
    engine: ModuleType = importlib.import_module("reversis" if args.engine == "rust" else "reversis.reference")
    if args.preset is not None:
        try:
            engine.preset(args.preset)
        except engine.ReversisError as error:
            print(f"reversis play: {error}", file=sys.stderr)
            return 2
    out = sys.stdout
    style = Style(color=_use_color(args, out), symbols=not args.plain and _can_print_symbols(out))
    session = PlaySession(
        engine=engine,
        ruleset_name=args.preset,
        save_path=Path(args.save).expanduser() if args.save else default_save_path(),
        opponents=args.opponents,
        seed=args.seed,
        new=args.new,
        delay=max(0.0, args.delay),
        plain=args.plain,
        style=style,
        inp=sys.stdin,
        out=out,
    )
    return session.run()


def _seed(text: str) -> int:
    value = int(text, 0)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError("a seed is an integer from 0 to 2**64-1")
    return value


def register(commands: Any) -> None:
    """Add ``play`` to the ``reversis`` command."""
    play = commands.add_parser(
        "play",
        help="play Hearts at the terminal against three computer players",
        description="Play a match against computer players. The match is saved after every card and "
        "resumed the next time; --seed replays a deal, --new deals a fresh one.",
    )
    play.add_argument("--preset", default=None, help=f"the ruleset (default {DEFAULT_PRESET}, or the saved match's)")
    play.add_argument("--seed", type=_seed, default=None, help="deal from this seed (replays that deal)")
    play.add_argument("--new", action="store_true", help="deal a new match with a fresh seed, ignoring the save")
    play.add_argument("--save", metavar="PATH", default=None, help="the save file (.json, or .msgpack for binary)")
    play.add_argument("--opponents", choices=("rules", "random"), default="rules", help="the computer players")
    play.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each computer card")
    play.add_argument("--engine", choices=("rust", "reference"), default="rust", help="the rules engine")
    play.add_argument("--no-color", action="store_true", help="no ANSI colours (also off when NO_COLOR is set)")
    play.add_argument("--plain", action="store_true", help="machine-friendly key: value lines, for scripts and tests")
    play.set_defaults(run=run)
