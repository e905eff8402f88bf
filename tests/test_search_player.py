"""The search player (``reversis.players.SearchPlayer``, ``_core.search_play``): legal in every
phase and preset, deterministic for a seed, a function of its observation alone (001 ¶9), its
playout policy the rule-based player's, and its tournament registration."""

from __future__ import annotations

import inspect
import json
import random
from typing import Any

import pytest

import reversis
from reversis import _core
from reversis.commands import tournament
from reversis.players import Observation, Player, RandomPlayer, RuleBasedPlayer, SearchPlayer, act_for, observe

#: Every preset, those of two packs (RS-21) included.
PRESETS = reversis.preset_names()
TWO_PACKS = [name for name in PRESETS if len(set(reversis.preset(name).deck)) < len(reversis.preset(name).deck)]


def play_hand(name: str, seed: int, hand_number: int, playouts: int = 40) -> list[dict[str, Any]]:
    """One hand, search players at the even seats and rule-based ones at the odd.

    Every action is applied, so each must be legal.
    """
    game = reversis.Game(reversis.preset(name), seed, hand_number=hand_number)
    players: list[Player] = [
        SearchPlayer(playouts=playouts, seed=seed * 7 + s) if s % 2 == 0 else RuleBasedPlayer(s)
        for s in range(game.ruleset.players)
    ]
    actions = []
    while game.phase != "over" and game.hand_number == hand_number:
        actions.append(act_for(game, players))
    return actions


@pytest.mark.parametrize("name", PRESETS)
def test_legal_in_every_phase_of_a_hand(name: str) -> None:
    rules = reversis.preset(name)
    for hand_number in (0, 1):
        actions = play_hand(name, 3 + hand_number, hand_number)
        plays = [a for a in actions if a["type"] == "play"]
        assert len(plays) == len(rules.deck)
        if rules.passing is not None:
            passes = [a for a in actions if a["type"] == "pass"]
            assert len(passes) == rules.players
            assert all(len(a["cards"]) == rules.passing["size"] for a in passes)


def all_clubs_game(name: str) -> Any:
    """A hold hand in which seat 0 holds every club, leads them all and takes every trick."""
    game = reversis.Game(reversis.preset(name), None, hand_number=3)
    ranks = "23456789TJQKA"
    game.deal(
        [
            [r + "C" for r in ranks],
            [r + "D" for r in ranks[:9]] + ["2H", "3H", "4H", "5H"],
            [r + "D" for r in ranks[9:]] + [r + "H" for r in ranks[4:]],
            [r + "S" for r in ranks],
        ]
    )
    players = [SearchPlayer(playouts=30, seed=s) for s in range(4)]
    while game.phase == "play":
        act_for(game, players)
    return game


@pytest.mark.parametrize("name", ["hearts-4", "omnibus-4"])
def test_a_moon_taker_makes_a_legal_choice(name: str) -> None:
    game = all_clubs_game(name)
    assert game.phase == "moon" and game.moon_taker == 0
    action = SearchPlayer(seed=1).act(observe(game, 0))
    assert action["type"] == "moon" and action["seat"] == 0
    # At 0 each, adding to the others brings the end nearer for the seat that leads.
    assert action["choice"] == "add-to-others"
    game.apply(action)
    assert game.hand_scores[-1] == [0, 26, 26, 26] or name == "omnibus-4"


def test_the_moon_choice_reads_the_match_totals() -> None:
    game = all_clubs_game("hearts-4")
    data = dict(game.observation(0), scores=[90, 80, 80, 60])
    # Adding 26 would end the match with seat 3 lowest: the taker subtracts instead.
    assert _core.search_play(game.ruleset, data, 1, playouts=1) == [105]
    data["scores"] = [30, 80, 80, 80]
    assert _core.search_play(game.ruleset, data, 1, playouts=1) == [104]


def test_deterministic_for_a_seed() -> None:
    assert play_hand("hearts-computer", 11, 0, 150) == play_hand("hearts-computer", 11, 0, 150)


