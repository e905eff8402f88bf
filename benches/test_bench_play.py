"""Side-by-side benchmarks: the Rust core, the reference engine and OpenSpiel's hearts.

Every benchmark plays whole classic 4-player hands (``hearts-4``: 52 cards, 13 tricks, the
first-trick ban, Q♠ breaking hearts) with every seat choosing uniformly among its legal cards,
and reports its time per hand in ``extra_info``; ``conftest.py`` prints the ratios. Run:

    python -m pytest benches --benchmark-only
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import pytest

import reversis
from reversis import reference

PRESET = "hearts-4"
#: Hand 3 of the cycle holds: play starts straight after the deal, as in a hand without passing.
HOLD_HAND = 3


def _dealt_games(module: Any, hands: int) -> list[Any]:
    """Hold hands dealt by hand from the deals of seeds ``0 … hands-1``: the deal is set-up, not
    timed, and as the games are unseeded no next hand is dealt inside the loop either, as in
    OpenSpiel's one-hand game."""
    ruleset = module.preset(PRESET)
    games = []
    for seed in range(hands):
        game = module.Game(ruleset, hand_number=HOLD_HAND)
        game.deal(module.deal_from_seed(ruleset, seed, 1, HOLD_HAND)[0])
        games.append(game)
    return games


def _play_by_ids(games: list[Any]) -> int:
    """The integer API, one ``legal_actions()`` and one ``apply_action(random choice)`` per card."""
    choice = random.Random(7).choice
    plays = 0
    for game in games:
        while game.phase == "play":  # the hand ends in phase moon or deal
            game.apply_action(choice(game.legal_actions()))
            plays += 1
    return plays


def _play_by_cards(games: list[Any]) -> int:
    """The string API, one ``legal_plays()`` and one ``play(random choice)`` per card."""
    choice = random.Random(7).choice
    plays = 0
    for game in games:
        while game.phase == "play":
            game.play(choice(game.legal_plays()))
            plays += 1
    return plays


LOOPS = {"ids": _play_by_ids, "cards": _play_by_cards}
#: Hands per round of the per-step benchmarks.
STEP_HANDS = 20


@pytest.mark.parametrize(("engine", "api"), [("reference", "ids"), ("reference", "cards")])
def test_per_step_api(benchmark: Any, engine: str, api: str) -> None:
    """The per-step Python API on play-only hands, 20 hands a round, dealt before the clock starts."""
    module = reversis if engine == "rust" else reference
    loop = LOOPS[api]
    plays = benchmark.pedantic(
        loop, setup=lambda: ((_dealt_games(module, STEP_HANDS),), {}), rounds=30 if engine == "rust" else 5
    )
    # A hand ends in phase moon (taker-choice) or the next deal: 52 cards either way.
    assert plays == 52 * STEP_HANDS
    benchmark.extra_info.update(kind=f"per-step {api}", engine=engine, hands=STEP_HANDS)


def _mid_hand_game() -> Any:
    """A hold hand of hearts-4 five tricks in: the position the per-call benchmarks use."""
    game = reversis.Game(reversis.preset(PRESET), 1, hand_number=HOLD_HAND)
    for _ in range(21):
        game.apply_action(game.legal_actions()[0])
    return game


def _hand_of_ids() -> tuple[Any, list[int]]:
    """A dealt hold hand and the ids of one whole random play of it (52 cards)."""
    dealt = reversis.Game(reversis.preset(PRESET), 1, hand_number=HOLD_HAND)
    game, ids, choice = dealt.copy(), [], random.Random(2).choice
    while game.phase == "play":
        ids.append(choice(game.legal_actions()))
        game.apply_action(ids[-1])
    return dealt, ids


CALLS = 10_000


@pytest.mark.parametrize("call", ["copy", "legal_mask", "legal_actions", "legal_mask(seat)"])
def test_per_call(benchmark: Any, call: str) -> None:
    """One Rust-backed call alone, 10,000 times a round, on a game five tricks into a hand.

    Without a seat the mask is the one the game keeps from the first call until its next input;
    ``legal_mask(seat)``, given the acting seat, computes it on every call.
    """
    game = _mid_hand_game()
    method = getattr(game, call.removesuffix("(seat)"))
    seat = game.to_act

    def run() -> None:
        for _ in range(CALLS):
            method()

    def run_for_seat() -> None:
        for _ in range(CALLS):
            method(seat)

    if call.endswith("(seat)"):
        run = run_for_seat

    benchmark(run)
    benchmark.extra_info.update(kind="per-call", call=call, calls=CALLS)


