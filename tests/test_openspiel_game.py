"""The reversis rulesets as OpenSpiel games (reversis.adapters.openspiel_game).

OpenSpiel's own checks (``random_sim_test``), bots and algorithms run on them; every expected
value of a decision comes from a reversis ``Game`` driven alongside, and every expected deal
from the documented chance convention (outcome ``i`` is ``ruleset.deck[i]``, the ``k``-th card
dealt goes to seat ``k mod players``).
"""

from __future__ import annotations

import collections
import itertools
import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import reversis  # noqa: E402
from reversis.adapters import openspiel_game  # noqa: E402
from reversis.adapters.openspiel_game import game_name  # noqa: E402

ROOT = Path(__file__).parents[1]
PRESETS = reversis.preset_names()
# The presets of two packs (RS-21), whose identical cards share one id and one chance outcome.
TWO_PACKS = [name for name in PRESETS if reversis.preset(name).to_json()["deck"].get("packs", 1) == 2]
CHANCE = int(pyspiel.PlayerId.CHANCE)
ALL_CARDS = sorted((r + s for s in "CDHS" for r in "23456789TJQKA"), key=reversis.card_id)  # by id


def load(preset: str, **params: Any) -> Any:
    return pyspiel.load_game(game_name(preset), params)


def distinct(rules: Any) -> list[str]:
    """The deck's distinct cards in its order: chance outcome ``i`` deals a copy of the ``i``-th."""
    return list(dict.fromkeys(rules.deck))


