"""The learning recipes of examples/learning: short seeded runs that must learn, and their bookkeeping.

A recipe "learns" when the paired 95% interval of (points per hand after training − before),
computed here from the per-deal points the recipe returns, lies wholly below zero. The tests
skip when the ``learn`` extra is missing, and fail instead under ``REVERSIS_REQUIRE_LEARN=1``.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import reversis
from helpers import require_learn

ROOT = Path(__file__).resolve().parents[1]
LEARNING = ROOT / "examples" / "learning"


def recipe(name: str, *needs: str) -> ModuleType:
    """The recipe ``examples/learning/<name>.py`` as a module, once its extra's modules import."""
    require_learn("numpy", "torch", *needs)
    if str(LEARNING) not in sys.path:
        sys.path.insert(0, str(LEARNING))
    return importlib.import_module(name)


def paired_interval(before: Any, after: Any) -> tuple[float, float]:
    """The 95% interval of the mean of after − before (normal approximation), deal by deal."""
    differences = [float(b) - float(a) for a, b in zip(before, after)]
    assert len(differences) == len(before) == len(after) > 100
    mean = sum(differences) / len(differences)
    variance = sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)
    half = 1.96 * math.sqrt(variance / len(differences))
    return mean - half, mean + half


# --------------------------------------------------------------------------- PPO over VectorEnv


def test_ppo_learns_to_take_fewer_points_against_random_players() -> None:
    ppo = recipe("ppo_vector")
    args = ppo.parser().parse_args(
        [
            *("--decisions", "40000", "--num-envs", "64", "--rollout", "32", "--hidden", "64,64", "--lr", "1e-3"),
            *("--eval-games", "250", "--eval-hands", "4", "--eval-every", "1000000", "--seed", "3"),
        ]
    )
    result = ppo.train(args)
    assert result.decisions >= 40_000
    low, high = paired_interval(result.before, result.after)
    assert high < 0, (result.before.mean(), result.after.mean(), low, high)


@pytest.mark.parametrize("rewards", ["trick", "hand"])
def test_ppo_credits_each_seat_its_own_rewards(rewards: str) -> None:
    """Four seats share each game's buffers: every seat's decisions of an episode add up to minus its score."""
    ppo = recipe("ppo_vector")
    np = pytest.importorskip("numpy")
    ruleset = reversis.preset("hearts-4")
    games, players = 8, 4
    env = reversis.VectorEnv(ruleset, games, 5, rewards=rewards)
    current, mask = np.asarray(env.current_player), np.asarray(env.legal_action_mask)
    observation, terminated = np.asarray(env.observation), np.asarray(env.terminated)
    env_rewards, scores = np.asarray(env.rewards), np.asarray(env.episode_scores)
    decisions = ppo.Decisions(games * 400, games, players)
    rng = np.random.default_rng(0)
    episode = np.zeros(games, dtype=int)
    owner: list[tuple[int, int, int]] = []  # (game, seat, episode) of each decision, kept by the test
    expected: dict[tuple[int, int, int], float] = {}
    for step in range(300):
        rows = np.arange(games)
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        owner += [(int(i), int(current[i]), int(episode[i])) for i in rows]
        decisions.add(
            step,
            rows,
            current.copy(),
            observation=observation,
            mask=mask,
            action=actions,
            logprob=np.zeros(games),
            value=np.zeros(games),
        )
        env.step(actions)
        decisions.collect(env_rewards.copy(), terminated.copy())
        for i in np.flatnonzero(terminated):
            for seat in range(players):
                expected[(int(i), seat, int(episode[i]))] = -float(scores[i, seat])
            episode[i] += 1
    assert len(expected) >= 2 * games * players
    credited: dict[tuple[int, int, int], float] = defaultdict(float)
    for index, key in enumerate(owner):
        credited[key] += float(decisions.reward[index])
        following = decisions.next[index]
        if following >= 0:  # a seat's next decision is its own, in the same game and episode
            assert owner[following] == key
        assert decisions.done[index] == (following < 0 and key in expected)
    for key, total in expected.items():
        assert credited[key] == pytest.approx(total), key


