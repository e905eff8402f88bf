"""The coverage check: every numbered clause of spec/ is cited by at least one hand-written case."""

from __future__ import annotations

import re
from pathlib import Path

from .runner import SUITE_DIR, load_cases

#: Clause ids are bold (``**PLAY-5**``) or head a table row (``| RS-3 |``).
_CLAUSE = re.compile(r"\*\*([A-Z]+-\d+)\*\*|^\|\s*([A-Z]+-\d+)\s*\|", re.MULTILINE)
#: The Python API's clauses are tested by the pytest suite, not by language-neutral cases, and so
#: is the driver protocol, the means by which the cases reach an implementation.
_NOT_FOR_CASES = ("API-", "DRV-")
_ID_IN_SOURCE = re.compile(r"\b([A-Z]+-\d+)\b")


def spec_clauses(spec_dir: Path) -> set[str]:
    """Every clause id defined in the spec's Markdown files."""
    found = set()
    for path in spec_dir.glob("*.md"):
        for bold, row in _CLAUSE.findall(path.read_text(encoding="utf-8")):
            clause = bold or row
            if not clause.startswith(_NOT_FOR_CASES):
                found.add(clause)
    return found


def uncovered_clauses(spec_dir: Path, suite_dir: Path = SUITE_DIR) -> list[str]:
    """The clauses no hand-written case cites in its ``source``, sorted."""
    cited = set()
    for case in load_cases(("cases", "seeding"), suite_dir):
        for source in case.data["source"]:
            cited.update(_ID_IN_SOURCE.findall(source))
    return sorted(spec_clauses(spec_dir) - cited, key=lambda c: (c.split("-")[0], int(c.split("-")[1])))