def test_per_call_apply_action(benchmark: Any) -> None:
    """``apply_action`` alone: a whole hand's 52 ids on a game dealt before the clock starts."""
    dealt, ids = _hand_of_ids()

    def run(game: Any) -> None:
        for action in ids:
            game.apply_action(action)

    benchmark.pedantic(run, setup=lambda: ((dealt.copy(),), {}), rounds=2000)
    benchmark.extra_info.update(kind="per-call", call="apply_action", calls=len(ids))


def test_per_call_undo(benchmark: Any) -> None:
    """``undo`` alone: a whole hand taken back card by card, played before the clock starts."""
    dealt, ids = _hand_of_ids()

    def played() -> tuple[tuple[Any], dict[str, Any]]:
        game = dealt.copy()
        for action in ids:
            game.apply_action(action)
        return (game,), {}

    def run(game: Any) -> None:
        for _ in ids:
            game.undo()

    benchmark.pedantic(run, setup=played, rounds=2000)
    benchmark.extra_info.update(kind="per-call", call="undo", calls=len(ids))


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
                    game.pass_cards(rng.sample(game.hand(seat), 3), seat)
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


def _openspiel_dealt(game: Any, hands: int) -> list[Any]:
    """OpenSpiel states just after the deal of a hand without passing: chance is set-up, not timed."""
    rng = random.Random(11)
    states = []
    for _ in range(hands):
        state = game.new_initial_state()
        state.apply_action(0)  # the first chance outcome is the pass direction: 0 is "No Pass"
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        states.append(state)
    return states


def _openspiel_play(states: list[Any]) -> int:
    """OpenSpiel's per-step loop: one ``legal_actions()`` and one ``apply_action(random choice)``."""
    choice = random.Random(7).choice
    plays = 0
    for state in states:
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            plays += 1
    return plays


def test_per_step_side_by_side(benchmark: Any) -> None:
    """The Rust engine's two per-step loops and OpenSpiel's, in turn within every round.

    Each round times 20 play-only hands of each loop one after the other, so a burst of load on
    the machine falls on all three alike; the ratios come from the medians of the three series.
    Without OpenSpiel installed only the Rust loops are timed.
    """
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    game = pyspiel.load_game("hearts") if pyspiel is not None else None
    series: dict[tuple[str, str], list[float]] = {("per-step ids", "rust"): [], ("per-step cards", "rust"): []}
    if game is not None:
        series[("per-step ids", "openspiel")] = []

    def timed(key: tuple[str, str], loop: Any, states: list[Any]) -> None:
        started = time.perf_counter()
        plays = loop(states)
        series[key].append((time.perf_counter() - started) / STEP_HANDS)
        assert plays == 52 * STEP_HANDS

    def one_round() -> None:
        timed(("per-step ids", "rust"), _play_by_ids, _dealt_games(reversis, STEP_HANDS))
        if game is not None:
            timed(("per-step ids", "openspiel"), _openspiel_play, _openspiel_dealt(game, STEP_HANDS))
        timed(("per-step cards", "rust"), _play_by_cards, _dealt_games(reversis, STEP_HANDS))

    benchmark.pedantic(one_round, rounds=300)
    benchmark.extra_info.update(
        kind="side-by-side",
        per_hand={f"{kind}|{engine}": statistics.median(times) for (kind, engine), times in series.items()},
    )


def test_openspiel_batch(benchmark: Any) -> None:
    """OpenSpiel's hearts, one whole hand at a time through its Python API, 20 hands a round.

    The deal (52 chance outcomes) and the passing are inside the loop here, as the batch figure
    is the whole hand; OpenSpiel passes on three hands in four, card by card, so its hands carry
    up to 12 extra decisions.
    """
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("hearts")
    hands = 20

    def play() -> int:
        rng = random.Random(5)
        return sum(_openspiel_hand(pyspiel, game, rng) for _ in range(hands))

    assert benchmark(play) >= 52 * hands
    benchmark.extra_info.update(kind="batch", engine="openspiel", hands=hands)
