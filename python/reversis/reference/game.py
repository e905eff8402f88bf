"""The hand and match state machines of spec/game.md.

Every action goes through one door, :meth:`Game.apply` (or :meth:`Game.apply_action` for the
integer ids of ACT-2), which first checks the action completely and only then changes the
state, so a rejected action leaves the game exactly as it was (ERR-1).

The game keeps two things apart:

- the **position** (what :meth:`Game.state` shows, API-9): hands, selections, passes, the trick
  in progress and the tricks of the hand, points, totals, the seed's generator, ...;
- the **history**: the accepted actions, the scores of past hands, the events of the last
  action (EVT-1), the last hand scored (EVT-2), and the undo stack (API-8).

Undo is a stack of snapshots: before each accepted input (an ACT-1 action or a single
selection) the position is saved as an immutable tuple with the lengths of the history lists;
:meth:`Game.undo` restores the last one. History lists only ever grow at the end, and a list
that has been handed out as an :class:`ActionsView` is copied before it is cut back, so every
snapshot read earlier stays what it was.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, Optional, overload

from ..errors import IllegalActionError, InvalidInputError, ReversisError, shown
from . import perft
from .actions import (
    MOON_ADD,
    MOON_CHOICES,
    NUM_ACTIONS,
    SELECT_BASE,
    Entry,
    action_dict,
    entry_of,
    is_seat_value,
    parse_action,
)
from .cards import (
    SUITS,
    Cards,
    card_name,
    cards_of,
    copies,
    ids_in,
    mask_of,
    names_in,
    names_of,
    parse_card_id,
    suit_of,
    with_cards,
    without,
)
from .jsondata import MAX_I64, MIN_I64, as_integer, json_problem
from .legality import play_error
from .records import check_record
from .ruleset import Ruleset, as_ruleset
from .seeding import SplitMix64, deal_hands

PHASES = ("deal", "pass", "play", "moon", "over")
_DIRECTION_OFFSET = {"left": 1, "right": -1, "across": 2}
#: The clause of game.md that refuses a play, by the error code it raises (errors.md).
_BREACH_RULES = {
    "card-not-held": "PLAY-3",
    "must-lead-opening-card": "PLAY-1",
    "must-follow-suit": "PLAY-4",
    "points-on-first-trick": "PLAY-5",
    "hearts-not-broken": "PLAY-6",
}
_MAX_U64 = (1 << 64) - 1

#: Where an undo snapshot (:meth:`Game._position`) keeps the selections.
_SELECTED = 5
#: A completed trick, immutable: ``(leader, ((seat, card id), ...), winner, points)``; a trick
#: held over (PLAY-9) has the winner ``None`` and the points 0 (TRICK-1). ``Optional``, not
#: ``int | None``: an alias is evaluated at run time, and Python 3.9 has no ``|`` of types.
Trick = tuple[int, tuple[tuple[int, int], ...], Optional[int], int]
#: An accepted input, as the undo stack and pickling keep it: an action's entry, or a
#: selection ``("select", seat, card id)`` (ACT-2).
Input = tuple[Any, ...]


def _illegal(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def _invalid(code: str, message: str) -> InvalidInputError:
    return InvalidInputError(code, message)


def _trick_cards(cards: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """TRICK-1: a list of ``{seat, card}`` in playing order."""
    return [{"seat": seat, "card": card_name(card)} for seat, card in cards]


def _trick_dict(trick: Trick) -> dict[str, Any]:
    """TRICK-1: a completed trick as ``{leader, cards, winner, points}``."""
    leader, cards, winner, points = trick
    return {"leader": leader, "cards": _trick_cards(cards), "winner": winner, "points": points}


def _fresh(value: Any) -> Any:
    """A fresh copy of JSON-like history data (events, the last hand), so callers can't alter it."""
    if isinstance(value, dict):
        return {key: _fresh(element) for key, element in value.items()}
    if isinstance(value, list):
        return [_fresh(element) for element in value]
    return value


