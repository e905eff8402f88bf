"""The reversis PettingZoo environment under TorchRL: ``PettingZooWrapper`` and a masked random policy.

    python examples/learning/torchrl_check.py [HANDS]     (3 hands by default)

TorchRL wraps the AEC environment as it is (``use_mask=True``, which TorchRL requires for a
turn-based environment); with ``group_map=MarlGroupMapType.ALL_IN_ONE_GROUP`` the four seats
form one group ``"agents"``, so one network can serve every seat in a batch of four rows. Each
row has ``observation`` (OBS-3), ``action_mask`` (the seat's legal ids, all False for a seat not
to act), ``mask`` (True for the acting seat alone) and, under ``"next"``, ``reward``: a seat's
reward arrives on the step that scores the hand, whoever acted. The policy here draws uniformly
among the acting seat's legal ids; a learned one would put a ``MaskedCategorical`` on the
``action_mask``. The script checks the rollout against the games themselves: every action of
the acting seat was legal, and each hand's rewards are minus its scores.

Needs the ``learn`` extra (``torchrl``, ``pettingzoo``).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import Any, Callable

import torch
from tensordict import TensorDictBase
from torchrl.envs import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType, check_env_specs

from reversis.adapters import pettingzoo as reversis_pz

GROUP = "agents"


def masked_random(generator: torch.Generator) -> Callable[[TensorDictBase], TensorDictBase]:
    """A policy for the wrapped environment: a uniformly random legal id for every row of the group.

    Rows of seats not to act have no legal id; their action is ignored and comes out as 0.
    """

    def policy(tensordict: TensorDictBase) -> TensorDictBase:
        legal = tensordict[GROUP, "action_mask"]
        draws = torch.rand(legal.shape, generator=generator).masked_fill(~legal, -1.0)
        tensordict[GROUP, "action"] = draws.argmax(dim=-1)
        return tensordict

    return policy


def build(aec_env: Any) -> PettingZooWrapper:
    """A PettingZoo AEC environment under TorchRL, every seat in one group."""
    with warnings.catch_warnings():
        # TorchRL warns for any PettingZoo release but the one it is tested with.
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
        return PettingZooWrapper(
            aec_env,
            use_mask=True,
            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
            categorical_actions=True,
        )


def run(hands: int, ruleset: str = "hearts-computer", seed: int = 0) -> list[list[float]]:
    """Play ``hands`` hands through TorchRL; each hand's rewards per seat, checked against its scores."""
    aec_env = reversis_pz.env(ruleset, seed=seed)
    env = build(aec_env)
    check_env_specs(env)
    generator = torch.Generator().manual_seed(seed)
    policy = masked_random(generator)
    rewards: list[list[float]] = []
    tensordict = env.reset()
    while len(rewards) < hands:
        # One hand: steps until the episode is done (the last one scores the hand).
        total = torch.zeros(len(env.group_map[GROUP]))
        while True:
            acting = tensordict[GROUP, "mask"]
            tensordict = env.step(policy(tensordict))
            chosen = tensordict[GROUP, "action"][acting]
            if not tensordict[GROUP, "action_mask"][acting].squeeze(0)[chosen].all():
                raise AssertionError("the acting seat was given an illegal id")
            total += tensordict["next", GROUP, "reward"].reshape(-1)
            done = bool(tensordict["next", "done"].all())
            tensordict = env.step_mdp(tensordict)
            if done:
                break
        scores = aec_env.unwrapped.game.last_hand["scores"]
        if [-float(score) for score in scores] != total.tolist():
            raise AssertionError(f"rewards {total.tolist()} are not minus the hand's scores {scores}")
        rewards.append(total.tolist())
        tensordict = env.reset()
    return rewards


def main(argv: list[str] | None = None) -> int:
    """Play the hands and print each one's rewards."""
    parser = argparse.ArgumentParser(description="The reversis PettingZoo environment under TorchRL.")
    parser.add_argument("hands", nargs="?", type=int, default=3, help="hands to play (default 3)")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error(f"hands must be at least 1, not {args.hands}")
    for number, rewards in enumerate(run(args.hands)):
        print(f"hand {number}: rewards {rewards} (minus the hand's scores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
