"""Property-based tests: random valid rulesets and random action sequences on both engines at once.

The default run is quick (a few dozen examples per property). For a long run::

    HYPOTHESIS_PROFILE=long python -m pytest tests/test_properties.py

Invariants checked after every step, on both engines:

- every card of the deck is in exactly one place: hands, played (tricks and the trick in
  progress) and passed cards in flight;
- a finished hand's scores add up to the ruleset's card total or to a moon's total (but for a
  count-down hand, MATCH-6);
- totals change only when a hand ends;
- the legal set is never empty while a seat must play;
- both engines agree on every view, observation and error code; a rejected action changes
  nothing.
"""

from __future__ import annotations

import os
from collections import Counter
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversis import reference
from reversis.conformance.engines import game_view

pytest.importorskip("reversis._core")
import reversis
from reversis._core import RULESET_FIELD_TABLE, RULESET_OPTIONAL_FIELDS

OPTIONAL_FIELDS = frozenset(RULESET_OPTIONAL_FIELDS)

settings.register_profile(
    "reversis-quick",
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile("long" if os.environ.get("HYPOTHESIS_PROFILE") == "long" else "reversis-quick")

RANKS = "23456789TJQKA"
ALL_CARDS = [rank + suit for suit in "CDHS" for rank in RANKS]
ENGINES: tuple[ModuleType, ModuleType] = (reversis, reference)


@st.composite
def rulesets(draw: Any) -> dict[str, Any]:
    """A random valid ruleset of the model (RS-1 … RS-13, RS-21, RS-22): one or two packs."""
    players = draw(st.integers(3, 10))
    packs = draw(st.sampled_from([1, 2]))
    lowest = draw(st.sampled_from("23456789"))
    # RS-21: packs copies of each card, the copies adjacent; each entry of removed takes one away.
    deck = [card for card in ALL_CARDS if RANKS.index(card[0]) >= RANKS.index(lowest) for _ in range(packs)]
    extra = draw(st.integers(0, 2)) * players
    n_removed = len(deck) % players + extra
    if len(deck) - n_removed < players:
        n_removed = len(deck) % players
    removed = draw(st.permutations(deck))[:n_removed]
    kept = list(deck)
    for card in removed:
        kept.remove(card)
    hand_size = len(kept) // players
    # RS-13 item 3: the opening card has exactly one copy left in the deck.
    unique = sorted({card for card in kept if kept.count(card) == 1})
    directions = ["left", "right", "hold"] + (["across"] if players == 4 else [])
    passing = None
    if draw(st.booleans()):
        cycle = draw(st.lists(st.sampled_from(directions), min_size=1, max_size=4))
        if all(d == "hold" for d in cycle):
            cycle.append("left")
        passing = {"cycle": cycle, "size": draw(st.integers(1, min(hand_size, 4)))}
    scored = draw(st.lists(st.sampled_from(sorted(set(kept))), max_size=10, unique=True))
    card_points = {card: draw(st.integers(-20, 20).filter(bool)) for card in scored}
    moon = None
    if any(v > 0 for v in card_points.values()) and draw(st.booleans()):
        moon = {
            "scoring": draw(st.sampled_from(["add-to-others", "subtract-from-taker", "taker-choice"])),
            "bonus": draw(st.integers(1, 30)),
        }
    deck_json: dict[str, Any] = {"lowest_rank": lowest, "removed": sorted(removed)}
    if packs == 2 or draw(st.booleans()):
        deck_json["packs"] = packs  # RS-21: optional, 1 where absent
    extras: dict[str, Any] = {}
    if packs == 2 and draw(st.booleans()):  # RS-13 item 7: cancellation only with two packs
        extras["cancellation"] = {"last_trick": draw(st.sampled_from(["leader", "later-highest"]))}
    elif draw(st.booleans()):
        extras["cancellation"] = None  # RS-19: null means what absence means
    ruleset: dict[str, Any] = {
        "name": "random",
        "players": players,
        "deck": deck_json,
        "passing": passing,
        "opening_card": draw(st.none() | st.sampled_from(unique)) if unique else None,
        "card_points": card_points,
        "moon": moon,
        "target": draw(st.integers(1, 80)),
        **extras,
    }
    # Every field of a simple kind of the core's table (RS-7, RS-8, RS-20, …, generated from the
    # schema) the lines above leave out: a core one drawn, an optional one drawn or left out; so
    # a field the schema gains is drawn with no change here.
    drawn = []
    for field in RULESET_FIELD_TABLE:
        if field["kind"] == "other" or field["name"] in ruleset:
            continue
        if field["optional"] and not draw(st.booleans()):
            continue
        ruleset[field["name"]] = draw(_simple_values(field))
        drawn.append(field["name"])
    # A field may need another's value (RS-13): an optional one the core refuses is left out.
    while True:
        try:
            reversis.Ruleset.from_json(ruleset)
        except reversis.InvalidInputError as error:
            named = [name for name in drawn if f"field '{name}'" in str(error) and name in OPTIONAL_FIELDS]
            if not named:
                raise
            del ruleset[named[0]]
            continue
        return ruleset


def _simple_values(field: Any) -> Any:
    """The values of a field of a simple kind of ``RULESET_FIELD_TABLE``."""
    if field["kind"] == "boolean":
        return st.booleans()
    if field["kind"] == "enum":
        return st.sampled_from(field["values"])
    low = 0 if field["minimum"] is None else field["minimum"]
    high = low + 20 if field["maximum"] is None else min(field["maximum"], low + 20)
    return st.integers(low, high)


def _allowed_sums(ruleset: Any) -> set[int]:
    # SCORE-1: every copy in the deck counts (D-15).
    values = [ruleset.card_points.get(card, 0) for card in ruleset.deck]
    positive, negative = sum(v for v in values if v > 0), sum(v for v in values if v < 0)
    sums = {positive + negative}
    if ruleset.moon is not None:
        sums |= {negative + (ruleset.players - 1) * ruleset.moon["bonus"], negative - ruleset.moon["bonus"]}
    return sums


def _check_cards(game: Any) -> None:
    deck = game.ruleset.deck
    places: list[str] = []
    for seat in range(game.ruleset.players):
        places += game.hand(seat)
        seen = game.observation(seat)
        if seen["received"] is None and seen["passed"] is not None:
            places += seen["passed"]  # passed, not yet exchanged
    places += [entry["card"] for entry in game.trick]
    places += [played["card"] for trick in game.tricks_played for played in trick["cards"]]
    if game.phase in ("pass", "play", "moon"):
        assert sorted(places) == sorted(deck), "a card is lost or in two places"
    else:  # no card in more places than the deck has copies of it (CARD-2)
        assert not Counter(places) - Counter(deck)


def _legal_options(game: Any) -> list[dict[str, Any]]:
    if game.phase == "play":
        legal = game.legal_plays()
        assert legal, "no legal play for the seat to move"
        return [{"type": "play", "seat": game.to_move, "card": card} for card in legal]
    if game.phase == "moon":
        return [
            {"type": "moon", "seat": game.moon_taker, "choice": choice}
            for choice in ("add-to-others", "subtract-from-taker")
        ]
    if game.phase == "pass":
        size = game.ruleset.passing["size"]
        return [{"type": "pass", "seat": seat, "cards": game.hand(seat)[:size]} for seat in game.awaiting_pass] + [
            {"type": "pass", "seat": seat, "cards": game.hand(seat)[-size:]} for seat in game.awaiting_pass
        ]
    return []


def _outcome(game: Any, action: Any) -> str:
    before = game.state()
    try:
        game.apply(action)
    except reversis.ReversisError as error:
        assert game.state() == before, f"rejected {action} changed the state"
        return error.code
    return "accepted"


ILLEGAL = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("play"), "seat": st.integers(-2, 11), "card": st.sampled_from([*ALL_CARDS, "ZZ"])}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("pass"),
            "seat": st.integers(0, 10),
            "cards": st.lists(st.sampled_from(ALL_CARDS), max_size=5),
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("moon"), "seat": st.integers(0, 10), "choice": st.sampled_from(["add-to-others", "x"])}
    ),
    st.dictionaries(st.sampled_from(["type", "seat", "card", "cards", "hands"]), st.none() | st.integers() | st.text()),
)


