"""reversis: the rules of the Hearts family as an exact, testable protocol, with a fast Rust core.

The API here is backed by the Rust core; :mod:`reversis.reference` offers the identical API in
pure Python (spec/api.md).

>>> import reversis
>>> game = reversis.Game(reversis.preset("hartenjagen"), seed=1)
>>> game.legal_plays(), game.legal_actions()
(['7C'], [5])
>>> game.apply_action(5)
>>> game.undo()
>>> game == reversis.Game(reversis.preset("hartenjagen"), seed=1)
True
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _metadata_version
from typing import Any

from ._core import (
    ERROR_CODES,
    NUM_ACTIONS,
    ActionsView,
    Game,
    Ruleset,
    action_from_ids,
    action_ids,
    action_label,
    card_id,
    deal_from_seed,
    dump_record,
    load_record,
    parse_card,
    preset,
    preset_names,
    seed_draws,
    simulate_scores,
    simulate_scores_and_masks,
)
from .errors import IllegalActionError, InvalidInputError, ReversisError
from .simulation import Simulation
from .vector import VectorEnv, episode_seed

ENGINE = "rust"

try:  # one source of truth: the version in Cargo.toml, which the build writes into the metadata
    __version__: str = _metadata_version("reversis")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "unknown"

__all__ = [
    "ENGINE",
    "ERROR_CODES",
    "NUM_ACTIONS",
    "ActionsView",
    "Game",
    "IllegalActionError",
    "InvalidInputError",
    "ReversisError",
    "Ruleset",
    "Simulation",
    "VectorEnv",
    "action_from_ids",
    "action_ids",
    "action_label",
    "card_id",
    "deal_from_seed",
    "dump_record",
    "episode_seed",
    "load_record",
    "parse_card",
    "preset",
    "preset_names",
    "seed_draws",
    "simulate",
]


def simulate(ruleset: Any, hands: int, seed: int, *, threads: int = 1, legal_masks: bool = False) -> Simulation:
    """Play ``hands`` independent hands inside the Rust core, every seat choosing uniformly at random.

    Hand ``i`` depends only on ``seed`` and ``i``, so the results are the same whatever the
    number of ``threads``; the GIL is released while the hands are played (API-5).

    >>> result = simulate(preset("hearts-4"), hands=3, seed=1)
    >>> result.scores.shape
    (3, 4)

    :raises InvalidInputError: ``invalid-setup`` for a count, seed or ruleset out of range.
    """
    if legal_masks:
        scores, masks = simulate_scores_and_masks(ruleset, hands, seed, threads)
    else:
        scores, masks = simulate_scores(ruleset, hands, seed, threads), None
    return Simulation.from_bytes(scores, masks, hands=hands, players=ruleset.players, deck_size=len(ruleset.deck))
