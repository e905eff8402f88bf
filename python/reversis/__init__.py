"""reversis: the rules of the Hearts family as an exact, testable protocol, with a fast Rust core.

The API here is backed by the Rust core; :mod:`reversis.reference` offers the identical API in
pure Python (spec/api.md).

>>> import reversis
>>> game = reversis.Game(reversis.preset("hartenjagen"), seed=1)
>>> game.legal_plays()
['7C']
"""

from __future__ import annotations

from dataclasses import dataclass

from ._core import (
    Game,
    Ruleset,
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

ENGINE = "rust"

__all__ = [
    "ENGINE",
    "Game",
    "IllegalActionError",
    "InvalidInputError",
    "ReversisError",
    "Ruleset",
    "Simulation",
    "card_id",
    "deal_from_seed",
    "dump_record",
    "load_record",
    "parse_card",
    "preset",
    "preset_names",
    "seed_draws",
    "simulate",
]


@dataclass(frozen=True)
class Simulation:
    """The results of :func:`simulate`, as zero-copy buffers.

    ``scores`` has shape ``(hands, players)`` of ``int32``: each hand's scores after the moon
    rule. ``legal_masks``, when asked for, has shape ``(hands, deck size)`` of ``uint64``: the
    legal-card mask (bit ``card_id``) of every play decision of each hand, in playing order.
    ``numpy.asarray`` wraps either without copying.
    """

    scores: memoryview
    legal_masks: memoryview | None


def simulate(ruleset: Ruleset, hands: int, seed: int, *, threads: int = 1, legal_masks: bool = False) -> Simulation:
    """Play ``hands`` independent hands inside the Rust core, every seat choosing uniformly at random.

    Hand ``i`` depends only on ``seed`` and ``i``, so the results are the same whatever the
    number of ``threads``; the GIL is released while the hands are played.

    >>> result = simulate(preset("hearts-4"), hands=3, seed=1)
    >>> result.scores.shape
    (3, 4)
    """
    if legal_masks:
        score_bytes, mask_bytes = simulate_scores_and_masks(ruleset, hands, seed, threads)
        masks = (
            memoryview(mask_bytes).cast("B").cast("Q", (hands, len(ruleset.deck))) if hands else memoryview(mask_bytes)
        )
    else:
        score_bytes, masks = simulate_scores(ruleset, hands, seed, threads), None
    scores = memoryview(score_bytes).cast("B").cast("i", (hands, ruleset.players)) if hands else memoryview(score_bytes)
    return Simulation(scores, masks)
