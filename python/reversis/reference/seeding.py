"""The portable seeded deal of spec/seeding.md: SplitMix64, Fisher-Yates, deal clockwise."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInputError, shown
from .cards import Cards, cards_of, names_of
from .jsondata import as_integer
from .ruleset import Ruleset, as_ruleset

#: ERR-6: the most deals one ``deal_from_seed`` call returns, and the most draws of ``seed_draws``.
MAX_DEALS = 10_000
MAX_DRAWS = 1_000_000
_MAX_U64 = 2**64 - 1


def check_count(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as an ``int`` if it is an integer (never a bool) in ``low..high``, else ``invalid-setup``."""
    number = as_integer(value)
    if number is None or not low <= number <= high:
        raise InvalidInputError("invalid-setup", f"{what} must be an integer from {low} to {high}, not {shown(value)}")
    return number


_MASK64 = (1 << 64) - 1


class SplitMix64:
    """The generator of SEED-1; its whole state is one 64-bit integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        """Start from ``seed``, an unsigned 64-bit integer."""
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit draw (SEED-1)."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` by rejecting the low, biased draws (SEED-2)."""
        threshold = (1 << 64) % n
        while True:
            x = self.next()
            if x >= threshold:
                return x % n


def seed_draws(seed: int, count: int) -> list[int]:
    """The first ``count`` draws of SEED-1 from ``seed``, for checking a generator (API-5).

    >>> hex(seed_draws(0, 1)[0])
    '0xe220a8397b1dcdaf'
    """
    seed = check_count(seed, "a seed", 0, _MAX_U64)
    count = check_count(count, "a number of draws", 0, MAX_DRAWS)
    rng = SplitMix64(seed)
    return [rng.next() for _ in range(count)]


def shuffled_deck(ruleset: Ruleset, rng: SplitMix64) -> list[int]:
    """The deck in sorted order, shuffled by Fisher-Yates from the top index down (SEED-3).

    With two packs the sorted deck holds both copies of a card side by side (``2C 2C 3C 3C …``).
    """
    cards = list(ruleset._deck)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_hands(ruleset: Ruleset, rng: SplitMix64, dealer: int) -> list[Cards]:
    """One deal as a sorted multiset per seat: card ``k`` goes to seat ``dealer + 1 + k`` (SEED-4)."""
    hands: list[list[int]] = [[] for _ in range(ruleset.players)]
    for position, card in enumerate(shuffled_deck(ruleset, rng)):
        hands[(dealer + 1 + position) % ruleset.players].append(card)
    return [cards_of(hand) for hand in hands]


def deal_from_seed(ruleset: Ruleset, seed: int, deals: int = 1, hand_number: int = 0) -> list[list[list[str]]]:
    """The first ``deals`` deals of a game seeded with ``seed`` that starts at ``hand_number``.

    Each deal is a list of hands, seat 0 first, each hand sorted (API-5, SEED-5). ``ruleset``
    may be either engine's (API-2).

    >>> from .ruleset import preset
    >>> len(deal_from_seed(preset("hearts-4"), 7)[0][0])
    13
    """
    checked = as_ruleset(ruleset)
    if checked is None:
        raise InvalidInputError("invalid-setup", f"a Ruleset is needed, not {shown(ruleset)}")
    ruleset = checked
    seed = check_count(seed, "a seed", 0, _MAX_U64)
    deals = check_count(deals, "a number of deals", 0, MAX_DEALS)
    hand_number = check_count(hand_number, "a hand number", 0, _MAX_U64)
    rng = SplitMix64(seed)
    return [
        [names_of(hand) for hand in deal_hands(ruleset, rng, (hand_number + k) % 2**64 % ruleset.players)]
        for k in range(deals)
    ]
