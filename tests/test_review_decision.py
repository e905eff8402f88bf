"""The review of a decision (``reversis.players.search.evaluate_decision``, ``_core.evaluate_decision``):
the search player's choice beside each candidate's expected points, from the observation alone."""

from __future__ import annotations

import random

import pytest

import reversis
from reversis.players import RuleBasedPlayer, SearchPlayer, act_for, observe
from reversis.players.search import evaluate_decision


def queen_led() -> reversis.Game:
    """hearts-4, hand 3 (no pass): seat 2 takes the first trick with A♣ and leads Q♠, seat 3
    follows 2♠; seat 0 holds A♠ and 3♠, and the ace takes the queen's 13 points."""
    game = reversis.Game(reversis.preset("hearts-4"), hand_number=3)
    game.deal(
        [
            ["3C", "AS", "3S", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"],
            ["2C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "QD", "KD", "AD"],
            ["AC", "QS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"],
            ["4C", "2S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "KH", "AH"],
        ]
    )
    for card in ("2C", "AC", "4C", "3C", "QS", "2S"):
        game.play(card)
    assert game.to_move == 0
    return game


def test_the_card_that_takes_the_queen_is_estimated_at_its_points() -> None:
    review = evaluate_decision(observe(queen_led(), 0), playouts=400, seed=7)
    assert review["choice"] == {"type": "play", "seat": 0, "card": "3S"}
    points = {e["action"]["card"]: e["points"] for e in review["estimates"]}
    assert sorted(points) == ["3S", "AS"]
    assert points["AS"] >= 13
    assert points["3S"] + 8 < points["AS"]
    assert review["layouts"] == 200


def test_the_choice_is_the_search_players() -> None:
    """A search player whose generator draws seed ``s`` plays the review's choice for seed ``s``."""
    game = reversis.Game(reversis.preset("hearts-computer"), 4, hand_number=1)
    rules = [RuleBasedPlayer(s) for s in range(4)]
    reviewed = 0
    while game.hand_number == 1 and game.phase != "over":
        observation = observe(game, game.to_act)
        if game.to_act == 0 and not (observation.phase == "play" and len(observation.legal) == 1):
            player = SearchPlayer(playouts=60, seed=reviewed)
            # The player's first decision seed, drawn as it draws it.
            seed = random.Random(reviewed).getrandbits(64)
            review = evaluate_decision(observation, playouts=60, seed=seed)
            assert review["choice"] == player.act(observation)
            reviewed += 1
        act_for(game, rules)
    assert reviewed > 5


def test_a_reviewed_action_is_the_one_the_player_would_play() -> None:
    """Two search players of one seed, one reviewing every other decision, play one hand alike."""
    game = reversis.Game(reversis.preset("hearts-computer"), 6, hand_number=0)
    plain, reviewing = SearchPlayer(playouts=40, seed=3), SearchPlayer(playouts=40, seed=3)
    rules = [RuleBasedPlayer(s) for s in range(4)]
    reviews = 0
    while game.hand_number == 0 and game.phase != "over":
        if game.to_act != 0:
            act_for(game, rules)
            continue
        observation = observe(game, 0)
        expected = plain.act(observation)
        if reviews % 2 == 0:
            action, review = reviewing.act_reviewed(observation)
            if review is not None:
                assert review["choice"] == action
                assert action in [e["action"] for e in review["estimates"]]
            else:
                assert observation.phase == "play" and observation.legal == [action["card"]]
        else:
            action = reviewing.act(observation)
        reviews += 1
        assert action == expected
        game.apply(action)
    assert reviews >= 13


@pytest.mark.parametrize(
    "player",
    [
        SearchPlayer(time_ms=10),
        SearchPlayer(objective="match"),
        SearchPlayer(shoot=False),
        SearchPlayer(rollouts="learned"),
        SearchPlayer(leaves="learned"),
        SearchPlayer(defend=True),
    ],
)
def test_only_a_player_the_review_reproduces_reviews(player: SearchPlayer) -> None:
    with pytest.raises(ValueError, match="act_reviewed"):
        player.act_reviewed(observe(queen_led(), 0))


def test_a_pass_is_compared_with_the_searchs() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 9)
    observation = observe(game, 0)
    mine = {"type": "pass", "seat": 0, "cards": observation.hand[:3]}
    review = evaluate_decision(observation, playouts=100, seed=4, action=mine)
    assert review["estimates"][0]["action"] == review["choice"]
    assert sorted(review["estimates"][1]["action"]["cards"]) == sorted(mine["cards"])
    with pytest.raises(reversis.InvalidInputError) as error:
        short = {"type": "pass", "seat": 0, "cards": mine["cards"][:2]}
        evaluate_decision(observation, playouts=100, seed=4, action=short)
    assert error.value.code == "invalid-action"


def test_a_bad_observation_is_refused() -> None:
    game = queen_led()
    data = dict(game.observation(0))
    del data["voids"]
    with pytest.raises(reversis.InvalidInputError, match="voids") as error:
        evaluate_decision(reversis.players.Observation(game.ruleset, data), playouts=10)
    assert error.value.code == "invalid-action"
    with pytest.raises(reversis.InvalidInputError):
        evaluate_decision(observe(game, 1), playouts=10)
    with pytest.raises(reversis.InvalidInputError) as error:
        evaluate_decision(observe(game, 0), playouts=0)
    assert error.value.code == "invalid-setup"