def test_the_seed_is_used() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 21, hand_number=3)
    for _ in range(4):
        game.play(game.legal_plays()[0])
    obs = game.observation(game.to_move)
    # One layout per candidate and round: the draws decide, so the seeds disagree somewhere.
    chosen = {tuple(_core.search_play(game.ruleset, obs, s, playouts=len(obs["legal"]))) for s in range(40)}
    assert len(chosen) > 1


def swapped_deal(seed: int, seat: int, plays: int) -> tuple[Any, Any]:
    """Two games equal for ``seat``: the second deal swaps two cards of two other seats; both replay the actions."""
    rules = reversis.preset("hearts-computer")
    first = reversis.Game(rules, seed, hand_number=3)
    players = [RandomPlayer(seed * 10 + s) for s in range(4)]
    actions = [act_for(first, players) for _ in range(plays)]
    record = first.to_record()
    deal = record["actions"][0]["hands"]
    rng = random.Random(seed)
    others = [s for s in range(4) if s != seat]
    for _ in range(500):
        a, b = rng.sample(others, 2)
        i, j = rng.randrange(13), rng.randrange(13)
        hands = [list(h) for h in deal]
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
        second = reversis.Game(rules, None, hand_number=3)
        try:
            second.deal(hands)
            for action in actions:
                second.apply(action)
        except reversis.ReversisError:
            continue
        if [second.hand(s) for s in range(4)] != [first.hand(s) for s in range(4)]:
            return first, second
    raise AssertionError("no swap keeps the plays legal")


@pytest.mark.parametrize(("seed", "plays"), [(1, 0), (2, 9), (3, 22), (4, 37)])
def test_decisions_ignore_cards_hidden_from_the_seat(seed: int, plays: int) -> None:
    rules = reversis.preset("hearts-computer")
    probe = reversis.Game(rules, seed, hand_number=3)
    players = [RandomPlayer(seed * 10 + s) for s in range(4)]
    for _ in range(plays):
        act_for(probe, players)
    seat = probe.to_move
    first, second = swapped_deal(seed, seat, plays)
    assert first.observation(seat) == second.observation(seat)
    for s in range(5):
        a = SearchPlayer(playouts=300, seed=s).act(observe(first, seat))
        b = SearchPlayer(playouts=300, seed=s).act(observe(second, seat))
        assert a == b


def test_a_decision_depends_on_the_observation_only() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 8, hand_number=3)
    for _ in range(9):
        game.play(game.legal_plays()[0])
    obs = observe(game, game.to_move)
    copied = Observation(obs.ruleset, json.loads(json.dumps(obs.data)))
    del game
    assert SearchPlayer(playouts=200, seed=5).act(obs) == SearchPlayer(playouts=200, seed=5).act(copied)
    assert list(inspect.signature(SearchPlayer.act).parameters) == ["self", "observation"]
    assert issubclass(SearchPlayer, Player) and SearchPlayer.name == "search"


def test_works_with_the_reference_engine() -> None:
    from reversis import reference

    game = reference.Game(reference.preset("hearts-4"), 4)
    obs = observe(game, 1)
    action = SearchPlayer(playouts=100, seed=1).act(obs)
    assert action["type"] == "pass" and set(action["cards"]) <= set(obs.hand)
    game.apply(action)


def test_a_time_budget_is_kept() -> None:
    import time

    game = reversis.Game(reversis.preset("hearts-computer"), 5, hand_number=3)
    game.play(game.legal_plays()[0])
    obs = observe(game, game.to_move)
    start = time.perf_counter()
    action = SearchPlayer(time_ms=30, seed=2).act(obs)
    assert time.perf_counter() - start < 2.0  # the clock is read between layouts
    assert action["card"] in obs.legal


