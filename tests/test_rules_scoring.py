"""Scoring: trick points, the Hartenjagen pit, shooting the moon, Omnibus JD (SCORE-*)."""

from __future__ import annotations

import pytest

from helpers import (
    MOON,
    PIT,
    SECTION_06,
    HandTracker,
    build_deal,
    expected_hand_scores,
    hearts,
    rejected,
    ruleset,
    start,
)


def test_section_06_trick_and_hand(engine):
    """000_8342d744d0b6b53c.txt §06 (003_668765aa53e74a05.txt §06), SCORE-1, PLAY-7: in a later
    trick A leads K♣, B follows J♣, C (no clubs) discards Q♠, D follows 8♣: K♣ wins, Q♠ is no
    trump, A takes 2 + 5 = 7; after two more hearts A scores 9 for the hand; not a pit."""
    game = start(engine, "hartenjagen", SECTION_06)
    tracker = HandTracker(game)
    tracker.play_all(["7C", "9C", "7D", "QC"])  # D wins with QC
    tracker.play_all(["8D", "AD", "9D", "TD"])  # A wins with AD
    assert game.to_move == 0
    assert game.legal_plays() == game.hand(0), "hearts need no breaking (000 §03)"
    tracker.play_all(["KC", "JC", "QS"])
    assert [(x["seat"], x["card"]) for x in game.trick] == [(0, "KC"), (1, "JC"), (2, "QS")]
    tracker.play("8C")
    assert game.to_move == 0, "K♣ wins: Q♠ is not a trump"
    assert list(game.points) == [7, 0, 0, 0]
    assert list(game.scores) == [0, 0, 0, 0], "totals change only when the hand is scored (SCORE-4)"
    tracker.play_all(["AH", "TH", "8S", "QD"])  # A captures 2 hearts: 9
    assert list(game.points) == [9, 0, 0, 0]
    tracker.play_all(["7S", "TC", "9S", "JS"])  # D wins
    tracker.play_all(["AC", "7H", "JH", "TS"])
    tracker.play_all(["KS", "8H", "QH", "JD"])
    tracker.play_all(["AS", "9H", "KH", "KD"])
    assert list(game.hand_scores) == [[9, 0, 0, 6]]
    assert list(game.scores) == [9, 0, 0, 6]
    assert game.phase == "deal"
    assert game.hand_number == 1
    assert game.dealer == 1


def _play_pit(engine, rs, scores=None):
    game = start(engine, rs, PIT, scores=scores)
    tracker = HandTracker(game)
    tracker.play_all(["7C", "AC", "9C", "8C"])
    assert game.to_move == 1, "the pit needs no trick-sweep: seat 1 wins the first trick"
    tracker.play_all(["7H", "QS", "JC", "8H"])  # seat 1 leads: seats 1, 2, 3, 0
    assert list(game.points) == [9, 0, 0, 0]
    tracker.finish()
    assert tracker.captured[0] and set(hearts("7")) | {"QS", "JC"} <= set(tracker.captured[0])
    return game


def test_pit_adds_fifteen_to_each_opponent(engine):
    """000_8342d744d0b6b53c.txt §04 and §FAQ, SCORE-2 add-to-others: all 8 hearts, Q♠ and J♣ make
    a pit: 0 for the taker, 15 to each other seat, 45 on the table; not every trick is needed."""
    game = _play_pit(engine, engine.preset("hartenjagen"))
    assert list(game.hand_scores[-1]) == [0, 15, 15, 15]
    assert sum(game.hand_scores[-1]) == 45
    assert list(game.scores) == [0, 15, 15, 15]
    assert game.phase == "deal"


def test_pit_subtracting_from_the_taker(engine):
    """000_8342d744d0b6b53c.txt §05 (tables that subtract for the pit), SCORE-2
    subtract-from-taker, D-4: the taker −15, the others 0."""
    rs = ruleset(engine, "hartenjagen", moon={"scoring": "subtract-from-taker", "bonus": 15})
    game = _play_pit(engine, rs, scores=[20, 20, 20, 20])
    assert list(game.hand_scores[-1]) == [-15, 0, 0, 0]
    assert list(game.scores) == [5, 20, 20, 20]