def test_ppo_advantages_are_each_seats_returns_when_undiscounted() -> None:
    """With gamma = lambda = 1, advantage + value is the sum of a seat's rewards to the end of its hand."""
    ppo = recipe("ppo_vector")
    np = pytest.importorskip("numpy")
    games, players = 4, 4
    env = reversis.VectorEnv(reversis.preset("hearts-computer"), games, 11, rewards="trick")
    current, mask = np.asarray(env.current_player), np.asarray(env.legal_action_mask)
    terminated, env_rewards = np.asarray(env.terminated), np.asarray(env.rewards)
    decisions = ppo.Decisions(games * 200, games, players)
    rng = np.random.default_rng(1)
    for step in range(150):
        rows = np.arange(games)
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        values = rng.normal(size=games).astype(np.float32)
        decisions.add(step, rows, current.copy(), mask=mask, action=actions, logprob=np.zeros(games), value=values)
        env.step(actions)
        decisions.collect(env_rewards.copy(), terminated.copy())
    chosen, advantage, returns = decisions.advantages(1.0, 1.0)
    reward, done, following = decisions.reward, decisions.done, decisions.next
    checked = 0
    for index, adv, ret in zip(chosen, advantage, returns):
        total, k = 0.0, int(index)
        while True:
            total += float(reward[k])
            if done[k] or following[k] < 0:
                break
            k = int(following[k])
        if done[k]:  # the seat's hand ended within the rollout: the return is exact
            assert ret == pytest.approx(total, abs=1e-4)
            assert adv == pytest.approx(total - float(decisions.value[index]), abs=1e-4)
            checked += 1
    assert checked > games * players * 8


def test_ppo_rules_opponents_take_points_off_an_untrained_policy() -> None:
    ppo = recipe("ppo_vector")
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    ruleset = reversis.preset("hearts-computer")
    policy = ppo.Policy([32], ppo.input_scale(ruleset))
    deals = {"games": 250, "hands": 4, "seed": 9}
    against_random = ppo.evaluate(policy, ruleset, opponents="random", **deals)
    against_rules = ppo.evaluate(policy, ruleset, opponents="rules", **deals)
    low, _ = paired_interval(against_random, against_rules)
    assert low > 0
    args = ppo.parser().parse_args(
        ["--seats", "0", "--opponents", "rules", "--decisions", "2000", "--eval-games", "50"]
    )
    assert ppo.train(args).decisions >= 2000


def test_ppo_league_plays_each_game_against_one_kind_of_opponent(tmp_path: Path) -> None:
    ppo = recipe("ppo_vector")
    np = pytest.importorskip("numpy")
    from reversis.players.learned import SHIPPED_WEIGHTS

    ruleset = reversis.preset("hearts-computer")
    games = 6
    env = reversis.VectorEnv(ruleset, games, 3)
    league = ppo.Opponents(f"random,{SHIPPED_WEIGHTS}", seed=1)
    network = reversis._core.LearnedPolicy.from_file(SHIPPED_WEIGHTS)
    observation, mask = np.asarray(env.observation), np.asarray(env.legal_action_mask)
    differ = 0
    for _ in range(60):
        ids = league.choose(env, mask, np.arange(games))
        for game, action_id in enumerate(ids):
            assert mask[game, action_id]
            networks = network.decide(observation[game].tolist(), np.flatnonzero(mask[game]).tolist())
            if game % 2:
                assert action_id == networks, game
            else:
                differ += action_id != networks
        env.step(ids.tolist())
    assert differ > 10  # the even games are the random player's
    # Only some games asked: each keeps its own kind.
    odd = league.choose(env, mask, np.array([1, 3]))
    assert odd.tolist() == [network.decide(observation[g].tolist(), np.flatnonzero(mask[g]).tolist()) for g in (1, 3)]
    # The evaluation meets the rule-based player where the league has it, else the random one.
    assert ppo.eval_opponents(ppo.parser().parse_args(["--opponents", f"{SHIPPED_WEIGHTS},rules"])) == "rules"
    assert ppo.eval_opponents(ppo.parser().parse_args(["--opponents", f"random,{SHIPPED_WEIGHTS}"])) == "random"
    with pytest.raises(SystemExit):
        ppo.parser().parse_args(["--opponents", "rules,search"])
    with pytest.raises(SystemExit, match=r"missing\.rvnn"):
        ppo.Opponents(f"rules,{tmp_path / 'missing.rvnn'}", seed=0)


def test_ppo_refuses_a_seat_the_table_lacks() -> None:
    ppo = recipe("ppo_vector")
    args = ppo.parser().parse_args(["--seats", "0,4", "--decisions", "10"])
    with pytest.raises(SystemExit, match="'4' is not a seat of 0 to 3"):
        ppo.train(args)