def test_the_playout_policy_is_the_rule_based_player() -> None:
    """``_core.search_policy`` (seedless) makes the seedless rule-based player's every pass and play."""
    checked = 0
    for name in PRESETS:
        rules = reversis.preset(name)
        for seed in range(6):
            game = reversis.Game(rules, seed, hand_number=seed % 4)
            rule_based, other = RuleBasedPlayer(), RandomPlayer(seed)
            while game.hand_number == seed % 4 and game.phase in ("pass", "play"):
                seat = game.awaiting_pass[0] if game.phase == "pass" else game.to_move
                obs = observe(game, seat)
                want = rule_based.act(obs)
                assert _core.search_policy(rules, obs.data) == _core.action_ids(want), (name, seed, want)
                checked += 1
                game.apply(want if (seat + seed) % 2 else other.act(obs))
    assert checked > 1500


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"playouts": 0}, {"playouts": -1}, {"playouts": 2.5}, {"playouts": True}, {"time_ms": 0}, {"time_ms": "x"}],
)
def test_search_play_rejects_bad_budgets(kwargs: dict[str, Any]) -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 3, hand_number=3)
    with pytest.raises(reversis.InvalidInputError) as caught:
        _core.search_play(game.ruleset, game.observation(game.to_move), 1, **kwargs)
    assert caught.value.code == "invalid-setup"


def test_search_play_takes_a_search_style_or_none() -> None:
    """No style is the default one; anything but a ``SearchStyle`` is refused by name."""
    game = reversis.Game(reversis.preset("hearts-computer"), 6, hand_number=3)
    obs = game.observation(game.to_move)
    plain = [_core.search_play(game.ruleset, obs, seed, playouts=30) for seed in range(6)]
    assert plain == [
        _core.search_play(game.ruleset, obs, seed, playouts=30, style=_core.SearchStyle()) for seed in range(6)
    ]
    with pytest.raises(reversis.InvalidInputError, match="style is a SearchStyle or None, not") as caught:
        _core.search_play(game.ruleset, obs, 1, playouts=5, style={"objective": "points"})  # type: ignore[arg-type]
    assert caught.value.code == "invalid-setup"


def test_search_play_refuses_a_seat_with_nothing_to_decide() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 8, hand_number=3)
    other = (game.to_move + 1) % 4
    with pytest.raises(reversis.InvalidInputError):
        _core.search_play(game.ruleset, game.observation(other), 0, playouts=5)
    with pytest.raises(ValueError):
        SearchPlayer(playouts=0)


def test_registered_in_the_tournament_with_options() -> None:
    assert tournament.PLAYER_CLASSES["search"] == ("reversis.players.search", "SearchPlayer")
    assert tournament.player_options("search:playouts=300:time_ms=2.5") == ("search", {"playouts": 300, "time_ms": 2.5})
    player = tournament.players.make_player("search:playouts=300", 1, None)
    assert isinstance(player, SearchPlayer) and player.playouts == 300 and player.time_ms is None
    result = tournament.run_tournament(
        ["search:playouts=60", "rules"], ruleset=reversis.preset("hearts-computer"), hands=2, seed=1
    )
    assert result.players == ["search:playouts=60", "rules"]
    for bad in ["search:playouts", "search:depth=3", "search:playouts=0", "rules:playouts=5", "search:seed=1"]:
        with pytest.raises(tournament.TournamentError):
            tournament.run_tournament([bad, "rules"], ruleset=reversis.preset("hearts-computer"), hands=1)


def test_two_pack_presets_are_among_those_played() -> None:
    """The cancellation presets (RS-21, RS-22) are in the legality and policy tests above."""
    assert {"cancellation-6", "cancellation-8", "cancellation-10"} <= set(TWO_PACKS)


