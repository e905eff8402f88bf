"""The compact numeric encoding of an observation for learning code (OBS-3, spec/records.md).

:func:`encode_observation` turns an :class:`~reversis.players.Observation` into a flat
``array.array('i')`` of :data:`ENCODING_LENGTH` integers. It reads only the OBS-1 dict (and the
ruleset's player count), so it can reveal nothing an observation hides (OBS-2). Seats are
encoded relative to the observer: offset ``k`` is seat ``(seat + k) mod players``; offsets at
or above the player count stay zero, so the length is the same for every ruleset. A card block
counts copies (0, 1 or 2 with two packs, CARD-2), except the trick in progress and the legal
cards, which hold 0 or 1.

Layout of version 3 (offsets in integers; a card's slot is its id of CARD-2):

==========  ======  ============================================================
offset      length  content
==========  ======  ============================================================
0           52      own hand: the copies held of each card
52          520     cards played this hand, 10 blocks of 52 by relative seat
572         520     trick in progress, 10 blocks of 52 by relative seat (one-hot)
1092        52      cards this seat passed this hand
1144        52      cards this seat received this hand
1196        40      revealed voids, 10 blocks of 4 (C D H S) by relative seat
1236        10      points captured this hand, by relative seat
1246        10      match totals, by relative seat
1256        5       phase one-hot: deal, pass, play, moon, over
1261        1       hearts broken
1262        11      seat to move one-hot: relative seat 0…9, then 10 for none
1273        5       pass direction one-hot: left, right, across, hold, none
1278        52      legal cards
1330        52      cards this seat has selected toward its pass (ACT-2)
1382        1       count-down hand (MATCH-5)
1383        52      cards of the tricks held over (PLAY-9) that no seat has captured yet
==========  ======  ============================================================
"""

from __future__ import annotations

from array import array
from typing import Any

__all__ = ["ENCODING_LENGTH", "ENCODING_VERSION", "LAYOUT", "encode_observation"]

#: Changes whenever the layout changes (2 added the ``selected`` block; 3 has 10 seats, card
#: blocks that count copies, and the ``count_down`` and ``held_over`` blocks).
ENCODING_VERSION = 3

_CARDS = 52
#: RS-3: the most seats a table has; blocks for relative seats past the table's stay 0.
_SEATS = 10
_PHASES = ("deal", "pass", "play", "moon", "over")
_DIRECTIONS = ("left", "right", "across", "hold")
_SUITS = "CDHS"
_RANKS = "23456789TJQKA"

#: Each field of the encoding: (name, offset, length), in order.
LAYOUT: tuple[tuple[str, int, int], ...] = ()
_sizes = (
    ("hand", _CARDS),
    ("played", _SEATS * _CARDS),
    ("trick", _SEATS * _CARDS),
    ("passed", _CARDS),
    ("received", _CARDS),
    ("voids", _SEATS * 4),
    ("points", _SEATS),
    ("scores", _SEATS),
    ("phase", len(_PHASES)),
    ("hearts_broken", 1),
    ("to_move", _SEATS + 1),
    ("pass_direction", len(_DIRECTIONS) + 1),
    ("legal", _CARDS),
    ("selected", _CARDS),
    ("count_down", 1),
    ("held_over", _CARDS),
)
_offset = 0
for _name, _size in _sizes:
    LAYOUT += ((_name, _offset, _size),)
    _offset += _size
#: The number of integers in every encoding, whatever the ruleset.
ENCODING_LENGTH = _offset
_AT = {name: offset for name, offset, _ in LAYOUT}


def _id(card: str) -> int:
    """The id of a canonical card (CARD-2)."""
    return _SUITS.index(card[1]) * 13 + _RANKS.index(card[0])


def encode_observation(observation: Any) -> array:
    """The OBS-3 encoding of an observation: ``array('i')`` of :data:`ENCODING_LENGTH` integers.

    ``observation`` is an :class:`~reversis.players.Observation` (its ``data`` is OBS-1 and its
    ``ruleset`` gives the number of players).
    """
    data: dict[str, Any] = observation.data
    players = int(observation.ruleset.players)
    seat = int(data["seat"])
    out = array("i", bytes(4 * ENCODING_LENGTH))

    def rel(other: int) -> int:
        return (other - seat) % players

    # Card blocks count copies: a card listed twice (two packs, CARD-2) adds 2.
    for card in data["hand"]:
        out[_AT["hand"] + _id(card)] += 1
    for trick in data["tricks"]:
        for play in trick["cards"]:
            out[_AT["played"] + rel(int(play["seat"])) * _CARDS + _id(play["card"])] += 1
    for play in data["trick"]:
        k = rel(int(play["seat"])) * _CARDS + _id(play["card"])
        out[_AT["played"] + k] += 1
        out[_AT["trick"] + k] = 1
    for card in data["passed"] or []:
        out[_AT["passed"] + _id(card)] += 1
    for card in data["received"] or []:
        out[_AT["received"] + _id(card)] += 1
    for other, suits in enumerate(data["voids"]):
        for suit in suits:
            out[_AT["voids"] + rel(other) * 4 + _SUITS.index(suit)] = 1
    for other, value in enumerate(data["points"]):
        out[_AT["points"] + rel(other)] = int(value)
    for other, value in enumerate(data["scores"]):
        out[_AT["scores"] + rel(other)] = int(value)
    out[_AT["phase"] + _PHASES.index(data["phase"])] = 1
    out[_AT["hearts_broken"]] = 1 if data["hearts_broken"] else 0
    to_move = data["to_move"]
    out[_AT["to_move"] + (_SEATS if to_move is None else rel(int(to_move)))] = 1
    direction = data["pass_direction"]
    out[_AT["pass_direction"] + (len(_DIRECTIONS) if direction is None else _DIRECTIONS.index(direction))] = 1
    for card in data["legal"]:
        out[_AT["legal"] + _id(card)] = 1
    for card in data["selected"]:
        out[_AT["selected"] + _id(card)] += 1
    out[_AT["count_down"]] = 1 if data["count_down"] else 0
    # PLAY-9: the held-over tricks not yet captured are those after the last trick that has a
    # winner (TRICK-1: a held-over trick has the winner null; a won trick captures all before it).
    for trick in _uncaptured(data["tricks"]):
        for play in trick["cards"]:
            out[_AT["held_over"] + _id(play["card"])] += 1
    return out


def _uncaptured(tricks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The completed tricks held over (``winner`` null) since the last trick that was won."""
    held: list[dict[str, Any]] = []
    for trick in tricks:
        held = [*held, trick] if trick["winner"] is None else []
    return held
