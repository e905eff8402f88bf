"""An OpenSpiel bot plays a reversis ruleset against uniform random bots.

Seat 0 is OpenSpiel's information-set Monte Carlo tree search (its Python ISMCTS, which draws
the hidden cards with the game's ``resample_from_infostate``); every other seat is OpenSpiel's
uniform random bot. Each episode is one hand; the script prints every seat's mean return
(minus its mean score: higher is better).

Usage: ``python examples/openspiel_bot.py [HANDS] [PRESET] [SIMULATIONS]``, by default 5 hands of
``hearts-4`` with 20 simulations a decision. Every preset is offered, those of two packs (RS-21)
included: the game resamples their hidden copies as multisets (see
:mod:`reversis.adapters.openspiel_game`).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import reversis
from reversis.adapters.openspiel_game import game_name


def play_hand(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> list[float]:
    """One episode: chance deals, each seat's bot chooses its actions; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())


def _positive(text: str) -> int:
    """A whole number of at least 1, else a usage error."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main(argv: list[str]) -> int:
    """Play the hands and print the mean returns."""
    parser = argparse.ArgumentParser(description="OpenSpiel's ISMCTS at seat 0 against uniform random bots.")
    parser.add_argument("hands", nargs="?", type=_positive, default=5, help="hands to play (default 5)")
    parser.add_argument("preset", nargs="?", choices=reversis.preset_names(), default="hearts-4", help="the ruleset")
    parser.add_argument("simulations", nargs="?", type=_positive, default=20, help="simulations a decision")
    args = parser.parse_args(argv)
    hands, preset, simulations = args.hands, args.preset, args.simulations
    game = pyspiel.load_game(game_name(preset))
    players = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    searcher = ismcts.ISMCTSBot(
        game, evaluator, uct_c=10.0, max_simulations=simulations, random_state=np.random.RandomState(2)
    )
    # A seeded sampler for the search's draws of the hidden cards, so that a run can be repeated.
    sampler = pyspiel.UniformProbabilitySampler(4, 0.0, 1.0)
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    bots = [searcher] + [pyspiel.make_uniform_random_bot(seat, 100 + seat) for seat in range(1, players)]
    rng = np.random.RandomState(3)
    totals = np.zeros(players)
    for _ in range(hands):
        totals += play_hand(game, bots, rng)
    print(f"{preset}: {hands} hands, seat 0 ISMCTS ({simulations} simulations), the others uniform random")
    for seat, total in enumerate(totals):
        print(f"seat {seat} mean return {total / hands:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
