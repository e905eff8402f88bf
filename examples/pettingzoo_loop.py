"""Play hands of Hearts through the PettingZoo AEC interface, every seat choosing at random.

Run ``python examples/pettingzoo_loop.py [HANDS] [RULESET]`` (10 hands of ``hearts-4`` by
default); it prints each agent's mean reward per hand, which is minus its mean score. Replace
``choose`` with a policy to evaluate it.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import reversis
from reversis.adapters.pettingzoo import env as make_env


def choose(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    """A uniformly random legal action id: any id the mask allows."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(rng.choice(legal))


def _positive(text: str) -> int:
    """A whole number of at least 1, else a usage error."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main(argv: list[str]) -> int:
    """Play the hands and print the mean rewards."""
    parser = argparse.ArgumentParser(description="Hands of Hearts through the PettingZoo AEC interface.")
    parser.add_argument("hands", nargs="?", type=_positive, default=10, help="hands to play (default 10)")
    parser.add_argument("ruleset", nargs="?", choices=reversis.preset_names(), default="hearts-4", help="a preset")
    args = parser.parse_args(argv)
    hands, ruleset = args.hands, args.ruleset
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
    sys.exit(main(sys.argv[1:]))
