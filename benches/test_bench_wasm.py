"""The core as WebAssembly under Node (the JavaScript package, js/) beside the native core.

Each round does the same work on both sides, one after the other, so a burst of load on the
machine falls on both alike; ``conftest.py`` prints the medians and their ratios:

- ``simulate``: 20,000 ``hearts-4`` hands, one thread, the same seed on both sides; Node returns
  a checksum of every hand's scores, which must equal the native one (the very same hands).
- per-step: 20 play-only ``hearts-4`` hands dealt from seeds 0 … 19 before the clock starts,
  then per card one list of legal ids, one random choice and one apply: the Python integer loop
  of ``test_bench_play.py`` (``legal_actions()``, ``random.choice``, ``apply_action()``) against
  the JavaScript one (``legalActions()``, a seeded generator, ``applyAction()``).

Needs Node and the built module (``bash js/build.sh``); skipped without them. Run:

    python -m pytest benches/test_bench_wasm.py --benchmark-only
"""

from __future__ import annotations

import gzip
import json
import shutil
import statistics
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import reversis
from test_bench_play import HOLD_HAND, PRESET, STEP_HANDS, _dealt_games, _play_by_ids

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "js" / "wasm" / "reversis_wasm_bg.wasm"
SIMULATE_HANDS = 20_000
ROUNDS = 60


class _Node:
    """benches/wasm_bench.mjs in a Node process, one JSON request and answer per line."""

    def __init__(self, node: str) -> None:
        self.process = subprocess.Popen(
            [node, str(ROOT / "benches" / "wasm_bench.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            pytest.fail(f"benches/wasm_bench.mjs ended (status {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            pytest.fail(f"benches/wasm_bench.mjs: {answer['error']}")
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def node() -> Iterator[_Node]:
    executable = shutil.which("node")
    if executable is None:
        pytest.skip("Node is not installed")
    if not MODULE.is_file():
        pytest.skip("the WebAssembly module is not built (bash js/build.sh)")
    process = _Node(executable)
    yield process
    process.close()


def _checksum(scores: Any) -> int:
    """Hand ``i``'s scores times ``i + 1``, summed: as benches/wasm_bench.mjs computes it."""
    return sum(sum(row) * (i + 1) for i, row in enumerate(scores.tolist()))


def test_wasm_side_by_side(benchmark: Any, node: _Node) -> None:
    """simulate and the per-step loop, native and WebAssembly, in turn within every round."""
    ruleset = reversis.preset(PRESET)
    sides = ("simulate|native", "simulate|wasm", "per-step ids|python", "per-step ids|javascript")
    series: dict[str, list[float]] = {key: [] for key in sides}
    seeds = iter(range(1, 10**6))

    def one_round() -> None:
        seed = next(seeds)
        started = time.perf_counter()
        result = reversis.simulate(ruleset, SIMULATE_HANDS, seed, threads=1)
        series["simulate|native"].append((time.perf_counter() - started) / SIMULATE_HANDS)
        answer = node.ask(op="simulate", preset=PRESET, hands=SIMULATE_HANDS, seed=seed)
        series["simulate|wasm"].append(answer["seconds"] / SIMULATE_HANDS)
        assert answer["checksum"] == _checksum(result.scores), "the two builds played different hands"

        games = _dealt_games(reversis, STEP_HANDS)
        started = time.perf_counter()
        plays = _play_by_ids(games)
        series["per-step ids|python"].append((time.perf_counter() - started) / STEP_HANDS)
        assert plays == 52 * STEP_HANDS
        answer = node.ask(op="per_step", preset=PRESET, hands=STEP_HANDS, hand_number=HOLD_HAND)
        series["per-step ids|javascript"].append(answer["seconds"] / STEP_HANDS)
        assert answer["plays"] == 52 * STEP_HANDS

    benchmark.pedantic(one_round, rounds=ROUNDS)
    raw = MODULE.read_bytes()
    benchmark.extra_info.update(
        kind="wasm",
        per_hand={key: statistics.median(times) for key, times in series.items()},
        spread={key: (min(times), max(times)) for key, times in series.items()},
        module_bytes=len(raw),
        module_gzip_bytes=len(gzip.compress(raw, compresslevel=9)),
    )
