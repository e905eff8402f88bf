"""What every Python harness shares: the JSON-Lines loop of spec/driver.md and its notation.

A driver subclasses :class:`Driver` and writes one ``cmd_<name>`` method per command of DRV-3,
its parameters named as the request's arguments (a parameter with a default is optional).
:meth:`Driver.serve` reads one request a line, calls the method and writes one answer a line,
flushed at once:

- a line that is not UTF-8 JSON, not an object, or without a ``cmd`` string, an unknown command,
  missing or extra arguments, and a ``game`` the driver does not hold are ``invalid-request``
  (DRV-1); an id is echoed whenever the request is an object;
- a :class:`HarnessError` becomes ``{"ok": false, "error": code, "message": ...}``;
- ``quit`` is answered, then the loop ends; so does the end of the input.

Nothing else is caught: an exception raised inside the engine ends the driver with its traceback
on standard error, where the runner shows it (DRV-2). Whatever the engine prints goes to standard
error as well, so that standard output carries answers only.

Standard library only, and nothing of reversis: a harness answers with the engine's rules alone.
"""

from __future__ import annotations

import inspect
import json
import sys
from typing import IO, Any

PROTOCOL_VERSION = 1
#: The version of spec/ the harnesses answer to (RS-17); spec/driver.md lists the commands.
SPEC_VERSION = "1.3.0"

RANKS = "23456789TJQKA"
SUITS = "CDHS"
_SUIT_FORMS = {"C": "C♣♧", "D": "D♦♢", "H": "H♥♡", "S": "S♠♤"}
_WHITESPACE = " \t\n\r"
ACTION_KEYS = {
    "deal": {"type", "hands"},
    "pass": {"type", "seat", "cards"},
    "play": {"type", "seat", "card"},
    "moon": {"type", "seat", "choice"},
}
MOON_CHOICES = ("add-to-others", "subtract-from-taker")
INT64_MIN, UINT64_MAX = -(2**63), 2**64 - 1


