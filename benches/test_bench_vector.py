"""The vector environment against per-step loops, side by side: decisions per second.

Every loop makes the same decisions of ``hearts-4`` (random legal play, passing and the moon
included where the loop's game has them) and does the same work per decision: it reads the
acting seat's legal mask and an observation tensor, picks a legal action at random, and applies
it. What differs is who does the work:

- ``VectorEnv.step``: 1,024 games a call, actions picked in NumPy from the mask buffer, the
  OBS-3 observation (1435 ``int32``) written by the core; one thread and two.
- OpenSpiel's per-step loop: ``legal_actions_mask()``, ``information_state_tensor()`` (5,088
  floats: hearts has no observation tensor in OpenSpiel) and ``apply_action`` per decision, on
  hands dealt before the clock (OpenSpiel's hearts is one hand; no passing, as chance outcome 0
  is "No Pass").
- reversis' per-step integer API: ``legal_mask()``, the OBS-3 encoding of the acting seat's
  observation (``reversis.encoding``) and ``apply_action`` per decision, on the same kind of
  dealt hold hands.

Each round times all of them one after the other, so load on the machine falls on every loop
alike; ratios come from the medians. Run ``python -m pytest benches --benchmark-only -k vector``.

``test_vector_threads`` sets the vector loop on one thread and on two, with ``int32`` and
``uint8`` observations, side by side: each step it picks the actions from the mask in NumPy,
steps, and stores the observations in a rollout buffer as a learner would (a copy of the whole
batch), timing the three apart.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import pytest

import reversis
from reversis.encoding import encode_observation
from reversis.players import observe

np = pytest.importorskip("numpy")

PRESET = "hearts-4"
HOLD_HAND = 3
NUM_ENVS = 1024
VECTOR_STEPS = 52
STEP_HANDS = 4
#: Rounds of the thread benchmark, and steps of each configuration a round (a hand is 64),
#: after a few untimed ones: an environment's thread sleeps while the others run, and the
#: first step wakes it.
THREAD_ROUNDS = 25
THREAD_STEPS = 64
THREAD_WARMUP = 4


def pick_legal(rng: Any, mask: Any) -> Any:
    """One uniformly random legal id per row of a boolean mask, in NumPy.

    The legal entries' flat indices, in order, hold each row's ids together: row ``i``'s start
    among them, found by a binary search for ``i × 106``, plus a uniform draw below the row's
    count. One draw per row rather than a draw per entry (``argmax`` of masked noise draws
    108,544 floats for 1,024 rows), which makes it several times faster.
    """
    rows, width = mask.shape
    bounds = np.arange(rows + 1) * width
    legal = np.flatnonzero(mask)
    starts = np.searchsorted(legal, bounds)
    counts = np.diff(starts)
    offsets = (rng.random(rows) * counts).astype(np.intp)
    return legal[starts[:-1] + offsets] - bounds[:-1]


def _vector_loop(env: Any, rng: Any) -> int:
    mask = np.asarray(env.legal_action_mask)  # shares the buffer: it follows every step
    observation = np.asarray(env.observation)
    store = np.empty_like(observation)
    for _ in range(VECTOR_STEPS):
        env.step(pick_legal(rng, mask))
        np.copyto(store, observation)
    return VECTOR_STEPS * NUM_ENVS


def _reversis_dealt(hands: int) -> list[Any]:
    ruleset = reversis.preset(PRESET)
    games = []
    for seed in range(hands):
        game = reversis.Game(ruleset, hand_number=HOLD_HAND)
        game.deal(reversis.deal_from_seed(ruleset, seed, 1, HOLD_HAND)[0])
        games.append(game)
    return games


def _reversis_loop(games: list[Any]) -> int:
    """The per-step integer API with a mask and the OBS-3 tensor per decision."""
    choice = random.Random(7).choice
    decisions = 0
    for game in games:
        while game.phase == "play":
            game.legal_mask()
            encode_observation(observe(game, game.to_act))
            game.apply_action(choice(game.legal_actions()))
            decisions += 1
    return decisions


def _openspiel_dealt(game: Any, hands: int) -> list[Any]:
    rng = random.Random(11)
    states = []
    for _ in range(hands):
        state = game.new_initial_state()
        state.apply_action(0)  # the pass direction: 0 is "No Pass"
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        states.append(state)
    return states


def _openspiel_loop(states: list[Any]) -> int:
    """OpenSpiel's per-step loop with a mask and its tensor per decision."""
    choice = random.Random(7).choice
    decisions = 0
    for state in states:
        while not state.is_terminal():
            state.legal_actions_mask()
            state.information_state_tensor()
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
    return decisions


