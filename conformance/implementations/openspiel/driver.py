"""OpenSpiel's ``hearts`` behind the reversis driver protocol (spec/driver.md).

Run as ``DEST/venv/bin/python driver.py`` after ``sh install DEST``; README.md beside this file
says what it claims and why. Every rule answer is OpenSpiel's: which card is legal and who is to
play (``legal_actions``, ``current_player``), who won a trick (the next leader), what a trick,
a hand and a moon score (its ``points``), whether hearts are broken. The harness translates
notation and keeps what the protocol needs and an OpenSpiel ``hearts`` state lacks:

- **Cards.** The canonical text of a card (CARD-3) is OpenSpiel's own card text (its
  ``CardString``: rank ``23456789TJQKA``, suit ``CDHS``), so a card reaches OpenSpiel through
  the table OpenSpiel's ``action_to_string`` gives. The other forms of CARD-4 are read here into
  the canonical one: that is notation, so the harness does not claim the ``card`` case kind,
  which would measure this reading rather than OpenSpiel.
- **One hand, dealt as given.** An OpenSpiel ``hearts`` state is one hand: a chance node picks
  the pass direction, then 52 chance nodes deal card ``k`` to player ``k mod 4``. The harness
  picks the direction from the preset's cycle and the hand number (PASS-1), and feeds a ``deal``
  action card by card as those chance outcomes.
- **Passing.** OpenSpiel asks seats 0, 1, 2, 3 in turn for three cards each, one at a time; a
  reversis pass may come in any seat order (PASS-2), so passes wait here until OpenSpiel asks
  for them, and leave their seat's hand in the view at once (PASS-3). Whether OpenSpiel takes a
  waiting pass is asked at once, on a copy of the state brought to that seat's turn.
- **The match around the hand.** The hand number, dealer and totals are kept here; after the
  hand the view is phase ``deal`` of the next hand, its totals OpenSpiel's scores of the hand.

What OpenSpiel cannot express is answered ``unsupported`` with what is missing: a seeded game,
starting totals, a second hand, a preset it does not play, a ruleset object other than a claimed
preset. OpenSpiel never says which rule a card breaks, only that it is not a legal action.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import pyspiel

PROTOCOL = 1
#: The version of spec/ whose driver protocol (DRV-1 … DRV-7) this harness speaks.
SPEC_VERSION = "1.3.0"
RULESETS = Path(__file__).resolve().parents[3] / "spec" / "rulesets"

PLAYERS = 4
HAND_SIZE = 13
PASS_SIZE = 3
SEATS = "NESW"  # OpenSpiel's names of players 0 … 3 in its state struct (DirString)
MAX_U64 = 2**64 - 1
MAX_ACTIONS = 100_000  # ERR-6: the most actions a record holds

UNSUPPORTED = "unsupported"
#: OpenSpiel says only that a held card is not among its legal actions, never which rule it breaks.
NOT_LEGAL = "illegal-action"

#: OpenSpiel's names of its pass directions (``pass_dir_str`` in hearts.h) for those of PASS-1.
SPIEL_DIRECTION = {"hold": "No Pass", "left": "Left", "across": "Across", "right": "Right"}

#: The presets OpenSpiel's ``hearts`` plays, with the parameters that make it play them.
#: ``no_pts_on_first_trick`` bans hearts and QS, the positive point cards of all three (PLAY-5);
#: ``can_lead_any_club`` false: 2C opens (PLAY-1); ``must_break_hearts`` (PLAY-6);
#: ``can_lead_hearts_instead_of_qs`` false: PLAY-6 lets an unbroken heart be led only from a hand
#: of hearts alone; ``avoid_all_tricks_bonus`` false: no preset pays for taking no trick.
COMMON_PARAMS = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
PRESET_PARAMS = {
    "hearts-4": {**COMMON_PARAMS, "qs_breaks_hearts": True, "jd_bonus": False},
    "hearts-computer": {**COMMON_PARAMS, "qs_breaks_hearts": False, "jd_bonus": False},
    "omnibus-4": {**COMMON_PARAMS, "qs_breaks_hearts": True, "jd_bonus": True},
}
#: OpenSpiel scores every moon alike: the taker's 26 taken away, 26 added to each other seat
#: (``ComputeScore`` in hearts.cc). Where a claimed preset's moon is otherwise, it is played with
#: this one, and ``hello`` says so (DRV-4 ``variants``).
OPENSPIEL_MOON = {"scoring": "add-to-others", "bonus": 26}

ACTION_KEYS = {
    "deal": {"type", "hands"},
    "pass": {"type", "seat", "cards"},
    "play": {"type", "seat", "card"},
    "moon": {"type", "seat", "choice"},
}
MOON_CHOICES = ("add-to-others", "subtract-from-taker")


class Rejected(Exception):
    """A request answered ``ok: false`` with a code of spec/errors.md or of the protocol."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message