def test_ppo_starts_from_its_own_checkpoint(tmp_path: Path) -> None:
    ppo = recipe("ppo_vector")
    torch = pytest.importorskip("torch")
    saved = tmp_path / "run.pt"
    args = ["--decisions", "300", "--num-envs", "16", "--hidden", "24", "--eval-games", "20", "--save", str(saved)]
    ppo.train(ppo.parser().parse_args(args))
    assert ppo.init_hidden(saved) == [24]
    policy = ppo.Policy(ppo.init_hidden(saved), ppo.input_scale(reversis.preset("hearts-computer")))
    ppo.load_init(saved, policy, None)
    state = torch.load(saved, weights_only=True)["policy"]
    for name, value in policy.state_dict().items():
        assert torch.equal(value, state[name]), name
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"not a checkpoint")
    with pytest.raises(SystemExit, match=r"not a \.rvnn network nor a checkpoint"):
        ppo.init_hidden(garbage)


def test_exported_network_gives_the_logits_of_the_torch_policy(tmp_path: Path) -> None:
    ppo = recipe("ppo_vector")
    from reversis.players import learned

    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    torch.manual_seed(4)
    ruleset = reversis.preset("hearts-computer")
    policy = ppo.Policy([48, 32], ppo.input_scale(ruleset))
    path = tmp_path / "policy.rvnn"
    ppo.export_rvnn(policy, path, {"preset": ruleset.name})
    # The reference: the same network with the input scale folded in and every value rounded to
    # binary16, as the file stores it.
    layers = []
    for k, layer in enumerate(policy.linears()):
        weights = layer.weight.detach().double() * (policy.scale.double()[None, :] if k == 0 else 1.0)
        layers.append((weights.half().double(), layer.bias.detach().half().double()))
    env = reversis.VectorEnv(ruleset, 32, 2)
    rows = torch.as_tensor(np.array(env.observation), dtype=torch.float64)
    expected = rows
    for k, (weights, biases) in enumerate(layers):
        expected = expected @ weights.T + biases
        if k < len(layers) - 1:
            expected = expected.relu()
    reloaded = ppo.Policy([48, 32], ppo.input_scale(ruleset))
    ppo.load_init(path, reloaded, None)
    with torch.no_grad():
        got = reloaded(rows.float()).double()
    assert torch.allclose(got, expected, rtol=1e-4, atol=1e-4)
    core = getattr(reversis._core, "LearnedPolicy", None)
    if core is not None:  # the Rust forward pass reads the same file
        network = core(path.read_bytes())
        for row, want in zip(np.asarray(env.observation)[:4], expected[:4]):
            assert np.allclose(network.logits(row.tolist()), want.numpy(), rtol=1e-3, atol=1e-3)
    assert learned is not None


# --------------------------------------------------------------------------- MaskablePPO on PettingZoo


def test_sb3_self_play_learns_to_take_fewer_points_against_random_players() -> None:
    sb3 = recipe("sb3_pettingzoo", "sb3_contrib", "pettingzoo", "gymnasium")
    args = sb3.parser().parse_args(
        [*("--timesteps", "16384", "--num-envs", "4", "--n-steps", "256", "--hidden", "64,64", "--lr", "1e-3")]
        + [*("--eval-deals", "600", "--seed", "2")]
    )
    outcome = sb3.run(args)
    low, high = paired_interval(outcome.before, outcome.after)
    assert high < 0, (outcome.before.mean(), outcome.after.mean(), low, high)


def test_sb3_wrapper_returns_what_its_seat_collects_until_it_acts_again() -> None:
    """The model's seat turns hand by hand, and per-trick rewards add up to minus its hand's score."""
    sb3 = recipe("sb3_pettingzoo", "sb3_contrib", "pettingzoo", "gymnasium")
    np = pytest.importorskip("numpy")
    for rewards in ("trick", "hand"):
        env = sb3.make_env("hearts-4", rewards, seed=7)
        rng = np.random.default_rng(0)
        for hand in range(8):
            observation, _ = env.reset()
            seat = env.possible_agents.index(env.learner)
            assert seat == hand % 4
            total, ended = 0.0, False
            while not ended:
                assert observation.shape == (1435,)
                assert env.env.agent_selection == env.learner
                legal = np.flatnonzero(env.action_mask())
                observation, reward, ended, truncated, _ = env.step(int(rng.choice(legal)))
                assert not truncated
                total += reward
            assert total == -env.env.unwrapped.game.last_hand["scores"][seat]


