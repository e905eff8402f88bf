"""Print the ratios of the benchmarks measured in this run, per hand, side by side."""

from __future__ import annotations

from typing import Any

#: (label, numerator, denominator, the ratio the project promises): each side is (kind, engine).
RATIOS = [
    ("batch: Rust vs reference", ("batch", "reference"), ("batch", "rust"), 200),
    ("per-step: Rust vs reference", ("per-step", "reference"), ("per-step", "rust"), 10),
    ("batch Rust vs OpenSpiel per-step loop", ("batch", "openspiel"), ("batch", "rust"), 100),
    ("per-step: Rust vs OpenSpiel", ("per-step", "openspiel"), ("per-step", "rust"), 2),
]


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    per_hand: dict[tuple[str, str], float] = {}
    for bench in session.benchmarks:
        info = bench.extra_info
        if "kind" in info and bench.stats is not None:
            per_hand[(info["kind"], info["engine"])] = bench.stats.median / info["hands"]
    write = terminalreporter.write_line
    write("")
    write("median seconds per whole hearts-4 hand:")
    for (kind, engine), seconds in sorted(per_hand.items()):
        write(f"  {kind:<9} {engine:<10} {seconds * 1e6:>12.1f} µs  ({1 / seconds:>12,.0f} hands/s)")
    write("ratios (how many times faster):")
    for label, slow, fast, promised in RATIOS:
        if slow in per_hand and fast in per_hand:
            ratio = per_hand[slow] / per_hand[fast]
            verdict = "meets" if ratio >= promised else "BELOW"
            write(f"  {label:<40} {ratio:>10,.1f}x  ({verdict} the {promised}x target)")
        else:
            write(f"  {label:<40} {'n/a':>10}  (not measured in this run)")
