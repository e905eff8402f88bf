"""``reversis bench``: time the suite's benchmark hands through the driver protocol."""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass

from .engines import DriverEngine, EngineError, EngineFault
from .runner import STDERR_LINES, Case, load_cases


@dataclass
class BenchResult:
    """Actions per second for one engine on one benchmark hand, over repeated runs."""

    engine: str
    case: Case
    actions: int
    seconds: list[float]

    @property
    def median_seconds(self) -> float:
        """The median time of one run."""
        return statistics.median(self.seconds)

    def _rate(self, seconds: float) -> float:
        return self.actions / seconds if seconds else float("inf")

    @property
    def actions_per_second(self) -> float:
        """Applied actions per second at the median."""
        return self._rate(self.median_seconds)

    @property
    def rate_range(self) -> tuple[float, float]:
        """The slowest and the fastest run, in actions per second."""
        return self._rate(max(self.seconds)), self._rate(min(self.seconds))

    @property
    def spread(self) -> float:
        """Half the range of the runs' rates, as a fraction of the median rate."""
        low, high = self.rate_range
        return (high - low) / 2 / self.actions_per_second if self.actions_per_second else 0.0


def builtin_driver_command(engine: str) -> str:
    """The command that serves a built-in engine over the protocol, with this interpreter."""
    return f"{sys.executable} -m reversis driver --engine {engine}"


def time_case(engine: DriverEngine, case: Case, repeats: int, warmups: int = 1) -> list[float]:
    """The seconds of each of ``repeats`` plays of ``case``'s actions, from ``new_game`` to ``drop``.

    The first ``warmups`` plays are not timed: they pay for what happens once per process (the
    implementation's imports, caches and just-in-time compilation), which is not its speed.
    """
    actions = [step["action"] for step in case.data["steps"] if "action" in step]

    def play() -> float:
        started = time.perf_counter()
        game = engine.call("new_game", ruleset=case.data["ruleset"], **case.data.get("start", {}))["game"]
        for action in actions:
            engine.call("apply", game=game, action=action)
        engine.call("drop", game=game)
        return time.perf_counter() - started

    for _ in range(warmups):
        play()
    return [play() for _ in range(repeats)]


def run_bench(commands: dict[str, str], repeats: int = 5, timeout: float = 10.0) -> tuple[list[BenchResult], list[str]]:
    """Time every benchmark case on every engine command.

    Returns the results and the names of the engines that failed (no answer to ``hello``, or a
    hand that failed), each reported on standard error and skipped.
    """
    cases = load_cases(("bench",))
    results = []
    failed: list[str] = []
    for name, command in commands.items():
        engine = DriverEngine(command, timeout=timeout)
        try:
            claimed = engine.call("hello")["capabilities"].get("presets", [])
            for case in cases:
                if case.data["ruleset"] not in claimed:
                    continue
                actions = sum(1 for step in case.data["steps"] if "action" in step)
                try:
                    results.append(BenchResult(name, case, actions, time_case(engine, case, repeats)))
                except (EngineError, EngineFault) as problem:
                    print(f"{name}: {case.id} failed: {problem}", file=sys.stderr)
                    if name not in failed:
                        failed.append(name)
        except (EngineError, EngineFault) as problem:
            print(f"{name}: no answer to hello: {problem}", file=sys.stderr)
            failed.append(name)
            for line in engine.stderr_tail().splitlines()[-STDERR_LINES:]:
                print(f"  | {line}", file=sys.stderr)
        except BaseException:
            # Stopped (Ctrl-C, SIGTERM): no grace period for an implementation cut off mid-request.
            engine.kill()
            raise
        finally:
            engine.close()
    return results, failed


def format_results(results: list[BenchResult]) -> str:
    """A table: one row per benchmark hand, one column per engine, in actions per second.

    Each cell is the median with half the range of the runs (``±``, in percent of it); below the
    table, per hand, the engines from fastest to slowest, or which of them are too close to
    rank: neighbours whose ranges of runs overlap are not told apart.
    """
    engines = list(dict.fromkeys(r.engine for r in results))
    rulesets = list(dict.fromkeys(r.case.data["ruleset"] for r in results))
    cell = {(r.engine, r.case.data["ruleset"]): r for r in results}
    width = max([len(e) for e in engines] + [18])
    lines = [f"{'actions/s':<16}" + "".join(f"{e:>{width + 2}}" for e in engines)]
    for ruleset in rulesets:
        row = []
        for engine in engines:
            found = cell.get((engine, ruleset))
            text = "-" if found is None else f"{found.actions_per_second:,.0f} ±{found.spread:.0%}"
            row.append(f"{text:>{width + 2}}")
        lines.append(f"{ruleset:<16}" + "".join(row))
    lines.append("")
    for ruleset in rulesets:
        ranked = sorted(
            (cell[(e, ruleset)] for e in engines if (e, ruleset) in cell), key=lambda r: -r.actions_per_second
        )
        if len(ranked) < 2:
            continue
        ties = [
            f"{a.engine} and {b.engine}"
            for a, b in zip(ranked, ranked[1:])
            if a.rate_range[0] <= b.rate_range[1]  # the slower runs of the faster reach the faster of the slower
        ]
        if ties:
            lines.append(f"{ruleset}: too noisy to rank {'; '.join(ties)} (their runs overlap: use more --repeats)")
        else:
            lines.append(f"{ruleset}: " + " > ".join(r.engine for r in ranked))
    return "\n".join(lines)