def deal_order(rules: Any, hands: list[list[str]]) -> list[int]:
    """The chance outcomes that deal ``hands``: card ``k`` to seat ``k mod players``."""
    n = rules.players
    cards = distinct(rules)
    return [cards.index(hands[k % n][k // n]) for k in range(len(rules.deck))]


def random_step(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        action = rng.choice([a for a, _ in state.chance_outcomes()])
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return int(action)


def play_until(state: Any, rng: random.Random, steps: int) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


# ----------------------------------------------------------------------------- registration


def test_every_preset_is_registered_once() -> None:
    names = openspiel_game.register()
    assert names == [game_name(p) for p in PRESETS]
    assert openspiel_game.register() == names
    assert set(names) <= set(pyspiel.registered_names())
    assert game_name("hearts-4") == "reversis_hearts_4"
    assert game_name("hartenjagen") == "reversis_hartenjagen"
    for preset in PRESETS:
        rules = reversis.preset(preset)
        game = load(preset)
        kind = game.get_type()
        assert kind.short_name == game_name(preset)
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        # A moon makes a hand's scores sum to more than its points; without one (black-maria)
        # every hand hands out the same points.
        utility = pyspiel.GameType.Utility
        assert kind.utility == (utility.CONSTANT_SUM if rules.moon is None else utility.GENERAL_SUM)
        assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert kind.provides_information_state_string and kind.provides_information_state_tensor
        assert kind.provides_observation_string and kind.provides_observation_tensor
        assert game.num_players() == rules.players
        assert game.num_distinct_actions() == 106
        assert game.max_chance_outcomes() == len(set(rules.deck))
        assert game.observation_tensor_size() == 1435  # OBS-3 version 3
        size = rules.passing["size"] if rules.passing else 0
        assert game.information_state_tensor_size() == 1435 + 52 * size
    assert TWO_PACKS == ["cancellation-10", "cancellation-6", "cancellation-8"]
    for preset in TWO_PACKS:
        assert game_name(preset) in names
        assert load(preset).max_chance_outcomes() == 52  # two copies of a card are one outcome


def test_a_ruleset_of_two_packs_is_played() -> None:
    # Classic hearts-4 shuffled with a second pack (no opening card: RS-13 wants it unique).
    deck = {"lowest_rank": "2", "removed": [], "packs": 2}
    two_packs = reversis.preset("hearts-4").replace(deck=deck, opening_card=None)
    game = load("hearts-4", ruleset=json.dumps(two_packs.to_json()))
    # 26 hearts and 2 QS: a seat takes up to 52 points, and at best −26 with the moon.
    assert (game.min_utility(), game.max_utility()) == (-52.0, 26.0)
    # 12 selections, 104 plays and a moon choice.
    assert game.max_game_length() == 117
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_utility_bounds_follow_the_ruleset() -> None:
    # hearts-4: 26 points on the table, taker-choice 26: a seat scores from −26 to 26.
    game = load("hearts-4")
    assert (game.min_utility(), game.max_utility()) == (-26.0, 26.0)
    # hartenjagen: 15 points, add-to-others 15: from 0 to 15.
    game = load("hartenjagen")
    assert (game.min_utility(), game.max_utility()) == (-15.0, 0.0)
    # omnibus-4: the JD's −10 can come on top of the taker's −26.
    game = load("omnibus-4")
    assert (game.min_utility(), game.max_utility()) == (-26.0, 36.0)
    # Without a moon a hand's points always add up to 26: constant-sum.
    rules = reversis.preset("hearts-4").replace(moon=None)
    game = load("hearts-4", ruleset=json.dumps(rules.to_json()))
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == -26.0
    assert (game.min_utility(), game.max_utility()) == (-26.0, 0.0)
    # A hand of hearts-4 is at most 12 selections, 52 plays and a moon choice; hand 3 holds.
    assert load("hearts-4").max_game_length() == 65
    assert load("hearts-4", hand_number=3).max_game_length() == 53
    # Two packs: every copy of a point card counts, 2 × (13 + 13) = 52, and the moon is 52.
    for preset in TWO_PACKS:
        game = load(preset)
        assert (game.min_utility(), game.max_utility()) == (-52.0, 52.0)
    # cancellation-6: 6 × 3 selections, 2 × 52 − 2 plays and a moon choice; cancellation-8: no
    # passing, 104 plays; cancellation-10: 10 × 3 selections and 2 × 52 − 4 plays.
    assert load("cancellation-6").max_game_length() == 121
    assert load("cancellation-6", hand_number=1).max_game_length() == 121
    assert load("cancellation-8").max_game_length() == 105
    assert load("cancellation-10").max_game_length() == 131
    # Without a moon a two-pack hand hands out 52 points, each copy counted.
    rules = reversis.preset("cancellation-8").replace(moon=None)
    game = load("cancellation-8", ruleset=json.dumps(rules.to_json()))
    assert game.utility_sum() == -52.0
    assert (game.min_utility(), game.max_utility()) == (-52.0, 0.0)


def test_bad_parameters_are_refused() -> None:
    for params in ({"episode": "set"}, {"rewards": "card"}, {"hand_number": -1}, {"max_hands": -2}):
        with pytest.raises(ValueError, match=r"episode|rewards|hand_number|max_hands"):
            load("hearts-4", **params)
    with pytest.raises(reversis.InvalidInputError):
        load("hearts-4", ruleset='{"players": 3}')
    with pytest.raises(pyspiel.SpielError):
        load("hearts-4", seed=1)


# ----------------------------------------------------------------------------- OpenSpiel's checks


@pytest.mark.parametrize("preset", PRESETS)
def test_random_sim_test_passes(preset: str) -> None:
    pyspiel.random_sim_test(load(preset), num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(
    ("preset", "params"),
    [
        ("hearts-3", {"episode": "match"}),
        ("hartenjagen", {"episode": "match", "rewards": "trick"}),
        ("hearts-4", {"rewards": "trick"}),
        ("hearts-4", {"hand_number": 3}),
        ("omnibus-4", {"hand_number": 2}),
        ("hearts-5", {"ruleset": json.dumps(reversis.preset("hearts-5").replace(moon=None).to_json())}),
        ("cancellation-6", {"rewards": "trick"}),
        ("cancellation-8", {"episode": "match", "max_hands": 2}),
        ("cancellation-10", {"hand_number": 1}),
    ],
)
def test_random_sim_test_passes_for_the_variants(preset: str, params: dict[str, Any]) -> None:
    game = load(preset, **params)
    if "episode" in params or "rewards" in params:
        assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_states_serialize() -> None:
    pyspiel.random_sim_test(load("hearts-3", rewards="trick"), num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(load("cancellation-6", rewards="trick"), num_sims=1, serialize=True, verbose=False)


# ----------------------------------------------------------------------------- the rules


@pytest.mark.parametrize("preset", PRESETS)
def test_decisions_and_returns_are_the_reversis_game(preset: str) -> None:
    rng = random.Random(preset)
    rules = reversis.preset(preset)
    n = rules.players
    cards = distinct(rules)
    for hand_number in (0, 1):
        game = load(preset, hand_number=hand_number)
        state = game.new_initial_state()
        dealt: list[str] = []
        while state.is_chance_node():
            # Each card with a copy left, as likely as its copies left (one pack: all alike).
            left = collections.Counter(rules.deck)
            left.subtract(dealt)
            expected = [(i, left[c] / (len(rules.deck) - len(dealt))) for i, c in enumerate(cards) if left[c]]
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == [a for a, _ in expected]
            assert [p for _, p in outcomes] == pytest.approx([p for _, p in expected])
            action = rng.choice(outcomes)[0]
            assert state.action_to_string(CHANCE, action) == f"deal {cards[action]}"
            dealt.append(cards[action])
            state.apply_action(action)
        shadow = reversis.Game(rules, hand_number=hand_number)
        shadow.deal([dealt[s::n] for s in range(n)])
        while not state.is_terminal():
            assert state.current_player() == shadow.to_act
            assert state.legal_actions() == shadow.legal_actions()
            for other in range(n):
                if other != shadow.to_act:
                    assert state.legal_actions(other) == []
            action = rng.choice(state.legal_actions())
            assert state.action_to_string(state.current_player(), action) == reversis.action_label(action)
            state.apply_action(action)
            shadow.apply_action(action)
        assert len(shadow.hand_scores) == 1
        assert state.returns() == [-float(x) for x in shadow.hand_scores[0]]
        assert state.rewards() == state.returns()


def tiny_two_packs() -> Any:
    """Four seats dealt two aces each from two packs of aces: 8 copies, 4 cards."""
    fields = reversis.preset("cancellation-8").to_json()
    fields.update(players=4, deck={"lowest_rank": "A", "removed": [], "packs": 2}, card_points={"AH": 1, "AS": 5})
    return reversis.Ruleset.from_json(fields)


def test_the_chance_deal_is_the_physical_deal_of_two_packs() -> None:
    # Every chance history of the deal, with its probability, against a count of the ways to
    # deal the 8 distinct physical copies: a deal of hands H_s has prod_c(2! / prod_s m_sc!)
    # physical layouts among 8! / (2!)^4 (each seat's two copies in either order), all alike.
    rules = tiny_two_packs()
    game = load("cancellation-8", ruleset=json.dumps(rules.to_json()))
    assert game.max_chance_outcomes() == 4
    found: collections.Counter[tuple[tuple[str, ...], ...]] = collections.Counter()

    def walk(state: Any, probability: float) -> None:
        if not state.is_chance_node():
            found[hands(state)] += probability
            return
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        for action, p in outcomes:
            child = state.clone()
            child.apply_action(action)
            walk(child, probability * p)

    walk(game.new_initial_state(), 1.0)
    layouts = math.factorial(8) / 2**4
    expected = {}
    for deal in itertools.product(itertools.combinations_with_replacement(["AC", "AD", "AH", "AS"], 2), repeat=4):
        held = collections.Counter(c for hand in deal for c in hand)
        if any(held[c] != 2 for c in ("AC", "AD", "AH", "AS")):
            continue
        ways = 1
        for card in ("AC", "AD", "AH", "AS"):
            ways *= 2 // math.prod(math.factorial(hand.count(card)) for hand in deal)
        expected[deal] = ways / layouts
    assert sum(expected.values()) == pytest.approx(1.0)
    assert set(found) == set(expected)
    for deal, p in expected.items():
        assert found[deal] == pytest.approx(p), deal


def test_returns_apply_the_moon_rule_and_its_choice() -> None:
    # A hearts-3 whose only point card is the opening 2C: whoever wins the first trick takes every
    # point card, so every hand ends with the taker's choice (SCORE-3), 26 to each other seat or
    # −26 to the taker.
    hearts = reversis.preset("hearts-3")
    rules = hearts.replace(card_points={**{c: 0 for c in hearts.point_cards}, "2C": 1})
    game = load("hearts-3", ruleset=json.dumps(rules.to_json()))
    assert (game.min_utility(), game.max_utility()) == (-26.0, 26.0)
    rng = random.Random(7)
    for choice in (104, 105):
        state = game.new_initial_state()
        while state.legal_actions() != [104, 105]:
            random_step(state, rng)
        taker = state.current_player()
        assert state.action_to_string(taker, choice) == reversis.action_label(choice)
        state.apply_action(choice)
        assert state.is_terminal()
        expected = [-26.0] * 3 if choice == 104 else [0.0] * 3
        expected[taker] = 0.0 if choice == 104 else 26.0
        assert state.returns() == expected


def test_trick_rewards_pay_each_trick_and_sum_to_the_hand() -> None:
    rng = random.Random(11)
    game = load("hearts-4", rewards="trick")
    state = game.new_initial_state()
    while state.is_chance_node():
        random_step(state, rng)
    total = [0.0] * 4
    while not state.is_terminal():
        seat_points_before = list(state.game.points)
        random_step(state, rng)
        events = state.game.events
        total = [t + r for t, r in zip(total, state.rewards())]
        if any(e["type"] == "trick" for e in events) and not any(e["type"] == "hand" for e in events):
            gained = [a - b for a, b in zip(state.game.points, seat_points_before)]
            assert state.rewards() == [-float(g) for g in gained]
    assert total == state.returns() == [-float(x) for x in state.game.hand_scores[0]]


def test_a_held_over_trick_pays_nobody_and_its_captor_both() -> None:
    # cancellation-6 (PLAY-9): a trick whose cards of the suit led all cancel is held over and
    # pays nothing; the next trick won pays its winner its points with those held over.
    rng = random.Random(21)
    game = load("cancellation-6", rewards="trick")
    rules = reversis.preset("cancellation-6")
    for _ in range(200):
        state = game.new_initial_state()
        while state.is_chance_node():
            random_step(state, rng)
        total = [0.0] * 6
        held: list[str] = []
        captured = False
        while not state.is_terminal():
            random_step(state, rng)
            total = [t + r for t, r in zip(total, state.rewards())]
            for event in state.game.events:
                if event["type"] != "trick":
                    continue
                cards = [p["card"] for p in event["cards"]]
                if event["winner"] is None:
                    held += cards
                    assert state.rewards() == [0.0] * 6
                elif held and not any(e["type"] == "hand" for e in state.game.events):
                    points = sum(rules.card_points.get(c, 0) for c in held + cards)
                    expected = [0.0] * 6
                    expected[event["winner"]] = -float(points)
                    assert state.rewards() == expected
                    captured = True
                    held = []
        assert total == state.returns() == [-float(x) for x in state.game.hand_scores[0]]
        if captured:
            return
    raise AssertionError("no trick held over and captured in 200 hands")


def test_a_match_episode_ends_with_the_match() -> None:
    rng = random.Random(2)
    rules = reversis.preset("hearts-3")
    state = load("hearts-3", episode="match").new_initial_state()
    shadow = reversis.Game(rules)
    dealt: list[str] = []
    summed = [0.0] * 3
    while not state.is_terminal():
        chance = state.is_chance_node()
        action = random_step(state, rng)
        if chance:
            dealt.append(rules.deck[action])
            if len(dealt) == len(rules.deck):
                shadow.deal([dealt[s::3] for s in range(3)])
                dealt = []
        else:
            shadow.apply_action(action)
        if not state.is_chance_node():  # OpenSpiel reads rewards at decisions and at the end
            summed = [t + r for t, r in zip(summed, state.rewards())]
    assert shadow.phase == "over"
    assert len(shadow.hand_scores) > 1
    assert state.returns() == [-float(x) for x in shadow.scores]
    assert summed == state.returns()
    # Cut short after two hands: the returns are minus the totals so far.
    state = load("hearts-3", episode="match", max_hands=2).new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    assert len(state.game.hand_scores) == 2
    assert state.returns() == [-float(x) for x in state.game.scores]


# ----------------------------------------------------------------------------- observations


def untouched(state: Any, seat: int, dealt: list[str]) -> list[str]:
    """The cards dealt to the seat of which it has played, selected, passed and received no copy."""
    game = state.game
    seen = state.observation_dict(seat)
    moved = set(game.selected(seat)) | set(seen["passed"] or []) | set(seen["received"] or [])
    return [
        c
        for c in sorted(set(dealt))
        if c not in moved and game.hand(seat).count(c) == dealt.count(c) and c != game.ruleset.opening_card
    ]


def hidden_swap(state: Any, seat: int, rng: random.Random) -> tuple[int, int, str, str] | None:
    """Two other seats' cards, dealt to them and untouched since, of one suit and one point value."""
    game = state.game
    rules = game.ruleset
    cards = distinct(rules)
    deals = state.history()[: len(rules.deck)]
    n = rules.players
    dealt = [[cards[a] for a in deals[s::n]] for s in range(n)]
    others = [s for s in range(n) if s != seat]
    rng.shuffle(others)
    for q, r in itertools.permutations(others, 2):
        mine = untouched(state, q, dealt[q])
        theirs = untouched(state, r, dealt[r])
        for a, b in itertools.product(mine, theirs):
            if a != b and a[1] == b[1] and rules.card_points.get(a, 0) == rules.card_points.get(b, 0):
                return q, r, a, b
    return None


@pytest.mark.parametrize("preset", ["hearts-4", "hartenjagen", "hearts-6", "cancellation-6"])
def test_what_a_seat_cannot_see_changes_none_of_its_views(preset: str) -> None:
    # OBS-2: swap two cards between two other seats in the deal and replay the same moves.
    rng = random.Random(preset)
    rules = reversis.preset(preset)
    game = load(preset)
    tested = 0
    for _ in range(12):
        state = play_until(game.new_initial_state(), rng, len(rules.deck) + rng.randrange(0, 40))
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = rng.randrange(rules.players)
        swap = hidden_swap(state, seat, rng)
        if swap is None:
            continue
        q, r, a, b = swap
        # One copy of a dealt to q and one copy of b dealt to r change places.
        cards = distinct(rules)
        swapped = list(state.history())
        n = rules.players
        at_q = next(k for k in range(q, len(rules.deck), n) if cards[swapped[k]] == a)
        at_r = next(k for k in range(r, len(rules.deck), n) if cards[swapped[k]] == b)
        swapped[at_q], swapped[at_r] = swapped[at_r], swapped[at_q]
        other = game.new_initial_state()
        for action in swapped:
            other.apply_action(action)
        assert other.game.hand(q) != state.game.hand(q)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(q) != state.observation_tensor(q)
        tested += 1
    assert tested >= 4


def test_the_observation_tensor_is_the_obs3_encoding() -> None:
    from reversis.encoding import encode_observation
    from reversis.players import Observation

    rng = random.Random(8)
    rules = reversis.preset("hearts-5")
    game = load("hearts-5")
    state = play_until(game.new_initial_state(), rng, len(rules.deck) + 20)
    for seat in range(rules.players):
        expected = list(encode_observation(Observation(rules, state.game.observation(seat))))
        assert state.observation_tensor(seat) == expected
        # The information state adds the order of the seat's pass, one row per card selected.
        order = state.information_state_tensor(seat)[1435:]
        passed = state.game.observation(seat)["passed"]
        rows = [order[k * 52 : (k + 1) * 52] for k in range(3)]
        assert sorted(reversis.card_id(c) for c in passed) == sorted(row.index(1.0) for row in rows)
    # Mid-deal a seat sees the cards dealt to it so far.
    state = play_until(game.new_initial_state(), rng, 12)
    dealt = [rules.deck[a] for a in state.history()[1::5]]
    assert state.observation_dict(1)["hand"] == sorted(dealt, key=reversis.card_id)
    assert "hand: " + " ".join(sorted(dealt, key=reversis.card_id)) in state.observation_string(1)


def test_the_observation_tensor_counts_the_copies_of_two_packs() -> None:
    from reversis.encoding import encode_observation
    from reversis.players import Observation

    rng = random.Random(5)
    rules = reversis.preset("cancellation-6")
    cards = distinct(rules)
    game = load("cancellation-6")
    # Mid-deal: the cards dealt to seat 2 so far, both copies where it got both.
    state = play_until(game.new_initial_state(), rng, 90)
    dealt = sorted((cards[a] for a in state.history()[2::6]), key=reversis.card_id)
    assert state.observation_dict(2)["hand"] == dealt
    hand_block = state.observation_tensor(2)[:52]
    assert hand_block == [float(dealt.count(c)) for c in ALL_CARDS]
    doubled = 0
    for _ in range(6):
        state = play_until(game.new_initial_state(), rng, len(rules.deck) + rng.randrange(0, 60))
        for seat in range(rules.players):
            expected = list(encode_observation(Observation(rules, state.game.observation(seat))))
            assert state.observation_tensor(seat) == expected
            hand = state.game.hand(seat)
            assert state.observation_tensor(seat)[:52] == [float(hand.count(c)) for c in ALL_CARDS]
            doubled += 2.0 in state.observation_tensor(seat)[:52]
    assert doubled  # some seat held both copies of a card


def test_the_pass_order_of_two_packs_may_select_a_card_twice() -> None:
    rng = random.Random(6)
    game = load("cancellation-6")
    for _ in range(50):
        state = game.new_initial_state()
        while state.is_chance_node():
            random_step(state, rng)
        hand = state.game.hand(0)
        twice = [c for c in set(hand) if hand.count(c) == 2]
        if twice:
            break
    else:
        raise AssertionError("seat 0 never held both copies of a card in 50 deals")
    card = twice[0]
    select = 52 + reversis.card_id(card)
    state.apply_action(select)
    assert select in state.legal_actions()
    state.apply_action(select)
    assert state.pass_order(0) == [card, card]
    order = state.information_state_tensor(0)[1435:]
    assert order[reversis.card_id(card)] == order[52 + reversis.card_id(card)] == 1.0
    assert sum(order) == 2.0
    assert state.observation_tensor(0)[1330 + reversis.card_id(card)] == 2.0  # OBS-3 `selected`


def test_the_information_state_remembers_the_order_of_the_pass() -> None:
    # Seat 0 selects the same three cards in two orders: the same observation, two information states.
    game = load("hearts-4")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        random_step(state, rng)
    first, second, third = state.legal_actions()[:3]
    one, other = state.clone(), state.clone()
    for action in (first, second, third):
        one.apply_action(action)
    for action in (second, first, third):
        other.apply_action(action)
    assert one.observation_string(0) == other.observation_string(0)
    assert one.observation_tensor(0) == other.observation_tensor(0)
    assert one.information_state_string(0) != other.information_state_string(0)
    assert one.information_state_tensor(0) != other.information_state_tensor(0)
    assert one.information_state_string(1) == other.information_state_string(1)


def test_observer_types() -> None:
    from open_spiel.python.observation import make_observation

    rng = random.Random(3)
    game = load("hearts-4")
    state = play_until(game.new_initial_state(), rng, 70)
    nobody, everybody = pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, private_info=nobody))
    public.set_from(state, 0)
    assert not public.dict["hand"].any() and not public.dict["legal"].any()
    assert public.dict["played"].any()
    assert "hand:" not in public.string_from(state, 0)
    private = make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False))
    private.set_from(state, 0)
    assert private.dict["hand"].any() and not private.dict["played"].any()
    with pytest.raises(ValueError):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, private_info=everybody))
    # The default observation is OBS-3, named field by field.
    full = make_observation(game)
    full.set_from(state, 2)
    assert list(full.tensor) == state.observation_tensor(2)
    assert full.dict["played"].shape == (10, 52)  # OBS-3 version 3: 10 seats


