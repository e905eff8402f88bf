"""Passing (PASS-1 … PASS-3, SEAT-1)."""

from __future__ import annotations

import pytest

from helpers import DIRECTION_OFFSET, LEFT_RIGHT_ACROSS_HOLD, build_deal, rejected, sort_cards, start

FOUR_SEAT_PASSING = ["hearts-4", "hearts-computer", "omnibus-4"]
LEFT_RIGHT = ["hearts-3", "hearts-5", "hearts-6", "hearts-7"]


@pytest.mark.parametrize("name", FOUR_SEAT_PASSING)
def test_four_player_cycle(engine, name):
    """002_a19656d00d6dcc0e.txt §Cartões de Passagem, 001_8139d5a4893f2ae5.txt ¶6, PASS-1: hand 1
    left, hand 2 right, hand 3 across, hand 4 no pass, then repeat (hand numbers from 0)."""
    for h in range(9):
        game = start(engine, name, hand_number=h)
        direction = LEFT_RIGHT_ACROSS_HOLD[h % 4]
        assert game.pass_direction == direction
        if direction == "hold":
            assert game.phase == "play"
            assert list(game.awaiting_pass) == []
        else:
            assert game.phase == "pass"
            assert list(game.awaiting_pass) == [0, 1, 2, 3]
            assert game.to_move is None
            assert game.legal_plays() == []


@pytest.mark.parametrize("name", LEFT_RIGHT)
def test_other_player_counts_cycle_left_right(engine, name):
    """002_a19656d00d6dcc0e.txt §Cartões de Passagem (other numbers of players: left, right,
    repeat), PASS-1; the 004 slip is settled in game.md §Slips."""
    players = engine.preset(name).players
    for h in range(6):
        game = start(engine, name, hand_number=h)
        assert game.pass_direction == ["left", "right"][h % 2]
        assert game.phase == "pass"
        assert list(game.awaiting_pass) == list(range(players))


def test_hartenjagen_never_passes(engine):
    """000_8342d744d0b6b53c.txt §02 (no exchange or passing), 000 §FAQ, PASS-1: play starts at
    once and pass_direction is None."""
    for h in range(5):
        game = start(engine, "hartenjagen", hand_number=h)
        assert game.phase == "play"
        assert game.pass_direction is None
        assert list(game.awaiting_pass) == []
        rejected(engine, game, lambda: game.pass_cards(game.hand(0)[:3], 0), "wrong-phase")


CASES = [(name, h) for name in FOUR_SEAT_PASSING for h in (0, 1, 2, 4)] + [
    (name, h) for name in LEFT_RIGHT for h in (0, 1, 2)
]


@pytest.mark.parametrize("name, hand_number", CASES)
def test_exchange_happens_only_when_all_have_passed(engine, name, hand_number):
    """PASS-2, PASS-3, SEAT-1, 002_a19656d00d6dcc0e.txt §Cartões de Passagem, 001 ¶6: passed cards
    leave the passer at once, nobody receives until every seat has passed (in any order), then
    seat s's cards go to s+1 (left), s−1 (right) or s+2 (across)."""
    rs = engine.preset(name)
    players = rs.players
    game = start(engine, rs, hand_number=hand_number)
    offset = DIRECTION_OFFSET[game.pass_direction]
    original = [game.hand(s) for s in range(players)]
    passed: dict[int, list[str]] = {}
    order = list(range(players))[::-1]  # any order among seats
    order = order[1:] + order[:1]
    for seat in order:
        cards = original[seat][1:4] if seat % 2 else original[seat][-3:]
        game.pass_cards(cards, seat)
        passed[seat] = cards
        if len(passed) < players:
            assert game.phase == "pass"
            assert list(game.awaiting_pass) == sorted(set(range(players)) - set(passed))
            for s in range(players):
                expected = [c for c in original[s] if c not in passed.get(s, [])]
                assert game.hand(s) == expected, "nobody receives before all have passed (PASS-3)"
    assert game.phase == "play"
    assert list(game.awaiting_pass) == []
    for receiver in range(players):
        giver = (receiver - offset) % players
        expected = [c for c in original[receiver] if c not in passed[receiver]] + passed[giver]
        assert game.hand(receiver) == sort_cards(expected)
    opening = rs.to_json()["opening_card"]
    assert game.to_move == next(s for s in range(players) if opening in game.hand(s))


