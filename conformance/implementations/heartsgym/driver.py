"""heartsgym 0.43 (the package ``HeartsGym``) behind the driver protocol of spec/driver.md.

Run as ``DEST/venv/bin/python driver.py`` (see ``install``). Every rule answer is the engine's:
the legal cards are those of ``Hearts.isActionValid``, the seat to play is ``getCurrentPlayer()``,
each trick's winner and points are what ``Hearts.step`` writes in its log, and the hand's scores
are ``state["scores"]`` once ``step`` says the hand is done. The harness translates cards and keeps
what the view needs and the engine does not keep: the seat of each card played, the tricks.

One engine game is one hand (``Hearts.reset`` deals, ``step`` plays a card, ``done`` ends the
hand); the deal the suite gives reaches it through its shuffle (:class:`GivenShuffle`).
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for harness_kit.py

from harness_kit import (
    PROTOCOL_VERSION,
    SPEC_VERSION,
    Driver,
    HarnessError,
    parse_card,
    read_action,
    read_start,
    sort_key,
    unsupported,
)
from HeartsGym import Card, Hearts

# ``HeartsGym.Hearts`` is the class (the package re-exports it); the module that deals is this.
ENGINE_MODULE: Any = importlib.import_module("HeartsGym.Hearts")

PLAYERS = 4
HAND_SIZE = 13
#: The engine's suits (``Card.spade`` … ``Card.dimonds``) by the spec's suit letters.
SUIT_NUMBERS = {"S": Card.spade, "C": Card.clubs, "H": Card.hearts, "D": Card.dimonds}
#: What ``Hearts.step`` logs at the end of each trick.
TRICK_LOG = re.compile(r"Player (\d) wins the trick and gets (-?\d+) point")
#: hearts-4 (spec/rulesets/hearts-4.json) with the rules this engine plays instead (README.md).
VARIANTS = {"hearts-4": {"passing": None, "first_trick_ban": False}}
ILLEGAL = "illegal-action"  # the engine says only that a card is invalid, never which rule it breaks


def to_engine(card: str) -> Card:
    """The engine's card for a canonical card (CARD-3)."""
    return Card(SUIT_NUMBERS[card[1]], "23456789TJQKA".index(card[0]) + 2)


def from_engine(card: Card) -> str:
    """The canonical card (CARD-3) of an engine card."""
    suit = next(letter for letter, number in SUIT_NUMBERS.items() if number == card.suit)
    return "23456789TJQKA"[card.number - 2] + suit


def names(cards: list[Card]) -> list[str]:
    """Canonical cards, sorted (CARD-2)."""
    return sorted((from_engine(card) for card in cards), key=sort_key)


