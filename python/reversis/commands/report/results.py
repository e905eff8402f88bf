"""Run the suite on one implementation and make its entry of ``results.json``.

Each implementation runs as ``reversis conformance --driver CMD --json FILE`` in a process group
of its own, so that several run at once, each as fast as its driver answers, and a stopped report
stops them all (:mod:`.catalog`).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from . import catalog

#: The clause ids of the spec (``PLAY-5``, ``DRV-3``) and the decisions of the rules brief (``D-2``).
CLAUSE = re.compile(r"[A-Z]{2,}-\d+")
DECISION = re.compile(r"D-\d+")
#: Where the runner's reason names the first differing value (``runner.first_difference``).
FIRST_DIFFERENCE = re.compile(r"first difference at (\S+): expected (.*?), got (.*)$", re.MULTILINE)


def case_index(cases: list[Any]) -> dict[str, dict[str, Any]]:
    """Per case id, what the report says of a case beside its outcome: its source split into kinds."""
    index = {}
    for case in cases:
        source = [str(item) for item in case.data.get("source", [])]
        index[case.id] = {
            "case": case,
            "file": case.file,
            "clauses": [item for item in source if CLAUSE.fullmatch(item) and not DECISION.fullmatch(item)],
            "decisions": [item for item in source if DECISION.fullmatch(item)],
            "documents": [item for item in source if not CLAUSE.fullmatch(item) and not DECISION.fullmatch(item)],
        }
    return index


def first_difference(reason: str) -> str:
    """The first differing key of a failure, read from the runner's reason: ``step 7: legal[2]``, or its first line."""
    lines = reason.splitlines()
    head = lines[0].rstrip(":") if lines else ""
    found = FIRST_DIFFERENCE.search(reason)
    if found is None:
        return head[:200]
    return f"{head} {found.group(1)}: expected {found.group(2)[:80]}, got {found.group(3)[:80]}"


def reproduce(name: str, case_id: str) -> str:
    """One line that runs one case against an implementation's harness, from a checkout."""
    driver = f'"$(reversis report --print-driver {shlex.quote(name)})"'
    return f"reversis conformance --driver {driver} --case {shlex.quote(case_id)}"