# --------------------------------------------------------------------------- TorchRL


def test_torchrl_wraps_the_aec_environment_and_plays_whole_hands() -> None:
    check = recipe("torchrl_check", "torchrl", "tensordict", "pettingzoo")
    hands = check.run(4, "hearts-computer", seed=3)
    assert len(hands) == 4
    for rewards in hands:
        # hearts-computer deals 26 points a hand, 78 to the others when one seat takes them all.
        assert sum(rewards) in (-26.0, -78.0)


# --------------------------------------------------------------------------- imitation of the search player


def test_imitation_records_a_pass_as_the_vector_env_presents_its_selects() -> None:
    imitate = recipe("imitate_search")
    np = pytest.importorskip("numpy")
    ruleset = reversis.preset("hearts-computer")
    seed = 21
    # Game 0's first episode of a VectorEnv seeded with ``seed`` is this game (API-11 Seeds).
    recorded = imitate.record_hand(ruleset, reversis.episode_seed(seed, 0, 0), 0, playouts=20)
    encodings, legal, chosen, right, score = (
        recorded[key] for key in ("observation", "legal", "chosen", "right", "score")
    )
    env = reversis.VectorEnv(ruleset, 1, seed)
    observation, mask = np.asarray(env.observation), np.asarray(env.legal_action_mask)
    terminated = np.asarray(env.terminated)
    acting = []
    for k, action_id in enumerate(chosen):
        assert (observation[0] == encodings[k]).all(), k
        assert (mask[0] == legal[k]).all(), k
        assert legal[k][action_id] and right[k][action_id]
        acting.append(int(np.asarray(env.current_player)[0]))
        env.step([int(action_id)])
    assert terminated[0]
    # Each decision carries the hand's score of the seat that made it.
    scores = np.asarray(env.episode_scores)[0]
    assert score.tolist() == [int(scores[seat]) for seat in acting]
    assert sorted(set(score.tolist())) == sorted(set(int(v) for v in scores))
    selects = (chosen >= 52) & (chosen < 104)
    assert selects.sum() == 12  # hand 0 passes left: four seats select three cards each
    # The right ids of a seat's three selects are its pass, then what remains of it.
    assert [int(r.sum()) for r in right[selects]] == [3, 2, 1] * 4


def test_imitation_follows_a_network_while_the_search_labels_its_positions() -> None:
    imitate = recipe("imitate_search")
    np = pytest.importorskip("numpy")
    from reversis.players.learned import SHIPPED_WEIGHTS

    ruleset = reversis.preset("hearts-computer")
    network = reversis._core.LearnedPolicy.from_file(SHIPPED_WEIGHTS)
    recorded = imitate.record_hand(ruleset, 7, 1, playouts=20, follow=str(SHIPPED_WEIGHTS))
    encodings, legal, chosen, right = (recorded[key] for key in ("observation", "legal", "chosen", "right"))
    # Every id applied is the network's choice in that position, every label a legal one.
    for encoding, mask, action_id in zip(encodings, legal, chosen):
        assert network.decide(encoding.tolist(), np.flatnonzero(mask).tolist()) == action_id
    assert (right & ~legal).sum() == 0 and right.any(axis=1).all()
    # The search's answer is recorded where the network plays otherwise.
    assert ((right.sum(axis=1) == 1) & ~right[np.arange(len(chosen)), chosen]).any()
    # Without it the search's own choices are applied: another hand.
    assert not np.array_equal(imitate.record_hand(ruleset, 7, 1, playouts=20)["chosen"], chosen)


def test_imitation_records_the_searchs_estimates_beside_the_same_decisions() -> None:
    imitate = recipe("imitate_search")
    np = pytest.importorskip("numpy")
    ruleset = reversis.preset("hearts-computer")
    plain = imitate.record_hand(ruleset, 9, 1, playouts=200)
    recorded = imitate.record_hand(ruleset, 9, 1, playouts=200, estimates=True)
    assert plain.keys() | {"estimate"} == recorded.keys()
    for key, column in plain.items():
        assert np.array_equal(column, recorded[key]), key
    estimate, legal, chosen = recorded["estimate"], recorded["legal"], recorded["chosen"]
    cards = (chosen < 52) & (legal.sum(axis=1) > 1)
    # Every legal card of a choice between cards has an estimate, nothing else does: not the
    # selects of a pass, not a forced card.
    assert np.array_equal(np.isfinite(estimate), legal & cards[:, None])
    assert cards.sum() > 20 and (~cards).sum() >= 3 + 13
    # The search plays a card of (nearly) the least estimated margin: each card is estimated on
    # a share of the playouts that chose it, so a near tie may go either way.
    rows = estimate[cards].astype(float)
    least = np.nanmin(rows, axis=1)
    played = rows[np.arange(len(rows)), chosen[cards]]
    assert (played - least <= 0.5).mean() > 0.9
    # Margins are points against the others' mean: within a hand's points (26, the moon included).
    assert np.nanmax(np.abs(rows)) <= 26 * 4 / 3


