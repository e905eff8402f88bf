"""Two packs (RS-21, D-15) and Cancellation Hearts (RS-22, PLAY-9, D-16 … D-18), worked by hand.

Every expected value here is worked out from spec/ by hand, never read from an engine.

The hands below use a deck of two packs of kings and aces (RS-4 ``lowest_rank`` ``K``, RS-21
``packs`` 2): 16 cards, 4 seats of 4, so 4 tricks a hand. Hand 0's dealer is seat 0 and there is
no opening card, so seat 1 leads the first trick (PLAY-2); ``hearts_breaking`` ``none`` lets any
card be led (PLAY-6). Card values: KH 1, AH 1, KS 5 (a hand is worth 2 + 2 + 10 = 14).

    seat 0: KH AH AH AS
    seat 1: AC KC AD KS
    seat 2: AC KC KD AS
    seat 3: KH KD AD KS

and the plays, every one forced or legal under PLAY-4 (a seat with no card of the suit led may
play any card: the first-trick ban is off):

    trick 1, seat 1 leads: 1 AC, 2 AC, 3 KH, 0 KH
    trick 2:               1 AD, 2 KD, 3 KD, 0 AH
    trick 3:               1 KC, 2 KC, 3 AD, 0 AH
    trick 4:               1 KS, 2 AS, 3 KS, 0 AS

With cancellation (PLAY-9): trick 1's only clubs are the two AC, which cancel: held over, seat 1
leads again. Trick 2: the two KD cancel, AD (seat 1) is the highest uncancelled diamond: seat 1
wins its own AH (1) and trick 1's two KH (2), 3 points. Trick 3: the two KC cancel: held over,
seat 1 leads again. Trick 4 is the last: both KS and both AS cancel, so ``last_trick`` decides:
``leader`` gives it to seat 1, ``later-highest`` to seat 0, which played the later of the two AS
(seat 2 played the first); either way the winner takes the two KS (10) and the held-over trick
3's AH (1), 11 points.

Without cancellation (PLAY-7, D-15) the first-played of two identical cards ranks higher: trick 1
to seat 1 (its AC came before seat 2's), 2 points; trick 2 to seat 1 (AD), 1; trick 3 to seat 1
(its KC before seat 2's), 1; trick 4 to seat 2 (its AS before seat 0's), 10.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from helpers import expect_error, rejected

HANDS = [
    ["KH", "AH", "AH", "AS"],
    ["AC", "KC", "AD", "KS"],
    ["AC", "KC", "KD", "AS"],
    ["KH", "KD", "AD", "KS"],
]
TRICKS = [
    [(1, "AC"), (2, "AC"), (3, "KH"), (0, "KH")],
    [(1, "AD"), (2, "KD"), (3, "KD"), (0, "AH")],
    [(1, "KC"), (2, "KC"), (3, "AD"), (0, "AH")],
    [(1, "KS"), (2, "AS"), (3, "KS"), (0, "AS")],
]
BASE: dict[str, Any] = {
    "name": "two-packs",
    "players": 4,
    "deck": {"lowest_rank": "K", "removed": [], "packs": 2},
    "passing": None,
    "opening_card": None,
    "first_trick_ban": False,
    "hearts_breaking": "none",
    "card_points": {"KH": 1, "AH": 1, "KS": 5},
    "moon": None,
    "target": 100,
    "cancellation": {"last_trick": "leader"},
}


def _ruleset(engine: Any, *, drop: tuple[str, ...] = (), **changes: Any) -> Any:
    """BASE with some fields changed and those of ``drop`` left out."""
    data = {key: value for key, value in copy.deepcopy(BASE).items() if key not in drop}
    return engine.Ruleset.from_json({**data, **changes})


def _trick_events(game: Any) -> list[dict[str, Any]]:
    return [event for event in game.events if event["type"] == "trick"]


def _play_trick(game: Any, plays: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """Play one trick, checking the seat to move before each card; return the trick event."""
    for seat, card in plays:
        assert game.to_move == seat
        game.play(card, seat=seat)
    return _trick_events(game)


def _trick(leader: int, plays: list[tuple[int, str]], winner: int | None, points: int) -> dict[str, Any]:
    """TRICK-1's shape, written out."""
    return {
        "leader": leader,
        "cards": [{"seat": seat, "card": card} for seat, card in plays],
        "winner": winner,
        "points": points,
    }


# ------------------------------------------------------------------ held-over tricks (PLAY-9)


