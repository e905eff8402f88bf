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

from . import _core

__all__ = ["ENCODING_LENGTH", "ENCODING_VERSION", "LAYOUT", "encode_observation"]

#: Changes whenever the layout changes (2 added the ``selected`` block; 3 has 10 seats, card
#: blocks that count copies, and the ``count_down`` and ``held_over`` blocks).
ENCODING_VERSION: int = _core.ENCODING_VERSION
#: Each field of the encoding: (name, offset, length), in order.
LAYOUT: tuple[tuple[str, int, int], ...] = tuple(
    (str(name), int(offset), int(length)) for name, offset, length in _core.ENCODING_LAYOUT
)
#: The number of integers in every encoding, whatever the ruleset.
ENCODING_LENGTH: int = _core.ENCODING_LENGTH


def encode_observation(observation: Any) -> array:
    """The OBS-3 encoding of an observation: ``array('i')`` of :data:`ENCODING_LENGTH` integers.

    ``observation`` is an :class:`~reversis.players.Observation` (its ``data`` is OBS-1 and its
    ``ruleset`` gives the number of players). The Rust core encodes it, with the encoder
    ``VectorEnv`` writes its observations with.

    :raises ReversisError: ``invalid-action`` naming the key of a malformed observation.
    """
    out = array("i")
    out.frombytes(_core.encode_observation_json(observation.data, int(observation.ruleset.players)))
    return out
