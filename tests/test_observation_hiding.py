"""OBS-2: a seat's observation (and its OBS-3 encoding) never depends on cards hidden from it.

Two deals differ only by a swap of two cards of one suit between two opponents of the observer.
Both games are driven by the same actions, chosen so that neither swapped card is played or
passed while another card will do; until one of them must be shown, the observer's
observations and encodings are equal at every step, on both engines.
"""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any

import pytest

from reversis.encoding import ENCODING_LENGTH, encode_observation
from reversis.players import Observation

OBS1_KEYS = {
    "seat",
    "phase",
    "hand_number",
    "dealer",
    "pass_direction",
    "to_move",
    "awaiting_pass",
    "hand",
    "passed",
    "selected",
    "received",
    "tricks",
    "trick",
    "hearts_broken",
    "count_down",
    "voids",
    "points",
    "scores",
    "legal",
    "moon_taker",
}


def _swap_pairs(hands: list[list[str]], a: int, b: int, avoid: set[str]) -> list[tuple[str, str]]:
    """Cards of seat ``a`` and of the same suit held by seat ``b``, longest suits first, at most six pairs."""
    pairs = []
    for x in hands[a]:
        for y in hands[b]:
            if x[1] == y[1] and x not in avoid and y not in avoid:
                length = min(sum(c[1] == x[1] for c in hands[a]), sum(c[1] == x[1] for c in hands[b]))
                pairs.append((-length, x, y))
    pairs.sort()
    return [(x, y) for _, x, y in pairs[:6]]


def _hidden_cards(game: Any, observer: int, players: int) -> set[str]:
    """Cards in other seats' hands that the observer cannot know (not ones it passed to them)."""
    obs = game.observation(observer)
    known = set(obs["passed"] or [])
    return {c for s in range(players) if s != observer for c in game.hand(s)} - known


def _assert_hides(game: Any, observer: int, players: int) -> None:
    obs = game.observation(observer)
    assert set(obs) == OBS1_KEYS
    text = json.dumps(obs)
    for card in _hidden_cards(game, observer, players):
        assert f'"{card}"' not in text, f"seat {observer} sees {card}"


@pytest.mark.parametrize(
    ("preset", "hand_number", "seed"),
    [("hartenjagen", 0, 11), ("hartenjagen", 1, 12), ("hearts-4", 3, 13), ("hearts-4", 0, 14), ("hearts-3", 1, 15)],
)
@pytest.mark.parametrize("observer", [0, 2])
def test_swapping_hidden_cards_changes_nothing_the_seat_sees(
    engine: ModuleType, preset: str, hand_number: int, seed: int, observer: int
) -> None:
    ruleset = engine.preset(preset)
    n = ruleset.players
    hands = engine.deal_from_seed(ruleset, seed, 1, hand_number)[0]
    a, b = (observer + 1) % n, (observer + 2) % n
    longest = 0
    for x, y in _swap_pairs(hands, a, b, {ruleset.opening_card}):
        longest = max(longest, _compare(engine, ruleset, hands, hand_number, seed, observer, (a, x), (b, y)))
    assert longest >= 8


def _compare(
    engine: ModuleType,
    ruleset: Any,
    hands: list[list[str]],
    hand_number: int,
    seed: int,
    observer: int,
    ax: tuple[int, str],
    by: tuple[int, str],
) -> int:
    """Drive both deals until a swapped card must be shown; return the number of equal steps."""
    n = ruleset.players
    (a, x), (b, y) = ax, by
    swapped = [list(h) for h in hands]
    swapped[a] = sorted([c for c in hands[a] if c != x] + [y], key=engine.card_id)
    swapped[b] = sorted([c for c in hands[b] if c != y] + [x], key=engine.card_id)
    games = [engine.Game(ruleset, hand_number=hand_number), engine.Game(ruleset, hand_number=hand_number)]
    games[0].deal(hands)
    games[1].deal(swapped)
    hidden = {x, y}
    rng = random.Random(seed)
    steps = 0
    while True:
        first, second = (g.observation(observer) for g in games)
        assert first == second
        encodings = [encode_observation(Observation(ruleset, o)) for o in (first, second)]
        assert encodings[0] == encodings[1]
        assert len(encodings[0]) == ENCODING_LENGTH
        for game in games:
            _assert_hides(game, observer, n)
        steps += 1
        game = games[0]
        if game.phase == "pass":
            seat = game.awaiting_pass[0]
            options = [c for c in game.hand(seat) if c not in hidden]
            action = {"type": "pass", "seat": seat, "cards": rng.sample(options, ruleset.passing["size"])}
        elif game.phase == "play":
            options = [c for c in game.legal_plays() if c not in hidden]
            assert options == [c for c in games[1].legal_plays() if c not in hidden]
            if not options:
                break  # a swapped card must now be played: the seat may see it from here on
            action = {"type": "play", "seat": game.to_move, "card": rng.choice(options)}
        else:
            break
        for g in games:
            g.apply(action)
    return steps


def test_observation_never_holds_another_hand(engine: ModuleType) -> None:
    from reversis.players import RandomPlayer, act_for

    for preset in ("hearts-4", "hartenjagen", "hearts-7"):
        ruleset = engine.preset(preset)
        game = engine.Game(ruleset, seed=5)
        players = [RandomPlayer(seat) for seat in range(ruleset.players)]
        while game.hand_number == 0:
            for seat in range(ruleset.players):
                _assert_hides(game, seat, ruleset.players)
                assert game.observation(seat)["hand"] == game.hand(seat)
            act_for(game, players)
