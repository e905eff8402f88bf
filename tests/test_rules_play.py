"""Play: following suit, the first trick, breaking hearts, winning tricks (PLAY-*)."""

from __future__ import annotations

import pytest

from helpers import BREAKING, HandTracker, completed_tricks, hearts, rejected, sort_cards, start


def _breaking_game(engine, name):
    game = start(engine, name, BREAKING, hand_number=3)
    assert game.hand(3) == sort_cards(["5C", "2S", "3H", "AH", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS"])
    return game


def test_follow_suit(engine):
    """PLAY-4, 002_a19656d00d6dcc0e.txt §Truques, 001_8139d5a4893f2ae5.txt ¶7: a seat holding the
    suit led must follow (must-follow-suit); even a point card off suit reports must-follow-suit
    first (PLAY-8); only the seat to move may play (wrong-seat)."""
    game = _breaking_game(engine, "hearts-4")
    assert game.to_move == 0
    game.play("2C")
    assert game.to_move == 1
    assert game.legal_plays() == ["3C"]
    rejected(engine, game, lambda: game.play("3D"), "must-follow-suit")
    rejected(engine, game, lambda: game.play("QS"), "must-follow-suit")
    rejected(engine, game, lambda: game.play("AH"), "card-not-held")
    rejected(engine, game, lambda: game.play("4C", seat=2), "wrong-seat")
    rejected(engine, game, lambda: game.play("AH", seat=2), "wrong-seat")
    rejected(engine, game, lambda: game.apply({"type": "play", "seat": 0, "card": "6C"}), "wrong-seat")
    game.play("3C")
    game.play("4C")
    game.play("5C")
    assert completed_tricks(game) == 1
    assert list(game.trick) == []
    assert game.to_move == 3, "the highest card of the suit led wins and leads next (PLAY-7)"


@pytest.mark.parametrize("name, breaks", [("hearts-4", True), ("omnibus-4", True), ("hearts-computer", False)])
def test_queen_of_spades_and_breaking(engine, name, breaks):
    """PLAY-6, RS-8: Q♠ breaks hearts under hearts-4 (002_a19656d00d6dcc0e.txt §Truques,
    004_6369656a193d5fe2.txt §Truques) but not under hearts-computer (001_8139d5a4893f2ae5.txt
    ¶11); a heart led before hearts are broken, by a seat holding other cards, is
    hearts-not-broken."""
    tracker = HandTracker(_breaking_game(engine, name))
    game = tracker.game
    tracker.play_all(["2C", "3C", "4C", "5C"])
    assert game.to_move == 3
    assert game.hearts_broken is False
    assert game.legal_plays() == sort_cards(["2S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS"])
    rejected(engine, game, lambda: game.play("3H"), "hearts-not-broken")
    rejected(engine, game, lambda: game.play("AH"), "hearts-not-broken")
    tracker.play_all(["2S", "AS", "QS", "3S"])
    assert game.to_move == 0
    assert list(game.points) == [13, 0, 0, 0]
    assert game.hearts_broken is breaks
    hand0 = sort_cards(["2H", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "2D"])
    assert game.hand(0) == hand0
    if breaks:
        assert game.legal_plays() == hand0
        game.play("2H")
        assert [(x["seat"], x["card"]) for x in game.trick] == [(0, "2H")]
    else:
        assert game.legal_plays() == [c for c in hand0 if c != "2H"]
        rejected(engine, game, lambda: game.play("2H"), "hearts-not-broken")
        # an actual heart breaks them: seat 3, void in diamonds, discards AH.
        tracker.play_all(["2D", "3D", "AD", "AH"])
        assert game.hearts_broken is True
        assert game.to_move == 2
        assert list(game.points) == [13, 0, 1, 0]


@pytest.mark.parametrize("name", ["hearts-4", "hearts-computer"])
def test_queen_of_spades_may_be_led_before_breaking(engine, name):
    """PLAY-6, 002_a19656d00d6dcc0e.txt §Truques ("Black Maria may be led at any time")."""
    fixed = {0: ["2C", "2H"], 1: ["3C"], 2: ["4C"], 3: ["5C", "QS", "3H"]}
    game = start(engine, name, fixed, hand_number=3)
    for card in ["2C", "3C", "4C", "5C"]:
        game.play(card)
    assert game.to_move == 3 and game.hearts_broken is False
    assert "QS" in game.legal_plays() and "3H" not in game.legal_plays()
    game.play("QS")
    assert game.hearts_broken is (name == "hearts-4")


@pytest.mark.parametrize("name", ["hearts-4", "hearts-computer"])
def test_only_hearts_may_lead_a_heart_before_breaking(engine, name):
    """PLAY-6, D-2, 001_8139d5a4893f2ae5.txt ¶7 and ¶11: before breaking a heart may be led if the
    leader holds nothing but hearts."""
    fixed = {0: ["3C", "AD"] + hearts("4"), 1: ["2C", "2H"], 2: ["3H", "JD"], 3: ["KC", "QS", "2D"]}
    game = start(engine, name, fixed, hand_number=3)
    for card in ["2C", "JD", "KC", "3C", "2D", "AD", "3D", "4D"]:
        game.play(card)
    assert game.to_move == 0
    assert game.hearts_broken is False
    assert game.hand(0) == hearts("4")
    assert game.legal_plays() == hearts("4")
    game.play("4H")
    assert game.to_move == 1


# Seat 1 has no clubs and holds 2D 3D 4D besides hearts and QS; seat 0 holds every club.
BAN = {1: ["2D", "3D", "4D", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "QS"]}


@pytest.mark.parametrize("name", ["hearts-4", "hearts-computer", "omnibus-4"])
def test_first_trick_ban(engine, name):
    """PLAY-5, RS-7, 002_a19656d00d6dcc0e.txt §Truques, 004_6369656a193d5fe2.txt §Truques,
    001_8139d5a4893f2ae5.txt ¶7: on the first trick a seat without clubs may not discard a heart
    or Q♠ while it holds a non-point card (points-on-first-trick)."""
    game = start(engine, name, BAN, hand_number=3)
    assert game.to_move == 0
    game.play("2C")
    assert game.legal_plays() == ["2D", "3D", "4D"]
    rejected(engine, game, lambda: game.play("2H"), "points-on-first-trick")
    rejected(engine, game, lambda: game.play("QS"), "points-on-first-trick")
    game.play("4D")
    assert game.hearts_broken is False


def test_first_trick_ban_three_players(engine):
    """PLAY-5, 002_a19656d00d6dcc0e.txt §Truques: the ban holds for 3 players too, after the pass."""
    game = start(engine, "hearts-3", hand_number=0)
    # deal by the helper: seat 0 holds 2C…AC and 3D…6D, seat 1 7D…AD and 2H…TH, seat 2 the rest.
    assert game.hand(1)[0] == "7D"
    game.pass_cards(["QC", "KC", "AC"], 0)  # to seat 1
    game.pass_cards(["7D", "8D", "9D"], 1)  # to seat 2
    game.pass_cards(game.hand(2)[-3:], 2)  # to seat 0
    assert game.to_move == 0
    game.play("2C")
    hand1 = game.hand(1)
    assert [c for c in hand1 if c[1] == "C"] == ["QC", "KC", "AC"]
    game.play("QC")
    hand2 = game.hand(2)
    assert not [c for c in hand2 if c[1] == "C"]
    allowed = [c for c in hand2 if c[1] != "H" and c != "QS"]
    assert allowed and len(allowed) < len(hand2)
    assert game.legal_plays() == allowed
    heart = next(c for c in hand2 if c[1] == "H" or c == "QS")
    rejected(engine, game, lambda: game.play(heart), "points-on-first-trick")


@pytest.mark.parametrize("name", ["hearts-4", "hearts-computer", "omnibus-4"])
def test_first_trick_exemption_for_all_point_hands(engine, name):
    """PLAY-5, 001_8139d5a4893f2ae5.txt ¶7 (a hand made entirely of point cards is exempt), D-2
    (the fallback when no permitted card exists): every card is legal; a heart played on the
    first trick breaks hearts (PLAY-6)."""
    fixed = {1: hearts("3") + ["QS"], 3: ["2H"]}
    game = start(engine, name, fixed, hand_number=3)
    game.play("2C")
    assert game.legal_plays() == sort_cards(hearts("3") + ["QS"])
    game.play("3H")
    assert game.hearts_broken is True
    assert game.legal_plays() == game.hand(2), "seat 2 holds only diamonds"
    game.play("2D")
    assert "2H" in game.hand(3)
    assert "2H" not in game.legal_plays()
    rejected(engine, game, lambda: game.play("2H"), "points-on-first-trick")
    game.play("2S")
    assert game.to_move == 0, "2C wins: no other club was played (PLAY-7)"
    assert list(game.points) == [1, 0, 0, 0]


@pytest.mark.parametrize("name", ["hearts-4", "omnibus-4"])
def test_jack_of_diamonds_is_not_a_point_card_for_the_ban(engine, name):
    """RS-14, D-8: the Omnibus JD (−10) is not a point card: a void hand of hearts, Q♠ and JD must
    discard JD on the first trick."""
    fixed = {1: hearts("2")[:11] + ["QS", "JD"]}
    game = start(engine, name, fixed, hand_number=3)
    game.play("2C")
    assert game.legal_plays() == ["JD"]
    rejected(engine, game, lambda: game.play("QS"), "points-on-first-trick")
    rejected(engine, game, lambda: game.play("QH"), "points-on-first-trick")
    game.play("JD")


def test_hartenjagen_has_no_first_trick_ban(engine):
    """000_8342d744d0b6b53c.txt §03 (no special ban on discarding penalties on the first trick),
    RS-7: a void seat may discard Q♠ or a heart on the first trick; Q♠ is no trump (§06)."""
    fixed = {0: ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"], 1: ["7H", "8H", "9H", "QS", "7D", "8D", "9D", "TD"]}
    game = start(engine, "hartenjagen", fixed)
    assert game.hearts_broken is True, "PLAY-6: with hearts_breaking none hearts are always broken"
    game.play("7C")
    assert game.legal_plays() == game.hand(1)
    game.play("QS")
    assert game.legal_plays() == game.hand(2)
    game.play("KH")
    game.play("AH")
    assert game.to_move == 0, "7C, the only club, wins (PLAY-7)"
    assert list(game.points) == [7, 0, 0, 0]


def test_hartenjagen_needs_no_breaking(engine):
    """000_8342d744d0b6b53c.txt §03 and §FAQ, RS-8 none: after the forced lead any suit may be
    led, hearts included, before any heart or Q♠ has been played."""
    fixed = {0: ["7C"], 1: ["8C"], 2: ["9C"], 3: ["TC", "7H", "AS"]}
    game = start(engine, "hartenjagen", fixed)
    for card in ["7C", "8C", "9C", "TC"]:
        game.play(card)
    assert game.to_move == 3
    assert game.hand(3) == sort_cards(["7H", "AS", "9S", "TS", "JS", "QS", "KS"])
    assert game.legal_plays() == game.hand(3)
    game.play("7H")
    assert [(x["seat"], x["card"]) for x in game.trick] == [(3, "7H")]


def test_lowest_club_wins_when_others_discard(engine):
    """PLAY-7, CARD-5, 002_a19656d00d6dcc0e.txt §Truques: only the suit led wins: 2C beats the
    discarded AD and AS."""
    game = start(engine, "hearts-4", BAN, hand_number=3)
    game.play("2C")
    game.play("2D")
    assert game.legal_plays() == sort_cards(["5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"])
    rejected(engine, game, lambda: game.play("JH"), "points-on-first-trick")
    game.play("AD")
    assert "AH" in game.hand(3)
    rejected(engine, game, lambda: game.play("AH"), "points-on-first-trick")
    game.play("AS")
    assert game.to_move == 0
    assert completed_tricks(game) == 1
    assert list(game.points) == [0, 0, 0, 0]
