"""The rule-based player: always legal, and the rules of thumb of 001 ¶9–¶10 on hand-made positions."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

import reversis
from reversis.players import Observation, RandomPlayer, RuleBasedPlayer, act_for


def _observation(
    preset: str,
    hand: list[str],
    *,
    phase: str = "play",
    seat: int = 0,
    trick: list[tuple[int, str]] = (),  # type: ignore[assignment]
    tricks: list[dict[str, Any]] | None = None,
    legal: list[str] | None = None,
    points: list[int] | None = None,
    scores: list[int] | None = None,
    pass_direction: str | None = None,
) -> Observation:
    """An OBS-1 object written by hand: a player sees nothing but this."""
    ruleset = reversis.preset(preset)
    n = ruleset.players
    if tricks is None:
        # One earlier trick of no value, so the position is not the first trick.
        tricks = [
            {
                "leader": 1,
                "cards": [{"seat": (1 + i) % n, "card": c} for i, c in enumerate(["5C", "6C", "7C", "8C"][:n])],
                "winner": 0,
                "points": 0,
            }
        ]
    data = {
        "seat": seat,
        "phase": phase,
        "hand_number": 0,
        "dealer": 0,
        "pass_direction": pass_direction,
        "to_move": seat if phase in ("play", "moon") else None,
        "awaiting_pass": list(range(n)) if phase == "pass" else [],
        "hand": hand,
        "passed": None,
        "received": None,
        "tricks": tricks,
        "trick": [{"seat": s, "card": c} for s, c in trick],
        "hearts_broken": True,
        "voids": [[] for _ in range(n)],
        "points": points or [0] * n,
        "scores": scores or [0] * n,
        "legal": hand if legal is None and phase == "play" else (legal or []),
        "moon_taker": seat if phase == "moon" else None,
    }
    return Observation(ruleset, data)


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize("preset", reversis.preset_names())
def test_every_action_is_legal_in_every_preset(engine: ModuleType, preset: str) -> None:
    ruleset = engine.preset(preset)
    phases = set()
    for seed in range(6):
        game = engine.Game(ruleset, seed=seed, hand_number=seed)
        players = [RuleBasedPlayer() if (seat + seed) % 3 else RandomPlayer(seed) for seat in range(ruleset.players)]
        if seed % 2:
            players = [RuleBasedPlayer(seed=seat) for seat in range(ruleset.players)]
        while game.hand_number == seed and game.phase != "over":
            phases.add(game.phase)
            act_for(game, players)  # apply raises on an illegal action
        assert len(game.hand_scores) == 1
    assert "play" in phases
    if ruleset.passing is not None:
        assert "pass" in phases


def test_moon_phase_is_reached_and_answered(engine: ModuleType) -> None:
    # Seat 0 holds every club: it leads clubs all hand, everyone else must discard on its tricks,
    # so it captures every point card and, under taker-choice, must choose (SCORE-3).
    ruleset = engine.preset("hearts-4")
    rest = [r + s for s in "DHS" for r in "23456789TJQKA"]
    hands = [[r + "C" for r in "23456789TJQKA"], rest[0:13], rest[13:26], rest[26:39]]
    game = engine.Game(ruleset, hand_number=3)  # hold: no passing
    game.deal(hands)
    players = [RuleBasedPlayer(), RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)]
    while game.phase == "play":
        act_for(game, players)
    assert game.phase == "moon"
    action = act_for(game, players)
    assert action["choice"] in ("add-to-others", "subtract-from-taker")


def test_deterministic_without_seed() -> None:
    for seed in range(3):
        games = [reversis.Game(reversis.preset("hearts-computer"), seed=seed) for _ in range(2)]
        for game in games:
            players = [RuleBasedPlayer() for _ in range(4)]
            while game.hand_number == 0:
                act_for(game, players)
        assert games[0].actions == games[1].actions


# --------------------------------------------------------------------------- play


def test_ducks_under_the_winning_card() -> None:
    obs = _observation("hearts-4", ["3C", "2H", "KH"], trick=[(3, "9H")], legal=["2H", "KH"])
    assert RuleBasedPlayer().act(obs) == {"type": "play", "seat": 0, "card": "2H"}


def test_ducks_with_the_highest_card_that_still_ducks() -> None:
    obs = _observation("hearts-4", ["2H", "8H", "KH"], trick=[(2, "9H"), (3, "4H")])
    assert RuleBasedPlayer().act(obs)["card"] == "8H"


def test_last_to_play_takes_a_pointless_trick_with_its_highest_card() -> None:
    obs = _observation("hearts-4", ["2D", "KD", "AD"], trick=[(1, "5D"), (2, "9D"), (3, "3D")])
    assert RuleBasedPlayer().act(obs)["card"] == "AD"


def test_dumps_the_queen_when_void() -> None:
    obs = _observation("hearts-4", ["KC", "AH", "2S", "QS"], trick=[(3, "5D")])
    assert RuleBasedPlayer().act(obs)["card"] == "QS"


def test_dumps_the_dearest_card_in_hartenjagen() -> None:
    # Q♠ is worth 5 and J♣ 2 there: the queen goes first, then J♣ before any heart.
    obs = _observation("hartenjagen", ["JC", "AH", "QS", "8S"], trick=[(3, "9D")], tricks=[])
    assert RuleBasedPlayer().act(obs)["card"] == "QS"
    obs = _observation("hartenjagen", ["JC", "AH", "8S"], trick=[(3, "9D")], tricks=[])
    assert RuleBasedPlayer().act(obs)["card"] == "JC"


def test_keeps_the_omnibus_jack_when_void() -> None:
    obs = _observation("omnibus-4", ["JD", "2S", "3S"], trick=[(3, "5C")])
    assert RuleBasedPlayer().act(obs)["card"] != "JD"


def test_takes_the_omnibus_jack_when_last() -> None:
    obs = _observation("omnibus-4", ["2D", "AD"], trick=[(1, "5D"), (2, "JD"), (3, "3D")])
    assert RuleBasedPlayer().act(obs)["card"] == "AD"


def test_leads_the_highest_sure_loser_and_keeps_the_lowest() -> None:
    # Every diamond still out is higher than 2D and 3D: both lose; 3D goes, 2D stays for later.
    obs = _observation("hearts-4", ["AC", "2D", "3D"], trick=[])
    assert RuleBasedPlayer().act(obs)["card"] == "3D"


def test_does_not_lead_into_its_own_queen() -> None:
    obs = _observation("hearts-4", ["QS", "AS", "9D"], trick=[])
    assert RuleBasedPlayer().act(obs)["card"] == "9D"


def _runner_tricks() -> list[dict[str, Any]]:
    """Seat 2 has won a trick with Q♠ and a heart in it (14 of 26): the only point cards taken so far."""
    return [
        {
            "leader": 2,
            "cards": [
                {"seat": 2, "card": "AD"},
                {"seat": 3, "card": "QS"},
                {"seat": 0, "card": "4D"},
                {"seat": 1, "card": "3H"},
            ],
            "winner": 2,
            "points": 14,
        }
    ]


def test_a_single_early_heart_is_no_moon_threat() -> None:
    early = [
        {
            "leader": 2,
            "cards": [
                {"seat": 2, "card": "AD"},
                {"seat": 3, "card": "2H"},
                {"seat": 0, "card": "4D"},
                {"seat": 1, "card": "3D"},
            ],
            "winner": 2,
            "points": 1,
        }
    ]
    trick = [(1, "4H"), (2, "9H"), (3, "6H")]
    obs = _observation("hearts-computer", ["5C", "3H", "KH"], trick=trick, legal=["3H", "KH"], tricks=early)
    assert RuleBasedPlayer().act(obs)["card"] == "3H"


def test_stops_a_moon_by_taking_a_heart() -> None:
    trick = [(1, "4H"), (2, "9H"), (3, "6H")]
    hand = ["5C", "3H", "KH"]
    normal = _observation("hearts-computer", hand, trick=trick, legal=["3H", "KH"])
    assert RuleBasedPlayer().act(normal)["card"] == "3H"  # nobody is running: duck
    running = _observation("hearts-computer", hand, trick=trick, legal=["3H", "KH"], tricks=_runner_tricks())
    assert RuleBasedPlayer().act(running)["card"] == "KH"


def test_does_not_feed_a_moon_runner() -> None:
    trick = [(2, "KD")]
    obs = _observation("hearts-computer", ["5C", "QH", "9S"], trick=trick, tricks=_runner_tricks())
    assert RuleBasedPlayer().act(obs)["card"] != "QH"
    normal = _observation("hearts-computer", ["5C", "QH", "9S"], trick=trick)
    assert RuleBasedPlayer().act(normal)["card"] == "QH"


# --------------------------------------------------------------------------- passing


def _pass(hand: list[str], preset: str = "hearts-4") -> list[str]:
    action = RuleBasedPlayer().act(_observation(preset, hand, phase="pass", pass_direction="left"))
    assert action["type"] == "pass"
    assert len(action["cards"]) == 3
    assert set(action["cards"]) <= set(hand)
    return list(action["cards"])


@pytest.mark.parametrize("spades", [["QS"], ["4S", "QS"]])
def test_passes_an_unprotected_queen(spades: list[str]) -> None:
    hand = ["2C", "5C", "8C", "TC", "3D", "6D", "9D", "JD", "4H", "7H", "9H"] + spades
    hand += ["KD", "QD"][: 13 - len(hand)]
    assert "QS" in _pass(hand)


def test_keeps_a_queen_protected_by_low_spades() -> None:
    hand = ["2S", "3S", "5S", "7S", "QS", "2C", "5C", "8C", "3D", "6D", "9D", "4H", "7H"]
    assert "QS" not in _pass(hand)


def test_passes_ace_and_king_of_spades_when_short_without_queen() -> None:
    hand = ["KS", "AS", "2C", "5C", "8C", "TC", "3D", "6D", "9D", "JD", "4H", "7H", "9H"]
    assert {"KS", "AS"} <= set(_pass(hand))


def test_makes_a_void() -> None:
    hand = ["2C", "4C", "6C", "8C", "TC", "3D", "5D", "2H", "3H", "4H", "2S", "5S", "7S"]
    passed = _pass(hand)
    assert {"3D", "5D"} <= set(passed)
    assert not [c for c in hand if c[1] == "D" and c not in passed]


# --------------------------------------------------------------------------- moon choice


def _moon(scores: list[int]) -> str:
    obs = _observation("hearts-4", [], phase="moon", points=[26, 0, 0, 0], scores=scores, legal=[])
    action = RuleBasedPlayer().act(obs)
    assert action["type"] == "moon"
    return str(action["choice"])


def test_moon_choice_ends_the_match_when_that_wins_it() -> None:
    # Adding 26 to the others puts them at 106, 96, 116: the match ends with seat 0 lowest.
    assert _moon([60, 80, 70, 90]) == "add-to-others"


def test_moon_choice_avoids_ending_a_lost_match() -> None:
    # Adding would end it at 90 against 86: subtracting keeps seat 0 in the match.
    assert _moon([90, 80, 60, 70]) == "subtract-from-taker"


def test_moon_choice_when_behind_subtracts_and_when_ahead_adds() -> None:
    assert _moon([40, 10, 10, 10]) == "subtract-from-taker"
    assert _moon([0, 30, 30, 30]) == "add-to-others"
