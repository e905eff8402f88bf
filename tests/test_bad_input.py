"""Hostile and malformed input at every entry point: both engines reject it with the same typed error.

Each case is run on each engine (the ``engine`` fixture) and must raise the ``ReversisError``
subclass that its code belongs to (ERR-5), with that code. A rejected action must leave
``state()`` exactly as it was (ERR-1).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from reversis.errors import ILLEGAL_CODES, INPUT_CODES, IllegalActionError, InvalidInputError, ReversisError

NAN = float("nan")
HEARTS_4_DEAL = [[f"{rank}{suit}" for rank in "23456789TJQKA"] for suit in "CDHS"]


def _expect(code: str, call: Callable[[], Any]) -> ReversisError:
    with pytest.raises(ReversisError) as caught:
        call()
    error = caught.value
    assert error.code == code, f"{error.code} ({error}) instead of {code}"
    assert isinstance(error, InvalidInputError if code in INPUT_CODES else IllegalActionError)
    assert code in INPUT_CODES | ILLEGAL_CODES
    return error


def _ruleset(m: ModuleType, **changes: Any) -> Any:
    data = m.preset("hearts-4").to_json()
    data.update(changes)
    return m.Ruleset.from_json(data)


def _without(m: ModuleType, field: str) -> Any:
    data = m.preset("hearts-4").to_json()
    del data[field]
    return m.Ruleset.from_json(data)


def _deck(lowest: str = "2", removed: list[str] | None = None) -> dict[str, Any]:
    return {"lowest_rank": lowest, "removed": removed or []}


# --------------------------------------------------------------------------- cards, presets

CARD_INPUTS = [
    None,
    10,
    2.0,
    NAN,
    True,
    "",
    "ZZ",
    "\ud800",
    "2\ud800",
    "2C" * 500,
    b"2C",
    ["2C"],
    {"card": "2C"},
    "1C",
    "2X",
    "\x00",
]


@pytest.mark.parametrize("text", CARD_INPUTS, ids=repr)
def test_bad_cards(engine: ModuleType, text: Any) -> None:
    _expect("invalid-card", lambda: engine.parse_card(text))
    _expect("invalid-card", lambda: engine.card_id(text))


@pytest.mark.parametrize("name", ["nope", "", None, 3, "\ud800", ["hearts-4"], "HEARTS-4", "hearts-4 "], ids=repr)
def test_unknown_presets(engine: ModuleType, name: Any) -> None:
    _expect("unknown-preset", lambda: engine.preset(name))


# --------------------------------------------------------------------------------- rulesets

RULESETS: dict[str, Callable[[ModuleType], Any]] = {
    "not an object": lambda m: m.Ruleset.from_json(["hearts-4"]),
    "none": lambda m: m.Ruleset.from_json(None),
    "number": lambda m: m.Ruleset.from_json(4),
    "malformed json text": lambda m: m.Ruleset.from_json('{"name": '),
    "json text of a list": lambda m: m.Ruleset.from_json("[1, 2]"),
    "json bytes not utf-8": lambda m: m.Ruleset.from_json(b"\xff\xfe{"),
    "json text with a lone surrogate": lambda m: m.Ruleset.from_json('{"name": "\ud800"}'),
    "deeply nested json text": lambda m: m.Ruleset.from_json("[" * 100_000 + "]" * 100_000),
    "deeply nested title text": lambda m: m.Ruleset.from_json(
        json.dumps({**m.preset("hearts-4").to_json(), "title": "X"})[:-1]
        + ', "sources": '
        + "[" * 5000
        + "]" * 5000
        + "}"
    ),
    "deeply nested object": lambda m: _ruleset(m, sources=_nest(100_000)),
    "missing field": lambda m: _without(m, "target"),
    "unknown field": lambda m: _ruleset(m, colour="red"),
    "non-string key": lambda m: m.Ruleset.from_json({**m.preset("hearts-4").to_json(), 1: 2}),
    "players as string": lambda m: _ruleset(m, players="4"),
    "players as bool": lambda m: _ruleset(m, players=True),
    "players as float": lambda m: _ruleset(m, players=4.0),
    "players nan": lambda m: _ruleset(m, players=NAN),
    "players huge": lambda m: _ruleset(m, players=10**30),
    "two players": lambda m: _ruleset(m, players=2),
    "eight players": lambda m: _ruleset(m, players=8),
    "deck not divisible": lambda m: _ruleset(m, deck=_deck(removed=["2D"])),
    "seven players on 32 cards": lambda m: _ruleset(
        m, players=7, deck=_deck("7"), opening_card=None, card_points={"QS": 13}, passing=None
    ),
    "removed twice": lambda m: _ruleset(m, deck=_deck(removed=["2D", "2D", "3D", "4D"])),
    "removed not a card": lambda m: _ruleset(m, deck=_deck(removed=["ZZ"])),
    "lowest rank bad": lambda m: _ruleset(m, deck=_deck("1")),
    "deck as list": lambda m: _ruleset(m, deck=["2C"]),
    "removed as string": lambda m: _ruleset(m, deck={"lowest_rank": "2", "removed": "2D3D"}),
    "pass larger than the hand": lambda m: _ruleset(m, passing={"cycle": ["left"], "size": 14}),
    "pass of zero": lambda m: _ruleset(m, passing={"cycle": ["left"], "size": 0}),
    "pass size as bool": lambda m: _ruleset(m, passing={"cycle": ["left"], "size": True}),
    "only hold": lambda m: _ruleset(m, passing={"cycle": ["hold"], "size": 3}),
    "empty cycle": lambda m: _ruleset(m, passing={"cycle": [], "size": 3}),
    "cycle as string": lambda m: _ruleset(m, passing={"cycle": "left", "size": 3}),
    "across with three": lambda m: _ruleset(
        m, players=3, deck=_deck(removed=["2D"]), passing={"cycle": ["across"], "size": 3}
    ),
    "passing nan": lambda m: _ruleset(m, passing=NAN),
    "opening card not in the deck": lambda m: _ruleset(m, deck=_deck(removed=["2C", "2D", "3D", "4D"])),
    "opening card below the lowest rank": lambda m: _ruleset(m, deck=_deck("3"), players=4),
    "opening card nan": lambda m: _ruleset(m, opening_card=NAN),
    "opening card not a card": lambda m: _ruleset(m, opening_card="11C"),
    "ban as int": lambda m: _ruleset(m, first_trick_ban=1),
    "breaking unknown": lambda m: _ruleset(m, hearts_breaking="spades"),
    "points as list": lambda m: _ruleset(m, card_points=[["QS", 13]]),
    "points unknown card": lambda m: _ruleset(m, card_points={"XX": 1}),
    "points zero": lambda m: _ruleset(m, card_points={"QS": 0}),
    "points float": lambda m: _ruleset(m, card_points={"QS": 13.0}),
    "points huge": lambda m: _ruleset(m, card_points={"QS": 2**40}),
    "points beyond 64 bits": lambda m: _ruleset(m, card_points={"QS": 10**30}),
    "points sum over 2**31": lambda m: _ruleset(m, card_points={"QS": 2**30, "KS": 2**30}),
    "moon without point cards": lambda m: _ruleset(m, card_points={"JD": -10}),
    "moon bonus zero": lambda m: _ruleset(m, moon={"scoring": "taker-choice", "bonus": 0}),
    "moon bonus huge": lambda m: _ruleset(m, moon={"scoring": "taker-choice", "bonus": 2**31 - 10}),
    "moon scoring unknown": lambda m: _ruleset(m, moon={"scoring": "both", "bonus": 26}),
    "moon nan": lambda m: _ruleset(m, moon=NAN),
    "target zero": lambda m: _ruleset(m, target=0),
    "target negative": lambda m: _ruleset(m, target=-100),
    "target bool": lambda m: _ruleset(m, target=True),
    "target float": lambda m: _ruleset(m, target=100.0),
    "target infinite": lambda m: _ruleset(m, target=float("inf")),
    "target beyond 64 bits": lambda m: _ruleset(m, target=2**64),
    "name with capitals": lambda m: _ruleset(m, name="Hearts"),
    "name as number": lambda m: _ruleset(m, name=4),
    "title as list": lambda m: _ruleset(m, title=["x"]),
    "sources as string": lambda m: _ruleset(m, sources="002"),
}


def _nest(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("case", sorted(RULESETS))
def test_impossible_rulesets(engine: ModuleType, case: str) -> None:
    _expect("invalid-ruleset", lambda: RULESETS[case](engine))


def test_limits_that_are_just_allowed(engine: ModuleType) -> None:
    """The ERR-6 bounds themselves are accepted, by both engines alike."""
    ruleset = _ruleset(engine, target=2**64 - 1, card_points={"QS": 2**31 - 27}, moon=None)
    assert ruleset.target == 2**64 - 1
    game = engine.Game(ruleset, seed=2**64 - 1, hand_number=2**64 - 1, scores=[2**63 - 1, -(2**63), 0, 0])
    assert game.hand_number == 2**64 - 1


# ------------------------------------------------------------------------------ game setup

SETUPS: dict[str, Callable[[ModuleType], Any]] = {
    "ruleset as preset name": lambda m: m.Game("hearts-4"),
    "ruleset as dict": lambda m: m.Game(m.preset("hearts-4").to_json()),
    "seed -1": lambda m: m.Game(m.preset("hearts-4"), -1),
    "seed 2**64": lambda m: m.Game(m.preset("hearts-4"), 2**64),
    "seed 10**30": lambda m: m.Game(m.preset("hearts-4"), 10**30),
    "seed float": lambda m: m.Game(m.preset("hearts-4"), 1.0),
    "seed nan": lambda m: m.Game(m.preset("hearts-4"), NAN),
    "seed bool": lambda m: m.Game(m.preset("hearts-4"), True),
    "seed string": lambda m: m.Game(m.preset("hearts-4"), "1"),
    "hand number -1": lambda m: m.Game(m.preset("hearts-4"), hand_number=-1),
    "hand number 2**64": lambda m: m.Game(m.preset("hearts-4"), hand_number=2**64),
    "hand number bool": lambda m: m.Game(m.preset("hearts-4"), hand_number=True),
    "hand number float": lambda m: m.Game(m.preset("hearts-4"), hand_number=0.0),
    "scores too short": lambda m: m.Game(m.preset("hearts-4"), scores=[0, 0, 0]),
    "scores as string": lambda m: m.Game(m.preset("hearts-4"), scores="0000"),
    "scores of strings": lambda m: m.Game(m.preset("hearts-4"), scores=["0"] * 4),
    "scores of bools": lambda m: m.Game(m.preset("hearts-4"), scores=[False] * 4),
    "scores of floats": lambda m: m.Game(m.preset("hearts-4"), scores=[0.0] * 4),
    "scores beyond 64 bits": lambda m: m.Game(m.preset("hearts-4"), scores=[2**63, 0, 0, 0]),
    "scores below 64 bits": lambda m: m.Game(m.preset("hearts-4"), scores=[-(2**63) - 1, 0, 0, 0]),
    "deal_from_seed without a ruleset": lambda m: m.deal_from_seed("hearts-4", 1),
    "deal_from_seed seed -1": lambda m: m.deal_from_seed(m.preset("hearts-4"), -1),
    "deal_from_seed seed 2**64": lambda m: m.deal_from_seed(m.preset("hearts-4"), 2**64),
    "deal_from_seed huge deals": lambda m: m.deal_from_seed(m.preset("hearts-4"), 1, 10**15),
    "deal_from_seed negative deals": lambda m: m.deal_from_seed(m.preset("hearts-4"), 1, -1),
    "deal_from_seed deals as string": lambda m: m.deal_from_seed(m.preset("hearts-4"), 1, "2"),
    "deal_from_seed hand number -1": lambda m: m.deal_from_seed(m.preset("hearts-4"), 1, 1, -1),
    "seed_draws seed -1": lambda m: m.seed_draws(-1, 3),
    "seed_draws seed 2**64": lambda m: m.seed_draws(2**64, 3),
    "seed_draws huge count": lambda m: m.seed_draws(1, 10**15),
    "seed_draws negative count": lambda m: m.seed_draws(1, -3),
    "seed_draws count float": lambda m: m.seed_draws(1, 3.0),
    "seed_draws count bool": lambda m: m.seed_draws(1, True),
}


@pytest.mark.parametrize("case", sorted(SETUPS))
def test_bad_setups(engine: ModuleType, case: str) -> None:
    _expect("invalid-setup", lambda: SETUPS[case](engine))


def test_deal_without_a_seed(engine: ModuleType) -> None:
    game = engine.Game(engine.preset("hearts-4"))
    before = game.state()
    _expect("no-seed", game.deal)
    assert game.state() == before


# ------------------------------------------------------------------------------- actions


def _played_out(m: ModuleType) -> Any:
    """A hartenjagen match at target 1 that is over after its first hand."""
    game = m.Game(_hartenjagen(m, target=1), seed=3)
    while game.phase != "over":
        if game.phase == "moon":
            game.choose_moon("add-to-others")
        else:
            game.play(game.legal_plays()[0])
    return game


def _hartenjagen(m: ModuleType, **changes: Any) -> Any:
    data = m.preset("hartenjagen").to_json()
    data.update(changes)
    return m.Ruleset.from_json(data)


def _game(m: ModuleType, phase: str) -> Any:
    if phase == "deal":
        return m.Game(m.preset("hearts-4"))
    if phase == "pass":
        return m.Game(m.preset("hearts-4"), seed=7)
    if phase == "play":
        game = m.Game(m.preset("hearts-4"))
        game.deal(HEARTS_4_DEAL)
        for seat in range(4):
            game.pass_cards(game.hand(seat)[-3:], seat)
        return game
    return _played_out(m)


PLAY = {"type": "play", "seat": 0, "card": "2C"}
ACTIONS: list[tuple[str, str, Any, str]] = [
    # (phase, description, action, code)
    ("play", "not a dict", ["play", 0, "2C"], "invalid-action"),
    ("play", "none", None, "invalid-action"),
    ("play", "string", '{"type": "play"}', "invalid-action"),
    ("play", "empty", {}, "invalid-action"),
    ("play", "unknown type", {"type": "bid", "seat": 0}, "invalid-action"),
    ("play", "type as list", {"type": ["play"], "seat": 0, "card": "2C"}, "invalid-action"),
    ("play", "type as dict", {"type": {"play": 1}, "seat": 0, "card": "2C"}, "invalid-action"),
    ("play", "missing key", {"type": "play", "card": "2C"}, "invalid-action"),
    ("play", "extra key", {**PLAY, "why": "x"}, "invalid-action"),
    ("play", "non-string key", {**PLAY, 3: "x"}, "invalid-action"),
    ("play", "seat as string", {**PLAY, "seat": "0"}, "invalid-action"),
    ("play", "seat as bool", {**PLAY, "seat": False}, "invalid-action"),
    ("play", "seat as float", {**PLAY, "seat": 0.0}, "invalid-action"),
    ("play", "seat nan", {**PLAY, "seat": NAN}, "invalid-action"),
    ("play", "seat 10**30", {**PLAY, "seat": 10**30}, "invalid-action"),
    ("play", "seat 10**30 with a bad card", {**PLAY, "seat": 10**30, "card": "ZZ"}, "invalid-action"),
    ("play", "seat -1 with a bad card", {**PLAY, "seat": -1, "card": "ZZ"}, "invalid-action"),
    ("play", "seat 4 with a bad card", {**PLAY, "seat": 4, "card": "ZZ"}, "invalid-card"),
    ("play", "seat 4", {**PLAY, "seat": 4}, "invalid-action"),
    ("play", "seat 2**64-1", {**PLAY, "seat": 2**64 - 1}, "invalid-action"),
    ("play", "seat -1", {**PLAY, "seat": -1}, "invalid-action"),
    ("play", "card as number", {**PLAY, "card": 2}, "invalid-card"),
    ("play", "card as list", {**PLAY, "card": ["2C"]}, "invalid-card"),
    # ERR-6: a value that is not JSON data at all (NaN, a 65-bit integer, nesting past 128)
    # makes the whole action malformed, wherever it sits.
    ("play", "card nan", {**PLAY, "card": NAN}, "invalid-action"),
    ("play", "card beyond 64 bits", {**PLAY, "card": 2**64}, "invalid-action"),
    ("play", "card lone surrogate", {**PLAY, "card": "\ud800C"}, "invalid-action"),
    ("play", "card as tuple", {**PLAY, "card": ("2C",)}, "invalid-card"),
    ("play", "card unknown", {**PLAY, "card": "ZZ"}, "invalid-card"),
    ("play", "deeply nested card", {**PLAY, "card": _nest(50_000)}, "invalid-action"),
    ("play", "card nested 100 deep", {**PLAY, "card": _nest(100)}, "invalid-card"),
    ("play", "wrong seat", {**PLAY, "seat": 1}, "wrong-seat"),
    ("play", "card not held", {**PLAY, "card": "2D"}, "card-not-held"),
    ("play", "pass while playing", {"type": "pass", "seat": 0, "cards": ["2C", "3C", "4C"]}, "wrong-phase"),
    ("play", "deal while playing", {"type": "deal", "hands": HEARTS_4_DEAL}, "wrong-phase"),
    ("play", "moon while playing", {"type": "moon", "seat": 0, "choice": "add-to-others"}, "wrong-phase"),
    ("play", "moon choice unknown", {"type": "moon", "seat": 0, "choice": "both"}, "invalid-action"),
    ("play", "moon choice as list", {"type": "moon", "seat": 0, "choice": ["add-to-others"]}, "invalid-action"),
    ("pass", "play while passing", PLAY, "wrong-phase"),
    ("pass", "cards as string", {"type": "pass", "seat": 0, "cards": "2C3C4C"}, "invalid-action"),
    ("pass", "cards as dict", {"type": "pass", "seat": 0, "cards": {"2C": 1}}, "invalid-action"),
    ("pass", "cards with a number", {"type": "pass", "seat": 0, "cards": ["2C", 3, "4C"]}, "invalid-card"),
    ("pass", "too few cards", {"type": "pass", "seat": 0, "cards": []}, "wrong-pass-size"),
    ("pass", "seat outside", {"type": "pass", "seat": 9, "cards": []}, "invalid-action"),
    ("deal", "hands as string", {"type": "deal", "hands": "2C"}, "invalid-action"),
    ("deal", "hands of strings", {"type": "deal", "hands": ["2C", "3C", "4C", "5C"]}, "invalid-action"),
    ("deal", "hands nested too deep", {"type": "deal", "hands": [[["2C"]]] * 4}, "invalid-card"),
    (
        "deal",
        "unknown card",
        {"type": "deal", "hands": [["ZZ", *HEARTS_4_DEAL[0][1:]], *HEARTS_4_DEAL[1:]]},
        "invalid-card",
    ),
    (
        "deal",
        "duplicate card",
        {"type": "deal", "hands": [["2D", *HEARTS_4_DEAL[0][1:]], *HEARTS_4_DEAL[1:]]},
        "invalid-deal",
    ),
    ("deal", "three hands", {"type": "deal", "hands": HEARTS_4_DEAL[:3]}, "invalid-deal"),
    ("deal", "five hands", {"type": "deal", "hands": [*HEARTS_4_DEAL, []]}, "invalid-deal"),
    ("deal", "short hand", {"type": "deal", "hands": [HEARTS_4_DEAL[0][:12], *HEARTS_4_DEAL[1:]]}, "invalid-deal"),
    ("deal", "long hand", {"type": "deal", "hands": [HEARTS_4_DEAL[0] + ["2D"], *HEARTS_4_DEAL[1:]]}, "invalid-deal"),
    ("deal", "play while dealing", PLAY, "wrong-phase"),
    ("deal", "pass while dealing", {"type": "pass", "seat": 0, "cards": ["2C", "3C", "4C"]}, "wrong-phase"),
    ("over", "play after the end", {"type": "play", "seat": 0, "card": "7C"}, "match-over"),
    ("over", "deal after the end", {"type": "deal", "hands": HEARTS_4_DEAL}, "match-over"),
    ("over", "bad seat after the end", {"type": "play", "seat": 99, "card": "7C"}, "invalid-action"),
]


@pytest.mark.parametrize(
    ("phase", "action", "code"), [(p, a, c) for p, _, a, c in ACTIONS], ids=[d for _, d, _, _ in ACTIONS]
)
def test_rejected_actions_change_nothing(engine: ModuleType, phase: str, action: Any, code: str) -> None:
    game = _game(engine, phase)
    before = game.state()
    _expect(code, lambda: game.apply(action))
    assert game.state() == before


def test_card_outside_a_smaller_deck_is_an_invalid_deal(engine: ModuleType) -> None:
    game = engine.Game(engine.preset("hartenjagen"))
    hands = [[f"{rank}{suit}" for rank in "789TJQKA"] for suit in "CDHS"]
    hands[0][0] = "2C"
    _expect("invalid-deal", lambda: game.deal(hands))


METHODS: list[tuple[str, str, Callable[[Any], Any], str]] = [
    ("play", "hand of seat 10**30", lambda g: g.hand(10**30), "invalid-action"),
    ("play", "hand of seat -1", lambda g: g.hand(-1), "invalid-action"),
    ("play", "hand of seat '0'", lambda g: g.hand("0"), "invalid-action"),
    ("play", "hand of seat True", lambda g: g.hand(True), "invalid-action"),
    ("play", "observation of seat 4", lambda g: g.observation(4), "invalid-action"),
    ("play", "observation of seat 1.0", lambda g: g.observation(1.0), "invalid-action"),
    ("play", "play a bad card", lambda g: g.play("ZZ"), "invalid-card"),
    ("play", "play a number", lambda g: g.play(5), "invalid-card"),
    ("play", "play for a bad seat", lambda g: g.play("2C", seat=10**30), "invalid-action"),
    ("play", "choose a bad moon outside the moon", lambda g: g.choose_moon("both"), "invalid-action"),
    ("play", "choose a moon outside the moon", lambda g: g.choose_moon("add-to-others"), "wrong-phase"),
    ("play", "pass cards as a string", lambda g: g.pass_cards("2C3C4C", 0), "invalid-action"),
    ("deal", "play a bad card while dealing", lambda g: g.play("ZZ"), "invalid-card"),
    ("deal", "play a good card while dealing", lambda g: g.play("2C"), "wrong-phase"),
    ("deal", "deal hands as a string", lambda g: g.deal("2C"), "invalid-action"),
    ("over", "play after the end", lambda g: g.play("7C"), "match-over"),
    ("over", "deal after the end", lambda g: g.deal(), "match-over"),
]


@pytest.mark.parametrize(
    ("phase", "call", "code"), [(p, c, k) for p, _, c, k in METHODS], ids=[d for _, d, _, _ in METHODS]
)
def test_rejected_method_calls_change_nothing(
    engine: ModuleType, phase: str, call: Callable[[Any], Any], code: str
) -> None:
    game = _game(engine, phase)
    before = game.state()
    _expect(code, lambda: call(game))
    assert game.state() == before


# ------------------------------------------------------------------------------- records


def _record(m: ModuleType, **changes: Any) -> dict[str, Any]:
    game = m.Game(m.preset("hearts-4"), seed=5)
    game.pass_cards(game.hand(0)[:3], 0)
    record = game.to_record()
    record.update(changes)
    return dict(record)


RECORDS: dict[str, Callable[[ModuleType], Any]] = {
    "not an object": lambda m: m.Game.from_record([1]),
    "none": lambda m: m.Game.from_record(None),
    "missing key": lambda m: m.Game.from_record({k: v for k, v in _record(m).items() if k != "seed"}),
    "unknown key": lambda m: m.Game.from_record(_record(m, extra=1)),
    "wrong format": lambda m: m.Game.from_record(_record(m, format="pgn")),
    "version 2": lambda m: m.Game.from_record(_record(m, version=2)),
    "version true": lambda m: m.Game.from_record(_record(m, version=True)),
    "version 1.0": lambda m: m.Game.from_record(_record(m, version=1.0)),
    "seed nan": lambda m: m.Game.from_record(_record(m, seed=NAN)),
    "seed -1": lambda m: m.Game.from_record(_record(m, seed=-1)),
    "seed 2**64": lambda m: m.Game.from_record(_record(m, seed=2**64)),
    "seed string": lambda m: m.Game.from_record(_record(m, seed="5")),
    "ruleset name only": lambda m: m.Game.from_record(_record(m, ruleset="hearts-4")),
    "impossible ruleset": lambda m: m.Game.from_record(
        _record(m, ruleset={**m.preset("hearts-4").to_json(), "target": 0})
    ),
    "start as list": lambda m: m.Game.from_record(_record(m, start=[0, [0, 0, 0, 0]])),
    "start scores short": lambda m: m.Game.from_record(_record(m, start={"hand_number": 0, "scores": [0]})),
    "start scores huge": lambda m: m.Game.from_record(_record(m, start={"hand_number": 0, "scores": [2**63] * 4})),
    "start hand number bool": lambda m: m.Game.from_record(_record(m, start={"hand_number": False, "scores": [0] * 4})),
    "actions as dict": lambda m: m.Game.from_record(_record(m, actions={})),
    "action not an object": lambda m: m.Game.from_record(_record(m, actions=[*_record(m)["actions"], "play"])),
    "action rejected on replay": lambda m: m.Game.from_record(_record(m, actions=[*_record(m)["actions"], PLAY])),
    "deal differs from the seed": lambda m: m.Game.from_record(
        _record(m, actions=[{"type": "deal", "hands": HEARTS_4_DEAL}])
    ),
    "a million actions": lambda m: m.Game.from_record(_record(m, actions=[PLAY] * 1_000_000)),
    "deeply nested action": lambda m: m.Game.from_record(_record(m, actions=[_nest(100_000)])),
    "load not bytes": lambda m: m.load_record('{"format": "reversis-record"}'),
    "load a list of ints": lambda m: m.load_record(list(b"{}")),
    "load none": lambda m: m.load_record(None),
    "load empty": lambda m: m.load_record(b""),
    "load malformed json": lambda m: m.load_record(b'{"format": '),
    "load json not utf-8": lambda m: m.load_record(b'{"format": "\xff"}'),
    "load json nan": lambda m: m.load_record(m.dump_record(_record(m)).replace(b'"seed":5', b'"seed":NaN')),
    "load json float version": lambda m: m.load_record(
        m.dump_record(_record(m)).replace(b'"version":1', b'"version":1.0')
    ),
    "load json with leading space": lambda m: m.load_record(b" " + m.dump_record(_record(m))),
    "load json empty object": lambda m: m.load_record(b"{}"),
    "load deeply nested json": lambda m: m.load_record(b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    "load msgpack garbage": lambda m: m.load_record(b"\xc1\xc1"),
    "load msgpack not a map": lambda m: m.load_record(b"\x93\x01\x02\x03"),
    "load msgpack truncated": lambda m: m.load_record(m.dump_record(_record(m), "msgpack")[:-5]),
    "load msgpack trailing bytes": lambda m: m.load_record(m.dump_record(_record(m), "msgpack") + b"\x00"),
    "load msgpack gigabyte string": lambda m: m.load_record(b"\x81\xdb\x40\x00\x00\x00abc"),
    "load msgpack gigabyte array": lambda m: m.load_record(b"\x81\xa1a\xdd\x40\x00\x00\x00\x01"),
    "load msgpack gigabyte map": lambda m: m.load_record(b"\xdf\x40\x00\x00\x00\xa1a\x01"),
    "load msgpack deeply nested": lambda m: m.load_record(b"\x81\xa1a" + b"\x91" * 100_000 + b"\xc0"),
    "load msgpack float": lambda m: m.load_record(b"\x81\xa1a\xcb" + b"\x00" * 8),
    "load msgpack binary": lambda m: m.load_record(b"\x81\xa1a\xc4\x01x"),
    "load msgpack integer key": lambda m: m.load_record(b"\x81\x01\x01"),
    "load msgpack empty map": lambda m: m.load_record(b"\x80"),
    "load over the size limit": lambda m: m.load_record(b"{" + b" " * (64 * 1024 * 1024)),
    "dump malformed record": lambda m: m.dump_record({}),
    "dump unknown format": lambda m: m.dump_record(_record(m), "xml"),
    "dump format not a string": lambda m: m.dump_record(_record(m), 3),
    "dump float in record": lambda m: m.dump_record(_record(m, seed=5.0), "msgpack"),
}


@pytest.mark.parametrize("case", sorted(RECORDS))
def test_bad_records(engine: ModuleType, case: str) -> None:
    started = time.perf_counter()
    _expect("invalid-record", lambda: RECORDS[case](engine))
    assert time.perf_counter() - started < 20, "hostile input must fail fast"


@pytest.fixture(scope="module")
def million_action_record() -> bytes:
    """A JSON record of a million actions (43 MB), built by concatenation to keep the test quick."""
    from reversis import reference

    head = json.dumps(_record(reference, actions=[])).encode()
    assert head.endswith(b'"actions": []}')
    play = json.dumps(PLAY).encode()
    return head[: -len(b"]}")] + b", ".join([play] * 1_000_000) + b"]}"


def test_million_action_json_record_fails_fast(engine: ModuleType, million_action_record: bytes) -> None:
    started = time.perf_counter()
    _expect("invalid-record", lambda: engine.load_record(million_action_record))
    assert time.perf_counter() - started < 20


def test_record_loading_agrees_on_a_good_record(engine: ModuleType) -> None:
    record = _record(engine)
    for form in ("json", "msgpack"):
        assert engine.load_record(engine.dump_record(record, form)) == record
    assert engine.Game.from_record(record).state() == engine.Game.from_record(record).state()


# ----------------------------------------------------------------------- Rust binding only


def test_simulate_rejects_bad_counts() -> None:
    reversis = pytest.importorskip("reversis._core")
    import reversis as api

    ruleset = api.preset("hearts-4")
    for call in (
        lambda: api.simulate(ruleset, 10**15, seed=1),
        lambda: api.simulate(ruleset, -1, seed=1),
        lambda: api.simulate(ruleset, 10, seed=-1),
        lambda: api.simulate(ruleset, 10, seed=2**64),
        lambda: api.simulate(ruleset, 10, seed=1, threads=0),
        lambda: api.simulate(ruleset, 10, seed=1, threads=10**6),
        lambda: api.simulate(ruleset, 10, seed=1, threads=-1),
        lambda: api.simulate(ruleset, 10**15, seed=1, legal_masks=True),
        lambda: reversis.simulate_scores("hearts-4", 10, 1),
        lambda: reversis.simulate_scores(ruleset, "10", 1),
        lambda: reversis.simulate_scores_and_masks(ruleset, 10, 1.5),
    ):
        _expect("invalid-setup", call)
    assert api.simulate(ruleset, 3, seed=2**64 - 1, threads=256).scores.shape == (3, 4)


# --------------------------------------------------------------------------- CLI and driver


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversis", *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    "args",
    [
        ["no-such-command"],
        ["conformance", "--engine", "cobol"],
        ["conformance", "--timeout", "soon"],
        ["conformance", "--area", "no-such-area"],
        ["conformance", "--json", "/no/such/dir/report.json", "--area", "cards"],
        ["bench", "--repeats", "many"],
        ["driver", "--engine", "cobol"],
    ],
    ids=" ".join,
)
def test_cli_rejects_bad_arguments_without_a_traceback(args: list[str]) -> None:
    result = _run(*args)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert result.stderr.strip()


def test_driver_answers_garbage_with_invalid_request() -> None:
    requests = [
        ("not json", "invalid-request"),
        ("[1, 2, 3]", "invalid-request"),
        ('{"id": 1}', "invalid-request"),
        ('{"id": 2, "cmd": 5}', "invalid-request"),
        ('{"id": 3, "cmd": "frobnicate"}', "invalid-request"),
        ('{"id": 4, "cmd": "parse_card"}', "invalid-request"),
        ('{"id": 5, "cmd": "parse_card", "text": "2C", "extra": 1}', "invalid-request"),
        ('{"id": 6, "cmd": "apply", "game": 999, "action": {}}', "invalid-request"),
        ('{"id": 7, "cmd": "seed_draws", "seed": 1, "count": 1000000000000000}', "invalid-setup"),
        ('{"id": 8, "cmd": "deal_from_seed", "ruleset": "hearts-4", "seed": -1, "deals": 1}', "invalid-setup"),
        ('{"id": 9, "cmd": "new_game", "ruleset": "hearts-4", "seed": 1e400}', "invalid-setup"),
        ('{"id": 10, "cmd": "ruleset", "ruleset": ' + "[" * 50_000 + "]" * 50_000 + "}", "invalid-request"),
        ('{"id": 11, "cmd": "view", "game": "1"}', "invalid-request"),
        ('{"id": 12, "cmd": "load_record", "record": NaN}', "invalid-record"),
        ('{"id": 13, "cmd": "' + "x" * 100_000 + '"}', "invalid-request"),
        ('{"id": 14, "cmd": "_keep", "game": 1}', "invalid-request"),
        ('{"id": 15, "cmd": "parse_card", "text": "\\ud800"}', "invalid-card"),
        ('{"id": 16, "cmd": "new_game", "ruleset": {"name": 1}}', "invalid-ruleset"),
        ('{"id": 17, "cmd": "new_game", "ruleset": "hearts-4", "hand_number": true}', "invalid-setup"),
        ('{"id": 18, "cmd": "new_game", "ruleset": "hearts-4", "scores": "0"}', "invalid-setup"),
        ('{"id": 19, "cmd": "observation", "game": 1, "seat": 0}', "invalid-request"),
    ]
    lines = [line for line, _ in requests] + ['{"id": 99, "cmd": "parse_card", "text": "2C"}']
    for engine in ("rust", "reference"):
        result = _run("driver", "--engine", engine, stdin="\n".join(lines) + "\n")
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        answers = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(answers) == len(lines)
        assert answers[-1] == {"id": 99, "ok": True, "card": "2C"}
        got = [(answer["ok"], answer.get("error")) for answer in answers[:-1]]
        assert got == [(False, code) for _, code in requests], engine


class _Meddling:
    """A seat number whose ``__index__`` changes the game it is given to, then reads it."""

    def __init__(self, game: Any, seat: int) -> None:
        self.game, self.seat, self.outcome = game, seat, None

    def __index__(self) -> int:
        try:
            self.game.apply_action(self.game.legal_actions()[0])
            self.outcome = "changed"
        except Exception as error:  # what the engine says of a change during a read
            self.outcome = type(error).__name__
        return self.seat


def test_a_game_changed_from_inside_one_of_its_calls_is_not_a_crash(engine: ModuleType) -> None:
    """Python code run while a call reads a game may change it: the change is refused or made whole."""
    game = engine.Game(engine.preset("hearts-4"), seed=3)
    first = game.legal_actions()[0]
    seat = _Meddling(game, 1)
    assert game.observation(seat)["seat"] == 1
    expected = engine.Game(engine.preset("hearts-4"), seed=3)
    if seat.outcome == "changed":
        expected.apply_action(first)
    else:
        assert seat.outcome == "RuntimeError"
    assert game.state() == expected.state()
    game.apply_action(game.legal_actions()[0])
    expected.apply_action(expected.legal_actions()[0])
    assert game == expected
