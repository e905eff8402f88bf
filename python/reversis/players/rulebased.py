"""A rule-based computer player that decides from its observation alone (001 ¶9, ¶10).

The rules follow the advice of 001 ¶9–¶10: pass to make voids and to shed the cards that
would catch the queen (Q♠, K♠, A♠ when short in spades, high hearts, high cards of short
suits) while keeping the low spades that protect; follow under the winning card; dump the
most expensive card when void; lead low cards of safe suits and keep low cards for late in
the hand; stop an opponent who is taking every point card. Every value comes from the
ruleset's ``card_points``, so the same rules serve every preset (Hartenjagen's Q♠ 5 and J♣ 2,
Omnibus's J♦ −10 included).

The player sees only an :class:`~reversis.players.Observation`: its own hand, the cards played,
the public voids, points and scores, and the ruleset.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .base import Observation, Player

__all__ = ["RuleBasedPlayer"]

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def rank_of(card: str) -> int:
    """The rank index of a card: 0 for a 2, 12 for an ace (CARD-1)."""
    return RANKS.index(card[0])


def suit_of(card: str) -> str:
    """The suit letter of a card (CARD-1)."""
    return card[1]


def _card_key(card: str) -> int:
    """The sort key of CARD-2."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


class _View:
    """Facts a player can derive from one observation, computed once per decision."""

    def __init__(self, observation: Observation) -> None:
        self.obs = observation
        self.ruleset = observation.ruleset
        self.points_of: dict[str, int] = dict(self.ruleset.card_points)
        self.players: int = int(self.ruleset.players)
        self.seat = observation.seat
        self.hand = observation.hand
        data = observation.data
        self.trick: list[tuple[int, str]] = [(int(p["seat"]), str(p["card"])) for p in data["trick"]]
        self.tricks: list[dict[str, Any]] = list(data["tricks"])
        played: set[str] = {card for _, card in self.trick}
        #: the cards each seat has captured this hand of those a moon needs (SCORE-2, SCORE-6)
        self.captured: list[list[str]] = [[] for _ in range(self.players)]
        moon = self.ruleset.moon or {}
        needs_all = moon.get("needs") == "every-scoring-card"
        held_over: list[str] = []  # PLAY-9: tricks nobody won go to the next trick's winner
        seen = Counter(self.hand) + Counter(card for _, card in self.trick)
        for trick in self.tricks:
            cards = [str(p["card"]) for p in trick["cards"]]
            played.update(cards)
            seen.update(cards)
            if trick["winner"] is None:
                held_over.extend(cards)
                continue
            cards, held_over = cards + held_over, []
            needed = (c for c in cards if self.points_of.get(c, 0) > 0 or (needs_all and self.points_of.get(c, 0)))
            self.captured[int(trick["winner"])].extend(needed)
        self.played = played
        self.voids: list[list[str]] = [list(v) for v in data["voids"]]
        #: Whether identical cards cancel (RS-22): then a card played twice in a trick cannot win.
        self.cancellation = bool(self.ruleset.to_json().get("cancellation"))
        # Cards passed away are known to be with the receiver, but they are still out. With two
        # packs (RS-21) a card is out while some copy of it is neither held nor played.
        self.outstanding: set[str] = set(Counter(self.ruleset.deck) - seen)

    def points(self, card: str) -> int:
        """The value of a card under the ruleset (0 for a card that does not score)."""
        return self.points_of.get(card, 0)

    def suit_cards(self, cards: Iterable[str], suit: str) -> list[str]:
        """The cards of ``suit`` among ``cards``, lowest first."""
        return sorted((c for c in cards if suit_of(c) == suit), key=rank_of)

    def penalty_cards(self) -> list[str]:
        """Point cards outside hearts worth more than one heart, dearest first (Q♠; J♣ in Hartenjagen)."""
        cards = [c for c, v in self.points_of.items() if v > 1 and suit_of(c) != "H"]
        return sorted(cards, key=lambda c: -self.points_of[c])

    def moon_runner(self) -> int | None:
        """The opponent who has taken every card a moon needs captured so far this hand, if any has been.

        Only once the threat is real: the opponent holds at least a third of the hand's points,
        or half the tricks are gone. Chasing every early heart costs more than the moons it stops.
        """
        if self.ruleset.moon is None:
            return None
        takers = [s for s in range(self.players) if self.captured[s]]
        if len(takers) != 1 or takers[0] == self.seat:
            return None
        runner = takers[0]
        # Every copy counts (RS-21): with two packs the hand holds twice the points.
        total = sum(self.points(c) for c in self.ruleset.deck if self.points(c) > 0)
        taken = sum(max(self.points(c), 0) for c in self.captured[runner])
        if 3 * taken >= total or 2 * len(self.tricks) >= int(self.ruleset.hand_size):
            return runner
        return None


