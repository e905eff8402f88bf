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

SCORINGS = ("taker-choice", "add-to-others", "subtract-from-taker")
BREAKINGS = ("none", "heart", "heart-or-QS")
RANKS = "23456789TJQKA"

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
        object equal to a variant is sent with the preset's name instead. A perft case counts
        every sequence the position allows, which any rule may change, so every perft case on a
        varied preset is skipped (PERFT-1).
        """
        kind = data.get("kind")
        if not self or kind not in ("game", "seed", "ruleset", "perft"):
            return data, None
        ruleset = data.get("ruleset")
        if isinstance(ruleset, str) and ruleset in self.fields:
            if kind == "perft":
                varied = ", ".join(f"{field} {_value(value)}" for field, value in self.fields[ruleset].items())
                why = f"house rule: the implementation's {ruleset} plays {varied}; a perft count depends on every rule"
                return data, why
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


# --------------------------------------------------------------------------- probing a tag


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
    hand_size = _hand_size(ruleset)
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


def _hand_size(ruleset: dict[str, Any]) -> int:
    from .. import Ruleset

    return int(Ruleset.from_json(ruleset).hand_size)