@PROFILE
@given(data=st.data(), ruleset_json=rulesets(), seed=st.none() | st.integers(0, 2**64 - 1))
def test_random_rulesets_and_actions_keep_the_invariants_and_the_engines_agree(
    data: Any, ruleset_json: dict[str, Any], seed: int | None
) -> None:
    rulesets_ = [engine.Ruleset.from_json(ruleset_json) for engine in ENGINES]
    assert rulesets_[0].to_json() == rulesets_[1].to_json()
    assert rulesets_[0].deck == rulesets_[1].deck and rulesets_[0].point_cards == rulesets_[1].point_cards
    games = [engine.Game(ruleset, seed) for engine, ruleset in zip(ENGINES, rulesets_)]
    rust, _ = games
    sums = _allowed_sums(rust.ruleset)
    for _ in range(data.draw(st.integers(10, 200), label="steps")):
        if rust.phase == "over":
            break
        if rust.phase == "deal":
            hands = data.draw(st.permutations(rust.ruleset.deck), label="deal")
            size = rust.ruleset.hand_size
            action: Any = {
                "type": "deal",
                "hands": [sorted(hands[i * size : (i + 1) * size]) for i in range(len(hands) // size)],
            }
        elif data.draw(st.integers(0, 4), label="illegal?") == 0:
            action = data.draw(ILLEGAL, label="illegal")
        else:
            action = data.draw(st.sampled_from(_legal_options(rust)), label="legal")
        totals, hands_done, counting_down = rust.scores, len(rust.hand_scores), rust.count_down
        outcomes = [_outcome(game, action) for game in games]
        assert outcomes[0] == outcomes[1], f"{action}: {outcomes}"
        assert game_view(games[0]) == game_view(games[1])
        seat = data.draw(st.integers(0, rust.ruleset.players - 1), label="observer")
        assert games[0].observation(seat) == games[1].observation(seat)
        for game in games:
            _check_cards(game)
            if len(game.hand_scores) == hands_done:
                assert game.scores == totals, "totals changed mid-hand"
            else:
                # MATCH-6: a count-down hand's scores are what it took off each total, stopping
                # at zero, so only a hand before the count-down adds up to the card total.
                if not counting_down:
                    assert sum(game.hand_scores[-1]) in sums
                assert game.scores == [t + s for t, s in zip(totals, game.hand_scores[-1])]
    record = rust.to_record()
    for engine in ENGINES:
        assert engine.Game.from_record(record).state() == engine.Game.from_record(record).state()
    assert game_view(reversis.Game.from_record(record)) == game_view(reference.Game.from_record(record))


@PROFILE
@given(
    ruleset_json=rulesets(),
    key=st.sampled_from(["players", "target", "passing", "opening_card", "deck", "cancellation"]),
)
def test_breaking_one_field_of_a_valid_ruleset_is_rejected_alike(ruleset_json: dict[str, Any], key: str) -> None:
    broken = {
        "players": 11,
        "target": 0,
        "passing": {"cycle": ["hold"], "size": 1},
        "opening_card": "1C",
        "deck": {"lowest_rank": "2", "removed": ["2C", "2C"]},
        "cancellation": {"last_trick": "winner"},
    }[key]
    codes = []
    for engine in ENGINES:
        with pytest.raises(engine.ReversisError) as caught:
            engine.Ruleset.from_json({**ruleset_json, key: broken})
        codes.append(caught.value.code)
    assert codes == ["invalid-ruleset", "invalid-ruleset"]
