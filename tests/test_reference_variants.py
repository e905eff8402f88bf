"""The reference engine on the fields of 1.4.0 where the conformance suite cannot reach.

Undo, records, ``replace`` and pickling are Python API (API-2, API-4, API-8), not driver
commands, so the suite's cases (conformance/cases) do not exercise them on the new fields. The
hands are the three-seat Q K A deck of those cases, worked by hand: seat 1 holds the four aces
and wins every trick, 8 points.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from reversis.errors import InvalidInputError
from reversis.reference import Game, Ruleset
from reversis.reference.vector import VectorEnv

HANDS = [["QH", "KH", "QS", "KS"], ["AC", "AD", "AH", "AS"], ["QC", "KC", "QD", "KD"]]
PLAYS = [
    (1, "AC"), (2, "QC"), (0, "QH"), (1, "AD"), (2, "QD"), (0, "KH"),
    (1, "AH"), (2, "KC"), (0, "QS"), (1, "AS"), (2, "KD"), (0, "KS"),
]  # fmt: skip


def tiny(**extra: Any) -> Ruleset:
    """Three seats, Q K A of each suit, nothing passed, a free lead; ``extra`` fields on top."""
    data: dict[str, Any] = {
        "name": "tiny",
        "players": 3,
        "deck": {"lowest_rank": "Q", "removed": []},
        "passing": None,
        "opening_card": None,
        "first_trick_ban": False,
        "hearts_breaking": "none",
        "card_points": {"QH": 1, "KH": 1, "AH": 1, "QS": 5},
        "moon": {"scoring": "add-to-others", "bonus": 10},
        "target": 100,
    }
    return Ruleset.from_json({**data, **extra})


def played(ruleset: Ruleset, **start: Any) -> Game:
    game = Game(ruleset, **start)
    game.deal(HANDS)
    for seat, card in PLAYS:
        game.play(card, seat)
    return game


def test_undo_out_of_a_sun_choice_and_back_keeps_the_sun() -> None:
    """SCORE-5, API-8: the sun, not the moon, is scored after the last play is undone and replayed."""
    game = played(tiny(sun={"scoring": "taker-choice", "bonus": 20}))
    assert (game.phase, game.moon_taker) == ("moon", 1)
    game.undo()
    assert game.phase == "play"
    game.play("KS", 0)
    game.choose_moon("add-to-others")
    assert game.scores == [20, 0, 20]


def test_a_sun_record_replays_to_its_scores() -> None:
    """REC-2: a record of a sun under taker-choice replays to the sun's scores, not the moon's."""
    game = played(tiny(sun={"scoring": "taker-choice", "bonus": 20}))
    game.choose_moon("subtract-from-taker")
    replayed = Game.from_record(game.to_record())
    assert replayed.scores == game.scores == [0, -20, 0]


def test_a_deals_record_replays_to_the_end_of_the_match() -> None:
    """MATCH-9, REC-2: a record of a match that deals end, its target null, replays to over."""
    game = played(tiny(moon=None, target=None, deals=1))
    assert (game.phase, game.winners) == ("over", [0, 2])
    record = game.to_record()
    assert record["ruleset"]["target"] is None and record["ruleset"]["deals"] == 1
    assert Game.from_record(record).winners == [0, 2]


def test_replace_reaches_the_new_fields_and_checks_them() -> None:
    """API-2: replace() sets the fields of 1.4.0, and a count_down_end left without count_down is rejected."""
    counting = tiny(target=10, count_down=True, count_down_end="below-zero")
    assert counting.count_down_end == "below-zero"
    with pytest.raises(InvalidInputError) as error:
        counting.replace(count_down=None)
    assert error.value.code == "invalid-ruleset" and "count_down_end" in str(error.value)
    assert counting.replace(count_down_end=None).count_down_end == "stop-at-zero"
    assert "count_down_end" not in counting.replace(count_down_end=None).to_json()
    assert tiny().replace(target=None, deals=3).to_json()["target"] is None


def test_a_ruleset_of_every_new_field_pickles_to_an_equal_one() -> None:
    """API-2: pickling rebuilds the ruleset from its canonical object, the new fields included."""
    ruleset = tiny(
        card_points={"QH": 1, "KH": 1, "AH": 1, "QS": 5, "QD": -3},
        moon={"scoring": "subtract-from-taker", "bonus": 16, "needs": "every-scoring-card"},
        sun={"scoring": "add-to-others", "bonus": 52},
        target=10,
        count_down=True,
        count_down_end="exact-zero",
        deals=6,
    )
    again = pickle.loads(pickle.dumps(ruleset))
    assert again == ruleset and again.to_json() == ruleset.to_json()
    assert again.sun == {"scoring": "add-to-others", "bonus": 52}
    assert (again.deals, again.moon["needs"]) == (6, "every-scoring-card")


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ({"sun": {"scoring": "subtract-from-taker", "bonus": 52}}, "sun"),
        ({"target": None, "deals": 4}, "no target"),
        ({"target": 10, "count_down": True, "count_down_end": "below-zero"}, "below zero"),
    ],
)
def test_uint8_match_observations_refuse_unbounded_totals(extra: dict[str, Any], why: str) -> None:
    """API-11 (1.4.0): a sun that subtracts, a null target and a count-down below zero leave totals unbounded."""
    ruleset = tiny(**extra)
    VectorEnv(ruleset, 1, 0, episode="hand", observation_dtype="uint8")
    with pytest.raises(InvalidInputError) as error:
        VectorEnv(ruleset, 1, 0, episode="match", observation_dtype="uint8")
    assert error.value.code == "invalid-setup" and why in str(error.value)
