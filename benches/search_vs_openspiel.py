"""The search player against OpenSpiel's Python ISMCTS, at the same time per decision.

Both sides play the reversis games that ``reversis.adapters.openspiel_game`` registers with
OpenSpiel (``reversis_<preset>``), one hand per episode. A deal is played once per seat rotation
(duplicate play, as ``reversis tournament`` does): the two player types alternate around the
table and rotation ``r`` moves them ``r`` seats, so each type holds each seat with each deal's
cards. The deals are the tournament's (deal ``i`` is the seeded deal of hand number ``i``, so
the pass direction cycles).

- ``search`` is :mod:`reversis.players.search` through ``_core.search_play`` with a time budget
  per decision; its pass, which OpenSpiel's bot makes as one decision per card (ACT-2), gets the
  time of that many decisions.
- ``ismcts`` is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (UCT, random rollouts, the
  final move by visit count) drawing the hidden cards with the game's exact
  ``resample_from_infostate``, running simulations until its time per decision is used up (at
  least one). The C++ ``pyspiel.ISMCTSBot`` cannot play a Python game.

It prints each type's mean points per hand and the mean per-deal difference, each with a 95%
interval clustered by deal (Student's t over the per-deal values, as the tournament reports).

Usage: ``python benches/search_vs_openspiel.py [--preset P] [--deals N] [--time-ms MS] [--seed S]
[--jobs J]``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import reversis
from reversis import _core
from reversis.adapters.openspiel_game import game_name
from reversis.commands.tournament import deal_seed, t_quantile

TYPES = ("search", "ismcts")


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot, its number of simulations set by a time per decision."""

    def __init__(self, game: Any, seconds: float, seed: int, uct_c: float) -> None:
        """Search ``game`` for ``seconds`` per decision, with generators seeded from ``seed``."""
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        super().__init__(game, evaluator, uct_c=uct_c, max_simulations=1, random_state=np.random.RandomState(seed + 1))
        self.seconds = seconds
        self.simulations: list[int] = []
        sampler = pyspiel.UniformProbabilitySampler(seed + 2, 0.0, 1.0)
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))

    def run_search(self, state: Any) -> Any:
        """As OpenSpiel's, with simulations until the time is used up instead of a fixed number."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self.reset()
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done == 0 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations.append(done)
        return self.get_final_policy(state, self._root_node)


def play_deal(preset: str, index: int, seed: int, milliseconds: float, uct_c: float) -> dict[str, Any]:
    """Deal ``index`` played once per rotation: each type's mean hand points, and the bots' simulation counts."""
    ruleset = reversis.preset(preset)
    n = int(ruleset.players)
    hand_number = index
    game = pyspiel.load_game(game_name(preset), {"hand_number": hand_number})
    dealt = _core.deal_from_seed(ruleset, deal_seed(seed, index), 1, hand_number)[0]
    deck = list(ruleset.deck)
    order = [deck.index(hand[k]) for k in range(len(dealt[0])) for hand in dealt]
    size = int(ruleset.passing["size"]) if ruleset.passing else 1
    base = [TYPES[s % 2] for s in range(n)]
    per_rotation: dict[str, list[float]] = {name: [] for name in TYPES}
    simulations: list[int] = []
    for rotation in range(n):
        seating = [base[(s - rotation) % n] for s in range(n)]
        bots = {
            s: TimedISMCTSBot(game, milliseconds / 1000, 1000 * index + 10 * rotation + s, uct_c)
            for s in range(n)
            if seating[s] == "ismcts"
        }
        pending: dict[int, list[int]] = {}
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(order[len(state.history())])
                continue
            seat = state.current_player()
            if seating[seat] == "ismcts":
                state.apply_action(int(bots[seat].step(state)))
                continue
            if not pending.get(seat):
                observation = state.observation_dict(seat)
                share = size if observation["phase"] == "pass" else 1
                step += 1
                pending[seat] = list(
                    _core.search_play(
                        ruleset,
                        observation,
                        deal_seed(seed, 10_000_000 + 1000 * index + 10 * rotation + step),
                        time_ms=milliseconds * share / (4 if observation["phase"] == "pass" else 1),
                    )
                )
            state.apply_action(pending[seat].pop(0))
        points = [-r for r in state.returns()]
        for name in TYPES:
            mine = [points[s] for s in range(n) if seating[s] == name]
            per_rotation[name].append(statistics.fmean(mine))
        for bot in bots.values():
            simulations.extend(bot.simulations)
    means = {name: statistics.fmean(v) for name, v in per_rotation.items()}
    return {"index": index, "means": means, "sims": simulations}


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (Student's t over the values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = t_quantile(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main(argv: list[str]) -> int:
    """Play the deals and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="hearts-computer")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--time-ms", type=float, default=50.0, help="time per decision of either side")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=10.0, help="ISMCTS's exploration constant (points)")
    args = parser.parse_args(argv)
    tasks = [(args.preset, i, args.seed, args.time_ms, args.uct_c) for i in range(args.deals)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context().Pool(args.jobs) as pool:
            results = pool.starmap(play_deal, tasks)
    else:
        results = [play_deal(*task) for task in tasks]
    n = int(reversis.preset(args.preset).players)
    sims = sorted(s for r in results for s in r["sims"])
    print(
        f"preset {args.preset}, {args.deals} deals x {n} seat rotations, seed {args.seed}, "
        f"{args.time_ms:g} ms per decision, {time.perf_counter() - start:.0f} s"
    )
    print(f"{'player':<10} {'hands':>7} {'mean pts/hand':>14} {'95% interval':>20}")
    for name in TYPES:
        mean, low, high = interval([r["means"][name] for r in results])
        print(f"{name:<10} {args.deals * n:>7} {mean:>14.2f} {f'[{low:.2f}, {high:.2f}]':>20}")
    mean, low, high = interval([r["means"]["search"] - r["means"]["ismcts"] for r in results])
    print(f"\n{'pair':<20} {'deals':>7} {'mean diff':>10} {'95% interval':>20}")
    print(f"{'search - ismcts':<20} {args.deals:>7} {mean:>10.2f} {f'[{low:.2f}, {high:.2f}]':>20}")
    if sims:
        median = sims[len(sims) // 2]
        print(f"\nismcts simulations per searched decision: median {median}, min {sims[0]}, max {sims[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
