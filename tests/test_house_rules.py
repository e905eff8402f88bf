"""A case's ``rules`` name exactly the ruleset fields whose value decides its answers.

Published rules disagree on the moon's scoring, the deck a table strips, the first-trick ban, the
passing and what breaks hearts (conformance/README.md §House rules); an implementation that
plays a preset with another value of such a field declares it (DRV-4 ``variants``), and the
runner skips the cases that name the field. So the tags must be honest in both directions: here
each game and seed case is run on the Rust engine with the field changed to each other valid
value (for the passing, a set of values that between them change every part of it), and the
cases that then fail must be exactly the cases tagged with the field. A case left untagged that depends on the field
would fail an honest variant; a case tagged that does not would be skipped for nothing.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis._core import RULESET_FIELDS
from reversis.conformance import Case, ModuleEngine, load_cases, run_cases
from reversis.conformance.runner import CASE_FOLDERS
from reversis.conformance.variants import TAGGED_FIELDS, alternatives

ROOT = Path(__file__).resolve().parents[1]
CASES = load_cases(CASE_FOLDERS, ROOT / "conformance")


def ruleset_of(case: Case) -> dict[str, Any] | None:
    """The ruleset object a game or seed case plays, or a ruleset case reads as a preset; else ``None``.

    A ruleset case on an object validates that object, whatever a preset holds: it is no case on
    a preset, and no house rule changes it.
    """
    kind, ruleset = case.data["kind"], case.data.get("ruleset")
    if kind in ("game", "seed") and ruleset is not None:
        return dict(reversis.preset(ruleset).to_json()) if isinstance(ruleset, str) else dict(ruleset)
    if kind == "ruleset" and isinstance(ruleset, str) and ruleset in reversis.preset_names():
        return dict(reversis.preset(ruleset).to_json())
    return None


@cache
def failing_under(field: str) -> frozenset[str]:
    """The ids of the cases that fail on the Rust engine with ``field`` changed to any other value."""
    probes = []
    for case in CASES:
        ruleset = ruleset_of(case)
        if ruleset is None:
            continue
        for value in alternatives(field, ruleset):
            changed = {**ruleset, field: value}
            reversis.Ruleset.from_json(changed)  # a probe plays valid rulesets only
            probes.append(Case(case.file, case.area, case.index, {**case.data, "ruleset": changed}))
    report = run_cases(ModuleEngine(reversis, "rust"), probes)
    return frozenset(outcome.case.id for outcome in report.failed)


def tagged(field: str) -> frozenset[str]:
    return frozenset(case.id for case in CASES if field in case.rules)


@pytest.mark.parametrize("field", sorted(TAGGED_FIELDS))
def test_the_cases_that_change_with_a_field_are_the_cases_tagged_with_it(field: str) -> None:
    failing = failing_under(field)
    assert failing, f"no case depends on {field}: the probe plays nothing"
    untagged = sorted(failing - tagged(field))
    overtagged = sorted(tagged(field) - failing)
    assert not untagged, f"these cases fail with another {field} but do not name it in rules: {untagged}"
    assert not overtagged, f"these cases name {field} in rules but pass with every other value: {overtagged}"


def test_rules_name_only_fields_the_suite_sorts_by_and_only_where_it_does() -> None:
    for case in CASES:
        ruleset = ruleset_of(case)
        for field in case.rules:
            assert field in TAGGED_FIELDS, (case.id, field)
            assert ruleset is not None and TAGGED_FIELDS[field](ruleset), (case.id, field)


def test_rules_name_top_level_fields_of_the_ruleset_schema() -> None:
    """A case's ``rules`` name fields of ruleset.schema.json, the one list of them: a new field needs no edit here."""
    schema = json.loads((ROOT / "spec" / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    informative = {"name", "title", "sources", "spec_version"}
    fields = set(schema["properties"]) - informative
    assert set(RULESET_FIELDS) - informative == fields
    assert set(TAGGED_FIELDS) <= fields
    for case in CASES:
        assert set(case.rules) <= fields, case.id
