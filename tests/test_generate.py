"""What ``python conformance/generate.py`` writes is what the repository holds.

The command writes, for every preset of spec/rulesets/, the recorded matches of
conformance/generated/, the benchmark hands of conformance/bench/, the perft cases of
conformance/perft/ and the seed vectors of
conformance/seeding/vectors.json, and the presets table of spec/ruleset.md (§Presets) from the
preset files. Here it runs in memory, writing nothing, and every file it would write must be in
the repository with that text, with no other file beside them: a preset added, changed or
removed without running the command fails here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import reversis.reference  # noqa: F401  (before generate.py: see _generate)
from helpers import spec_preset, spec_preset_names

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"


def _generate() -> ModuleType:
    """conformance/generate.py as a module, over the package the tests use.

    The script puts the checkout's python/ first on sys.path; the package is imported before it
    runs and the path put back after, so that the tests keep the package they were given (the
    installed wheel in .ci/run).
    """
    path = SUITE / "generate.py"
    spec = importlib.util.spec_from_file_location("conformance_generate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("conformance_generate", module)
    before = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = before
    return module


GENERATE = _generate()


@pytest.fixture(scope="module")
def outputs() -> dict[Path, str]:
    """The files the command would write, by path, with their text (about three seconds)."""
    return GENERATE.outputs()


def test_the_command_covers_every_preset(outputs: dict[Path, str]) -> None:
    names = spec_preset_names()
    for folder in ("generated", "bench", "perft"):
        assert sorted(p.stem for p in outputs if p.parent == SUITE / folder) == names, folder
    assert SUITE / "seeding" / "vectors.json" in outputs


@pytest.mark.parametrize("folder", ["generated", "bench", "perft"])
def test_no_file_is_left_beside_the_generated_ones(outputs: dict[Path, str], folder: str) -> None:
    """A file of a preset that no longer exists, or of another name, is not in the folder."""
    assert sorted(p.name for p in (SUITE / folder).iterdir()) == sorted(
        p.name for p in outputs if p.parent == SUITE / folder
    )


def test_the_generated_files_are_current(outputs: dict[Path, str]) -> None:
    stale = [
        path.relative_to(ROOT).as_posix()
        for path, text in outputs.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run `python conformance/generate.py`, which rewrites these"


# --- the presets table of spec/ruleset.md ---------------------------------------------------------


def _table_in(text: str) -> str:
    start = text.index(GENERATE.TABLE_START) + len(GENERATE.TABLE_START)
    return text[start : text.index(GENERATE.TABLE_END)]


def test_the_presets_table_is_what_the_files_give() -> None:
    """ruleset.md §Presets: the table between the markers is the one generate.py writes."""
    text = GENERATE.RULESET_MD.read_text(encoding="utf-8")
    assert text.count(GENERATE.TABLE_START) == text.count(GENERATE.TABLE_END) == 1
    assert _table_in(text).strip() == GENERATE.presets_table().strip(), "run `python conformance/generate.py`"
    assert GENERATE.ruleset_md(text) == text


def test_the_presets_table_has_a_row_per_preset_file() -> None:
    rows = [line for line in GENERATE.presets_table().splitlines()[2:] if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == spec_preset_names()


def _cells(data: dict[str, object]) -> list[str]:
    row = GENERATE.preset_row(data)
    assert row.startswith("| ") and row.endswith(" |\n")
    return row[2:-3].split(" | ")


def test_a_table_cell_follows_its_field() -> None:
    """The cells of rulesets the presets do not have: a short deck with removed cards, hearts
    with unequal values, a negative heart, a cycle with hold first, no point cards."""
    data = {
        **spec_preset("hearts-5"),
        "name": "made-up",
        "deck": {"lowest_rank": "5", "removed": ["5C", "5S", "5D"]},
        "passing": {"cycle": ["hold", "across"], "size": 1},
        "opening_card": None,
        "card_points": {"6H": 2, "5H": -1, "QS": 13},
        "moon": {"scoring": "subtract-from-taker", "bonus": 12},
        "count_down": False,
    }
    assert _cells(data)[1:] == [
        "5",
        "5\u2013A (40) \u2212 5D 5C 5S",
        "hold A, 1",
        "free (D-9)",
        "yes",
        "heart-or-QS",
        "6H 2, 5H \u22121, QS 13",
        "subtract-from-taker 12",
        "100",
    ]
    assert _cells({**data, "card_points": {}, "moon": None, "count_down": True})[7:] == [
        "none",
        "none",
        "100, then count-down",
    ]
    two_packs = {**data, "deck": {"lowest_rank": "2", "removed": ["2D", "2C", "2H"], "packs": 2}}
    assert _cells({**two_packs, "cancellation": {"last_trick": "later-highest"}})[2] == (
        "2 \u00d7 52 \u2212 2D 2C 2H; cancelling, last trick: later-highest"
    )
    # One of the two 2H is left, so the hearts still follow their rule.
    assert _cells({**two_packs, "card_points": {f"{r}H": 1 for r in "23456789TJQKA"}})[7] == "H 1"


def test_a_stale_table_is_rewritten_and_the_rest_kept() -> None:
    text = GENERATE.RULESET_MD.read_text(encoding="utf-8")
    stale = text.replace("| `hearts-4` | 4 |", "| `hearts-4` | 5 |")
    assert stale != text and GENERATE.ruleset_md(stale) == text
    with pytest.raises(ValueError, match="must hold"):
        GENERATE.ruleset_md(text.replace(GENERATE.TABLE_END, ""))


# --- the ids of what the command writes ----------------------------------------------------------


def _ids(files: dict[str, dict[str, object]]) -> dict[str, str]:
    """Every case id of ``files`` with the description of its case."""
    return {case["id"]: case["description"] for content in files.values() for case in content["cases"]}  # type: ignore[attr-defined]


def test_generated_ids_follow_the_preset_not_its_place_in_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A preset added, removed or listed in another order leaves every other case its id."""
    before = {**_ids(GENERATE.bench_files()), **_ids({"v": GENERATE.vector_file()})}
    names = GENERATE.reference.preset_names()
    monkeypatch.setattr(GENERATE.reference, "preset_names", lambda: [*reversed(names[1:])])
    after = {**_ids(GENERATE.bench_files()), **_ids({"v": GENERATE.vector_file()})}
    assert after and all(before[case_id] == description for case_id, description in after.items())
    assert len(before) - len(after) == 1 + 3  # the preset left out: its bench hand and three vectors
    assert all(names[0] in case_id for case_id in set(before) - set(after))


def test_generated_ids_are_unique_and_name_their_preset(outputs: dict[Path, str]) -> None:
    import json

    for path, text in outputs.items():
        if path.suffix != ".json":
            continue
        for case in json.loads(text)["cases"]:
            assert case["id"].startswith(f"{path.parent.name}/"), case["id"]
            if path.parent.name in ("generated", "bench"):
                assert case["id"].split("/")[1].startswith(path.stem), case["id"]
