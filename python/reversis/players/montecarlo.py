"""A Monte Carlo computer player that decides from its observation alone (001 ¶9).

To play a card it draws layouts of the hidden cards exactly uniformly among those consistent
with what its seat knows (its hand, the cards played, the cards it passed, the revealed voids
and every seat's number of cards), plays each legal card in each layout, finishes the hand with
a simple heuristic for every seat and keeps the card with the lowest mean of its own hand score minus the
others' mean (``_core.monte_carlo_play``, in Rust). It never sees hidden cards or the seed.
With two packs (RS-21) the hidden copies are drawn as distinct cards, so that every physical
layout (the two copies of a card told apart) is equally likely, as a uniform deal makes them.

Passing and the moon choice are the rule-based player's (:class:`RuleBasedPlayer`).
"""

from __future__ import annotations

import random
from typing import Any

from .. import _core
from .base import Observation, Player
from .rulebased import RuleBasedPlayer

__all__ = ["MonteCarloPlayer"]


def _core_ruleset(ruleset: Any) -> _core.Ruleset:
    """The ruleset as the Rust core's type (the reference engine has its own)."""
    if isinstance(ruleset, _core.Ruleset):
        return ruleset
    return _core.Ruleset.from_json(ruleset.to_json())


class MonteCarloPlayer(Player):
    """Plays the card with the best mean result over random layouts of the hidden cards."""

    name = "montecarlo"

    def __init__(self, rollouts: int = 200, seed: int | None = None) -> None:
        """Use ``rollouts`` playouts per legal card; decisions draw their seeds from ``seed``."""
        if rollouts < 1:
            raise ValueError("rollouts must be at least 1")
        self.rollouts = rollouts
        self._rng = random.Random(seed)
        self._rules = RuleBasedPlayer(seed)

    def act(self, observation: Observation) -> dict[str, Any]:
        """The action of the observing seat: its pass, its play or its moon choice."""
        seat = observation.seat
        if observation.phase in ("pass", "moon"):
            return self._rules.act(observation)
        seed = self._rng.getrandbits(64)
        legal = observation.legal
        if len(legal) == 1:
            return {"type": "play", "seat": seat, "card": legal[0]}
        rules = _core_ruleset(observation.ruleset)
        card = _core.monte_carlo_play(rules, observation.data, self.rollouts, seed)
        return {"type": "play", "seat": seat, "card": card}
