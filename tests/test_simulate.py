"""The batch entry point: whole hands inside Rust, results through the buffer protocol."""

from __future__ import annotations

import threading

import pytest

import reversis


def _allowed_totals(ruleset: reversis.Ruleset) -> set[int]:
    """What one hand's scores may add up to: all points, or a moon's total (SCORE-1, SCORE-2)."""
    # Over the deck, so that each copy of a card counts (two packs, D-15).
    values = [ruleset.card_points.get(card, 0) for card in ruleset.deck]
    positive = sum(v for v in values if v > 0)
    negative = sum(v for v in values if v < 0)
    totals = {positive + negative}
    if ruleset.moon is not None:
        bonus = ruleset.moon["bonus"]
        totals |= {(ruleset.players - 1) * bonus + negative, -bonus + negative}
    return totals


@pytest.mark.parametrize("name", reversis.preset_names())
def test_every_hand_adds_up_and_the_thread_count_changes_nothing(name: str) -> None:
    ruleset = reversis.preset(name)
    one = reversis.simulate(ruleset, 400, seed=11, threads=1)
    assert one.scores.shape == (400, ruleset.players)
    assert one.scores.format == "i"
    rows = one.scores.tolist()
    assert {sum(row) for row in rows} <= _allowed_totals(ruleset)
    assert len({tuple(row) for row in rows}) > 50  # the hands really differ
    for threads in (2, 3, 8):
        assert reversis.simulate(ruleset, 400, seed=11, threads=threads).scores.tolist() == rows
    assert reversis.simulate(ruleset, 400, seed=12).scores.tolist() != rows


def test_legal_masks_follow_the_rules_of_the_first_trick() -> None:
    ruleset = reversis.preset("hearts-4")
    result = reversis.simulate(ruleset, 50, seed=3, legal_masks=True)
    assert result.legal_masks is not None
    assert result.legal_masks.shape == (50, 52)
    assert result.legal_masks.format == "Q"
    two_of_clubs = 1 << reversis.card_id("2C")
    for hand in result.legal_masks.tolist():
        assert hand[0] == two_of_clubs  # PLAY-1: the opening lead is forced
        assert all(mask != 0 for mask in hand)  # PLAY-8: never an empty legal set
        # The last card of the hand is the only one its holder has left.
        assert bin(hand[-1]).count("1") == 1
    same = reversis.simulate(ruleset, 50, seed=3)
    assert same.scores.tolist() == result.scores.tolist()


def test_no_hands_gives_empty_results() -> None:
    result = reversis.simulate(reversis.preset("hearts-4"), 0, seed=1, legal_masks=True)
    assert result.scores.tobytes() == b""
    assert result.legal_masks is not None and result.legal_masks.tobytes() == b""


def test_numpy_wraps_the_results_without_copying() -> None:
    numpy = pytest.importorskip("numpy")
    result = reversis.simulate(reversis.preset("hearts-4"), 100, seed=5)
    array = numpy.asarray(result.scores)
    assert array.shape == (100, 4)
    assert array.dtype == numpy.int32
    assert numpy.shares_memory(array, numpy.asarray(result.scores))
    assert array.tolist() == result.scores.tolist()


def test_the_gil_is_released_while_hands_are_played() -> None:
    ruleset = reversis.preset("hearts-4")
    done = threading.Event()
    results: list[list[list[int]]] = []

    def work() -> None:
        results.append(reversis.simulate(ruleset, 300_000, seed=9).scores.tolist())
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    spins = 0
    while not done.is_set():
        spins += 1  # Python code keeps running only if the simulation let go of the GIL
    worker.join()
    assert spins > 10_000
    assert len(results[0]) == 300_000


def test_simulations_from_several_threads_at_once_give_each_its_own_result() -> None:
    ruleset = reversis.preset("hartenjagen")
    expected = {seed: reversis.simulate(ruleset, 2000, seed=seed).scores.tolist() for seed in range(6)}
    got: dict[int, list[list[int]]] = {}

    def work(seed: int) -> None:
        got[seed] = reversis.simulate(ruleset, 2000, seed=seed, threads=2).scores.tolist()

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == expected


def test_both_engines_simulate_alike(engine) -> None:
    """API-5: the same shapes and the same sums in both engines (the random choices differ)."""
    ruleset = engine.preset("hearts-4")
    result = engine.simulate(ruleset, 30, 4, legal_masks=True)
    assert result.scores.shape == (30, 4) and result.scores.format == "i"
    assert {sum(row) for row in result.scores.tolist()} <= {26, 78, -26}
    assert result.legal_masks is not None and result.legal_masks.shape == (30, 52)
    assert engine.simulate(ruleset, 30, 4).scores.tolist() == result.scores.tolist()
    empty = engine.simulate(ruleset, 0, 4)
    assert empty.scores.shape == (0,) and empty.legal_masks is None
    with pytest.raises(engine.InvalidInputError):
        engine.simulate(ruleset, -1, 4)
    with pytest.raises(engine.InvalidInputError):
        engine.simulate(ruleset, 1, 4, threads=0)