# ----------------------------------------------------------------------------- resampling


def consistent(state: Any, sampled: Any, seat: int) -> None:
    assert sampled.information_state_string(seat) == state.information_state_string(seat)
    assert sampled.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert sampled.observation_tensor(seat) == state.observation_tensor(seat)
    assert sampled.current_player() == state.current_player()
    assert sampled.returns() == state.returns()
    assert len(sampled.history()) == len(state.history())


@pytest.mark.parametrize("preset", [p for p in PRESETS if p not in TWO_PACKS])
def test_resampled_states_agree_with_what_the_seat_knows(preset: str) -> None:
    rng = random.Random(preset)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    game = load(preset, episode="match") if preset == "hearts-3" else load(preset)
    varied = 0
    for _ in range(8):
        state = play_until(game.new_initial_state(), rng, rng.randrange(5, 2 * game.max_game_length()))
        for seat in range(game.num_players()):
            hands = set()
            for _ in range(3):
                sampled = state.resample_from_infostate(seat, sampler)
                consistent(state, sampled, seat)
                assert sampled.game.hand(seat) == state.game.hand(seat)
                hands.add(str(sampled))
                play_until(sampled, rng, 10_000)  # a resampled state plays on to the end
            varied += len(hands) > 1
    assert varied > 0


