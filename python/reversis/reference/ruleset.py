"""The ruleset model (spec/ruleset.md) and the named presets.

A :class:`Ruleset` is validated once, when it is built, so the game never meets an impossible
one (RS-13).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError, shown
from .cards import (
    DECK_SIZE,
    HEARTS,
    RANKS,
    Cards,
    card_name,
    cards_of,
    copies,
    mask_of,
    names_in,
    names_of,
    parse_card_id,
    rank_of,
    suit_mask,
)
from .jsondata import json_problem, loads, plain
from .legality import LEGALITY_FIELDS, LegalityField

PASS_DIRECTIONS = ("left", "right", "across", "hold")
MOON_SCORINGS = ("add-to-others", "subtract-from-taker", "taker-choice")
#: RS-24: what a moon needs besides the point cards.
MOON_NEEDS = ("point-cards", "every-scoring-card")
#: RS-25: how a count-down hand changes a total (MATCH-8).
COUNT_DOWN_ENDS = ("stop-at-zero", "exact-zero", "below-zero")
#: RS-22: who wins a last trick in which every card of the suit led is cancelled (PLAY-9).
LAST_TRICK_WINNERS = ("leader", "later-highest")
#: RS-3: the number of seats a ruleset may have.
MIN_PLAYERS, MAX_PLAYERS = 3, 10
#: RS-21: the number of packs a deck may be made of.
MAX_PACKS = 2
#: RS-19: the core fields, which every ruleset states.
REQUIRED_FIELDS = (
    "name",
    "players",
    "deck",
    "passing",
    "opening_card",
    # RS-7, RS-8, …: the fields of the rules of legality, declared in legality.py.
    *(field.name for field in LEGALITY_FIELDS if not field.optional),
    "card_points",
    "moon",
    "target",
)
#: RS-19: the fields that are not core, and may be left out.
OPTIONAL_FIELDS = (
    "title",
    "sources",
    "spec_version",
    "count_down",
    "count_down_end",
    "deals",
    "sun",
    "cancellation",
    *(field.name for field in LEGALITY_FIELDS if field.optional),
)
#: The version of the specification this engine implements (spec/README.md §Version).
SPEC_VERSION = "1.4.0"
#: RS-18: the one major version this engine reads.
SPEC_MAJOR = "1"
_VERSION_FORM = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
QUEEN_OF_SPADES = parse_card_id("QS")
#: ERR-6: the largest target, and the largest sum of the magnitudes of the card values and bonus.
MAX_TARGET = 2**64 - 1
MAX_POINTS = 2**31 - 1
#: The presets of spec/rulesets, shipped inside the package.
PRESET_DIR = Path(__file__).resolve().parent.parent / "rulesets"


def _fail(message: str) -> InvalidInputError:
    return InvalidInputError("invalid-ruleset", message)


def spec_version_problem(value: Any) -> str | None:
    """What is wrong with a ``spec_version`` (RS-17, RS-18, REC-5), or ``None`` if it is read.

    The problem is the rest of a sentence whose subject is the field, for the caller to raise
    with its own code. Any 1.x version is read; an object without one is read as 1.0.0.
    """
    if not isinstance(value, str) or _VERSION_FORM.fullmatch(value) is None:
        return f"must be a version MAJOR.MINOR.PATCH such as '1.0.0', not {shown(value)}"
    if value.split(".")[0] != SPEC_MAJOR:
        return (
            f"is {shown(value)}, a major version this implementation of {SPEC_VERSION} "
            f"cannot read (it reads {SPEC_MAJOR}.x)"
        )
    return None


def _expect(value: Any, kind: type | tuple[type, ...], field: str) -> Any:
    # bool is an int in Python, but a JSON true is never a number.
    if isinstance(value, bool) and kind is not bool:
        raise _fail(f"field {shown(field)} must be {_kind_name(kind)}, not {shown(value)}")
    if not isinstance(value, kind):
        raise _fail(f"field {shown(field)} must be {_kind_name(kind)}, not {shown(value)}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", bool: "a boolean", list: "an array", dict: "an object"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _legality_value(field: LegalityField, data: dict[str, Any]) -> Any:
    """The value of a field of the rules of legality (legality.py) in ``data``.

    An optional field left out takes its default (RS-19); a value written is checked against
    the field's type.
    """
    if field.name not in data:
        return field.default
    if field.values is bool:
        return _expect(data[field.name], bool, field.name)
    value = _expect(data[field.name], str, field.name)
    if value not in field.values:
        raise _fail(f"field {shown(field.name)} must be one of {', '.join(field.values)}, not {shown(value)}")
    return value


def _card_field(text: Any, field: str) -> int:
    try:
        return parse_card_id(text)
    except InvalidInputError:
        raise _fail(f"field {shown(field)} names {shown(text)}, which is not a card") from None


class Ruleset:
    """One variant of the Hearts family: an immutable, validated value of the ruleset model.

    Build one with :meth:`from_json` or :func:`preset`; every field of spec/ruleset.md is an
    attribute, and ``deck``, ``hand_size`` and ``point_cards`` are derived from them.
    """

    __slots__ = (
        "_cancellation",
        "_card_points",
        "_copies",
        "_deck",
        "_deck_mask",
        "_hash",
        "_json",
        "_legality",
        "_lowest_rank",
        "_magnitude",
        "_moon_bonus",
        "_moon_needs",
        "_moon_scoring",
        "_need_copies",
        "_need_mask",
        "_opening_id",
        "_packs",
        "_pass_cycle",
        "_pass_size",
        "_point_mask",
        "_removed",
        "_sealed",
        "_sources",
        "_sun_bonus",
        "_sun_scoring",
        "_values",
        "count_down",
        "count_down_end",
        "deals",
        "name",
        "players",
        "target",
        "title",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        """Validate ``data`` (a ruleset object, RS-1..RS-19); prefer :meth:`from_json`.

        A ``spec_version`` (RS-17) is checked first and not kept; the optional fields take their
        defaults when absent (RS-19); any other field must be one of spec/ruleset.md (RS-18).

        :raises InvalidInputError: ``invalid-ruleset`` naming the offending field.
        """
        data = _expect(data, dict, "ruleset")
        problem = json_problem(data)  # ERR-6: a lone surrogate, NaN, ... anywhere
        if problem is not None:
            raise _fail(f"ruleset is not JSON data: {problem}")
        data = plain(data)  # ERR-6: tuples count as lists
        # RS-18: the version first, so that another major version is refused as such.
        if "spec_version" in data:
            problem = spec_version_problem(data["spec_version"])
            if problem is not None:
                raise _fail(f"field 'spec_version' {problem}")
        missing = [field for field in REQUIRED_FIELDS if field not in data]
        if missing:
            raise _fail(f"missing field {shown(missing[0])}")
        unknown = sorted(set(data) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS))
        if unknown:
            raise _fail(f"unknown field {shown(unknown[0])}")

        name = _expect(data["name"], str, "name")
        if not re.fullmatch(r"[a-z0-9-]+", name):
            raise _fail(f"field 'name' must match [a-z0-9-]+, not {shown(name)}")
        self.name = name
        # Optional and informative (RS-2, RS-19): absent stays absent, as in the Rust core. The
        # spec_version (RS-17) is not part of the value: checked above, then dropped.
        self.title = None if "title" not in data else _expect(data["title"], str, "title")
        sources = None if "sources" not in data else _expect(data["sources"], list, "sources")
        self._sources = None if sources is None else tuple(_expect(source, str, "sources") for source in sources)

        players = _expect(data["players"], int, "players")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise _fail(f"field 'players' must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
        self.players = players

        self._read_deck(_expect(data["deck"], dict, "deck"))
        self._read_passing(data["passing"])
        self._read_opening(data["opening_card"])
        # RS-7, RS-8, …: the fields of the rules of legality, each read as legality.py declares it.
        self._legality = {field.name: _legality_value(field, data) for field in LEGALITY_FIELDS}
        self._read_points(_expect(data["card_points"], dict, "card_points"))
        self._read_moon(data["moon"])
        # RS-23 (1.4.0): optional, and null (no sun) where absent.
        self._read_sun(data.get("sun"))
        # RS-26 (1.4.0): optional, and null (no number of hands ends the match) where absent.
        deals = data.get("deals")
        if deals is not None:
            deals = _expect(deals, int, "deals")
            if not 1 <= deals <= MAX_TARGET:
                raise _fail(f"field 'deals' must be a positive integer up to 2**64-1, not {deals}")
        self.deals: int | None = deals
        target = data["target"]
        if target is None:
            if deals is None:  # RS-13 item 9: a match needs an end
                raise _fail("field 'target' may be null only where 'deals' is set: the match would never end")
        else:
            target = _expect(target, int, "target")
            if not 1 <= target <= MAX_TARGET:
                raise _fail(f"field 'target' must be a positive integer up to 2**64-1, not {target}")
        self.target: int | None = target
        # RS-20 (1.1.0): optional, and false where absent, so that a 1.0 ruleset plays as it did.
        self.count_down = "count_down" in data and _expect(data["count_down"], bool, "count_down")
        if self.count_down and target is None:  # RS-13 item 10: the count-down starts at the target
            raise _fail("field 'count_down' is true but 'target' is null: the count-down starts at the target")
        # RS-25 (1.4.0): optional, stop-at-zero where absent, and present only with count_down (RS-13 item 8).
        self.count_down_end = "stop-at-zero"
        if "count_down_end" in data:
            end = _expect(data["count_down_end"], str, "count_down_end")
            if end not in COUNT_DOWN_ENDS:
                raise _fail(f"field 'count_down_end' must be one of {', '.join(COUNT_DOWN_ENDS)}, not {shown(end)}")
            if not self.count_down:
                raise _fail("field 'count_down_end' is set but 'count_down' is not true: there is no count-down to end")
            self.count_down_end = end
        # RS-22 (1.2.0): optional, and null (identical cards do not cancel) where absent.
        self._read_cancellation(data.get("cancellation"))
        self._json = self._canonical_json()
        text = json.dumps(self._json, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        self._hash = hash(text)
        self._sealed = True  # API-2: immutable from here on

    @property
    def first_trick_ban(self) -> bool:
        """RS-7: whether no point card may be discarded on the first trick (PLAY-5)."""
        return bool(self._legality["first_trick_ban"])

    @property
    def hearts_breaking(self) -> str:
        """RS-8: which cards break hearts (PLAY-6)."""
        return str(self._legality["hearts_breaking"])

    def __getattr__(self, name: str) -> Any:
        """Any other field, by its name, so that a new field needs no property of its own.

        A field of the rules of legality (legality.py), or an optional field without a property
        (RS-19), as ``to_json()`` holds it, and ``None`` where left out (null means what absence
        means).
        """
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._legality:
            return self._legality[name]
        if name in OPTIONAL_FIELDS:
            return plain(self._json.get(name))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        """Refuse every change once built: a ruleset is immutable (API-2)."""
        if getattr(self, "_sealed", False):
            raise AttributeError(f"a Ruleset is immutable: cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        """Refuse every deletion: a ruleset is immutable (API-2)."""
        raise AttributeError(f"a Ruleset is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the ruleset object, rebuilt (and so validated) on unpickling (API-2)."""
        return (Ruleset, (self.to_json(),))

    def _read_deck(self, deck: dict[str, Any]) -> None:
        """RS-4, RS-21, RS-13 items 1, 2 and 7: the deck, a multiset of ``packs`` copies less ``removed``."""
        required, allowed = {"lowest_rank", "removed"}, {"lowest_rank", "removed", "packs"}
        if not required <= set(deck) <= allowed:
            extra = sorted(set(deck) - allowed)
            raise _fail(
                f"unknown field 'deck.{extra[0]}'" if extra else "field 'deck' needs 'lowest_rank' and 'removed'"
            )
        lowest = _expect(deck["lowest_rank"], str, "deck.lowest_rank")
        if len(lowest) != 1 or lowest not in RANKS:  # `in` alone would take any run of ranks
            raise _fail(f"field 'deck.lowest_rank' must be a rank character 2..A, not {shown(lowest)}")
        self._lowest_rank = lowest
        # RS-21 (1.2.0): optional, one pack where absent; RS-13 item 7: one or two.
        packs = _expect(deck["packs"], int, "deck.packs") if "packs" in deck else 1
        if not 1 <= packs <= MAX_PACKS:
            raise _fail(f"field 'deck.packs' must be 1 or 2, not {packs}")
        self._packs = packs
        in_play = [card for card in range(DECK_SIZE) if rank_of(card) >= RANKS.index(lowest)]
        removed: list[int] = []
        for text in _expect(deck["removed"], list, "deck.removed"):
            card = _card_field(text, "deck.removed")
            if card not in in_play:
                raise _fail(f"field 'deck.removed' names {shown(text)}, which is below the lowest rank")
            removed.append(card)
            # RS-13 item 1: each entry takes away one copy, so no card more times than the packs.
            if removed.count(card) > packs:
                times = "twice" if packs == 1 else f"{removed.count(card)} times with {packs} packs"
                raise _fail(f"field 'deck.removed' names {shown(card_name(card))} {times}")
        self._removed: Cards = cards_of(removed)
        taken = copies(removed)
        #: The copies of each card left in the deck (0, 1 or 2), by id.
        self._copies = tuple(packs - taken[card] if card in in_play else 0 for card in range(DECK_SIZE))
        self._deck: Cards = tuple(card for card in range(DECK_SIZE) for _ in range(self._copies[card]))
        self._deck_mask = mask_of(self._deck)
        size = len(self._deck)
        if size < self.players or size % self.players:
            raise _fail(f"a deck of {size} cards cannot be dealt evenly to {self.players} players")

    def _read_passing(self, passing: Any) -> None:
        if passing is None:
            self._pass_cycle: tuple[str, ...] | None = None
            self._pass_size = 0
            return
        passing = _expect(passing, dict, "passing")
        if set(passing) != {"cycle", "size"}:
            extra = sorted(set(passing) - {"cycle", "size"})
            raise _fail(f"unknown field 'passing.{extra[0]}'" if extra else "field 'passing' needs 'cycle' and 'size'")
        cycle = _expect(passing["cycle"], list, "passing.cycle")
        if not cycle:
            raise _fail("field 'passing.cycle' must not be empty")
        for direction in cycle:
            if direction not in PASS_DIRECTIONS:
                raise _fail(f"field 'passing.cycle' must hold {', '.join(PASS_DIRECTIONS)}, not {shown(direction)}")
        if "across" in cycle and self.players != 4:
            raise _fail(f"field 'passing.cycle' may use 'across' only with 4 players, not {self.players}")
        if all(direction == "hold" for direction in cycle):
            raise _fail("field 'passing.cycle' holds only 'hold': a table that never passes uses null")
        size = _expect(passing["size"], int, "passing.size")
        if not 1 <= size <= self.hand_size:
            raise _fail(f"field 'passing.size' must be from 1 to the hand size {self.hand_size}, not {size}")
        self._pass_cycle = tuple(cycle)
        self._pass_size = size

    def _read_opening(self, opening: Any) -> None:
        if opening is None:
            self._opening_id: int | None = None
            return
        card = _card_field(opening, "opening_card")
        if not self._deck_mask >> card & 1:
            raise _fail(f"field 'opening_card' names {shown(opening)}, which is not in the deck")
        # RS-13 item 3: its holder must be one seat (PLAY-1), so the deck holds one copy.
        if self._copies[card] != 1:
            raise _fail(
                f"field 'opening_card' names {shown(card_name(card))}, of which the deck holds "
                f"{self._copies[card]} copies: the opening card must be unique (remove one copy in 'deck.removed')"
            )
        self._opening_id = card

    def _read_points(self, points: dict[Any, Any]) -> None:
        values = [0] * DECK_SIZE
        for text, raw in points.items():
            card = _card_field(text, "card_points")
            if not self._deck_mask >> card & 1:
                raise _fail(f"field 'card_points' names {shown(text)}, which is not in the deck")
            if values[card]:
                raise _fail(f"field 'card_points' names {shown(card_name(card))} twice")
            value = _expect(raw, int, f"card_points.{text}")
            if value == 0:
                raise _fail(f"field 'card_points' gives {shown(text)} the value 0: leave zero-valued cards out")
            values[card] = value
        # ERR-6: every hand's scores fit in 32 bits. A hand's points add up every copy captured
        # (SCORE-1), so each value counts once for every copy the deck holds.
        self._magnitude = sum(abs(values[card]) * self._copies[card] for card in range(DECK_SIZE))
        if self._magnitude > MAX_POINTS:
            raise _fail(
                "field 'card_points' values are too large "
                "(their magnitudes, once per copy in the deck, must add up to less than 2**31)"
            )
        self._values = tuple(values)
        self._card_points = {card_name(card): values[card] for card in range(DECK_SIZE) if values[card]}
        self._point_mask = mask_of(card for card in range(DECK_SIZE) if values[card] > 0)

    def _read_bonus_scoring(self, value: dict[str, Any], field: str) -> tuple[str, int]:
        """The ``scoring`` and ``bonus`` of a rule that replaces a hand's scores (RS-10, RS-23), checked."""
        scoring = _expect(value["scoring"], str, f"{field}.scoring")
        if scoring not in MOON_SCORINGS:
            raise _fail(f"field '{field}.scoring' must be one of {', '.join(MOON_SCORINGS)}, not {shown(scoring)}")
        bonus = _expect(value["bonus"], int, f"{field}.bonus")
        if bonus < 1:
            raise _fail(f"field '{field}.bonus' must be at least 1, not {bonus}")
        # ERR-6: one hand scores one bonus, of one such rule, so each is bounded apart.
        if bonus + self._magnitude > MAX_POINTS:
            raise _fail(f"field '{field}.bonus' is too large (with the card values it must stay below 2**31)")
        return scoring, bonus

    def _read_moon(self, moon: Any) -> None:
        if moon is None:
            self._moon_scoring: str | None = None
            self._moon_bonus = 0
            self._moon_needs = MOON_NEEDS[0]
            self._set_needs()
            return
        moon = _expect(moon, dict, "moon")
        if not {"scoring", "bonus"} <= set(moon) <= {"scoring", "bonus", "needs"}:
            extra = sorted(set(moon) - {"scoring", "bonus", "needs"})
            raise _fail(f"unknown field 'moon.{extra[0]}'" if extra else "field 'moon' needs 'scoring' and 'bonus'")
        scoring, bonus = self._read_bonus_scoring(moon, "moon")
        # RS-24 (1.4.0): optional, point-cards where absent.
        needs = _expect(moon["needs"], str, "moon.needs") if "needs" in moon else MOON_NEEDS[0]
        if needs not in MOON_NEEDS:
            raise _fail(f"field 'moon.needs' must be one of {', '.join(MOON_NEEDS)}, not {shown(needs)}")
        if not self._point_mask:
            raise _fail("field 'moon' is set but no card of the deck is worth points")
        self._moon_scoring = scoring
        self._moon_bonus = bonus
        self._moon_needs = needs
        self._set_needs()

    def _set_needs(self) -> None:
        """SCORE-2, SCORE-6: the cards a moon needs, every copy.

        The point cards, and under ``every-scoring-card`` the cards worth less than zero too.
        """
        every = self._moon_needs == "every-scoring-card"
        self._need_mask = mask_of(
            card for card in range(DECK_SIZE) if self._values[card] > 0 or (every and self._values[card] < 0)
        )
        self._need_copies: Cards = tuple(card for card in self._deck if self._need_mask >> card & 1)

    def _read_sun(self, sun: Any) -> None:
        """RS-23: ``null`` or ``{"scoring": ..., "bonus": n}`` (SCORE-5)."""
        if sun is None:  # RS-19: null means what absence means
            self._sun_scoring: str | None = None
            self._sun_bonus = 0
            return
        sun = _expect(sun, dict, "sun")
        if set(sun) != {"scoring", "bonus"}:
            extra = sorted(set(sun) - {"scoring", "bonus"})
            raise _fail(f"unknown field 'sun.{extra[0]}'" if extra else "field 'sun' needs 'scoring' and 'bonus'")
        self._sun_scoring, self._sun_bonus = self._read_bonus_scoring(sun, "sun")

    def _read_cancellation(self, cancellation: Any) -> None:
        """RS-22 and RS-13 item 7: ``null`` or ``{"last_trick": ...}``, and only with two packs."""
        if cancellation is None:  # RS-19: null means what absence means
            self._cancellation: str | None = None
            return
        cancellation = _expect(cancellation, dict, "cancellation")
        if set(cancellation) != {"last_trick"}:
            extra = sorted(set(cancellation) - {"last_trick"})
            problem = f"unknown field 'cancellation.{extra[0]}'" if extra else "field 'cancellation' needs 'last_trick'"
            raise _fail(problem)
        last_trick = _expect(cancellation["last_trick"], str, "cancellation.last_trick")
        if last_trick not in LAST_TRICK_WINNERS:
            choices = ", ".join(LAST_TRICK_WINNERS)
            raise _fail(f"field 'cancellation.last_trick' must be one of {choices}, not {shown(last_trick)}")
        if self._packs != 2:
            raise _fail(
                f"field 'cancellation' is set but 'deck.packs' is {self._packs}: "
                "identical cards, which cancel, need two packs"
            )
        self._cancellation = last_trick

    def _canonical_json(self) -> dict[str, Any]:
        optional: dict[str, Any] = {}
        if self.title is not None:
            optional["title"] = self.title
        if self._sources is not None:
            optional["sources"] = list(self._sources)
        return {
            "name": self.name,
            **optional,
            "players": self.players,
            # RS-21: removed sorted with its repeats adjacent; packs written only where it is 2.
            "deck": {
                "lowest_rank": self._lowest_rank,
                "removed": names_of(self._removed),
                **({"packs": self._packs} if self._packs != 1 else {}),
            },
            "passing": None if self._pass_cycle is None else {"cycle": list(self._pass_cycle), "size": self._pass_size},
            "opening_card": None if self._opening_id is None else card_name(self._opening_id),
            **{
                field.name: self._legality[field.name]
                for field in LEGALITY_FIELDS
                if not field.optional or self._legality[field.name] != field.default
            },
            "card_points": dict(self._card_points),
            "moon": None
            if self._moon_scoring is None
            else {
                "scoring": self._moon_scoring,
                "bonus": self._moon_bonus,
                # RS-24: written only where not the default.
                **({"needs": self._moon_needs} if self._moon_needs != MOON_NEEDS[0] else {}),
            },
            # RS-23: written only where set.
            **({"sun": {"scoring": self._sun_scoring, "bonus": self._sun_bonus}} if self._sun_scoring else {}),
            "target": self.target,
            # RS-20: written only where set, so that a ruleset of 1.0 keeps its canonical object.
            **({"count_down": True} if self.count_down else {}),
            # RS-25, RS-26: written only where not the default.
            **({"count_down_end": self.count_down_end} if self.count_down_end != COUNT_DOWN_ENDS[0] else {}),
            **({"deals": self.deals} if self.deals is not None else {}),
            # RS-22: written only where set.
            **({"cancellation": {"last_trick": self._cancellation}} if self._cancellation is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | bytes) -> Ruleset:
        """Build a ruleset from its JSON object, or from JSON text (API-2).

        :raises InvalidInputError: ``invalid-ruleset`` naming the problem.
        """
        if isinstance(data, (str, bytes, bytearray)):
            try:
                data = loads(data)
            except (ValueError, RecursionError) as error:
                raise _fail(f"ruleset is not valid JSON: {error}") from None
        return cls(data)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        """The ruleset as the JSON object of spec/ruleset.md, canonical (cards sorted)."""
        return json.loads(json.dumps(self._json))

    @property
    def sources(self) -> list[str] | None:
        """The documents and decisions the ruleset comes from, or ``None`` (RS-2)."""
        return None if self._sources is None else list(self._sources)

    @property
    def card_points(self) -> dict[str, int]:
        """Each scoring card's value, by canonical card string (RS-9)."""
        return dict(self._card_points)

    @property
    def passing(self) -> dict[str, Any] | None:
        """``{"cycle": [...], "size": n}``, or ``None`` where the table never passes (RS-5)."""
        return self.to_json()["passing"]

    @property
    def opening_card(self) -> str | None:
        """The card that must open the first trick, or ``None`` for a free lead (RS-6)."""
        return None if self._opening_id is None else card_name(self._opening_id)

    @property
    def moon(self) -> dict[str, Any] | None:
        """``{"scoring": ..., "bonus": n}``, or ``None`` without a moon (RS-10)."""
        return self.to_json()["moon"]

    @property
    def cancellation(self) -> dict[str, str] | None:
        """``{"last_trick": ...}`` where identical cards cancel (RS-22, PLAY-9), else ``None``."""
        return None if self._cancellation is None else {"last_trick": self._cancellation}

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat, and tricks per hand (RS-12)."""
        return len(self._deck) // self.players

    @property
    def deck(self) -> list[str]:
        """The cards in play, sorted, a card once per copy (CARD-2)."""
        return names_of(self._deck)

    @property
    def point_cards(self) -> list[str]:
        """The cards worth more than zero, sorted (RS-14)."""
        return names_in(self._point_mask)

    @property
    def _hearts_mask(self) -> int:
        """The hearts of the deck."""
        return self._deck_mask & suit_mask(HEARTS)

    def _breaks_hearts(self, card: int) -> bool:
        """Whether playing ``card`` breaks hearts under this ruleset (PLAY-6)."""
        if self.hearts_breaking == "heart":
            return bool(self._hearts_mask >> card & 1)
        if self.hearts_breaking == "heart-or-QS":
            return bool(self._hearts_mask >> card & 1) or card == QUEEN_OF_SPADES
        return False

    def _points_of(self, cards: Iterable[int]) -> int:
        """The sum of the values of some cards, each copy counted (SCORE-1)."""
        return sum(self._values[card] for card in cards)

    def replace(self, **fields: Any) -> Ruleset:
        """A new, validated ruleset with some fields changed (API-2).

        The keywords are the fields of spec/ruleset.md and the shorthands ``lowest_rank``,
        ``removed`` (of ``deck``), ``pass_cycle``, ``pass_size`` (of ``passing``; a ruleset
        without passing needs both), ``moon_scoring``, ``moon_bonus`` (of ``moon``; likewise).
        ``card_points`` is merged into the table, a value of 0 taking the card out. Unless
        ``name`` is given the result is ``<name>-custom``, titled ``<title> (custom)`` where
        the original has a title and ``title`` is not given.

        >>> omnibus = preset("hearts-4").replace(card_points={"JD": -10})
        >>> omnibus.name, omnibus.card_points["JD"], omnibus.title
        ('hearts-4-custom', -10, 'Classic Hearts, 4 players (custom)')

        :raises InvalidInputError: ``invalid-ruleset`` for an unknown keyword or a result that
            is not a valid ruleset.
        """
        unknown = sorted(set(fields) - _REPLACE_KEYWORDS)
        if unknown:
            raise _fail(f"replace() got an unknown keyword {shown(unknown[0])}")
        problem = json_problem(fields)
        if problem is not None:
            raise _fail(f"replace() values are not JSON data: {problem}")
        fields = plain(fields)
        data = self.to_json()
        for field in (*REQUIRED_FIELDS, *OPTIONAL_FIELDS):
            if field in OPTIONAL_FIELDS and field in fields and fields[field] is None:
                data.pop(field, None)  # RS-19: a None takes an optional field out, to its default
            elif field in fields and field != "card_points":
                data[field] = fields[field]
        for group, parts in _SHORTHANDS.items():
            given = {part: fields[keyword] for keyword, part in parts.items() if keyword in fields}
            if not given:
                continue
            if data[group] is None:
                if len(given) != len(parts):
                    need = " and ".join(parts)
                    raise _fail(f"a ruleset without {shown(group)} needs both {need} to set it")
                data[group] = given
            elif not isinstance(data[group], dict):
                raise _fail(f"field {shown(group)} must be an object, not {shown(data[group])}")
            else:
                data[group] = {**data[group], **given}
        if "card_points" in fields:
            merged = fields["card_points"]
            if not isinstance(merged, dict):
                raise _fail(f"field 'card_points' must be an object, not {shown(merged)}")
            table = dict(data["card_points"]) if isinstance(data["card_points"], dict) else {}
            for text, value in merged.items():
                card = card_name(_card_field(text, "card_points"))
                if isinstance(value, int) and not isinstance(value, bool) and value == 0:
                    table.pop(card, None)  # RS-9 has no zero, so 0 means "out of the table"
                else:
                    table[card] = value
            data["card_points"] = table
        if "name" not in fields:
            data["name"] = f"{self.name}-custom"
            if "title" not in fields and self.title is not None:
                data["title"] = f"{self.title} (custom)"
        return Ruleset(data)

    def __eq__(self, other: object) -> bool:
        """Equal by value, to this engine's rulesets and to the Rust engine's (API-2)."""
        if isinstance(other, Ruleset):
            return self._json == other._json
        if type(other).__name__ == "Ruleset" and callable(getattr(other, "to_json", None)):
            return bool(self._json == other.to_json())  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        """The hash of the canonical JSON text, as the Rust engine's (API-2)."""
        return self._hash

    def __repr__(self) -> str:
        return f"Ruleset.from_json({shown(json.dumps(self._json))})"

    def __str__(self) -> str:
        return self.name


#: API-2: the keywords of :meth:`Ruleset.replace` that set a part of a nested field.
_SHORTHANDS = {
    "deck": {"lowest_rank": "lowest_rank", "removed": "removed"},
    "passing": {"pass_cycle": "cycle", "pass_size": "size"},
    "moon": {"moon_scoring": "scoring", "moon_bonus": "bonus"},
}
_REPLACE_KEYWORDS = (
    frozenset(REQUIRED_FIELDS)
    | frozenset(OPTIONAL_FIELDS)
    | {keyword for parts in _SHORTHANDS.values() for keyword in parts}
)


def as_ruleset(value: Any) -> Ruleset | None:
    """``value`` as a reference :class:`Ruleset`, or ``None`` if it is not a ruleset.

    A reference ruleset is itself; the Rust engine's is converted through its ``to_json()``
    (API-2: either engine's ruleset is accepted). The Rust engine's is recognised by duck
    typing, so the reference never imports it.
    """
    if isinstance(value, Ruleset):
        return value
    if type(value).__name__ == "Ruleset" and callable(getattr(value, "to_json", None)):
        try:
            return Ruleset.from_json(value.to_json())
        except InvalidInputError:
            return None
    return None


def preset_names() -> list[str]:
    """The names of the built-in presets, sorted (API-2)."""
    return sorted(path.stem for path in PRESET_DIR.glob("*.json"))


def preset(name: str) -> Ruleset:
    """The built-in preset called ``name`` (API-2).

    >>> preset("hartenjagen").hand_size
    8

    :raises InvalidInputError: ``unknown-preset`` if there is none of that name.
    """
    if not isinstance(name, str) or name not in preset_names():
        raise InvalidInputError(
            "unknown-preset", f"no preset named {shown(name)}; presets: {', '.join(preset_names())}"
        )
    text = (PRESET_DIR / f"{name}.json").read_text(encoding="utf-8")
    return Ruleset.from_json(text)