def test_the_soft_loss_is_least_at_the_searchs_distribution() -> None:
    imitate = recipe("imitate_search")
    torch = pytest.importorskip("torch")
    legal = torch.tensor([[True, True, True, False]])
    margins = torch.tensor([[0.0, 1.0, 1.0, 0.0]])
    # At temperature 1 the target is (1, e^-1, e^-1) / (1 + 2 e^-1) over the three legal cards.
    z = 1 + 2 * math.exp(-1)
    target = [1 / z, math.exp(-1) / z, math.exp(-1) / z]
    entropy = -sum(p * math.log(p) for p in target)
    matching = imitate.soft_loss(torch.tensor([[0.0, -1.0, -1.0, 50.0]]), legal, margins, 1.0)
    assert float(matching) == pytest.approx(entropy, rel=1e-5)
    uniform = imitate.soft_loss(torch.zeros(1, 4), legal, margins, 1.0)
    assert float(uniform) == pytest.approx(math.log(3), rel=1e-5) and float(uniform) > float(matching)
    # A cooler temperature puts the target on the best card alone.
    cold = imitate.soft_loss(torch.tensor([[10.0, 0.0, 0.0, 0.0]]), legal, margins, 0.01)
    assert float(cold) < 1e-3


def test_imitation_of_the_searchs_estimates_learns_and_starts_where_told(tmp_path: Path) -> None:
    imitate = recipe("imitate_search")
    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    ruleset = reversis.preset("hearts-computer")
    data = imitate.generate(ruleset.name, 40, playouts=50, seed=2, jobs=1, estimates=True)
    torch.manual_seed(2)
    untrained = imitate.Policy([64, 64], imitate.input_scale(ruleset))
    trained, _ = imitate.train(data, ruleset, [64, 64], epochs=4, lr=1e-3, seed=2, temperature=0.5)
    deals = {"opponents": "random", "games": 250, "hands": 4, "seed": 78}
    before = imitate.evaluate(untrained, ruleset, **deals)
    after = imitate.evaluate(trained, ruleset, **deals)
    low, high = paired_interval(before, after)
    assert high < 0, (before.mean(), after.mean(), low, high)
    # Started from a network and not moved (a learning rate of 0), the network is that one.
    path = tmp_path / "start.rvnn"
    imitate.export_rvnn(trained, path, {"preset": ruleset.name})
    again, _ = imitate.train(data, ruleset, [64, 64], epochs=1, lr=0.0, seed=3, temperature=0.5, init=path)
    rows = torch.as_tensor(data["observation"][:200]).float()
    with torch.no_grad():
        assert torch.allclose(again(rows), trained(rows), rtol=1e-2, atol=1e-2)
    # A network without a value gives a learner with one its policy; the value starts afresh.
    valued, _ = imitate.train(data, ruleset, [64, 64], epochs=1, lr=0.0, seed=3, value_weight=1.0, init=path)
    with torch.no_grad():
        outputs = valued.outputs(rows)
        assert outputs.shape[1] == imitate.NUM_ACTIONS + 1
        assert torch.allclose(outputs[:, : imitate.NUM_ACTIONS], trained(rows), rtol=1e-2, atol=1e-2)
    with pytest.raises(SystemExit, match="fit"):
        imitate.train(data, ruleset, [32], epochs=1, lr=1e-3, seed=3, init=path)
    # Estimates are needed for --soft; data without them join as decisions without estimates.
    plain = {key: column for key, column in data.items() if key != "estimate"}
    with pytest.raises(SystemExit, match="--estimates"):
        imitate.train(plain, ruleset, [8], epochs=1, lr=1e-3, seed=1, temperature=0.5)
    meta = {"ruleset": ruleset.name}
    joined, _ = imitate.join([(data, meta), (plain, meta)])
    assert len(joined["estimate"]) == 2 * len(data["estimate"])
    assert np.isnan(joined["estimate"][len(data["estimate"]) :].astype(float)).all()


