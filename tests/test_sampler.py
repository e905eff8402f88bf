"""The exact hidden-card sampler (``_core.sample_hidden``, ``_core.count_layouts``, and
``_core.sample_consistent``, ``_core.count_consistent`` with what legal play reveals).

Expected values come from reasoning and an independent enumeration written here: a seat may
know its hand, the cards played, the cards it passed (with their receiver until played), every
seat's number of cards and the revealed voids (OBS-1); every layout consistent with that must be
drawn with the same probability. What legal play reveals beyond the voids is checked against the
reference engine replaying the hand from every layout.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest

import reversis
from reversis import _core, reference
from reversis.players import RandomPlayer, act_for

OFFSET = {"left": 1, "right": -1, "across": 2, "hold": 0}
#: The one-pack presets; the two-pack ones (RS-21) hold copies and have their own test below.
PRESETS = [
    name for name in reversis.preset_names() if len(set(reversis.preset(name).deck)) == len(reversis.preset(name).deck)
]
TWO_PACKS = [name for name in reversis.preset_names() if name not in PRESETS]


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


# ----------------------------------------------------------------------------- what legal play reveals
#
# ``_core.sample_consistent`` draws among the layouts from which every play of the hand was legal.
# The truth it must match comes from the reference engine, which shares no code with the core:
# every layout of the hidden cards is dealt to a reference game (with the cards each seat played
# back in its hand) and the hand's plays are replayed there.

#: Rulesets without passing, so that the deal is the layout plus the cards played: among them the
#: first-trick ban with seven players (a point card discarded shows a hand of them), no ban with
#: ``none`` breaking, and decks of twelve cards, whose hands are short enough that what the first
#: tricks reveal (a heart led while unbroken after a free first lead, a point card discarded, who
#: holds the opening card) still counts when so few cards are hidden that every layout is tried.
TINY_DECK = {
    "deck": {"lowest_rank": "Q", "removed": []},
    "opening_card": "QC",
    "card_points": {"QH": 1, "KH": 1, "AH": 1, "QS": 13},
}
NO_PASS_VARIANTS = [
    ("hearts-4", {"passing": None}),
    ("hearts-7", {"passing": None}),
    ("hartenjagen", {}),
    ("hearts-3", {"passing": None, **TINY_DECK}),
    ("hearts-3", {"passing": None, **TINY_DECK, "opening_card": None, "hearts_breaking": "heart"}),
    ("hearts-4", {"passing": None, **TINY_DECK}),
]


def lumpy_deal(deck: list[str], players: int, rng: random.Random) -> list[list[str]]:
    """A deal of runs of the sorted deck, cut near a suit and with a few swaps, uniform one time in
    four: hands of one suit, of hearts alone and of point cards alone come up, and with them the
    plays that reveal most."""
    cards = list(deck)
    if rng.randrange(4) == 0:
        rng.shuffle(cards)
    else:
        for _ in range(rng.randrange(8)):
            i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
        suit = rng.choice("CDHS")
        shift = next(i for i, c in enumerate(cards) if c[1] == suit) + rng.randrange(-2, 3)
        cards = cards[shift:] + cards[:shift]
    size = len(cards) // players
    return [cards[s * size : (s + 1) * size] for s in range(players)]


def splits(cards: list[str], counts: dict[int, int]) -> list[dict[int, list[str]]]:
    """Every way to give ``cards`` to the seats of ``counts``, each seat its number."""
    seats = sorted(counts)
    if not seats:
        return [{}] if not cards else []
    first, rest = seats[0], {s: counts[s] for s in seats[1:]}
    out = []
    for mine in itertools.combinations(cards, counts[first]):
        others = [c for c in cards if c not in mine]
        for tail in splits(others, rest):
            out.append({first: list(mine), **tail})
    return out


def replayed_layouts(ref_rules: Any, hand_number: int, obs: dict[str, Any]) -> list[tuple[tuple[str, ...], ...]]:
    """Every layout of the hidden cards from which the reference engine replays the observed hand."""
    n = ref_rules.players
    seat = obs["seat"]
    plays = [(p["seat"], p["card"]) for t in obs["tricks"] for p in t["cards"]]
    plays += [(p["seat"], p["card"]) for p in obs["trick"]]
    played_by: list[list[str]] = [[] for _ in range(n)]
    for s, card in plays:
        played_by[s].append(card)
    hidden = [c for c in ref_rules.deck if c not in obs["hand"] and c not in {card for _, card in plays}]
    counts = {s: ref_rules.hand_size - len(played_by[s]) for s in range(n) if s != seat}
    out = []
    for layout in splits(hidden, counts):
        layout[seat] = list(obs["hand"])
        game = reference.Game(ref_rules, hand_number=hand_number)
        game.deal([layout[s] + played_by[s] for s in range(n)])
        try:
            for s, card in plays:
                game.play(card, s)
        except reversis.ReversisError:
            continue
        if game.to_move == obs["to_move"]:
            out.append(tuple(tuple(sorted(layout[s], key=_core.card_id)) for s in range(n)))
    return out


def few_layouts(game: Any, seat: int) -> bool:
    """Whether the cards hidden from ``seat`` can be laid out in at most 200 ways (within the counts)."""
    counts = [len(game.hand(s)) for s in range(game.ruleset.players) if s != seat]
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts) <= 200


@functools.lru_cache(maxsize=1)
def consistent_endgames() -> list[tuple[Any, Any, int, dict[str, Any]]]:
    """Positions of the variants late in a hand, with few hidden cards, from up to three seats each."""
    rng = random.Random(17)
    found = []
    for name, fields in NO_PASS_VARIANTS:
        rules = reversis.Ruleset.from_json({**reversis.preset(name).to_json(), **fields, "name": f"{name}-variant"})
        ref_rules = reference.Ruleset.from_json(rules.to_json())
        n = rules.players
        for _ in range(40 if len(rules.deck) < 20 else 10):
            hand_number = rng.randrange(4)
            game = reversis.Game(rules, hand_number=hand_number)
            game.deal(lumpy_deal(list(rules.deck), n, rng))
            while game.phase == "play" and not any(few_layouts(game, seat) for seat in range(n)):
                game.play(rng.choice(game.legal_plays()))
            for _ in range(rng.randrange(sum(len(game.hand(s)) for s in range(n)) // 2 + 1)):
                if game.phase == "play":
                    game.play(rng.choice(game.legal_plays()))
            if game.phase != "play":
                continue
            seats = [seat for seat in range(n) if few_layouts(game, seat)]
            for seat in rng.sample(seats, min(3, len(seats))):
                found.append((rules, ref_rules, hand_number, game.observation(seat)))
    return found


def test_consistent_layouts_are_those_the_reference_engine_replays() -> None:
    cases = consistent_endgames()
    assert len(cases) >= 80
    narrower = 0
    for i, (rules, ref_rules, hand_number, obs) in enumerate(cases):
        truth = replayed_layouts(ref_rules, hand_number, obs)
        assert truth, obs
        assert _core.count_consistent(rules, obs) == len(truth), (rules.name, obs)
        narrower += _core.count_layouts(rules, obs) > len(truth)
        for layout in _core.sample_consistent(rules, obs, 40, i):
            assert tuple(tuple(h) for h in layout) in truth
    # Legal play revealed more than the voids in enough of them to count.
    assert narrower >= 10, narrower


def test_consistent_samples_are_uniform_where_play_reveals_more_than_voids() -> None:
    tested = 0
    for i, (rules, ref_rules, hand_number, obs) in enumerate(consistent_endgames()):
        truth = replayed_layouts(ref_rules, hand_number, obs)
        if not 3 <= len(truth) <= 20 or _core.count_layouts(rules, obs) == len(truth):
            continue
        draws = 300 * len(truth)
        freq = Counter(tuple(tuple(h) for h in s) for s in _core.sample_consistent(rules, obs, draws, 500 + i))
        assert set(freq) <= set(truth)
        chi2 = sum((freq.get(lay, 0) - 300) ** 2 / 300 for lay in truth)
        assert chi2 < chi2_critical(len(truth) - 1), (chi2, len(truth))
        tested += 1
        if tested == 4:
            break
    assert tested >= 2


def test_consistent_samples_keep_the_pass_and_the_voids_of_passing_hands() -> None:
    # With passing, as in test_samples_respect_everything_the_seat_knows: the receiver holds the
    # cards passed to it until it plays them, and no seat holds a card of a suit it showed void.
    for seed in range(4):
        rules = reversis.preset("hearts-4")
        game = play_to("hearts-4", seed, 9 + 9 * seed, hand_number=seed % 3)
        for seat in range(4):
            obs = game.observation(seat)
            to = receiver(obs, 4)
            played = played_cards(obs)
            for layout in _core.sample_consistent(rules, obs, 30, seed):
                assert layout[seat] == obs["hand"]
                for s in range(4):
                    assert len(layout[s]) == len(game.hand(s))
                    assert not any(c[1] in obs["voids"][s] for c in layout[s])
                if to is not None and to != seat:
                    assert all(c in played or c in layout[to] for c in obs["passed"])
    twice = dict(obs, trick=[*obs["trick"], obs["tricks"][0]["cards"][0]])
    with pytest.raises(reversis.InvalidInputError):
        _core.sample_consistent(rules, twice, 1, 0)


@pytest.mark.parametrize("name", TWO_PACKS)
def test_two_pack_samples_respect_everything_the_seat_knows(name: str) -> None:
    """With two packs (RS-21) the layouts hold every copy: each card as many times as the deck has
    it between the hands and the cards played, the observer's own hand as it is, the voids, and
    the copies passed that the receiver has not played yet."""
    rules = reversis.preset(name)
    n = rules.players
    deck = Counter(rules.deck)
    doubles = 0
    for seed in range(3):
        game = play_to(name, seed, 9 + 11 * seed, hand_number=seed % 2)
        for seat in range(n):
            obs = game.observation(seat)
            plays = [p for t in obs["tricks"] for p in t["cards"]] + list(obs["trick"])
            played = Counter(p["card"] for p in plays)
            to = receiver(obs, n)
            for layout in _core.sample_consistent(rules, obs, 10, seed):
                assert layout[seat] == obs["hand"]
                assert Counter(c for hand in layout for c in hand) + played == deck
                doubles += sum(1 for hand in layout for c, k in Counter(hand).items() if k == 2)
                for s in range(n):
                    assert len(layout[s]) == len(game.hand(s))
                    for suit in obs["voids"][s]:
                        assert not any(c[1] == suit for c in layout[s]), (s, suit, layout[s])
                if to is not None and to != seat:
                    by_receiver = Counter(p["card"] for p in plays if p["seat"] == to)
                    assert not Counter(obs["passed"]) - by_receiver - Counter(layout[to])
    assert doubles > 0
