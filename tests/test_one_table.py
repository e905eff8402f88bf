"""The core's tables of ruleset fields and input limits: the schema, the reference engine and the spec agree.

The Rust core holds each list once (``RULESET_FIELDS``, ``LIMITS``) and both bindings read it;
the reference engine keeps its own, written from the spec, and these tests hold them together.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from reversis import _core
from reversis.reference import batch, legality, perft, records, ruleset, seeding, vector

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


def _table() -> dict[str, dict[str, Any]]:
    return {field["name"]: dict(field) for field in _core.RULESET_FIELD_TABLE}


def test_the_field_table_is_the_schemas() -> None:
    """The core's table (generated from the schema by build.rs) holds every property, in order."""
    schema = json.loads((ROOT / "spec/schemas/ruleset.schema.json").read_text(encoding="utf-8"))
    table = _table()
    assert list(table) == list(schema["properties"]) == list(_core.RULESET_FIELDS)
    for name, prop in schema["properties"].items():
        field = table[name]
        # The keys _core.pyi and index.d.ts document.
        assert set(field) == {
            "name",
            "clause",
            "type",
            "kind",
            "values",
            "minimum",
            "maximum",
            "optional",
            "nullable",
            "default",
        }
        # x-clause, else the clause the description opens with.
        clause = prop.get("x-clause") or re.match(r"RS-\d+", prop["description"]).group()  # type: ignore[union-attr]
        assert field["clause"] == clause and re.fullmatch(r"RS-\d+", clause), name
        # The clause the schema names is one of spec/ruleset.md, which names the field.
        spec = (ROOT / "spec/ruleset.md").read_text(encoding="utf-8")
        assert re.search(rf"\b{field['clause']}\b", spec) and f"`{name}`" in spec, name
        assert field["optional"] == (name not in schema["required"]), name
        assert field["default"] == prop.get("default"), name
        if field["kind"] == "enum":
            assert field["values"] == prop["enum"], name
        if field["kind"] == "boolean":
            assert prop["type"] == "boolean", name


def test_the_references_fields_agree_with_the_table() -> None:
    """The reference engine keeps its own field checks, written from the spec; they agree."""
    table = _table()
    assert tuple(name for name, f in table.items() if not f["optional"]) == ruleset.REQUIRED_FIELDS
    assert set(ruleset.OPTIONAL_FIELDS) == {name for name, f in table.items() if f["optional"]}
    for field in legality.LEGALITY_FIELDS:
        entry = table[field.name]
        if field.values is bool:
            assert entry["kind"] == "boolean", field.name
        else:
            assert entry["kind"] == "enum" and tuple(entry["values"]) == field.values, field.name
        assert entry["optional"] == field.optional, field.name
        if field.optional:
            assert entry["default"] == field.default, field.name
    # The enumerations of nested fields the reference checks against the schema's.
    schema = json.loads((ROOT / "spec/schemas/ruleset.schema.json").read_text(encoding="utf-8"))
    props = schema["properties"]
    assert tuple(props["moon"]["oneOf"][1]["properties"]["scoring"]["enum"]) == ruleset.MOON_SCORINGS
    assert tuple(props["cancellation"]["oneOf"][1]["properties"]["last_trick"]["enum"]) == ruleset.LAST_TRICK_WINNERS
    assert tuple(props["passing"]["oneOf"][1]["properties"]["cycle"]["items"]["enum"]) == ruleset.PASS_DIRECTIONS


# The annotation a getter of each JSON type of the table has in the stubs and in index.d.ts.
_PY_TYPES = {"boolean": "bool", "integer": "int", "string": "str"}
_TS_TYPES = {"boolean": "boolean", "integer": "number", "string": "string"}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


def test_the_ruleset_getters_of_the_stubs_agree_with_the_table() -> None:
    """Every field has a getter in _core.pyi of its type, or is read through ``__getattr__``
    (``__getattribute__`` in the stubs), whose type covers it: a simple kind's, or an object's."""
    tree = ast.parse((ROOT / "python/reversis/_core.pyi").read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Ruleset")
    getters = {
        n.name: ast.unparse(n.returns) for n in cls.body if isinstance(n, ast.FunctionDef) and n.returns is not None
    }
    fallback = set(getters["__getattribute__"].replace(" ", "").split("|"))
    for name, field in _table().items():
        if name == "spec_version":
            continue  # RS-17: not part of a ruleset's value, no getter
        simple = _PY_TYPES.get(field["type"])
        if name in getters:
            if simple is not None:
                expected = f"{simple} | None" if field["optional"] and field["default"] is None else simple
                assert getters[name] == expected, name
            elif "null" in field["type"].split("|"):
                assert getters[name].endswith("| None"), name
        else:
            types = field["type"].split("|")
            covered = simple if simple is not None else "dict[str,Any]" if "object" in types else None
            assert covered in fallback, f"{name} has no getter in _core.pyi and __getattribute__ does not cover it"
            assert "null" not in types or "None" in fallback, name


def test_the_ruleset_getters_of_index_d_ts_agree_with_the_table() -> None:
    """As the stubs: every field a getter of index.d.ts of its type, or read through the index
    signature (``unknown``), which covers every JSON value."""
    text = (ROOT / "js/src/index.d.ts").read_text(encoding="utf-8")
    body = text[text.index("export class Ruleset {") :]
    body = body[: body.index("\n}\n")]
    getters = dict(re.findall(r"^  readonly (\w+): (.+);$", body, re.M))
    assert re.search(r"^  readonly \[field: string\]: unknown;$", body, re.M)
    for name, field in _table().items():
        if name == "spec_version":
            continue
        key = _camel(name)
        simple = _TS_TYPES.get(field["type"])
        if key in getters:
            if field["kind"] in ("boolean", "enum"):
                assert getters[key] == simple, key
            elif "null" in field["type"].split("|"):
                assert getters[key].endswith("| null"), key