def test_a_two_pack_tournament_runs_from_the_command_line() -> None:
    """``reversis tournament`` of the search and rule-based players on a cancellation preset.

    One deal is 62 seatings of two player types at six seats, about 15 s at 4 playouts."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "reversis", "tournament", "--players", "search:playouts=4,rules"]
    command += ["--preset", "cancellation-6", "--hands", "1", "--jobs", "1", "--seed", "1", "--no-progress"]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "preset cancellation-6, 1 deals x 62 seatings" in done.stdout, done.stdout
    assert "search:playouts=4" in done.stdout and "mean pts/hand" in done.stdout


def test_the_objective_is_points_or_match() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), 3, hand_number=3)
    obs = game.observation(game.to_move)
    for objective in ("points", "match"):
        ids = _core.search_play(game.ruleset, obs, 1, playouts=50, style=_core.SearchStyle(objective=objective))
        assert ids[0] in game.legal_actions(game.to_move)
    with pytest.raises(reversis.InvalidInputError) as caught:
        _core.SearchStyle(objective="hand")
    assert caught.value.code == "invalid-setup" and "points or match" in str(caught.value)
    with pytest.raises(ValueError, match="objective"):
        SearchPlayer(objective="win")
    assert tournament.player_options("search:objective=match:playouts=80") == (
        "search",
        {"objective": "match", "playouts": 80},
    )
    player = tournament.players.make_player("search:objective=match", 1, None)
    assert isinstance(player, SearchPlayer) and player.objective == "match"
    for bad in ["search:objective=1", "search:objective=", "search:objective=winning"]:
        with pytest.raises(tournament.TournamentError):
            tournament.run_tournament([bad, "rules"], ruleset=reversis.preset("hearts-computer"), hands=1)


@pytest.mark.parametrize("name", PRESETS)
def test_playing_for_the_match_is_legal_in_every_preset(name: str) -> None:
    rules = reversis.preset(name)
    # Totals near the target (or past it: a count-down hand), where the match decides.
    target = rules.target or 100
    totals = [target - 10 - 3 * seat for seat in range(rules.players)]
    game = reversis.Game(rules, 5, hand_number=1, scores=totals)
    players = [SearchPlayer(playouts=30, seed=seat, objective="match") for seat in range(rules.players)]
    while game.phase != "over" and game.hand_number == 1:
        act_for(game, players)
    assert len(game.hand_scores) == 1


def test_playing_for_the_match_is_reproducible() -> None:
    def match(seed: int) -> list[int]:
        game = reversis.Game(reversis.preset("hearts-computer"), seed, scores=[70, 80, 75, 60])
        players = [SearchPlayer(playouts=40, seed=seat, objective="match") for seat in range(4)]
        while game.phase != "over":
            act_for(game, players)
        return [*game.scores, len(game.hand_scores)]

    assert match(4) == match(4)


RANKS = "23456789TJQKA"


def _takes(trick: list[dict[str, Any]], card: str) -> bool:
    """Whether ``card``, played last to ``trick``, wins it."""
    led = trick[0]["card"][1]
    best = max((p["card"] for p in trick if p["card"][1] == led), key=lambda c: RANKS.index(c[0]))
    return card[1] == led and RANKS.index(card[0]) > RANKS.index(best[0])


@pytest.mark.parametrize("objective", ["points", "match"])
def test_in_a_count_down_hand_the_search_takes_points(objective: str) -> None:
    # MATCH-6: in a count-down hand the points a seat takes lower its total toward zero, the
    # end that wins (MATCH-7), so the last to play to a trick with points takes it when it can.
    rules = reversis.preset("hartenjagen-count-down")
    points = rules.to_json()["card_points"]
    taken = chances = 0
    for seed in range(30):
        game = reversis.Game(rules, seed, hand_number=9, scores=[55, 52, 58, 60])
        players = [RuleBasedPlayer(seat) for seat in range(4)]
        while game.phase == "play":
            obs = observe(game, game.to_move)
            trick = obs.data["trick"]
            winners = [card for card in obs.legal if len(trick) == 3 and _takes(trick, card)]
            if sum(points.get(p["card"], 0) for p in trick) >= 2 and 0 < len(winners) < len(obs.legal):
                assert obs.data["count_down"] is True
                ids = _core.search_play(
                    rules, obs.data, seed, playouts=200, style=_core.SearchStyle(objective=objective)
                )
                taken += _takes(trick, _core.action_from_ids(ids, obs.seat)["card"])
                chances += 1
            act_for(game, players)
    assert chances > 50
    assert taken >= 0.8 * chances, f"took {taken} of {chances} tricks with points"


def test_reversis_play_seats_the_search_playing_for_the_match() -> None:
    from reversis.commands.play.game import make_players

    players, label = make_players(4, "search", 100)
    assert players[0] is None and label == "search (playing for the match)"
    assert all(isinstance(p, SearchPlayer) and p.objective == "match" for p in players[1:])


def test_the_search_goes_on_for_the_moon_where_the_rule_based_player_never_does() -> None:
    # SCORE-2: a seat that has taken every point card so far may do better taking the rest than
    # ducking. The rule-based player (the playouts' model) always ducks; the search also tries
    # each card going for the moon, so over hold hands against rule-based players it shoots.
    rules = reversis.preset("hearts-computer")
    shots = {}
    for label in ("search", "never shooting", "rules"):
        shots[label] = 0
        for seed in range(400):
            game = reversis.Game(rules, seed, hand_number=3)
            first: Player = (
                RuleBasedPlayer(0)
                if label == "rules"
                else SearchPlayer(playouts=300, seed=seed, shoot=label == "search")
            )
            players = [first, *(RuleBasedPlayer(s) for s in (1, 2, 3))]
            while game.hand_number == 3:
                act_for(game, players)
            scores = game.hand_scores[-1]
            shots[label] += scores[0] == 0 and min(scores[1:]) == 26
    assert shots["rules"] == 0
    assert shots["search"] >= shots["never shooting"] + 5, shots


def test_shoot_is_a_switch() -> None:
    with pytest.raises(TypeError, match="shoot must be True or False"):
        SearchPlayer(shoot=1)  # type: ignore[arg-type]
    assert tournament.player_options("search:shoot=false:playouts=9") == ("search", {"shoot": False, "playouts": 9})
    with pytest.raises(tournament.TournamentError, match="shoot=true or shoot=false"):
        tournament.player_options("search:shoot=no")


def test_defend_is_a_switch_that_plays_another_search() -> None:
    """``defend``: reproducible hands, not the default search's (the Rust tests check that it
    changes only decisions where another seat could still run)."""
    with pytest.raises(TypeError, match="defend must be True or False"):
        SearchPlayer(defend="yes")  # type: ignore[arg-type]
    assert tournament.player_options("search:defend=true") == ("search", {"defend": True})
    with pytest.raises(tournament.TournamentError, match="defend=true or defend=false"):
        tournament.player_options("search:defend=1")
    with pytest.raises(ValueError, match="defending against the moon plays another seat's run to the end of the hand"):
        SearchPlayer(defend=True, leaves="learned")
    from reversis.players.learned import SHIPPED_WEIGHTS

    network = _core.LearnedPolicy.from_file(SHIPPED_WEIGHTS)
    with pytest.raises(reversis.InvalidInputError, match="invalid setup: defending against the moon"):
        _core.SearchStyle(leaves=network, defend=True)
    defended = [first_hand(seed, playouts=60, defend=True) for seed in range(4)]
    assert defended == [first_hand(seed, playouts=60, defend=True) for seed in range(4)]
    assert defended != [first_hand(seed, playouts=60) for seed in range(4)]


def test_weigh_passes_is_a_switch_that_plays_another_search() -> None:
    """``weigh_passes``: reproducible hands, not the default search's (the Rust tests check that
    it changes only decisions after a pass, and how a receipt is weighed)."""
    with pytest.raises(TypeError, match="weigh_passes must be True or False"):
        SearchPlayer(weigh_passes=1)  # type: ignore[arg-type]
    assert tournament.player_options("search:weigh_passes=true") == ("search", {"weigh_passes": True})
    with pytest.raises(ValueError, match="no weigh_passes"):
        SearchPlayer(playouts=20, weigh_passes=True).act_reviewed(
            observe(reversis.Game(reversis.preset("hearts-4"), 1), 0)
        )
    weighed = [first_hand(seed, playouts=60, weigh_passes=True) for seed in range(4)]
    assert weighed == [first_hand(seed, playouts=60, weigh_passes=True) for seed in range(4)]
    assert weighed != [first_hand(seed, playouts=60) for seed in range(4)]


def first_hand(seed: int, **options: Any) -> list[dict[str, Any]]:
    """The actions of hand 0 of ``hearts-computer`` (a pass to the left), four search players of ``options``."""
    game = reversis.Game(reversis.preset("hearts-computer"), seed, hand_number=0)
    players: list[Player] = [SearchPlayer(seed=seed + s, **options) for s in range(4)]
    actions = []
    while game.hand_number == 0:
        actions.append(act_for(game, players))
    return actions


def test_rollouts_by_a_network_play_legally_and_are_reproducible() -> None:
    """``rollouts="learned"`` hands the playouts to the shipped network: legal passes and plays
    in a hand with a pass, the same for the same seed, and not the rule-based playouts' choices."""
    learned = [first_hand(seed, playouts=30, rollouts="learned") for seed in range(3)]
    assert learned == [first_hand(seed, playouts=30, rollouts="learned") for seed in range(3)]
    assert learned != [first_hand(seed, playouts=30, rollouts="rules") for seed in range(3)]


