"""The core's tables of ruleset fields and input limits: the schema, the reference engine and the spec agree.

The Rust core holds each list once (``RULESET_FIELDS``, ``LIMITS``) and both bindings read it;
the reference engine keeps its own, written from the spec, and these tests hold them together.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from reversis import _core
from reversis.reference import batch, perft, records, ruleset, seeding, vector

ROOT = Path(__file__).resolve().parents[1]


def test_the_ruleset_fields_are_the_schemas_and_the_references() -> None:
    schema = json.loads((ROOT / "spec/schemas/ruleset.schema.json").read_text(encoding="utf-8"))
    fields = set(schema["properties"])
    assert set(_core.RULESET_FIELDS) == fields
    assert set(_core.RULESET_FIELDS) == set(ruleset.REQUIRED_FIELDS) | set(ruleset.OPTIONAL_FIELDS)
    assert set(_core.RULESET_OPTIONAL_FIELDS) == fields - set(schema["required"]) == set(ruleset.OPTIONAL_FIELDS)


def test_the_limits_are_the_references() -> None:
    held = {
        "record_actions": records.MAX_RECORD_ACTIONS,
        "record_bytes": records.MAX_RECORD_BYTES,
        "deals": seeding.MAX_DEALS,
        "draws": seeding.MAX_DRAWS,
        "simulate_hands": batch.MAX_HANDS,
        "threads": batch.MAX_THREADS,
        "envs": vector.MAX_ENVS,
        "perft_depth": perft.MAX_DEPTH,
    }
    assert {name: _core.LIMITS[name] for name in held} == held
    # The rest bound the Rust engine's players, which the reference does not have (ERR-6).
    assert set(_core.LIMITS) - set(held) == {"samples", "rollouts", "playouts", "search_ms"}
    assert vector.MAX_THREADS == batch.MAX_THREADS


def test_the_limits_are_those_err_6_states() -> None:
    text = (ROOT / "spec/errors.md").read_text(encoding="utf-8")

    def said(pattern: str) -> int:
        found = re.search(pattern, text)
        assert found, pattern
        return int(found.group(1).replace(" ", ""))

    limits = _core.LIMITS
    assert limits["deals"] == said(r"returns at most ([\d ]+) deals")
    assert limits["draws"] == said(r"at most ([\d ]+) draws")
    assert limits["simulate_hands"] == said(r"plays at most ([\d ]+) hands")
    assert limits["threads"] == said(r"on 1 … (\d+) threads")
    assert limits["samples"] == said(r"at most ([\d ]+) layouts")
    assert limits["rollouts"] == said(r"makes 1 … ([\d ]+) playouts per legal card")
    assert limits["playouts"] == said(r"decision makes 1 … ([\d ]+) playouts")
    assert limits["search_ms"] == said(r"takes at most ([\d ]+) ms")
    assert limits["envs"] == said(r"holds\s+1 … ([\d ]+) games")
    assert limits["perft_depth"] == said(r"depth of at most (\d+) \(PERFT-5\)")
    assert limits["record_actions"] == said(r"at most ([\d ]+) actions")
    assert limits["record_bytes"] == said(r"at most (\d+) MiB") * 1024 * 1024
