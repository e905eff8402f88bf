"""The ``reversis`` command."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

ENGINES = ("rust", "reference")
#: Modules of :mod:`reversis.commands` that each register one subcommand.
COMMAND_MODULES: list[str] = ["play", "tournament", "soak"]


def _conformance(args: argparse.Namespace) -> int:
    from .conformance import DriverEngine, ModuleEngine, builtin_engine, load_cases, run_cases
    from .conformance.runner import iter_failures

    cases = load_cases()
    if args.area:
        cases = [case for case in cases if case.area in args.area]
        if not cases:
            print(f"no cases in area(s) {', '.join(args.area)}", file=sys.stderr)
            return 2
    targets: list[tuple[str, ModuleEngine | DriverEngine]] = []
    if args.driver:
        targets.append((args.driver, DriverEngine(args.driver, timeout=args.timeout)))
    else:
        for name in args.engine or ENGINES:
            targets.append((name, builtin_engine(name)))
    reports = []
    for name, engine in targets:
        try:
            reports.append(run_cases(engine, cases, name))
        finally:
            engine.close()
    failed = False
    for report in reports:
        print(f"engine: {report.engine}")
        print(f"  {'area':<20} {'passed':>7} {'failed':>7} {'skipped':>8}")
        totals = [0, 0, 0]
        for area, row in report.counts().items():
            numbers = [row["passed"], row["failed"], row["skipped"]]
            totals = [a + b for a, b in zip(totals, numbers)]
            print(f"  {area:<20} {numbers[0]:>7} {numbers[1]:>7} {numbers[2]:>8}")
        print(f"  {'total':<20} {totals[0]:>7} {totals[1]:>7} {totals[2]:>8}")
        for line in iter_failures(report):
            print(line)
        failed = failed or bool(report.failed)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([report.to_json() for report in reports], out, indent=1, ensure_ascii=False)
    statuses = [outcome.status for report in reports for outcome in report.outcomes]
    print(f"{statuses.count('passed')} passed, {statuses.count('failed')} failed, {statuses.count('skipped')} skipped")
    return 1 if failed else 0


def _bench(args: argparse.Namespace) -> int:
    from .conformance.bench import builtin_driver_command, format_results, run_bench

    commands = {}
    if args.driver:
        commands[args.driver] = args.driver
    for name in ENGINES:
        commands[f"{name} (driver)"] = builtin_driver_command(name)
    results = run_bench(commands, repeats=args.repeats, timeout=args.timeout)
    print(f"median of {args.repeats} runs of each benchmark hand, every action through the driver protocol")
    print(format_results(results))
    return 0 if results else 1


def _driver(args: argparse.Namespace) -> int:
    from .conformance.driver import serve

    return serve(args.engine)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``reversis`` command."""
    parser = argparse.ArgumentParser(
        prog="reversis",
        description="The Hearts family of card games as an exact, testable protocol.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    conformance = commands.add_parser(
        "conformance",
        help="run the conformance suite against the built-in engines or a driver",
        description="Run the conformance suite. With no options: both built-in engines.",
    )
    conformance.add_argument("--engine", action="append", choices=ENGINES, help="a built-in engine (repeatable)")
    conformance.add_argument("--driver", metavar="CMD", help="run an implementation through the driver protocol")
    conformance.add_argument("--area", action="append", metavar="AREA", help="only the cases of this area (repeatable)")
    conformance.add_argument("--json", metavar="FILE", help="also write a JSON report to FILE")
    conformance.add_argument("--timeout", type=float, default=10.0, help="seconds a driver may take per request")
    conformance.set_defaults(run=_conformance)

    bench = commands.add_parser(
        "bench",
        help="time the benchmark hands through the driver protocol",
        description="Time the suite's benchmark hands (actions per second through the driver protocol), "
        "for an implementation and beside the built-in engines.",
    )
    bench.add_argument("--driver", metavar="CMD", help="an implementation to time through the driver protocol")
    bench.add_argument("--repeats", type=int, default=5, help="runs of each hand; the median is reported")
    bench.add_argument("--timeout", type=float, default=10.0, help="seconds a driver may take per request")
    bench.set_defaults(run=_bench)

    driver = commands.add_parser(
        "driver",
        help="serve a built-in engine over the driver protocol on stdin/stdout",
        description="Serve a built-in engine over the driver protocol (spec/driver.md).",
    )
    driver.add_argument("--engine", choices=ENGINES, default="rust")
    driver.set_defaults(run=_driver)

    for name in COMMAND_MODULES:
        importlib.import_module(f"reversis.commands.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``reversis`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except (OSError, ValueError) as error:
        # Unreadable or unwritable files and rejected input (every ReversisError is a
        # ValueError): a message and a non-zero status, never a traceback.
        print(f"reversis {args.command}: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