def test_rollouts_by_a_network_for_the_searcher_alone_are_another_search() -> None:
    """``rollout_seats="searcher"``: the network plays the searcher's own later cards, the
    rule-based policy the others'; reproducible, and neither every seat's network playouts nor
    the rule-based ones."""
    own = [first_hand(seed, playouts=30, rollouts="learned", rollout_seats="searcher") for seed in range(3)]
    assert own == [first_hand(seed, playouts=30, rollouts="learned", rollout_seats="searcher") for seed in range(3)]
    assert own != [first_hand(seed, playouts=30, rollouts="learned") for seed in range(3)]
    assert own != [first_hand(seed, playouts=30) for seed in range(3)]
    assert tournament.player_options("search:rollout_seats=searcher:rollouts=learned") == (
        "search",
        {"rollout_seats": "searcher", "rollouts": "learned"},
    )
    with pytest.raises(ValueError, match="rollout_seats must be one of every, searcher"):
        SearchPlayer(rollout_seats="others")
    # Without a network the option would change nothing.
    with pytest.raises(ValueError, match="without rollouts the rule-based policy plays them all"):
        SearchPlayer(rollout_seats="searcher")
    with pytest.raises(reversis.InvalidInputError, match="unknown rollout seats"):
        _core.SearchStyle(rollout_seats="others")


