"""Side-by-side benchmarks: the Rust core, the reference engine and OpenSpiel's hearts.

Every benchmark plays whole classic 4-player hands (``hearts-4``: 52 cards, 13 tricks, the
first-trick ban, Q♠ breaking hearts) with every seat choosing uniformly among its legal cards,
and reports its time per hand in ``extra_info``; ``conftest.py`` prints the ratios. Run:

    python -m pytest benches --benchmark-only
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import reversis
from reversis import reference

PRESET = "hearts-4"
#: Hand 3 of the cycle holds: play starts straight after the deal, as in a hand without passing.
HOLD_HAND = 3


def _play_hand(module: Any, seed: int, rng: random.Random) -> int:
    """One whole hand through the per-step API: one ``legal_plays`` and one ``play`` per card."""
    game = module.Game(module.preset(PRESET), seed, hand_number=HOLD_HAND)
    plays = 0
    while game.hand_number == HOLD_HAND and game.phase == "play":
        legal = game.legal_plays()
        game.play(legal[rng.randrange(len(legal))])
        plays += 1
    if game.phase == "moon":
        game.choose_moon("add-to-others")
    return plays


def _per_step(module: Any, hands: int) -> int:
    rng = random.Random(7)
    return sum(_play_hand(module, seed, rng) for seed in range(hands))


@pytest.mark.parametrize("engine", ["rust", "reference"])
def test_per_step_api(benchmark: Any, engine: str) -> None:
    """The per-step Python API, 20 hands a round."""
    module = reversis if engine == "rust" else reference
    hands = 20
    plays = benchmark(_per_step, module, hands)
    assert plays == 52 * hands
    benchmark.extra_info.update(kind="per-step", engine=engine, hands=hands)


def test_batch_rust(benchmark: Any) -> None:
    """The batch entry point: 20,000 hands inside Rust on one thread, no Python per card."""
    ruleset = reversis.preset(PRESET)
    hands = 20_000
    result = benchmark(reversis.simulate, ruleset, hands, 1, threads=1)
    totals = [sum(row) for row in result.scores.tolist()]
    # Every hand distributes 26 points, or 78 (add-to-others) or -26 (subtract) after a moon.
    assert set(totals) <= {26, 78, -26}
    benchmark.extra_info.update(kind="batch", engine="rust", hands=hands)


def test_batch_reference(benchmark: Any) -> None:
    """The same random hands played by the reference engine, 20 hands a round (with passing)."""
    hands = 20

    def play() -> int:
        rng = random.Random(3)
        ruleset = reference.preset(PRESET)
        cards = 0
        for index in range(hands):
            game = reference.Game(ruleset, seed=index, hand_number=index)
            while game.hand_number == index and game.phase != "over":
                if game.phase == "pass":
                    seat = game.awaiting_pass[0]
                    game.pass_cards(seat, rng.sample(game.hand(seat), 3))
                elif game.phase == "moon":
                    game.choose_moon(rng.choice(["add-to-others", "subtract-from-taker"]))
                else:
                    game.play(rng.choice(game.legal_plays()))
                    cards += 1
        return cards

    assert benchmark(play) == 52 * hands
    benchmark.extra_info.update(kind="batch", engine="reference", hands=hands)


def _openspiel_hand(pyspiel: Any, game: Any, rng: random.Random) -> int:
    state = game.new_initial_state()
    plays = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            plays += 1
    return plays


@pytest.mark.parametrize("kind", ["per-step", "batch"])
def test_openspiel(benchmark: Any, kind: str) -> None:
    """OpenSpiel's hearts, one whole hand at a time through its Python API, 20 hands a round.

    OpenSpiel passes on three hands in four, card by card, so its hands carry up to 12 extra
    decisions; the per-hand figure counts them, which favours no engine unduly.
    """
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("hearts")
    hands = 20

    def play() -> int:
        rng = random.Random(5)
        return sum(_openspiel_hand(pyspiel, game, rng) for _ in range(hands))

    assert benchmark(play) >= 52 * hands
    benchmark.extra_info.update(kind=kind, engine="openspiel", hands=hands)