# ----------------------------------------------------------------------------- notation

RANKS = "23456789TJQKA"
SUITS = "CDHS"
JSON_WHITESPACE = " \t\n\r"  # CARD-6: the only whitespace read around a card
RANK_FORMS = {**{rank: rank for rank in RANKS}, **{rank.lower(): rank for rank in "TJQKA"}, "10": "T"}
SUIT_FORMS = {
    **{suit: suit for suit in SUITS},
    **{suit.lower(): suit for suit in SUITS},
    **dict(zip("♣♦♥♠", SUITS)),
    **dict(zip("♧♢♡♤", SUITS)),
}


def read_card(value: Any) -> str:
    """The canonical text of a card written in any form of CARD-6."""
    if not isinstance(value, str):
        raise Rejected("invalid-card", f"a card is a string, not {json.dumps(value)}")
    text = value.strip(JSON_WHITESPACE)
    rank = RANK_FORMS.get(text[:-1])
    suit = SUIT_FORMS.get(text[-1:])
    if rank is None or suit is None:
        raise Rejected("invalid-card", f"not a card: {json.dumps(value, ensure_ascii=False)}")
    return rank + suit


def card_order(card: str) -> int:
    """CARD-2's id of a canonical card, the order every list of cards is written in."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def in_order(cards: list[str]) -> list[str]:
    """Cards in CARD-2's order."""
    return sorted(cards, key=card_order)


# ----------------------------------------------------------------------------- presets


