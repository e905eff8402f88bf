"""Errors in general: codes, classes, precedence and the untouched state (ERR-1 … ERR-5)."""

from __future__ import annotations

import copy

import pytest

from helpers import BREAKING, MOON, HandTracker, expect_error, rejected, spec_preset, start


def test_rejected_actions_leave_the_state_unchanged(engine):
    """ERR-1, API-3: a rejected action changes nothing: state() before and after are equal, and
    the game goes on normally afterwards."""
    game = start(engine, "hearts-4", BREAKING, hand_number=3)
    game.play("2C")
    before = copy.deepcopy(game.state())
    attempts = [
        ({"type": "play", "seat": 1, "card": "QS"}, "must-follow-suit"),
        ({"type": "play", "seat": 1, "card": "AS"}, "card-not-held"),
        ({"type": "play", "seat": 2, "card": "4C"}, "wrong-seat"),
        ({"type": "play", "seat": 1, "card": "1C"}, "invalid-card"),
        ({"type": "play", "seat": 9, "card": "3C"}, "invalid-action"),
        ({"type": "play", "seat": "1", "card": "3C"}, "invalid-action"),
        ({"type": "play", "seat": 1, "card": "3C", "extra": 1}, "invalid-action"),
        ({"type": "play", "seat": 1}, "invalid-action"),
        ({"type": "pass", "seat": 1, "cards": ["3C", "3D", "4D"]}, "wrong-phase"),
        ({"type": "moon", "seat": 1, "choice": "add-to-others"}, "wrong-phase"),
        ({"type": "bid", "seat": 1}, "invalid-action"),
    ]
    for action, code in attempts:
        rejected(engine, game, lambda: game.apply(action), code)
        assert game.state() == before
    game.play("3C")
    assert game.state() != before


def test_rejected_action_on_a_copy_does_not_touch_the_original(engine):
    """API-3 copy(), ERR-1: a copy is independent; playing on it leaves the original's state."""
    game = start(engine, "hearts-computer", MOON, hand_number=3)
    before = copy.deepcopy(game.state())
    twin = game.copy()
    assert twin.state() == before
    twin.play("2C")
    assert game.state() == before
    assert twin.state() != before


def test_error_precedence(engine):
    """ERR-4, PLAY-8: invalid-card before match-over/phase checks; wrong-seat before card-not-held;
    card-not-held before must-follow-suit; must-follow-suit before points-on-first-trick."""
    game = start(engine, "hearts-4", BREAKING, hand_number=3)
    game.play("2C")
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": 2, "card": "ZZ"}), "invalid-card")
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": 2, "card": "QS"}), "wrong-seat")
    rejected(engine, game, lambda: game.play("AH"), "card-not-held")
    rejected(engine, game, lambda: game.play("QS"), "must-follow-suit")
    # moon-choice-pending precedes wrong-phase and wrong-seat.
    pending = start(engine, "hearts-4", MOON, hand_number=3)
    tracker = HandTracker(pending)
    tracker.play_all(["2C", "JD", "KC", "3C", "2D", "AD", "3D", "4D", "4H", "2H", "3H", "QS"])
    tracker.finish()
    assert pending.phase == "moon"
    rejected(
        engine,
        pending,
        lambda: pending.apply({"type": "pass", "seat": 2, "cards": ["2S", "3S", "4S"]}),
        "moon-choice-pending",
    )
    rejected(engine, pending, lambda: pending.apply({"type": "moon", "seat": 0, "choice": "both"}), "invalid-action")


def test_errors_carry_codes_and_classes(engine):
    """ERR-5: input errors are InvalidInputError, illegal actions IllegalActionError, both
    ReversisError and ValueError, each with .code; messages are lowercase."""
    game = start(engine, "hearts-4", BREAKING, hand_number=3)
    err = rejected(engine, game, lambda: game.play("3C"), "card-not-held")
    assert isinstance(err, engine.IllegalActionError)
    assert "3c" in str(err).lower(), "ERR-5: the message quotes the offending input"
    err = rejected(engine, game, lambda: game.play("3X"), "invalid-card")
    assert isinstance(err, engine.InvalidInputError)
    try:
        game.play("AS")
    except ValueError as caught:  # catchable as a plain ValueError
        assert caught.code == "must-lead-opening-card"
    else:
        pytest.fail("leading AS instead of 2C was accepted")


@pytest.mark.parametrize(
    "change",
    [
        {"players": 8},
        {"players": 2},
        {"target": 0},
        {"opening_card": "2D"},  # removed from the 3-player deck
        {"opening_card": "ZZ"},
        {"hearts_breaking": "spade"},
        {"passing": {"cycle": ["left", "across"], "size": 3}},  # across needs 4 players (D-3)
        {"passing": {"cycle": ["hold"], "size": 3}},
        {"passing": {"cycle": ["left"], "size": 0}},
        {"moon": {"scoring": "double", "bonus": 26}},
        {"unknown_field": 1},
    ],
)
def test_invalid_rulesets(engine, change):
    """RS-13, ruleset.md, ERR-2: malformed or impossible rulesets are invalid-ruleset."""
    data = copy.deepcopy(spec_preset("hearts-3"))
    data.update(change)
    expect_error(engine, lambda: engine.Ruleset.from_json(data), "invalid-ruleset")


def test_missing_field_is_invalid_ruleset(engine):
    """ruleset.md: a missing required field is invalid-ruleset."""
    data = copy.deepcopy(spec_preset("hearts-4"))
    del data["moon"]
    expect_error(engine, lambda: engine.Ruleset.from_json(data), "invalid-ruleset")
