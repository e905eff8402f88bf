"""The conformance suite: its files, its coverage, and both engines run directly and through the driver."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import jsonschema
import pytest

from reversis.conformance import DriverEngine, ModuleEngine, load_cases, run_cases
from reversis.conformance.coverage import spec_clauses, uncovered_clauses
from reversis.conformance.runner import CASE_FOLDERS, CaseRun

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
SPEC = ROOT / "spec"
CASES = load_cases(CASE_FOLDERS, SUITE)
SCHEMA = json.loads((SPEC / "schemas" / "conformance.schema.json").read_text(encoding="utf-8"))


def _case_id(case: object) -> str:
    return f"{case.id}: {case.description}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", sorted(SUITE.glob("*/*.json")), ids=lambda p: p.relative_to(SUITE).as_posix())
def test_file_validates_against_the_schema(path: Path) -> None:
    jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), SCHEMA)


@pytest.mark.parametrize("path", sorted(SUITE.glob("*/*.json")), ids=lambda p: p.relative_to(SUITE).as_posix())
def test_descriptions_are_unique_within_a_file(path: Path) -> None:
    descriptions = [case["description"] for case in json.loads(path.read_text(encoding="utf-8"))["cases"]]
    assert len(descriptions) == len(set(descriptions))


def test_every_spec_clause_is_covered_by_a_hand_written_case() -> None:
    assert len(spec_clauses(SPEC)) > 50
    assert uncovered_clauses(SPEC, SUITE) == []


def test_the_packaged_suite_is_the_checkout_suite() -> None:
    from reversis.conformance.runner import SUITE_DIR

    packaged = sorted(p.relative_to(SUITE_DIR).as_posix() for p in SUITE_DIR.glob("*/*.json"))
    assert packaged == sorted(p.relative_to(SUITE).as_posix() for p in SUITE.glob("*/*.json"))
    for relative in packaged:
        assert (SUITE_DIR / relative).read_bytes() == (SUITE / relative).read_bytes()


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_case(engine: ModuleType, case: object) -> None:
    """Each case, run in process; its description is the test id."""
    CaseRun(ModuleEngine(engine, engine.ENGINE), case).run()  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["reference", "rust"])
def test_whole_suite_through_the_driver(name: str) -> None:
    """``reversis driver --engine NAME`` passes the whole suite through the protocol."""
    driver = DriverEngine(f"{sys.executable} -m reversis driver --engine {name}", timeout=30)
    try:
        report = run_cases(driver, CASES, name)
    finally:
        driver.close()
    assert [o.case.id for o in report.failed] == []
    assert not [o for o in report.outcomes if o.status == "skipped"]
    assert len(report.outcomes) == len(CASES)