def test_pass_errors(engine):
    """PASS-2, ERR-3, ERR-4: wrong-pass-size, duplicate-card, card-not-held, already-passed; each
    rejected pass leaves the game unchanged (ERR-1)."""
    game = start(engine, "hearts-4", hand_number=0)
    hand0 = game.hand(0)
    other = game.hand(1)[0]
    rejected(engine, game, lambda: game.pass_cards(hand0[:2], 0), "wrong-pass-size")
    rejected(engine, game, lambda: game.pass_cards(hand0[:4], 0), "wrong-pass-size")
    rejected(engine, game, lambda: game.pass_cards([], 0), "wrong-pass-size")
    rejected(engine, game, lambda: game.pass_cards([hand0[0], hand0[0], hand0[1]], 0), "duplicate-card")
    rejected(engine, game, lambda: game.pass_cards([hand0[0], hand0[1], other], 0), "card-not-held")
    # ERR-4: size before duplicates before holding.
    rejected(engine, game, lambda: game.pass_cards([other, other], 0), "wrong-pass-size")
    rejected(engine, game, lambda: game.pass_cards([other, other, hand0[0]], 0), "duplicate-card")
    game.pass_cards(hand0[:3], 0)
    rejected(engine, game, lambda: game.pass_cards(hand0[3:6], 0), "already-passed")
    rejected(engine, game, lambda: game.pass_cards(hand0[:3], 0), "already-passed")
    # ERR-4: already-passed precedes the size check.
    rejected(engine, game, lambda: game.pass_cards(hand0[3:5], 0), "already-passed")
    assert list(game.awaiting_pass) == [1, 2, 3]


def test_duplicate_written_in_two_forms(engine):
    """PASS-2, CARD-4: the same card written two ways is still a duplicate-card."""
    game = start(engine, "hearts-4", {0: ["QS", "2C", "3C"]}, hand_number=1)
    rejected(engine, game, lambda: game.pass_cards(["QS", "q♠", "2C"], 0), "duplicate-card")


def test_pass_accepts_aliases(engine):
    """ACT-1, CARD-4: passed cards may be written in any accepted form."""
    game = start(engine, "hearts-4", {0: ["TH", "QS", "2C"]}, hand_number=2)
    game.pass_cards(["10♥", "qs", " 2c "], 0)
    assert not {"TH", "QS", "2C"} & set(game.hand(0))
    assert len(game.hand(0)) == 10


def test_play_during_passing_is_wrong_phase(engine):
    """ERR-3 wrong-phase, ERR-4: a play while passing is wrong-phase, even for the 2C holder, and
    a deal while passing too."""
    rs = engine.preset("hearts-4")
    game = start(engine, rs, hand_number=0)
    holder = next(s for s in range(4) if "2C" in game.hand(s))
    rejected(engine, game, lambda: game.play("2C", seat=holder), "wrong-phase")
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": holder, "card": "2C"}), "wrong-phase")
    rejected(engine, game, lambda: game.deal(build_deal(rs.to_json())), "wrong-phase")
    game.pass_cards(game.hand(holder)[3:6], holder)
    rejected(engine, game, lambda: game.play("2C", seat=holder), "wrong-phase")


def test_pass_on_hold_hand_is_wrong_phase(engine):
    """PASS-1, ERR-3: on the hold hand there is no passing phase; a pass is wrong-phase."""
    game = start(engine, "hearts-4", hand_number=3)
    assert game.phase == "play"
    rejected(engine, game, lambda: game.pass_cards(game.hand(1)[:3], 1), "wrong-phase")


def test_pass_seat_out_of_range_is_invalid_action(engine):
    """ACT-1, ERR-2: a seat outside 0 … players−1 is invalid-action."""
    game = start(engine, "hearts-4", hand_number=0)
    rejected(engine, game, lambda: game.apply({"type": "pass", "seat": 4, "cards": game.hand(0)[:3]}), "invalid-action")
    rejected(engine, game, lambda: game.apply({"type": "pass", "seat": 0}), "invalid-action")
    rejected(engine, game, lambda: game.apply({"type": "shuffle"}), "invalid-action")
