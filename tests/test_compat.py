"""The compatibility fixtures of conformance/compat/ (spec/README.md §Version, RS-17 … RS-19, REC-5).

What each release wrote, frozen, one folder per release: its presets load and keep their rules,
and its records load from JSON and MessagePack and replay, on both engines, to the scores
recorded when they were written.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reversis._core import RULESET_FIELD_TABLE
from reversis.conformance.engines import ModuleEngine
from reversis.reference.ruleset import SPEC_VERSION

ROOT = Path(__file__).resolve().parents[1]
COMPAT = ROOT / "conformance" / "compat"
#: Per release folder, the hash of its SHA256SUMS, which lists the hash of every fixture there
#: (the fixtures are frozen), and the number of presets that release had.
RELEASES: dict[str, tuple[str, int]] = {
    "1.0.0": ("a0bec111ba39c62a527c501428a0053edb371fac4e483bec6fd3f0c5665e54a2", 8),
    "1.1.0": ("2a7d9a1ac303b0dbacb3b314e83e0d5837642aba1e5e2817c3fa4af799efcc04", 11),
    "1.2.0": ("eb079fa557ef25d5684db75e9c394dd1bea3dfc584e9ffdb9f44995bdc22825b", 14),
    "1.3.0": ("b4e8743749ae6e687ad6273cc8848504d74446383d86b48cdb7d97ce43e2c739", 14),
    "1.4.0": ("d62fce0689b6ba06dcd472c38a7831ca39919652c272e1d3d0b321bd41e3889a", 20),
}
EXPECTED: dict[str, dict[str, dict[str, Any]]] = {
    release: json.loads((COMPAT / release / "expected.json").read_text(encoding="utf-8"))["records"]
    for release in RELEASES
}
FROZEN_PRESETS = {
    release: sorted(p.stem for p in (COMPAT / release / "rulesets").glob("*.json")) for release in RELEASES
}
FROZEN_RECORDS = {
    release: sorted(p.stem for p in (COMPAT / release / "records").glob("*.json")) for release in RELEASES
}
PRESET_PARAMS = [pytest.param(r, n, id=f"{r}/{n}") for r in RELEASES for n in FROZEN_PRESETS[r]]
RECORD_PARAMS = [pytest.param(r, n, id=f"{r}/{n}") for r in RELEASES for n in FROZEN_RECORDS[r]]
#: The frozen records whose ruleset counts down after the target (RS-20, spec 1.1.0).
COUNT_DOWN_PARAMS = [
    pytest.param(r, n, id=f"{r}/{n}")
    for r in RELEASES
    for n in FROZEN_RECORDS[r]
    if json.loads((COMPAT / r / "records" / f"{n}.json").read_bytes())["ruleset"].get("count_down", False)
]


def _rules_only(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The ruleset object without its informative fields (RS-2)."""
    return {key: value for key, value in ruleset.items() if key not in ("title", "sources")}


def test_every_release_folder_is_checked() -> None:
    """Every folder of conformance/compat/ is a release pinned here, and so is the current minor
    version: a patch (1.0.1, 1.2.1) changes no preset and no record, so it writes no folder of
    its own (conformance/compat/README.md)."""
    folders = sorted(p.name for p in COMPAT.iterdir() if p.is_dir())
    assert folders == sorted(RELEASES)
    major, minor, _patch = SPEC_VERSION.split(".")
    assert f"{major}.{minor}.0" in RELEASES


@pytest.mark.parametrize("release", RELEASES)
def test_the_fixtures_are_unchanged(release: str) -> None:
    """conformance/compat/README.md: the fixtures are never regenerated or edited."""
    folder = COMPAT / release
    sums = (folder / "SHA256SUMS").read_bytes()
    assert hashlib.sha256(sums).hexdigest() == RELEASES[release][0]
    listed = {}
    for line in sums.decode("ascii").splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    present = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert present == sorted([*listed, "SHA256SUMS"])
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize("release", RELEASES)
def test_the_fixture_sets_agree(release: str) -> None:
    folder = COMPAT / release
    assert len(FROZEN_PRESETS[release]) == RELEASES[release][1]
    assert FROZEN_RECORDS[release] == FROZEN_PRESETS[release] == sorted(EXPECTED[release])
    assert sorted(p.stem for p in (folder / "records").glob("*.msgpack")) == FROZEN_RECORDS[release]
    written = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    assert written["spec_version"] == release


def test_a_later_release_keeps_every_earlier_preset() -> None:
    """A preset keeps its name and rules for the whole major version (spec/README.md §Version)."""
    releases = sorted(RELEASES, key=lambda r: tuple(int(part) for part in r.split(".")))
    for earlier, later in zip(releases, releases[1:]):
        assert set(FROZEN_PRESETS[earlier]) <= set(FROZEN_PRESETS[later]), (earlier, later)
        for name in FROZEN_PRESETS[earlier]:
            old = json.loads((COMPAT / earlier / "rulesets" / f"{name}.json").read_bytes())
            new = json.loads((COMPAT / later / "rulesets" / f"{name}.json").read_bytes())
            assert _rules_only(old) == _rules_only(new), (earlier, later, name)


