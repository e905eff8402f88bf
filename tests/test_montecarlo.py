"""The Monte Carlo player (``reversis.players.MonteCarloPlayer``): legal in every phase and
preset, deterministic for a seed, and a function of its observation alone (001 ¶9)."""

from __future__ import annotations

import copy
import inspect
import json

import pytest

import reversis
from reversis import _core
from reversis.players import MonteCarloPlayer, Observation, Player, act_for, observe

#: Every preset, those of two packs (RS-21) included.
PRESETS = reversis.preset_names()
TWO_PACKS = [name for name in PRESETS if len(set(reversis.preset(name).deck)) < len(reversis.preset(name).deck)]


def play_hand(name: str, seed: int) -> list[dict]:
    """One full hand of Monte Carlo players; every action is applied, so each must be legal."""
    game = reversis.Game(reversis.preset(name), seed)
    players = [MonteCarloPlayer(rollouts=4, seed=seed * 7 + s) for s in range(game.ruleset.players)]
    actions = []
    hand = game.hand_number
    while game.phase != "over" and game.hand_number == hand:
        actions.append(act_for(game, players))
    return actions


@pytest.mark.parametrize("name", PRESETS)
def test_legal_in_every_phase_of_a_hand(name: str) -> None:
    actions = play_hand(name, 3)
    rules = reversis.preset(name)
    plays = [a for a in actions if a["type"] == "play"]
    assert len(plays) == len(rules.deck)
    if rules.passing is not None:
        assert any(a["type"] == "pass" for a in actions)


def test_deterministic_for_a_seed() -> None:
    assert play_hand("hearts-4", 11) == play_hand("hearts-4", 11)


def test_a_decision_depends_on_the_observation_only() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 8, hand_number=3)
    for _ in range(9):
        game.play(game.legal_plays()[0])
    obs = observe(game, game.to_move)
    copied = Observation(obs.ruleset, json.loads(json.dumps(obs.data)))
    del game
    a = MonteCarloPlayer(rollouts=50, seed=5).act(obs)
    b = MonteCarloPlayer(rollouts=50, seed=5).act(Observation(copied.ruleset, copy.deepcopy(copied.data)))
    assert a == b
    assert a["card"] in obs.legal
    assert list(inspect.signature(MonteCarloPlayer.act).parameters) == ["self", "observation"]
    assert issubclass(MonteCarloPlayer, Player) and MonteCarloPlayer.name == "montecarlo"


def test_works_with_the_reference_engine_ruleset() -> None:
    from reversis import reference

    game = reference.Game(reference.preset("hearts-4"), 4, hand_number=3)
    for _ in range(6):
        game.play(game.legal_plays()[0])
    obs = observe(game, game.to_move)
    assert MonteCarloPlayer(rollouts=10, seed=1).act(obs)["card"] in obs.legal


def test_monte_carlo_play_refuses_a_seat_not_to_move() -> None:
    rules = reversis.preset("hearts-4")
    game = reversis.Game(rules, 8, hand_number=3)
    game.play(game.legal_plays()[0])
    other = (game.to_move + 1) % 4
    with pytest.raises(reversis.InvalidInputError):
        _core.monte_carlo_play(rules, game.observation(other), 5, 0)


def test_passes_and_moon_choices_are_the_rule_based_players() -> None:
    """Only the card play is Monte Carlo; the pass and the moon choice defer to the rules."""
    from reversis.players import RuleBasedPlayer

    game = reversis.Game(reversis.preset("hearts-4"), seed=17)
    obs = observe(game, 2)
    assert MonteCarloPlayer(seed=1).act(obs) == RuleBasedPlayer(1).act(obs)


@pytest.mark.parametrize(("rollouts", "seed"), [(0, 1), (-1, 1), (10**7, 1), ("many", 1), (5, -1), (5, 2**64)])
def test_monte_carlo_play_rejects_bad_counts_and_seeds(rollouts: object, seed: object) -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 3, hand_number=3)
    with pytest.raises(reversis.InvalidInputError) as caught:
        _core.monte_carlo_play(game.ruleset, game.observation(game.to_move), rollouts, seed)
    assert caught.value.code == "invalid-setup"


@pytest.mark.parametrize("samples", [-1, 10**6, 2.5])
def test_sample_hidden_rejects_bad_counts(samples: object) -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 3, hand_number=3)
    with pytest.raises(reversis.InvalidInputError) as caught:
        _core.sample_hidden(game.ruleset, game.observation(0), samples, 1)
    assert caught.value.code == "invalid-setup"


def test_two_pack_presets_are_among_those_played() -> None:
    """The cancellation presets (RS-21, RS-22) are in the legality test above."""
    assert {"cancellation-6", "cancellation-8", "cancellation-10"} <= set(TWO_PACKS)


@pytest.mark.parametrize("name", TWO_PACKS)
def test_two_pack_layouts_hold_every_copy(name: str) -> None:
    """The sampled layouts of a two-pack hand hold the hidden copies: each card as many times as
    the deck has it, between the layout and the cards played."""
    game = reversis.Game(reversis.preset(name), 5, hand_number=2)
    players = [MonteCarloPlayer(rollouts=2, seed=s) for s in range(game.ruleset.players)]
    for _ in range(len(game.ruleset.deck) // 2):
        act_for(game, players)
    seat = game.to_act
    data = game.observation(seat)
    played = [p["card"] for t in data["tricks"] for p in t["cards"]] + [p["card"] for p in data["trick"]]
    deck = sorted(game.ruleset.deck)
    for layout in _core.sample_hidden(game.ruleset, data, 5, 1):
        assert sorted(played + [c for hand in layout for c in hand]) == deck
        assert sorted(layout[seat]) == sorted(data["hand"])