def test_imitation_data_sets_join_with_their_hands_kept_apart() -> None:
    imitate = recipe("imitate_search")
    np = pytest.importorskip("numpy")
    first = {"hand": np.array([0, 0, 1]), "score": np.array([3, 3, 9])}
    second = {"hand": np.array([0, 2]), "score": np.array([26, 0])}
    meta = {"ruleset": "hearts-computer"}
    data, ruleset = imitate.join([(first, meta), (second, meta)])
    assert ruleset == "hearts-computer"
    assert data["hand"].tolist() == [0, 0, 1, 2, 4] and data["score"].tolist() == [3, 3, 9, 26, 0]
    with pytest.raises(SystemExit, match="differ"):
        imitate.join([(first, meta), (second, {"ruleset": "hearts-4"})])
    with pytest.raises(SystemExit, match="one --data"):
        imitate.main(["--data", "a.npz", "--data", "b.npz", "--data-only"])


def test_imitation_data_do_not_depend_on_the_number_of_jobs() -> None:
    imitate = recipe("imitate_search")
    np = pytest.importorskip("numpy")
    one = imitate.generate("hearts-computer", 3, playouts=10, seed=5, jobs=1)
    two = imitate.generate("hearts-computer", 3, playouts=10, seed=5, jobs=2)
    assert one.keys() == two.keys()
    for key in one:
        assert np.array_equal(one[key], two[key]), key


def test_imitation_of_the_search_player_beats_the_untrained_network(tmp_path: Path) -> None:
    imitate = recipe("imitate_search")
    torch = pytest.importorskip("torch")
    ruleset = reversis.preset("hearts-computer")
    data_path = tmp_path / "search.npz"
    imitate.save(data_path, imitate.generate(ruleset.name, 40, playouts=50, seed=1, jobs=1), ruleset.name, 50, 1)
    data, meta = imitate.load(data_path)
    assert meta["ruleset"] == ruleset.name and meta["playouts"] == 50
    torch.manual_seed(1)
    untrained = imitate.Policy([64, 64], imitate.input_scale(ruleset))
    trained, history = imitate.train(data, ruleset, [64, 64], epochs=4, lr=1e-3, seed=1)
    assert history[-1][1] > 0.3  # the network often picks a card the search picked
    deals = {"opponents": "random", "games": 250, "hands": 4, "seed": 77}
    before = imitate.evaluate(untrained, ruleset, **deals)
    after = imitate.evaluate(trained, ruleset, **deals)
    low, high = paired_interval(before, after)
    assert high < 0, (before.mean(), after.mean(), low, high)
    # With a value head: exported as format version 2, the Rust value is the torch one, and it
    # predicts the hands' scores better than their mean does.
    valued, _ = imitate.train(data, ruleset, [64, 64], epochs=4, lr=1e-3, seed=1, value_weight=1.0)
    path = tmp_path / "valued.rvnn"
    imitate.export_rvnn(valued, path, {"preset": ruleset.name})
    network = reversis._core.LearnedPolicy.from_file(path)
    assert network.has_value and path.read_bytes()[4] == 2
    rows = torch.as_tensor(data["observation"][:300]).float()
    with torch.no_grad():
        values = valued.outputs(rows)[:, imitate.NUM_ACTIONS].numpy()
    rust = [network.value(row.tolist()) for row in data["observation"][:300]]
    assert max(abs(a - b) for a, b in zip(rust, values)) < 0.05 * (1 + abs(values).max())
    # Read back into a network with a value, the value is the same; into one without, dropped.
    scale = imitate.hand_points(ruleset)
    reloaded = imitate.Policy([64, 64], imitate.input_scale(ruleset), value=True, value_scale=scale)
    recipe("ppo_vector").load_init(path, reloaded, None)
    with torch.no_grad():
        again = reloaded.outputs(rows)[:, imitate.NUM_ACTIONS].numpy()
    assert max(abs(again - values)) < 0.05 * (1 + abs(values).max())
    plain = imitate.Policy([64, 64], imitate.input_scale(ruleset))
    recipe("ppo_vector").load_init(path, plain, None)
    with torch.no_grad():
        assert torch.allclose(plain(rows), reloaded(rows), rtol=1e-4, atol=1e-4)
    hands = data["hand"][:300]
    score = data["score"][:300].astype(float)
    assert len(set(hands.tolist())) >= 4
    error = abs(values - score).mean()
    assert error < abs(score - data["score"].mean()).mean(), error
    with pytest.raises(SystemExit, match="scores"):
        imitate.train(
            {k: v for k, v in data.items() if k != "score"}, ruleset, [8], epochs=1, lr=1e-3, seed=1, value_weight=1.0
        )


