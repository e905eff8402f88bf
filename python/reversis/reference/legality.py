"""The rules of legality (spec/game.md PLAY-1, PLAY-4 … PLAY-8) and the ruleset fields they read.

Each field of a rule of which cards may be led or played is declared once, in
:data:`LEGALITY_FIELDS`, beside the rule that reads it in :func:`play_error`; ``ruleset.py``
reads, checks, defaults and writes every field of the table from its declaration alone.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from .cards import SUITS, card_name, suit_mask, suit_of


class Rules(Protocol):
    """What the rules of legality read of a ruleset.

    ``ruleset.Ruleset`` is one; it imports this module for the field table, so this module names
    no class of it.
    """

    @property
    def _opening_id(self) -> int | None: ...

    @property
    def _hearts_mask(self) -> int: ...

    @property
    def _point_mask(self) -> int: ...

    @property
    def first_trick_ban(self) -> bool:
        """RS-7: no point card on the first trick unless a seat holds nothing else."""
        ...


class LegalityField(NamedTuple):
    """A ruleset field of a rule of legality (spec/ruleset.md)."""

    #: The key of the field in a ruleset object, and the ruleset's attribute.
    name: str
    #: ``bool`` for a boolean, else the names an enumeration may take.
    values: type[bool] | tuple[str, ...]
    #: The value of an optional field left out.
    default: bool | str
    #: RS-19: optional, so that a ruleset may leave it out; the canonical object then holds it
    #: only where it is not the default.
    optional: bool


#: The fields of the rules of legality, in the order of spec/ruleset.md.
LEGALITY_FIELDS = (
    LegalityField("first_trick_ban", bool, default=False, optional=False),  # RS-7, PLAY-5
    LegalityField("hearts_breaking", ("none", "heart", "heart-or-QS"), default="heart", optional=False),  # RS-8
)


def play_error(
    ruleset: Rules,
    seat: int,
    card: int,
    hand: int,
    *,
    trick: list[tuple[int, int]],
    first_trick: bool,
    hearts_broken: bool,
) -> tuple[str, str] | None:
    """The first rule of PLAY-8's cascade that ``seat`` playing ``card`` from ``hand`` breaks.

    ``trick`` is the trick so far as ``(seat, card)`` pairs, ``first_trick`` whether it is the
    hand's first. Returns the error's code and message, or ``None`` for a legal play.
    """
    name = card_name(card)
    if not hand >> card & 1:
        return "card-not-held", f"seat {seat} does not hold {name}"
    if not trick:
        if first_trick and ruleset._opening_id is not None and card != ruleset._opening_id:
            return (
                "must-lead-opening-card",
                f"the first trick must be led with {card_name(ruleset._opening_id)}, not {name}",
            )
        if first_trick and ruleset._opening_id is not None:
            # PLAY-8: the cascade never empties the legal set, so an opening card that is
            # a heart is led even while hearts are unbroken (PLAY-1 before PLAY-6).
            return None
        hearts = ruleset._hearts_mask
        if not hearts_broken and hearts >> card & 1 and hand & ~hearts:
            return (
                "hearts-not-broken",
                f"{name} cannot be led: hearts are not broken and seat {seat} holds other suits",
            )
        return None
    led_suit = suit_of(trick[0][1])
    led = suit_mask(led_suit)
    if hand & led and not led >> card & 1:
        return "must-follow-suit", f"seat {seat} must follow {SUITS[led_suit]} and cannot play {name}"
    if hand & led:
        return None
    points = ruleset._point_mask
    if first_trick and ruleset.first_trick_ban and points >> card & 1 and hand & ~points:
        return "points-on-first-trick", f"{name} is a point card and cannot be discarded on the first trick"
    return None
