"""What ``python conformance/generate.py`` writes is what the repository holds.

The command writes, for every preset of spec/rulesets/, the recorded matches of
conformance/generated/, the benchmark hands of conformance/bench/ and the seed vectors of
conformance/seeding/vectors.json. Here it runs in memory, writing nothing, and every file it
would write must be in the repository with that text, with no other file beside them: a preset
added, changed or removed without running the command fails here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers import spec_preset_names

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"


def _generate() -> ModuleType:
    path = SUITE / "generate.py"
    spec = importlib.util.spec_from_file_location("conformance_generate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("conformance_generate", module)
    spec.loader.exec_module(module)
    return module


GENERATE = _generate()


@pytest.fixture(scope="module")
def outputs() -> dict[Path, str]:
    """The files the command would write, by path, with their text (about three seconds)."""
    return GENERATE.outputs()


def test_the_command_covers_every_preset(outputs: dict[Path, str]) -> None:
    names = spec_preset_names()
    for folder in ("generated", "bench"):
        assert sorted(p.stem for p in outputs if p.parent == SUITE / folder) == names, folder
    assert SUITE / "seeding" / "vectors.json" in outputs


@pytest.mark.parametrize("folder", ["generated", "bench"])
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