class Preset:
    """A preset of spec/rulesets/ as OpenSpiel's ``hearts`` plays it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.params = PRESET_PARAMS[name]
        self.spec = json.loads((RULESETS / f"{name}.json").read_text(encoding="utf-8"))
        self.variant = {"moon": OPENSPIEL_MOON} if self.spec.get("moon") != OPENSPIEL_MOON else {}
        self.ruleset = {**self.spec, **self.variant}  # what is played, and what records carry
        self.cycle: list[str] = list(self.ruleset["passing"]["cycle"])
        self.game = pyspiel.load_game("hearts", dict(self.params))
        probe = self.game.new_initial_state()
        directions = {probe.action_to_string(action): action for action in probe.legal_actions()}
        self.direction_action = {ours: directions[theirs] for ours, theirs in SPIEL_DIRECTION.items()}
        probe.apply_action(probe.legal_actions()[0])
        self.card_action = {
            probe.action_to_string(pyspiel.PlayerId.CHANCE, action): action for action in probe.legal_actions()
        }
        self.action_card = {action: card for card, action in self.card_action.items()}

    def direction(self, hand_number: int) -> str:
        """The pass direction of a hand (PASS-1)."""
        return self.cycle[hand_number % len(self.cycle)]


PRESETS = {name: Preset(name) for name in PRESET_PARAMS}
KNOWN_PRESETS = {path.stem for path in RULESETS.glob("*.json")}


def find_preset(ruleset: Any) -> Preset:
    """The claimed preset ``ruleset`` names, or the rejection that says why there is none."""
    if isinstance(ruleset, str):
        if ruleset in PRESETS:
            return PRESETS[ruleset]
        if ruleset in KNOWN_PRESETS:
            raise Rejected(UNSUPPORTED, f"openspiel hearts cannot play preset {ruleset!r}")
        raise Rejected("unknown-preset", f"no preset {ruleset!r}")
    if isinstance(ruleset, dict):
        # Compared as JSON text: in Python 100.0 == 100 and True == 1, which ERR-6 tells apart.
        given = _json_text(ruleset)
        for preset in PRESETS.values():
            if given == _json_text(preset.ruleset):
                return preset
        for preset in PRESETS.values():
            if given == _json_text(preset.spec):
                raise Rejected(
                    UNSUPPORTED, f"openspiel hearts plays {preset.name} with the moon {json.dumps(OPENSPIEL_MOON)}"
                )
        raise Rejected(UNSUPPORTED, "openspiel hearts plays only the presets it claims, not other rulesets")
    raise Rejected("invalid-ruleset", f"a ruleset is a preset name or an object, not {json.dumps(ruleset)}")


def _json_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _is_integer(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _setup(ruleset: Any, seed: Any, hand_number: Any, scores: Any) -> tuple[Preset, int]:
    """Read a game's setup (API-3, ERR-6): invalid values first, then what OpenSpiel cannot express."""
    if not isinstance(ruleset, dict) and not (isinstance(ruleset, str) and ruleset in KNOWN_PRESETS):
        find_preset(ruleset)  # invalid-ruleset or unknown-preset, before the other values
    if seed is not None and not _is_integer(seed, 0, MAX_U64):
        raise Rejected("invalid-setup", f"a seed is an integer 0 … 2⁶⁴−1, not {json.dumps(seed)}")
    if hand_number is None:
        hand_number = 0
    if not _is_integer(hand_number, 0, MAX_U64):
        raise Rejected("invalid-setup", f"a hand number is an integer 0 … 2⁶⁴−1, not {json.dumps(hand_number)}")
    if scores is not None and not (
        isinstance(scores, list) and len(scores) == PLAYERS and all(_is_integer(s, -(2**63), 2**63 - 1) for s in scores)
    ):
        raise Rejected("invalid-setup", f"scores are {PLAYERS} integers −2⁶³ … 2⁶³−1, not {json.dumps(scores)}")
    preset = find_preset(ruleset)
    if seed is not None:
        raise Rejected(
            UNSUPPORTED,
            "openspiel hearts is dealt through its chance nodes from deal actions: a seeded deal (SEED-5) is not",
        )
    if scores is not None and any(scores):
        raise Rejected(UNSUPPORTED, "openspiel hearts plays one hand from zero: starting totals are not expressible")
    return preset, hand_number


# ----------------------------------------------------------------------------- actions


def _read_action(action: Any) -> tuple[str, dict[str, Any]]:
    """Read an ACT-1 action in ERR-4's order: its shape, its cards, then its seat's range."""
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise Rejected("invalid-action", f"not an action: {json.dumps(action, ensure_ascii=False)[:200]}")
    if set(action) != ACTION_KEYS[kind]:
        raise Rejected("invalid-action", f"a {kind} action has exactly the keys {sorted(ACTION_KEYS[kind])}")
    if "seat" in action and not _is_integer(action["seat"], 0, MAX_U64):
        raise Rejected("invalid-action", f"a seat is a non-negative integer, not {json.dumps(action['seat'])}")
    fields: dict[str, Any] = {}
    if kind == "deal":
        hands = action["hands"]
        if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
            raise Rejected("invalid-action", "a deal's hands are an array of arrays of cards")
        fields["hands"] = [[read_card(card) for card in hand] for hand in hands]
    elif kind == "pass":
        if not isinstance(action["cards"], list):
            raise Rejected("invalid-action", "a pass's cards are an array")
        fields["cards"] = [read_card(card) for card in action["cards"]]
    elif kind == "play":
        fields["card"] = read_card(action["card"])
    elif action["choice"] not in MOON_CHOICES:
        raise Rejected("invalid-action", f"a moon choice is {' or '.join(MOON_CHOICES)}, not {action['choice']!r}")
    if "seat" in action:
        if action["seat"] >= PLAYERS:
            raise Rejected("invalid-action", f"no seat {action['seat']} at a table of {PLAYERS}")
        fields["seat"] = action["seat"]
    return kind, fields


def _struct(state: Any) -> dict[str, Any]:
    """OpenSpiel's own view of a state (``HeartsStructContents``)."""
    return dict(json.loads(state.to_json()))


