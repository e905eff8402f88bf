"""The match: totals, the target, winners, match-over, dealer rotation (SCORE-4, MATCH-*)."""

from __future__ import annotations

import random

import pytest

from helpers import (
    BREAKING,
    DIRECTION_OFFSET,
    MOON,
    PIT,
    HandTracker,
    build_deal,
    expected_hand_scores,
    rejected,
    seeded_deals,
    sort_cards,
    start,
)


def _moon_hand(engine, scores):
    """hearts-computer hand 3: seat 0 shoots the moon, so the hand adds [0, 26, 26, 26]."""
    game = start(engine, "hearts-computer", MOON, hand_number=3, scores=scores)
    tracker = HandTracker(game)
    tracker.play_all(["2C", "JD", "KC", "3C", "2D", "AD", "3D", "4D", "4H", "2H", "3H", "QS"])
    tracker.finish()
    assert list(game.hand_scores[-1]) == [0, 26, 26, 26]
    return game


def _assert_over_and_frozen(engine, game):
    assert game.phase == "over"
    assert game.to_move is None
    assert game.legal_plays() == []
    rs = game.ruleset
    rejected(engine, game, lambda: game.deal(build_deal(rs.to_json())), "match-over")
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": 0, "card": "2C"}), "match-over")
    rejected(engine, game, lambda: game.apply({"type": "pass", "seat": 0, "cards": ["2C", "3C", "4C"]}), "match-over")
    rejected(engine, game, lambda: game.apply({"type": "moon", "seat": 0, "choice": "add-to-others"}), "match-over")


def test_reaching_the_target_exactly_ends_the_match(engine):
    """MATCH-2, MATCH-3, D-5, 001_8139d5a4893f2ae5.txt ¶8 (when any total reaches 100 the match
    ends; the lowest total wins): 74 + 26 = 100 ends it; seat 0 with 10 wins."""
    game = _moon_hand(engine, [10, 74, 20, 30])
    assert list(game.scores) == [10, 100, 46, 56]
    assert list(game.winners) == [0]
    _assert_over_and_frozen(engine, game)


def test_below_the_target_the_match_goes_on(engine):
    """MATCH-2: 73 + 26 = 99 does not reach 100: the next hand begins (next hand number, next
    dealer), no winners yet."""
    game = _moon_hand(engine, [10, 73, 20, 30])
    assert list(game.scores) == [10, 99, 46, 56]
    assert game.phase == "deal"
    assert list(game.winners) == []
    assert game.hand_number == 4
    assert game.dealer == 0
    game.deal(build_deal(game.ruleset.to_json()))
    assert game.phase == "pass" and game.pass_direction == "left"


def test_tied_lowest_totals_share_the_win(engine):
    """MATCH-3, 001_8139d5a4893f2ae5.txt ¶8, 000_8342d744d0b6b53c.txt §05 (ties share): passing
    the target (106) ends the match; seats 0 and 2, both on 26, win."""
    game = _moon_hand(engine, [26, 80, 0, 50])
    assert list(game.scores) == [26, 106, 26, 76]
    assert list(game.winners) == [0, 2]
    _assert_over_and_frozen(engine, game)


def test_hartenjagen_ends_at_fifty(engine):
    """000_8342d744d0b6b53c.txt §05, RS-11: when someone reaches or passes 50 the match ends after
    that hand; lowest total wins (here after a pit: 35 + 15 = 50)."""
    game = start(engine, "hartenjagen", PIT, scores=[40, 35, 20, 30])
    tracker = HandTracker(game)
    tracker.play_all(["7C", "AC", "9C", "8C", "7H", "QS", "JC", "8H"])
    tracker.finish()
    assert list(game.hand_scores[-1]) == [0, 15, 15, 15]
    assert list(game.scores) == [40, 50, 35, 45]
    assert list(game.winners) == [2]
    _assert_over_and_frozen(engine, game)