@pytest.mark.parametrize(
    "last_trick, last_winner, points",
    [("leader", 1, [0, 14, 0, 0]), ("later-highest", 0, [11, 3, 0, 0])],
)
def test_held_over_tricks_and_the_last_trick(engine: Any, last_trick: str, last_winner: int, points: list[int]) -> None:
    """PLAY-9, TRICK-1, SCORE-1, RS-22: held over, captured by the next won trick, and the last
    trick settled by ``last_trick`` with the held-over trick before it."""
    game = engine.Game(_ruleset(engine, cancellation={"last_trick": last_trick}))
    game.deal(HANDS)
    assert game.phase == "play" and game.to_move == 1  # PLAY-2: left of dealer 0
    assert game.hand(0) == ["KH", "AH", "AH", "AS"], "CARD-2: a card held twice is listed twice"

    # Trick 1: both AC cancel, every club is cancelled: held over, no winner, 0 points.
    assert _play_trick(game, TRICKS[0]) == [{"type": "trick", **_trick(1, TRICKS[0], None, 0)}]
    assert game.to_move == 1, "PLAY-9: the seat that led the held-over trick leads the next"
    assert game.points == [0, 0, 0, 0]

    # Trick 2: both KD cancel; AD wins its AH and the held-over KH KH.
    assert _play_trick(game, TRICKS[1]) == [{"type": "trick", **_trick(1, TRICKS[1], 1, 3)}]
    assert game.to_move == 1
    assert game.points == [0, 3, 0, 0]

    # Trick 3: both KC cancel: held over again.
    assert _play_trick(game, TRICKS[2]) == [{"type": "trick", **_trick(1, TRICKS[2], None, 0)}]
    assert game.to_move == 1
    observation = game.observation(2)
    assert [trick["winner"] for trick in observation["tricks"]] == [None, 1, None]
    assert [trick["points"] for trick in observation["tricks"]] == [0, 3, 0]

    # Trick 4, the last: both KS and both AS cancel; last_trick names the winner, who takes the
    # KS KS (10) and the held-over AH (1).
    _play_trick(game, TRICKS[3])
    tricks = _trick_events(game)
    assert tricks == [{"type": "trick", **_trick(1, TRICKS[3], last_winner, 11)}]
    hand = [event for event in game.events if event["type"] == "hand"]
    assert hand == [
        {
            "type": "hand",
            "hand_number": 0,
            "points": points,
            "moon_taker": None,
            "moon_choice": None,
            "scores": points,
        }
    ]
    assert game.scores == points
    last = game.last_hand
    assert [trick["winner"] for trick in last["tricks"]] == [None, 1, None, last_winner]
    # TRICK-1: a seat's points are the sum of points over the tricks it won.
    for seat in range(4):
        assert sum(t["points"] for t in last["tricks"] if t["winner"] == seat) == points[seat]
    assert game.phase == "deal"  # unseeded: the next hand waits for its deal


def test_identical_cards_without_cancellation_the_first_played_wins(engine: Any) -> None:
    """PLAY-7, D-15: with two packs and no cancellation, of two identical cards the one played
    first ranks higher; ``"cancellation": null`` means the same as leaving it out (RS-19)."""
    for ruleset in (_ruleset(engine, cancellation=None), _ruleset(engine, drop=("cancellation",))):
        game = engine.Game(ruleset)
        game.deal(HANDS)
        winners = []
        for plays in TRICKS:
            winners += [event["winner"] for event in _play_trick(game, plays)]
        assert winners == [1, 1, 1, 2]
        assert game.last_hand["points"] == [0, 4, 10, 0]
        assert [t["points"] for t in game.last_hand["tricks"]] == [2, 1, 1, 10]


@pytest.mark.parametrize(
    "last_trick, taker, scores",
    # leader: seat 1 takes AH (trick 2), AH (held-over trick 3) and KS KS: every copy of every
    # point card, a moon: add-to-others 12. later-highest: seat 0 takes KS KS and one AH, seat 1
    # the other AH: one copy is not enough (SCORE-2, D-18), no moon.
    [("leader", 1, [12, 0, 12, 12]), ("later-highest", None, [11, 1, 0, 0])],
)
def test_the_moon_needs_every_copy(engine: Any, last_trick: str, taker: int | None, scores: list[int]) -> None:
    """SCORE-2, D-18: a seat shoots the moon by capturing both copies of every point card, held-over
    tricks included."""
    ruleset = _ruleset(
        engine,
        cancellation={"last_trick": last_trick},
        card_points={"AH": 1, "KS": 5},
        moon={"scoring": "add-to-others", "bonus": 12},
    )
    game = engine.Game(ruleset)
    game.deal(HANDS)
    for plays in TRICKS:
        _play_trick(game, plays)
    assert game.last_hand["moon_taker"] == taker
    assert game.last_hand["scores"] == scores
    assert game.scores == scores