# ----------------------------------------------------------------------------- one game


class Hand:
    """A reversis game of one hand, played by an OpenSpiel ``hearts`` state."""

    def __init__(self, preset: Preset, hand_number: int) -> None:
        self.preset = preset
        self.hand_number = hand_number
        self.state = preset.game.new_initial_state()
        self.state.apply_action(preset.direction_action[preset.direction(hand_number)])
        self.passed: list[list[str] | None] = [None] * PLAYERS
        self.waiting: dict[int, list[str]] = {}  # passes OpenSpiel has not asked for yet
        self.trick_results: list[tuple[int, int]] = []  # (winner, points) of each trick, as OpenSpiel gave them
        self.actions: list[dict[str, Any]] = []

    # ------------------------------------------------------------- reading OpenSpiel

    def phase(self) -> str:
        """The phase of game.md: OpenSpiel's, or ``deal`` of the next hand once it is over."""
        return {"Deal": "deal", "Pass": "pass", "Play": "play", "GameOver": "deal"}[_struct(self.state)["phase"]]

    def view(self) -> dict[str, Any]:
        """DRV-6's view."""
        over = self.state.is_terminal()
        # After the hand the view is the next hand's phase deal, read from a state of its own.
        state = self.preset.game.new_initial_state() if over else self.state
        struct = _struct(state)
        phase = self.phase()
        hand_number = (self.hand_number + 1) % (MAX_U64 + 1) if over else self.hand_number
        hand_scores = [[round(points) for points in _struct(self.state)["points"]]] if over else []
        if over:
            direction = self.preset.direction(hand_number)
        else:
            direction = {theirs: ours for ours, theirs in SPIEL_DIRECTION.items()}[struct["pass_direction"]]
        hands = [
            [card for card in hand if card not in self.waiting.get(seat, [])]
            for seat, hand in enumerate(struct["hands"])
        ]
        tricks, trick = self._tricks(struct) if phase == "play" else ([], [])
        return {
            "phase": phase,
            "hand_number": hand_number,
            "dealer": hand_number % PLAYERS,
            "pass_direction": direction,
            "to_move": state.current_player() if phase == "play" else None,
            "moon_taker": None,
            "awaiting_pass": [seat for seat in range(PLAYERS) if self.passed[seat] is None] if phase == "pass" else [],
            "legal": self.legal() if phase == "play" else [],
            "hands": [in_order(hand) for hand in hands],
            "trick": trick,
            "tricks": tricks,
            "last_trick": tricks[-1] if tricks else None,
            "hearts_broken": bool(state.hearts_broken()),
            "points": [round(points) for points in struct["points"]],
            "scores": list(hand_scores[0]) if over else [0] * PLAYERS,
            "hand_scores": hand_scores,
            "winners": [],
            "count_down": False,  # OpenSpiel has no count-down, and no claimed preset one (MATCH-5)
        }

    def _tricks(self, struct: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The completed tricks (TRICK-1) and the trick in progress, from OpenSpiel's struct."""
        done: list[dict[str, Any]] = []
        current: list[dict[str, Any]] = []
        for index, raw in enumerate(struct["tricks"]):
            cards = [{"seat": SEATS.index(seat), "card": card} for seat, card in raw]
            if len(cards) < PLAYERS:
                current = cards
                continue
            winner, points = self.trick_results[index]
            done.append({"leader": cards[0]["seat"], "cards": cards, "winner": winner, "points": points})
        return done, current

    def legal(self) -> list[str]:
        """OpenSpiel's legal cards for the seat to play."""
        return in_order([self.preset.action_card[action] for action in self.state.legal_actions()])

    def snapshot(self) -> dict[str, Any]:
        """Equal before and after a rejected action, different after an accepted one."""
        return {
            "history": [int(action) for action in self.state.history()],
            "passed": self.passed,
            "waiting": sorted(self.waiting),
        }

    def record(self) -> dict[str, Any]:
        """REC-1, the ruleset being the one played."""
        return {
            "format": "reversis-record",
            "version": 1,
            "ruleset": self.preset.ruleset,
            "seed": None,
            "start": {"hand_number": self.hand_number, "scores": [0] * PLAYERS},
            "actions": self.actions,
        }

    # ------------------------------------------------------------- actions

    def apply(self, action: Any) -> None:
        """Apply an ACT-1 action, or raise :class:`Rejected` and change nothing."""
        kind, fields = _read_action(action)
        phase = self.phase()
        if kind == "deal" and self.state.is_terminal():
            raise Rejected(UNSUPPORTED, "an openspiel hearts state is one hand: a second deal is not expressible")
        if kind == "moon":
            raise Rejected(
                "wrong-phase",
                "openspiel hearts has no moon choice: it scores a moon add-to-others, 26 to each other seat",
            )
        if kind != phase:
            raise Rejected("wrong-phase", f"a {kind} is not possible in phase {phase!r}")
        if kind == "deal":
            self._deal(fields["hands"])
        elif kind == "pass":
            self._pass(fields["seat"], fields["cards"])
        else:
            self._play(fields["seat"], fields["card"])

    def _deal(self, hands: list[list[str]]) -> None:
        if len(hands) != PLAYERS or any(len(hand) != HAND_SIZE for hand in hands):
            raise Rejected("invalid-deal", f"openspiel hearts deals {HAND_SIZE} cards to each of {PLAYERS} seats")
        state = self.state.clone()
        for index in range(HAND_SIZE):  # OpenSpiel's k-th dealt card goes to player k mod 4
            for seat in range(PLAYERS):
                card = hands[seat][index]
                if self.preset.card_action[card] not in state.legal_actions():
                    raise Rejected("invalid-deal", f"openspiel does not deal {card} twice")
                state.apply_action(self.preset.card_action[card])
        self.state = state
        self.actions.append({"type": "deal", "hands": [in_order(hand) for hand in hands]})

    def _pass(self, seat: int, cards: list[str]) -> None:
        if self.passed[seat] is not None:
            raise Rejected("already-passed", f"seat {seat} has already passed this hand")
        if len(cards) != PASS_SIZE:
            raise Rejected("wrong-pass-size", f"openspiel hearts passes {PASS_SIZE} cards, not {len(cards)}")
        # Ask OpenSpiel now, on a copy brought to this seat's turn: the seats before it pass what
        # they have given, or any three of their cards, which leaves this seat's hand as it is.
        probe = self.state.clone()
        while probe.current_player() != seat:
            earlier = probe.current_player()
            chosen = [self.preset.card_action[card] for card in self.waiting.get(earlier, [])]
            for action in chosen or probe.legal_actions()[:PASS_SIZE]:
                probe.apply_action(action)
        for index, card in enumerate(cards):
            if self.preset.card_action[card] not in probe.legal_actions():
                if card in cards[:index]:
                    raise Rejected("duplicate-card", f"seat {seat} names {card} twice")
                raise Rejected("card-not-held", f"openspiel does not let seat {seat} pass {card}")
            probe.apply_action(self.preset.card_action[card])
        waiting = {**self.waiting, seat: in_order(cards)}
        state = self.state.clone()
        while _struct(state)["phase"] == "Pass" and state.current_player() in waiting:
            for card in waiting.pop(state.current_player()):
                state.apply_action(self.preset.card_action[card])
        self.state = state
        self.waiting = waiting
        self.passed[seat] = in_order(cards)
        self.actions.append({"type": "pass", "seat": seat, "cards": in_order(cards)})

    def _play(self, seat: int, card: str) -> None:
        to_play = self.state.current_player()
        if seat != to_play:
            raise Rejected("wrong-seat", f"seat {to_play} is to play, not seat {seat}")
        if self.preset.card_action[card] not in self.state.legal_actions():
            if card not in _struct(self.state)["hands"][seat]:
                raise Rejected("card-not-held", f"seat {seat} does not hold {card}")
            raise Rejected(NOT_LEGAL, f"openspiel does not let seat {seat} play {card} now")
        before = _struct(self.state)["points"]
        state = self.state.clone()
        state.apply_action(self.preset.card_action[card])
        plays = sum(1 for action in self.actions if action["type"] == "play") + 1
        if plays % PLAYERS == 0 and not state.is_terminal():
            # OpenSpiel's winner leads next and has the trick's points added (ApplyPlayAction);
            # the last trick is never shown: the view is then the next hand's phase deal.
            winner = state.current_player()
            points = round(_struct(state)["points"][winner] - before[winner])
            self.trick_results.append((winner, points))
        self.state = state
        self.actions.append({"type": "play", "seat": seat, "card": card})


# ----------------------------------------------------------------------------- the commands


class Harness:
    """The commands of spec/driver.md DRV-3, answered through OpenSpiel."""

    def __init__(self) -> None:
        self.games: dict[int, Hand] = {}
        self.last_id = 0

    def command(self, name: str) -> Callable[..., dict[str, Any]]:
        """The method that serves a command, or ``invalid-request`` for one this harness does not take."""
        method = getattr(self, f"cmd_{name}", None)
        if method is None:
            raise Rejected("invalid-request", f"unknown command {name!r}")
        return method

    def _keep(self, hand: Hand) -> dict[str, Any]:
        self.last_id += 1
        self.games[self.last_id] = hand
        return {"game": self.last_id}

    def _game(self, game: Any) -> Hand:
        if not _is_integer(game, 0, MAX_U64) or game not in self.games:
            raise Rejected("invalid-request", f"no game {json.dumps(game)}")
        return self.games[game]

    def cmd_hello(self) -> dict[str, Any]:
        """DRV-4: what OpenSpiel's hearts expresses."""
        return {
            "name": "OpenSpiel hearts",
            "version": str(pyspiel.__version__),
            "protocol": PROTOCOL,
            "spec_version": SPEC_VERSION,
            "capabilities": {
                "players": [PLAYERS],
                "presets": sorted(PRESETS),
                "custom_rulesets": False,
                "kinds": ["game", "perft"],
                "observations": False,
                "error_codes": False,
                "action_ids": False,
                "observation_tensor": False,
                "variants": {name: preset.variant for name, preset in sorted(PRESETS.items()) if preset.variant},
            },
        }

    def cmd_new_game(
        self, ruleset: Any, seed: Any = None, hand_number: Any = None, scores: Any = None
    ) -> dict[str, Any]:
        """One hand of a claimed preset, unseeded, from zero totals."""
        return self._keep(Hand(*_setup(ruleset, seed, hand_number, scores)))

    def cmd_apply(self, game: Any, action: Any) -> dict[str, Any]:
        """ACT-1, through OpenSpiel."""
        self._game(game).apply(action)
        return {}

    def cmd_view(self, game: Any) -> dict[str, Any]:
        """DRV-6."""
        return {"view": self._game(game).view()}

    def cmd_state(self, game: Any) -> dict[str, Any]:
        """OpenSpiel's history and the passes waiting here."""
        return {"state": self._game(game).snapshot()}

    def cmd_record(self, game: Any) -> dict[str, Any]:
        """REC-1 of the game so far."""
        return {"record": json.loads(json.dumps(self._game(game).record()))}

    def cmd_load_record(self, record: Any) -> dict[str, Any]:
        """REC-2 for the records this harness writes: a claimed preset, unseeded, from zero totals."""
        keys = {"format", "version", "ruleset", "seed", "start", "actions"}
        if isinstance(record, dict) and "spec_version" in record:
            raise Rejected(UNSUPPORTED, "the harness replays records of its own, which state no spec_version")
        if not isinstance(record, dict) or set(record) != keys:
            raise Rejected("invalid-record", f"a record has exactly the keys {sorted(keys)}")
        if record["format"] != "reversis-record" or record["version"] != 1 or isinstance(record["version"], bool):
            raise Rejected("invalid-record", "not a version-1 reversis record")
        start, actions = record["start"], record["actions"]
        if not isinstance(record["ruleset"], dict):
            raise Rejected("invalid-record", "a record's ruleset is a whole ruleset object")
        if not isinstance(start, dict) or set(start) != {"hand_number", "scores"} or None in start.values():
            raise Rejected("invalid-record", "a record's start has exactly hand_number and scores")
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
            raise Rejected("invalid-record", f"a record's actions are an array of at most {MAX_ACTIONS}")
        try:
            hand = Hand(*_setup(record["ruleset"], record["seed"], start["hand_number"], start["scores"]))
            for action in actions:
                hand.apply(action)
        except Rejected as error:
            if error.code == UNSUPPORTED:
                raise
            raise Rejected("invalid-record", f"the record does not replay: {error.message}") from None
        return self._keep(hand)

    def cmd_drop(self, game: Any) -> dict[str, Any]:
        """Forget a game."""
        self._game(game)
        del self.games[game]
        return {}

    def cmd_parse_card(self, text: Any) -> dict[str, Any]:
        """Not claimed: OpenSpiel reads no card text."""
        raise Rejected(UNSUPPORTED, "openspiel hearts reads no card text (CARD-4); the kind 'card' is not claimed")

    def cmd_ruleset(self, ruleset: Any) -> dict[str, Any]:
        """Not claimed: OpenSpiel validates no rulesets."""
        raise Rejected(UNSUPPORTED, "openspiel hearts has fixed rules behind parameters; it validates no rulesets")

    def cmd_seed_draws(self, seed: Any, count: Any) -> dict[str, Any]:
        """Not expressible: OpenSpiel's deals come from its own chance nodes."""
        raise Rejected(UNSUPPORTED, "openspiel hearts has no reversis seeding (seeding.md)")

    def cmd_deal_from_seed(self, ruleset: Any, seed: Any, deals: Any, hand_number: Any = None) -> dict[str, Any]:
        """Not expressible: OpenSpiel's deals come from its own chance nodes."""
        raise Rejected(UNSUPPORTED, "openspiel hearts has no reversis seeding (seeding.md)")

    def cmd_observation(self, game: Any, seat: Any) -> dict[str, Any]:
        """Not claimed: OpenSpiel's hearts has information states, not OBS-1's observation."""
        raise Rejected(UNSUPPORTED, "observations (OBS-1) are not claimed")

    def cmd_load_record_bytes(self, data: Any) -> dict[str, Any]:
        """Not claimed: encoded records carry whole rulesets."""
        raise Rejected(UNSUPPORTED, "encoded records (REC-3) are not claimed")

    def cmd_record_bytes(self, game: Any, format: Any) -> dict[str, Any]:
        """Not claimed: encoded records carry whole rulesets."""
        raise Rejected(UNSUPPORTED, "encoded records (REC-3) are not claimed")


# ----------------------------------------------------------------------------- the protocol


def _answer(out: Any, request_id: Any, body: dict[str, Any]) -> None:
    out.write(json.dumps({"id": request_id, **body}).encode("utf-8") + b"\n")
    out.flush()


def serve(stdin: Any, stdout: Any) -> None:
    """Answer requests, one JSON object a line, until ``quit`` or the end of input (DRV-1, DRV-2).

    A rejection is an answer; anything else OpenSpiel raises ends the driver with its traceback
    on standard error, for the runner to report.
    """
    harness = Harness()
    for raw in stdin:
        try:
            request = json.loads(raw.decode("utf-8"))
        except ValueError as error:
            _answer(stdout, None, {"ok": False, "error": "invalid-request", "message": f"not JSON: {error}"})
            continue
        if not isinstance(request, dict):
            _answer(stdout, None, {"ok": False, "error": "invalid-request", "message": "a request is a JSON object"})
            continue
        request_id = request.pop("id", None)
        name = request.pop("cmd", None)
        try:
            if not isinstance(name, str):
                raise Rejected("invalid-request", "a request names its command in 'cmd'")
            if name == "quit":
                if request:
                    raise Rejected("invalid-request", f"quit takes no arguments, not {sorted(request)}")
                _answer(stdout, request_id, {"ok": True})
                return
            method = harness.command(name)
            try:
                inspect.signature(method).bind(**request)
            except TypeError as error:
                raise Rejected("invalid-request", f"arguments of {name!r}: {error}") from None
            body = {"ok": True, **method(**request)}
        except Rejected as error:
            body = {"ok": False, "error": error.code, "message": error.message}
        _answer(stdout, request_id, body)


def main() -> None:
    """Serve the protocol on standard input and output; Ctrl-C and a closed pipe end it quietly."""
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        sys.exit(1)


if __name__ == "__main__":
    main()
