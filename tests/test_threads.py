"""API-7: the Rust-backed objects under several Python threads at once."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from reversis.errors import ILLEGAL_CODES

pytest.importorskip("reversis._core")
import reversis

THREADS = 8


def _next_action(game: Any, rng: random.Random) -> dict[str, Any] | None:
    if game.phase == "pass":
        seat = rng.choice(game.awaiting_pass)
        return {"type": "pass", "seat": seat, "cards": rng.sample(game.hand(seat), game.ruleset.passing["size"])}
    if game.phase == "play":
        return {"type": "play", "seat": game.to_move, "card": rng.choice(game.legal_plays())}
    if game.phase == "moon":
        return {"type": "moon", "seat": game.moon_taker, "choice": "add-to-others"}
    return None


def test_one_game_hammered_from_several_threads_stays_a_sequential_outcome() -> None:
    ruleset = reversis.Ruleset.from_json({**reversis.preset("hearts-4").to_json(), "target": 60})
    game = reversis.Game(ruleset, seed=11)
    errors: list[BaseException] = []
    codes: set[str] = set()
    barrier = threading.Barrier(THREADS)

    def work(index: int) -> None:
        rng = random.Random(index)
        barrier.wait()
        for _ in range(600):
            try:
                # Read a view, decide on it, act: another thread may have moved in between.
                game.observation(rng.randrange(4))
                game.state()
                action = _next_action(game, rng)
                if action is None:
                    return
                game.apply(action)
            except reversis.ReversisError as error:
                codes.add(error.code)
            except RuntimeError as error:  # PyO3's borrow guard, documented in API-7
                assert "borrow" in str(error).lower()
            except BaseException as error:  # anything else is a failure
                errors.append(error)
                return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    # Stale decisions are rejected with illegal-action codes, never anything malformed.
    assert codes <= ILLEGAL_CODES, codes
    assert len(game.actions) > 100, "the threads made no progress"
    # The final state is what replaying the accepted actions one after another gives.
    replay = reversis.Game(ruleset, seed=11)
    for action in game.actions[len(replay.actions) :]:
        if action["type"] == "deal":
            continue  # a seeded game deals by itself
        replay.apply(action)
    assert replay.state() == game.state()
    assert reversis.Game.from_record(game.to_record()).state() == game.state()


def test_batch_simulations_from_several_threads_match_whatever_the_thread_counts() -> None:
    ruleset = reversis.preset("hearts-4")
    seeds = list(range(12))
    expected = {seed: reversis.simulate(ruleset, 3000, seed=seed).scores.tolist() for seed in seeds}
    got: dict[tuple[int, int], Any] = {}
    lock = threading.Lock()

    def work(seed: int, threads: int) -> None:
        rows = reversis.simulate(ruleset, 3000, seed=seed, threads=threads).scores.tolist()
        with lock:
            assert (seed, threads) not in got
            got[(seed, threads)] = rows

    jobs = [threading.Thread(target=work, args=(seed, 1 + seed % 4)) for seed in seeds]
    jobs += [threading.Thread(target=work, args=(seed, 7)) for seed in seeds]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join(timeout=120)
    assert len(got) == 2 * len(seeds), "a result was lost"
    for (seed, _), rows in got.items():
        assert len(rows) == 3000
        assert rows == expected[seed]


def test_a_ruleset_is_shared_between_threads() -> None:
    ruleset = reversis.preset("hearts-7")
    results: list[list[str]] = []

    def work(seed: int) -> None:
        game = reversis.Game(ruleset, seed=seed)
        while game.hand_number == 0:
            action = _next_action(game, random.Random(seed))
            assert action is not None
            game.apply(action)
        results.append(game.hand(0))

    jobs = [threading.Thread(target=work, args=(seed,)) for seed in range(THREADS)]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join(timeout=120)
    assert len(results) == THREADS
    assert ruleset == reversis.preset("hearts-7")