class HarnessError(Exception):
    """A request answered with an error: ``code`` of spec/errors.md or DRV-1, and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def unsupported(message: str) -> HarnessError:
    """The answer to a request the harness understands but the engine cannot express (DRV-1)."""
    return HarnessError("unsupported", message)


def is_int(value: Any) -> bool:
    """Whether a JSON value is an integer (``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_card(text: Any) -> str:
    """The canonical form (CARD-3) of a card string read by CARD-6's grammar; else ``invalid-card``."""
    if not isinstance(text, str):
        raise HarnessError("invalid-card", f"a card is a string, not {json.dumps(text)}")
    body = text.strip(_WHITESPACE)
    rank, suit = body[:-1], body[-1:]
    rank = "T" if rank == "10" else rank.upper()
    suits = [letter for letter, forms in _SUIT_FORMS.items() if suit and suit.upper() in forms]
    if len(rank) != 1 or rank not in RANKS or not suits:
        raise HarnessError("invalid-card", f"not a card: {json.dumps(text)}")
    return rank + suits[0]


def sort_key(card: str) -> int:
    """The card's id of CARD-2 (suits C, D, H, S, each from 2 to A): lists of cards sort by it."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def read_action(action: Any, players: int) -> tuple[str, dict[str, Any]]:
    """Check an ACT-1 action's shape in ERR-4's order; return its type and canonical values.

    ``hands`` and ``cards`` come back as lists of canonical cards, ``seat`` as an integer.
    """
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise HarnessError("invalid-action", f"not an action: {json.dumps(action)[:200]}")
    if set(action) != ACTION_KEYS[kind]:
        raise HarnessError("invalid-action", f"a {kind} action has exactly the keys {sorted(ACTION_KEYS[kind])}")
    if "seat" in action and not is_int(action["seat"]):
        raise HarnessError("invalid-action", f"a seat is an integer, not {json.dumps(action['seat'])}")
    if kind == "moon" and action["choice"] not in MOON_CHOICES:
        raise HarnessError("invalid-action", f"no moon choice {json.dumps(action['choice'])}")
    fields: dict[str, Any] = {}
    if kind == "deal":
        hands = action["hands"]
        if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
            raise HarnessError("invalid-action", "a deal's hands are arrays of cards")
        fields["hands"] = [[parse_card(card) for card in hand] for hand in hands]
    elif kind == "pass":
        if not isinstance(action["cards"], list):
            raise HarnessError("invalid-action", "a pass's cards are an array")
        fields["cards"] = [parse_card(card) for card in action["cards"]]
    elif kind == "play":
        fields["card"] = parse_card(action["card"])
    if "seat" in action:
        if not 0 <= action["seat"] < players:
            raise HarnessError("invalid-action", f"no seat {action['seat']} at a table of {players}")
        fields["seat"] = action["seat"]
    return kind, fields


def read_start(hand_number: Any, scores: Any, players: int) -> tuple[int, list[int]]:
    """The hand number and totals a game starts from (API-3, DRV-3: ``null`` is the default)."""
    hand_number = 0 if hand_number is None else hand_number
    if not is_int(hand_number) or not 0 <= hand_number <= UINT64_MAX:
        raise HarnessError("invalid-setup", f"a hand number is an integer 0 … 2^64-1, not {json.dumps(hand_number)}")
    scores = [0] * players if scores is None else scores
    if (
        not isinstance(scores, list)
        or len(scores) != players
        or not all(is_int(total) and INT64_MIN <= total <= UINT64_MAX for total in scores)
    ):
        raise HarnessError("invalid-setup", f"scores are {players} integers, not {json.dumps(scores)[:200]}")
    return hand_number, list(scores)


class Driver:
    """The commands every harness answers alike; subclasses add or override ``cmd_<name>`` methods.

    The commands an engine cannot express answer ``unsupported`` here, with :attr:`engine` named.
    """

    engine = "this engine"

    def __init__(self) -> None:
        self.games: dict[int, Any] = {}
        self._last_id = 0

    def keep(self, game: Any) -> dict[str, Any]:
        """Hold a new game; the answer that names its id."""
        self._last_id += 1
        self.games[self._last_id] = game
        return {"game": self._last_id}

    def game(self, game: Any) -> Any:
        """The game held under the id ``game``; else ``invalid-request`` (DRV-1)."""
        if not is_int(game) or game not in self.games:
            raise HarnessError("invalid-request", f"no game {json.dumps(game)[:80]}")
        return self.games[game]

    def cmd_drop(self, game: Any) -> dict[str, Any]:
        """Forget a game."""
        self.game(game)
        del self.games[game]
        return {}

    def cmd_parse_card(self, text: Any) -> dict[str, Any]:
        """Not claimed: the engine reads no card text of its own (DRV-4)."""
        raise unsupported(f"{self.engine} reads no card text (CARD-4)")

    def cmd_ruleset(self, ruleset: Any) -> dict[str, Any]:
        """Not claimed: the engine has no ruleset objects (RS-13)."""
        raise unsupported(f"{self.engine} has no ruleset objects to validate (RS-13)")

    def cmd_seed_draws(self, seed: Any, count: Any) -> dict[str, Any]:
        """Not claimed: the engine has no reversis seeding."""
        raise unsupported(f"{self.engine} has no reversis seeding (SEED-1)")

    def cmd_deal_from_seed(self, ruleset: Any, seed: Any, deals: Any, hand_number: Any = None) -> dict[str, Any]:
        """Not claimed: the engine has no reversis seeding."""
        raise unsupported(f"{self.engine} has no reversis seeding (SEED-5)")

    def cmd_apply_action(self, game: Any, action: Any, seat: Any = None) -> dict[str, Any]:
        """Not claimed: no action ids (ACT-2)."""
        raise unsupported(f"{self.engine} has no action ids (ACT-2)")

    def cmd_undo(self, game: Any) -> dict[str, Any]:
        """Not claimed: the engine takes nothing back (API-8)."""
        raise unsupported(f"{self.engine} has no undo (API-8)")

    def cmd_observation(self, game: Any, seat: Any) -> dict[str, Any]:
        """Not claimed: no observations (OBS-1)."""
        raise unsupported(f"{self.engine} gives no per-seat observation of the spec (OBS-1)")

    def cmd_record(self, game: Any) -> dict[str, Any]:
        """Not claimed: the engine keeps no game record (REC-1)."""
        raise unsupported(f"{self.engine} has no game records (REC-1)")

    def cmd_load_record(self, record: Any) -> dict[str, Any]:
        """Not claimed: the engine keeps no game record (REC-2)."""
        raise unsupported(f"{self.engine} has no game records (REC-2)")

    def cmd_load_record_bytes(self, data: Any) -> dict[str, Any]:
        """Not claimed: the engine keeps no game record (REC-3)."""
        raise unsupported(f"{self.engine} has no game records (REC-3)")

    def cmd_record_bytes(self, game: Any, format: Any) -> dict[str, Any]:
        """Not claimed: the engine keeps no game record (REC-3)."""
        raise unsupported(f"{self.engine} has no game records (REC-3)")

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer's body to one request object whose ``id`` was taken out."""
        command = request.pop("cmd", None)
        method = getattr(self, f"cmd_{command}", None) if isinstance(command, str) else None
        if method is None:
            return _failure("invalid-request", f"unknown command {json.dumps(command)[:80]}")
        try:
            inspect.signature(method).bind(**request)
        except TypeError as error:
            return _failure("invalid-request", f"{command}: {error}")
        try:
            return {"ok": True, **method(**request)}
        except HarnessError as error:
            return _failure(error.code, error.message)

    def serve(self, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
        """Answer requests until ``quit`` or the end of the input (DRV-1, DRV-2); the exit status."""
        stdin = stdin or sys.stdin.buffer
        stdout = stdout or sys.stdout.buffer
        sys.stdout = sys.stderr  # the engine's own prints must not reach the protocol's stream
        for raw in stdin:
            if not raw.strip():
                continue
            request_id = None
            try:
                request = json.loads(raw.decode("utf-8").lstrip("\ufeff"))
            except UnicodeDecodeError:
                body = _failure("invalid-request", "the line is not UTF-8")
            except (ValueError, RecursionError) as error:
                body = _failure("invalid-request", f"not JSON: {error}")
            else:
                if isinstance(request, dict):
                    request_id = request.pop("id", None)
                    if request.get("cmd") == "quit":
                        _write(stdout, request_id, {"ok": True})
                        return 0
                    body = self.handle(request)
                else:
                    body = _failure("invalid-request", "a request is a JSON object")
            _write(stdout, request_id, body)
        return 0


def _failure(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": code, "message": message}


def _write(stdout: IO[bytes], request_id: Any, body: dict[str, Any]) -> None:
    try:
        line = json.dumps({"id": request_id, **body}, allow_nan=False)
    except ValueError:  # an id of NaN or Infinity, which JSON cannot carry back
        line = json.dumps({"id": None, **body})
    stdout.write(line.encode("ascii") + b"\n")
    stdout.flush()
