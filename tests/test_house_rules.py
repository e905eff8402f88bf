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
from reversis.conformance.variants import TAGGED_FIELDS

ROOT = Path(__file__).resolve().parents[1]
CASES = load_cases(CASE_FOLDERS, ROOT / "conformance")
SCORINGS = ("taker-choice", "add-to-others", "subtract-from-taker")
BREAKINGS = ("none", "heart", "heart-or-QS")
RANKS = "23456789TJQKA"


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


def _other_strip(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The same deck stripped of as many other cards: the lowest spades of no value.

    The opening card's removals stay (with two packs one copy of it is removed so that one seat
    holds it, RS-13), so the result is a valid deck of the same size.
    """
    deck = ruleset["deck"]
    opening = ruleset["opening_card"]
    kept = [card for card in deck["removed"] if card == opening]
    spares = [
        rank + "S"
        for rank in RANKS[RANKS.index(deck["lowest_rank"]) :]
        if rank + "S" not in deck["removed"] and rank + "S" not in ruleset["card_points"] and rank + "S" != opening
    ]
    count = len(deck["removed"]) - len(kept)
    return {**deck, "removed": sorted(kept + spares[:count])}


def _other_passing(ruleset: dict[str, Any]) -> list[Any]:
    """No passing; every direction alone; a cycle that holds first; the cycle with another size.

    Between them these change, for some hand number, whether a hand passes, where its cards go
    and how many: a case whose answers survive all of them does not depend on the passing.
    """
    passing = ruleset["passing"]
    hand_size = reversis.Ruleset.from_json(ruleset).hand_size
    size = passing["size"] if passing else min(3, hand_size)
    directions = ["left", "right"] + (["across"] if ruleset["players"] == 4 else [])
    values: list[Any] = [None]
    values += [{"cycle": [direction], "size": size} for direction in directions]
    values.append({"cycle": ["hold", "left"], "size": size})
    if passing:
        values += [{**passing, "size": other} for other in (size - 1, size + 1) if 1 <= other <= hand_size]
    return [value for value in values if value != passing]


def alternatives(field: str, ruleset: dict[str, Any]) -> list[Any]:
    """Every other value of ``field`` a probe plays, where the suite tags ``field`` on ``ruleset``."""
    if not TAGGED_FIELDS[field](ruleset):
        return []
    if field == "moon":
        moon = ruleset["moon"]
        return [None] + [{"scoring": s, "bonus": moon["bonus"]} for s in SCORINGS if s != moon["scoring"]]
    if field == "first_trick_ban":
        return [not ruleset["first_trick_ban"]]
    if field == "deck":
        return [_other_strip(ruleset)]
    if field == "passing":
        return _other_passing(ruleset)
    if field == "hearts_breaking":
        return [value for value in BREAKINGS if value != ruleset["hearts_breaking"]]
    raise AssertionError(f"no probe for {field}")


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


def test_the_schema_allows_every_top_level_rule_and_nothing_else() -> None:
    schema = json.loads((ROOT / "spec" / "schemas" / "conformance.schema.json").read_text(encoding="utf-8"))
    informative = {"name", "title", "sources", "spec_version"}
    assert set(schema["$defs"]["rules"]["items"]["enum"]) == set(RULESET_FIELDS) - informative
    assert set(TAGGED_FIELDS) <= set(schema["$defs"]["rules"]["items"]["enum"])
