"""House rules: an implementation's preset that differs from the spec's in some fields (DRV-4 ``variants``).

Published rules disagree in a few places (the moon's scoring, the deck's strip, the first-trick
ban, the passing, what breaks hearts); a case that depends on one of them names the ruleset field in its ``rules``
(conformance/README.md §House rules). An implementation that plays a preset with another value
of such a field declares it, and the runner skips the cases written for the preset's own value,
and runs as that preset the cases written on a ruleset object equal to its variant.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from ..errors import ReversisError

#: The ruleset fields the suite's cases name in ``rules``, and the rulesets on which it does so:
#: a field outside this table, or on another ruleset, is one the suite does not sort its cases by.
TAGGED_FIELDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    # the moon's scoring (D-4): on a ruleset that has a moon
    "moon": lambda ruleset: ruleset.get("moon") is not None,
    # the first-trick ban (PLAY-5): on every ruleset
    "first_trick_ban": lambda ruleset: True,
    # the cards a table of this size strips (RS-4, D-10): on a ruleset that strips any
    "deck": lambda ruleset: bool((ruleset.get("deck") or {}).get("removed")),
    # whether, where and how many cards each hand passes (RS-5, PASS-1): on every ruleset
    "passing": lambda ruleset: True,
    # what breaks hearts (RS-8, PLAY-6): on every ruleset
    "hearts_breaking": lambda ruleset: True,
}

#: What a ruleset is compared without (RS-2: informative only; RS-1: a name is not a rule).
_NOT_RULES = ("name", "title", "sources")


class VariantError(ValueError):
    """A ``variants`` capability that names no preset, no field, or makes no valid ruleset."""


def rules_of(ruleset: dict[str, Any]) -> str:
    """A canonical ruleset object without its name, title and sources, as JSON text to compare."""
    return json.dumps({key: value for key, value in ruleset.items() if key not in _NOT_RULES}, sort_keys=True)


def _canonical(data: Any) -> dict[str, Any]:
    """The canonical object (RS-16) of a ruleset object, read by the reference engine."""
    from .. import reference

    return dict(reference.Ruleset.from_json(data).to_json())


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class Variants:
    """The house rules an implementation declares, read and checked once per ``hello``."""

    def __init__(self, claimed: Any) -> None:
        """Read ``{"PRESET": {FIELD: VALUE, ...}, ...}``.

        :raises VariantError: for a value of another shape, an unknown preset, a field that is
            not a top-level rule of a ruleset, or a variant that is no valid ruleset.
        """
        from .. import reference

        self.presets: dict[str, dict[str, Any]] = {}
        self.fields: dict[str, dict[str, Any]] = {}
        self._by_rules: dict[str, str] = {}
        if claimed is None:
            return
        if not isinstance(claimed, dict):
            raise VariantError(f"not an object: {_value(claimed)[:200]}")
        known = set(reference.preset_names())
        for name, fields in claimed.items():
            if name not in known:
                raise VariantError(f"names no preset of this suite: {name!r}")
            if not isinstance(fields, dict) or not fields:
                raise VariantError(f"{name}: not an object of fields: {_value(fields)[:200]}")
            preset = dict(reference.preset(name).to_json())
            for field in fields:
                if field in _NOT_RULES or field == "spec_version" or field not in _ruleset_fields():
                    raise VariantError(f"{name}: {field!r} is not a rule of a ruleset")
            try:
                varied = _canonical({**preset, **fields})
            except ReversisError as error:
                raise VariantError(f"{name} with {_value(fields)[:200]} is no valid ruleset: {error}") from None
            self.presets[name] = preset
            self.fields[name] = {field: varied.get(field) for field in fields}
            self._by_rules.setdefault(rules_of(varied), name)

    def __bool__(self) -> bool:
        return bool(self.fields)

    def plan(self, data: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """The case to send, and why it is skipped (``None``: it runs).

        A case on a varied preset (a game or seed case, or a ruleset case that reads the preset)
        that names a varied field in ``rules`` is skipped, and so is every case on it where the
        variant changes a field the suite does not sort by; a game or seed case on a ruleset
        object equal to a variant is sent with the preset's name instead.
        """
        kind = data.get("kind")
        if not self or kind not in ("game", "seed", "ruleset"):
            return data, None
        ruleset = data.get("ruleset")
        if isinstance(ruleset, str) and ruleset in self.fields:
            return data, self._skip_reason(ruleset, data.get("rules", []))
        if isinstance(ruleset, dict) and kind != "ruleset":
            try:
                name = self._by_rules.get(rules_of(_canonical(ruleset)))
            except ReversisError:
                name = None  # a ruleset the case expects to be rejected is no one's variant
            if name is not None:
                return {**data, "ruleset": name}, None
        return data, None

    def _skip_reason(self, name: str, rules: list[str]) -> str | None:
        preset = self.presets[name]
        for field, value in self.fields[name].items():
            plays = f"house rule: the implementation's {name} plays {field} {_value(value)}"
            in_scope = field in TAGGED_FIELDS and TAGGED_FIELDS[field](preset)
            if not in_scope:
                return f"{plays}, and the suite does not mark which cases on {name} depend on {field}"
            if field in rules:
                return f"{plays}; this case is for {name}'s own {field} {_value(preset.get(field))}"
        return None


def _ruleset_fields() -> frozenset[str]:
    from ..reference.ruleset import OPTIONAL_FIELDS, REQUIRED_FIELDS

    return frozenset(REQUIRED_FIELDS) | frozenset(OPTIONAL_FIELDS)