class RuleBasedPlayer(Player):
    """A deterministic player built from the rules of thumb of 001 ¶9–¶10.

    ``seed`` only breaks exact ties between equally rated cards; without one, ties go to the
    lowest card in sorted order, so the player is a pure function of its observation.
    """

    name = "rules"

    def __init__(self, seed: int | None = None) -> None:
        """Break ties with a generator seeded with ``seed``, or by card order without one."""
        self._rng = random.Random(seed) if seed is not None else None

    # ----------------------------------------------------------------------- entry point

    def act(self, observation: Observation) -> dict[str, Any]:
        """The seat's pass, play or moon choice."""
        seat = observation.seat
        if observation.phase == "pass":
            return {"type": "pass", "seat": seat, "cards": self.choose_pass(observation)}
        if observation.phase == "moon":
            return {"type": "moon", "seat": seat, "choice": self.choose_moon(observation)}
        return {"type": "play", "seat": seat, "card": self.choose_play(observation)}

    def _best(self, cards: Iterable[str], key: Any) -> str:
        """The card with the smallest ``key``; exact ties broken by the seed or by card order."""
        ranked = sorted(cards, key=lambda c: (key(c), _card_key(c)))
        best = key(ranked[0])
        tied = [c for c in ranked if key(c) == best]
        if self._rng is not None and len(tied) > 1:
            return self._rng.choice(tied)
        return tied[0]

    # ----------------------------------------------------------------------- passing

    def choose_pass(self, observation: Observation) -> list[str]:
        """The cards to pass: shed the dangerous cards, then empty a short side suit (001 ¶9–¶10)."""
        view = _View(observation)
        size = int(view.ruleset.passing["size"])
        hand = list(view.hand)
        chosen: list[str] = []

        def take(card: str) -> None:
            if card not in chosen and len(chosen) < size:
                chosen.append(card)

        # 1. A penalty card (Q♠) and the cards above it in its suit, when too few low cards protect them.
        for penalty in view.penalty_cards():
            suit = suit_of(penalty)
            mine = view.suit_cards(hand, suit)
            low = [c for c in mine if rank_of(c) < rank_of(penalty)]
            if len(low) < 3:
                for card in sorted(mine, key=rank_of, reverse=True):
                    if rank_of(card) >= rank_of(penalty):
                        take(card)
        # 2. Make a void in the shortest side suit that fits (no low spades: they protect; no hearts).
        protected = {suit_of(p) for p in view.penalty_cards()}
        room = size - len(chosen)
        candidates = []
        for suit in SUITS:
            if suit == "H" or suit in protected:
                continue
            rest = [c for c in view.suit_cards(hand, suit) if c not in chosen]
            if rest and len(rest) <= room and all(view.points(c) >= 0 for c in rest):
                candidates.append((len(rest), -max(rank_of(c) for c in rest), suit, rest))
        if candidates:
            candidates.sort()
            for card in candidates[0][3]:
                take(card)
        # 3. Fill with the most dangerous cards that remain.
        lengths = {suit: len(view.suit_cards(hand, suit)) for suit in SUITS}
        while len(chosen) < size:
            rest = [c for c in hand if c not in chosen]
            chosen.append(self._best(rest, lambda c: -self._pass_danger(view, c, lengths)))
        return sorted(chosen, key=_card_key)

    @staticmethod
    def _pass_danger(view: _View, card: str, lengths: dict[str, int]) -> float:
        """How much a card is worth getting rid of in the pass: higher is passed first."""
        value = view.points(card)
        if value < 0:
            return -100.0  # a card that lowers the score (Omnibus J♦) is kept
        rank = rank_of(card)
        danger = float(rank)
        suit = suit_of(card)
        for penalty in view.penalty_cards():
            if suit == suit_of(penalty) and rank < rank_of(penalty):
                danger -= 20  # low cards under the penalty card protect
        if suit == "H":
            danger += 2 + value
        else:
            danger += max(0, 4 - lengths[suit])  # high cards of short suits
        return danger + value

    # ----------------------------------------------------------------------- moon

    def choose_moon(self, observation: Observation) -> str:
        """The moon choice that leaves this seat lowest relative to the others (SCORE-2, SCORE-3)."""
        view = _View(observation)
        bonus = int(view.ruleset.moon["bonus"])
        points = list(observation.data["points"])
        scores = list(observation.data["scores"])
        positive = sum(v for v in view.points_of.values() if v > 0)
        taker = view.seat
        # The part of each seat's points that the moon does not replace (cards below zero, D-8).
        rest = [min(p, 0) for p in points]
        rest[taker] = points[taker] - positive
        outcomes = {}
        for choice in ("add-to-others", "subtract-from-taker"):
            hand = [r + (bonus if s != taker else 0) for s, r in enumerate(rest)]
            if choice == "subtract-from-taker":
                hand = [r - (bonus if s == taker else 0) for s, r in enumerate(rest)]
            totals = [a + b for a, b in zip(scores, hand)]
            others = [t for s, t in enumerate(totals) if s != taker]
            over = max(totals) >= int(view.ruleset.target)
            relative = totals[taker] - min(others)
            if over:
                # The match ends: winning it beats everything, losing it is worst.
                rank = 0 if relative <= 0 else 2
            else:
                rank = 1
            # Ahead, hasten the end (add to the others); behind, keep the match going (subtract).
            lead = scores[taker] - min(s for i, s in enumerate(scores) if i != taker)
            prefer = (choice == "add-to-others") == (lead <= 0)
            outcomes[choice] = (rank, relative, not prefer)
        return min(outcomes, key=lambda choice: outcomes[choice])

    # ----------------------------------------------------------------------- play

    def choose_play(self, observation: Observation) -> str:
        """The card to play: duck, dump, lead safely, or stop a moon."""
        view = _View(observation)
        legal = list(observation.legal)
        if len(legal) == 1:
            return legal[0]
        if not view.trick:
            return self._lead(view, legal)
        led = suit_of(view.trick[0][1])
        if any(suit_of(c) == led for c in legal):
            return self._follow(view, legal, led)
        return self._discard(view, legal, led)

    def _winner(self, view: _View) -> tuple[int, str]:
        """The seat and card currently winning the trick in progress (PLAY-7)."""
        led = suit_of(view.trick[0][1])
        following = [(s, c) for s, c in view.trick if suit_of(c) == led]
        if view.cancellation:  # PLAY-9: identical cards cancel, if anything of the suit led is left
            twice = Counter(c for _, c in view.trick)
            following = [(s, c) for s, c in following if twice[c] == 1] or following
        # max keeps the first of equal ranks: of two identical cards the first played wins (PLAY-7).
        return max(following, key=lambda sc: rank_of(sc[1]))

    def _follow(self, view: _View, legal: list[str], led: str) -> str:
        """Follow suit: duck under the winning card with the highest card that ducks."""
        _, winning = self._winner(view)
        trick_points = sum(view.points(c) for _, c in view.trick)
        last = len(view.trick) == view.players - 1
        runner = view.moon_runner()
        first_trick = not view.tricks
        outstanding_above = {c for c in view.outstanding if suit_of(c) == led and c not in {x for _, x in view.trick}}

        def wins(card: str) -> bool:
            return rank_of(card) > rank_of(winning)

        if runner is not None:
            # Stop the moon: win a trick that holds a point card, or play high to win the next one.
            takers = [c for c in legal if wins(c) and (trick_points > 0 or view.points(c) > 0 or not last)]
            if takers and (trick_points > 0 or not last):
                return self._best(takers, lambda c: (view.points(c) > 1, -rank_of(c)))
        if last:
            # Exact cost of every card: win only when the trick (with the card) costs nothing.
            return self._best(
                legal,
                lambda c: ((trick_points + view.points(c)) if wins(c) else 0, -rank_of(c)),
            )
        if first_trick and view.ruleset.first_trick_ban and trick_points <= 0:
            # Nobody may throw points on the first trick: shed the highest card for free.
            return self._best(legal, lambda c: (view.points(c), -rank_of(c)))
        ducks = [c for c in legal if not wins(c)]
        if ducks:
            return self._best(ducks, lambda c: -rank_of(c) - 20 * max(view.points(c), 0))
        # Every card wins for now: play the cheapest, lowest one, hoping to be overtaken.
        higher_out = [c for c in outstanding_above if rank_of(c) > rank_of(winning)]
        if not higher_out:
            # Nobody can overtake: take it with the highest card that costs least.
            return self._best(legal, lambda c: (view.points(c), -rank_of(c)))
        return self._best(legal, lambda c: (view.points(c), rank_of(c)))

    def _discard(self, view: _View, legal: list[str], led: str) -> str:
        """Void in the suit led: dump Q♠, then the dearest card, then high cards of dangerous suits."""
        runner = view.moon_runner()
        winner_seat, _ = self._winner(view)
        if runner is not None and winner_seat == runner:
            # Do not feed the runner: keep point cards (a high heart may capture one later).
            safe = [c for c in legal if view.points(c) <= 0]
            if safe:
                return self._best(safe, lambda c: (view.points(c) < 0, -rank_of(c)))
        lengths = {suit: len(view.suit_cards(view.hand, suit)) for suit in SUITS}
        penalties = view.penalty_cards()
        queen_out = [p for p in penalties if p in view.outstanding]

        def key(card: str) -> tuple[int, int, int]:
            value = view.points(card)
            if value < 0:
                return (3, 0, 0)  # keep what lowers the score
            if value > 0:
                return (0, -value, -rank_of(card))  # Q♠ first, then the highest hearts
            suit = suit_of(card)
            if any(suit == suit_of(p) and rank_of(card) > rank_of(p) for p in queen_out):
                return (1, -rank_of(card), 0)  # A♠/K♠ while the queen is out
            return (2, -rank_of(card), lengths[suit])  # high cards, shortest suit first

        return self._best(legal, key)

    def _lead(self, view: _View, legal: list[str]) -> str:
        """Lead: a low card of a safe suit, the highest sure loser first, keeping low cards for later."""
        runner = view.moon_runner()
        if runner is not None:
            hearts = [c for c in legal if suit_of(c) == "H"]
            if hearts:
                return self._best(hearts, lambda c: -rank_of(c))
        opponents_void = {suit for s, suits in enumerate(view.voids) if s != view.seat for suit in suits}
        penalties = view.penalty_cards()

        def key(card: str) -> tuple[float, int]:
            suit = suit_of(card)
            rank = rank_of(card)
            out = [c for c in view.outstanding if suit_of(c) == suit]
            higher = sum(1 for c in out if rank_of(c) > rank)
            lower = len(out) - higher
            value = view.points(card)
            if not out:
                risk = 5.0 + value  # everyone else is void: the lead wins with whatever is dumped
            elif higher == 0:
                risk = 10.0 + 2 * max(value, 0)  # a sure winner
            else:
                risk = lower / (lower + higher)  # rough chance of holding the trick
                risk += max(value, 0) * risk
            if suit in opponents_void:
                risk += 3.0  # a void opponent may dump points on the winner
            for penalty in penalties:
                if suit != suit_of(penalty):
                    continue
                if penalty in view.hand:
                    if rank >= rank_of(penalty):
                        risk += 6.0  # never lead into losing the queen
                    else:
                        risk += 0.5  # keep the spades that protect it
                elif penalty in view.outstanding and rank < rank_of(penalty):
                    risk -= 0.3  # flush the queen out with low spades
            if value < 0:
                risk += 8.0
            # Among sure losers lead the highest, keeping the lowest cards for late in the hand.
            return (round(risk, 6), -rank if lower == 0 and higher > 0 else rank)

        return self._best(legal, key)
