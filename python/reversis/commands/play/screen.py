"""What the person sees and types at ``reversis play``: the board, the events, the prompts.

Pretty output is for a person (Unicode suits and colours where the terminal takes them, every
line within 80 columns); ``--plain`` prints ``key: value`` lines instead, for scripts and tests.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import os
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from .game import LastTrick, pass_partners

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
        return f"you must follow suit: you hold {SUIT_NAMES[led]}"
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


def use_color(args: argparse.Namespace, out: TextIO) -> bool:
    """Whether to print ANSI colours: to a terminal, unless ``--no-color``, ``--plain`` or ``NO_COLOR`` says not."""
    if args.no_color or args.plain or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(out, "isatty", lambda: False)())


def can_encode(out: TextIO) -> bool:
    """Whether ``out`` can print the board's non-ASCII characters."""
    try:
        "♣♦♥♠━▸✗·“”".encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def prepare_streams() -> None:
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


#: What a count-down hand does to a total (MATCH-8), in a few words, by ``count_down_end``.
COUNT_DOWN_WORDS = {"stop-at-zero": "down to 0", "exact-zero": "down to exactly 0", "below-zero": "down past 0"}


def ends_text(standing: dict[str, Any], hand_number: int) -> str:
    """How the match ends, from the core's ``standing`` (MATCH-2, MATCH-5, MATCH-9): the scores line's note."""
    parts = []
    for end in standing["ends"]:
        if end["kind"] == "target":
            parts.append(f"to {end['target']}")
        elif end["kind"] == "deals":
            parts.append(f"deal {min(hand_number + 1, int(end['deals']))} of {end['deals']}")
        elif end["kind"] == "count-down" and end["counting"]:
            parts.append(f"counting {COUNT_DOWN_WORDS[end['count_down_end']]}")
        elif end["kind"] == "count-down":
            parts.append(f"to {end['target']}, then {COUNT_DOWN_WORDS[end['count_down_end']]}")
        else:
            parts.append(str(end["kind"]))
    return f"({' or '.join(parts)})"


def seat_names(seats: int) -> list[str]:
    """The display names of ``seats`` seats, the person's first."""
    names = NAMES_4 if seats == 4 else NAMES
    return [names[s] if s < len(names) else f"Seat {s}" for s in range(seats)]


