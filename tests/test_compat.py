"""The compatibility fixtures of conformance/compat/ (spec/README.md §Version, RS-17 … RS-19, REC-5).

What release 1.0.0 wrote, frozen: its presets load and keep their rules, and its records load from
JSON and MessagePack and replay, on both engines, to the scores recorded when they were written.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reversis.conformance.engines import ModuleEngine
from reversis.reference.ruleset import SPEC_VERSION

ROOT = Path(__file__).resolve().parents[1]
COMPAT = ROOT / "conformance" / "compat" / "1.0.0"
#: The hash of COMPAT/SHA256SUMS, which lists the hash of every fixture: the fixtures are frozen.
SUMS_SHA256 = "a0bec111ba39c62a527c501428a0053edb371fac4e483bec6fd3f0c5665e54a2"
EXPECTED: dict[str, dict[str, Any]] = json.loads((COMPAT / "expected.json").read_text(encoding="utf-8"))["records"]
FROZEN_PRESETS = sorted(p.stem for p in (COMPAT / "rulesets").glob("*.json"))
FROZEN_RECORDS = sorted(p.stem for p in (COMPAT / "records").glob("*.json"))


def _rules_only(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The ruleset object without its informative fields (RS-2)."""
    return {key: value for key, value in ruleset.items() if key not in ("title", "sources")}


def test_the_fixtures_are_unchanged() -> None:
    """conformance/compat/README.md: the fixtures are never regenerated or edited."""
    sums = (COMPAT / "SHA256SUMS").read_bytes()
    assert hashlib.sha256(sums).hexdigest() == SUMS_SHA256
    listed = {}
    for line in sums.decode("ascii").splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    present = sorted(p.relative_to(COMPAT).as_posix() for p in COMPAT.rglob("*") if p.is_file())
    assert present == sorted([*listed, "SHA256SUMS"])
    for name, digest in listed.items():
        assert hashlib.sha256((COMPAT / name).read_bytes()).hexdigest() == digest, name


def test_the_fixture_sets_agree() -> None:
    assert len(FROZEN_PRESETS) == 8
    assert FROZEN_RECORDS == FROZEN_PRESETS == sorted(EXPECTED)
    assert sorted(p.stem for p in (COMPAT / "records").glob("*.msgpack")) == FROZEN_RECORDS


def test_the_engines_implement_the_version_the_spec_states(engine: ModuleType) -> None:
    """spec/README.md §Version, DRV-3: hello gives the version the README states."""
    readme = (ROOT / "spec" / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"This is version \*\*(\d+\.\d+\.\d+)\*\* of the specification\.", readme)
    assert stated is not None and stated.group(1) == SPEC_VERSION == "1.1.0"
    assert ModuleEngine(engine, engine.ENGINE).call("hello")["spec_version"] == SPEC_VERSION


@pytest.mark.parametrize("name", FROZEN_PRESETS)
def test_a_frozen_preset_loads_and_keeps_its_rules(engine: ModuleType, name: str) -> None:
    text = (COMPAT / "rulesets" / f"{name}.json").read_text(encoding="utf-8")
    ruleset = engine.Ruleset.from_json(text)
    assert ruleset.name == name
    # A preset keeps its rules for the whole major version (spec/README.md §Version).
    assert name in engine.preset_names()
    assert _rules_only(ruleset.to_json()) == _rules_only(engine.preset(name).to_json())
    # RS-17: stating the version it was written for changes nothing, and is not kept.
    stated = engine.Ruleset.from_json({**json.loads(text), "spec_version": "1.0.0"})
    assert stated == ruleset and "spec_version" not in stated.to_json()


@pytest.mark.parametrize("name", FROZEN_RECORDS)
def test_a_frozen_record_replays_to_its_recorded_scores(engine: ModuleType, name: str) -> None:
    want = EXPECTED[name]
    record = engine.load_record((COMPAT / "records" / f"{name}.json").read_bytes())
    assert engine.load_record((COMPAT / "records" / f"{name}.msgpack").read_bytes()) == record
    assert len(record["actions"]) == want["actions"]

    game = engine.Game.from_record(record)
    assert game.phase == want["phase"]
    assert game.hand_number == want["hand_number"]
    assert game.scores == want["scores"]
    assert game.hand_scores == want["hand_scores"]
    assert len(game.hand_scores) == want["hands"]
    assert game.winners == want["winners"]

    # The deals are SEED-5's from the recorded seed: the seeded deal holds for the major version.
    deals = [action["hands"] for action in record["actions"] if action["type"] == "deal"]
    assert engine.deal_from_seed(game.ruleset, want["deal_seed"], len(deals)) == deals

    # REC-5: a record that states the version it was written for replays the same; another
    # major version is refused.
    assert engine.Game.from_record({**record, "spec_version": "1.0.0"}) == game
    with pytest.raises(engine.InvalidInputError) as error:
        engine.Game.from_record({**record, "spec_version": "2.0.0"})
    assert error.value.code == "invalid-record"


def test_optional_fields_agree_across_the_schema_and_the_engines(engine: ModuleType) -> None:
    """RS-19: the core fields are required by the schema and both engines; the others take defaults."""
    schema = json.loads((ROOT / "spec" / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    required = set(schema["required"])
    assert set(schema["properties"]) - required == {"title", "sources", "spec_version", "count_down"}
    full = {**engine.preset("hartenjagen-count-down").to_json(), "spec_version": "1.0.0"}
    defaults = {"count_down": False}  # RS-19's table; the informative fields are absent, None
    for field in schema["properties"]:
        data = {key: value for key, value in full.items() if key != field}
        if field in required:
            with pytest.raises(engine.InvalidInputError) as error:
                engine.Ruleset.from_json(data)
            assert error.value.code == "invalid-ruleset" and field in str(error.value)
        else:
            ruleset = engine.Ruleset.from_json(data)
            assert field not in ruleset.to_json()
            assert getattr(ruleset, field, None) == defaults.get(field)
    # A None given to replace() takes an optional field back to its default; a new name keeps the title.
    base = engine.preset("hartenjagen")
    assert "title" not in base.replace(title=None).to_json()
    assert base.replace(sources=None).sources is None
    assert base.replace(name="hj").title == base.title
    assert base.replace(spec_version="1.3.0") == base.replace()
