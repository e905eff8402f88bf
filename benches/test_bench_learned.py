"""The learned player's network, side by side: seconds per decision.

A network of the size a trained player has (1435 → 512 → 256 → 106, relu between, random
binary16 weights) decides for OBS-3 observations of ``hearts-computer`` positions:

- ``decide_batch``: a ``VectorEnv``'s 1,024 observation and mask rows per call, on one thread
  and two, without the GIL (the sparse forward pass of the players crate: a layer adds only the
  weight columns of its nonzero inputs);
- NumPy: the same network and rows as a dense ``float32`` forward pass (matrix products), the
  masked argmax included;
- ``decide``: one call per row from Python;
- ``LearnedPlayer.act``: a table's decision, the observation encoded in Python
  (``reversis.encoding``) and decided in Rust.

Each round times all of them one after the other, so load on the machine falls on every loop
alike. Run ``python -m pytest benches --benchmark-only -k learned``.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis import _core
from reversis.players import computer_actions, observe
from reversis.players.learned import LearnedPlayer, read_weights, write_weights

np = pytest.importorskip("numpy")

PRESET = "hearts-computer"
SIZES = [1435, 512, 256, 106]
NUM_ENVS = 1024
SINGLE_ROWS = 256
TABLE_DECISIONS = 200


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.default_rng(3)
    layers = []
    for k in range(len(SIZES) - 1):
        inputs, outputs = SIZES[k], SIZES[k + 1]
        weights = rng.normal(0.0, 1.0 / np.sqrt(inputs), size=(outputs, inputs))
        biases = rng.normal(0.0, 0.05, size=outputs)
        layers.append((weights, biases, "relu" if k < len(SIZES) - 2 else "identity"))
    path = tmp_path_factory.mktemp("learned") / "bench.rvnn"
    write_weights(path, layers, {"preset": PRESET, "encoding_version": 3})
    return path


def _dense(layers: list[tuple[Any, Any, str]], observation: Any, mask: Any) -> Any:
    x = observation.astype(np.float32)
    for weights, biases, activation in layers:
        x = x @ weights.T + biases
        if activation == "relu":
            x = np.maximum(x, 0.0)
    return np.argmax(np.where(mask, x, -np.inf), axis=1)


def _table_observations() -> list[Any]:
    """Observations of acting seats of games played at random, for the table's player."""
    rng = random.Random(4)
    ruleset = reversis.preset(PRESET)
    out = []
    game = reversis.Game(ruleset, seed=1)
    while len(out) < TABLE_DECISIONS:
        if game.phase == "over":
            game = reversis.Game(ruleset, seed=rng.getrandbits(32))
        if game.phase == "play":
            out.append(observe(game, game.to_act))
        game.apply_action(rng.choice(game.legal_actions()))
    return out


def test_learned_side_by_side(benchmark: Any, weights_file: Path) -> None:
    """Seconds per decision of each way, timed in turn within every round."""
    policy = _core.LearnedPolicy.from_file(weights_file)
    player = LearnedPlayer(weights=weights_file)
    env = reversis.VectorEnv(reversis.preset(PRESET), NUM_ENVS, 2)
    for step in range(40):  # into the hand: cards played, the encoding less sparse
        env.step(computer_actions(env, "rules", step))
    observation, mask = np.asarray(env.observation), np.asarray(env.legal_action_mask)
    dense_layers = [
        (np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32), a) for w, b, a in _read_dense(weights_file)
    ]
    rows = [(observation[i], np.flatnonzero(mask[i]).tolist()) for i in range(SINGLE_ROWS)]
    table = _table_observations()
    expected = policy.decide_batch(observation, mask)
    # The dense float32 pass sums in another order; on random weights no decision is that close.
    assert np.mean(_dense(dense_layers, observation, mask) == np.asarray(expected)) > 0.99
    series: dict[str, list[float]] = {
        "decide_batch, 1 thread": [],
        "decide_batch, 2 threads": [],
        "numpy dense float32": [],
        "decide, one call a row": [],
        "LearnedPlayer.act": [],
    }

    def timed(name: str, decisions: int, loop: Any) -> None:
        started = time.perf_counter()
        loop()
        series[name].append((time.perf_counter() - started) / decisions)

    def one_round() -> None:
        timed("decide_batch, 1 thread", NUM_ENVS, lambda: policy.decide_batch(observation, mask))
        timed("decide_batch, 2 threads", NUM_ENVS, lambda: policy.decide_batch(observation, mask, threads=2))
        timed("numpy dense float32", NUM_ENVS, lambda: _dense(dense_layers, observation, mask))
        timed("decide, one call a row", SINGLE_ROWS, lambda: [policy.decide(o, legal) for o, legal in rows])
        timed("LearnedPlayer.act", TABLE_DECISIONS, lambda: [player.act(o) for o in table])

    benchmark.pedantic(one_round, rounds=15)
    nonzero = float(np.mean(np.count_nonzero(observation, axis=1)))
    benchmark.extra_info.update(
        kind="learned",
        network="-".join(map(str, SIZES)),
        nonzero_inputs=nonzero,
        seconds_per_decision={name: statistics.median(times) for name, times in series.items()},
    )


def _read_dense(path: Path) -> list[tuple[Any, Any, str]]:
    """The network's layers as NumPy arrays, through the pure-Python reader."""
    return [(np.array(w), np.array(b), a) for w, b, a in read_weights(path).layers]
