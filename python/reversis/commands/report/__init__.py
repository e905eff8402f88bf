"""``reversis report``: run the suite on every implementation of a list and write a compliance report.

For each implementation of ``conformance/implementations.json`` it installs the harness when it
is missing (into ``--cache``), runs ``reversis conformance --driver`` on it (``--jobs`` at once),
and writes to ``--out``: ``index.html`` (the matrix), ``implementations/NAME.html`` (each
failure with its first difference, the clause and document it cites and a command that
reproduces it; each skip with its reason), ``results.json`` (``spec/schemas/report.schema.json``),
``badges/NAME.json`` (shields.io's endpoint format) and ``matrix.json`` (what ``--check``
compares: per implementation its status and per-area counts).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..common import count, finite_float
from . import catalog, render, results

#: The markers around the generated table in a README (``--readme``).
README_BEGIN = "<!-- implementations: begin (reversis report --readme) -->"
README_END = "<!-- implementations: end -->"
#: The markers around a harness's result in its own README (``--readme`` writes those too).
RESULT_BEGIN = "<!-- result: begin (reversis report --readme) -->"
RESULT_END = "<!-- result: end -->"


def _suite(areas: list[str] | None) -> tuple[list[Any], dict[str, Any]]:
    from ...conformance import load_cases
    from ...reference.ruleset import SPEC_VERSION

    cases = [case for case in load_cases() if areas is None or case.area in areas]
    if not cases:
        raise catalog.CatalogError(f"no cases in area(s) {', '.join(areas or [])}")
    areas = sorted({case.area for case in cases})
    return cases, {"spec_version": SPEC_VERSION, "cases": len(cases), "areas": areas}


def _chosen(args: argparse.Namespace) -> list[catalog.Implementation]:
    implementations = catalog.load(args.list, args.cache)
    if args.only:
        known = {entry.name for entry in implementations}
        unknown = [name for name in args.only if name not in known]
        if unknown:
            raise catalog.CatalogError(
                f"no implementation named {', '.join(unknown)} in {args.list} (known: {', '.join(sorted(known))})"
            )
        implementations = [entry for entry in implementations if entry.name in args.only]
    return implementations


def _write(path: Path, data: bytes) -> None:
    from ...table import replace_atomically

    path.parent.mkdir(parents=True, exist_ok=True)
    with replace_atomically(path) as out:
        out.write(data)


def _json_bytes(data: Any) -> bytes:
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def write_report(out: Path, data: dict[str, Any]) -> None:
    """Write every file of the report for ``data`` (``results.json``'s content) into ``out``."""
    _write(out / "results.json", _json_bytes(data))
    _write(out / "matrix.json", _json_bytes(results.matrix(data)))
    _write(out / "index.html", render.index_html(data).encode("utf-8"))
    for entry in data["implementations"]:
        _write(
            out / "implementations" / f"{entry['name']}.html", render.implementation_html(entry, data).encode("utf-8")
        )
        badge = render.badge(entry, data["suite"]["spec_version"])
        _write(out / "badges" / f"{entry['name']}.json", _json_bytes(badge))


def rewrite_readme(path: Path, table: str, begin_marker: str = README_BEGIN, end_marker: str = README_END) -> None:
    """Put ``table`` between the markers of the README at ``path``, atomically."""
    text = path.read_text(encoding="utf-8")
    begin, end = text.find(begin_marker), text.find(end_marker)
    if begin < 0 or end < begin:
        raise ValueError(f"{path} has no lines {begin_marker!r} … {end_marker!r} to put the text between")
    new = text[: begin + len(begin_marker)] + "\n" + table + text[end:]
    if new != text:
        _write(path, new.encode("utf-8"))


def rewrite_readmes(readme: Path, matrix: dict[str, Any], implementations: list[catalog.Implementation]) -> None:
    """The README's table, and each harness README's own result, from ``matrix``."""
    rewrite_readme(readme, render.markdown_table(matrix))
    rows = {row["name"]: row for row in matrix["implementations"]}
    for implementation in implementations:
        if implementation.harness is not None and implementation.name in rows:
            page = implementation.harness / "README.md"
            rewrite_readme(page, render.harness_result(rows[implementation.name]), RESULT_BEGIN, RESULT_END)


def _run(args: argparse.Namespace) -> int:
    try:
        implementations = _chosen(args)
    except catalog.CatalogError as error:
        print(f"reversis report: error: {error}", file=sys.stderr)
        return 2
    if args.print_driver is not None:
        found = [entry for entry in implementations if entry.name == args.print_driver]
        if not found:
            print(
                f"reversis report: error: no implementation named {args.print_driver} in {args.list}", file=sys.stderr
            )
            return 2
        print(found[0].driver)
        return 0
    try:
        cases, suite = _suite(args.area)
    except catalog.CatalogError as error:
        print(f"reversis report: error: {error}", file=sys.stderr)
        return 2
    index = results.case_index(cases)
    started = time.monotonic()
    print(
        f"{len(implementations)} implementations, {args.jobs} at a time; harnesses installed in {args.cache}",
        file=sys.stderr,
    )
    try:
        with tempfile.TemporaryDirectory(prefix="reversis-report-") as work, ThreadPoolExecutor(args.jobs) as pool:

            def one(implementation: catalog.Implementation) -> dict[str, Any]:
                entry = results.run(
                    implementation,
                    Path(work),
                    index,
                    install=not args.no_install,
                    timeout=args.timeout,
                    areas=args.area,
                )
                totals = entry["totals"]
                print(
                    f"  {entry['name']:<20} {totals['passed']:>4} passed {totals['failed']:>4} failed "
                    f"{totals['skipped']:>4} skipped  {entry['seconds']:>7.1f} s  {status_text(entry)}",
                    file=sys.stderr,
                )
                return entry

            entries = list(pool.map(one, implementations))
    finally:
        catalog.stop_all()
    data = {"suite": suite, "seconds": round(time.monotonic() - started, 1), "implementations": entries}
    if args.out is not None:
        write_report(args.out, data)
        print(f"report written to {args.out / 'index.html'}", file=sys.stderr)
    if args.write_expected is not None:
        _write(args.write_expected, _json_bytes(results.matrix(data)))
    if args.readme is not None:
        rewrite_readmes(args.readme, results.matrix(data), implementations)
    print(f"{len(entries)} implementations in {data['seconds']} s")
    if args.expected is not None:
        expected = json.loads(args.expected.read_text(encoding="utf-8"))
        differences = results.matrix_differences(expected, results.matrix(data))
        if differences:
            print(f"the matrix differs from {args.expected}:", file=sys.stderr)
            for line in differences:
                print(f"  {line}", file=sys.stderr)
            return 1
        print(f"the matrix is the one {args.expected} expects")
    return 0


def status_text(entry: dict[str, Any]) -> str:
    """How an implementation's run went, with the problem when it did not finish."""
    text = render.status_text(entry)
    return f"{text}: {entry['problem']}" if entry.get("problem") else text


def _check(args: argparse.Namespace) -> str | None:
    if args.print_driver is None and not (args.out or args.expected or args.write_expected or args.readme):
        return "say where the report goes (--out DIR), or what to do with it (--check, --write-expected, --readme)"
    if args.readme is not None and (args.only or args.area):
        return "--readme shows every implementation over the whole suite: leave out --only and --area"
    if args.expected is not None and not args.expected.is_file():
        return f"--check {args.expected}: no such file"
    if args.readme is not None and not args.readme.is_file():
        return f"--readme {args.readme}: no such file"
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        return f"--out {args.out}: not a directory"
    return None


def register(commands: Any) -> None:
    """Add ``report`` to the ``reversis`` command."""
    parser = commands.add_parser(
        "report",
        help="run the suite on every implementation of a list and write a compliance report",
        description="Install each implementation's harness when it is missing, run the conformance suite on "
        "each (several at once), and write the matrix (index.html), a page per implementation, results.json "
        "and shields.io badges.",
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="the folder to write the report into")
    parser.add_argument(
        "--list", type=Path, default=catalog.default_list(), metavar="FILE", help="the list of implementations"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=catalog.default_cache(),
        metavar="DIR",
        help="where harnesses are installed (default: %(default)s)",
    )
    parser.add_argument("--only", action="append", metavar="NAME", help="only this implementation (repeatable)")
    parser.add_argument("--area", action="append", metavar="AREA", help="only the cases of this area (repeatable)")
    parser.add_argument(
        "--jobs", type=count(1, 64, "--jobs"), default=max(1, os.cpu_count() or 1), help="implementations run at once"
    )
    parser.add_argument(
        "--timeout",
        type=finite_float(0.0, strict=True, high=86_400.0),
        default=10.0,
        help="seconds a driver may take per request",
    )
    parser.add_argument("--no-install", action="store_true", help="report a missing harness instead of installing it")
    parser.add_argument(
        "--check", dest="expected", type=Path, metavar="FILE", help="fail unless the matrix is the one FILE holds"
    )
    parser.add_argument("--write-expected", type=Path, metavar="FILE", help="write the matrix to FILE")
    parser.add_argument(
        "--readme", type=Path, metavar="FILE", help="put the matrix's table into FILE between its markers"
    )
    parser.add_argument(
        "--print-driver", metavar="NAME", help="print the driver command of one implementation and exit"
    )
    parser.set_defaults(run=_run, check=_check, parser=parser)