def test_the_hand_is_completed_before_the_match_ends(engine):
    """MATCH-2, SCORE-4, 001_8139d5a4893f2ae5.txt ¶8 (the hand is always completed first): seat 0
    on 95 takes Q♠ mid-hand; play goes on and totals change only when the hand is scored."""
    game = start(engine, "hearts-computer", BREAKING, hand_number=3, scores=[95, 0, 0, 0])
    tracker = HandTracker(game)
    tracker.play_all(["2C", "3C", "4C", "5C", "2S", "AS", "QS", "3S"])
    assert list(game.points) == [13, 0, 0, 0]
    assert list(game.scores) == [95, 0, 0, 0]
    assert game.phase == "play"
    tracker.finish()
    expected, _ = expected_hand_scores(game.ruleset.to_json(), tracker.captured)
    assert list(game.scores) == [95 + expected[0]] + expected[1:]
    assert game.phase == "over"
    low = min(game.scores)
    assert list(game.winners) == [s for s in range(4) if game.scores[s] == low]


def _drive_match(engine, name, seed, hand_number=0, max_hands=80):
    """Play a seeded match with random legal moves, checking each hand independently."""
    rs = engine.preset(name)
    data = rs.to_json()
    players = data["players"]
    passing = data["passing"]
    target = data["target"]
    rng = random.Random(f"{name}/{seed}")
    deals = seeded_deals(data, seed, deals=max_hands, hand_number=hand_number)
    game = engine.Game(rs, seed, hand_number=hand_number)
    totals = [0] * players
    for k in range(max_hands):
        h = hand_number + k
        assert game.hand_number == h
        assert game.dealer == h % players, "DEAL-2"
        assert [game.hand(s) for s in range(players)] == deals[k], "SEED-5: hand k is the k-th shuffle"
        direction = passing["cycle"][h % len(passing["cycle"])] if passing else None
        assert game.pass_direction == direction, "PASS-1"
        if direction in DIRECTION_OFFSET:
            assert game.phase == "pass"
            before = [game.hand(s) for s in range(players)]
            passed = {}
            for seat in rng.sample(range(players), players):
                passed[seat] = sorted(rng.sample(before[seat], passing["size"]))
                game.pass_cards(passed[seat], seat)
            off = DIRECTION_OFFSET[direction]
            for r in range(players):
                kept = [c for c in before[r] if c not in passed[r]]
                assert game.hand(r) == sort_cards(kept + passed[(r - off) % players]), "PASS-3"
        assert game.phase == "play"
        tracker = HandTracker(game)
        tracker.finish(lambda legal: rng.choice(legal))
        choice = None
        if game.phase == "moon":
            choice = ["add-to-others", "subtract-from-taker"][k % 2]
            taker = game.moon_taker
            game.choose_moon(choice)
        expected, exp_taker = expected_hand_scores(data, tracker.captured, choice)
        if choice is not None:
            assert taker == exp_taker
        assert len(game.hand_scores) == k + 1
        assert list(game.hand_scores[-1]) == expected, f"hand {h}"
        totals = [a + b for a, b in zip(totals, expected)]
        assert list(game.scores) == totals, "SCORE-4"
        if max(totals) >= target:
            assert game.phase == "over", "MATCH-2"
            low = min(totals)
            assert list(game.winners) == [s for s in range(players) if totals[s] == low], "MATCH-3"
            rejected(engine, game, lambda: game.deal(), "match-over")
            return k + 1
        assert game.phase != "over"
        assert list(game.winners) == []
    pytest.fail("the match did not end")


@pytest.mark.parametrize(
    "name, seed, hand_number",
    [
        ("hartenjagen", 1, 0),
        ("hartenjagen", 2024, 2),
        ("hearts-computer", 7, 0),
        ("hearts-4", 11, 1),
        ("omnibus-4", 3, 0),
        ("hearts-3", 5, 0),
        ("hearts-5", 9, 3),
        ("hearts-6", 13, 0),
        ("hearts-7", 17, 0),
    ],
)
def test_seeded_match_end_to_end(engine, name, seed, hand_number):
    """DEAL-2, DEAL-3, SEED-5, PASS-1, PASS-3, PLAY-7, SCORE-1 … SCORE-4, MATCH-2, MATCH-3, D-5: a
    whole seeded match played with random legal cards; every hand is the next shuffle of the seed,
    the dealer is h mod n, every hand's scores match an independent count of the captured cards,
    and the match ends after the first hand that reaches the target, lowest totals winning."""
    hands = _drive_match(engine, name, seed, hand_number)
    assert hands >= 1
