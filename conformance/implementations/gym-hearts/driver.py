"""gym-hearts 0.0.3 (the module ``gymhearts``) behind the driver protocol of spec/driver.md.

Run as ``DEST/venv/bin/python driver.py`` (see ``install``). Every rule answer is the engine's:
the legal cards are the ``valid_hand_cards`` of ``HeartsEnv.get_observation()``, the seat to play
its ``current_player_id``, each trick's winner and points the ``punish_player_id`` and
``punish_score`` that ``step`` reports, the totals ``Player.get_score()`` once ``step`` has
scored the hand (its moon rule included), and the end of the match ``step``'s ``done``. The
harness translates cards and keeps what the view needs: the seat of each card played, the tricks.

``HeartsEnv`` deals each hand itself, from a new ``treys`` deck, as soon as the last trick of the
previous hand is taken; the deals the suite gives reach it through that deck (:class:`GivenDeck`).
A deal that comes after the engine has already dealt the next hand is given by replaying the game
from its start, every hand's deal in order, on a new ``HeartsEnv``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for harness_kit.py

import gymhearts.env
from gymhearts.strategy import IStrategy
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
from treys.card import Card
from treys.deck import Deck

PLAYERS = 4
HAND_SIZE = 13
#: The engine plays hearts-computer without passing; hearts-4 differs from hearts-computer in
#: the breaking card and the moon rule as well (README.md).
MOON_ADD_TO_OTHERS = {"scoring": "add-to-others", "bonus": 26}
VARIANTS: dict[str, dict[str, Any]] = {
    "hearts-computer": {"passing": None},
    "hearts-4": {"passing": None, "hearts_breaking": "heart", "moon": MOON_ADD_TO_OTHERS},
}
ILLEGAL = "illegal-action"  # the engine says only which cards are valid, never which rule a card breaks


def to_engine(card: str) -> int:
    """The treys card of a canonical card (CARD-3)."""
    return Card.new(card[0] + card[1].lower())


def from_engine(card: int) -> str:
    """The canonical card (CARD-3) of a treys card."""
    text = Card.int_to_str(card)
    return text[0] + text[1].upper()


def names(cards: list[int]) -> list[str]:
    """Canonical cards, sorted (CARD-2)."""
    return sorted((from_engine(card) for card in cards), key=sort_key)


class GivenDeck(Deck):
    """The deck ``HeartsEnv`` deals from (it looks ``Deck`` up in its module at each deal).

    Each new deck takes the next deal of :attr:`queue` and orders its cards so that
    ``deck.draw(13)`` for seat 0, 1, 2, 3 in turn gives each seat its hand; with the queue empty
    it is the unshuffled deck, a deal the harness replaces before anyone plays it.
    """

    queue: ClassVar[list[list[list[str]]]] = []

    def __init__(self, seed: int | None = None) -> None:
        hands = GivenDeck.queue.pop(0) if GivenDeck.queue else None
        self.order = [to_engine(card) for hand in hands for card in hand] if hands else Deck.GetFullDeck()
        super().__init__(seed)

    def shuffle(self) -> None:
        """Put the cards in the given order; ``treys`` 0.1.8 draws from the end of the list."""
        self.cards = self.order[::-1]


gymhearts.env.Deck = GivenDeck


class HeartsMatch:
    """A game of the protocol: a gym-hearts match, with the bookkeeping of its view."""

    def __init__(self, hand_number: int, scores: list[int]) -> None:
        self.first_hand = hand_number
        self.first_scores = scores
        self.deals: list[list[list[str]]] = []
        self.plays: list[tuple[int, str]] = []
        self._start()

    def _start(self) -> None:
        """Bookkeeping of a match not yet dealt."""
        self.env: gymhearts.env.HeartsEnv | None = None
        self.scored = 0
        self.done = False
        self.totals = list(self.first_scores)
        self.hand_scores: list[list[int]] = []
        self._new_hand()

    def _new_hand(self) -> None:
        self.trick: list[dict[str, Any]] = []
        self.tricks: list[dict[str, Any]] = []
        self.points = [0] * PLAYERS

    def phase(self) -> str:
        """``over`` once ``step`` says ``done``; ``deal`` while the hand has no deal yet; else ``play``."""
        if self.done:
            return "over"
        return "play" if len(self.deals) > self.scored else "deal"

    def apply(self, action: Any) -> None:
        """Apply an ACT-1 action, or raise :class:`HarnessError` with nothing changed."""
        kind, fields = read_action(action, PLAYERS)
        if self.phase() == "over":
            raise HarnessError("match-over", "gym-hearts ended the match")
        if kind == "pass":
            raise unsupported("gym-hearts has no passing: it plays with passing null")
        if kind != self.phase():
            raise HarnessError("wrong-phase", f"a {kind} is not possible in phase {self.phase()!r}")
        if kind == "deal":
            self._deal(fields["hands"])
        else:
            self._play(fields["seat"], fields["card"])

    def _deal(self, hands: list[list[str]]) -> None:
        dealt = {card for hand in hands for card in hand}
        if len(hands) != PLAYERS or any(len(hand) != HAND_SIZE for hand in hands) or len(dealt) != 52:
            # gym-hearts deals a whole treys deck, 13 cards to each of 4 seats: no deck gives this.
            raise HarnessError("invalid-deal", f"not {HAND_SIZE} cards to each of {PLAYERS} seats from one deck")
        self.deals.append(hands)
        self._replay()

    def _replay(self) -> None:
        """Play the whole game again on a new engine, every deal reaching it through its deck."""
        plays = self.plays
        self._start()
        self.plays = []
        env = gymhearts.env.HeartsEnv()
        env.enable_shooting_the_moon()
        for total in self.first_scores:
            env.add_player(IStrategy())
            # Totals of earlier hands, as the engine keeps them: added, then committed.
            env._players[-1].add_score(total)
            env._players[-1].commit_new_round_score()
        GivenDeck.queue = list(self.deals)
        env.start()
        self.env = env
        for seat, card in plays:
            self._step(seat, card)
        assert not GivenDeck.queue, "every deal reached the engine"
        if len(self.plays) == PLAYERS * HAND_SIZE * self.scored:  # nothing played of the new deal yet
            held = [names(player.get_hand_cards()) for player in env._players]
            assert held == [sorted(hand, key=sort_key) for hand in self.deals[-1]], "the engine holds the deal"

    def _play(self, seat: int, card: str) -> None:
        observation = self._observation()
        if seat != observation["current_player_id"]:
            raise HarnessError("wrong-seat", f"seat {observation['current_player_id']} is to play, not seat {seat}")
        if to_engine(card) not in observation["hand_cards"]:
            raise HarnessError("card-not-held", f"seat {seat} does not hold {card}")
        if to_engine(card) not in observation["valid_hand_cards"]:
            raise HarnessError(ILLEGAL, f"{card} is not among the valid cards gym-hearts gives seat {seat}")
        self._step(seat, card)

    def _step(self, seat: int, card: str) -> None:
        """One card through ``HeartsEnv.step``, and what it reports into the bookkeeping."""
        assert self.env is not None
        _, _, done, info = self.env.step(to_engine(card))
        self.plays.append((seat, card))
        self.trick.append({"seat": seat, "card": card})
        if "punish_player_id" not in info:
            return
        winner, points = info["punish_player_id"], info["punish_score"]
        self.tricks.append({"leader": self.trick[0]["seat"], "cards": self.trick, "winner": winner, "points": points})
        self.points[winner] += points
        self.trick = []
        if info["is_new_round"] or info["done"]:
            totals = [player.get_score() for player in self.env._players]
            self.hand_scores.append([now - before for now, before in zip(totals, self.totals)])
            self.totals = totals
            self.scored += 1
            self.done = bool(done)
            if not self.done:
                self._new_hand()

    def _observation(self) -> dict[str, Any]:
        assert self.env is not None
        return self.env.get_observation()

    def view(self) -> dict[str, Any]:
        """The view of DRV-6."""
        phase = self.phase()
        playing, over = phase == "play", phase == "over"
        observation = self._observation() if playing else None
        hand_number = self.first_hand + self.scored - (1 if over else 0)
        return {
            "phase": phase,
            "hand_number": hand_number,
            "dealer": hand_number % PLAYERS,
            "pass_direction": None,
            "to_move": observation["current_player_id"] if observation else None,
            "moon_taker": None,
            "awaiting_pass": [],
            "legal": names(observation["valid_hand_cards"]) if observation else [],
            "hands": [names(player.get_hand_cards()) for player in self.env._players]
            if playing and self.env is not None
            else [[] for _ in range(PLAYERS)],
            "trick": list(self.trick) if playing else [],
            "tricks": list(self.tricks) if playing or over else [],
            "last_trick": self.tricks[-1] if (playing or over) and self.tricks else None,
            "hearts_broken": bool(self.env._is_heart_broken) if (playing or over) and self.env is not None else False,
            "points": list(self.points) if playing or over else [0] * PLAYERS,
            "scores": list(self.totals),
            "hand_scores": [list(scores) for scores in self.hand_scores],
            "winners": [seat for seat in range(PLAYERS) if self.totals[seat] == min(self.totals)] if over else [],
            "count_down": False,
        }

    def state(self) -> dict[str, Any]:
        """The deals and plays the engine was given, and its totals."""
        return {
            "deals": self.deals,
            "plays": [list(play) for play in self.plays],
            "totals": self.totals,
            "done": self.done,
        }


class GymHeartsDriver(Driver):
    """The commands of spec/driver.md, answered by gym-hearts."""

    engine = "gym-hearts"

    def cmd_hello(self) -> dict[str, Any]:
        """DRV-4: hearts-computer without passing, and hearts-4 as far as gym-hearts plays it."""
        return {
            "name": "gym-hearts (gymhearts)",
            "version": "0.0.3",
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
        """A match of a claimed preset waiting for its first deal."""
        if not isinstance(ruleset, (str, dict)):
            raise HarnessError("invalid-ruleset", "a ruleset is a preset name or an object")
        if not isinstance(ruleset, str) or ruleset not in VARIANTS:
            raise unsupported(f"gym-hearts plays only {' and '.join(sorted(VARIANTS))}")
        number, totals = read_start(hand_number, scores, PLAYERS)
        if seed is not None:
            raise unsupported("gym-hearts has no reversis seeding (DEAL-3): its deals come from the suite")
        return self.keep(HeartsMatch(number, totals))

    def cmd_apply(self, game: Any, action: Any) -> dict[str, Any]:
        """ACT-1, through the engine."""
        self.game(game).apply(action)
        return {}

    def cmd_view(self, game: Any) -> dict[str, Any]:
        """DRV-6."""
        return {"view": self.game(game).view()}

    def cmd_state(self, game: Any) -> dict[str, Any]:
        """What the engine was given: equal after a rejected action, changed by an accepted one."""
        return {"state": self.game(game).state()}


def _check_card_notation() -> None:
    """The two notations agree on all 52 cards (a harness bug would show here, not in a case)."""
    for suit in "CDHS":
        for rank in "23456789TJQKA":
            assert from_engine(to_engine(parse_card(rank + suit))) == rank + suit


if __name__ == "__main__":
    _check_card_notation()
    sys.exit(GymHeartsDriver().serve())