def test_hearts_alone_are_not_a_pit(engine):
    """000_8342d744d0b6b53c.txt §04 ("hearts alone are not enough"), SCORE-2: seat 0 takes all 8
    hearts but Q♠ and J♣ go to seat 1: 8 and 7, no pit."""
    fixed = {
        0: ["7C", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        1: ["7H", "AC", "TC", "QC", "KC", "7D", "8D", "9D"],
        2: ["QS", "TD", "JD", "QD", "KD", "AD", "7S", "9S"],
        3: ["8C", "9C", "JC", "8S", "TS", "JS", "KS", "AS"],
    }
    game = start(engine, "hartenjagen", fixed)
    tracker = HandTracker(game)
    tracker.play_all(["7C", "AC", "QS", "JC"])
    assert list(game.points) == [0, 7, 0, 0]
    tracker.play("7H")
    tracker.finish()
    assert set(hearts("7")) <= set(tracker.captured[0])
    assert list(game.hand_scores[-1]) == [8, 7, 0, 0]


def _play_moon(engine, rs, scores=None):
    game = start(engine, rs, MOON, hand_number=3, scores=scores)
    tracker = HandTracker(game)
    assert game.to_move == 1
    tracker.play_all(["2C", "JD", "KC", "3C"])
    assert game.to_move == 3
    tracker.play_all(["2D", "AD", "3D", "4D"])
    assert game.to_move == 0 and game.hearts_broken is False
    tracker.play_all(["4H", "2H", "3H", "QS"])
    tracker.finish()
    assert set(hearts()) | {"QS"} <= set(tracker.captured[0])
    return game, tracker


def test_moon_add_to_others_hearts_computer(engine):
    """001_8139d5a4893f2ae5.txt ¶8, SCORE-2 add-to-others: taking all 26 points records 0 for the
    taker and 26 for each opponent, without a choice."""
    game, _ = _play_moon(engine, engine.preset("hearts-computer"), scores=[10, 20, 30, 40])
    assert game.phase == "deal"
    assert list(game.hand_scores[-1]) == [0, 26, 26, 26]
    assert list(game.scores) == [10, 46, 56, 66]
    assert game.moon_taker is None


def test_moon_subtract_from_taker(engine):
    """SCORE-2 subtract-from-taker, D-4: the taker −26, the others 0; totals may go below zero
    (SCORE-4)."""
    rs = ruleset(engine, "hearts-4", moon={"scoring": "subtract-from-taker", "bonus": 26})
    game, _ = _play_moon(engine, rs)
    assert game.phase == "deal"
    assert list(game.hand_scores[-1]) == [-26, 0, 0, 0]
    assert list(game.scores) == [-26, 0, 0, 0]


def _moon_pending(engine, name, scores=None):
    game, tracker = _play_moon(engine, engine.preset(name), scores=scores)
    assert game.phase == "moon"
    assert game.moon_taker == 0
    assert game.to_move == 0
    assert game.legal_plays() == []
    return game, tracker


def test_moon_taker_choice_is_pending(engine):
    """SCORE-3, D-4, 002_a19656d00d6dcc0e.txt §Pontuação: under taker-choice the game waits in
    phase moon; only the taker may choose (not-moon-taker); anything else is
    moon-choice-pending; the totals are not yet changed."""
    game, _ = _moon_pending(engine, "hearts-4", scores=[1, 2, 3, 4])
    assert list(game.points) == [26, 0, 0, 0]
    assert list(game.scores) == [1, 2, 3, 4]
    assert list(game.hand_scores) == []
    for seat in (1, 2, 3):
        rejected(
            engine,
            game,
            lambda: game.apply({"type": "moon", "seat": seat, "choice": "add-to-others"}),
            "not-moon-taker",
        )
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": 0, "card": "AH"}), "moon-choice-pending")
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": 2, "card": "2C"}), "moon-choice-pending")
    rejected(engine, game, lambda: game.deal(build_deal(game.ruleset.to_json())), "moon-choice-pending")
    rejected(
        engine,
        game,
        lambda: game.apply({"type": "pass", "seat": 1, "cards": ["2C", "3C", "4C"]}),
        "moon-choice-pending",
    )
    rejected(engine, game, lambda: game.apply({"type": "moon", "seat": 0, "choice": "double"}), "invalid-action")


@pytest.mark.parametrize(
    "choice, expected", [("add-to-others", [0, 26, 26, 26]), ("subtract-from-taker", [-26, 0, 0, 0])]
)
def test_moon_taker_choice_scores(engine, choice, expected):
    """002_a19656d00d6dcc0e.txt §Pontuação, 004_6369656a193d5fe2.txt §Pontuação, SCORE-2, SCORE-3:
    the shooter subtracts 26 from its own score or adds 26 to every other player's."""
    game, _ = _moon_pending(engine, "hearts-4", scores=[1, 2, 3, 4])
    game.choose_moon(choice)
    assert list(game.hand_scores[-1]) == expected
    assert list(game.scores) == [a + b for a, b in zip([1, 2, 3, 4], expected)]
    assert game.phase == "deal"
    assert game.moon_taker is None
    assert game.hand_number == 4
    assert game.pass_direction in ("left", None)


@pytest.mark.parametrize(
    "choice, expected", [("add-to-others", [0, 26, 26, 16]), ("subtract-from-taker", [-26, 0, 0, -10])]
)
def test_omnibus_jack_of_diamonds_under_a_moon(engine, choice, expected):
    """D-8, RS-14, SCORE-2, 004_6369656a193d5fe2.txt §Variantes: the Omnibus JD (−10) is not needed
    for the moon and still counts for whoever took it (seat 3 here)."""
    game, tracker = _moon_pending(engine, "omnibus-4")
    assert "JD" in tracker.captured[3]
    assert list(game.points) == [26, 0, 0, -10]
    game.choose_moon(choice)
    assert list(game.hand_scores[-1]) == expected
    data = game.ruleset.to_json()
    assert expected_hand_scores(data, tracker.captured, choice) == (expected, 0)


@pytest.mark.parametrize(
    "choice, expected", [("add-to-others", [-10, 26, 26, 26]), ("subtract-from-taker", [-36, 0, 0, 0])]
)
def test_omnibus_jack_of_diamonds_for_the_taker(engine, choice, expected):
    """D-8, SCORE-2, RS-14: when the moon taker also takes JD it keeps the −10: 0 − 10 with
    add-to-others, −26 − 10 with subtract-from-taker."""
    fixed = {0: ["AC"] + hearts("3"), 1: ["2C", "2H"], 2: ["JD"], 3: ["QS"]}
    game = start(engine, "omnibus-4", fixed, hand_number=3)
    tracker = HandTracker(game)
    tracker.play_all(["2C", "JD", "2S", "AC"])
    assert game.to_move == 0
    assert list(game.points) == [-10, 0, 0, 0]
    tracker.play_all(["3H", "2H", "2D", "QS"])
    assert list(game.points) == [5, 0, 0, 0]
    tracker.finish()
    assert game.phase == "moon" and game.moon_taker == 0
    game.choose_moon(choice)
    assert list(game.hand_scores[-1]) == expected


def test_the_core_serves_the_bounds_of_the_scores():
    """The bounds the vector environment and the OpenSpiel adapter read from the core's plan of
    scoring, computed here by hand from the presets' values (SCORE-1 … SCORE-3, MATCH-2, MATCH-6)."""
    import reversis

    _core = pytest.importorskip("reversis._core")
    # hearts-4: 26 points; taker-choice 26: the taker −26 at worst, every other seat 26 at best.
    bounds = _core.score_bounds(reversis.preset("hearts-4"), 10)
    assert bounds["points"] == (0, 26)
    assert bounds["hand"] == (-26, 26)
    # A moon that subtracts lowers totals without bound; an observed total is below 100.
    assert bounds["live_total"] == (None, 99)
    # Ten hands of −26, and 99 plus one hand of 26.
    assert bounds["total"] == (-260, 125)
    # hartenjagen: 15 points, add-to-others 15: no hand lowers a total.
    bounds = _core.score_bounds(reversis.preset("hartenjagen"), 10)
    assert (bounds["hand"], bounds["live_total"], bounds["total"]) == ((0, 15), (0, 49), (0, 64))
    # Its count-down: the hand that starts it may bring 49 to 64, and count-down hands stop at 0.
    bounds = _core.score_bounds(reversis.preset("hartenjagen-count-down"))
    assert bounds["live_total"] == (0, 64)
    # omnibus-4: the JD's −10 on top of the taker's −26.
    bounds = _core.score_bounds(reversis.preset("omnibus-4"))
    assert (bounds["points"], bounds["hand"]) == ((-10, 26), (-36, 26))
    with pytest.raises(reversis.ReversisError, match="number of hands"):
        _core.score_bounds(reversis.preset("hearts-4"), -1)