def test_rollouts_take_any_network_file(tmp_path: Any) -> None:
    """A path reads that network; the shipped file by its path plays as ``"learned"``."""
    from reversis.players.learned import SHIPPED_WEIGHTS

    game = reversis.Game(reversis.preset("hearts-computer"), 4, hand_number=3)
    obs = observe(game, game.to_move)
    by_name = SearchPlayer(playouts=50, seed=1, rollouts="learned").act(obs)
    assert SearchPlayer(playouts=50, seed=1, rollouts=SHIPPED_WEIGHTS).act(obs) == by_name
    copy = tmp_path / "copy.rvnn"
    copy.write_bytes(SHIPPED_WEIGHTS.read_bytes())
    assert SearchPlayer(playouts=50, seed=1, rollouts=str(copy)).act(obs) == by_name


def test_bad_rollouts_are_refused_by_name(tmp_path: Any) -> None:
    with pytest.raises(TypeError, match="rollouts must be 'rules', 'learned' or the path"):
        SearchPlayer(rollouts=3)  # type: ignore[arg-type]
    with pytest.raises(reversis.InvalidInputError, match="cannot read the weight file"):
        SearchPlayer(rollouts=str(tmp_path / "missing.rvnn"))
    broken = tmp_path / "broken.rvnn"
    broken.write_bytes(b"RVNN not a network")
    with pytest.raises(reversis.InvalidInputError) as caught:
        SearchPlayer(rollouts=str(broken))
    assert caught.value.code == "invalid-setup"
    with pytest.raises(reversis.InvalidInputError, match="rollouts is a LearnedPolicy or None, not 'learned'"):
        _core.SearchStyle(rollouts="learned")


