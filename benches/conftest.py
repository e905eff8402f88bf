"""Print the ratios of the benchmarks measured in this run, side by side."""

from __future__ import annotations

import statistics
from typing import Any

#: (label, numerator, denominator, the ratio the project promises): each side is (kind, engine).
RATIOS = [
    ("batch: Rust vs reference", ("batch", "reference"), ("batch", "rust"), 200),
    ("batch Rust vs OpenSpiel per-hand loop", ("batch", "openspiel"), ("batch", "rust"), 100),
    ("per-step ids: Rust vs OpenSpiel", ("per-step ids", "openspiel"), ("per-step ids", "rust"), 2),
    ("per-step cards: Rust vs OpenSpiel", ("per-step ids", "openspiel"), ("per-step cards", "rust"), 1.5),
    ("per-step ids: Rust vs reference", ("per-step ids", "reference"), ("per-step ids", "rust"), 10),
    ("per-step cards: Rust vs reference", ("per-step cards", "reference"), ("per-step cards", "rust"), 10),
]
#: (label, faster loop, slower loop, the ratio promised) of the vector benchmark's decision rates.
VECTOR_RATIOS = [
    ("vector (1 thread) vs OpenSpiel per-step + tensor", "vector, 1 thread", "openspiel per-step + tensor", 20),
    ("vector (1 thread) vs per-step ids + obs", "vector, 1 thread", "per-step ids + obs", 10),
    ("vector: 2 threads vs 1", "vector, 2 threads", "vector, 1 thread", None),
]


#: (label, faster side, slower side, the ratio promised) of the WebAssembly benchmark: the
#: package under Node against the native core, each ratio native time over WebAssembly time.
WASM_RATIOS = [
    ("simulate: WebAssembly vs native", ("simulate", "wasm"), ("simulate", "native"), 0.5),
    ("per-step ids: JavaScript vs Python", ("per-step ids", "javascript"), ("per-step ids", "python"), 0.5),
]


#: The goals of the thread benchmark: two threads' step against one thread's, and the
#: decisions a second of the loop that picks in NumPy and steps, on two threads.
THREADS_STEP_RATIO = 1.8
THREADS_LOOP_RATE = 2_000_000


def _write_threads(write: Any, info: dict[str, Any]) -> None:
    parts = {tuple(key.split("|")): value for key, value in info["seconds_per_step"].items()}
    loops = {tuple(key.split("|")): value for key, value in info["loops_per_second"].items()}
    write(
        f"vector environment, hearts-4, {info['games']:,} games: median µs per step "
        "(pick in NumPy, step, store the observations)"
    )
    write(f"  {'dtype':<6} {'threads':>7} {'pick':>8} {'step':>8} {'store':>8}   decisions/s: pick+step, +store")
    for (dtype, threads), seconds in sorted(parts.items()):
        write(
            f"  {dtype:<6} {threads:>7} {seconds['pick'] * 1e6:>8.1f} {seconds['step'] * 1e6:>8.1f} "
            f"{seconds['store'] * 1e6:>8.1f}   {loops[dtype, threads, 'pick+step']:>12,.0f} "
            f"{loops[dtype, threads, 'pick+step+store']:>12,.0f}"
        )
    if info.get("others_cores") is not None:
        write(f"  other programs took {info['others_cores']:.2f} of a core during the run (/proc/stat)")
    for dtype in sorted({dtype for dtype, _ in parts}):
        ratio = parts[dtype, "1"]["step"] / parts[dtype, "2"]["step"]
        paired = info["step_ratios"][dtype]
        verdict = "meets" if paired >= THREADS_STEP_RATIO else "BELOW"
        write(
            f"  step, {dtype}: 2 threads vs 1 {ratio:>9.2f}x of the medians, {paired:.2f}x round by round "
            f"({verdict} the {THREADS_STEP_RATIO}x target)"
        )
        rate = loops[dtype, "2", "pick+step"]
        verdict = "meets" if rate >= THREADS_LOOP_RATE else "BELOW"
        write(f"  pick+step, {dtype}, 2 threads {rate:>15,.0f}/s  ({verdict} the {THREADS_LOOP_RATE:,}/s target)")