def test_the_engines_implement_the_version_the_spec_states(engine: ModuleType) -> None:
    """spec/README.md §Version, DRV-3: hello gives the version the README states."""
    readme = (ROOT / "spec" / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"This is version \*\*(\d+\.\d+\.\d+)\*\* of the specification\.", readme)
    assert stated is not None and stated.group(1) == SPEC_VERSION == "1.4.0"
    assert ModuleEngine(engine, engine.ENGINE).call("hello")["spec_version"] == SPEC_VERSION


@pytest.mark.parametrize(("release", "name"), PRESET_PARAMS)
def test_a_frozen_preset_loads_and_keeps_its_rules(engine: ModuleType, release: str, name: str) -> None:
    text = (COMPAT / release / "rulesets" / f"{name}.json").read_text(encoding="utf-8")
    ruleset = engine.Ruleset.from_json(text)
    assert ruleset.name == name
    # A preset keeps its rules for the whole major version (spec/README.md §Version).
    assert name in engine.preset_names()
    assert _rules_only(ruleset.to_json()) == _rules_only(engine.preset(name).to_json())
    # RS-17: stating the version it was written for changes nothing, and is not kept.
    stated = engine.Ruleset.from_json({**json.loads(text), "spec_version": release})
    assert stated == ruleset and "spec_version" not in stated.to_json()


@pytest.mark.parametrize(("release", "name"), RECORD_PARAMS)
def test_a_frozen_record_replays_to_its_recorded_scores(engine: ModuleType, release: str, name: str) -> None:
    want = EXPECTED[release][name]
    folder = COMPAT / release / "records"
    record = engine.load_record((folder / f"{name}.json").read_bytes())
    assert engine.load_record((folder / f"{name}.msgpack").read_bytes()) == record
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
    assert engine.Game.from_record({**record, "spec_version": release}) == game
    with pytest.raises(engine.InvalidInputError) as error:
        engine.Game.from_record({**record, "spec_version": "2.0.0"})
    assert error.value.code == "invalid-record"


def test_a_release_records_a_match_that_counts_down() -> None:
    assert [p.values for p in COUNT_DOWN_PARAMS] == [
        ("1.1.0", "hartenjagen-count-down"),
        ("1.2.0", "hartenjagen-count-down"),
        ("1.3.0", "hartenjagen-count-down"),
        ("1.4.0", "hartenjagen-count-down"),
    ]


@pytest.mark.parametrize(("release", "name"), COUNT_DOWN_PARAMS)
def test_a_frozen_count_down_record_counts_down(engine: ModuleType, release: str, name: str) -> None:
    """RS-20, MATCH-5 … MATCH-7: the record's count_down is read, and its match counts down to its end."""
    record = engine.load_record((COMPAT / release / "records" / f"{name}.msgpack").read_bytes())
    game = engine.Game.from_record(record)
    ruleset = game.ruleset
    assert ruleset.count_down and ruleset.to_json()["count_down"] is True
    assert game.phase == "over" and game.count_down
    # MATCH-5: the match went on past the hand whose total first reached the target, and its
    # later hands counted down (MATCH-6) until a total was at or below zero (MATCH-7).
    totals = [0] * ruleset.players
    past_target = None
    for index, hand in enumerate(game.hand_scores):
        totals = [total + score for total, score in zip(totals, hand)]
        if past_target is None and max(totals) >= ruleset.target:
            past_target = index
    assert past_target is not None and past_target < len(game.hand_scores) - 1
    assert all(min(hand) < 0 for hand in game.hand_scores[past_target + 1 :])
    assert totals == game.scores
    assert min(game.scores) <= 0 and game.winners == [s for s, t in enumerate(game.scores) if t == min(game.scores)]
    # Without count_down the same match ends after that hand, so the rest of the record is refused.
    plain = {key: value for key, value in record["ruleset"].items() if key != "count_down"}
    with pytest.raises(engine.InvalidInputError) as error:
        engine.Game.from_record({**record, "ruleset": plain})
    assert error.value.code == "invalid-record"


def test_optional_fields_agree_across_the_schema_and_the_engines(engine: ModuleType) -> None:
    """RS-19: the core fields are required by the schema and both engines; the others take defaults."""
    schema = json.loads((ROOT / "spec" / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    required = set(schema["required"])
    table = {field["name"]: field for field in RULESET_FIELD_TABLE}
    assert list(table) == list(schema["properties"])
    assert {name for name, field in table.items() if field["optional"]} == set(schema["properties"]) - required
    # The 1.0 fields are core, and stay so (RS-19).
    assert required >= {"name", "players", "deck", "passing", "opening_card", "first_trick_ban", "card_points"}
    full = {**engine.preset("hartenjagen-count-down").to_json(), "spec_version": "1.0.0"}
    # RS-19's table, as the core's table of fields states it (the schema's defaults): an absent
    # field means its default, or none (None) where it states none.
    defaults = {name: field["default"] for name, field in table.items()}
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
