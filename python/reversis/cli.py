"""The ``reversis`` command.

Every subcommand behaves the same way at its edges: a bad option value is a usage error (exit
status 2) before any work; Ctrl-C stops it promptly with one line and exit status 130 (``SIGTERM``
and ``SIGHUP``: 128 plus the signal's number), never a traceback, and its worker processes
stop too; a closed pipe (``reversis … | head``) ends it quietly, with status 141 as a shell
shows for ``SIGPIPE``; a file it cannot read or write is one line of error and status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from .commands.common import (
    STDOUT,
    Terminated,
    driver_command,
    finite_float,
    install_signal_handlers,
    output_file,
    positive,
    writable_file,
)

ENGINES = ("rust", "reference")
#: ``--timeout``: a finite number of seconds, more than 0 and at most a day.
TIMEOUT = finite_float(0.0, strict=True, high=86_400.0)
#: The default of ``reversis conformance --max-timeouts`` (spec/driver.md DRV-2), the runner's
#: :data:`reversis.conformance.runner.MAX_TIMEOUTS`: the command line imports the runner only when it runs.
MAX_TIMEOUTS = 3
#: Modules of :mod:`reversis.commands` that each register one subcommand.
COMMAND_MODULES: list[str] = ["play", "tournament.cli", "ladder", "soak", "report", "perft"]


def _check_conformance(args: argparse.Namespace) -> str | None:
    """The usage errors of ``reversis conformance``, found before any engine runs.

    An id ``--case`` names that no case has, and an expected-failures file that cannot be read,
    is not an object of ids and reasons, or names an id no case has.
    """
    from .conformance.runner import load_cases, read_expected_failures

    if args.json == STDOUT and args.badge == STDOUT:
        return "--json - and --badge - would both write to standard output: give one of them a file"
    args.cases = load_cases()
    known = {case.id for case in args.cases}
    unknown = [case_id for case_id in args.case or [] if case_id not in known]
    if unknown:
        return f"argument --case: no case has the id {', '.join(repr(case_id) for case_id in unknown)}"
    args.expected = {}
    if args.expected_failures is not None:
        try:
            args.expected = read_expected_failures(args.expected_failures, args.cases)
        except ValueError as error:
            return f"argument --expected-failures: {error}"
    return None


def _conformance(args: argparse.Namespace) -> int:
    from .conformance import DriverEngine, ModuleEngine, builtin_engine, run_cases

    cases = args.cases
    if args.case:
        cases = [case for case in cases if case.id in args.case]
    if args.area:
        cases = [case for case in cases if case.area in args.area]
    if not cases:
        wanted = [f"area(s) {', '.join(args.area)}"] if args.area else []
        wanted += [f"the id(s) {', '.join(args.case)}"] if args.case else []
        print(f"no cases in {' with '.join(wanted)}", file=sys.stderr)
        return 2
    targets: list[tuple[str, ModuleEngine | DriverEngine]] = []
    if args.driver is not None:
        targets.append((args.driver, DriverEngine(args.driver, timeout=args.timeout)))
    else:
        for name in args.engine or ENGINES:
            targets.append((name, builtin_engine(name)))
    reports = []
    for name, engine in targets:
        try:
            reports.append(
                run_cases(engine, cases, name, max_timeouts=args.max_timeouts, expected_failures=args.expected)
            )
        finally:
            engine.close()
    # A report on standard output is read by a program: the summary goes to standard error then.
    with contextlib.redirect_stdout(sys.stderr) if STDOUT in (args.json, args.badge) else contextlib.nullcontext():
        failed = _print_reports(reports)
    if args.json:
        data = json.dumps([report.to_json() for report in reports], indent=1, ensure_ascii=False)
        with output_file(args.json) as out:
            out.write(data.encode("utf-8"))
    if args.badge:
        from .commands.report.render import run_badge

        badge = run_badge([report.to_json() for report in reports])
        with output_file(args.badge) as out:
            out.write((json.dumps(badge) + "\n").encode("utf-8"))
    return 1 if failed else 0


def _print_reports(reports: list[Any]) -> bool:
    """Print each engine's counts and failures and the summary line; whether any engine failed."""
    from .conformance.runner import iter_failures

    failed = False
    statuses = [outcome.status for report in reports for outcome in report.outcomes]
    # The columns of an expected-failures file show only where one was given (or a case is listed).
    columns = ["passed", "failed", "skipped"]
    widths = {"passed": 7, "failed": 7, "skipped": 8, "expected-failure": 17, "unexpected-pass": 16}
    if any(status in ("expected-failure", "unexpected-pass") for status in statuses):
        columns += ["expected-failure", "unexpected-pass"]
    for report in reports:
        print(f"engine: {report.engine}")
        if report.implementation is not None:
            about = report.implementation
            version = f" {about['version']}" if about.get("version") is not None else ""
            spec = f", spec {about['spec_version']}" if about.get("spec_version") is not None else ""
            print(f"  implementation: {about.get('name')}{version}, protocol {about.get('protocol')}{spec}")
            print(f"  capabilities: {report.capability_line}")
        print(f"  {'area':<20}" + "".join(f" {column:>{widths[column]}}" for column in columns))
        totals = dict.fromkeys(columns, 0)
        for area, row in report.counts().items():
            for column in columns:
                totals[column] += row[column]
            print(f"  {area:<20}" + "".join(f" {row[column]:>{widths[column]}}" for column in columns))
        print(f"  {'total':<20}" + "".join(f" {totals[column]:>{widths[column]}}" for column in columns))
        for line in iter_failures(report):
            print(line)
        failed = failed or not report.ok
    summary = (
        f"{statuses.count('passed')} passed, {statuses.count('failed')} failed, {statuses.count('skipped')} skipped"
    )
    if len(columns) > 3:
        summary += (
            f", {statuses.count('expected-failure')} expected failures, "
            f"{statuses.count('unexpected-pass')} unexpected passes"
        )
    not_run = sum(report.not_run for report in reports)
    runs_failed = sum(report.failure is not None for report in reports)
    if runs_failed:
        summary += f", {not_run} not run; {runs_failed} run{'s' if runs_failed > 1 else ''} failed"
    print(summary)
    return failed


