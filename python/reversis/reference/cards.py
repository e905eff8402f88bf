"""Cards, card ids and card masks (spec/cards.md).

A card is an id ``suit * 13 + rank`` (CARD-2); a set of cards is an int with bit ``id`` set for
each member. With two packs (RS-21) identical cards share their id, and a hand, a pass, a deal or
a trick is a **multiset**: here a sorted tuple of ids holding a card once per copy
(:data:`Cards`); its mask says which cards are present, not how many. Outside this engine cards
travel as canonical strings such as ``"QS"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from ..errors import InvalidInputError, shown

SUITS = "CDHS"
RANKS = "23456789TJQKA"
DECK_SIZE = 52
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
#: A multiset of cards (CARD-2): card ids in sorted order, a card once per copy.
Cards = tuple[int, ...]

#: CARD-6: every character that may stand for a suit, and the suit letter it stands for.
_SUITS_READ = {
    **{letter: letter for letter in SUITS},
    **{letter.lower(): letter for letter in SUITS},
    **{"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"},
}
#: CARD-6: every rank as it may be written (ASCII only, either case, ``10`` for ``T``).
_RANKS_READ = {**{r: r for r in RANKS}, **{r.lower(): r for r in RANKS if r.isalpha()}, "10": "T"}
#: CARD-6: the whitespace ignored around a card, JSON's four characters and no others.
CARD_WHITESPACE = " \t\n\r"


def suit_mask(suit: int) -> int:
    """The mask of all 13 cards of ``suit``."""
    return 0x1FFF << (13 * suit)


def suit_of(card: int) -> int:
    """The suit index of a card id."""
    return card // 13


def rank_of(card: int) -> int:
    """The rank index of a card id (0 is the two, 12 the ace)."""
    return card % 13


def make_card(suit: int, rank: int) -> int:
    """The id of the card of ``suit`` and ``rank`` (CARD-2)."""
    return suit * 13 + rank


def card_name(card: int) -> str:
    """The canonical string of a card id (CARD-3)."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card_id(text: object) -> int:
    """Read a card in any form CARD-4 accepts (exactly the grammar of CARD-6) and return its id.

    :raises InvalidInputError: ``invalid-card`` if ``text`` is not a card.
    """
    if not isinstance(text, str):
        raise InvalidInputError("invalid-card", f"a card must be a string, not {shown(text)}")
    body = text.strip(CARD_WHITESPACE)
    rank, suit = _RANKS_READ.get(body[:-1]), _SUITS_READ.get(body[-1:])
    if rank is None or suit is None:
        raise InvalidInputError("invalid-card", f"not a card: {shown(text)}")
    return make_card(SUITS.index(suit), RANKS.index(rank))


def parse_card(text: object) -> str:
    """Return the canonical string of a card written in any accepted form (API-1).

    >>> parse_card("10♥")
    'TH'

    :raises InvalidInputError: ``invalid-card`` if ``text`` is not a card.
    """
    return card_name(parse_card_id(text))


def card_id(card: object) -> int:
    """The id of CARD-2 for a card written in any accepted form (API-1).

    >>> card_id("QS")
    49

    :raises InvalidInputError: ``invalid-card`` if ``card`` is not a card.
    """
    return parse_card_id(card)


def bit(card: int) -> int:
    """The one-card mask of a card id."""
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def ids_in(mask: int) -> Iterator[int]:
    """The card ids of a mask, ascending (CARD-2's sorted order)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names_in(mask: int) -> list[str]:
    """The canonical strings of a mask's cards, sorted."""
    return [card_name(card) for card in ids_in(mask)]


def count(mask: int) -> int:
    """The number of cards in a mask."""
    return bin(mask).count("1")


def cards_of(cards: Iterable[int]) -> Cards:
    """The multiset of some card ids, sorted (CARD-2: copies adjacent)."""
    return tuple(sorted(cards))


def names_of(cards: Iterable[int]) -> list[str]:
    """The canonical strings of a multiset's cards, sorted, a card once per copy (CARD-2)."""
    return [card_name(card) for card in sorted(cards)]


def without(cards: Cards, taken: Iterable[int]) -> Cards:
    """``cards`` less one copy of each card of ``taken`` (each of which it must hold)."""
    left = list(cards)
    for card in taken:
        left.remove(card)
    return tuple(left)


def with_cards(cards: Cards, added: Iterable[int]) -> Cards:
    """``cards`` with the cards of ``added`` put in, sorted."""
    return cards_of((*cards, *added))


def copies(cards: Iterable[int]) -> Counter[int]:
    """How many copies of each card a multiset holds."""
    return Counter(cards)
