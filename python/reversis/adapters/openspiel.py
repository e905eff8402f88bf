"""OpenSpiel's ``hearts`` behind the reversis driver protocol (spec/driver.md).

``python -m reversis.adapters.openspiel`` answers the driver protocol on standard input and
output so that ``reversis conformance --driver "python -m reversis.adapters.openspiel"`` tests
OpenSpiel's rules against the reversis spec. Every rule decision (which card is legal, who wins a
trick, who leads, how a hand scores, whether a moon was shot) is OpenSpiel's; the adapter only
translates notation and keeps the bookkeeping that the protocol needs and OpenSpiel lacks:

- **Cards.** reversis ids are ``suit * 13 + rank`` (CARD-2); OpenSpiel's actions are
  ``rank * 4 + suit`` with the same suit order C, D, H, S.
- **One hand.** An OpenSpiel ``hearts`` state is one hand: a chance node picks the pass
  direction (0 no pass, 1 left, 2 across, 3 right, each ``+d`` seats as in SEAT-1), then 52
  chance nodes deal card ``k`` to player ``k mod 4``. The adapter picks the direction from the
  preset's cycle and ``hand_number`` (PASS-1) and feeds each ``deal`` card by card. After the
  hand the view shows what the match would show (phase ``deal`` of the next hand, the hand's
  scores); a second deal is answered ``unsupported``.
- **Passing.** OpenSpiel asks seats 0, 1, 2, 3 in turn for three cards each, one at a time.
  reversis passes arrive in any order (PASS-2), so they are buffered and fed in OpenSpiel's
  order as soon as possible; a buffered pass already leaves its seat's hand in the view (PASS-3).
- **Scores.** OpenSpiel's returns are ``26 - points`` where ``points`` already includes its moon
  rule (the shooter −26, everyone else +26: the reversis ``add-to-others`` with bonus 26). A
  moon is recognised where OpenSpiel's final points differ from the points captured.

What OpenSpiel cannot express is answered ``{"ok": false, "error": "unsupported"}``: seeds,
starting totals other than zero, a second hand, the moon choice of ``taker-choice`` presets,
records and rulesets other than the claimed presets. An action OpenSpiel does not allow is
answered ``illegal-action``: OpenSpiel says only whether an action is legal, never which rule it
breaks, hence the capability ``error_codes: false``.
"""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass
from typing import IO, Any

import pyspiel

import reversis

PROTOCOL_VERSION = 1
PLAYERS = 4
HAND_SIZE = 13
PASS_SIZE = 3
RANKS = "23456789TJQKA"
SUITS = "CDHS"
SEAT_LETTERS = "NESW"  # OpenSpiel's names of players 0..3 in its state struct

ILLEGAL = "illegal-action"
UNSUPPORTED = "unsupported"

#: OpenSpiel's first chance outcome for each reversis pass direction (PassDir in hearts.h).
SPIEL_PASS_DIR = {"hold": 0, "left": 1, "across": 2, "right": 3}
MOON_CHOICES = ("add-to-others", "subtract-from-taker")
ACTION_KEYS = {
    "deal": {"type", "hands"},
    "pass": {"type", "seat", "cards"},
    "play": {"type", "seat", "card"},
    "moon": {"type", "seat", "choice"},
}


class AdapterError(Exception):
    """A rejected request, with the code the protocol answer carries."""

    def __init__(self, code: str, message: str) -> None:
        """Keep ``code`` (kebab-case) and a lowercase ``message``."""
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its fields, not from ``args`` (the message alone), when pickled.
        return type(self), (self.code, self.message), self.__dict__


# ----------------------------------------------------------------------------- cards


def parse_card(text: object) -> int:
    """Read a card in any form CARD-4 accepts and return its reversis id (CARD-2).

    This is notation, not rules: OpenSpiel prints ``2C`` … ``AS`` but reads no card text.
    """
    try:
        return reversis.card_id(text)  # type: ignore[arg-type]
    except reversis.ReversisError as error:
        raise AdapterError(error.code, str(error)) from None