def test_rollouts_on_the_command_line() -> None:
    assert tournament.player_options("search:playouts=9:rollouts=learned") == (
        "search",
        {"playouts": 9, "rollouts": "learned"},
    )
    assert tournament.player_options("search:rollouts=nets/a:b.rvnn") == ("search", {"rollouts": "nets/a:b.rvnn"})
    result = tournament.run_tournament(
        ["search:playouts=20:rollouts=learned", "rules"], ruleset=reversis.preset("hearts-computer"), hands=1, seed=2
    )
    assert result.players == ["search:playouts=20:rollouts=learned", "rules"]


def test_leaves_by_the_value_play_legally_and_are_reproducible() -> None:
    """``leaves="learned"`` ends a card's playouts at the searcher's next decision, scored by the
    shipped network's value: legal whole hands, the same for the same seed, and other choices than
    the playouts played to the end."""
    valued = [first_hand(seed, playouts=40, leaves="learned") for seed in range(3)]
    assert valued == [first_hand(seed, playouts=40, leaves="learned") for seed in range(3)]
    assert valued != [first_hand(seed, playouts=40) for seed in range(3)]
    assert tournament.player_options("search:playouts=9:leaves=nets/a:b.rvnn") == (
        "search",
        {"playouts": 9, "leaves": "nets/a:b.rvnn"},
    )


def test_leaves_need_a_value_the_points_and_one_pack(tmp_path: Any) -> None:
    from reversis.players.learned import SHIPPED_WEIGHTS, write_weights

    with pytest.raises(TypeError, match="leaves must be 'learned' or the path"):
        SearchPlayer(leaves=3)  # type: ignore[arg-type]
    plain = tmp_path / "plain.rvnn"
    write_weights(plain, [([[0.0] * 1435] * 106, [0.0] * 106, "identity")])
    with pytest.raises(ValueError, match="has no value"):
        SearchPlayer(leaves=str(plain))
    # "rules" names no network: read as a path, not taken for playouts to the end.
    with pytest.raises(reversis.InvalidInputError, match="cannot read the weight file rules"):
        SearchPlayer(leaves="rules")
    game = reversis.Game(reversis.preset("hearts-computer"), 5, hand_number=3)
    obs = game.observation(game.to_move)
    network = _core.LearnedPolicy.from_file(SHIPPED_WEIGHTS)
    with pytest.raises(reversis.InvalidInputError, match="objective points") as caught:
        _core.search_play(game.ruleset, obs, 1, playouts=5, style=_core.SearchStyle(objective="match", leaves=network))
    assert caught.value.code == "invalid-setup"
    with pytest.raises(reversis.InvalidInputError, match="has no value"):
        _core.SearchStyle(leaves=_core.LearnedPolicy.from_file(plain))
    with pytest.raises(reversis.InvalidInputError, match="leaves is a LearnedPolicy or None, not 'learned'"):
        _core.SearchStyle(leaves="learned")
    two_packs = reversis.Game(reversis.preset("cancellation-6"), 5, hand_number=3)
    while two_packs.phase != "play":
        act_for(two_packs, [SearchPlayer(playouts=5, seed=s) for s in range(6)])
    with pytest.raises(reversis.InvalidInputError, match="one pack"):
        _core.search_play(
            two_packs.ruleset,
            two_packs.observation(two_packs.to_move),
            1,
            playouts=5,
            style=_core.SearchStyle(leaves=network),
        )