def test_vector_side_by_side(benchmark: Any) -> None:
    """Decisions per second of each loop, timed in turn within every round."""
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    spiel_game = pyspiel.load_game("hearts") if pyspiel is not None else None
    ruleset = reversis.preset(PRESET)
    envs = {threads: reversis.VectorEnv(ruleset, NUM_ENVS, 1, threads=threads) for threads in (1, 2)}
    rng = np.random.default_rng(5)
    series: dict[str, list[float]] = {"vector, 1 thread": [], "vector, 2 threads": [], "per-step ids + obs": []}
    if spiel_game is not None:
        series["openspiel per-step + tensor"] = []

    def timed(name: str, loop: Any, *args: Any) -> None:
        started = time.perf_counter()
        decisions = loop(*args)
        series[name].append(decisions / (time.perf_counter() - started))

    def one_round() -> None:
        timed("vector, 1 thread", _vector_loop, envs[1], rng)
        timed("per-step ids + obs", _reversis_loop, _reversis_dealt(STEP_HANDS))
        timed("vector, 2 threads", _vector_loop, envs[2], rng)
        if spiel_game is not None:
            timed("openspiel per-step + tensor", _openspiel_loop, _openspiel_dealt(spiel_game, STEP_HANDS))

    benchmark.pedantic(one_round, rounds=15)
    benchmark.extra_info.update(
        kind="vector", decisions_per_second={name: statistics.median(rates) for name, rates in series.items()}
    )
    # pytest-benchmark keeps the round function, and so these environments and their threads,
    # after the test: let them go before the next benchmark.
    envs.clear()


def _cpu_seconds() -> tuple[float | None, float]:
    """Seconds every processor has been busy (``None`` without ``/proc/stat``), and this process's."""
    import os
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    ours = usage.ru_utime + usage.ru_stime
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return None, ours
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK"), ours


def _threads_loop(env: Any, rng: Any, store: Any, times: dict[str, list[float]]) -> None:
    """``THREAD_STEPS`` steps: the pick, the step and the storing of the observations, timed apart."""
    mask = np.asarray(env.legal_action_mask)
    observation = np.asarray(env.observation)
    for k in range(THREAD_WARMUP):
        env.step(pick_legal(rng, mask))
        np.copyto(store[k % len(store)], observation)
    pick = step = keep = 0.0
    clock = time.perf_counter
    for k in range(THREAD_STEPS):
        started = clock()
        actions = pick_legal(rng, mask)
        picked = clock()
        env.step(actions)
        stepped = clock()
        np.copyto(store[k % len(store)], observation)
        kept = clock()
        pick += picked - started
        step += stepped - picked
        keep += kept - stepped
    for name, seconds in (("pick", pick), ("step", step), ("store", keep)):
        times[name].append(seconds / THREAD_STEPS)


def test_vector_threads(benchmark: Any) -> None:
    """µs per step of 1,024 games on 1 and 2 threads, int32 and uint8, timed in turn each round."""
    ruleset = reversis.preset(PRESET)
    configs = [(dtype, threads) for dtype in ("int32", "uint8") for threads in (1, 2)]
    envs = {
        (dtype, threads): reversis.VectorEnv(ruleset, NUM_ENVS, 1, threads=threads, observation_dtype=dtype)
        for dtype, threads in configs
    }
    # A rollout buffer of four steps of observations for each dtype, written in turn.
    stores = {dtype: np.empty((4, NUM_ENVS, 1435), dtype=dtype) for dtype in ("int32", "uint8")}
    rng = np.random.default_rng(5)
    times: dict[tuple[str, int], dict[str, list[float]]] = {
        config: {"pick": [], "step": [], "store": []} for config in configs
    }

    rounds = 0

    def one_round() -> None:
        nonlocal rounds
        # The order turns from round to round, so that none always follows the same one.
        for dtype, threads in configs[rounds % len(configs) :] + configs[: rounds % len(configs)]:
            _threads_loop(envs[dtype, threads], rng, stores[dtype], times[dtype, threads])
        rounds += 1

    busy, ours = _cpu_seconds()
    started = time.perf_counter()
    benchmark.pedantic(one_round, rounds=THREAD_ROUNDS)
    elapsed = time.perf_counter() - started
    busy_after, ours_after = _cpu_seconds()
    benchmark.extra_info.update(
        kind="vector-threads",
        games=NUM_ENVS,
        # The processor time other programs took meanwhile, in cores, from /proc/stat (Linux).
        others_cores=None if busy is None else max(0.0, (busy_after - busy) - (ours_after - ours)) / elapsed,
        seconds_per_step={
            f"{dtype}|{threads}": {name: statistics.median(series) for name, series in parts.items()}
            for (dtype, threads), parts in times.items()
        },
        # Each round's one-thread step time over its two-thread one, the configurations of a
        # round being timed within a fraction of a second of each other.
        step_ratios={
            dtype: statistics.median(one / two for one, two in zip(times[dtype, 1]["step"], times[dtype, 2]["step"]))
            for dtype in ("int32", "uint8")
        },
        loops_per_second={
            f"{dtype}|{threads}|{what}": statistics.median(
                NUM_ENVS / sum(parts[name][k] for name in names) for k in range(THREAD_ROUNDS)
            )
            for (dtype, threads), parts in times.items()
            for what, names in (("pick+step", ("pick", "step")), ("pick+step+store", ("pick", "step", "store")))
        },
    )