class Screen:
    """The person's side of the table: lines written to ``out``, answers read from ``inp``."""

    def __init__(self, *, style: Style, plain: bool, inp: TextIO, out: TextIO) -> None:
        """Print with ``style``, or ``key: value`` lines when ``plain``."""
        self.style = style
        self.plain = plain
        self.inp = inp
        self.out = out
        #: Whether the board changed since it was last shown.
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

    def reject(self, code: str, why: str) -> None:
        """Say that the person's input was refused, and why."""
        self.emit("rejected", f"{code}: {why}", "  " + self.style.paint("✗", BOLD, YELLOW) + " " + why)

    def help(self) -> None:
        """The commands and how to type a card."""
        self.say(HELP)
        self.dirty = True

    def name(self, game: Any, seat: int) -> str:
        """The display name of a seat of ``game``."""
        return seat_names(game.ruleset.players)[seat]

    # Input ------------------------------------------------------------------------------------

    def ask(self, kind: str, prompt: str) -> list[str] | None:
        """Prompt and read one line: its words, or ``None`` at the end of input (said as ``eof``)."""
        if self.plain:
            self.say(f"prompt: {kind}")
        else:
            self.say(self.style.paint(prompt, BOLD))
            self.out.write(self.style.paint("> ", BOLD, YELLOW))
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.emit("eof", "", "")
            return None
        return line.translate(INPUT_FOLD).replace(",", " ").split()

    # The board --------------------------------------------------------------------------------

    def show_board(self, game: Any, last_trick: LastTrick | None) -> None:
        """The board, unless it has not changed since it was last shown (plain mode: always)."""
        if self.dirty or self.plain:
            self.board(game, last_trick)
            self.dirty = False

    def _width(self, names: list[str]) -> int:
        """The width of a seat's column on the board."""
        return max(6, max(len(name) for name in names) + 1)

    def _columns(self, label: str, cells: list[tuple[str, str]], width: int, tail: str = "") -> str:
        """A board row: ``label``, then one right-aligned cell per seat (``(plain, painted)``), then ``tail``."""
        st = self.style
        row = "  " + st.paint(f"{label:<11}", DIM) + "".join(" " * (width - len(p)) + shown for p, shown in cells)
        return row + ("  " + tail if tail else "")

    def score_rows(self, game: Any, *rows: tuple[str, list[int]]) -> None:
        """A header of seat names, then one row of numbers per ``(label, values)``, in columns."""
        names = seat_names(game.ruleset.players)
        width = self._width(names)
        self.say(" " * 13 + "".join(f"{name:>{width}}" for name in names))
        for label, numbers in rows:
            self.say(self._columns(label, [(str(v), str(v)) for v in numbers], width))

    def board(self, game: Any, last_trick: LastTrick | None) -> None:
        """The table as seat 0 sees it: scores, the last trick, the trick on the table, the hand."""
        obs = game.observation(0)
        if self.plain:
            self._plain_board(game, obs, last_trick)
            return
        st = self.style
        names = seat_names(game.ruleset.players)
        width = self._width(names)
        direction = game.pass_direction
        if direction in (None, "hold"):
            passing = "no passing" if direction is None else "hold (no passing)"
        else:
            to = names[pass_partners(game)[0]]
            passing = f"passed {direction} to {to}" if game.phase != "pass" else f"pass {direction} to {to}"
        title = f" Hand {game.hand_number + 1} · {passing} · seed {game.seed} "
        self.say()
        self.say(st.paint("━━━" + title + "━" * max(3, 64 - len(title)), CYAN))
        self.say(" " * 13 + "".join(f"{name:>{width}}" for name in names))

        def numbers(values: list[int]) -> list[tuple[str, str]]:
            return [(str(v), str(v)) for v in values]

        self.say(self._columns("Scores", numbers(obs["scores"]), width, ends_text(game.standing, game.hand_number)))
        broken = "hearts broken" if obs["hearts_broken"] and game.ruleset.hearts_breaking != "none" else ""
        self.say(self._columns("This hand", numbers(obs["points"]), width, broken))
        if last_trick is not None:
            winner, taken, points = last_trick
            played = dict(taken)
            cells = [(st.face(played[s]), st.card(played[s])) if s in played else ("", "") for s in range(len(names))]
            if winner is None:
                took = "held over: the next trick's winner takes it"
            else:
                took = f"{names[winner]} took it" + (f" ({_signed(points)})" if points else "")
            self.say(self._columns("Last trick", cells, width, took))
        if obs["phase"] == "play":
            if obs["trick"]:
                played = {e["seat"]: e["card"] for e in obs["trick"]}
                cells = [
                    (st.face(played[s]), st.card(played[s])) if s in played else ("·", st.paint("·", DIM))
                    for s in range(len(names))
                ]
                self.say(self._columns("Trick", cells, width, f"led by {names[obs['trick'][0]['seat']]}"))
            else:
                who = "you lead" if obs["to_move"] == 0 else f"{names[obs['to_move']]} leads"
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

    def _plain_board(self, game: Any, obs: dict[str, Any], last_trick: LastTrick | None) -> None:
        self.say(
            f"board: hand {game.hand_number} phase {obs['phase']} pass {game.pass_direction or 'none'} seed {game.seed}"
        )
        self.say("scores: " + " ".join(map(str, obs["scores"])))
        self.say("points: " + " ".join(map(str, obs["points"])))
        if last_trick is not None:
            winner, cards, points = last_trick
            taker = "none" if winner is None else winner
            self.say(f"last-trick: {taker} {points} " + " ".join(f"{s}:{c}" for s, c in cards))
        self.say("trick: " + " ".join(f"{e['seat']}:{e['card']}" for e in obs["trick"]))
        self.say("hand: " + " ".join(obs["hand"]))
        self.say("legal: " + " ".join(obs["legal"]))

    # What an action set off (EVT-1) -------------------------------------------------------------

    def trick_taken(self, game: Any, winner: int | None, points: int) -> None:
        """Who took the trick just completed, and its points."""
        if winner is None:  # PLAY-9: every card of the suit led was cancelled
            self.emit(
                "took",
                "none 0",
                self.style.paint("  ▸ Identical cards cancel: the trick is held over for the next one's winner", DIM),
            )
            return
        plus = f"  ({_signed(points)})" if points else ""
        who = "You take" if winner == 0 else f"{self.name(game, winner)} takes"
        self.emit(
            "took", f"{winner} {points}", self.style.paint(f"  ▸ {who} the trick{plus}", YELLOW if winner else GREEN)
        )

    def exchanged(self, game: Any, direction: str | None) -> None:
        """The cards the person received in the exchange, and from whom."""
        obs = game.observation(0)
        received = obs.get("received") or []
        giver = self.name(game, pass_partners(game)[1])
        self.emit(
            "received",
            " ".join(received),
            f"  Cards exchanged: you received {self.style.cards(received)} from {giver}.",
        )

    def hand_over(self, game: Any, hand: dict[str, Any]) -> None:
        """The scores of the hand just ended (its ``hand`` event) and the totals."""
        scores, moon = hand["scores"], hand["moon_taker"]
        self.emit("hand-over", " ".join(map(str, scores)), self.style.paint("  Hand over.", BOLD))
        if moon is not None:
            self.emit("moon", str(moon), f"  {self.name(game, moon)} took every point card and shot the moon!")
        self.emit("totals", " ".join(map(str, game.scores)), None)
        if not self.plain:
            self.score_rows(game, ("This hand", scores), ("Totals", game.scores))

    def match_over(self, game: Any, save_path: Path, saved: bool) -> None:
        """The winners and the final score; where the finished match is kept when ``saved``."""
        winners = game.winners
        names = " and ".join(self.name(game, s) for s in winners)
        self.emit("over", "winners " + " ".join(map(str, winners)), None)
        if self.plain:
            return
        self.say()
        if winners == [0]:
            verdict = "You win!"
        elif 0 in winners:
            verdict = "You share the win!"
        else:
            verdict = f"{names} {'wins' if len(winners) == 1 else 'win'}."
        self.say(self.style.paint(f"Match over after {game.hand_number + 1} hands. {verdict}", BOLD, CYAN))
        self.score_rows(game, ("Final score", game.scores))
        if saved:
            aside = f"{save_path.name}.finished-<date>"
            self.say(f"  The finished match is kept in {save_path}; seed {game.seed} replays it.")
            self.say(f"  A new match keeps it beside, as {aside}.")
