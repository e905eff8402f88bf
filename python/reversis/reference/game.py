"""The hand and match state machines of spec/game.md.

Every action goes through :meth:`Game.apply`, which first checks the action completely and only
then changes the state, so a rejected action leaves the game exactly as it was (ERR-1).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from ..errors import IllegalActionError, InvalidInputError, shown
from .cards import SUITS, card_name, ids_in, mask_of, names_in, parse_card_id, suit_mask, suit_of
from .ruleset import Ruleset
from .seeding import SplitMix64, deal_hands

PHASES = ("deal", "pass", "play", "moon", "over")
MOON_CHOICES = ("add-to-others", "subtract-from-taker")
_ACTION_KEYS = {
    "deal": {"type", "hands"},
    "pass": {"type", "seat", "cards"},
    "play": {"type", "seat", "card"},
    "moon": {"type", "seat", "choice"},
}
_DIRECTION_OFFSET = {"left": 1, "right": -1, "across": 2}
_MAX_SEED = (1 << 64) - 1
#: ERR-6: match totals are 64-bit signed integers; a total that would pass a bound stays at it.
_MIN_TOTAL, _MAX_TOTAL = -(1 << 63), (1 << 63) - 1
#: ERR-6: the most actions a record may hold (the Rust core's ``MAX_RECORD_ACTIONS``).
MAX_RECORD_ACTIONS = 100_000


def _illegal(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def _invalid(code: str, message: str) -> InvalidInputError:
    return InvalidInputError(code, message)


def _check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED):
        raise _invalid("invalid-setup", f"a seed must be an integer from 0 to 2**64-1, not {shown(seed)}")


class Game:
    """A match under one ruleset, from its first deal until the target ends it (API-3).

    >>> from .ruleset import preset
    >>> game = Game(preset("hartenjagen"), seed=1)
    >>> game.phase, game.legal_plays()
    ('play', ['7C'])
    """

    def __init__(
        self,
        ruleset: Ruleset,
        seed: int | None = None,
        *,
        hand_number: int = 0,
        scores: list[int] | None = None,
    ) -> None:
        """Start a match; with a seed, deal the first hand from it at once (DEAL-3).

        :raises InvalidInputError: ``invalid-setup`` for a seed, hand number or scores that are
            not valid values.
        """
        if not isinstance(ruleset, Ruleset):
            raise _invalid("invalid-setup", f"a game needs a Ruleset, not {shown(ruleset)}")
        _check_seed(seed)
        if isinstance(hand_number, bool) or not isinstance(hand_number, int) or not 0 <= hand_number <= _MAX_SEED:
            raise _invalid(
                "invalid-setup", f"a hand number must be an integer from 0 to 2**64-1, not {shown(hand_number)}"
            )
        if scores is None:
            scores = [0] * ruleset.players
        if (
            not isinstance(scores, (list, tuple))
            or len(scores) != ruleset.players
            or any(isinstance(s, bool) or not isinstance(s, int) or not _MIN_TOTAL <= s <= _MAX_TOTAL for s in scores)
        ):
            raise _invalid("invalid-setup", f"scores must be {ruleset.players} integers, not {shown(scores)}")
        self._ruleset = ruleset
        self._seed = seed
        self._rng = None if seed is None else SplitMix64(seed)
        self._start = {"hand_number": hand_number, "scores": list(scores)}
        self._phase = "deal"
        self._hand_number = hand_number
        self._scores = list(scores)
        self._hand_scores: list[list[int]] = []
        self._actions: list[dict[str, Any]] = []
        self._winners: list[int] = []
        self._deals_from_seed = 0
        self._reset_hand()
        if self._rng is not None:
            self._deal_from_rng()

    # ----------------------------------------------------------------- read-only state

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset of the match."""
        return self._ruleset

    @property
    def seed(self) -> int | None:
        """The seed every deal comes from, or ``None`` for a game dealt by hand."""
        return self._seed

    @property
    def phase(self) -> str:
        """``"deal"``, ``"pass"``, ``"play"``, ``"moon"`` or ``"over"``."""
        return self._phase

    @property
    def hand_number(self) -> int:
        """The number of the current hand, from 0 (DEAL-2)."""
        return self._hand_number

    @property
    def dealer(self) -> int:
        """The dealer of the current hand: it rotates to the left (DEAL-2)."""
        return self._hand_number % self._ruleset.players

    @property
    def pass_direction(self) -> str | None:
        """The current hand's pass direction, or ``None`` where the ruleset never passes (PASS-1)."""
        cycle = self._ruleset.pass_cycle
        if cycle is None:
            return None
        return cycle[self._hand_number % len(cycle)]

    @property
    def to_move(self) -> int | None:
        """The seat to play (phase ``play``) or to choose (phase ``moon``), else ``None``."""
        if self._phase == "play":
            return self._to_move
        if self._phase == "moon":
            return self._moon_taker
        return None

    @property
    def awaiting_pass(self) -> list[int]:
        """The seats that must still pass this hand, sorted."""
        if self._phase != "pass":
            return []
        return [seat for seat in range(self._ruleset.players) if self._passed[seat] is None]

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress as ``(seat, card)`` pairs in playing order."""
        return [(seat, card_name(card)) for seat, card in self._trick]

    @property
    def tricks_played(self) -> list[dict[str, Any]]:
        """The completed tricks of this hand: ``{leader, cards, winner, points}`` (OBS-1)."""
        return copy.deepcopy(self._tricks)

    @property
    def hearts_broken(self) -> bool:
        """Whether hearts may be led (PLAY-6)."""
        return self._ruleset.hearts_breaking == "none" or self._broken

    @property
    def points(self) -> list[int]:
        """Each seat's points captured so far this hand (SCORE-1)."""
        return list(self._points)

    @property
    def scores(self) -> list[int]:
        """The match totals."""
        return list(self._scores)

    @property
    def hand_scores(self) -> list[list[int]]:
        """The scores of every completed hand, oldest first."""
        return [list(row) for row in self._hand_scores]

    @property
    def moon_taker(self) -> int | None:
        """The seat that must choose how its moon scores (SCORE-3), or ``None``."""
        return self._moon_taker if self._phase == "moon" else None

    @property
    def winners(self) -> list[int]:
        """Every seat on the lowest total once the match is over, else ``[]`` (MATCH-3)."""
        return list(self._winners)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """Every accepted action so far, in canonical form."""
        return copy.deepcopy(self._actions)

    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` holds, sorted.

        :raises InvalidInputError: ``invalid-action`` if there is no such seat.
        """
        return names_in(self._hands[self._check_seat(seat)])

    def legal_plays(self) -> list[str]:
        """The cards the seat to move may play, sorted; ``[]`` outside phase ``play`` (PLAY-8)."""
        if self._phase != "play" or self._to_move is None:
            return []
        return names_in(self._legal_mask(self._to_move))

    # ----------------------------------------------------------------------- actions

    def apply(self, action: dict[str, Any]) -> None:
        """Apply an action of ACT-1, or raise and change nothing.

        :raises InvalidInputError: if the action is malformed (ERR-2).
        :raises IllegalActionError: if the rules forbid it now (ERR-3), by ERR-4's order.
        """
        kind, fields = self._parse_action(action)
        self._check_phase(kind)
        if kind == "deal":
            hands = self._check_deal(fields["hands"])
            self._do_deal(hands)
        elif kind == "pass":
            seat, cards = fields["seat"], fields["cards"]
            self._check_pass(seat, cards)
            self._do_pass(seat, mask_of(cards))
        elif kind == "play":
            seat, card = fields["seat"], fields["card"]
            if seat != self._to_move:
                raise _illegal(
                    "wrong-seat", f"seat {seat} played {card_name(card)} but seat {self._to_move} is to move"
                )
            error = self._play_error(seat, card)
            if error is not None:
                raise _illegal(*error)
            self._do_play(seat, card)
        else:
            seat, choice = fields["seat"], fields["choice"]
            if seat != self._moon_taker:
                raise _illegal("not-moon-taker", f"seat {seat} cannot choose: seat {self._moon_taker} took the moon")
            self._actions.append({"type": "moon", "seat": seat, "choice": choice})
            self._score_hand(choice)

    def deal(self, hands: list[list[str]] | None = None) -> None:
        """Deal ``hands`` (one list per seat), or without them the next deal of the seed.

        :raises InvalidInputError: ``invalid-deal``, or ``no-seed`` for an unseeded game.
        :raises IllegalActionError: outside phase ``deal``.
        """
        if hands is not None:
            self.apply({"type": "deal", "hands": hands})
            return
        self._check_phase("deal")
        if self._rng is None:
            raise _invalid("no-seed", "this game has no seed to deal from; pass the hands")
        self._deal_from_rng()

    def pass_cards(self, seat: int, cards: list[str]) -> None:
        """Submit ``seat``'s pass (PASS-2); see :meth:`apply`."""
        self.apply({"type": "pass", "seat": seat, "cards": cards})

    def play(self, card: str, seat: int | None = None) -> None:
        """Play ``card`` for ``seat``, by default the seat to move; see :meth:`apply`."""
        if seat is None:
            parse_card_id(card)  # ERR-4: the card's form before the phase
            self._check_phase("play")
            seat = self._to_move
        self.apply({"type": "play", "seat": seat, "card": card})

    def choose_moon(self, choice: str) -> None:
        """Choose how the moon scores, for the taker (SCORE-3); see :meth:`apply`."""
        if not isinstance(choice, str) or choice not in MOON_CHOICES:  # ERR-4: the shape first
            raise _invalid("invalid-action", f"a moon choice is {' or '.join(MOON_CHOICES)}, not {shown(choice)}")
        self._check_phase("moon")
        self.apply({"type": "moon", "seat": self._moon_taker, "choice": choice})

    # ------------------------------------------------------------ views and records

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, and nothing else (OBS-1).

        :raises InvalidInputError: ``invalid-action`` if there is no such seat.
        """
        seat = self._check_seat(seat)
        passed, received = self._passed[seat], self._received[seat]
        return {
            "seat": seat,
            "phase": self._phase,
            "hand_number": self._hand_number,
            "dealer": self.dealer,
            "pass_direction": self.pass_direction,
            "to_move": self.to_move,
            "awaiting_pass": self.awaiting_pass,
            "hand": names_in(self._hands[seat]),
            "passed": None if passed is None else names_in(passed),
            "received": None if received is None else names_in(received),
            "tricks": copy.deepcopy(self._tricks),
            "trick": [{"seat": s, "card": card_name(c)} for s, c in self._trick],
            "hearts_broken": self.hearts_broken,
            "voids": [[SUITS[s] for s in range(4) if voids >> s & 1] for voids in self._voids],
            "points": list(self._points),
            "scores": list(self._scores),
            "legal": self.legal_plays() if self.to_move == seat and self._phase == "play" else [],
            "moon_taker": self.moon_taker,
        }

    def state(self) -> dict[str, Any]:
        """The whole state as JSON data: equal states give equal values (API-3)."""
        return {
            "ruleset": self._ruleset.to_json(),
            "seed": self._seed,
            "deals_from_seed": self._deals_from_seed,
            "phase": self._phase,
            "hand_number": self._hand_number,
            "hands": [names_in(hand) for hand in self._hands],
            "passed": [None if p is None else names_in(p) for p in self._passed],
            "received": [None if r is None else names_in(r) for r in self._received],
            "to_move": self.to_move,
            "trick": [[s, card_name(c)] for s, c in self._trick],
            "tricks": copy.deepcopy(self._tricks),
            "hearts_broken": self.hearts_broken,
            "voids": list(self._voids),
            "points": list(self._points),
            "scores": list(self._scores),
            "hand_scores": self.hand_scores,
            "winners": list(self._winners),
            "actions": self.actions,
        }

    def to_record(self) -> dict[str, Any]:
        """The game record of REC-1, from which :meth:`from_record` rebuilds this game."""
        return {
            "format": "reversis-record",
            "version": 1,
            "ruleset": self._ruleset.to_json(),
            "seed": self._seed,
            "start": copy.deepcopy(self._start),
            "actions": self.actions,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from its record by replaying it (REC-2).

        :raises InvalidInputError: ``invalid-record`` if the record is malformed, an action is
            rejected on replay, or a deal differs from what the seed deals.
        """
        ruleset, seed, hand_number, scores, actions = check_record(record)
        game = cls(ruleset, None, hand_number=hand_number, scores=scores)
        rng = None if seed is None else SplitMix64(seed)
        for index, action in enumerate(actions):
            if rng is not None and isinstance(action, dict) and action.get("type") == "deal":
                expected_hands = [names_in(h) for h in deal_hands(ruleset, rng, game.dealer)]
                given = [names_in(mask_of(hand)) for hand in game._parse_action(action)[1]["hands"]]
                if given != expected_hands:
                    raise _invalid("invalid-record", f"action {index}: the deal differs from what seed {seed} deals")
            try:
                game.apply(action)
            except (InvalidInputError, IllegalActionError) as error:
                raise _invalid(
                    "invalid-record", f"action {index} {shown(action)} is rejected: {error.code}: {error}"
                ) from None
        game._seed = seed
        game._rng = rng
        if rng is not None:
            game._deals_from_seed = sum(1 for a in game._actions if a["type"] == "deal")
            if game._phase == "deal":
                game._deal_from_rng()
        return game

    def copy(self) -> Game:
        """An independent copy of this game."""
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        return (
            f"<Game {self._ruleset.name} hand {self._hand_number} phase {self._phase} "
            f"scores {self._scores} seed {self._seed}>"
        )

    # ------------------------------------------------------------- internals: checks

    def _check_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._ruleset.players:
            raise _invalid("invalid-action", f"no seat {shown(seat)} at a table of {self._ruleset.players}")
        return seat

    def _parse_action(self, action: Any, check_table: bool = True) -> tuple[str, dict[str, Any]]:
        """Read an ACT-1 action into ids and seats; nothing here depends on the state.

        Without ``check_table`` a seat is not checked against the table (a record's shape).
        """
        if not isinstance(action, dict):
            raise _invalid("invalid-action", f"an action must be an object, not {shown(action)}")
        problem = json_problem(action)
        if problem is not None:
            raise _invalid("invalid-action", f"an action is not JSON data: {problem}: {shown(action)}")
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in _ACTION_KEYS:
            raise _invalid("invalid-action", f"unknown action type {shown(kind)}")
        if set(action) != _ACTION_KEYS[kind]:
            odd = sorted(set(action) ^ _ACTION_KEYS[kind])
            raise _invalid("invalid-action", f"a {kind} action has a missing or unknown key {shown(odd[0])}")
        fields: dict[str, Any] = {}
        # ERR-4: first the action's shape, then its cards, then its seat against the table.
        seat = action.get("seat")
        # ERR-6: a seat outside 0 … 2**64-1 is not a seat-shaped value at all.
        if "seat" in action and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= _MAX_SEED):
            raise _invalid("invalid-action", f"a seat is a non-negative integer, not {shown(seat)}")
        if kind == "deal":
            hands = action["hands"]
            # A tuple is an array, as in the Rust binding.
            if not isinstance(hands, (list, tuple)) or any(not isinstance(hand, (list, tuple)) for hand in hands):
                raise _invalid("invalid-action", "a deal's 'hands' must be an array of arrays of cards")
            fields["hands"] = [[parse_card_id(card) for card in hand] for hand in hands]
        elif kind == "pass":
            if not isinstance(action["cards"], (list, tuple)):
                raise _invalid("invalid-action", f"a pass's 'cards' must be an array, not {shown(action['cards'])}")
            fields["cards"] = [parse_card_id(card) for card in action["cards"]]
        elif kind == "play":
            fields["card"] = parse_card_id(action["card"])
        else:
            if action["choice"] not in MOON_CHOICES:
                raise _invalid(
                    "invalid-action", f"a moon choice is {' or '.join(MOON_CHOICES)}, not {shown(action['choice'])}"
                )
            fields["choice"] = action["choice"]
        if "seat" in action:
            fields["seat"] = self._check_seat(seat) if check_table else seat
        return kind, fields

    def _check_phase(self, kind: str) -> None:
        if self._phase == "over":
            raise _illegal("match-over", f"the match is over; no {kind} is possible")
        if self._phase == "moon" and kind != "moon":
            raise _illegal("moon-choice-pending", f"seat {self._moon_taker} must choose how its moon scores first")
        if self._phase != kind:
            raise _illegal("wrong-phase", f"a {kind} is not possible in phase {shown(self._phase)}")

    def _check_deal(self, hands: list[list[int]]) -> list[int]:
        ruleset = self._ruleset
        if len(hands) != ruleset.players:
            raise _invalid("invalid-deal", f"a deal needs {ruleset.players} hands, not {len(hands)}")
        masks, seen = [], 0
        for seat, hand in enumerate(hands):
            if len(hand) != ruleset.hand_size:
                raise _invalid("invalid-deal", f"seat {seat} is dealt {len(hand)} cards, not {ruleset.hand_size}")
            mask = 0
            for card in hand:
                if not ruleset.deck_mask >> card & 1:
                    raise _invalid("invalid-deal", f"{card_name(card)} is not in the {ruleset.name} deck")
                if (seen | mask) >> card & 1:
                    raise _invalid("invalid-deal", f"{card_name(card)} is dealt twice")
                mask |= 1 << card
            seen |= mask
            masks.append(mask)
        return masks

    def _check_pass(self, seat: int, cards: list[int]) -> None:
        size = self._ruleset.pass_size
        if self._passed[seat] is not None:
            raise _illegal("already-passed", f"seat {seat} has already passed this hand")
        if len(cards) != size:
            raise _illegal("wrong-pass-size", f"seat {seat} must pass {size} cards, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise _illegal("duplicate-card", f"seat {seat} names a card twice: {[card_name(c) for c in cards]}")
        for card in cards:
            if not self._hands[seat] >> card & 1:
                raise _illegal("card-not-held", f"seat {seat} does not hold {card_name(card)}")

    def _play_error(self, seat: int, card: int) -> tuple[str, str] | None:
        """The first rule of PLAY-8's cascade that playing ``card`` breaks, or ``None``."""
        ruleset, hand, name = self._ruleset, self._hands[seat], card_name(card)
        if not hand >> card & 1:
            return "card-not-held", f"seat {seat} does not hold {name}"
        first_trick = not self._tricks
        if not self._trick:
            if first_trick and ruleset.opening_id is not None and card != ruleset.opening_id:
                return (
                    "must-lead-opening-card",
                    f"the first trick must be led with {card_name(ruleset.opening_id)}, not {name}",
                )
            if first_trick and ruleset.opening_id is not None:
                # PLAY-8: the cascade never empties the legal set, so an opening card that is
                # a heart is led even while hearts are unbroken (PLAY-1 before PLAY-6).
                return None
            hearts = ruleset.hearts_mask
            if not self.hearts_broken and hearts >> card & 1 and hand & ~hearts:
                return (
                    "hearts-not-broken",
                    f"{name} cannot be led: hearts are not broken and seat {seat} holds other suits",
                )
            return None
        led = suit_mask(suit_of(self._trick[0][1]))
        if hand & led and not led >> card & 1:
            return (
                "must-follow-suit",
                f"seat {seat} must follow {SUITS[suit_of(self._trick[0][1])]} and cannot play {name}",
            )
        if hand & led:
            return None
        points = ruleset.point_mask
        if first_trick and ruleset.first_trick_ban and points >> card & 1 and hand & ~points:
            return "points-on-first-trick", f"{name} is a point card and cannot be discarded on the first trick"
        return None

    def _legal_mask(self, seat: int) -> int:
        return mask_of(card for card in ids_in(self._hands[seat]) if self._play_error(seat, card) is None)

    # ---------------------------------------------------------- internals: transitions

    def _reset_hand(self) -> None:
        players = self._ruleset.players
        self._hands = [0] * players
        self._passed: list[int | None] = [None] * players
        self._received: list[int | None] = [None] * players
        self._trick: list[tuple[int, int]] = []
        self._tricks: list[dict[str, Any]] = []
        self._to_move: int | None = None
        self._broken = False
        self._voids = [0] * players
        self._points = [0] * players
        self._captured = [0] * players
        self._moon_taker: int | None = None

    def _deal_from_rng(self) -> None:
        assert self._rng is not None
        hands = deal_hands(self._ruleset, self._rng, self.dealer)
        self._deals_from_seed += 1
        self._do_deal(hands)

    def _do_deal(self, hands: list[int]) -> None:
        self._reset_hand()
        self._hands = list(hands)
        self._actions.append({"type": "deal", "hands": [names_in(hand) for hand in hands]})
        if self.pass_direction in (None, "hold"):
            self._start_play()
        else:
            self._phase = "pass"

    def _do_pass(self, seat: int, cards: int) -> None:
        self._hands[seat] &= ~cards
        self._passed[seat] = cards
        self._actions.append({"type": "pass", "seat": seat, "cards": names_in(cards)})
        if all(passed is not None for passed in self._passed):
            self._exchange()

    def _exchange(self) -> None:
        players = self._ruleset.players
        offset = _DIRECTION_OFFSET[self.pass_direction]  # type: ignore[index]
        received: list[int | None] = [0] * players
        for seat, cards in enumerate(self._passed):
            receiver = (seat + offset) % players
            received[receiver] = cards
            self._hands[receiver] |= cards or 0
        self._received = received
        self._start_play()

    def _start_play(self) -> None:
        ruleset = self._ruleset
        self._phase = "play"
        if ruleset.opening_id is None:
            self._to_move = (self.dealer + 1) % ruleset.players
        else:
            self._to_move = next(s for s, hand in enumerate(self._hands) if hand >> ruleset.opening_id & 1)

    def _do_play(self, seat: int, card: int) -> None:
        ruleset = self._ruleset
        self._actions.append({"type": "play", "seat": seat, "card": card_name(card)})
        self._hands[seat] &= ~(1 << card)
        if self._trick:
            led_suit = suit_of(self._trick[0][1])
            if suit_of(card) != led_suit:
                self._voids[seat] |= 1 << led_suit
        self._trick.append((seat, card))
        if ruleset.breaks_hearts(card):
            self._broken = True
        if len(self._trick) < ruleset.players:
            self._to_move = (seat + 1) % ruleset.players
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        ruleset = self._ruleset
        led_suit = suit_of(self._trick[0][1])
        winner, _ = max(((s, c) for s, c in self._trick if suit_of(c) == led_suit), key=lambda pair: pair[1])
        cards = mask_of(c for _, c in self._trick)
        points = ruleset.points_of(cards)
        self._tricks.append(
            {
                "leader": self._trick[0][0],
                "cards": [{"seat": s, "card": card_name(c)} for s, c in self._trick],
                "winner": winner,
                "points": points,
            }
        )
        self._captured[winner] |= cards
        self._points[winner] += points
        self._trick = []
        self._to_move = winner
        if len(self._tricks) == ruleset.hand_size:
            self._finish_hand()

    def _finish_hand(self) -> None:
        ruleset = self._ruleset
        self._to_move = None
        if ruleset.moon_scoring is not None:
            for seat, captured in enumerate(self._captured):
                if captured & ruleset.point_mask == ruleset.point_mask:
                    self._moon_taker = seat
        if self._moon_taker is not None and ruleset.moon_scoring == "taker-choice":
            self._phase = "moon"
            return
        self._score_hand(None if self._moon_taker is None else ruleset.moon_scoring)

    def _score_hand(self, moon_choice: str | None) -> None:
        """Turn the hand's points into scores (SCORE-1, SCORE-2) and move on (MATCH-2)."""
        ruleset = self._ruleset
        negative = [
            ruleset.points_of(captured) - ruleset.points_of(captured & ruleset.point_mask)
            for captured in self._captured
        ]
        if moon_choice is None:
            hand = list(self._points)
        else:
            bonus = ruleset.moon_bonus
            taker = self._moon_taker
            if moon_choice == "add-to-others":
                hand = [neg + (0 if seat == taker else bonus) for seat, neg in enumerate(negative)]
            else:
                hand = [neg - (bonus if seat == taker else 0) for seat, neg in enumerate(negative)]
        self._hand_scores.append(hand)
        self._scores = [min(max(total + gained, _MIN_TOTAL), _MAX_TOTAL) for total, gained in zip(self._scores, hand)]
        if max(self._scores) >= ruleset.target:
            self._phase = "over"
            lowest = min(self._scores)
            self._winners = [seat for seat, total in enumerate(self._scores) if total == lowest]
            return
        self._hand_number = (self._hand_number + 1) % (_MAX_SEED + 1)
        self._reset_hand()
        self._phase = "deal"
        if self._rng is not None:
            self._deal_from_rng()


#: ERR-6: how deeply JSON data handed in from Python may nest (as the Rust binding).
MAX_JSON_DEPTH = 128


def json_problem(value: Any) -> str | None:
    """Why ``value`` is not JSON data, or ``None`` if it is.

    JSON data is ``None``, ``bool``, 64-bit ``int``, finite ``float``, UTF-8-encodable ``str``,
    ``list``/``tuple`` and ``dict`` with ``str`` keys, nested at most ``MAX_JSON_DEPTH`` deep
    (ERR-6). Iterative: any depth is safe.
    """
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return f"nested more than {MAX_JSON_DEPTH} deep"
        if item is None or isinstance(item, bool):
            continue
        if isinstance(item, int):
            if not -(1 << 63) <= item <= _MAX_SEED:
                return f"integer out of range: {shown(item)}"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"not a finite number: {shown(item)}"
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"not valid text: {shown(item)}"
        elif isinstance(item, (list, tuple)):
            stack.extend((element, depth + 1) for element in item)
        elif isinstance(item, dict):
            for key, element in item.items():
                if not isinstance(key, str):
                    return f"a key is not a string: {shown(key)}"
                stack.append((element, depth + 1))
        else:
            return f"a {type(item).__name__} is not JSON data"
    return None


def _bad_record(message: str) -> InvalidInputError:
    return _invalid("invalid-record", f"invalid record: {message}")


def check_record(record: Any) -> tuple[Ruleset, int | None, int, list[int], list[Any]]:
    """Check a record's structure (REC-1) without replaying it.

    Its keys, format and version, a valid ruleset, seed and start, and well-formed actions (at
    most ``MAX_RECORD_ACTIONS``).

    :raises InvalidInputError: ``invalid-record`` naming the first problem.
    """
    if not isinstance(record, dict):
        raise _bad_record(f"a record must be an object, not {type(record).__name__}")
    expected = {"format", "version", "ruleset", "seed", "start", "actions"}
    if set(record) != expected:
        odd = sorted(set(record) ^ expected, key=str)
        raise _bad_record(f"a missing or unknown key {shown(odd[0])}")
    if record["format"] != "reversis-record" or not isinstance(record["format"], str):
        raise _bad_record(f"format must be 'reversis-record', not {shown(record['format'])}")
    version = record["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version != 1:
        raise _bad_record(f"version must be 1, not {shown(version)}")
    try:
        ruleset = Ruleset.from_json(record["ruleset"])
    except InvalidInputError as error:
        raise _bad_record(str(error)) from None
    seed = record["seed"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MAX_SEED):
        raise _bad_record(f"seed must be an unsigned 64-bit integer or null, not {shown(seed)}")
    start = record["start"]
    if not isinstance(start, dict) or set(start) != {"hand_number", "scores"}:
        raise _bad_record("'start' must hold exactly 'hand_number' and 'scores'")
    hand_number, scores = start["hand_number"], start["scores"]
    if isinstance(hand_number, bool) or not isinstance(hand_number, int) or not 0 <= hand_number <= _MAX_SEED:
        raise _bad_record(f"start.hand_number must be a non-negative integer, not {shown(hand_number)}")
    if (
        not isinstance(scores, list)
        or len(scores) != ruleset.players
        or any(isinstance(s, bool) or not isinstance(s, int) or not _MIN_TOTAL <= s <= _MAX_TOTAL for s in scores)
    ):
        raise _bad_record(f"start.scores must be {ruleset.players} 64-bit integers, not {shown(scores)}")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise _bad_record("'actions' must be an array")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise _bad_record(f"{len(actions)} actions, more than the limit of {MAX_RECORD_ACTIONS}")
    probe = Game(ruleset)
    for index, action in enumerate(actions):
        try:
            probe._parse_action(action, check_table=False)
        except InvalidInputError as error:
            raise _bad_record(f"action {index}: {error}") from None
    return ruleset, seed, hand_number, list(scores), actions
