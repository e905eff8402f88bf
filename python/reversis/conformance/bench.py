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
    """Actions per second for one engine on one benchmark hand (median over repeats)."""

    engine: str
    case: Case
    actions: int
    median_seconds: float

    @property
    def actions_per_second(self) -> float:
        """Applied actions per second at the median."""
        return self.actions / self.median_seconds if self.median_seconds else float("inf")


def builtin_driver_command(engine: str) -> str:
    """The command that serves a built-in engine over the protocol, with this interpreter."""
    return f"{sys.executable} -m reversis driver --engine {engine}"


def time_case(engine: DriverEngine, case: Case, repeats: int, warmups: int = 1) -> float:
    """The median seconds to play ``case``'s actions once, from ``new_game`` to ``drop``.

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
    return statistics.median(play() for _ in range(repeats))


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
    """A table: one row per benchmark hand, one column per engine, in actions per second."""
    engines = list(dict.fromkeys(r.engine for r in results))
    rulesets = list(dict.fromkeys(r.case.data["ruleset"] for r in results))
    cell = {(r.engine, r.case.data["ruleset"]): r.actions_per_second for r in results}
    width = max([len(e) for e in engines] + [12])
    lines = [f"{'actions/s':<16}" + "".join(f"{e:>{width + 2}}" for e in engines)]
    for ruleset in rulesets:
        values = [cell.get((e, ruleset)) for e in engines]
        lines.append(f"{ruleset:<16}" + "".join(f"{'-' if v is None else f'{v:,.0f}':>{width + 2}}" for v in values))
    return "\n".join(lines)