def held_and_played(state: Any) -> collections.Counter[str]:
    """Every copy in the seats' hands and every card played this hand (a hand episode, after the deal)."""
    rules = state.game.ruleset
    held = collections.Counter(c for s in range(rules.players) for c in state.game.hand(s))
    plays = [a for a in state.history()[len(rules.deck) :] if a < 52]
    held.update(ALL_CARDS[a] for a in plays)
    return held


@pytest.mark.parametrize("preset", TWO_PACKS)
def test_resampled_two_pack_states_agree_with_what_the_seat_knows(preset: str) -> None:
    # RS-21: the hands drawn are multisets; at a selection of the pass, just after the exchange,
    # mid-hand and late in the hand every seat keeps its hand size and the copies add up to the deck.
    rng = random.Random(preset)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rules = reversis.preset(preset)
    deck = collections.Counter(rules.deck)
    n = rules.players
    game = load(preset)
    passes = n * rules.passing["size"] if rules.passing else 0
    varied = 0
    for steps in (2, passes + 1, passes + 40, passes + len(rules.deck) - 2 * n):
        state = play_until(game.new_initial_state(), rng, len(rules.deck) + steps)
        assert not state.is_terminal() and not state.is_chance_node()
        assert held_and_played(state) == deck
        for seat in rng.sample(range(n), 3):
            drawn = set()
            for _ in range(2):
                sampled = state.resample_from_infostate(seat, sampler)
                consistent(state, sampled, seat)
                assert sampled.game.hand(seat) == state.game.hand(seat)
                for s in range(n):
                    assert len(sampled.game.hand(s)) == len(state.game.hand(s))
                    assert len(sampled.game.selected(s)) == len(state.game.selected(s))
                assert held_and_played(sampled) == deck
                drawn.add(str(sampled))
                assert play_until(sampled, rng, 10_000).is_terminal()  # legal play goes on to the end
            varied += len(drawn) > 1
    assert varied > 0


