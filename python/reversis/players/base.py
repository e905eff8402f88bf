"""The interface every computer player implements, and the functions that drive one (001 ¶9).

A :class:`Player` is handed an :class:`Observation`: what its seat may know (OBS-1) and the
ruleset, which is public. The players in the package's other modules import their interface
from here, not from the package that re-exports them, so the package imports without a cycle.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Observation",
    "Player",
    "RandomPlayer",
    "act_for",
    "observe",
    "probe_ruleset",
    "why_cannot_play",
]


@dataclass(frozen=True)
class Observation:
    """What one seat may know (OBS-1), with the public ruleset; immutable.

    Build one with :func:`observe`; ``data`` is the observation's JSON form.
    """

    ruleset: Any
    data: dict[str, Any]

    @property
    def seat(self) -> int:
        """The observing seat."""
        return int(self.data["seat"])

    @property
    def phase(self) -> str:
        """The game's phase."""
        return str(self.data["phase"])

    @property
    def hand(self) -> list[str]:
        """The seat's cards, sorted."""
        return list(self.data["hand"])

    @property
    def legal(self) -> list[str]:
        """The seat's legal cards when it is to play, else ``[]``."""
        return list(self.data["legal"])

    def __getitem__(self, key: str) -> Any:
        """Any key of OBS-1."""
        return self.data[key]


def observe(game: Any, seat: int) -> Observation:
    """The observation of ``seat`` in ``game``: the only thing a player is ever given."""
    return Observation(game.ruleset, game.observation(seat))


class Player(ABC):
    """A computer player: from an observation to an action of ACT-1 for the observing seat."""

    name = "player"

    @abstractmethod
    def act(self, observation: Observation) -> dict[str, Any]:
        """The action of the observing seat: its pass, its play or its moon choice."""

    def cannot_play(self, ruleset: Any) -> str | None:
        """Why this player cannot play ``ruleset``, or ``None`` where it can; the commands ask before dealing.

        By default the player is asked (:func:`probe_ruleset`); a class that knows what it plays
        says so here instead, without playing.
        """
        return probe_ruleset(self, ruleset)


class RandomPlayer(Player):
    """Chooses uniformly among the legal actions: passes, plays and moon choices."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        """Draw choices from a generator seeded with ``seed`` (fresh entropy without one)."""
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> dict[str, Any]:
        """A uniformly random legal action."""
        seat = observation.seat
        if observation.phase == "pass":
            size = observation.ruleset.passing["size"]
            cards = self._rng.sample(observation.hand, size)
            return {"type": "pass", "seat": seat, "cards": cards}
        if observation.phase == "moon":
            choice = self._rng.choice(["add-to-others", "subtract-from-taker"])
            return {"type": "moon", "seat": seat, "choice": choice}
        return {"type": "play", "seat": seat, "card": self._rng.choice(observation.legal)}


def act_for(game: Any, players: Sequence[Player]) -> dict[str, Any]:
    """Ask the player of the seat that must act next and apply its action to ``game``.

    In phase ``pass`` the lowest seat still to pass acts. Returns the action applied.

    :raises ValueError: if the game is not waiting for a seat (phase ``deal`` or ``over``).
    """
    seat = game.to_act
    if seat is None:
        raise ValueError(f"no seat acts in phase {game.phase!r}")
    action = players[seat].act(observe(game, seat))
    game.apply(action)
    return action


def why_cannot_play(player: Any, ruleset: Any) -> str | None:
    """Why ``player`` cannot play ``ruleset``, or ``None``: its own answer, else :func:`probe_ruleset`'s."""
    declared = getattr(player, "cannot_play", None)
    if callable(declared):
        reason: str | None = declared(ruleset)
        return reason
    return probe_ruleset(player, ruleset)


def probe_ruleset(player: Any, ruleset: Any) -> str | None:
    """Ask ``player`` for its first decisions of a hand of ``ruleset``: why it refused the ruleset, or ``None``.

    The hand is dealt from seed 0; the player is asked for the first pass (where the hand has
    passes, the lowest cards being passed for every seat) and the first card that is a choice
    (a forced card is played for it). A player refuses a
    ruleset by raising ``invalid-ruleset`` (the players on the Rust core's sampler do so for
    what it does not support); any other error is not a refusal and propagates. The player
    should be one made for the question: it has been asked, and its state may show it.
    """
    import json

    from .._core import Game, Ruleset, card_id
    from ..errors import ReversisError

    if not isinstance(ruleset, Ruleset):  # the reference engine's
        ruleset = Ruleset.from_json(json.dumps(ruleset.to_json()))
    game = Game(ruleset, seed=0)
    asked_pass = False
    try:
        while game.phase in ("pass", "play"):
            acting, plan = game.to_act, game.pass_plan
            assert acting is not None  # phases pass and play always have a seat to act
            seat = int(acting)
            if game.phase == "pass":
                assert plan is not None  # a hand in phase pass has a pass
                if not asked_pass:
                    asked_pass = True
                    player.act(observe(game, seat))
                lowest = sorted(game.hand(seat), key=card_id)[: plan["size"]]
                game.apply({"type": "pass", "seat": seat, "cards": lowest})
                continue
            observation = observe(game, seat)
            if len(observation.legal) > 1:  # a forced card asks nothing of the player
                player.act(observation)
                break
            game.apply({"type": "play", "seat": seat, "card": observation.legal[0]})
    except ReversisError as error:
        if error.code == "invalid-ruleset":
            return str(error)
        raise
    return None