def test_a_value_beside_the_policy_leaves_its_logits_as_they_were(tmp_path: Path) -> None:
    beside = recipe("value_beside")
    imitate = recipe("imitate_search")
    from reversis.players import learned

    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    ruleset = reversis.preset("hearts-computer")
    data_path = tmp_path / "hands.npz"
    imitate.save(data_path, imitate.generate(ruleset.name, 30, playouts=20, seed=6, jobs=1), ruleset.name, 20, 6)
    torch.manual_seed(6)
    policy_path, packed_path = tmp_path / "policy.rvnn", tmp_path / "valued.rvnn"
    imitate.export_rvnn(imitate.Policy([48, 32], imitate.input_scale(ruleset)), policy_path, {"preset": ruleset.name})
    argv = ["--network", str(policy_path), "--data", str(data_path), "--hidden", "16,8", "--epochs", "6"]
    assert beside.main([*argv, "--check-rows", "100", "--export", str(packed_path)]) == 0
    policy = reversis._core.LearnedPolicy.from_file(policy_path)
    packed = reversis._core.LearnedPolicy.from_file(packed_path)
    assert packed.has_value and not policy.has_value
    assert [shape[1] for shape in packed.layers] == [48 + 16, 32 + 8, imitate.NUM_ACTIONS + 1]
    data, _ = imitate.load(data_path)
    rows = data["observation"][:: max(1, len(data["observation"]) // 60)]
    for row in rows:
        assert packed.logits(row.tolist()) == policy.logits(row.tolist())
    # The value is the tower's (up to the file's binary16), and it tells the scores apart better
    # than their mean does on the hands it was fitted to.
    tower, _, _ = beside.fit(data, ruleset, [16, 8], epochs=6, lr=1e-3, seed=0)
    with torch.no_grad():
        values = tower(torch.as_tensor(data["observation"]).float()).numpy()
    repacked = tmp_path / "repacked.rvnn"
    learned.write_weights(repacked, beside.beside(beside.rvnn_layers(policy_path), tower.layers()))
    network = reversis._core.LearnedPolicy.from_file(repacked)
    rust = np.array([network.value(row.tolist()) for row in rows])
    chosen = values[:: max(1, len(data["observation"]) // 60)]
    assert np.abs(rust - chosen).max() < 0.02 * (1 + np.abs(chosen).max())
    score = data["score"].astype(float)
    assert np.abs(values - score).mean() < np.abs(score - score.mean()).mean()
    with pytest.raises(SystemExit, match="value already"):
        beside.main([*argv, "--network", str(packed_path), "--export", str(tmp_path / "again.rvnn")])
    with pytest.raises(SystemExit, match="hidden layers"):
        beside.main([*argv, "--hidden", "16", "--export", str(tmp_path / "shallow.rvnn")])
    assert not (tmp_path / "again.rvnn").exists() and not (tmp_path / "shallow.rvnn").exists()


# --------------------------------------------------------------------------- the learning curve


def test_plot_curve_draws_the_csv_logs_as_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    if str(LEARNING) not in sys.path:
        sys.path.insert(0, str(LEARNING))
    plot = importlib.import_module("plot_curve")
    logs = []
    for name, points in (("ppo", [7.0, 5.1, 4.2]), ("imitation", [4.5, 4.0, 3.8])):
        path = tmp_path / f"{name}.csv"
        rows = [f"{k * 1000},{k * 2.5},{p},0.3" for k, p in enumerate(points)]
        path.write_text("decisions,seconds,eval_points,eval_ci95\n" + "\n".join(rows) + "\n")
        logs.append(path)
    out = tmp_path / "curve.svg"
    assert plot.main([*map(str, logs), "--out", str(out)]) == 0
    text = out.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "ppo" in text and "imitation" in text
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(SystemExit, match=r"bad\.csv"):
        plot.main([str(bad), "--out", str(tmp_path / "x.svg")])
