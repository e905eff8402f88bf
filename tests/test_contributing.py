"""CONTRIBUTING.md's recipes name the files a change of each kind touches; these tests keep them honest.

Each recipe lists its files between ``<!-- files: KIND -->`` and ``<!-- end of files -->``, one
numbered item per file, and may name its worked example, ``<!-- example: KIND SHA reverted by
SHA -->``: a commit that made such a change end to end, and the commit that took it back. The
tests check that the lists are within the bounds the project promises, that each worked example
touched exactly its recipe's files (but for documents whose only change is a quoted count, which
``tests/test_docs_figures.py`` asks for), and that no file outside a recipe needs an edit for a new
field: the generators and checks that every field reaches are built from the table of fields,
and the sun (the scoring recipe's field) is written only where that recipe says.
"""

from __future__ import annotations

import io
import re
import subprocess
import tokenize
from collections import Counter
from pathlib import Path

import pytest

from reversis._core import RULESET_FIELD_TABLE

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")

#: The most files each kind of change may touch (the counts the recipes promise).
BOUNDS = {"legality": 5, "scoring": 8}

#: The files every field of the table reaches without being edited: the random rulesets, the
#: compatibility checks and the fuzz target read the table (RULESET_FIELD_TABLE, FIELDS).
TABLE_DRIVEN = (
    "tests/test_properties.py",
    "tests/test_compat.py",
    "rust/reversis-core/tests/kernel.rs",
    "rust/reversis-core/fuzz/fuzz_targets/game_actions.rs",
)


def recipe_files(kind: str) -> list[str]:
    """The files (or ``<placeholder>`` patterns) the recipe ``kind`` lists."""
    match = re.search(rf"<!-- files: {kind} -->\n(.*?)<!-- end of files -->", TEXT, re.S)
    assert match, f"CONTRIBUTING.md has no list of files for the recipe {kind!r}"
    return re.findall(r"(?m)^\d+\. `([^`]+)`", match.group(1))


def recipe_kinds() -> list[str]:
    return re.findall(r"<!-- files: ([a-z-]+) -->", TEXT)


def as_pattern(listed: str) -> re.Pattern[str]:
    """A listed path, its ``<placeholder>`` parts matching any name."""
    parts = re.split(r"<[^>]+>", listed)
    return re.compile("[^/]+".join(re.escape(part) for part in parts) + r"\Z")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def has_commit(sha: str) -> bool:
    try:
        command = ["git", "cat-file", "-e", f"{sha}^{{commit}}"]
        found = subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
        return found.returncode == 0
    except FileNotFoundError:
        return False


def _without_numbers(lines: list[str], sign: str) -> Counter[str]:
    return Counter(re.sub(r"\d[\d,]*", "#", line[1:]) for line in lines if line[:1] == sign and line[:3] != sign * 3)


def only_counts_changed(parent: str, commit: str, path: str) -> bool:
    """Whether every line ``commit`` changed in ``path`` differs from the old one only in its numbers."""
    diff = git("diff", "-U0", parent, commit, "--", path).splitlines()
    removed, added = _without_numbers(diff, "-"), _without_numbers(diff, "+")
    return bool(removed) and removed == added


def test_every_recipe_has_a_list_within_its_bound() -> None:
    kinds = recipe_kinds()
    assert {"legality", "scoring", "preset"} <= set(kinds), kinds
    tracked = git("ls-files").splitlines() if has_commit("HEAD") else None
    for kind in kinds:
        listed = recipe_files(kind)
        assert listed, kind
        assert len(listed) <= BOUNDS.get(kind, len(listed)), f"the {kind} recipe lists {len(listed)} files: {listed}"
        for entry in listed:
            if "<" in entry:
                if tracked is not None:
                    assert any(as_pattern(entry).match(path) for path in tracked), f"{kind}: nothing matches {entry}"
            elif not entry.startswith("spec/rulesets/") and "generated" not in entry:
                assert (ROOT / entry).exists(), f"the {kind} recipe lists {entry}, which does not exist"


EXAMPLES = re.findall(r"<!-- example: ([a-z-]+) ([0-9a-f]{7,40}) reverted by ([0-9a-f]{7,40}) -->", TEXT)


def test_the_legality_and_preset_recipes_name_worked_examples() -> None:
    assert {kind for kind, _, _ in EXAMPLES} >= {"legality", "preset"}, EXAMPLES