def test_the_first_trick_ban_governs_the_first_trick_only(engine: Any) -> None:
    """PLAY-5, PLAY-9, D-16: a held-over first trick does not make the next trick a first trick.

    seat 0: AS AS KH AH; seat 1: AC KC AD KS; seat 2: AC KC KD KS; seat 3: AD KD KH AH. Seat 1
    leads AC, seat 2 follows AC; seat 3 (no club) may not discard KH or AH while it holds KD and
    AD; seat 0 only AS. Both AC cancel: held over; seat 1 leads KC, and now seat 3 and seat 0
    may discard their hearts.
    """
    game = engine.Game(_ruleset(engine, first_trick_ban=True))
    game.deal(
        [
            ["AS", "AS", "KH", "AH"],
            ["AC", "KC", "AD", "KS"],
            ["AC", "KC", "KD", "KS"],
            ["AD", "KD", "KH", "AH"],
        ]
    )
    game.play("AC", seat=1)
    assert game.legal_plays() == ["KC", "AC"]
    game.play("AC", seat=2)
    assert game.legal_plays() == ["KD", "AD"]
    rejected(engine, game, lambda: game.play("KH", seat=3), "points-on-first-trick")
    game.play("KD", seat=3)
    assert game.legal_plays() == ["AS"]
    game.play("AS", seat=0)
    assert [event["winner"] for event in _trick_events(game)] == [None]
    assert game.to_move == 1
    game.play("KC", seat=1)
    game.play("KC", seat=2)
    assert game.legal_plays() == ["AD", "KH", "AH"]
    game.play("KH", seat=3)
    assert game.legal_plays() == ["KH", "AH", "AS"]


# ------------------------------------------------------------------- deals and passes (D-15)


def test_a_deal_may_not_hold_a_card_more_times_than_the_deck(engine: Any) -> None:
    """DEAL-1: a card more times than the deck holds it is invalid-deal; both copies in one hand
    are fine."""
    game = engine.Game(_ruleset(engine))
    three_kc = copy.deepcopy(HANDS)
    three_kc[3] = ["KC", "KD", "AD", "KS"]  # KC three times, KH once
    rejected(engine, game, lambda: game.deal(three_kc), "invalid-deal")
    game.deal(HANDS)
    assert game.hand(0) == ["KH", "AH", "AH", "AS"]


def test_passing_both_copies(engine: Any) -> None:
    """PASS-2, D-15: a seat holding both copies may pass both; a card named more times than held
    is duplicate-card where held at least once, card-not-held where not held."""
    ruleset = _ruleset(engine, passing={"cycle": ["left"], "size": 2})
    game = engine.Game(ruleset)
    game.deal(HANDS)
    assert game.phase == "pass"
    rejected(engine, game, lambda: game.pass_cards(["AC", "AC"], seat=1), "duplicate-card")
    rejected(engine, game, lambda: game.pass_cards(["KH", "KH"], seat=1), "card-not-held")
    rejected(engine, game, lambda: game.pass_cards(["AC", "KH"], seat=1), "card-not-held")
    game.pass_cards(["AH", "AH"], seat=0)
    assert game.hand(0) == ["KH", "AS"]
    assert game.actions[-1] == {"type": "pass", "seat": 0, "cards": ["AH", "AH"]}
    for seat in (1, 2, 3):
        game.pass_cards(game.hand(seat)[:2], seat=seat)
    assert game.phase == "play"
    assert game.observation(1)["received"] == ["AH", "AH"]  # left of seat 0 is seat 1
    assert game.hand(1).count("AH") == 2


def test_selecting_both_copies(engine: Any) -> None:
    """ACT-2, ACT-3: a card may be selected as many times as it is held; its id 52 + c stays
    legal while it is held more times than selected."""
    ruleset = _ruleset(engine, passing={"cycle": ["left"], "size": 3})
    game = engine.Game(ruleset)
    game.deal(HANDS)
    ah, kh, a_s = 52 + 38, 52 + 37, 52 + 51  # AH is card 38, KH 37, AS 51 (CARD-2)
    assert game.legal_actions(0) == [kh, ah, a_s]
    game.apply_action(ah, 0)
    assert game.legal_actions(0) == [kh, ah, a_s]
    game.apply_action(ah, 0)
    assert game.selected(0) == ["AH", "AH"]
    assert game.legal_actions(0) == [kh, a_s]
    rejected(engine, game, lambda: game.apply_action(ah, 0), "duplicate-card")
    rejected(engine, game, lambda: game.apply_action(52 + 12, 0), "card-not-held")  # AC
    game.apply_action(a_s, 0)
    assert game.actions[-1] == {"type": "pass", "seat": 0, "cards": ["AH", "AH", "AS"]}
    other = engine.Game(ruleset)
    other.deal(HANDS)
    # Three copies named, two held: named more times than held, and held at least once.
    rejected(engine, other, lambda: other.pass_cards(["AH", "AH", "AH"], seat=0), "duplicate-card")


