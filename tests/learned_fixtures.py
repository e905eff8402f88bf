"""Writes js/test/fixtures/learned-decisions.json: the shipped network's decisions and values on a
few observations, for the JavaScript package's learned player to be checked against
(js/test/learned.test.mjs).

The decisions are ``LearnedPlayer.act``'s (python/reversis/players/learned.py: a pass card by
card, the moon choice between ids 104 and 105) with the network evaluated by the pure-Python
forward pass, :meth:`Weights.logits`, an implementation independent of the Rust one that the
package runs; each case's ``value`` is :meth:`Weights.value` of its observation. An observation
is kept only where the best legal score leads the next by at least ``MARGIN`` at every step of
its decision, so that the float32 of the package and the float64 of Python cannot disagree on
it. Run from the checkout, with the package installed:

    python tests/learned_fixtures.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import reversis
from reversis.encoding import encode_observation
from reversis.players import Observation, observe
from reversis.players.learned import SHIPPED_WEIGHTS, LearnedPlayer, Weights, read_weights

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "js" / "test" / "fixtures" / "learned-decisions.json"
#: The least lead of the chosen id's score over every other legal id's: far beyond where single
#: and double precision part (about 1e-5 for these networks), and met by a few moon choices,
#: whose two logits the network rarely learns apart.
MARGIN = 0.005
#: How many observations of each kind are kept, by ruleset.
WANTED = {
    "hearts-computer": {"pass": 3, "play": 6},
    "hearts-4": {"moon": 1},
    "cancellation-6": {"pass": 2, "play": 2},
}


class PurePythonLearnedPlayer(LearnedPlayer):
    """``LearnedPlayer`` with its network evaluated in pure Python; records each step's margin."""

    def __init__(self, weights: Weights) -> None:
        super().__init__()
        self.pure = weights
        self.margins: list[float] = []

    def _decide(self, observation: Observation, legal: Any) -> int:
        ids = sorted(legal)
        logits = self.pure.logits(encode_observation(observation))
        ranked = sorted((logits[i] for i in ids), reverse=True)
        self.margins.append(ranked[0] - ranked[1] if len(ranked) > 1 else float("inf"))
        return self.pure.decide(encode_observation(observation), ids)


def next_action(game: reversis.Game, rng: random.Random, hunting_moons: bool) -> int:
    """A random legal id; hunting moons, seat 0 plays its highest card and the others their lowest,
    so that seat 0 takes every point card now and then and has a moon choice to make."""
    ids = game.legal_actions()
    if not hunting_moons or game.phase != "play":
        return rng.choice(ids)
    rank = lambda i: i % 13  # noqa: E731 (card ids run 2..A within a suit, ACT-2)
    return max(ids, key=rank) if game.to_move == 0 else min(ids, key=rank)


def main() -> None:
    player = PurePythonLearnedPlayer(read_weights(SHIPPED_WEIGHTS))
    rng = random.Random(2024)
    cases: list[dict[str, Any]] = []
    for preset, wanted in WANTED.items():
        kept = dict.fromkeys(wanted, 0)
        for _ in range(4000):
            if kept == wanted:
                break
            game = reversis.Game(reversis.preset(preset), seed=rng.getrandbits(32))
            while game.phase not in ("over",) and game.hand_number == 0:
                seat = game.to_act
                phase = game.phase
                if phase in kept and kept[phase] < wanted[phase] and (phase == "moon" or rng.random() < 0.15):
                    observation = observe(game, seat)
                    player.margins = []
                    action = player.act(observation)
                    if min(player.margins) >= MARGIN:
                        kept[phase] += 1
                        value = player.pure.value(encode_observation(observation))
                        cases.append(
                            {"ruleset": preset, "observation": observation.data, "action": action, "value": value}
                        )
                        print(f"{preset} {phase}: {action}", file=sys.stderr)
                game.apply_action(next_action(game, rng, hunting_moons="moon" in wanted))
        if kept != wanted:
            raise SystemExit(f"{preset}: found only {kept} of {wanted}")
    document = {
        "about": "The shipped network's decisions (python/reversis/players/learned-hearts-computer.rvnn) by "
        "LearnedPlayer.act with the pure-Python forward pass Weights.logits, and its values by Weights.value; "
        "written by tests/learned_fixtures.py.",
        "weights": "python/reversis/players/learned-hearts-computer.rvnn",
        "margin": MARGIN,
        "cases": cases,
    }
    OUT.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
