"""Actions: the ACT-1 objects, their canonical form, and the integer action ids of ACT-2.

An accepted action is kept as an immutable *entry* (a tuple), and turned back into a fresh
ACT-1 dict whenever it is read:

- ``("deal", ((card, ...), ...))``: the hands, seat 0 first, each sorted (a card once per copy);
- ``("pass", seat, (card, ...))``: the cards, sorted (a card once per copy);
- ``("play", seat, card)``;
- ``("moon", seat, choice)``;

where a card is its canonical string (CARD-3).
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInputError, shown
from .cards import DECK_SIZE, card_name, names_of, parse_card_id
from .jsondata import as_integer, json_problem

#: ACT-2: the size of the action space, the same for every ruleset.
NUM_ACTIONS = 106
#: ACT-2: the first selection id (``52 + c`` selects card ``c``) and the two moon ids.
SELECT_BASE = DECK_SIZE
MOON_ADD, MOON_SUBTRACT = 104, 105
MOON_CHOICES = ("add-to-others", "subtract-from-taker")
#: ACT-1: the keys of each type of action.
ACTION_KEYS = {
    "deal": frozenset({"type", "hands"}),
    "pass": frozenset({"type", "seat", "cards"}),
    "play": frozenset({"type", "seat", "card"}),
    "moon": frozenset({"type", "seat", "choice"}),
}
MAX_U64 = (1 << 64) - 1

#: An accepted action, immutable (see the module's docstring).
Entry = tuple[Any, ...]


def _invalid(message: str) -> InvalidInputError:
    return InvalidInputError("invalid-action", message)


def is_seat_value(seat: Any) -> bool:
    """Whether ``seat`` has the shape of a seat: an integer in 0 … 2**64-1, never a bool (ERR-6)."""
    return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat <= MAX_U64


def parse_action(action: Any, players: int | None) -> tuple[str, dict[str, Any]]:
    """Read an ACT-1 action into its type and fields (cards as ids); nothing here reads a game.

    The checks come in ERR-4's order: the action's shape (type, keys, the types of its values,
    the moon choice), then its cards (``invalid-card``), then its seat against a table of
    ``players`` seats (skipped when ``players`` is ``None``, as for a record's shape).

    :raises InvalidInputError: ``invalid-action`` or ``invalid-card``.
    """
    if not isinstance(action, dict):
        raise _invalid(f"an action must be an object, not {shown(action)}")
    problem = json_problem(action)
    if problem is not None:
        raise _invalid(f"an action is not JSON data: {problem}: {shown(action)}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KEYS:
        raise _invalid(f"unknown action type {shown(kind)}")
    if set(action) != ACTION_KEYS[kind]:
        odd = sorted(set(action) ^ ACTION_KEYS[kind])
        raise _invalid(f"a {kind} action has a missing or unknown key {shown(odd[0])}")
    seat = action.get("seat")
    # ERR-6: a seat outside 0 … 2**64-1 is a fault of the shape, before the cards.
    if "seat" in action and not is_seat_value(seat):
        raise _invalid(f"a seat is a non-negative integer, not {shown(seat)}")
    fields: dict[str, Any] = {}
    if kind == "deal":
        hands = action["hands"]
        if not isinstance(hands, (list, tuple)) or any(not isinstance(hand, (list, tuple)) for hand in hands):
            raise _invalid("a deal's 'hands' must be an array of arrays of cards")
    elif kind == "pass":
        if not isinstance(action["cards"], (list, tuple)):
            raise _invalid(f"a pass's 'cards' must be an array, not {shown(action['cards'])}")
    elif kind == "moon":
        choice = action["choice"]
        if not isinstance(choice, str) or choice not in MOON_CHOICES:
            raise _invalid(f"a moon choice is {' or '.join(MOON_CHOICES)}, not {shown(choice)}")
        fields["choice"] = choice
    # ERR-4: the cards after the shape.
    if kind == "deal":
        fields["hands"] = [[parse_card_id(card) for card in hand] for hand in action["hands"]]
    elif kind == "pass":
        fields["cards"] = [parse_card_id(card) for card in action["cards"]]
    elif kind == "play":
        fields["card"] = parse_card_id(action["card"])
    # ERR-4: the seat against the table after the cards.
    if "seat" in action:
        if players is not None and seat is not None and seat >= players:
            raise _invalid(f"no seat {shown(seat)} at a table of {players}")
        fields["seat"] = seat
    return kind, fields


def action_dict(entry: Entry) -> dict[str, Any]:
    """A fresh ACT-1 dict of an accepted action's entry."""
    kind = entry[0]
    if kind == "deal":
        return {"type": "deal", "hands": [list(hand) for hand in entry[1]]}
    if kind == "pass":
        return {"type": "pass", "seat": entry[1], "cards": list(entry[2])}
    if kind == "play":
        return {"type": "play", "seat": entry[1], "card": entry[2]}
    return {"type": "moon", "seat": entry[1], "choice": entry[2]}


def _check_id(action_id: Any) -> int:
    number = as_integer(action_id)
    if number is None or not 0 <= number < NUM_ACTIONS:
        raise _invalid(f"an action id is an integer from 0 to {NUM_ACTIONS - 1}, not {shown(action_id)}")
    return number


def action_ids(action: dict[str, Any]) -> list[int]:
    """The action ids that, applied in order for the action's seat, do what ``action`` does.

    One id for a ``play`` or a ``moon``, one per card, ascending, for a ``pass`` (API-10).

    >>> action_ids({"type": "pass", "seat": 0, "cards": ["QS", "2C", "AH"]})
    [52, 90, 101]
    >>> action_ids({"type": "moon", "seat": 2, "choice": "subtract-from-taker"})
    [105]

    :raises InvalidInputError: ``invalid-action`` for a malformed action or a ``deal`` (which
        is chance, and has no ids), ``invalid-card`` for a card that is not one.
    """
    kind, fields = parse_action(action, None)
    if kind == "deal":
        raise _invalid("a deal has no action ids: deals are chance, written out (ACT-2)")
    if kind == "play":
        return [fields["card"]]
    if kind == "pass":
        return sorted(SELECT_BASE + card for card in fields["cards"])
    return [MOON_ADD if fields["choice"] == MOON_CHOICES[0] else MOON_SUBTRACT]


def action_from_ids(ids: list[int], seat: int) -> dict[str, Any]:
    """The ACT-1 action of ``seat`` made of ``ids``, the inverse of :func:`action_ids` (API-10).

    ``ids`` is one play id, one moon id, or pass ids, each at most twice (both copies of a card
    of two packs, RS-21).

    >>> action_from_ids([101, 52], 3)
    {'type': 'pass', 'seat': 3, 'cards': ['2C', 'QS']}

    :raises InvalidInputError: ``invalid-action`` for anything else.
    """
    number = as_integer(seat)
    if number is None or not is_seat_value(number):
        raise _invalid(f"a seat is a non-negative integer, not {shown(seat)}")
    seat = number
    if not isinstance(ids, (list, tuple)) or not ids:
        raise _invalid(f"action ids are a non-empty list of integers, not {shown(ids)}")
    checked = [_check_id(action_id) for action_id in ids]
    if all(SELECT_BASE <= action_id < MOON_ADD for action_id in checked):
        if any(checked.count(action_id) > 2 for action_id in checked):
            raise _invalid(f"a pass names each card at most twice, no deck has three copies: {shown(ids)}")
        cards = sorted(action_id - SELECT_BASE for action_id in checked)
        return {"type": "pass", "seat": seat, "cards": [card_name(card) for card in cards]}
    if len(checked) != 1:
        raise _invalid(f"one play id, one moon id, or pass ids, not {shown(ids)}")
    action_id = checked[0]
    if action_id < SELECT_BASE:
        return {"type": "play", "seat": seat, "card": card_name(action_id)}
    return {"type": "moon", "seat": seat, "choice": MOON_CHOICES[action_id - MOON_ADD]}


def action_label(action_id: int) -> str:
    """A name of an action id for people (API-10).

    >>> [action_label(i) for i in (49, 101, 104)]
    ['play QS', 'pass QS', 'moon add-to-others']

    :raises InvalidInputError: ``invalid-action`` for an id outside 0 … 105.
    """
    action_id = _check_id(action_id)
    if action_id < SELECT_BASE:
        return f"play {card_name(action_id)}"
    if action_id < MOON_ADD:
        return f"pass {card_name(action_id - SELECT_BASE)}"
    return f"moon {MOON_CHOICES[action_id - MOON_ADD]}"


def entry_of(kind: str, fields: dict[str, Any]) -> Entry:
    """The canonical entry of a parsed action (ACT-1: cards canonical, sorted in a deal and a pass).

    Cards are kept as a multiset (CARD-2): a card named twice stays twice, for the game to judge.
    """
    if kind == "deal":
        return ("deal", tuple(tuple(names_of(hand)) for hand in fields["hands"]))
    if kind == "pass":
        return ("pass", fields["seat"], tuple(names_of(fields["cards"])))
    if kind == "play":
        return ("play", fields["seat"], card_name(fields["card"]))
    return ("moon", fields["seat"], fields["choice"])