# ------------------------------------------------------------------------ rulesets (RS-13)


def _preset(engine: Any, name: str, **changes: Any) -> dict[str, Any]:
    data = engine.preset(name).to_json()
    data.update(changes)
    return data


def test_invalid_two_pack_rulesets(engine: Any) -> None:
    """RS-3, RS-13 items 1, 3, 7, RS-21, RS-22: each ruleset below breaks one rule only, and is
    invalid-ruleset with a message naming the field."""
    cases = {
        # RS-13 item 7: one or two packs.
        "packs": _preset(engine, "cancellation-8", deck={"lowest_rank": "2", "removed": [], "packs": 3}),
        # RS-13 item 7: cancellation only with two packs (here one, packs left out).
        "cancellation": _preset(
            engine, "hearts-4", cancellation={"last_trick": "leader"}, deck={"lowest_rank": "2", "removed": []}
        ),
        # RS-13 item 3: the opening card has exactly one copy left (104 cards, 8 × 13).
        "opening_card": _preset(engine, "cancellation-8", opening_card="2C"),
        # RS-13 item 1: 2C three times with two packs (96 cards left, 8 × 12).
        "removed": _preset(
            engine,
            "cancellation-8",
            deck={"lowest_rank": "2", "removed": ["2C", "2C", "2C", "3C", "3C", "4C", "4C", "5C"], "packs": 2},
        ),
        # RS-3: 3 to 10 players (99 cards, 11 × 9).
        "players": _preset(
            engine,
            "cancellation-8",
            players=11,
            deck={"lowest_rank": "2", "removed": ["2C", "2D", "2H", "2S", "3C"], "packs": 2},
        ),
        # RS-22: last_trick is leader or later-highest.
        "last_trick": _preset(engine, "cancellation-8", cancellation={"last_trick": "first"}),
        # RS-22: exactly the key last_trick.
        "cancellation.": _preset(engine, "cancellation-8", cancellation={"last_trick": "leader", "x": 1}),
    }
    for field, data in cases.items():
        error = expect_error(engine, lambda data=data: engine.Ruleset.from_json(data), "invalid-ruleset")
        assert field.rstrip(".") in str(error), (field, str(error))


def test_valid_two_pack_rulesets_and_their_canonical_object(engine: Any) -> None:
    """RS-16, RS-19, RS-21, RS-22: ``packs`` written only where 2, after removed sorted with its
    repeats adjacent; ``cancellation`` only where set, ``null`` accepted as absent; 10 players."""
    # cancellation: null is accepted and means absent.
    data = _preset(engine, "cancellation-8", cancellation=None)
    ruleset = engine.Ruleset.from_json(data)
    assert "cancellation" not in ruleset.to_json()
    assert ruleset.cancellation is None
    without = {key: value for key, value in data.items() if key != "cancellation"}
    assert ruleset == engine.Ruleset.from_json(without)
    # Removed entries sorted (CARD-2), repeats adjacent; 96 cards, 8 × 12.
    removed = ["3D", "3c", "2D", "2C", "3D", "3C", "2C", "2D"]
    ruleset = engine.Ruleset.from_json(
        _preset(engine, "cancellation-8", deck={"lowest_rank": "2", "removed": removed, "packs": 2})
    )
    assert ruleset.to_json()["deck"] == {
        "lowest_rank": "2",
        "removed": ["2C", "2C", "3C", "3C", "2D", "2D", "3D", "3D"],
        "packs": 2,
    }
    assert ruleset.hand_size == 12
    assert ruleset.deck[:4] == ["4C", "4C", "5C", "5C"]
    # packs 1 written out is the default, and leaves the canonical object.
    one = engine.Ruleset.from_json(_preset(engine, "hearts-4", deck={"lowest_rank": "2", "removed": [], "packs": 1}))
    assert one == engine.preset("hearts-4") and "packs" not in one.to_json()["deck"]
    # later-highest, and the presets' field.
    later = engine.Ruleset.from_json(_preset(engine, "cancellation-10", cancellation={"last_trick": "later-highest"}))
    assert later.to_json()["cancellation"] == {"last_trick": "later-highest"}
    assert later.players == 10 and later.hand_size == 10
    assert engine.preset("cancellation-6").cancellation == {"last_trick": "leader"}
