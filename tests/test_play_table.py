"""What ``reversis play`` reads of the game (commands/play/game.py), checked against the engines."""

from __future__ import annotations

from typing import Any

import pytest

import reversis
import reversis.reference
from reversis.commands.play.game import next_seat, pass_partners
from reversis.players import RandomPlayer, act_for, observe

PASSING_PRESETS = ["hearts-3", "hearts-computer", "hearts-5", "hearts-7", "cancellation-6"]


@pytest.mark.parametrize("engine", [reversis, reversis.reference], ids=["rust", "reference"])
@pytest.mark.parametrize("preset", PASSING_PRESETS)
def test_pass_partners_name_the_seats_the_engine_exchanges_with(engine: Any, preset: str) -> None:
    ruleset = engine.preset(preset)
    seats = ruleset.players
    for hand in range(len(ruleset.passing["cycle"])):
        game = engine.Game(ruleset, 11, hand_number=hand)
        if game.phase != "pass":  # a hold hand
            with pytest.raises(ValueError, match="has no pass"):
                pass_partners(game)
            continue
        passed = {}
        for seat in range(seats):
            cards = game.hand(seat)[: ruleset.passing["size"]]
            passed[seat] = sorted(cards)
            game.apply({"type": "pass", "seat": seat, "cards": cards})
        to, giver = pass_partners(game)  # read after the exchange, as the table does
        assert sorted(game.observation(to)["received"]) == passed[0], (hand, to)
        assert sorted(game.observation(0)["received"]) == passed[giver], (hand, giver)
        assert to != 0 and giver != 0


def test_next_seat_asks_the_person_last_in_the_pass_phase_and_else_is_to_act() -> None:
    game = reversis.Game(reversis.preset("hearts-computer"), 3)
    players = [RandomPlayer(seat) for seat in range(game.ruleset.players)]
    asked = []
    while game.phase == "pass":
        seat = next_seat(game)
        assert seat is not None
        asked.append(seat)
        game.apply(players[seat].act(observe(game, seat)))
    assert asked == [1, 2, 3, 0]
    while game.phase != "over":
        if game.phase != "pass":
            assert next_seat(game) == game.to_act
        act_for(game, players)
    assert next_seat(game) is None


@pytest.mark.parametrize("engine", [reversis, reversis.reference], ids=["rust", "reference"])
def test_the_scores_line_says_how_the_match_ends(engine: Any) -> None:
    """MATCH-2, MATCH-5, MATCH-8, MATCH-9, as the scores line of the board words them."""
    from reversis.commands.play.screen import ends_text

    def text(preset: str, **start: Any) -> str:
        game = engine.Game(engine.preset(preset), 5, **start)
        return ends_text(game.standing, game.hand_number)

    assert text("hearts-4") == "(to 100)"
    assert text("black-maria-deals", hand_number=2) == "(deal 3 of 6)"
    assert text("hartenjagen-count-down") == "(to 50, then down to 0)"
    # A total already past the target: the count-down is under way from the first hand (MATCH-5).
    assert text("hartenjagen-count-down", scores=[55, 10, 3, 0]) == "(counting down to 0)"
    below = engine.preset("hartenjagen-count-down").replace(count_down_end="below-zero")
    game = engine.Game(below, 5, scores=[55, 10, 3, 0])
    assert ends_text(game.standing, game.hand_number) == "(counting down past 0)"
    both = engine.preset("hearts-4").replace(deals=3)
    game = engine.Game(both, 5, hand_number=1)
    assert ends_text(game.standing, game.hand_number) == "(to 100 or deal 2 of 3)"