@pytest.mark.parametrize(("kind", "example", "revert"), EXAMPLES, ids=[kind for kind, _, _ in EXAMPLES])
def test_a_worked_example_touched_exactly_its_recipes_files(kind: str, example: str, revert: str) -> None:
    if not (has_commit(example) and has_commit(revert)):
        pytest.skip("this checkout has no history holding the worked examples (a shallow clone or an archive)")
    touched = set(git("diff", "--name-only", f"{example}^", example).split())
    counted = {path for path in touched if path.endswith(".md") and only_counts_changed(f"{example}^", example, path)}
    listed = [as_pattern(entry) for entry in recipe_files(kind)]
    unlisted = sorted(path for path in touched - counted if not any(p.match(path) for p in listed))
    assert not unlisted, f"the {kind} example {example} touched files its recipe does not list: {unlisted}"
    unused = [p.pattern for p in listed if not any(p.match(path) for path in touched)]
    assert not unused, f"the {kind} recipe lists files its example {example} did not touch: {unused}"
    # The revert takes back exactly what the example did.
    assert set(git("diff", "--name-only", f"{revert}^", revert).split()) == touched
    assert git("diff", "--name-only", f"{example}^", revert, "--", *sorted(touched)) == ""


def simple_fields() -> list[str]:
    """The optional fields the table alone reads, checks, defaults and writes (boolean, enumerated, integer)."""
    return [f["name"] for f in RULESET_FIELD_TABLE if f["optional"] and f["kind"] in ("boolean", "enum", "integer")]


@pytest.mark.parametrize("path", TABLE_DRIVEN)
def test_the_generators_and_checks_take_every_field_from_the_table(path: str) -> None:
    """A file every field reaches lists none by hand: a new field then needs no edit there, as the recipes say.

    A file may speak of one field for a reason of its own (the compatibility checks of 1.1.0 name
    ``count_down``); naming two of the optional fields the table alone reads is a list of them.
    """
    text = (ROOT / path).read_text(encoding="utf-8")
    assert re.search(r"RULESET_FIELD_TABLE|FIELDS\b|ruleset_field_table", text), f"{path} does not read the table"
    named = [name for name in simple_fields() if re.search(rf"[\"']{name}[\"']", text)]
    assert len(simple_fields()) >= 2
    assert len(named) < 2, (
        f"{path} names the fields {named} by hand: a new field would need an edit there, which no recipe "
        "of CONTRIBUTING.md lists; read them from the table of fields instead"
    )


def code_of(path: str) -> str:
    """The code of a source file: its comments and docstrings left out, and a Rust file's unit tests."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if path.endswith((".py", ".pyi")):
        kept, previous = [], tokenize.NEWLINE
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            docstring = token.type == tokenize.STRING and previous in (
                tokenize.NEWLINE,
                tokenize.INDENT,
                tokenize.DEDENT,
            )
            if token.type in (tokenize.NAME, tokenize.STRING) and not docstring:
                kept.append(token.string)
            if token.type not in (tokenize.COMMENT, tokenize.NL):
                previous = token.type
        return " ".join(kept)
    text = text.split("#[cfg(test)]")[0] if path.endswith(".rs") else text
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def test_the_sun_is_written_only_where_the_scoring_recipe_says() -> None:
    """Outside the spec, the cases and the tests, only the recipe's files name the sun in their code."""
    if not has_commit("HEAD"):
        pytest.skip("needs the checkout's list of files")
    listed = [as_pattern(entry) for entry in recipe_files("scoring")]
    code = [
        path
        for path in git("ls-files", "*.rs", "*.py", "*.js", "*.mjs", "*.ts", "*.pyi").split()
        if not path.startswith(("tests/", "conformance/", "benches/", "examples/", "spec/"))
        and "/tests/" not in path
        and "/test/" not in path
        and "/examples/" not in path
    ]
    sun = re.compile(r"\bsun\b|\bSun\b|\bsun_|_sun\b")
    naming = [path for path in code if sun.search(code_of(path))]
    assert naming, "no code names the sun: the scoring recipe's worked example is gone"
    unlisted = sorted(path for path in naming if not any(p.match(path) for p in listed))
    assert not unlisted, f"the sun is written outside the scoring recipe's files: {unlisted}"
