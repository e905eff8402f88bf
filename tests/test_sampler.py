"""The exact hidden-card sampler (``_core.sample_hidden``, ``_core.count_layouts``).

Expected values come from reasoning and an independent enumeration written here: a seat may
know its hand, the cards played, the cards it passed (with their receiver until played), every
seat's number of cards and the revealed voids (OBS-1); every layout consistent with that must be
drawn with the same probability.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest

import reversis
from reversis import _core
from reversis.players import RandomPlayer, act_for

OFFSET = {"left": 1, "right": -1, "across": 2, "hold": 0}
PRESETS = reversis.preset_names()


def played_cards(obs: dict[str, Any]) -> set[str]:
    """Every card played this hand, the trick in progress included."""
    cards = {p["card"] for t in obs["tricks"] for p in t["cards"]}
    return cards | {p["card"] for p in obs["trick"]}


def play_to(name: str, seed: int, plays: int, hand_number: int = 0) -> Any:
    """A seeded game after the pass and ``plays`` random plays of its first hand."""
    game = reversis.Game(reversis.preset(name), seed, hand_number=hand_number)
    players = [RandomPlayer(seed * 10 + s) for s in range(game.ruleset.players)]
    while game.phase == "pass":
        act_for(game, players)
    for _ in range(plays):
        if game.phase != "play":
            break
        act_for(game, players)
    return game


def receiver(obs: dict[str, Any], players: int) -> int | None:
    """The seat holding the observer's passed cards, once exchanged."""
    if obs["passed"] is None or obs["received"] is None:
        return None
    return (obs["seat"] + OFFSET[obs["pass_direction"]]) % players


@pytest.mark.parametrize("name", PRESETS)
def test_samples_respect_everything_the_seat_knows(name: str) -> None:
    voids_seen = 0
    for seed in range(6):
        rules = reversis.preset(name)
        game = play_to(name, seed, 5 + 7 * seed, hand_number=seed % 3)
        n = rules.players
        for seat in range(n):
            obs = game.observation(seat)
            played = played_cards(obs)
            to = receiver(obs, n)
            voids_seen += sum(len(v) for v in obs["voids"])
            for layout in _core.sample_hidden(rules, obs, 30, seed):
                assert len(layout) == n
                assert layout[seat] == obs["hand"]
                everything = [c for hand in layout for c in hand]
                assert len(everything) == len(set(everything))
                assert set(everything) | played == set(rules.deck)
                for s in range(n):
                    assert len(layout[s]) == len(game.hand(s))
                    assert layout[s] == sorted(layout[s], key=_core.card_id)
                    for suit in obs["voids"][s]:
                        assert not any(c[1] == suit for c in layout[s]), (s, suit, layout[s])
                    if s != seat:
                        assert not set(layout[s]) & set(obs["hand"])
                if to is not None and to != seat:
                    for c in obs["passed"]:
                        assert c in played or c in layout[to]
    assert voids_seen > 0


def enumerate_layouts(rules: Any, obs: dict[str, Any], counts: list[int]) -> list[tuple[tuple[str, ...], ...]]:
    """Every layout consistent with what the observer knows, by trying every seat for every card."""
    n = rules.players
    seat = obs["seat"]
    played = played_cards(obs)
    known: dict[int, set[str]] = {s: set() for s in range(n)}
    to = receiver(obs, n)
    if to is not None and to != seat:
        known[to] = set(obs["passed"]) - played
    fixed = set(obs["hand"]) | played | known[to if to is not None else seat]
    hidden = [c for c in rules.deck if c not in fixed]
    others = [s for s in range(n) if s != seat]
    out = []
    for assign in itertools.product(others, repeat=len(hidden)):
        hands: dict[int, set[str]] = {s: set(known[s]) for s in range(n)}
        hands[seat] = set(obs["hand"])
        for card, s in zip(hidden, assign):
            hands[s].add(card)
        if any(len(hands[s]) != counts[s] for s in range(n)):
            continue
        if any(c[1] in obs["voids"][s] for s in range(n) for c in hands[s]):
            continue
        out.append(tuple(tuple(sorted(hands[s], key=_core.card_id)) for s in range(n)))
    return out


