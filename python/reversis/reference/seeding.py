"""The portable seeded deal of spec/seeding.md: SplitMix64, Fisher-Yates, deal clockwise."""

from __future__ import annotations

from .cards import ids_in, names_in
from .ruleset import Ruleset

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
    rng = SplitMix64(seed)
    return [rng.next() for _ in range(count)]


def shuffled_deck(ruleset: Ruleset, rng: SplitMix64) -> list[int]:
    """The deck in sorted order, shuffled by Fisher-Yates from the top index down (SEED-3)."""
    cards = list(ids_in(ruleset.deck_mask))
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_hands(ruleset: Ruleset, rng: SplitMix64, dealer: int) -> list[int]:
    """One deal as a mask per seat: card ``k`` goes to seat ``dealer + 1 + k`` (SEED-4)."""
    hands = [0] * ruleset.players
    for position, card in enumerate(shuffled_deck(ruleset, rng)):
        hands[(dealer + 1 + position) % ruleset.players] |= 1 << card
    return hands


def deal_from_seed(ruleset: Ruleset, seed: int, deals: int = 1, hand_number: int = 0) -> list[list[list[str]]]:
    """The first ``deals`` deals of a game seeded with ``seed`` that starts at ``hand_number``.

    Each deal is a list of hands, seat 0 first, each hand sorted (API-5, SEED-5).

    >>> from .ruleset import preset
    >>> len(deal_from_seed(preset("hearts-4"), 7)[0][0])
    13
    """
    rng = SplitMix64(seed)
    return [
        [names_in(hand) for hand in deal_hands(ruleset, rng, (hand_number + k) % ruleset.players)] for k in range(deals)
    ]