class ActionsView(Sequence[dict[str, Any]]):
    """A read-only snapshot of a game's accepted actions (API-3 ``actions``).

    It holds the game's append-only list of entries and the length at the moment it was read,
    so it costs the same however long the match; each item is a fresh ACT-1 dict, built when it
    is read. It compares equal to a list or tuple of the same dicts, and to another view.
    """

    __slots__ = ("_entries", "_length")

    def __init__(self, entries: list[Entry], length: int) -> None:
        """Wrap the first ``length`` entries of ``entries``, which must never change."""
        self._entries = entries
        self._length = length

    def __len__(self) -> int:
        """The number of actions."""
        return self._length

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        """The action at ``index`` (negative from the end), or a list of a slice's actions."""
        if isinstance(index, slice):
            return [action_dict(self._entries[i]) for i in range(*index.indices(self._length))]
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"action indices must be integers or slices, not {type(index).__name__}")
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("action index out of range")
        return action_dict(self._entries[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The actions, oldest first."""
        for i in range(self._length):
            yield action_dict(self._entries[i])

    def __eq__(self, other: object) -> bool:
        """Equal to a list, tuple or view of the same actions."""
        if isinstance(other, ActionsView):
            return self._length == other._length and all(
                self._entries[i] == other._entries[i] for i in range(self._length)
            )
        if isinstance(other, (list, tuple)):
            return len(other) == self._length and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list: equal to lists, so unhashable

    def __repr__(self) -> str:
        """The actions as a list."""
        return repr(list(self))


class Game:
    """A match under one ruleset, from its first deal until the target ends it (API-3).

    >>> from .ruleset import preset
    >>> game = Game(preset("hartenjagen"), seed=1)
    >>> game.phase, game.legal_plays(), game.legal_actions()
    ('play', ['7C'], [5])
    >>> game.play("7C")
    >>> game.undo()
    >>> game == Game(preset("hartenjagen"), seed=1)
    True
    """

    #: Whether accepted inputs are kept for :meth:`undo` (``simulate`` plays without).
    _keep_undo = True

    # The position of the current hand (API-9); cards are ids, and hands, passes and captured
    # cards are multisets, sorted tuples holding a card once per copy (CARD-2, RS-21).
    _hands: list[Cards]  # each seat's cards, selected ones included
    _selected: list[list[int]]  # ACT-2: each seat's selection toward its pass, in order
    _passed: list[Cards | None]  # PASS-2: each seat's pass once made
    _received: list[Cards | None]  # PASS-3: what each seat received, once exchanged
    _trick: list[tuple[int, int]]  # the trick in progress: (seat, card) in playing order
    _tricks: list[Trick]  # the completed tricks of the hand
    _to_move: int | None  # the seat to play
    _broken: bool  # PLAY-6
    _voids: list[int]  # OBS-1: each seat's revealed missing suits, bit per suit
    _points: list[int]  # SCORE-1: each seat's points captured this hand
    _captured: list[Cards]  # the cards each seat has won this hand, held-over tricks included
    _moon_taker: int | None  # SCORE-2, SCORE-5: the seat that shot the moon or the sun

    def __init__(
        self,
        ruleset: Ruleset,
        seed: int | None = None,
        *,
        hand_number: int = 0,
        scores: list[int] | None = None,
    ) -> None:
        """Start a match; with a seed, deal the first hand from it at once (DEAL-3).

        ``ruleset`` may be either engine's :class:`Ruleset` (API-2); :attr:`ruleset` is always
        this engine's.

        :raises InvalidInputError: ``invalid-setup`` for a ruleset that is not one, or a seed,
            hand number or scores that are not valid values (API-3, ERR-6).
        """
        checked = as_ruleset(ruleset)
        if checked is None:
            raise _invalid("invalid-setup", f"a game needs a Ruleset, not {shown(ruleset)}")
        seed_number = None if seed is None else as_integer(seed)
        if seed is not None and not is_seat_value(seed_number):
            raise _invalid("invalid-setup", f"a seed must be an integer from 0 to 2**64-1, not {shown(seed)}")
        hand = as_integer(hand_number)
        if hand is None or not is_seat_value(hand):
            raise _invalid(
                "invalid-setup", f"a hand number must be an integer from 0 to 2**64-1, not {shown(hand_number)}"
            )
        seed, hand_number = seed_number, hand
        players = checked.players
        if scores is None:
            scores = [0] * players
        if (
            not isinstance(scores, (list, tuple))
            or len(scores) != players
            or any(isinstance(s, bool) or not isinstance(s, int) or not MIN_I64 <= s <= MAX_I64 for s in scores)
        ):
            raise _invalid("invalid-setup", f"scores must be {players} 64-bit integers, not {shown(scores)}")
        self._ruleset = checked
        self._seed = seed
        self._start_hand = hand_number
        self._start_scores = tuple(scores)
        # The position (API-9).
        self._rng = None if seed is None else SplitMix64(seed)
        self._seed_deals = 0
        self._phase = "deal"
        self._hand_number = hand_number
        self._scores = list(scores)
        # MATCH-5: a game that starts at or past the target under count_down starts counting down.
        # (RS-13 item 10: a ruleset with count_down always has a target.)
        self._count_down = checked.count_down and checked.target is not None and max(scores) >= checked.target
        self._winners: list[int] = []
        self._reset_hand()
        # The history.
        self._actions: list[Entry] = []
        self._actions_shared = False  # an ActionsView holds the list: copy it before cutting it
        self._hand_scores: list[tuple[int, ...]] = []
        self._events: list[dict[str, Any]] = []
        self._last_hand: dict[str, Any] | None = None
        self._undo: list[tuple[Input, tuple[Any, ...]]] = []
        if self._rng is not None:
            self._deal_from_seed()
            self._events = []  # the first deal is the game's start, not an action's event

    # ----------------------------------------------------------------- read-only state

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset of the match (always this engine's)."""
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
        cycle = self._ruleset._pass_cycle
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
    def to_act(self) -> int | None:
        """The seat the integer API acts for by default (ACT-3), or ``None``.

        The seat to move in phase ``play``, the taker in phase ``moon``, the lowest seat
        awaiting its pass in phase ``pass``; ``None`` in phases ``deal`` and ``over``.
        """
        if self._phase == "pass":
            return next(seat for seat, passed in enumerate(self._passed) if passed is None)
        return self.to_move

    @property
    def awaiting_pass(self) -> list[int]:
        """The seats that must still pass this hand, sorted."""
        if self._phase != "pass":
            return []
        return [seat for seat, passed in enumerate(self._passed) if passed is None]

    @property
    def trick(self) -> list[dict[str, Any]]:
        """The trick in progress: ``[{seat, card}]`` in playing order (TRICK-1)."""
        return _trick_cards(self._trick)

    @property
    def tricks_played(self) -> list[dict[str, Any]]:
        """The completed tricks of this hand, oldest first (TRICK-1).

        Each is ``{leader, cards, winner, points}`` with ``cards`` a list of ``{seat, card}``.
        """
        return [_trick_dict(trick) for trick in self._tricks]

    @property
    def hearts_broken(self) -> bool:
        """Whether hearts may be led (PLAY-6)."""
        return self._ruleset.hearts_breaking == "none" or self._broken

    @property
    def count_down(self) -> bool:
        """Whether the hand (the coming one in phase ``deal``) is a count-down hand (MATCH-5)."""
        return self._count_down

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
    def actions(self) -> ActionsView:
        """Every accepted action so far, canonical, as a read-only snapshot (API-3)."""
        self._actions_shared = True
        return ActionsView(self._actions, len(self._actions))

    @property
    def events(self) -> list[dict[str, Any]]:
        """What the last accepted action set off, in order (EVT-1).

        ``[]`` at the start and after :meth:`undo`; a rejected action leaves it unchanged.
        """
        return _fresh(self._events)

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The most recently scored hand (EVT-2), kept after the next deal; ``None`` before."""
        return None if self._last_hand is None else _fresh(self._last_hand)

    @property
    def pass_plan(self) -> dict[str, Any] | None:
        """Who passes to whom this hand (PASS-1, PASS-3), or ``None`` where the hand has no pass.

        ``{"direction", "size", "to", "from"}``: seat ``s`` passes ``size`` cards to ``to[s]``
        and receives those of ``from[s]``.
        """
        direction, passing = self.pass_direction, self._ruleset.passing
        if direction is None or direction == "hold" or passing is None:
            return None
        players = self._ruleset.players
        offset = _DIRECTION_OFFSET[direction]
        return {
            "direction": direction,
            "size": passing["size"],
            "to": [(seat + offset) % players for seat in range(players)],
            "from": [(seat - offset) % players for seat in range(players)],
        }

    @property
    def standing(self) -> dict[str, Any]:
        """How the match ends and where it stands (MATCH-2, MATCH-3, MATCH-5 to MATCH-7).

        ``{"ends", "totals", "over", "lowest", "winners"}``: ``ends`` lists the ways the match
        ends, each an object named by its ``kind``: where the target is set ``{"kind":
        "target", "target"}``, or under ``count_down`` ``{"kind": "count-down", "target",
        "count_down_end", "counting", "reached", "first_hand"}``, where ``reached`` names the
        seats at or past the target when the count-down started and ``first_hand`` its first
        hand; where ``deals`` is set ``{"kind": "deals", "deals"}`` (MATCH-9). ``lowest`` are the
        seats on the lowest total, the winners once the match is over.
        """
        target = self._ruleset.target
        ends: list[dict[str, Any]] = []
        if target is not None and not self._ruleset.count_down:
            ends.append({"kind": "target", "target": target})
        if target is not None and self._ruleset.count_down:
            reached: list[int] = []
            first_hand = None
            if self._count_down:
                # The totals at the start, then after each scored hand: the first at which a
                # total was at or past the target started the count-down (MATCH-5).
                totals = list(self._start_scores)
                rows = [None, *self._hand_scores]
                for index, row in enumerate(rows):
                    if row is not None:
                        totals = [t + s for t, s in zip(totals, row)]
                    reached = [seat for seat, t in enumerate(totals) if t >= target]
                    if reached:
                        first_hand = self._start_hand + index
                        break
            ends.append(
                {
                    "kind": "count-down",
                    "target": target,
                    "count_down_end": self._ruleset.count_down_end,
                    "counting": self._count_down,
                    "reached": reached,
                    "first_hand": first_hand,
                }
            )
        if self._ruleset.deals is not None:
            ends.append({"kind": "deals", "deals": self._ruleset.deals})
        lowest = min(self._scores)
        leaders = [seat for seat, total in enumerate(self._scores) if total == lowest]
        over = self._phase == "over"
        return {
            "ends": ends,
            "totals": list(self._scores),
            "over": over,
            "lowest": leaders,
            "winners": leaders if over else [],
        }

    def breach(self, card: str) -> dict[str, str] | None:
        """Why the seat to move may not play ``card`` now, or ``None`` where it may (or outside phase ``play``).

        ``{"code", "rule", "message"}``: the error code the play would raise, the clause of
        game.md that refuses it (PLAY-3 for a card not held, else the rule of PLAY-8's
        cascade it breaks) and the error's message.

        :raises InvalidInputError: ``invalid-card`` if ``card`` is not a card.
        """
        card_number = parse_card_id(card)
        if self._phase != "play":
            return None
        seat = self._to_move
        assert seat is not None  # phase play always has a seat to move
        refused = self._play_error(seat, card_number)
        if refused is None:
            return None
        code, message = refused
        return {"code": code, "rule": _BREACH_RULES[code], "message": str(_illegal(code, message))}

    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` holds, sorted (selected cards included, ACT-2).

        :raises InvalidInputError: ``invalid-action`` if there is no such seat.
        """
        return names_of(self._hands[self._check_seat(seat)])

    def selected(self, seat: int) -> list[str]:
        """The cards ``seat`` has selected toward its pass (ACT-2), in the order selected.

        :raises InvalidInputError: ``invalid-action`` if there is no such seat.
        """
        return [card_name(card) for card in self._selected[self._check_seat(seat)]]

    def legal_plays(self) -> list[str]:
        """The cards the seat to move may play, sorted; ``[]`` outside phase ``play`` (PLAY-8)."""
        if self._phase != "play" or self._to_move is None:
            return []
        return names_in(self._legal_card_mask(self._to_move))

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal action ids of ``seat`` (by default :attr:`to_act`), ascending (ACT-3).

        In phase ``play`` the ids of its legal cards if it is to move; in phase ``pass``
        ``52 + c`` for every card ``c`` it holds more times than it has selected it, while it
        awaits its pass; in phase ``moon`` 104 and 105 for the taker; otherwise none.

        :raises InvalidInputError: ``invalid-action`` if there is no such seat.
        """
        return list(ids_in(self.legal_mask(seat)))

    def legal_mask(self, seat: int | None = None) -> int:
        """:meth:`legal_actions` as a bit mask: bit ``i`` set for legal id ``i``.

        :raises InvalidInputError: ``invalid-action`` if there is no such seat.
        """
        if seat is None:
            seat = self.to_act
            if seat is None:
                return 0
        seat = self._check_seat(seat)
        if self._phase == "play":
            return self._legal_card_mask(seat) if seat == self._to_move else 0
        if self._phase == "pass":
            if self._passed[seat] is not None:
                return 0
            held, selected = copies(self._hands[seat]), copies(self._selected[seat])
            return mask_of(card for card in held if held[card] > selected[card]) << SELECT_BASE
        if self._phase == "moon":
            return 0b11 << MOON_ADD if seat == self._moon_taker else 0
        return 0

    # ----------------------------------------------------------------------- actions

    def apply(self, action: dict[str, Any]) -> None:
        """Apply an action of ACT-1, or raise and change nothing.

        :raises InvalidInputError: if the action is malformed (ERR-2).
        :raises IllegalActionError: if the rules forbid it now (ERR-3), by ERR-4's order.
        """
        kind, fields = parse_action(action, self._ruleset.players)
        self._check_phase(kind)
        if kind == "deal":
            hands = self._check_deal(fields["hands"])
            self._accept(entry_of(kind, fields))
            self._do_deal(hands)
        elif kind == "pass":
            seat, cards = fields["seat"], fields["cards"]
            self._check_pass(seat, cards)
            self._accept(entry_of(kind, fields))
            self._do_pass(seat, cards_of(cards))
        elif kind == "play":
            seat, card = fields["seat"], fields["card"]
            if seat != self._to_move:
                raise _illegal(
                    "wrong-seat", f"seat {seat} played {card_name(card)} but seat {self._to_move} is to move"
                )
            error = self._play_error(seat, card)
            if error is not None:
                raise _illegal(*error)
            self._accept(entry_of(kind, fields))
            self._do_play(seat, card)
        else:
            seat, choice = fields["seat"], fields["choice"]
            if seat != self._moon_taker:
                raise _illegal("not-moon-taker", f"seat {seat} cannot choose: seat {self._moon_taker} took the moon")
            self._accept(entry_of(kind, fields))
            self._score_hand(choice)

    def apply_action(self, action_id: int, seat: int | None = None) -> None:
        """Apply action id ``action_id`` (ACT-2) for ``seat``, by default :attr:`to_act`.

        A play or moon id is the ACT-1 action of that decision and is rejected exactly as it
        would be; a selection ``52 + c`` is checked when it is made (ACT-2) and, the one that
        reaches ``passing.size`` cards, applies and records the seat's pass.

        :raises InvalidInputError: ``invalid-action`` for an id outside 0 … 105, a seat not of
            the table, or a default seat where there is none (ACT-3).
        :raises IllegalActionError: as the ACT-1 action would be (ERR-4).
        """
        number = as_integer(action_id)
        if number is None or not 0 <= number < NUM_ACTIONS:
            raise _invalid(
                "invalid-action", f"an action id is an integer from 0 to {NUM_ACTIONS - 1}, not {shown(action_id)}"
            )
        action_id = number
        if seat is None:
            # ACT-3: in phases deal and over the phase's own error comes first.
            if self._phase == "over":
                raise _illegal("match-over", f"the match is over; no action {action_id} is possible")
            if self._phase == "deal":
                raise _illegal("wrong-phase", f"action {action_id} is not possible in phase 'deal'")
            seat = self.to_act
            if seat is None:
                raise _invalid("invalid-action", f"no seat acts by default in phase {shown(self._phase)}")
        seat = self._check_seat(seat)
        if action_id < SELECT_BASE:
            self.apply({"type": "play", "seat": seat, "card": card_name(action_id)})
        elif action_id < MOON_ADD:
            self._select(seat, action_id - SELECT_BASE)
        else:
            self.apply({"type": "moon", "seat": seat, "choice": MOON_CHOICES[action_id - MOON_ADD]})

    def deal(self, hands: list[list[str]] | None = None) -> None:
        """Deal ``hands`` (one list per seat, seat 0 first): :meth:`apply` a ``deal``.

        Without hands, the game is asked to deal from a seed: a game in phase ``deal`` is
        always unseeded (DEAL-3), so that is ``no-seed`` once the phase is right.

        :raises InvalidInputError: ``invalid-deal``, or ``no-seed`` without hands.
        :raises IllegalActionError: outside phase ``deal`` (``match-over``,
            ``moon-choice-pending``, ``wrong-phase``).
        """
        if hands is not None:
            self.apply({"type": "deal", "hands": hands})
            return
        self._check_phase("deal")
        raise _invalid("no-seed", "this game has no seed to deal from; give the hands")

    def pass_cards(self, cards: list[str], seat: int | None = None) -> None:
        """Submit ``seat``'s pass (PASS-2), by default :attr:`to_act`'s; see :meth:`apply`.

        An accepted pass replaces the seat's selection (ACT-2).
        """
        if seat is None:
            # ERR-4: the cards' form before the phase, as apply checks it.
            if not isinstance(cards, (list, tuple)):
                raise _invalid("invalid-action", f"a pass's 'cards' must be an array, not {shown(cards)}")
            problem = json_problem(cards)
            if problem is not None:
                raise _invalid("invalid-action", f"a pass's cards are not JSON data: {problem}")
            for card in cards:
                parse_card_id(card)
            self._check_phase("pass")
            seat = self.to_act
        self.apply({"type": "pass", "seat": seat, "cards": cards})

    def play(self, card: str, seat: int | None = None) -> None:
        """Play ``card`` for ``seat``, by default the seat to move; see :meth:`apply`."""
        if seat is None:
            parse_card_id(card)  # ERR-4, ERR-6: the card's form before the phase
            self._check_phase("play")
            seat = self._to_move
        self.apply({"type": "play", "seat": seat, "card": card})

    def choose_moon(self, choice: str, seat: int | None = None) -> None:
        """Choose how the moon scores (SCORE-3) for ``seat``, by default the taker.

        See :meth:`apply`.
        """
        if seat is None:
            if not isinstance(choice, str) or choice not in MOON_CHOICES:  # ERR-4: the shape first
                raise _invalid("invalid-action", f"a moon choice is {' or '.join(MOON_CHOICES)}, not {shown(choice)}")
            self._check_phase("moon")
            seat = self._moon_taker
        self.apply({"type": "moon", "seat": seat, "choice": choice})

    def undo(self) -> None:
        """Take back the last accepted action with everything it set off (API-8).

        That is the completion of a trick, the exchange of the passes, the scoring of a hand,
        the end of the match and the next deal from the seed; a single selection (ACT-2) is
        taken back on its own. The game is then equal to what it was before, with the same
        ``actions`` and ``hand_scores``, and ``events`` is ``[]``.

        :raises IllegalActionError: ``nothing-to-undo`` at the game's start.
        """
        if not self._undo:
            raise _illegal("nothing-to-undo", "there is no accepted action left to take back")
        _, snapshot = self._undo.pop()
        self._restore(snapshot[:-3])
        actions, hand_scores, self._last_hand = snapshot[-3:]
        if self._actions_shared:  # a view holds this list: leave it as it is
            self._actions = self._actions[:actions]
            self._actions_shared = False
        else:
            del self._actions[actions:]
        del self._hand_scores[hand_scores:]
        self._events = []

    def perft(self, depth: int, unit: str = "decisions") -> int:
        """Perft (PERFT-2, PERFT-3): the legal sequences of ``depth`` decisions from here.

        With ``unit="tricks"``, the sequences of decisions until ``depth`` more tricks are complete.

        :raises InvalidInputError: ``invalid-setup`` for a depth or unit outside PERFT-5's.
        :raises IllegalActionError: ``wrong-phase`` in phase ``deal``, ``match-over`` in phase ``over``.
        """
        return perft.perft(self, depth, unit)

    def divide(self, depth: int, unit: str = "decisions") -> dict[str, int]:
        """Divide (PERFT-4): for each decision of the acting seat, by its key, the sequences that begin with it.

        Those of the sequences :meth:`perft` counts, in the order of the decisions.

        :raises InvalidInputError: as :meth:`perft`, and ``invalid-setup`` for a depth of 0.
        :raises IllegalActionError: as :meth:`perft`.
        """
        return perft.divide(self, depth, unit)

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
            "hand": names_of(self._hands[seat]),
            "passed": None if passed is None else names_of(passed),
            "selected": self.selected(seat),
            "received": None if received is None else names_of(received),
            "tricks": self.tricks_played,
            "trick": self.trick,
            "hearts_broken": self.hearts_broken,
            "count_down": self._count_down,
            "voids": self._void_letters(),
            "points": list(self._points),
            "scores": list(self._scores),
            "legal": self.legal_plays() if self.to_move == seat and self._phase == "play" else [],
            "moon_taker": self.moon_taker,
        }

    def state(self) -> dict[str, Any]:
        """The position as JSON data, without the history (API-9); equal games give equal states."""
        players = range(self._ruleset.players)
        return {
            "ruleset": self._ruleset.to_json(),
            "seed": self._seed,
            "seed_deals": self._seed_deals,
            "phase": self._phase,
            "hand_number": self._hand_number,
            "to_move": self.to_move,
            "moon_taker": self.moon_taker,
            "winners": list(self._winners),
            "hands": [names_of(hand) for hand in self._hands],
            "selected": [self.selected(seat) for seat in players],
            "passed": [None if p is None else names_of(p) for p in self._passed],
            "received": [None if r is None else names_of(r) for r in self._received],
            "trick": self.trick,
            "tricks": self.tricks_played,
            "hearts_broken": self.hearts_broken,
            "count_down": self._count_down,
            "voids": self._void_letters(),
            "points": list(self._points),
            "scores": list(self._scores),
        }

    def to_record(self) -> dict[str, Any]:
        """The game record of REC-1, from which :meth:`from_record` rebuilds this game."""
        return {
            "format": "reversis-record",
            "version": 1,
            "ruleset": self._ruleset.to_json(),
            "seed": self._seed,
            "start": {"hand_number": self._start_hand, "scores": list(self._start_scores)},
            "actions": [action_dict(entry) for entry in self._actions],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from its record by replaying it (REC-2), as an instance of ``cls``.

        A seeded record replays on a seeded game, whose deals are made by the seed: each
        recorded deal must be what the seed dealt and is not applied on its own, so the
        rebuilt game undoes exactly as the original (API-8). An unseeded record's deals are
        applied as written.

        :raises InvalidInputError: ``invalid-record`` if the record is malformed, an action is
            rejected on replay, or a deal differs from what the seed deals.
        """
        ruleset, seed, hand_number, scores, actions = check_record(record)
        game = cls(ruleset, seed, hand_number=hand_number, scores=scores)
        game._replay(actions)
        return game

    def _replay(self, actions: list[Any]) -> None:
        """REC-2: apply a checked record's actions in order to this game, as it was built."""
        game, ruleset, seed = self, self._ruleset, self._seed
        for index, action in enumerate(actions):
            if index < len(game._actions):
                # REC-2: a seeded game has made this deal itself; the record must agree.
                try:
                    entry = entry_of(*parse_action(action, ruleset.players))
                except ReversisError:
                    entry = None
                if entry != game._actions[index]:
                    raise _invalid(
                        "invalid-record", f"action {index} {shown(action)} is not the deal seed {seed} makes here"
                    )
                continue
            try:
                game.apply(action)
            except ReversisError as error:
                raise _invalid(
                    "invalid-record", f"action {index} {shown(action)} is rejected: {error.code}: {error}"
                ) from None

    def copy(self) -> Game:
        """An independent copy of this game, undo history included, of the same class (API-3)."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._rng = None if self._rng is None else SplitMix64(self._rng.state)
        new._restore(self._position())
        new._actions = list(self._actions)
        new._actions_shared = False
        new._hand_scores = list(self._hand_scores)
        new._undo = list(self._undo)
        return new

    def __copy__(self) -> Game:
        """:meth:`copy`: a game shares no state with its copy."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """:meth:`copy`: its parts are immutable or copied already."""
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the record and the pending selections, replayed on unpickling (API-3).

        The unpickled game undoes as :meth:`from_record`'s does (API-8): a pass built by
        selections is taken back whole, as the ``pass`` the record holds.
        """
        return (_unpickle_game, (type(self), self.to_record(), self._pending_selections()))

    def _pending_selections(self) -> list[tuple[int, int]]:
        """The selections still pending (what a record does not hold), oldest first.

        The newest selection inputs on the undo stack made them: each put its card at the
        place the seat's selection had then, and is pending if that card is still there.
        """
        left = sum(len(selection) for selection in self._selected)
        pending: list[tuple[int, int]] = []
        for accepted, snapshot in reversed(self._undo):
            if not left:
                break
            if accepted[0] == "select":
                _, seat, card = accepted
                place = len(snapshot[_SELECTED][seat])
                if place < len(self._selected[seat]) and self._selected[seat][place] == card:
                    pending.append((seat, card))
                    left -= 1
        pending.reverse()
        return pending

    def __eq__(self, other: object) -> bool:
        """Equal to another game of this engine exactly when their :meth:`state` are (API-3)."""
        if not isinstance(other, Game):
            return NotImplemented
        return self.state() == other.state()

    def __hash__(self) -> int:
        """The hash of the canonical JSON text of :meth:`state` (API-3)."""
        return hash(json.dumps(self.state(), sort_keys=True, separators=(",", ":"), ensure_ascii=False))

    def __repr__(self) -> str:
        """A short description of the match."""
        return (
            f"<Game {self._ruleset.name} hand {self._hand_number} phase {self._phase} "
            f"scores {self._scores} seed {self._seed}>"
        )

    # ------------------------------------------------------------- internals: checks

    def _check_seat(self, seat: Any) -> int:
        number = as_integer(seat)
        if number is None or not 0 <= number < self._ruleset.players:
            raise _invalid("invalid-action", f"no seat {shown(seat)} at a table of {self._ruleset.players}")
        return number

    def _check_phase(self, kind: str) -> None:
        """ERR-4: ``match-over``, then ``moon-choice-pending``, then ``wrong-phase``."""
        if self._phase == "over":
            raise _illegal("match-over", f"the match is over; no {kind} is possible")
        if self._phase == "moon" and kind != "moon":
            raise _illegal("moon-choice-pending", f"seat {self._moon_taker} must choose how its moon scores first")
        if self._phase != kind:
            raise _illegal("wrong-phase", f"a {kind} is not possible in phase {shown(self._phase)}")

    def _check_deal(self, hands: list[list[int]]) -> list[Cards]:
        """DEAL-1: each hand ``hand_size`` cards of the deck, no card more times than the deck holds it."""
        ruleset = self._ruleset
        if len(hands) != ruleset.players:
            raise _invalid("invalid-deal", f"a deal needs {ruleset.players} hands, not {len(hands)}")
        dealt: list[Cards] = []
        seen: dict[int, int] = {}  # how many copies of each card the hands so far hold
        for seat, hand in enumerate(hands):
            if len(hand) != ruleset.hand_size:
                raise _invalid("invalid-deal", f"seat {seat} is dealt {len(hand)} cards, not {ruleset.hand_size}")
            for card in hand:
                if not ruleset._deck_mask >> card & 1:
                    raise _invalid("invalid-deal", f"{card_name(card)} is not in the {ruleset.name} deck")
                seen[card] = seen.get(card, 0) + 1
                if seen[card] > ruleset._copies[card]:
                    held = ruleset._copies[card]
                    times = "once" if held == 1 else f"{held} times"
                    raise _invalid(
                        "invalid-deal", f"{card_name(card)} is dealt {seen[card]} times; the deck holds it {times}"
                    )
            dealt.append(cards_of(hand))
        return dealt

    def _check_awaiting(self, seat: int) -> None:
        if self._passed[seat] is not None:
            raise _illegal("already-passed", f"seat {seat} has already passed this hand")

    def _check_pass(self, seat: int, cards: list[int]) -> None:
        """PASS-2 in ERR-4's order: ``wrong-pass-size``, ``duplicate-card``, ``card-not-held``.

        A card is named too often (``duplicate-card``) where the seat holds it but fewer times
        than it is named, or where it is named more times than the deck has packs (with one
        pack, any card named twice, held or not, as in 1.1); a card the seat does not hold at
        all, named no more times than there are packs, is ``card-not-held``.
        """
        size = self._ruleset._pass_size
        self._check_awaiting(seat)
        if len(cards) != size:
            raise _illegal("wrong-pass-size", f"seat {seat} must pass {size} cards, not {len(cards)}")
        named, held = copies(cards), copies(self._hands[seat])
        for card in sorted(named):
            if named[card] > self._ruleset._packs or 0 < held[card] < named[card]:
                raise _illegal(
                    "duplicate-card",
                    f"seat {seat} names {card_name(card)} {named[card]} times but holds it {held[card]} times",
                )
        for card in cards:
            if not held[card]:
                raise _illegal("card-not-held", f"seat {seat} does not hold {card_name(card)}")

    def _play_error(self, seat: int, card: int) -> tuple[str, str] | None:
        """The first rule of PLAY-8's cascade that playing ``card`` breaks, or ``None``."""
        return play_error(
            self._ruleset,
            seat,
            card,
            mask_of(self._hands[seat]),
            trick=self._trick,
            first_trick=not self._tricks,
            hearts_broken=self.hearts_broken,
        )

    def _legal_card_mask(self, seat: int) -> int:
        return mask_of(card for card in set(self._hands[seat]) if self._play_error(seat, card) is None)

    def _void_letters(self) -> list[list[str]]:
        """OBS-1 ``voids``: each seat's revealed missing suits, as letters in ``C D H S`` order."""
        return [[SUITS[suit] for suit in range(4) if voids >> suit & 1] for voids in self._voids]

    # ---------------------------------------------------------- internals: undo

    def _position(self) -> tuple[Any, ...]:
        """The position (everything :meth:`state` shows, and the generator), immutable."""
        return (
            self._phase,
            self._hand_number,
            tuple(self._scores),
            tuple(self._winners),
            tuple(self._hands),
            tuple(tuple(selection) for selection in self._selected),
            tuple(self._passed),
            tuple(self._received),
            tuple(self._trick),
            tuple(self._tricks),
            self._to_move,
            self._broken,
            tuple(self._voids),
            tuple(self._points),
            tuple(self._captured),
            self._moon_taker,
            None if self._rng is None else self._rng.state,
            self._seed_deals,
            self._count_down,
        )

    def _restore(self, position: tuple[Any, ...]) -> None:
        """Set the position from :meth:`_position`'s tuple, in fresh lists."""
        (
            self._phase,
            self._hand_number,
            scores,
            winners,
            hands,
            selected,
            passed,
            received,
            trick,
            tricks,
            self._to_move,
            self._broken,
            voids,
            points,
            captured,
            self._moon_taker,
            rng_state,
            self._seed_deals,
            self._count_down,
        ) = position
        self._scores, self._winners, self._hands = list(scores), list(winners), list(hands)
        self._selected = [list(selection) for selection in selected]
        self._passed, self._received = list(passed), list(received)
        self._trick, self._tricks = list(trick), list(tricks)
        self._voids, self._points, self._captured = list(voids), list(points), list(captured)
        if self._rng is not None:
            self._rng.state = rng_state

    def _accept(self, accepted: Input) -> None:
        """An input has passed every check: save the undo snapshot and start its events.

        An action is recorded here; a selection is recorded as the pass it completes.
        """
        if self._keep_undo:
            history = (len(self._actions), len(self._hand_scores), self._last_hand)
            self._undo.append((accepted, self._position() + history))
        self._events = []
        if accepted[0] != "select":
            self._actions.append(accepted)

    # ---------------------------------------------------------- internals: transitions

    def _select(self, seat: int, card: int) -> None:
        """ACT-2: select ``card`` toward ``seat``'s pass; the last selection makes the pass."""
        self._check_phase("pass")
        self._check_awaiting(seat)
        # ACT-2: a card may be selected as many times as the seat holds it (once with one pack).
        selected, held = self._selected[seat].count(card), self._hands[seat].count(card)
        if selected and selected >= held:
            raise _illegal(
                "duplicate-card", f"seat {seat} has already selected {card_name(card)} as often as it holds it"
            )
        if not held:
            raise _illegal("card-not-held", f"seat {seat} does not hold {card_name(card)}")
        self._accept(("select", seat, card))
        self._selected[seat].append(card)
        if len(self._selected[seat]) == self._ruleset._pass_size:
            cards = cards_of(self._selected[seat])
            self._actions.append(("pass", seat, tuple(names_of(cards))))
            self._do_pass(seat, cards)

    def _reset_hand(self) -> None:
        """The empty hand of the state between hands (game.md, D-5)."""
        players = self._ruleset.players
        self._hands = [() for _ in range(players)]
        self._selected = [[] for _ in range(players)]
        self._passed = [None] * players
        self._received = [None] * players
        self._trick = []
        self._tricks = []
        self._to_move = None
        self._broken = False
        self._voids = [0] * players
        self._points = [0] * players
        self._captured = [() for _ in range(players)]
        self._moon_taker = None

    def _deal_from_seed(self) -> None:
        """DEAL-3, SEED-5: the next deal of the seed's one generator."""
        assert self._rng is not None
        hands = deal_hands(self._ruleset, self._rng, self.dealer)
        self._seed_deals += 1
        self._actions.append(("deal", tuple(tuple(names_of(hand)) for hand in hands)))
        self._do_deal(hands)

    def _do_deal(self, hands: list[Cards]) -> None:
        """Start the hand: passing, or straight to play where the hand has none (PASS-1)."""
        self._reset_hand()
        self._hands = list(hands)
        self._events.append({"type": "deal", "hand_number": self._hand_number, "dealer": self.dealer})
        if self.pass_direction in (None, "hold"):
            self._start_play()
        else:
            self._phase = "pass"

    def _do_pass(self, seat: int, cards: Cards) -> None:
        """PASS-3: the cards leave the hand at once; the last pass makes the exchange."""
        self._hands[seat] = without(self._hands[seat], cards)
        self._passed[seat] = cards
        self._selected[seat] = []  # ACT-2: an accepted pass replaces the selection
        if all(passed is not None for passed in self._passed):
            self._exchange()

    def _exchange(self) -> None:
        direction = self.pass_direction
        assert direction is not None
        players = self._ruleset.players
        offset = _DIRECTION_OFFSET[direction]
        received: list[Cards | None] = [() for _ in range(players)]
        for seat, cards in enumerate(self._passed):
            assert cards is not None
            receiver = (seat + offset) % players
            received[receiver] = cards
            self._hands[receiver] = with_cards(self._hands[receiver], cards)
        self._received = received
        self._events.append({"type": "exchange", "direction": direction})
        self._start_play()

    def _start_play(self) -> None:
        """PLAY-1, PLAY-2: who leads the first trick."""
        ruleset = self._ruleset
        self._phase = "play"
        if ruleset._opening_id is None:
            self._to_move = (self.dealer + 1) % ruleset.players
        else:
            # RS-13: the deck holds one copy of the opening card, so one seat holds it.
            self._to_move = next(s for s, hand in enumerate(self._hands) if ruleset._opening_id in hand)

    def _do_play(self, seat: int, card: int) -> None:
        ruleset = self._ruleset
        self._hands[seat] = without(self._hands[seat], (card,))
        if self._trick:
            led_suit = suit_of(self._trick[0][1])
            if suit_of(card) != led_suit:
                self._voids[seat] |= 1 << led_suit
        self._trick.append((seat, card))
        if ruleset._breaks_hearts(card):
            self._broken = True
        if len(self._trick) < ruleset.players:
            self._to_move = (seat + 1) % ruleset.players
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        """PLAY-7, PLAY-9: who wins the trick, if anyone; SCORE-1: the winner takes its points.

        A trick that nobody wins is held over: it stays in the tricks with no winner and 0
        points, its leader leads again, and the next trick won takes its cards and points.
        """
        ruleset = self._ruleset
        leader = self._trick[0][0]
        winner = self._trick_winner(self._trick, last=len(self._tricks) == ruleset.hand_size - 1)
        if winner is None:
            trick: Trick = (leader, tuple(self._trick), None, 0)
            self._to_move = leader  # PLAY-9: the seat that led the held-over trick leads again
        else:
            # PLAY-9: the winner captures every trick held over before this one with its own.
            cards = [card for _, card in self._trick]
            for held_over in self._held_over():
                cards.extend(card for _, card in held_over[1])
            points = ruleset._points_of(cards)
            trick = (leader, tuple(self._trick), winner, points)
            self._captured[winner] = with_cards(self._captured[winner], cards)
            self._points[winner] += points
            self._to_move = winner
        self._tricks.append(trick)
        self._events.append({"type": "trick", **_trick_dict(trick)})
        self._trick = []
        if len(self._tricks) == ruleset.hand_size:
            self._finish_hand()

    def _trick_winner(self, plays: list[tuple[int, int]], *, last: bool) -> int | None:
        """The seat that wins a complete trick, or ``None`` where it is held over (PLAY-7, PLAY-9)."""
        ruleset = self._ruleset
        led_suit = suit_of(plays[0][1])
        following = [(seat, card) for seat, card in plays if suit_of(card) == led_suit]
        if ruleset._cancellation is not None:
            # PLAY-9: identical cards cancel; only a card played once in the trick can win.
            played = copies(card for _, card in plays)
            following = [(seat, card) for seat, card in following if played[card] == 1]
            if not following:
                if not last:
                    return None
                if ruleset._cancellation == "leader":
                    return plays[0][0]
                # later-highest: the seat that played the later copy of the highest card of the suit led.
                highest = max(card for _, card in plays if suit_of(card) == led_suit)
                return [seat for seat, card in plays if card == highest][-1]
        # PLAY-7: the highest card of the suit led; of two identical cards the first played
        # ranks higher (D-15), so a later copy never beats an earlier one.
        winner, best = following[0]
        for seat, card in following[1:]:
            if card > best:
                winner, best = seat, card
        return winner

    def _held_over(self) -> list[Trick]:
        """The tricks held over (PLAY-9) that no trick won since has captured: the last run without a winner."""
        held: list[Trick] = []
        for trick in reversed(self._tricks):
            if trick[2] is not None:
                break
            held.append(trick)
        held.reverse()
        return held

    def _finish_hand(self) -> None:
        """SCORE-2, SCORE-3, SCORE-5, SCORE-6: a sun or a moon, and under ``taker-choice`` the taker's choice first."""
        ruleset = self._ruleset
        self._to_move = None
        if not self._count_down:  # MATCH-6: neither a moon nor a sun in a count-down hand
            dealt = len(ruleset._deck)
            # SCORE-5: a seat that captured every trick, so every card, shoots the sun, which
            # takes precedence over the moon it has shot as well.
            sun_taker = next((seat for seat, captured in enumerate(self._captured) if len(captured) == dealt), None)
            if ruleset._sun_scoring is not None and sun_taker is not None:
                self._moon_taker = sun_taker
            elif ruleset._moon_scoring is not None:
                # SCORE-2, SCORE-6: every copy of every card the moon needs (D-18, D-21).
                for seat, captured in enumerate(self._captured):
                    if cards_of(card for card in captured if ruleset._need_mask >> card & 1) == ruleset._need_copies:
                        self._moon_taker = seat
        shot = self._shot()
        if shot is not None and shot[0] == "taker-choice":
            self._phase = "moon"
            return
        self._score_hand(None if shot is None else shot[0])

    def _shot(self) -> tuple[str, int] | None:
        """The ``scoring`` and ``bonus`` of the hand's sun (SCORE-5) or moon (SCORE-2), or ``None``.

        Derived from the captured cards rather than kept, so that undo and replay restore it
        with them: the taker shot the sun where the ruleset has one and it took every card.
        """
        if self._moon_taker is None:
            return None
        ruleset = self._ruleset
        if ruleset._sun_scoring is not None and len(self._captured[self._moon_taker]) == len(ruleset._deck):
            return ruleset._sun_scoring, ruleset._sun_bonus
        assert ruleset._moon_scoring is not None
        return ruleset._moon_scoring, ruleset._moon_bonus

    def _score_hand(self, moon_choice: str | None) -> None:
        """Turn the hand's points into scores (SCORE-1 … SCORE-6) and move on (MATCH-2, MATCH-7, MATCH-9)."""
        ruleset = self._ruleset
        taker = self._moon_taker
        if self._count_down:
            # MATCH-6, MATCH-8: the points come off the totals as count_down_end says; the
            # scores are the change.
            end = ruleset.count_down_end
            hand = [_count_down_total(end, total, points) - total for total, points in zip(self._scores, self._points)]
        elif moon_choice is None:
            hand = list(self._points)
        else:
            # SCORE-2: the positive part is replaced; cards worth less than zero still count.
            negative = [
                ruleset._points_of(captured)
                - ruleset._points_of(card for card in captured if ruleset._point_mask >> card & 1)
                for captured in self._captured
            ]
            # SCORE-5: the sun's bonus where the sun was shot, else the moon's.
            shot = self._shot()
            assert shot is not None
            bonus = shot[1]
            if moon_choice == "add-to-others":
                hand = [neg + (0 if seat == taker else bonus) for seat, neg in enumerate(negative)]
            else:
                hand = [neg - (bonus if seat == taker else 0) for seat, neg in enumerate(negative)]
        scored = {
            "hand_number": self._hand_number,
            "points": list(self._points),
            "moon_taker": taker,
            "moon_choice": moon_choice,
            "scores": hand,
        }
        self._events.append({"type": "hand", **_fresh(scored)})
        self._last_hand = {"hand_number": self._hand_number, "tricks": self.tricks_played, **_fresh(scored)}
        self._hand_scores.append(tuple(hand))
        self._scores = [min(max(total + gained, MIN_I64), MAX_I64) for total, gained in zip(self._scores, hand)]
        if self._count_down:
            over = min(self._scores) <= 0  # MATCH-7, under every count_down_end (MATCH-8)
        elif ruleset.target is not None and max(self._scores) >= ruleset.target:
            over = not ruleset.count_down  # MATCH-2, or MATCH-5's count-down from the next hand
            self._count_down = ruleset.count_down
        else:
            over = False
        # MATCH-9: the number of hands ends the match too, whichever end comes first.
        if ruleset.deals is not None and self._hand_number >= ruleset.deals - 1:
            over = True
        if over:
            self._phase = "over"
            lowest = min(self._scores)
            self._winners = [seat for seat, total in enumerate(self._scores) if total == lowest]
            self._events.append({"type": "over", "winners": list(self._winners)})
            return
        self._hand_number = (self._hand_number + 1) % (_MAX_U64 + 1)
        self._reset_hand()
        self._phase = "deal"
        if self._rng is not None:
            self._deal_from_seed()


def shot_rules(ruleset: Ruleset) -> list[tuple[str, str, int]]:
    """The rules of ``ruleset`` that replace the scores of a hand (SCORE-2, SCORE-5).

    Each is ``(field, scoring, bonus)`` with its field's name (RS-10 ``moon``, RS-23 ``sun``), in
    the order of ruleset.md. The code that bounds or explains scores (vector.py's ``uint8``
    check, API-11) reads these and names no rule of its own.
    """
    rules = [("moon", ruleset._moon_scoring, ruleset._moon_bonus), ("sun", ruleset._sun_scoring, ruleset._sun_bonus)]
    return [(field, scoring, bonus) for field, scoring, bonus in rules if scoring is not None]


def _count_down_total(end: str, total: int, points: int) -> int:
    """MATCH-6, MATCH-8: a total after a count-down hand in which the seat took ``points``."""
    if end == "below-zero":
        return total - points
    if end == "exact-zero" and total >= 0:
        return abs(total - points)  # passing zero bounces back up by the excess
    # stop-at-zero, and exact-zero below zero: not lowered past zero, raised by points below zero.
    return max(total - points, min(total, 0))


def _unpickle_game(cls: type[Game], record: dict[str, Any], pending: list[tuple[int, int]]) -> Game:
    """Rebuild a pickled game of class ``cls``: replay its record, then its pending selections."""
    ruleset, seed, hand_number, scores, actions = check_record(record)
    game = cls.__new__(cls)
    Game.__init__(game, ruleset, seed, hand_number=hand_number, scores=scores)
    game._replay(actions)
    for seat, card in pending:
        game._select(seat, card)
    return game