def _write_wasm(write: Any, info: dict[str, Any]) -> None:
    per_hand = {tuple(key.split("|")): seconds for key, seconds in info["per_hand"].items()}
    spread = {tuple(key.split("|")): bounds for key, bounds in info["spread"].items()}
    write("median seconds per whole hearts-4 hand, WebAssembly (Node) beside native, in turn each round:")
    for key, seconds in sorted(per_hand.items()):
        low, high = spread[key]
        write(
            f"  {key[0]:<15} {key[1]:<10} {seconds * 1e6:>10.2f} µs  "
            f"(fastest {low * 1e6:.2f}, slowest {high * 1e6:.2f})"
        )
    for label, wasm, native, promised in WASM_RATIOS:
        ratio = per_hand[native] / per_hand[wasm]
        verdict = "meets" if ratio >= promised else "BELOW"
        write(f"  {label:<40} {ratio:>10,.2f}x  ({verdict} the {promised}x target)")
    write(
        f"  the module: {info['module_bytes'] / 1000:,.0f} KB, "
        f"{info['module_gzip_bytes'] / 1000:,.0f} KB gzipped (goal: 300 KB gzipped)"
    )


def _write_learned(write: Any, info: dict[str, Any]) -> None:
    seconds = info["seconds_per_decision"]
    write(
        f"median seconds per decision of a {info['network']} network on hearts-computer rows "
        f"({info['nonzero_inputs']:.0f} of 1435 inputs nonzero on average):"
    )
    for name, value in sorted(seconds.items(), key=lambda item: item[1]):
        write(f"  {name:<28} {value * 1e6:>10.2f} µs")
    batch, dense = seconds["decide_batch, 1 thread"], seconds["numpy dense float32"]
    write(f"  {'decide_batch (1 thread) vs NumPy dense':<40} {dense / batch:>6.1f}x")
    write(f"  {'decide_batch: 2 threads vs 1':<40} {batch / seconds['decide_batch, 2 threads']:>6.1f}x")


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    per_hand: dict[tuple[str, str], float] = {}
    per_call: dict[str, float] = {}
    wasm: dict[str, Any] | None = None
    browser: dict[str, Any] | None = None
    review: dict[str, Any] | None = None
    web_size: dict[str, Any] | None = None
    browser_load: dict[str, Any] | None = None
    learned: dict[str, Any] | None = None
    rates: dict[str, float] = {}
    threads: dict[str, Any] | None = None
    for bench in session.benchmarks:
        info = bench.extra_info
        if bench.stats is None:
            continue
        if info.get("kind") == "wasm":
            wasm = info
        elif info.get("kind") == "browser-search":
            browser = info
        elif info.get("kind") == "browser-review":
            review = info
        elif info.get("kind") == "web-size":
            web_size = info
        elif info.get("kind") == "browser-load":
            browser_load = info
        elif info.get("kind") == "learned":
            learned = info
        elif info.get("kind") == "vector":
            rates.update(info["decisions_per_second"])
        elif info.get("kind") == "vector-threads":
            threads = info
        elif info.get("kind") == "side-by-side":
            for key, seconds in info["per_hand"].items():
                kind, engine = key.split("|")
                per_hand[(kind, engine)] = seconds
        elif info.get("kind") == "per-call":
            per_call[info["call"]] = bench.stats.median / info["calls"]
        elif "kind" in info:
            per_hand[(info["kind"], info["engine"])] = bench.stats.median / info["hands"]
    write = terminalreporter.write_line
    write("")
    if per_hand:
        write("median seconds per whole hearts-4 hand (per-step: play only, the deal not timed):")
        for (kind, engine), seconds in sorted(per_hand.items()):
            write(f"  {kind:<15} {engine:<10} {seconds * 1e6:>10.1f} µs  ({1 / seconds:>12,.0f} hands/s)")
        write("ratios (how many times faster):")
        for label, slow, fast, promised in RATIOS:
            if slow in per_hand and fast in per_hand:
                ratio = per_hand[slow] / per_hand[fast]
                verdict = "meets" if ratio >= promised else "BELOW"
                write(f"  {label:<40} {ratio:>10,.1f}x  ({verdict} the {promised}x target)")
            else:
                write(f"  {label:<40} {'n/a':>10}  (not measured in this run)")
    if per_call:
        write("median nanoseconds per call (Rust engine, hearts-4, five tricks into a hand):")
        for call, seconds in sorted(per_call.items()):
            write(f"  {call:<15} {seconds * 1e9:>10.0f} ns")
    if rates:
        write("median decisions per second (hearts-4, a mask and an observation tensor per decision):")
        for name, rate in sorted(rates.items()):
            write(f"  {name:<30} {rate:>14,.0f}")
        for label, fast, slow, promised in VECTOR_RATIOS:
            if fast in rates and slow in rates:
                ratio = rates[fast] / rates[slow]
                verdict = (
                    ""
                    if promised is None
                    else f"  ({'meets' if ratio >= promised else 'BELOW'} the {promised}x target)"
                )
                write(f"  {label:<48} {ratio:>8,.1f}x{verdict}")
    if threads is not None:
        _write_threads(write, threads)
    if learned is not None:
        _write_learned(write, learned)
    if wasm is not None:
        _write_wasm(write, wasm)
    if review is not None:
        reviews = sorted(review["review_ms"])
        write(f"the review of a hearts-computer hand in {review['browser']}, {review['playouts']} playouts a card:")
        write(
            f"  median {statistics.median(reviews):.0f} ms, slowest {reviews[-1]:.0f} ms, of {len(reviews)} "
            f"(goal: 2000 ms); the page's longest task meanwhile {review['longest_task_ms']:.0f} ms (goal: 100 ms)"
        )
    if browser is not None:
        plays = sorted(browser["play_ms"])
        write(
            f"the search player's decisions in {browser['browser']}, its default budget, playing for the match, "
            "through web/worker.js:"
        )
        write(
            f"  a card: median {statistics.median(plays):.1f} ms, slowest {plays[-1]:.1f} ms, "
            f"of {len(plays)} (goal: 250 ms)"
        )
        if browser["pass_ms"]:
            passes = sorted(browser["pass_ms"])
            write(
                f"  a pass (four times the budget): median {statistics.median(passes):.1f} ms, "
                f"slowest {passes[-1]:.1f} ms"
            )
    if web_size is not None:
        sizes = web_size["sizes"]
        write("the page and its module in web/dist (bytes, and under gzip -9):")
        for name, (raw, packed) in sizes.items():
            write(f"  {name:<36} {raw:>9,} {packed:>9,}")
        total, packed = sum(r for r, _ in sizes.values()), sum(p for _, p in sizes.values())
        write(f"  {'all':<36} {total:>9,} {packed:>9,}")
        for page, files in web_size["pages"].items():
            raw, packed = sum(sizes[f][0] for f in files), sum(sizes[f][1] for f in files)
            write(f"  {page + ' and all it loads':<36} {raw:>9,} {packed:>9,}  (goal: 300 KB gzipped)")
        write(
            f"  not part of it: the learned player's network, {web_size['learned_network_bytes']:,} bytes, "
            "fetched only when that player is chosen"
        )
    if browser_load is not None:
        loads = len(browser_load["ready_ms"])
        write(
            f"cold loads of the page in HeadlessChrome/{browser_load['browser']} (each in a new profile), "
            f"medians of {loads}:"
        )
        write(f"  navigation until the table is ready to play: {statistics.median(browser_load['ready_ms']):.0f} ms")
        for key, what in (("longest_load_ms", "the load"), ("longest_hand_ms", "a played hand")):
            values = browser_load[key]
            write(
                f"  longest main-thread task during {what}: {statistics.median(values):.0f} ms "
                f"(longest of all {max(values):.0f} ms; 0: none of 50 ms or more)"
            )
