"""Play hands of Hearts through the PettingZoo AEC interface, every seat choosing at random.

Run ``python examples/pettingzoo_loop.py [HANDS] [RULESET]`` (10 hands of ``hearts-4`` by
default); it prints each agent's mean reward per hand, which is minus its mean score. Replace
``choose`` with a policy to evaluate it.
"""

from __future__ import annotations

import sys

import numpy as np

import reversis
from reversis.adapters.pettingzoo import env as make_env


def choose(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    """A uniformly random legal action id: any id the mask allows."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(rng.choice(legal))


def main(argv: list[str]) -> int:
    """Play the hands and print the mean rewards."""
    hands_text = argv[1] if len(argv) > 1 else "10"
    ruleset = argv[2] if len(argv) > 2 else "hearts-4"
    hands = int(hands_text) if hands_text.isdigit() else 0
    if hands < 1 or ruleset not in reversis.preset_names():
        print(f"usage: pettingzoo_loop.py [HANDS >= 1] [{'|'.join(reversis.preset_names())}]", file=sys.stderr)
        return 2
    env = make_env(ruleset, seed=0)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(hands):
        env.reset()
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            # A terminated agent still takes one step, with None, to leave the episode.
            env.step(None if terminated or truncated else choose(observation, rng))
    env.close()
    print(f"{ruleset}: mean reward per hand over {hands} hands (minus points; higher is better)")
    for agent, total in totals.items():
        print(f"  {agent}: {total / hands:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