def card_name(card: int) -> str:
    """Return the canonical string of a reversis card id (CARD-3)."""
    return RANKS[card % 13] + SUITS[card // 13]


def names(cards: list[int]) -> list[str]:
    """Return the canonical strings of some card ids, in sorted order (CARD-2)."""
    return [card_name(card) for card in sorted(cards)]


def to_spiel(card: int) -> int:
    """Return OpenSpiel's action for a reversis card id: ``rank * 4 + suit``."""
    return (card % 13) * 4 + card // 13


def from_spiel(action: int) -> int:
    """Return the reversis card id of an OpenSpiel card action."""
    return (action % 4) * 13 + action // 4


# ----------------------------------------------------------------------------- presets


@dataclass(frozen=True)
class Preset:
    """A reversis preset that OpenSpiel's ``hearts`` can play, with the parameters that make it do so."""

    ruleset: dict[str, Any]
    params: dict[str, bool]

    @property
    def name(self) -> str:
        """The preset's name (RS-1)."""
        return str(self.ruleset["name"])

    @property
    def cycle(self) -> list[str]:
        """The pass directions, one per hand number (PASS-1)."""
        return list(self.ruleset["passing"]["cycle"])

    @property
    def card_points(self) -> dict[int, int]:
        """Card id → value (RS-9)."""
        return {parse_card(card): value for card, value in self.ruleset["card_points"].items()}

    @property
    def moon_scoring(self) -> str:
        """``add-to-others`` or ``taker-choice`` (RS-10)."""
        return str(self.ruleset["moon"]["scoring"])


def _params(*, qs_breaks_hearts: bool, jd_bonus: bool) -> dict[str, bool]:
    """OpenSpiel ``hearts`` parameters; the fixed ones are what every claimed preset needs.

    ``pass_cards``: 3 cards (RS-5; the direction comes from our first chance outcome);
    ``no_pts_on_first_trick``: hearts and QS, which are exactly the point cards of every claimed
    preset (PLAY-5, RS-14); ``can_lead_any_club`` false: 2C opens (PLAY-1);
    ``must_break_hearts``: PLAY-6; ``can_lead_hearts_instead_of_qs`` false: PLAY-6 lets a heart
    be led unbroken only from a hand of hearts alone; no bonus for avoiding every trick.
    """
    return {
        "pass_cards": True,
        "no_pts_on_first_trick": True,
        "can_lead_any_club": False,
        "jd_bonus": jd_bonus,
        "avoid_all_tricks_bonus": False,
        "must_break_hearts": True,
        "qs_breaks_hearts": qs_breaks_hearts,
        "can_lead_hearts_instead_of_qs": False,
    }


PRESETS: dict[str, Preset] = {
    "hearts-4": Preset(reversis.preset("hearts-4").to_json(), _params(qs_breaks_hearts=True, jd_bonus=False)),
    "hearts-computer": Preset(
        reversis.preset("hearts-computer").to_json(), _params(qs_breaks_hearts=False, jd_bonus=False)
    ),
    "omnibus-4": Preset(reversis.preset("omnibus-4").to_json(), _params(qs_breaks_hearts=True, jd_bonus=True)),
}


def find_preset(ruleset: Any) -> Preset:
    """Return the claimed preset named by ``ruleset`` (a name, or an object equal to a preset)."""
    if isinstance(ruleset, str):
        if ruleset in PRESETS:
            return PRESETS[ruleset]
        if ruleset in reversis.preset_names():
            # Another preset of spec/rulesets/: known, but OpenSpiel's hearts does not play it.
            raise AdapterError(UNSUPPORTED, f"openspiel hearts cannot play preset {ruleset!r}")
        raise AdapterError("unknown-preset", f"no preset {ruleset!r}")
    if isinstance(ruleset, dict):
        for preset in PRESETS.values():
            if ruleset == preset.ruleset:
                return preset
        raise AdapterError(UNSUPPORTED, "openspiel hearts plays only the presets it claims, not custom rulesets")
    raise AdapterError("invalid-ruleset", f"a ruleset is a preset name or an object, not {ruleset!r}")


# ----------------------------------------------------------------------------- one hand


def _spiel_struct(state: Any) -> dict[str, Any]:
    """Return OpenSpiel's own JSON view of a state (HeartsStructContents)."""
    return json.loads(state.to_json())


class HeartsHand:
    """One reversis game limited to one hand, played by an OpenSpiel ``hearts`` state."""

    def __init__(self, preset: Preset, hand_number: int) -> None:
        """Start hand ``hand_number`` of ``preset``: OpenSpiel's pass direction is chosen at once."""
        self.preset = preset
        self.hand_number = hand_number
        self.game = pyspiel.load_game("hearts", dict(preset.params))
        self.state = self.game.new_initial_state()
        self.state.apply_action(SPIEL_PASS_DIR[self.direction])
        self.passed: list[list[int] | None] = [None] * PLAYERS
        self.pending: dict[int, list[int]] = {}  # passes not yet fed to OpenSpiel
        self.actions: list[dict[str, Any]] = []

    # ---------------------------------------------------------------- reading OpenSpiel

    @property
    def direction(self) -> str:
        """Return the pass direction of this hand (PASS-1)."""
        cycle = self.preset.cycle
        return cycle[self.hand_number % len(cycle)]

    def _spiel_phase(self) -> str:
        """Return OpenSpiel's phase: ``PassDir``, ``Deal``, ``Pass``, ``Play`` or ``GameOver``."""
        return str(_spiel_struct(self.state)["phase"])

    def _captured_tricks(self) -> list[dict[str, Any]]:
        """Return the completed tricks as OpenSpiel records them, with their winners and points."""
        struct = _spiel_struct(self.state)
        raw = [[(SEAT_LETTERS.index(seat), parse_card(card)) for seat, card in trick] for trick in struct["tricks"]]
        values = self.preset.card_points
        tricks = []
        for index, trick in enumerate(raw):
            if len(trick) < PLAYERS:
                break
            if index + 1 < len(raw):
                winner = raw[index + 1][0][0]  # OpenSpiel's next leader is the winner
            elif not self.state.is_terminal():
                winner = self.state.current_player()
            else:
                winner = _last_trick_winner(trick)
            tricks.append(
                {
                    "leader": trick[0][0],
                    "cards": [{"seat": seat, "card": card_name(card)} for seat, card in trick],
                    "winner": winner,
                    "points": sum(values.get(card, 0) for _, card in trick),
                }
            )
        return tricks

    def _trick_in_progress(self) -> list[dict[str, Any]]:
        struct = _spiel_struct(self.state)
        if not struct["tricks"] or len(struct["tricks"][-1]) == PLAYERS:
            return []
        return [
            {"seat": SEAT_LETTERS.index(seat), "card": card_name(parse_card(card))}
            for seat, card in struct["tricks"][-1]
        ]

    def _points(self, tricks: list[dict[str, Any]]) -> list[int]:
        points = [0] * PLAYERS
        for trick in tricks:
            points[trick["winner"]] += trick["points"]
        return points

    def _final(self) -> list[int]:
        """Return OpenSpiel's score of the finished hand: ``26 - returns`` (its points, moon included)."""
        return [round(26 - value) for value in self.state.returns()]

    def moon_taker(self) -> int | None:
        """Return the seat OpenSpiel's moon rule took 26 from, once the hand is over; else ``None``."""
        if not self.state.is_terminal():
            return None
        captured = self._points(self._captured_tricks())
        final = self._final()
        if captured == final:
            return None
        return next(seat for seat in range(PLAYERS) if final[seat] < captured[seat])

    def phase(self) -> str:
        """Return the reversis phase (game.md) this hand is in."""
        spiel = self._spiel_phase()
        if spiel == "Deal":
            return "deal"
        if spiel == "Pass":
            return "pass"
        if spiel == "Play":
            return "play"
        if self.moon_taker() is not None and self.preset.moon_scoring == "taker-choice":
            return "moon"
        return "deal"  # the hand is scored; the match waits for the next deal (MATCH-2)

    def scored(self) -> bool:
        """Whether the hand is over and its scores are final."""
        return self.state.is_terminal() and self.phase() == "deal"

    def hands(self) -> list[list[int]]:
        """Return each seat's cards: OpenSpiel's, less the passes still buffered here (PASS-3)."""
        struct = _spiel_struct(self.state)
        hands = [sorted(parse_card(card) for card in hand) for hand in struct["hands"]]
        for seat, cards in self.pending.items():
            hands[seat] = [card for card in hands[seat] if card not in cards]
        return hands

    def legal(self) -> list[int]:
        """Return the legal cards of the seat to play, as OpenSpiel lists them."""
        if self._spiel_phase() != "Play":
            return []
        return sorted(from_spiel(action) for action in self.state.legal_actions())

    def view(self) -> dict[str, Any]:
        """Return the view of conformance/README.md."""
        phase = self.phase()
        scored = self.state.is_terminal() and phase == "deal"
        hand_number = self.hand_number + 1 if scored else self.hand_number
        cycle = self.preset.cycle
        tricks = self._captured_tricks()
        taker = self.moon_taker() if phase == "moon" else None
        hand_scores = [self._final()] if scored else []
        if phase == "play":
            to_move: int | None = self.state.current_player()
        else:
            to_move = taker
        return {
            "phase": phase,
            "hand_number": hand_number,
            "dealer": hand_number % PLAYERS,
            "pass_direction": cycle[hand_number % len(cycle)],
            "to_move": to_move,
            "moon_taker": taker,
            "awaiting_pass": [s for s in range(PLAYERS) if self.passed[s] is None] if phase == "pass" else [],
            "legal": names(self.legal()),
            "hands": [names(hand) for hand in self.hands()],
            "trick": self._trick_in_progress(),
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "hearts_broken": bool(self.state.hearts_broken()),
            "points": self._points(tricks),
            "scores": list(hand_scores[0]) if hand_scores else [0] * PLAYERS,
            "hand_scores": hand_scores,
            "winners": [],
        }

    def snapshot(self) -> dict[str, Any]:
        """Equal before and after a rejected action, different after an accepted one."""
        return {
            "history": [int(action) for action in self.state.history()],
            "passed": [None if cards is None else names(cards) for cards in self.passed],
            "pending": sorted(self.pending),
        }

    # ---------------------------------------------------------------- actions

    def apply(self, action: Any) -> None:
        """Apply an ACT-1 action, or raise :class:`AdapterError` leaving everything unchanged."""
        kind, fields = _read_action(action)
        phase = self.phase()
        if phase == "moon" and kind != "moon":
            raise AdapterError(ILLEGAL, f"seat {self.moon_taker()} must choose how its moon scores first")
        if kind != phase:
            raise AdapterError(ILLEGAL, f"a {kind} is not possible in phase {phase!r}")
        if kind == "deal":
            self._deal(fields["hands"])
        elif kind == "pass":
            self._pass(fields["seat"], fields["cards"])
        elif kind == "play":
            self._play(fields["seat"], fields["card"])
        else:
            self._moon(fields["seat"])

    def _deal(self, hands: list[list[int]]) -> None:
        if self.state.is_terminal():
            raise AdapterError(UNSUPPORTED, "openspiel hearts plays one hand; a second deal cannot be expressed")
        if len(hands) != PLAYERS or any(len(hand) != HAND_SIZE for hand in hands):
            raise AdapterError(ILLEGAL, f"openspiel hearts deals {HAND_SIZE} cards to each of {PLAYERS} seats")
        state = self.state.clone()
        for index in range(HAND_SIZE):  # OpenSpiel gives the k-th dealt card to player k mod 4
            for seat in range(PLAYERS):
                card = hands[seat][index]
                if to_spiel(card) not in state.legal_actions():
                    raise AdapterError(ILLEGAL, f"openspiel cannot deal {card_name(card)} again")
                state.apply_action(to_spiel(card))
        self.state = state
        self.actions.append({"type": "deal", "hands": [names(hand) for hand in hands]})

    def _pass(self, seat: int, cards: list[int]) -> None:
        if self.passed[seat] is not None:
            raise AdapterError(ILLEGAL, f"seat {seat} has already passed this hand")
        if len(cards) != PASS_SIZE:
            raise AdapterError(ILLEGAL, f"openspiel hearts passes {PASS_SIZE} cards, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise AdapterError(ILLEGAL, f"seat {seat} names a card twice: {names(cards)}")
        held = self.hands()[seat]
        for card in cards:
            if card not in held:
                raise AdapterError(ILLEGAL, f"seat {seat} does not hold {card_name(card)}")
        pending = {**self.pending, seat: sorted(cards)}
        state = self.state.clone()
        # OpenSpiel asks seat 0, then 1, 2, 3, for one card at a time; feed whoever it waits for.
        while _spiel_struct(state)["phase"] == "Pass" and state.current_player() in pending:
            for card in pending.pop(state.current_player()):
                if to_spiel(card) not in state.legal_actions():
                    raise AdapterError(ILLEGAL, f"openspiel does not let seat {seat} pass {card_name(card)}")
                state.apply_action(to_spiel(card))
        self.state = state
        self.pending = pending
        self.passed[seat] = sorted(cards)
        self.actions.append({"type": "pass", "seat": seat, "cards": names(cards)})

    def _play(self, seat: int, card: int) -> None:
        if seat != self.state.current_player():
            raise AdapterError(ILLEGAL, f"seat {self.state.current_player()} is to play, not seat {seat}")
        if to_spiel(card) not in self.state.legal_actions():
            raise AdapterError(ILLEGAL, f"openspiel does not let seat {seat} play {card_name(card)} now")
        state = self.state.clone()
        state.apply_action(to_spiel(card))
        self.state = state
        self.actions.append({"type": "play", "seat": seat, "card": card_name(card)})

    def _moon(self, seat: int) -> None:
        taker = self.moon_taker()
        if seat != taker:
            raise AdapterError(ILLEGAL, f"seat {taker} shot the moon, not seat {seat}")
        raise AdapterError(
            UNSUPPORTED,
            "openspiel hearts has no moon choice: it always scores the moon as add-to-others (taker 0, others +26)",
        )

    def record(self) -> dict[str, Any]:
        """Return the REC-1 record of this game."""
        return {
            "format": "reversis-record",
            "version": 1,
            "ruleset": copy.deepcopy(self.preset.ruleset),
            "seed": None,
            "start": {"hand_number": self.hand_number, "scores": [0] * PLAYERS},
            "actions": copy.deepcopy(self.actions),
        }


def _last_trick_winner(trick: list[tuple[int, int]]) -> int:
    """Return the winner of the last trick, which OpenSpiel does not report once the hand is over.

    PLAY-7, the only rule the adapter applies itself: the highest card of the suit led.
    """
    led = trick[0][1] // 13
    return max((card, seat) for seat, card in trick if card // 13 == led)[1]


def _read_seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < PLAYERS:
        raise AdapterError(ILLEGAL, f"no seat {value!r} at a table of {PLAYERS}")
    return value


def _read_cards(value: Any) -> list[int]:
    if not isinstance(value, list):
        raise AdapterError(ILLEGAL, f"cards must be an array, not {value!r}")
    return [_read_card(card) for card in value]


def _read_card(value: Any) -> int:
    try:
        return parse_card(value)
    except AdapterError as error:
        raise AdapterError(ILLEGAL, error.message) from None


def _read_action(action: Any) -> tuple[str, dict[str, Any]]:
    """Read an ACT-1 action; anything malformed is ``illegal-action``."""
    if not isinstance(action, dict) or action.get("type") not in ACTION_KEYS:
        raise AdapterError(ILLEGAL, f"not an action: {action!r}")
    kind = action["type"]
    if set(action) != ACTION_KEYS[kind]:
        raise AdapterError(ILLEGAL, f"a {kind} action has exactly the keys {sorted(ACTION_KEYS[kind])}")
    fields: dict[str, Any] = {}
    if "seat" in action:
        fields["seat"] = _read_seat(action["seat"])
    if kind == "deal":
        if not isinstance(action["hands"], list):
            raise AdapterError(ILLEGAL, "a deal's hands must be an array of arrays of cards")
        fields["hands"] = [_read_cards(hand) for hand in action["hands"]]
    elif kind == "pass":
        fields["cards"] = _read_cards(action["cards"])
    elif kind == "play":
        fields["card"] = _read_card(action["card"])
    elif action["choice"] not in MOON_CHOICES:
        raise AdapterError(ILLEGAL, f"a moon choice is {' or '.join(MOON_CHOICES)}, not {action['choice']!r}")
    return kind, fields


def _new_hand(ruleset: Any, seed: Any, hand_number: Any, scores: Any) -> HeartsHand:
    preset = find_preset(ruleset)
    if seed is not None:
        raise AdapterError(
            UNSUPPORTED, "openspiel hearts is dealt by hand here; seeded deals (seeding.md) are not expressible"
        )
    if isinstance(hand_number, bool) or not isinstance(hand_number, int) or hand_number < 0:
        raise AdapterError("invalid-setup", f"a hand number must be a non-negative integer, not {hand_number!r}")
    if scores is not None:
        if (
            not isinstance(scores, list)
            or len(scores) != PLAYERS
            or any(isinstance(s, bool) or not isinstance(s, int) for s in scores)
        ):
            raise AdapterError("invalid-setup", f"scores must be {PLAYERS} integers, not {scores!r}")
        if any(scores):
            raise AdapterError(
                UNSUPPORTED, "openspiel hearts plays one hand from zero; starting totals are not expressible"
            )
    return HeartsHand(preset, hand_number)


# ----------------------------------------------------------------------------- the driver


class Adapter:
    """The commands of spec/driver.md, answered through OpenSpiel."""

    def __init__(self) -> None:
        """Start with no games."""
        self.games: dict[int, HeartsHand] = {}
        self.next_game = 0

    def handle(self, command: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run one command; raise :class:`AdapterError` for a rejection, ``TypeError`` for bad arguments."""
        method = getattr(self, f"cmd_{command}", None)
        if method is None:
            raise AdapterError("invalid-request", f"unknown command {command!r}")
        return method(**args)

    def _keep(self, hand: HeartsHand) -> dict[str, Any]:
        self.next_game += 1
        self.games[self.next_game] = hand
        return {"game": self.next_game}

    def _game(self, game: Any) -> HeartsHand:
        if game not in self.games:
            raise AdapterError("invalid-request", f"no game {game!r}")
        return self.games[game]

    def cmd_hello(self) -> dict[str, Any]:
        """DRV-4: what OpenSpiel's hearts can honestly be tested on."""
        return {
            "name": f"open_spiel hearts (pyspiel {getattr(pyspiel, '__version__', 'unknown version')})",
            "protocol": PROTOCOL_VERSION,
            "capabilities": {
                "players": [PLAYERS],
                "presets": sorted(PRESETS),
                "custom_rulesets": False,
                # perft: the runner counts it by walking its game (DRV-8), not by a command of its own.
                "kinds": ["card", "game", "perft"],
                "observations": False,
                "error_codes": False,
            },
        }

    def cmd_parse_card(self, text: Any) -> dict[str, Any]:
        """CARD-4: the canonical card."""
        return {"card": card_name(parse_card(text))}

    def cmd_ruleset(self, ruleset: Any) -> dict[str, Any]:
        """Return a claimed preset and its derived values; no other ruleset is expressible."""
        preset = find_preset(ruleset)
        values = preset.card_points
        return {
            "ruleset": copy.deepcopy(preset.ruleset),
            "hand_size": HAND_SIZE,
            "deck": names(list(range(52))),
            "point_cards": names([card for card, value in values.items() if value > 0]),
        }

    def cmd_seed_draws(self, **_: Any) -> dict[str, Any]:
        """Not expressible: OpenSpiel has its own random deals."""
        raise AdapterError(UNSUPPORTED, "openspiel hearts has no reversis seeding (seeding.md)")

    def cmd_deal_from_seed(self, **_: Any) -> dict[str, Any]:
        """Not expressible: OpenSpiel has its own random deals."""
        raise AdapterError(UNSUPPORTED, "openspiel hearts has no reversis seeding (seeding.md)")

    def cmd_new_game(
        self, ruleset: Any, seed: Any = None, hand_number: Any = None, scores: Any = None
    ) -> dict[str, Any]:
        """Start one hand of a claimed preset, unseeded and from zero totals."""
        # DRV-3: an optional argument given as null means the same as leaving it out.
        return self._keep(_new_hand(ruleset, seed, 0 if hand_number is None else hand_number, scores))

    def cmd_apply(self, game: Any, action: Any) -> dict[str, Any]:
        """ACT-1, through OpenSpiel."""
        self._game(game).apply(action)
        return {}

    def cmd_view(self, game: Any) -> dict[str, Any]:
        """Return the view of conformance/README.md."""
        return {"view": self._game(game).view()}

    def cmd_state(self, game: Any) -> dict[str, Any]:
        """OpenSpiel's history and the adapter's pass buffer."""
        return {"state": self._game(game).snapshot()}

    def cmd_observation(self, game: Any, seat: Any) -> dict[str, Any]:
        """Not claimed (``observations: false``)."""
        raise AdapterError(UNSUPPORTED, "observations (OBS-1) are not claimed")

    def cmd_record(self, game: Any) -> dict[str, Any]:
        """REC-1 for the game so far."""
        return {"record": self._game(game).record()}

    def cmd_load_record(self, record: Any) -> dict[str, Any]:
        """REC-2: replay a record of a claimed preset, unseeded and from zero totals."""
        keys = {"format", "version", "ruleset", "seed", "start", "actions"}
        if not isinstance(record, dict) or set(record) != keys:
            raise AdapterError("invalid-record", f"a record has exactly the keys {sorted(keys)}")
        if record["format"] != "reversis-record" or record["version"] != 1:
            raise AdapterError("invalid-record", "not a version-1 reversis record")
        start, actions = record["start"], record["actions"]
        if not isinstance(start, dict) or set(start) != {"hand_number", "scores"} or not isinstance(actions, list):
            raise AdapterError("invalid-record", "record 'start' or 'actions' is malformed")
        try:
            hand = _new_hand(record["ruleset"], record["seed"], start["hand_number"], start["scores"])
        except AdapterError as error:
            if error.code == UNSUPPORTED:
                raise
            raise AdapterError("invalid-record", f"record setup: {error.message}") from None
        for index, action in enumerate(actions):
            try:
                hand.apply(action)
            except AdapterError as error:
                if error.code == UNSUPPORTED:
                    raise
                raise AdapterError("invalid-record", f"action {index} is rejected: {error.message}") from None
        return self._keep(hand)

    def cmd_drop(self, game: Any) -> dict[str, Any]:
        """Forget a game."""
        self.games.pop(game, None)
        return {}


def _answer(request_id: Any, body: dict[str, Any]) -> str:
    return json.dumps({"id": request_id, **body}, ensure_ascii=False)


def serve(stdin: IO[str], stdout: IO[str]) -> int:
    """Answer requests, one JSON object a line, until ``quit`` or the end of input (DRV-1, DRV-2)."""
    adapter = Adapter()
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            request = None
            body: dict[str, Any] = {"ok": False, "error": "invalid-request", "message": f"not JSON: {error}"}
        if request is not None and (not isinstance(request, dict) or not isinstance(request.get("cmd"), str)):
            request = None
            body = {"ok": False, "error": "invalid-request", "message": "a request is an object with 'cmd'"}
        if request is None:
            stdout.write(_answer(None, body) + "\n")
            stdout.flush()
            continue
        request_id = request.pop("id", None)
        command = request.pop("cmd")
        if command == "quit":
            stdout.write(_answer(request_id, {"ok": True}) + "\n")
            stdout.flush()
            return 0
        try:
            body = {"ok": True, **adapter.handle(command, request)}
        except AdapterError as error:
            body = {"ok": False, "error": error.code, "message": error.message}
        except TypeError as error:
            body = {"ok": False, "error": "invalid-request", "message": f"bad arguments to {command!r}: {error}"}
        except Exception as error:  # OpenSpiel's own checks (SpielError) must not end the driver
            body = {"ok": False, "error": "internal-error", "message": f"{type(error).__name__}: {error}"}
        stdout.write(_answer(request_id, body) + "\n")
        stdout.flush()
    return 0


def main() -> None:
    """``python -m reversis.adapters.openspiel``: serve the driver protocol on stdin and stdout."""
    sys.exit(serve(sys.stdin, sys.stdout))


if __name__ == "__main__":
    main()