class GivenShuffle:
    """Stands in for the ``random`` module while ``Hearts.reset`` deals.

    ``dealHands`` shuffles a new deck, then gives card ``k`` of it to seat ``k mod 4``; this
    shuffle puts the deck in the order that gives each seat its hand of the given deal.
    """

    def __init__(self, hands: list[list[str]]) -> None:
        self.order = {hands[k % PLAYERS][k // PLAYERS]: k for k in range(PLAYERS * HAND_SIZE)}

    def shuffle(self, deck: list[Card]) -> None:
        """Order ``deck`` in place so that the engine deals the given hands."""
        deck.sort(key=lambda card: self.order[from_engine(card)])


class HeartsHand:
    """A game of the protocol: one heartsgym hand, with the bookkeeping of its view."""

    def __init__(self, hand_number: int) -> None:
        self.hand_number = hand_number
        self.env: Hearts | None = None
        self.done = False
        self.accepted = 0
        self.trick: list[dict[str, Any]] = []
        self.tricks: list[dict[str, Any]] = []
        self.points = [0] * PLAYERS

    def phase(self) -> str:
        """``deal`` before the deal and once the hand is scored, else ``play``."""
        return "play" if self.env is not None and not self.done else "deal"

    def apply(self, action: Any) -> None:
        """Apply an ACT-1 action, or raise :class:`HarnessError` with nothing changed."""
        kind, fields = read_action(action, PLAYERS)
        if kind == "pass":
            raise unsupported("heartsgym has no passing: it plays hearts-4 with passing null")
        if kind != self.phase():
            raise HarnessError("wrong-phase", f"a {kind} is not possible in phase {self.phase()!r}")
        if kind == "deal":
            self._deal(fields["hands"])
        else:
            self._play(fields["seat"], fields["card"])
        self.accepted += 1

    def _deal(self, hands: list[list[str]]) -> None:
        if self.done:
            raise unsupported("heartsgym plays one hand: a second hand is not expressible")
        dealt = sorted((card for hand in hands for card in hand), key=sort_key)
        if len(hands) != PLAYERS or any(len(hand) != HAND_SIZE for hand in hands) or len(set(dealt)) != len(dealt):
            # heartsgym deals its whole deck, 13 cards to each of 4 seats: no shuffle gives this.
            raise HarnessError("invalid-deal", f"not {HAND_SIZE} cards to each of {PLAYERS} seats from one deck")
        env = Hearts()
        real_random = ENGINE_MODULE.random
        ENGINE_MODULE.random = GivenShuffle(hands)
        try:
            env.reset()
        finally:
            ENGINE_MODULE.random = real_random
        if [names(hand) for hand in env.state["hands"]] != [sorted(hand, key=sort_key) for hand in hands]:
            raise RuntimeError("the shuffle did not give the engine the hands of the deal")
        self.env = env

    def _play(self, seat: int, card: str) -> None:
        env = self.env
        assert env is not None
        if seat != env.getCurrentPlayer():
            raise HarnessError("wrong-seat", f"seat {env.getCurrentPlayer()} is to play, not seat {seat}")
        index = self._action_of(card)
        if index is None:
            raise HarnessError("card-not-held", f"seat {seat} does not hold {card}")
        if not env.isActionValid(index):
            raise HarnessError(ILLEGAL, f"heartsgym does not let seat {seat} play {card} now")
        _, _, done = env.step(index)
        self.trick.append({"seat": seat, "card": card})
        if len(self.trick) == PLAYERS:
            found = TRICK_LOG.findall(env.log)
            assert len(found) == len(self.tricks) + 1, "one log line per trick"
            winner, points = int(found[-1][0]), int(found[-1][1])
            self.tricks.append(
                {"leader": self.trick[0]["seat"], "cards": self.trick, "winner": winner, "points": points}
            )
            self.points[winner] += points
            self.trick = []
        self.done = bool(done)

    def _action_of(self, card: str) -> int | None:
        """The engine's action (an index of its shuffled ``actionKey``) that plays ``card``."""
        assert self.env is not None
        hand = self.env.getCurrentPlayersHand()
        wanted = to_engine(card)
        for action, position in enumerate(self.env.state["actionKey"]):
            if position < len(hand) and hand[position] == wanted:
                return action
        return None

    def legal(self) -> list[str]:
        """The cards ``isActionValid`` allows the seat to play."""
        if self.phase() != "play":
            return []
        assert self.env is not None
        hand = self.env.getCurrentPlayersHand()
        keys = self.env.state["actionKey"]
        return names([hand[keys[a]] for a in range(HAND_SIZE) if keys[a] < len(hand) and self.env.isActionValid(a)])

    def hearts_broken(self) -> bool:
        """The test ``isActionValid`` makes before a heart lead, on every card played this hand.

        heartsgym looks at the completed tricks only, as it decides at leads alone; the cards of
        the trick in progress are added so that the view says what that test will find.
        """
        if self.phase() != "play":
            return False
        assert self.env is not None
        played = self.env.state["pastCards"] + self.env.state["currentTrick"]
        return Card.listContainCard(played, Card.hearts) or Card.listContainCard(played, Card.spade, Card.queen)

    def view(self) -> dict[str, Any]:
        """The view of DRV-6."""
        playing = self.phase() == "play"
        scored = [list(self.env.state["scores"])] if self.done and self.env is not None else []
        hand_number = self.hand_number + (1 if self.done else 0)
        return {
            "phase": self.phase(),
            "hand_number": hand_number,
            "dealer": hand_number % PLAYERS,
            "pass_direction": None,
            "to_move": self.env.getCurrentPlayer() if playing and self.env is not None else None,
            "moon_taker": None,
            "awaiting_pass": [],
            "legal": self.legal(),
            "hands": [names(hand) for hand in self.env.state["hands"]]
            if playing and self.env is not None
            else [[] for _ in range(PLAYERS)],
            "trick": list(self.trick) if playing else [],
            "tricks": list(self.tricks) if playing else [],
            "last_trick": self.tricks[-1] if playing and self.tricks else None,
            "hearts_broken": self.hearts_broken(),
            "points": list(self.points) if playing else [0] * PLAYERS,
            "scores": scored[0] if scored else [0] * PLAYERS,
            "hand_scores": scored,
            "winners": [],
            "count_down": False,
        }

    def state(self) -> dict[str, Any]:
        """The engine's position, as card names, and the number of actions accepted."""
        if self.env is None:
            return {"accepted": self.accepted}
        state = self.env.state
        return {
            "accepted": self.accepted,
            "hands": [names(hand) for hand in state["hands"]],
            "trick": [from_engine(card) for card in state["currentTrick"]],
            "past": [from_engine(card) for card in state["pastCards"]],
            "scores": list(state["scores"]),
            "to_move": state["currentPlayer"],
        }


class HeartsGymDriver(Driver):
    """The commands of spec/driver.md, answered by heartsgym."""

    engine = "heartsgym"

    def cmd_hello(self) -> dict[str, Any]:
        """DRV-4: hearts-4 with the two rules heartsgym plays otherwise; no card text, no error codes."""
        return {
            "name": "heartsgym (HeartsGym on PyPI)",
            "version": "0.43",
            "protocol": PROTOCOL_VERSION,
            "spec_version": SPEC_VERSION,
            "capabilities": {
                "players": [PLAYERS],
                "presets": sorted(VARIANTS),
                "variants": VARIANTS,
                "custom_rulesets": False,
                "kinds": ["game", "perft"],
                "observations": False,
                "error_codes": False,
                "action_ids": False,
                "observation_tensor": False,
            },
        }

    def cmd_new_game(
        self, ruleset: Any, seed: Any = None, hand_number: Any = None, scores: Any = None
    ) -> dict[str, Any]:
        """A game of hearts-4 waiting for its deal, from zero totals (the engine has no match)."""
        if not isinstance(ruleset, (str, dict)):
            raise HarnessError("invalid-ruleset", "a ruleset is a preset name or an object")
        if not isinstance(ruleset, str) or ruleset not in VARIANTS:
            raise unsupported("heartsgym plays hearts-4 only (with passing null, first_trick_ban false)")
        number, totals = read_start(hand_number, scores, PLAYERS)
        if seed is not None:
            raise unsupported("heartsgym has no reversis seeding (DEAL-3): its deals come from the suite")
        if any(totals):
            raise unsupported("heartsgym plays one hand from zero: starting totals are not expressible")
        return self.keep(HeartsHand(number))

    def cmd_apply(self, game: Any, action: Any) -> dict[str, Any]:
        """ACT-1, through the engine."""
        self.game(game).apply(action)
        return {}

    def cmd_view(self, game: Any) -> dict[str, Any]:
        """DRV-6."""
        return {"view": self.game(game).view()}

    def cmd_state(self, game: Any) -> dict[str, Any]:
        """The engine's position: equal after a rejected action, changed by an accepted one."""
        return {"state": self.game(game).state()}


def _check_card_notation() -> None:
    """The two notations agree on all 52 cards (a harness bug would show here, not in a case)."""
    for suit in "CDHS":
        for rank in "23456789TJQKA":
            assert from_engine(to_engine(parse_card(rank + suit))) == rank + suit


if __name__ == "__main__":
    _check_card_notation()
    sys.exit(HeartsGymDriver().serve())
