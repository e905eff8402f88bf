"""The facts the engines derive from the rules for the programs that present a game: who passes
to whom (PASS-1, PASS-3), how the match ends and where it stands (MATCH-2, MATCH-3, MATCH-5 to
MATCH-7), and why a card is refused (PLAY-3, PLAY-8). The expected values are worked from the
spec by hand; then both engines, written apart, must agree at every decision of whole matches."""

from __future__ import annotations

import random
from typing import Any

import pytest

import reversis
from reversis import reference

ENGINES = [reversis, reference]
DECK = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]


@pytest.mark.parametrize("engine", ENGINES, ids=["rust", "reference"])
def test_hearts_passes_left_right_across_then_holds(engine: Any) -> None:
    rules = engine.preset("hearts-4")
    plans = [engine.Game(rules, seed=1, hand_number=h).pass_plan for h in range(4)]
    # PASS-1: hand 0 left (seat s to s+1), 1 right, 2 across, 3 hold.
    assert plans[0] == {"direction": "left", "size": 3, "to": [1, 2, 3, 0], "from": [3, 0, 1, 2]}
    assert plans[1] == {"direction": "right", "size": 3, "to": [3, 0, 1, 2], "from": [1, 2, 3, 0]}
    assert plans[2] == {"direction": "across", "size": 3, "to": [2, 3, 0, 1], "from": [2, 3, 0, 1]}
    assert plans[3] is None
    assert engine.Game(engine.preset("hartenjagen"), seed=1).pass_plan is None


@pytest.mark.parametrize("engine", ENGINES, ids=["rust", "reference"])
def test_the_count_down_says_who_reached_the_target_and_when(engine: Any) -> None:
    rules = engine.preset("hartenjagen-count-down")
    target = rules.target
    fresh = engine.Game(rules, seed=2).standing
    assert fresh["ends"] == [
        {
            "kind": "count-down",
            "target": target,
            "count_down_end": "stop-at-zero",
            "counting": False,
            "reached": [],
            "first_hand": None,
        }
    ]
    assert fresh["over"] is False and fresh["winners"] == [] and fresh["lowest"] == [0, 1, 2, 3]
    # MATCH-5: a game that starts past the target starts in its count-down.
    started = engine.Game(rules, seed=2, hand_number=6, scores=[target + 3, 10, target, 4]).standing
    assert started["ends"][0]["counting"] is True
    assert started["ends"][0]["reached"] == [0, 2]
    assert started["ends"][0]["first_hand"] == 6
    assert started["lowest"] == [3]
    # Without the count-down the target alone ends the match (MATCH-2).
    assert engine.Game(engine.preset("hearts-4"), seed=2).standing["ends"] == [{"kind": "target", "target": 100}]


def _play_until_counting(engine: Any, seed: int) -> Any:
    game = engine.Game(engine.preset("hartenjagen-count-down"), seed=seed)
    rng = random.Random(seed)
    while not game.count_down and game.phase != "over":
        if game.phase == "deal":
            game.deal()
        elif game.phase == "play":
            game.play(rng.choice(game.legal_plays()))
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("engine", ENGINES, ids=["rust", "reference"])
def test_the_count_down_starts_after_the_hand_that_reached_the_target(engine: Any) -> None:
    game = _play_until_counting(engine, 5)
    end = game.standing["ends"][0]
    assert end["counting"] is True
    # The hand that reached the target is the last scored; the count-down's first is the next.
    assert end["first_hand"] == len(game.hand_scores) == game.hand_number
    before = [sum(row[s] for row in game.hand_scores[:-1]) for s in range(4)]
    after = game.scores
    assert max(before) < game.ruleset.target
    assert end["reached"] == [s for s in range(4) if after[s] >= game.ruleset.target]


@pytest.mark.parametrize("engine", ENGINES, ids=["rust", "reference"])
def test_a_breach_names_the_rule_that_refused_the_card(engine: Any) -> None:
    # hearts-4 without passing: the 2C leads (PLAY-1).
    rules = engine.preset("hearts-4").replace(passing=None)
    hands = [
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AH"],
        ["AC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "2H", "QS"],
        ["KD", "AD", "QD", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"],
        ["KH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"],
    ]
    game = engine.Game(rules)
    game.deal(hands)
    assert game.breach("2C") is None
    refused = game.breach("3C")
    assert (refused["code"], refused["rule"]) == ("must-lead-opening-card", "PLAY-1")
    with pytest.raises(reversis.ReversisError) as raised:
        game.copy().play("3C")
    assert raised.value.code == refused["code"] and str(raised.value) == refused["message"]
    assert game.breach("AC")["rule"] == "PLAY-3"
    game.play("2C")
    # Seat 1 holds the AC: a diamond breaks PLAY-4.
    assert (game.breach("2D")["code"], game.breach("2D")["rule"]) == ("must-follow-suit", "PLAY-4")
    game.play("AC")
    # Seat 2 has no club: the first-trick ban refuses a heart while it holds the KD (PLAY-5).
    assert rules.first_trick_ban
    assert (game.breach("3H")["code"], game.breach("3H")["rule"]) == ("points-on-first-trick", "PLAY-5")
    game.play("KD")
    game.play("2S")
    # Seat 1 took the trick and leads: no heart while hearts are unbroken and it holds others (PLAY-6).
    assert game.to_move == 1
    assert (game.breach("2H")["code"], game.breach("2H")["rule"]) == ("hearts-not-broken", "PLAY-6")
    assert game.breach("QS") is None
    with pytest.raises(reversis.ReversisError) as raised:
        game.breach("ZZ")
    assert raised.value.code == "invalid-card"


def _snapshot(game: Any) -> tuple[Any, ...]:
    breaches = {card: game.breach(card) for card in DECK}
    # The messages are each engine's own words; the code and the rule are the spec's.
    refusals = {card: b and (b["code"], b["rule"]) for card, b in breaches.items()}
    return game.pass_plan, game.standing, refusals


@pytest.mark.parametrize("name", ["hearts-4", "hartenjagen-count-down", "hearts-3", "omnibus-4"])
def test_both_engines_agree_through_a_match(name: str) -> None:
    if name not in reversis.preset_names():
        pytest.skip(f"no preset {name}")
    games = [engine.Game(engine.preset(name), seed=9) for engine in ENGINES]
    rng = random.Random(name)
    seen = set()
    for _ in range(5000):
        rust, ref = games
        snapshot = _snapshot(rust)
        assert snapshot == _snapshot(ref), f"{name} after {len(rust.actions)} actions"
        seen.add(snapshot[1]["ends"][0].get("counting"))
        if rust.phase == "over":
            break
        if rust.phase == "deal":
            for game in games:
                game.deal()
            continue
        action = rng.choice(rust.legal_actions())
        for game in games:
            game.apply_action(action)
    assert games[0].phase == "over"
    if games[0].ruleset.count_down:
        assert seen == {False, True}