def test_resampling_two_packs_keeps_a_pass_of_both_copies_of_a_card() -> None:
    # cancellation-6 passes left in hand 0: seat 1 passes both copies of QS (and the 3C) to seat 2.
    rules = reversis.preset("cancellation-6")
    rest = [c for c in rules.deck if c not in ("QS", "3C")]
    random.Random(3).shuffle(rest)
    hands = [["3C", *rest[:16]], ["QS", "QS", "3C", *rest[16:30]], *(rest[30 + 17 * k : 47 + 17 * k] for k in range(4))]
    assert collections.Counter(c for h in hands for c in h) == collections.Counter(rules.deck)
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    game = load("cancellation-6")
    state = game.new_initial_state()
    for action in deal_order(rules, hands):
        state.apply_action(action)
    while state.game.phase == "pass":
        seat = state.current_player()
        if seat == 1:
            for card in ("QS", "QS", "3C"):
                state.apply_action(52 + reversis.card_id(card))
        else:
            random_step(state, rng)
    assert sorted(state.game.observation(2)["received"]) == ["3C", "QS", "QS"]
    play_until(state, rng, 8)
    for seat in range(6):
        for _ in range(6):
            sampled = state.resample_from_infostate(seat, sampler)
            consistent(state, sampled, seat)
            assert held_and_played(sampled) == collections.Counter(rules.deck)
            if seat in (1, 2):  # the giver and the receiver both know the pass
                assert sorted(sampled.game.observation(1)["passed"]) == ["3C", "QS", "QS"]
            assert play_until(sampled, rng, 10_000).is_terminal()