def chi2_critical(df: int, z: float = 3.090232) -> float:
    """The chi-squared quantile for p = 0.001 (z of 0.999) by Wilson–Hilferty."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def small_endgames() -> list[tuple[Any, dict[str, Any], list[int]]]:
    """hearts-4 positions with 2 or 3 tricks left and a manageable number of layouts, voids shown."""
    found = []
    rules = reversis.preset("hearts-4")
    for seed in range(400):
        plays = 40 + seed % 6
        game = play_to("hearts-4", seed, plays, hand_number=seed % 4)
        seat = game.to_move
        if seat is None:
            continue
        obs = game.observation(seat)
        if not any(obs["voids"][s] for s in range(4) if s != seat):
            continue
        counts = [len(game.hand(s)) for s in range(4)]
        hidden = sum(counts) - counts[seat]
        if hidden > 9:
            continue
        found.append((rules, obs, counts))
        if len(found) == 4:
            break
    return found


def test_sample_hidden_is_uniform_on_small_endgames() -> None:
    cases = small_endgames()
    assert len(cases) == 4
    tested = 0
    for i, (rules, obs, counts) in enumerate(cases):
        layouts = enumerate_layouts(rules, obs, counts)
        assert layouts
        assert _core.count_layouts(rules, obs) == len(layouts)
        if len(layouts) < 3:
            continue
        tested += 1
        draws = 20000
        freq = Counter(tuple(tuple(h) for h in s) for s in _core.sample_hidden(rules, obs, draws, 1000 + i))
        assert set(freq) <= set(layouts)
        expected = draws / len(layouts)
        chi2 = sum((freq.get(lay, 0) - expected) ** 2 / expected for lay in layouts)
        assert chi2 < chi2_critical(len(layouts) - 1), (chi2, len(layouts))
    assert tested >= 1


def test_a_biased_sampler_would_fail_the_chi_squared_test() -> None:
    # The test can fail: drawing the first half of the layouts twice as often is caught.
    rules, obs, counts = small_endgames()[0]
    layouts = enumerate_layouts(rules, obs, counts)
    rng = random.Random(3)
    weights = [2 if i < len(layouts) // 2 else 1 for i in range(len(layouts))]
    draws = rng.choices(range(len(layouts)), weights=weights, k=20000)
    freq = Counter(draws)
    expected = 20000 / len(layouts)
    chi2 = sum((freq.get(i, 0) - expected) ** 2 / expected for i in range(len(layouts)))
    if len(layouts) >= 2:
        assert chi2 > chi2_critical(len(layouts) - 1)


def test_count_layouts_of_a_fresh_deal() -> None:
    # hearts-4 hand 3 (hold), before any play: 39 cards in three hands of 13.
    rules = reversis.preset("hearts-4")
    game = reversis.Game(rules, 5, hand_number=3)
    assert game.phase == "play"
    want = math.comb(39, 13) * math.comb(26, 13)
    assert _core.count_layouts(rules, game.observation(0)) == want
    # hearts-7 before the pass: the deal, 42 cards in six hands of 7.
    rules = reversis.preset("hearts-7")
    game = reversis.Game(rules, 5)
    want = math.prod(math.comb(42 - 7 * i, 7) for i in range(6))
    assert want > 2**64
    assert _core.count_layouts(rules, game.observation(2)) == want


def test_a_malformed_observation_is_refused() -> None:
    rules = reversis.preset("hearts-4")
    obs = play_to("hearts-4", 1, 10).observation(0)
    bad = dict(obs, hand=obs["hand"][:-1])
    with pytest.raises(reversis.InvalidInputError):
        _core.sample_hidden(rules, bad, 1, 0)
    with pytest.raises(reversis.InvalidInputError):
        _core.sample_hidden(rules, {"seat": 0}, 1, 0)