def _bench(args: argparse.Namespace) -> int:
    from .conformance.bench import builtin_driver_command, format_results, run_bench

    commands = {}
    if args.driver is not None:
        commands[args.driver] = args.driver
    for name in ENGINES:
        commands[f"{name} (driver)"] = builtin_driver_command(name)
    results, failed = run_bench(commands, repeats=args.repeats, timeout=args.timeout)
    print(f"median of {args.repeats} runs of each benchmark hand, every action through the driver protocol")
    print(format_results(results))
    if failed:
        print(f"not timed: {', '.join(failed)}", file=sys.stderr)
    # A benchmark that could not time an engine it was asked to is a failure, not a partial pass.
    return 1 if failed or not results else 0


def _driver(args: argparse.Namespace) -> int:
    from .conformance.driver import serve

    return serve(args.engine)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``reversis`` command."""
    parser = argparse.ArgumentParser(
        prog="reversis",
        description="The Hearts family of card games as an exact, testable protocol.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    conformance = commands.add_parser(
        "conformance",
        help="run the conformance suite against the built-in engines or a driver",
        description="Run the conformance suite. With no options: both built-in engines.",
    )
    which = conformance.add_mutually_exclusive_group()
    which.add_argument("--engine", action="append", choices=ENGINES, help="a built-in engine (repeatable)")
    which.add_argument(
        "--driver", metavar="CMD", type=driver_command, help="run an implementation through the driver protocol"
    )
    conformance.add_argument("--area", action="append", metavar="AREA", help="only the cases of this area (repeatable)")
    conformance.add_argument(
        "--case",
        action="append",
        metavar="ID",
        help="only the case with this id, AREA/SLUG (repeatable)",
    )
    conformance.add_argument(
        "--expected-failures",
        metavar="FILE",
        help='a JSON object {"CASE-ID": "reason", ...} of the cases the implementation is known to fail',
    )
    conformance.add_argument(
        "--json",
        metavar="FILE",
        type=writable_file,
        help="also write a JSON report to FILE (- for standard output, the summary then on standard error)",
    )
    conformance.add_argument(
        "--badge",
        metavar="FILE",
        type=writable_file,
        help="also write a shields.io endpoint badge of the result to FILE (- for standard output)",
    )
    conformance.add_argument("--timeout", type=TIMEOUT, default=10.0, help="seconds a driver may take per request")
    conformance.add_argument(
        "--max-timeouts",
        type=positive,
        default=MAX_TIMEOUTS,
        metavar="N",
        help=f"give up on a driver after N cases in a row end in a timeout (default {MAX_TIMEOUTS})",
    )
    conformance.set_defaults(run=_conformance, check=_check_conformance, parser=conformance)

    bench = commands.add_parser(
        "bench",
        help="time the benchmark hands through the driver protocol",
        description="Time the suite's benchmark hands (actions per second through the driver protocol), "
        "for an implementation and beside the built-in engines.",
    )
    bench.add_argument(
        "--driver", metavar="CMD", type=driver_command, help="an implementation to time through the driver protocol"
    )
    bench.add_argument("--repeats", type=positive, default=5, help="runs of each hand; the median is reported")
    bench.add_argument("--timeout", type=TIMEOUT, default=10.0, help="seconds a driver may take per request")
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


def package_version() -> str:
    """The installed package's version (``importlib.metadata``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("reversis")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at the null device so the exit flush cannot fail.

    As the Python documentation of ``SIGPIPE`` recommends.
    """
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _say_stopped(line: str) -> None:
    """The one line of a stopped command, on a line of its own (after a prompt or progress bar)."""
    with contextlib.suppress(OSError, ValueError):
        start = "\n" if sys.stderr.isatty() else ""
        print(start + line, file=sys.stderr)


#: The exit status of a command stopped by a closed pipe, as a shell shows ``SIGPIPE``.
BROKEN_PIPE_STATUS = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``reversis`` command; returns the exit status."""
    command = "reversis"
    restore = install_signal_handlers()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        command = f"reversis {args.command}"
        check = getattr(args, "check", None)
        if check is not None:
            problem = check(args)
            if problem:
                args.parser.error(problem)
        try:
            status = int(args.run(args))
        except (OSError, ValueError) as error:
            if isinstance(error, BrokenPipeError):
                raise
            # Unreadable or unwritable files and rejected input (every ReversisError is a
            # ValueError): a message and a non-zero status, never a traceback.
            print(f"{command}: error: {error}", file=sys.stderr)
            return 1
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE_STATUS
    except KeyboardInterrupt:
        _say_stopped(f"{command}: interrupted")
        return 130
    except Terminated as signal:
        _say_stopped(f"{command}: stopped by signal {signal.signum}")
        return signal.status
    finally:
        restore()


if __name__ == "__main__":
    sys.exit(main())