def test_resampling_two_packs_draws_the_physical_layouts_alike() -> None:
    # Four seats holding two aces each of two packs of aces; seat 0 holds AC AD and sees nothing
    # else. The six hidden copies, told apart, lie in 6! / 2!^3 = 90 ways among seats 1 to 3, all
    # alike: a layout of multisets comes as often as the physical layouts it stands for.
    rules = tiny_two_packs()
    game = load("cancellation-8", ruleset=json.dumps(rules.to_json()))
    state = game.new_initial_state()
    for action in deal_order(rules, [["AC", "AD"], ["AC", "AH"], ["AD", "AS"], ["AH", "AS"]]):
        state.apply_action(action)
    hidden = ["AC", "AD", "AH", "AH", "AS", "AS"]
    expected: collections.Counter[tuple[tuple[str, ...], ...]] = collections.Counter()
    for order in itertools.permutations(range(6)):
        cards = [hidden[i] for i in order]
        if order[0] < order[1] and order[2] < order[3] and order[4] < order[5]:  # each seat's copies once
            expected[tuple(tuple(sorted(cards[k : k + 2], key=reversis.card_id)) for k in (0, 2, 4))] += 1
    assert sum(expected.values()) == 90
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    draws = 2700
    seen = collections.Counter(hands(state.resample_from_infostate(0, sampler))[1:] for _ in range(draws))
    assert set(seen) == set(expected)
    chi2 = sum((seen[k] - draws * w / 90) ** 2 / (draws * w / 90) for k, w in expected.items())
    assert chi2 < 3 * len(expected) + 20, chi2