def run(
    implementation: catalog.Implementation,
    work: Path,
    cases: dict[str, dict[str, Any]],
    *,
    install: bool,
    timeout: float,
    areas: list[str] | None = None,
) -> dict[str, Any]:
    """Install the implementation if it is missing (and ``install``), run the suite on it, and make its entry."""
    entry: dict[str, Any] = {
        **implementation.about(),
        "driver": implementation.driver,
        "install": implementation.install,
    }
    log = work / f"{implementation.name}.install.log"
    started = time.monotonic()
    if not catalog.installed(implementation):
        if not install:
            return _not_run(entry, "install", "not installed, and --no-install was given", started)
        problem = catalog.install(implementation, log)
        if problem is not None:
            return _not_run(entry, "install", problem, started, _tail(log))
    entry["install_seconds"] = round(time.monotonic() - started, 1)
    report_file = work / f"{implementation.name}.json"
    run_log = work / f"{implementation.name}.run.log"
    argv = [sys.executable, "-m", "reversis", "conformance", "--driver", implementation.driver]
    argv += ["--json", str(report_file), "--timeout", f"{timeout:g}"]
    for area in areas or []:
        argv += ["--area", area]
    started = time.monotonic()
    with open(run_log, "wb") as out:
        status = catalog.run_group(argv, cwd=implementation.harness or Path.cwd(), stdout=out)
    seconds = time.monotonic() - started
    try:
        reports = json.loads(report_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _not_run(
            entry, "run", f"the runner exited with status {status} and wrote no report", started, _tail(run_log)
        )
    entry = _entry(entry, reports[0], cases, seconds)
    for failure in entry["failures"]:
        case = cases.get(failure["case"], {}).get("case")
        if case is not None and case.data.get("kind") == "perft":
            failure["divergence"] = divergence(implementation.driver, case, timeout)
    return entry


def divergence(driver: str, case: Any, timeout: float) -> str:
    """Where divide finds the implementation parts from the Rust core below a failed perft case's position."""
    from ...conformance.engines import DriverEngine, builtin_engine
    from ...conformance.perft import find_divergence

    ours, theirs = builtin_engine("rust"), DriverEngine(driver, timeout=timeout)
    try:
        found = find_divergence(ours, theirs, case)
    except Exception as error:  # whatever the implementation does wrong is reported, never raised
        return f"divide could not finish: {error}"
    finally:
        theirs.close()
        ours.close()
    return found.summary if found is not None else "divide finds no difference"


def _entry(
    entry: dict[str, Any], report: dict[str, Any], cases: dict[str, dict[str, Any]], seconds: float
) -> dict[str, Any]:
    totals: dict[str, int] = {}
    for row in report["counts"].values():
        for key, value in row.items():
            totals[key] = totals.get(key, 0) + value
    totals = {"passed": 0, "failed": 0, "skipped": 0, **totals}
    claimed = totals["passed"] + totals["failed"]
    failures = []
    skips: dict[str, list[str]] = {}
    for outcome in report["outcomes"]:
        if outcome["status"] == "skipped":
            skips.setdefault(outcome["reason"], []).append(outcome["case"])
        elif outcome["status"] == "failed":
            about = dict(cases.get(outcome["case"], {"file": "", "clauses": [], "decisions": [], "documents": []}))
            about.pop("case", None)
            failures.append(
                {
                    "case": outcome["case"],
                    "area": outcome["area"],
                    "description": outcome["description"],
                    "difference": first_difference(outcome["reason"]),
                    "reason": outcome["reason"],
                    **about,
                    "reproduce": reproduce(entry["name"], outcome["case"]),
                }
            )
    implementation = report.get("implementation") or {}
    entry.update(
        {
            "status": "failed-run" if report["failure"] else "ran",
            "problem": report["failure"],
            "reported_version": implementation.get("version"),
            "spec_version": implementation.get("spec_version"),
            "capabilities": report["capabilities"],
            "capability_line": report["capability_line"],
            "counts": report["counts"],
            "totals": totals,
            "not_run": report["not_run"],
            "share": round(totals["passed"] / claimed, 4) if claimed else 0.0,
            "seconds": round(seconds, 2),
            "cases_per_second": round(claimed / seconds, 1) if seconds > 0 else 0.0,
            "failures": failures,
            "skips": [
                {"reason": reason, "cases": ids} for reason, ids in sorted(skips.items(), key=lambda kv: -len(kv[1]))
            ],
            "stderr": report["stderr"],
        }
    )
    return entry


def _not_run(entry: dict[str, Any], stage: str, problem: str, started: float, log: str = "") -> dict[str, Any]:
    entry.update(
        {
            "status": f"failed-{stage}",
            "problem": problem,
            "reported_version": None,
            "spec_version": None,
            "capabilities": None,
            "capability_line": "",
            "counts": {},
            "totals": {"passed": 0, "failed": 0, "skipped": 0},
            "not_run": 0,
            "share": 0.0,
            "seconds": round(time.monotonic() - started, 2),
            "cases_per_second": 0.0,
            "failures": [],
            "skips": [],
            "stderr": log,
        }
    )
    return entry


def _tail(log: Path, lines: int = 30) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


#: The fields of an implementation's row that ``.ci/run`` holds to the committed expectation.
MATRIX_FIELDS = (
    "name",
    "title",
    "language",
    "version",
    "harness",
    "status",
    "capability_line",
    "counts",
    "totals",
    "share",
)


def matrix(results: dict[str, Any]) -> dict[str, Any]:
    """What ``.ci/run`` compares with the committed expectation, and what the README's table is made from.

    Per implementation its description, status and per-area counts; nothing that changes from
    run to run (times, paths, messages).
    """
    return {
        "spec_version": results["suite"]["spec_version"],
        "cases": results["suite"]["cases"],
        "implementations": [{key: entry[key] for key in MATRIX_FIELDS} for entry in results["implementations"]],
    }


def matrix_differences(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Readable lines for each way ``got`` differs from ``expected``; empty when they agree."""
    lines = []
    for key in ("spec_version", "cases"):
        if expected.get(key) != got.get(key):
            lines.append(f"{key}: expected {expected.get(key)}, got {got.get(key)}")
    want = {row["name"]: row for row in expected.get("implementations", [])}
    have = {row["name"]: row for row in got.get("implementations", [])}
    for name in sorted(set(want) | set(have)):
        if name not in have:
            lines.append(f"{name}: expected in the report, not run")
            continue
        if name not in want:
            lines.append(f"{name}: ran, but the expectation has no row for it")
            continue
        for key in MATRIX_FIELDS:
            if key == "counts":
                for area in sorted(set(want[name]["counts"]) | set(have[name]["counts"])):
                    a, b = want[name]["counts"].get(area), have[name]["counts"].get(area)
                    if a != b:
                        lines.append(f"{name} {area}: expected {_counts(a)}, got {_counts(b)}")
            elif key != "totals" and want[name].get(key) != have[name].get(key):
                lines.append(f"{name} {key}: expected {want[name].get(key)!r}, got {have[name].get(key)!r}")
    return lines


def _counts(row: dict[str, int] | None) -> str:
    if row is None:
        return "no cases"
    return f"{row['passed']} passed, {row['failed']} failed, {row['skipped']} skipped"
