"""Step 1,024 games of Hearts at once with a NumPy policy, the way learning code would.

    python examples/vector_numpy.py [STEPS]     (2,000 by default)

Every game's acting seat picks uniformly among its legal actions, read from the mask buffer;
after each hand (an episode) the hand's scores are collected from the finished games. The
environment steps on two threads and writes its observations as bytes (``uint8``, which every
value of ``hearts-4``'s hand episodes fits).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import reversis


def _positive(text: str) -> int:
    """A whole number of at least 1, else a usage error."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def uniform_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal id per row of ``mask``, drawing one number per row.

    The legal entries' flat indices hold each row's ids together; a binary search finds where
    row ``i`` starts among them (its first index at or above ``i × 106``). Drawing a float per
    entry and taking the ``argmax`` of the masked draws picks the same way but draws 106 times
    as many numbers, and costs several times as much.
    """
    rows, width = mask.shape
    bounds = np.arange(rows + 1) * width
    legal = np.flatnonzero(mask)
    starts = np.searchsorted(legal, bounds)
    offsets = (rng.random(rows) * np.diff(starts)).astype(np.intp)
    return legal[starts[:-1] + offsets] - bounds[:-1]


def main(steps: int = 2_000) -> None:
    """Play ``steps`` steps of 1,024 games and print the mean hand score of each seat."""
    env = reversis.VectorEnv(reversis.preset("hearts-4"), num_envs=1024, seed=0, threads=2, observation_dtype="uint8")
    # Views of the environment's own buffers: they follow every step without a copy.
    mask = np.asarray(env.legal_action_mask)
    observation = np.asarray(env.observation)
    terminated = np.asarray(env.terminated)
    scores = np.asarray(env.episode_scores)
    rng = np.random.default_rng(0)
    finished = []
    started = time.perf_counter()
    for _ in range(steps):
        # A stand-in for a policy network, whose logits would be masked to the legal ids instead.
        env.step(uniform_legal(rng, mask))
        if terminated.any():
            finished.append(scores[terminated].copy())
    elapsed = time.perf_counter() - started
    hands = np.concatenate(finished)
    assert observation.shape == (1024, 1435)
    print(f"{steps * env.num_envs:,} decisions in {elapsed:.2f} s ({steps * env.num_envs / elapsed:,.0f} a second)")
    print(f"{len(hands):,} hands; mean score per seat: {np.round(hands.mean(axis=0), 2).tolist()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Step 1,024 games of Hearts at once with a NumPy policy.")
    parser.add_argument("steps", nargs="?", type=_positive, default=2_000, help="steps of the batch (default 2000)")
    main(parser.parse_args().steps)