def test_resampling_knows_who_holds_the_opening_card_before_the_first_lead() -> None:
    # PLAY-1: the seat to move before the first lead holds the 2C, whoever else the seat sees.
    rng = random.Random(12)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for hand_number in (0, 3):  # after the pass to the left, and in a hand that holds
        game = load("hearts-4", hand_number=hand_number)
        state = game.new_initial_state()
        while state.is_chance_node() or state.game.phase == "pass":
            random_step(state, rng)
        leader = state.current_player()
        for seat in range(4):
            for _ in range(5):
                sampled = state.resample_from_infostate(seat, sampler)
                consistent(state, sampled, seat)
                assert "2C" in sampled.game.hand(leader)


def start_with(preset_rules: Any, hands: list[list[str]], plays: list[str]) -> Any:
    """A one-hand game of a custom ruleset dealt ``hands``, with ``plays`` made."""
    game = load("hearts-4", ruleset=json.dumps(preset_rules.to_json()))
    state = game.new_initial_state()
    for action in deal_order(preset_rules, hands):
        state.apply_action(action)
    for card in plays:
        state.apply_action(reversis.card_id(card))
    return state


def test_resampling_knows_a_heart_lead_before_hearts_are_broken_shows_a_hand_of_hearts() -> None:
    # Seven players, no passing, a free lead: seat 1 (left of the dealer) holds seven hearts and
    # leads one while hearts are unbroken, which PLAY-6 allows only to a hand of hearts.
    rules = reversis.preset("hearts-7").replace(passing=None, opening_card=None)
    deck = list(rules.deck)
    hearts = [c for c in deck if c[1] == "H"]
    rest = [c for c in deck if c[1] != "H"]
    random.Random(5).shuffle(rest)
    hands = [rest[0:7], hearts[:7], hearts[7:] + rest[7:8], rest[8:15], rest[15:22], rest[22:29], rest[29:36]]
    state = start_with(rules, hands, ["5H"])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    where: collections.Counter[int] = collections.Counter()
    for _ in range(40):
        sampled = state.resample_from_infostate(3, sampler)
        consistent(state, sampled, 3)
        assert all(c[1] == "H" for c in sampled.game.hand(1))
        where[next(s for s in range(7) if "AH" in sampled.game.hand(s))] += 1
    # The ace of hearts, unseen by seat 3, may be with seat 1 or elsewhere.
    assert 1 in where and len(where) > 1


def test_resampling_knows_a_point_card_on_the_first_trick_shows_a_hand_of_point_cards() -> None:
    # Seven players, no passing: seat 4 holds six hearts and QS, cannot follow the 2C and plays a
    # heart, which the first-trick ban allows only to a hand of point cards (PLAY-5). QS, unseen
    # by seat 6, may be with seat 4 or elsewhere; no other spade may.
    rules = reversis.preset("hearts-7").replace(passing=None)
    deck = list(rules.deck)
    seat4 = ["2H", "3H", "4H", "5H", "6H", "7H", "QS"]
    rest = [c for c in deck if c not in seat4 and c != "2C"]
    random.Random(9).shuffle(rest)
    seat6 = [c for c in rest if c[1] != "H"][:7]  # seat 6 sees none of the other hearts
    rest = [c for c in rest if c not in seat6]
    hands = [["2C", *rest[:6]], rest[6:13], rest[13:20], rest[20:27], seat4, rest[27:34], seat6]
    plays = ["2C"]
    for s in (1, 2, 3):
        # Each follows suit where it can, else discards a card worth nothing.
        clubs = sorted((c for c in hands[s] if c[1] == "C"), key=reversis.card_id)
        plays.append(clubs[0] if clubs else next(c for c in hands[s] if c not in rules.point_cards))
    plays.append("4H")
    state = start_with(rules, hands, plays)
    assert state.current_player() == 5
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with_queen = 0
    for _ in range(40):
        sampled = state.resample_from_infostate(6, sampler)
        consistent(state, sampled, 6)
        assert set(sampled.game.hand(4)) <= set(rules.point_cards)
        with_queen += "QS" in sampled.game.hand(4)
    assert 0 < with_queen < 40


def hands(state: Any) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(state.game.hand(s)) for s in range(state.num_players()))


def test_resampling_draws_every_layout_the_core_counts_alike() -> None:
    # Late in a hand without passing, the hidden cards of the resampled states are the layouts
    # the core's sampler counts (voids and what legal play reveals included), each as often.
    from reversis import _core

    rules = reversis.preset("hearts-4").replace(passing=None)
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    tested = 0
    for _ in range(40):
        state = start_with(rules, [list(h) for h in reversis.deal_from_seed(rules, rng.getrandbits(32))[0]], [])
        while state.game.phase == "play" and len(state.game.hand(0)) > 2:
            random_step(state, rng)
        if state.game.phase != "play":
            continue
        seat = state.current_player()
        count = _core.count_consistent(rules, state.game.observation(seat))
        if not 3 <= count <= 12:
            continue
        draws = 80 * count
        seen = collections.Counter(hands(state.resample_from_infostate(seat, sampler)) for _ in range(draws))
        assert len(seen) == count
        expected = draws / count
        chi2 = sum((k - expected) ** 2 / expected for k in seen.values())
        assert chi2 < 3 * count + 20, (chi2, count)
        tested += 1
        if tested == 3:
            break
    assert tested >= 2


# ----------------------------------------------------------------------------- OpenSpiel's bots and algorithms


def play_out(game: Any, bots: list[Any], rng: Any) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())


@pytest.mark.parametrize("preset", ["hearts-3", "hartenjagen"])
def test_openspiel_bots_and_algorithms_run(preset: str) -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, outcome_sampling_mccfr, random_agent

    game = load(preset)
    n = game.num_players()

    def within(returns: list[float]) -> None:
        assert len(returns) == n
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)

    randoms = [pyspiel.make_uniform_random_bot(p, 50 + p) for p in range(n)]
    # C++ MCTS (on the true state: it sees every hand) against uniform random bots.
    searcher = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 20, 100, False, 2, False)
    within(pyspiel.evaluate_bots(game.new_initial_state(), [searcher, *randoms[1:]], 3))
    # Python MCTS through Python's evaluate_bots.
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(4))
    py_searcher = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=np.random.RandomState(5))
    bots = [*randoms[:-1], py_searcher]
    within(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(6)))
    # Python ISMCTS, which samples the hidden cards with resample_from_infostate.
    is_searcher = ismcts.ISMCTSBot(game, evaluator, 10.0, 15, random_state=np.random.RandomState(7))
    within(play_out(game, [is_searcher, *randoms[1:]], np.random.RandomState(8)))
    # The reinforcement-learning environment with random agents, on the information-state tensors.
    env = rl_environment.Environment(game, seed=9)
    agents = [random_agent.RandomAgent(player_id=p, num_actions=106) for p in range(n)]
    step = env.reset()
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([agents[player].step(step).action])
    within(step.rewards)
    # A few iterations of outcome-sampling MCCFR (Python and C++), keyed by information states.
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(5):
        solver.iteration()
    cpp_solver = pyspiel.OutcomeSamplingMCCFRSolver(game)
    for _ in range(5):
        cpp_solver.run_iteration()


def test_openspiel_algorithms_run_on_two_packs() -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, outcome_sampling_mccfr, random_agent

    game = load("cancellation-6")
    n = game.num_players()

    def within(returns: list[float]) -> None:
        assert len(returns) == n
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)

    randoms = [pyspiel.make_uniform_random_bot(p, 60 + p) for p in range(n)]
    searcher = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 4, 100, False, 2, False)
    within(pyspiel.evaluate_bots(game.new_initial_state(), [searcher, *randoms[1:]], 3))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(4))
    py_searcher = mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=np.random.RandomState(5))
    within(
        evaluate_bots.evaluate_bots(game.new_initial_state(), [*randoms[:-1], py_searcher], np.random.RandomState(6))
    )
    # Python ISMCTS, which samples the hidden copies with resample_from_infostate, plays a hand.
    is_searcher = ismcts.ISMCTSBot(game, evaluator, 10.0, 4, random_state=np.random.RandomState(7))
    sampler = pyspiel.UniformProbabilitySampler(8, 0.0, 1.0)
    is_searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    within(play_out(game, [is_searcher, *randoms[1:]], np.random.RandomState(8)))
    env = rl_environment.Environment(game, seed=9)
    agents = [random_agent.RandomAgent(player_id=p, num_actions=106) for p in range(n)]
    step = env.reset()
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([agents[player].step(step).action])
    within(step.rewards)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    cpp_solver = pyspiel.OutcomeSamplingMCCFRSolver(game)
    for _ in range(3):
        cpp_solver.run_iteration()


def test_the_example_runs() -> None:
    result = subprocess.run(
        [sys.executable, "examples/openspiel_bot.py", "1", "hearts-3", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "seat 0 mean return" in result.stdout
    assert result.stdout.count("mean return") == 3
    # ISMCTS resamples two packs as well: the example plays a two-pack preset.
    two_packs = subprocess.run(
        [sys.executable, "examples/openspiel_bot.py", "1", "cancellation-6", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert two_packs.returncode == 0, two_packs.stderr
    assert two_packs.stdout.startswith("cancellation-6: 1 hands")
    assert two_packs.stdout.count("mean return") == 6
    refused = subprocess.run(
        [sys.executable, "examples/openspiel_bot.py", "1", "no-such-preset", "8"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert refused.returncode == 2, refused.stderr
    assert "invalid choice" in refused.stderr and "Traceback" not in refused.stderr
