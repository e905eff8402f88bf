"""API-11: the vector environment, on each engine that has one.

Every buffer is checked against the per-step games that API-11 says a vector environment plays:
episode ``e`` of game ``i`` is ``Game(ruleset, seed=episode_seed(seed, i, e), hand_number=...)``,
with ``episode_seed`` written here from the spec's formula and SEED-1. The expected rewards,
terminations and episode scores are computed from those games' events (EVT-1), never from the
environment. The Rust-backed environment is also checked against the reference's games.
"""

from __future__ import annotations

import os
import random
import sys
from array import array
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import reversis
from helpers import MASK64, SplitMix64, cid
from reversis import reference
from reversis.encoding import ENCODING_LENGTH, LAYOUT, encode_observation
from reversis.errors import INPUT_CODES
from reversis.players import Observation

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

NUM_ACTIONS = 106
#: A ruleset whose only point card is QS: every hand is a moon, and under taker-choice the taker
#: must choose, so the moon ids and the moon's reward adjustment come up in every hand.
MOON_EVERY_HAND = "moon-every-hand"
HEARTS = [rank + "H" for rank in "23456789TJQKA"]


def rust_engine() -> ModuleType:
    """The Rust-backed engine, or a skip where it has no ``VectorEnv`` (a failure if it is required)."""
    if not hasattr(reversis, "VectorEnv"):
        if os.environ.get("REVERSIS_REQUIRE_RUST"):
            pytest.fail("the Rust engine's VectorEnv is required but reversis has none")
        pytest.skip("the Rust engine has no VectorEnv")
    return reversis


@pytest.fixture(params=["reference", "rust"])
def vec(request: pytest.FixtureRequest) -> ModuleType:
    """The engine whose ``VectorEnv`` is under test."""
    return reference if request.param == "reference" else rust_engine()


def spec_episode_seed(seed: int, index: int, episode: int) -> int:
    """API-11, from the spec's formula: two SplitMix64 draws, products wrapping at 2**64."""
    base = SplitMix64(seed ^ (index * 0x9E3779B97F4A7C15 & MASK64)).next()
    return SplitMix64(base ^ (episode * 0xD1B54A32D192ED69 & MASK64)).next()


def make_ruleset(m: ModuleType, name: str, **changes: Any) -> Any:
    """Preset ``name`` of engine ``m`` (or the moon-every-hand ruleset), with ``changes``."""
    if name == MOON_EVERY_HAND:
        changes = {"card_points": dict.fromkeys(HEARTS, 0), **changes}
        name = "hearts-4"
    ruleset = m.preset(name)
    return ruleset.replace(**changes) if changes else ruleset


def engines_of(m: ModuleType) -> list[ModuleType]:
    """The engines whose per-step games shadow ``m``'s environment: its own, and the reference's."""
    return [m] if m is reference else [m, reference]


def arrays(env: Any) -> dict[str, Any]:
    """A copy of every buffer of ``env``."""
    names = ("current_player", "legal_action_mask", "observation", "rewards", "terminated", "episode_scores")
    return {name: np.array(getattr(env, name)) for name in names}


def assert_same_buffers(first: dict[str, Any], second: dict[str, Any]) -> None:
    assert first.keys() == second.keys()
    for name, buffer in first.items():
        assert buffer.dtype == second[name].dtype, name
        assert np.array_equal(buffer, second[name]), name


def encoded(ruleset: Any, game: Any, seat: int) -> Any:
    """OBS-3 of ``seat``'s observation in ``game``, as an ``int32`` array."""
    return np.array(encode_observation(Observation(ruleset, game.observation(seat))), dtype=np.int32)


def mask_bits(mask: int) -> Any:
    return np.array([(mask >> k) & 1 for k in range(NUM_ACTIONS)], dtype=bool)


def random_legal(env: Any, rng: random.Random) -> list[int]:
    """One legal id per game, chosen from the mask."""
    return [rng.choice(np.flatnonzero(row).tolist()) for row in np.asarray(env.legal_action_mask)]


class PerStep:
    """The per-step games of API-11 for game ``index`` of an environment, in one or more engines."""

    def __init__(self, engines: list[ModuleType], ruleset: Any, seed: int, index: int, episode: str) -> None:
        self.engines = engines
        self.rulesets = [m.Ruleset.from_json(ruleset.to_json()) for m in engines]
        data = ruleset.to_json()
        self.players = data["players"]
        cycle = 1 if data["passing"] is None else len(data["passing"]["cycle"])
        self.rotation = self.players * cycle
        self.seed, self.index, self.kind = seed, index, episode
        self.episode = 0
        self.games = self._start()

    def _start(self) -> list[Any]:
        hand_number = self.episode % self.rotation if self.kind == "hand" else 0
        seed = spec_episode_seed(self.seed, self.index, self.episode)
        return [m.Game(r, seed=seed, hand_number=hand_number) for m, r in zip(self.engines, self.rulesets)]

    @property
    def game(self) -> Any:
        return self.games[0]

    def apply(self, action: int) -> dict[str, Any]:
        """Apply ``action``; the step's expected rewards (both modes), end and scores from the events."""
        for game in self.games:
            game.apply_action(action)
        events = self.game.events
        for other in self.games[1:]:
            assert other.events == events
        hand_rewards = [0] * self.players
        trick_rewards = [0] * self.players
        hand_scored = False
        ended = None
        for event in events:
            if event["type"] == "trick":
                trick_rewards[event["winner"]] -= event["points"]
            elif event["type"] == "hand":
                hand_scored = True
                for seat in range(self.players):
                    hand_rewards[seat] -= event["scores"][seat]
                    trick_rewards[seat] += event["points"][seat] - event["scores"][seat]
                if self.kind == "hand":
                    ended = list(event["scores"])
        if self.kind == "match" and self.game.phase == "over":
            ended = self.game.scores
            assert max(ended) >= self.rulesets[0].target
        if ended is not None:
            self.episode += 1
            self.games = self._start()
        return {"hand": hand_rewards, "trick": trick_rewards, "ended": ended, "hand_scored": hand_scored}

    def check_row(self, env: Any, i: int, *, states: bool = True) -> None:
        """Row ``i`` of ``env``'s decision buffers describes the per-step game's decision.

        With ``states`` also ``env.game(i)`` and the other engines' games, whose ``state()`` is
        too slow to build at every step of every test.
        """
        game = self.game
        seat = game.to_act
        assert seat is not None
        assert np.asarray(env.current_player)[i] == seat
        assert np.array_equal(np.asarray(env.legal_action_mask)[i], mask_bits(game.legal_mask()))
        assert np.array_equal(np.asarray(env.observation)[i], encoded(self.rulesets[0], game, seat))
        assert env.episode_index(i) == self.episode
        if states:
            state = game.state()
            assert env.game(i).state() == state
            for other in self.games[1:]:
                assert other.state() == state


def check_outcome(env: Any, i: int, expected: dict[str, Any]) -> None:
    """Row ``i`` of ``env``'s rewards, ``terminated`` and ``episode_scores`` after a step."""
    players = len(expected["hand"])
    assert np.asarray(env.rewards)[i].tolist() == [float(r) for r in expected[env.rewards_mode]]
    ended = expected["ended"]
    assert bool(np.asarray(env.terminated)[i]) == (ended is not None)
    assert np.asarray(env.episode_scores)[i].tolist() == (ended if ended is not None else [0] * players)


def drive(
    vec: ModuleType, ruleset: Any, *, seed: int, num_envs: int, episode: str, episodes: int, max_steps: int = 1_000
) -> dict[str, int]:
    """Step a ``"hand"``-rewards and a ``"trick"``-rewards environment together with their per-step games.

    Stops once every game has ended ``episodes`` episodes (or after ``max_steps``); returns the
    numbers of episodes ended and of hands scored. Checks every row of both environments after every step, and that
    each hand's trick rewards add up to its hand rewards. The ``"hand"`` environment keeps its history, so that its
    games are compared too; the ``"trick"`` one is built without, as by default.
    """
    envs = [
        vec.VectorEnv(ruleset, num_envs, seed, episode=episode, rewards=mode, history=mode == "hand")
        for mode in ("hand", "trick")
    ]
    assert [env.history for env in envs] == [True, False]
    shadows = [PerStep(engines_of(vec), ruleset, seed, i, episode) for i in range(num_envs)]
    rng = random.Random(seed)
    players = ruleset.players
    for env in envs:
        for i, shadow in enumerate(shadows):
            shadow.check_row(env, i, states=env.history)
        assert not np.asarray(env.terminated).any()
        assert not np.asarray(env.rewards).any()
        assert not np.asarray(env.episode_scores).any()
    ended = [0] * num_envs
    hands = 0
    sums = {mode: [[0.0] * players for _ in range(num_envs)] for mode in ("hand", "trick")}
    decisions = ("current_player", "legal_action_mask", "observation")
    for step in range(max_steps):
        if min(ended) >= episodes:
            break
        actions = random_legal(envs[0], rng)
        for env in envs:
            env.step(actions)
        # The reward mode changes nothing but the rewards: the trick env's decisions are the hand env's.
        for name in decisions:
            assert np.array_equal(np.asarray(getattr(envs[0], name)), np.asarray(getattr(envs[1], name))), name
        for i, shadow in enumerate(shadows):
            expected = shadow.apply(actions[i])
            shadow.check_row(envs[0], i, states=step % 8 == 0 or expected["ended"] is not None)
            for env in envs:
                check_outcome(env, i, expected)
                row = np.asarray(env.rewards)[i].tolist()
                sums[env.rewards_mode][i] = [a + b for a, b in zip(sums[env.rewards_mode][i], row)]
            if expected["hand_scored"]:
                hands += 1
                assert sums["trick"][i] == sums["hand"][i]
                sums["trick"][i] = [0.0] * players
                sums["hand"][i] = [0.0] * players
            if expected["ended"] is not None:
                ended[i] += 1
    for env in envs:
        for i, shadow in enumerate(shadows):
            shadow.check_row(env, i, states=env.history)
    return {"ended": sum(ended), "hands": hands}


# --------------------------------------------------------------------------- seeds


def test_episode_seed_is_the_formula_of_api_11(vec: ModuleType) -> None:
    function = getattr(vec, "episode_seed", None)
    if function is None:
        pytest.skip("the engine exports no episode_seed")
    cases = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (MASK64, 65_535, 12_345), (2024, 3, 7)]
    for seed, index, episode in cases:
        assert function(seed, index, episode) == spec_episode_seed(seed, index, episode)
    # The first draw of SEED-1 from seed 0 is one of spec/seeding.md's vectors.
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


# --------------------------------------------------------------------------- against the per-step games


RULESETS = [*reversis.preset_names(), MOON_EVERY_HAND]


@pytest.mark.parametrize("name", RULESETS)
def test_hand_episodes_match_the_per_step_games(vec: ModuleType, name: str) -> None:
    ruleset = make_ruleset(vec, name)
    # hearts-4 goes on through several episodes: hand numbers, dealers and pass directions rotate.
    num_envs, episodes = (2, 3) if name == "hearts-4" else (1, 1)
    counts = drive(vec, ruleset, seed=100 + len(name), num_envs=num_envs, episode="hand", episodes=episodes)
    assert counts["ended"] == counts["hands"] >= num_envs * episodes


@pytest.mark.parametrize("name", RULESETS)
def test_match_episodes_match_the_per_step_games(vec: ModuleType, name: str) -> None:
    # A low target ends matches within a hand or a few, so that the reset to hand 0 is crossed;
    # hearts-4 plays matches of several hands, a few hundred steps.
    ruleset = make_ruleset(vec, name, target=40 if name == "hearts-4" else 12)
    num_envs = 2 if name == "hearts-4" else 1
    counts = drive(vec, ruleset, seed=200 + len(name), num_envs=num_envs, episode="match", episodes=1)
    assert counts["ended"] >= num_envs
    if name == "hearts-4":
        assert counts["hands"] > counts["ended"]  # a match of several hands, its totals carried on


def test_trick_rewards_of_a_hand_sum_to_its_hand_rewards(vec: ModuleType) -> None:
    ruleset = make_ruleset(vec, MOON_EVERY_HAND)
    players = ruleset.players
    envs = {mode: vec.VectorEnv(ruleset, 3, 99, rewards=mode, history=True) for mode in ("hand", "trick")}
    rng = random.Random(5)
    totals = {mode: np.zeros((3, players)) for mode in envs}
    adjusted = ended = 0
    while ended < 3:
        actions = random_legal(envs["hand"], rng)
        for mode, env in envs.items():
            env.step(actions)
            totals[mode] += np.asarray(env.rewards)
        terminated = np.asarray(envs["hand"].terminated)
        assert np.array_equal(terminated, np.asarray(envs["trick"].terminated))
        assert np.array_equal(np.asarray(envs["hand"].episode_scores), np.asarray(envs["trick"].episode_scores))
        for i in np.flatnonzero(terminated):
            scores = np.asarray(envs["hand"].episode_scores)[i]
            assert np.array_equal(totals["hand"][i], -scores)
            assert np.array_equal(totals["trick"][i], -scores)
            # Only QS scores: the moon rule changes the scores, so the hand's own step pays something.
            adjusted += bool(np.asarray(envs["trick"].rewards)[i].any())
            totals["hand"][i] = totals["trick"][i] = 0
            ended += 1
    assert adjusted == ended


# --------------------------------------------------------------------------- independence


def test_game_i_plays_the_same_whatever_num_envs(vec: ModuleType) -> None:
    ruleset = make_ruleset(vec, "hearts-4")
    small, large = vec.VectorEnv(ruleset, 2, 31, history=True), vec.VectorEnv(ruleset, 5, 31, history=True)
    rng = random.Random(3)
    ended = 0
    for _ in range(100):
        actions = random_legal(small, rng)
        small.step(actions)
        large.step(actions + random_legal(large, rng)[2:])
        rows = {name: buffer[:2] for name, buffer in arrays(large).items()}
        assert_same_buffers(arrays(small), rows)
        ended += int(np.asarray(small.terminated).sum())
    assert ended >= 2
    for i in range(2):
        assert small.game(i).state() == large.game(i).state()
        assert small.episode_index(i) == large.episode_index(i)


def test_threads_do_not_change_the_results() -> None:
    rust = rust_engine()
    ruleset = rust.preset("hearts-4")
    envs = [rust.VectorEnv(ruleset, 16, 5, threads=threads, rewards="trick", history=True) for threads in (1, 2)]
    assert [env.threads for env in envs] == [1, 2]
    rng = random.Random(8)
    for _ in range(200):
        actions = np.array(random_legal(envs[0], rng), dtype=np.int64)
        for env in envs:
            env.step(actions)
        assert_same_buffers(arrays(envs[0]), arrays(envs[1]))


# --------------------------------------------------------------------------- inspection and reset


def test_inspection(vec: ModuleType) -> None:
    ruleset = make_ruleset(vec, "hartenjagen")
    env = vec.VectorEnv(ruleset, 3, 42, threads=2, episode="match", rewards="trick", history=True)
    assert (env.num_envs, env.seed, env.threads, env.episode, env.rewards_mode) == (3, 42, 2, "match", "trick")
    assert env.ruleset == ruleset
    default = vec.VectorEnv(ruleset, 1, 0)
    assert (default.threads, default.episode, default.rewards_mode) == (1, "hand", "hand")
    for i in range(3):
        assert env.episode_index(i) == 0
        game = env.game(i)
        assert isinstance(game, vec.Game)
        assert game.seed == spec_episode_seed(42, i, 0)
        # A copy: changing it leaves the environment's game alone.
        before = env.game(i).state()
        game.apply_action(game.legal_actions()[0])
        assert env.game(i).state() == before


def test_reset_starts_the_next_episode(vec: ModuleType) -> None:
    ruleset = make_ruleset(vec, "hearts-4")
    env = vec.VectorEnv(ruleset, 2, 17, rewards="trick", history=True)
    rng = random.Random(1)
    while not np.asarray(env.rewards).any():
        env.step(random_legal(env, rng))
    env.reset()
    assert not np.asarray(env.rewards).any()
    assert not np.asarray(env.terminated).any()
    assert not np.asarray(env.episode_scores).any()
    for i in range(2):
        assert env.episode_index(i) == 1
        game = env.game(i)
        assert game.seed == spec_episode_seed(17, i, 1)
        assert game.hand_number == 1  # hand episodes rotate the dealer and the pass direction
        expected = vec.Game(ruleset, seed=spec_episode_seed(17, i, 1), hand_number=1)
        assert game.state() == expected.state()
        assert np.array_equal(np.asarray(env.observation)[i], encoded(ruleset, expected, expected.to_act))


@pytest.mark.parametrize(("name", "rotation"), [("hearts-3", 6), ("hearts-4", 16), ("hartenjagen", 4)])
def test_episodes_rotate_the_hand_number(vec: ModuleType, name: str, rotation: int) -> None:
    # players × the length of the passing cycle, 1 without passing (API-11).
    ruleset = make_ruleset(vec, name)
    hands = vec.VectorEnv(ruleset, 2, 3, history=True)
    matches = vec.VectorEnv(ruleset, 2, 3, episode="match", history=True)
    for episode in range(2 * rotation + 1):
        for i in range(2):
            game = hands.game(i)
            assert hands.episode_index(i) == episode
            assert game.hand_number == episode % rotation
            assert game.seed == spec_episode_seed(3, i, episode)
            assert matches.game(i).hand_number == 0
            assert matches.game(i).seed == game.seed
        hands.reset()
        matches.reset()


# --------------------------------------------------------------------------- errors


def expect_code(vec: ModuleType, code: str, call: Any) -> Any:
    with pytest.raises(vec.ReversisError) as caught:
        call()
    error = caught.value
    assert error.code == code, f"{error.code} ({error}) instead of {code}"
    assert isinstance(error, vec.InvalidInputError if code in INPUT_CODES else vec.IllegalActionError)
    return error


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((0, 1), {}),
        ((65_537, 1), {}),
        ((-1, 1), {}),
        ((True, 1), {}),
        ((2.0, 1), {}),
        (("2", 1), {}),
        ((None, 1), {}),
        ((2, -1), {}),
        ((2, 2**64), {}),
        ((2, None), {}),
        ((2, 1.5), {}),
        ((2, "1"), {}),
        ((2, 1), {"episode": "hands"}),
        ((2, 1), {"episode": None}),
        ((2, 1), {"rewards": "round"}),
        ((2, 1), {"rewards": None}),
        ((2, 1), {"threads": 0}),
        ((2, 1), {"threads": -2}),
        ((2, 1), {"threads": 1.5}),
        ((2, 1), {"threads": "2"}),
        ((2, 1), {"threads": None}),
        ((2, 1), {"history": 1}),
        ((2, 1), {"history": None}),
        ((2, 1), {"history": "yes"}),
        ((2, 1), {"observation_dtype": "bool"}),
        ((2, 1), {"observation_dtype": "float32"}),
        ((2, 1), {"observation_dtype": "int64"}),
        ((2, 1), {"observation_dtype": None}),
        ((2, 1), {"observation_dtype": 8}),
    ],
)
def test_bad_setup_is_invalid_setup(vec: ModuleType, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    ruleset = vec.preset("hearts-4")
    expect_code(vec, "invalid-setup", lambda: vec.VectorEnv(ruleset, *args, **kwargs))


@pytest.mark.parametrize("ruleset", [None, "hearts-4", {"players": 4}])
def test_a_ruleset_that_is_not_one_is_invalid_setup(vec: ModuleType, ruleset: Any) -> None:
    expect_code(vec, "invalid-setup", lambda: vec.VectorEnv(ruleset, 1, 1))


def test_the_bounds_of_num_envs_and_seed_are_accepted(vec: ModuleType) -> None:
    ruleset = vec.preset("hartenjagen")
    assert vec.VectorEnv(ruleset, 1, 2**64 - 1, history=True).game(0).seed == spec_episode_seed(2**64 - 1, 0, 0)
    assert vec.VectorEnv(ruleset, 1, 0, threads=3, history=True).threads == 3


def test_without_history_a_game_is_not_rebuilt(vec: ModuleType) -> None:
    ruleset = vec.preset("hearts-4")
    env = vec.VectorEnv(ruleset, 2, 5)
    assert env.history is False
    assert "history=False" in repr(env)
    error = expect_code(vec, "invalid-setup", lambda: env.game(1))
    assert "history" in str(error)
    expect_code(vec, "invalid-action", lambda: env.game(2))
    kept = vec.VectorEnv(ruleset, 2, 5, history=True)
    assert kept.history is True
    assert "history=True" in repr(kept)
    # The history changes nothing the buffers show.
    rng = random.Random(4)
    for _ in range(80):
        actions = random_legal(env, rng)
        env.step(actions)
        kept.step(actions)
        assert_same_buffers(arrays(env), arrays(kept))
    assert kept.game(0).to_act == np.asarray(env.current_player)[0]


@pytest.mark.parametrize("index", [-1, 3, 2**64, 1.0, None, "0"])
def test_a_bad_index_is_invalid_action(vec: ModuleType, index: Any) -> None:
    env = vec.VectorEnv(vec.preset("hearts-4"), 3, 1, history=True)
    expect_code(vec, "invalid-action", lambda: env.game(index))
    expect_code(vec, "invalid-action", lambda: env.episode_index(index))


def _illegal_ids(env: Any, i: int) -> Iterator[int]:
    """Ids that are not legal for game ``i``: about six, spread over plays, selections and moon ids."""
    illegal = np.flatnonzero(~np.asarray(env.legal_action_mask)[i]).tolist()
    yield from illegal[:: max(1, len(illegal) // 5)]


def assert_rejected(vec: ModuleType, env: Any, actions: Any, code: str, index: int | None) -> None:
    """``env.step(actions)`` raises ``code`` (naming game ``index``) and changes nothing (ERR-1)."""
    before = arrays(env)
    states = [env.game(i).state() for i in range(env.num_envs)]
    episodes = [env.episode_index(i) for i in range(env.num_envs)]
    error = expect_code(vec, code, lambda: env.step(actions))
    if index is not None:
        assert f"game {index}" in str(error)
    assert_same_buffers(before, arrays(env))
    assert [env.game(i).state() for i in range(env.num_envs)] == states
    assert [env.episode_index(i) for i in range(env.num_envs)] == episodes


@pytest.mark.parametrize("name", ["hearts-4", MOON_EVERY_HAND])
def test_a_rejected_step_changes_nothing(vec: ModuleType, name: str) -> None:
    ruleset = make_ruleset(vec, name)
    env = vec.VectorEnv(ruleset, 3, 12, rewards="trick", history=True)
    rng = random.Random(4)
    phases = set()
    for step in range(80):
        legal = random_legal(env, rng)
        # Now and then, and whenever a game is in phase moon (at the end of a hand), which is rare.
        if step % 16 == 0 or np.asarray(env.legal_action_mask)[:, 104].any():
            for count in (0, 2, 4):
                assert_rejected(vec, env, (legal * 2)[:count], "invalid-action", None)
            # Not an id at all: the code is the spec's; only a game's rejection must name the game.
            for bad in (NUM_ACTIONS, -1, 1.5, None, True):
                assert_rejected(vec, env, [*legal[:2], bad], "invalid-action", None)
            for i in range(3):
                probe = env.game(i)
                phases.add(probe.phase)
                for action in _illegal_ids(env, i):
                    with pytest.raises(vec.ReversisError) as own:
                        probe.apply_action(action)
                    actions = list(legal)
                    actions[i] = action
                    assert_rejected(vec, env, actions, own.value.code, i)
        env.step(legal)
    assert phases == ({"pass", "play", "moon"} if name == MOON_EVERY_HAND else {"pass", "play"})


def test_step_takes_any_integer_buffer_or_sequence(vec: ModuleType) -> None:
    ruleset = make_ruleset(vec, "hearts-4")
    forms = [
        tuple,
        lambda ids: np.array(ids, dtype=np.int64),
        lambda ids: np.array(ids, dtype=np.int32),
        lambda ids: np.array(ids, dtype=np.int16),
        lambda ids: np.array(ids, dtype=np.uint8),
        lambda ids: np.array(ids, dtype=np.uint64),
        lambda ids: np.repeat(np.array(ids, dtype=np.int64), 2)[::2],  # not contiguous
        lambda ids: array("q", ids),
    ]
    as_list, other = vec.VectorEnv(ruleset, 3, 77, history=True), vec.VectorEnv(ruleset, 3, 77, history=True)
    rng = random.Random(2)
    for step in range(3 * len(forms)):
        actions = random_legal(as_list, rng)
        as_list.step(actions)
        other.step(forms[step % len(forms)](actions))
        assert_same_buffers(arrays(as_list), arrays(other))
    assert_rejected(vec, other, np.array(random_legal(other, rng), dtype=np.float64), "invalid-action", None)


def test_step_takes_a_sequence_of_numpy_integers(vec: ModuleType) -> None:
    # What indexing a NumPy array gives: integers, though not Python ints.
    ruleset = make_ruleset(vec, "hartenjagen")
    as_list, other = vec.VectorEnv(ruleset, 2, 78, history=True), vec.VectorEnv(ruleset, 2, 78, history=True)
    rng = random.Random(3)
    for _ in range(5):
        actions = random_legal(as_list, rng)
        as_list.step(actions)
        other.step([np.int64(action) for action in actions])
        assert_same_buffers(arrays(as_list), arrays(other))


# --------------------------------------------------------------------------- buffers


@pytest.mark.parametrize(
    ("observation_dtype", "obs_type", "obs_format"), [("int32", np.int32, "i"), ("uint8", np.uint8, "B")]
)
def test_buffers_have_the_formats_and_shapes_of_api_11(
    vec: ModuleType, observation_dtype: str, obs_type: Any, obs_format: str
) -> None:
    ruleset = make_ruleset(vec, "hearts-5")
    env = vec.VectorEnv(ruleset, 4, 3, history=True, observation_dtype=observation_dtype)
    assert env.observation_dtype == observation_dtype
    assert f"observation_dtype={observation_dtype!r}" in repr(env).replace('"', "'")
    expected = {
        "current_player": (np.int32, "i", (4,)),
        "legal_action_mask": (np.bool_, "?", (4, NUM_ACTIONS)),
        "observation": (obs_type, obs_format, (4, ENCODING_LENGTH)),
        "rewards": (np.float32, "f", (4, 5)),
        "terminated": (np.bool_, "?", (4,)),
        "episode_scores": (np.int64, "q", (4, 5)),
    }
    for name, (dtype, fmt, shape) in expected.items():
        buffer = getattr(env, name)
        view = memoryview(buffer)
        assert view.readonly, name
        assert (view.shape, view.format, view.c_contiguous) == (shape, fmt, True), name
        array = np.asarray(buffer)
        assert array.dtype == dtype and array.shape == shape, name
        if vec is not reference:
            assert isinstance(buffer, vec._core.VectorEnvBuffer), name
            # It reads as a memoryview of it does.
            assert (buffer.shape, buffer.ndim, buffer.format) == (view.shape, view.ndim, view.format), name
            assert (buffer.itemsize, buffer.nbytes, buffer.readonly) == (view.itemsize, view.nbytes, True), name
            assert len(buffer) == len(view) == 4, name
            assert buffer.tolist() == view.tolist() and buffer.tobytes() == view.tobytes(), name
            assert buffer.name == name and name in repr(buffer)
            if view.ndim == 1:
                assert buffer[2] == view[2] and list(buffer[1:3]) == list(view[1:3]), name
            # The Rust engine's memory starts on a cache line (API-11).
            assert array.ctypes.data % 64 == 0, name


def test_buffers_are_overwritten_in_place_and_read_only(vec: ModuleType) -> None:
    env = vec.VectorEnv(make_ruleset(vec, "hearts-4"), 3, 9, rewards="trick", history=True)
    views = {name: getattr(env, name) for name in ("current_player", "legal_action_mask", "observation", "rewards")}
    held = {name: np.asarray(view) for name, view in views.items()}
    for name, view in views.items():
        with pytest.raises(TypeError):
            view[(0,) * view.ndim] = view[(0,) * view.ndim]
        assert not held[name].flags.writeable
        with pytest.raises(ValueError):
            held[name][(0,) * view.ndim] = 0
    first = {name: buffer.copy() for name, buffer in held.items()}
    rng = random.Random(6)
    changed = set()
    for _ in range(40):
        env.step(random_legal(env, rng))
        fresh = arrays(env)
        for name, buffer in held.items():
            # What was read before the step shows the step: the environment's own memory.
            assert np.array_equal(buffer, fresh[name]), name
            assert np.array_equal(np.asarray(views[name]), fresh[name]), name
            if not np.array_equal(buffer, first[name]):
                changed.add(name)
    assert changed == set(held)


# --------------------------------------------------------------------------- OBS-2


def _swaps(hands: list[list[str]], a: int, b: int, ruleset: Any) -> list[tuple[list[list[str]], set[str]]]:
    """Deals with a card of seat ``a`` and one of the same suit and value of seat ``b`` swapped.

    Equal suits and values keep every seat's legal plays the same; longer suits come first, as
    their cards can stay hidden longer. At most three.
    """
    values = ruleset.card_points
    found = []
    for x in hands[a]:
        for y in hands[b]:
            if x[1] == y[1] and ruleset.opening_card not in (x, y) and values.get(x, 0) == values.get(y, 0):
                length = min(sum(c[1] == x[1] for c in hands[a]), sum(c[1] == x[1] for c in hands[b]))
                found.append((-length, x, y))
    found.sort()
    deals = []
    for _, x, y in found[:3]:
        swapped = [list(hand) for hand in hands]
        swapped[a] = sorted([c for c in hands[a] if c != x] + [y], key=cid)
        swapped[b] = sorted([c for c in hands[b] if c != y] + [x], key=cid)
        deals.append((swapped, {x, y}))
    return deals


def _compare_hidden(
    vec: ModuleType, ruleset: Any, resets: int, seats: tuple[int, int], swapped: list[list[str]], hidden: set[str]
) -> int:
    """Step a one-game environment beside the per-step games of its deal and of ``swapped``.

    While neither swapped card is played or passed, the row of every acting seat other than the
    two of ``seats`` must be the swapped deal's encoding too. Returns the number of such rows.
    """
    env = vec.VectorEnv(ruleset, 1, 61, history=True)
    for _ in range(resets):
        env.reset()
    start = env.game(0)
    games = [vec.Game(ruleset, hand_number=start.hand_number) for _ in range(2)]
    games[0].deal(start.state()["hands"])
    games[1].deal(swapped)
    hidden_ids = {cid(card) for card in hidden} | {52 + cid(card) for card in hidden}
    rng = random.Random(0)
    compared = 0
    while True:
        seat = int(np.asarray(env.current_player)[0])
        row = np.asarray(env.observation)[0]
        assert np.array_equal(row, encoded(ruleset, games[0], seat))
        if seat not in seats:
            assert games[0].observation(seat) == games[1].observation(seat)
            assert np.array_equal(row, encoded(ruleset, games[1], seat))
            compared += 1
        options = [k for k in np.flatnonzero(np.asarray(env.legal_action_mask)[0]).tolist() if k not in hidden_ids]
        if not options:
            return compared  # a swapped card must now be shown
        action = rng.choice(options)
        env.step([action])
        for game in games:
            game.apply_action(action)


@pytest.mark.parametrize(("name", "resets"), [("hearts-4", 2), ("hartenjagen", 1), ("hearts-5", 0)])
def test_rows_do_not_depend_on_hidden_cards(vec: ModuleType, name: str, resets: int) -> None:
    ruleset = make_ruleset(vec, name)
    env = vec.VectorEnv(ruleset, 1, 61, history=True)
    for _ in range(resets):
        env.reset()
    start = env.game(0)
    seats = ((start.to_act + 1) % ruleset.players, (start.to_act + 2) % ruleset.players)
    deals = _swaps(start.state()["hands"], *seats, ruleset)
    assert deals
    longest = max(_compare_hidden(vec, ruleset, resets, seats, swapped, hidden) for swapped, hidden in deals)
    assert longest >= 8


# --------------------------------------------------------------------------- gymnasium


def test_gymnasium_spaces(vec: ModuleType) -> None:
    ruleset = make_ruleset(vec, "omnibus-4")  # JD counts -10, so points go below zero
    env = vec.VectorEnv(ruleset, 3, 23, history=True)
    single_action, single_observation = env.single_action_space, env.single_observation_space
    assert isinstance(single_action, gym.spaces.Discrete) and single_action.n == NUM_ACTIONS
    assert isinstance(single_observation, gym.spaces.Box)
    assert single_observation.shape == (ENCODING_LENGTH,) and single_observation.dtype == np.int32
    info = np.iinfo(np.int32)
    for name, offset, length in LAYOUT:
        low, high = single_observation.low[offset : offset + length], single_observation.high[offset : offset + length]
        if name in ("points", "scores"):
            assert (low == info.min).all() and (high == info.max).all(), name
        elif name in ("hand", "played", "passed", "received", "selected", "held_over"):
            # OBS-3 version 3: these blocks count a card's copies, two at most (RS-21).
            assert (low == 0).all() and (high == 2).all(), name
        else:
            assert (low == 0).all() and (high == 1).all(), name
    batched_action, batched_observation = env.action_space, env.observation_space
    assert batched_action == gym.vector.utils.batch_space(single_action, 3)
    assert batched_observation == gym.vector.utils.batch_space(single_observation, 3)
    assert batched_observation.shape == (3, ENCODING_LENGTH)
    assert batched_action.shape == (3,)
    rng = random.Random(9)
    single_action.seed(9)
    for _ in range(80):
        observation = np.asarray(env.observation)
        assert batched_observation.contains(observation.copy())
        actions = []
        for i in range(3):
            assert single_observation.contains(observation[i].copy())
            row = np.asarray(env.legal_action_mask)[i]
            action = int(single_action.sample(mask=row.astype(np.int8)))
            assert row[action]
            actions.append(action)
        env.step(actions if rng.random() < 0.5 else np.array(actions))


def test_gymnasium_spaces_without_gymnasium(vec: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    from reversis import spaces as adapter

    env = vec.VectorEnv(vec.preset("hearts-4"), 2, 1, history=True)
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    for name in ("single_action_space", "single_observation_space", "action_space", "observation_space"):
        with pytest.raises(ImportError, match="gymnasium"):
            getattr(env, name)
    for call in (adapter.single_action_space, adapter.single_observation_space, lambda: adapter.batched_spaces(2)):
        with pytest.raises(ImportError, match=r"pip install '\.\[gymnasium\]'"):
            call()


# --------------------------------------------------------------------------- observation dtype


def test_uint8_observations_are_the_int32_ones(vec: ModuleType) -> None:
    # The Rust engine on enough games for runs of a multiple of 64 on its threads (128 and 72);
    # the reference, which steps in Python, on a few.
    num_envs, threads, steps = (200, 2, 300) if vec is not reference else (3, 1, 120)
    for name, episode, changes in [
        ("hearts-4", "hand", {}),
        ("spot-hearts", "hand", {}),  # hearts by rank and QS: 129 points together
        ("cancellation-8", "hand", {}),  # two packs: cards counted twice
        ("hartenjagen-count-down", "match", {"target": 15}),  # into the count-down
        ("black-maria", "match", {"target": 20}),
    ]:
        ruleset = make_ruleset(vec, name, **changes)
        envs = [
            vec.VectorEnv(ruleset, num_envs, 8, episode=episode, threads=threads, observation_dtype=dtype)
            for dtype in ("int32", "uint8")
        ]
        observations = [np.asarray(env.observation) for env in envs]
        assert [o.dtype for o in observations] == [np.int32, np.uint8]
        rng = random.Random(9)
        ended = highest = 0
        for _ in range(steps):
            assert np.array_equal(observations[0], observations[1]), name
            highest = max(highest, int(observations[0].max()))
            actions = random_legal(envs[0], rng)
            for env in envs:
                env.step(actions)
            assert_same_buffers(
                {k: v for k, v in arrays(envs[0]).items() if k != "observation"},
                {k: v for k, v in arrays(envs[1]).items() if k != "observation"},
            )
            ended += int(np.asarray(envs[0].terminated).sum())
        assert ended > 0, name
        assert highest > 2, name  # points and totals, beyond the flags and the counts


#: API-11's rule for ``uint8``, case by case: (preset, changes, episode, the block refused or None).
UINT8_CASES = [
    ("hearts-4", {}, "hand", None),
    # Its moon may subtract from the taker's total.
    ("hearts-4", {}, "match", "scores"),
    # JD is worth -10.
    ("omnibus-4", {}, "hand", "points"),
    ("omnibus-4", {}, "match", "points"),
    # Hearts 13 and QS together: 255 fits, 256 does not.
    ("hearts-4", {"card_points": {"QS": 242}}, "hand", None),
    ("hearts-4", {"card_points": {"QS": 243}}, "hand", "points"),
    # Two packs count each copy.
    ("cancellation-8", {"card_points": {"QS": 114}}, "hand", None),
    ("cancellation-8", {"card_points": {"QS": 115}}, "hand", "points"),
    # A total an observation shows is below the target.
    ("hearts-computer", {"target": 256}, "match", None),
    ("hearts-computer", {"target": 257}, "match", "scores"),
    ("black-maria", {"target": 256}, "match", None),
    ("hearts-4", {"moon": {"scoring": "subtract-from-taker", "bonus": 26}, "target": 50}, "match", "scores"),
    ("hearts-4", {"moon": {"scoring": "subtract-from-taker", "bonus": 26}}, "hand", None),
    # Under count_down, target − 1 plus the most a hand adds: 26, or the bonus where larger.
    ("hearts-computer", {"target": 230, "count_down": True}, "match", None),
    ("hearts-computer", {"target": 231, "count_down": True}, "match", "scores"),
    (
        "hearts-computer",
        {"target": 216, "count_down": True, "moon": {"scoring": "add-to-others", "bonus": 40}},
        "match",
        None,
    ),
    (
        "hearts-computer",
        {"target": 217, "count_down": True, "moon": {"scoring": "add-to-others", "bonus": 40}},
        "match",
        "scores",
    ),
    ("hearts-computer", {"target": 10_000, "count_down": True}, "hand", None),
]


@pytest.mark.parametrize(("name", "changes", "episode", "refused"), UINT8_CASES)
def test_uint8_is_taken_where_every_value_fits(
    vec: ModuleType, name: str, changes: dict[str, Any], episode: str, refused: str | None
) -> None:
    ruleset = make_ruleset(vec, name, **changes)
    assert vec.VectorEnv(ruleset, 1, 0, episode=episode).observation_dtype == "int32"
    if refused is None:
        env = vec.VectorEnv(ruleset, 1, 0, episode=episode, observation_dtype="uint8")
        assert np.asarray(env.observation).dtype == np.uint8
        return
    error = expect_code(
        vec, "invalid-setup", lambda: vec.VectorEnv(ruleset, 1, 0, episode=episode, observation_dtype="uint8")
    )
    assert f"the {refused} block" in str(error)


def test_int32_values_stay_within_uint8_where_it_is_taken() -> None:
    # What the rule lets through never shows outside 0 … 255 in an int32 environment.
    rust = rust_engine()
    seen = 0
    for name in rust.preset_names():
        for episode in ("hand", "match"):
            ruleset = rust.preset(name)
            try:
                rust.VectorEnv(ruleset, 1, 0, episode=episode, observation_dtype="uint8")
            except rust.InvalidInputError:
                continue
            env = rust.VectorEnv(ruleset, 64, 3, episode=episode)
            observation = np.asarray(env.observation)
            rng = np.random.default_rng(4)
            for _ in range(400):
                assert observation.min() >= 0 and observation.max() <= 255, name
                env.step(pick_ids(rng, np.asarray(env.legal_action_mask)))
            seen += 1
    assert seen >= 13 + 4


def pick_ids(rng: Any, mask: Any) -> Any:
    """One uniformly random legal id per row of a mask, in NumPy."""
    return np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)


def test_gymnasium_spaces_follow_the_dtype(vec: ModuleType) -> None:
    env = vec.VectorEnv(make_ruleset(vec, "hearts-4"), 3, 23, observation_dtype="uint8")
    space = env.single_observation_space
    assert space.dtype == np.uint8 and space.shape == (ENCODING_LENGTH,)
    for name, offset, length in LAYOUT:
        high = space.high[offset : offset + length]
        expected = (
            255
            if name in ("points", "scores")
            else 2
            if name in ("hand", "played", "passed", "received", "selected", "held_over")
            else 1
        )
        assert (space.low[offset : offset + length] == 0).all() and (high == expected).all(), name
    assert env.observation_space.dtype == np.uint8 and env.observation_space.shape == (3, ENCODING_LENGTH)
    rng = random.Random(2)
    for _ in range(60):
        assert env.observation_space.contains(np.asarray(env.observation).copy())
        env.step(random_legal(env, rng))


# --------------------------------------------------------------------------- zero copy


BUFFERS = ("current_player", "legal_action_mask", "observation", "rewards", "terminated", "episode_scores")


@pytest.mark.parametrize("observation_dtype", ["int32", "uint8"])
def test_numpy_from_dlpack_shares_the_memory(observation_dtype: str) -> None:
    rust = rust_engine()
    env = rust.VectorEnv(
        rust.preset("hearts-4"), 130, 6, threads=2, rewards="trick", observation_dtype=observation_dtype
    )
    shared = {name: np.from_dlpack(getattr(env, name)) for name in BUFFERS}
    for name, shared_array in shared.items():
        through_buffer = np.asarray(getattr(env, name))
        assert shared_array.ctypes.data == through_buffer.ctypes.data, name
        assert (shared_array.dtype, shared_array.shape) == (through_buffer.dtype, through_buffer.shape), name
        # NumPy asks for DLPack 1.0, and the capsule is flagged read-only.
        assert not shared_array.flags.writeable, name
    assert env.observation.__dlpack_device__() == (1, 0)
    rng = np.random.default_rng(1)
    changed = set()
    for _ in range(80):  # past the end of the first hands (a hand is 52 plays and 12 selections)
        before = {name: shared_array.copy() for name, shared_array in shared.items()}
        env.step(pick_ids(rng, np.asarray(env.legal_action_mask)))
        for name, shared_array in shared.items():
            # The array made before the step shows the step: the environment's own memory.
            assert np.array_equal(shared_array, np.asarray(getattr(env, name))), name
            if not np.array_equal(shared_array, before[name]):
                changed.add(name)
    assert changed == set(BUFFERS)


def test_dlpack_capsules_and_their_arguments() -> None:
    rust = rust_engine()
    env = rust.VectorEnv(rust.preset("hearts-4"), 3, 6, observation_dtype="uint8")
    buffer = env.observation
    assert "dltensor_versioned" in repr(buffer.__dlpack__(max_version=(1, 0)))
    assert "dltensor_versioned" in repr(buffer.__dlpack__(max_version=(1, 3)))
    # A consumer of DLPack before 1.0 gets the unversioned structure.
    assert "dltensor_versioned" not in repr(buffer.__dlpack__())
    assert "dltensor" in repr(buffer.__dlpack__(max_version=(0, 8)))
    legacy = np.from_dlpack(
        type(
            "Legacy",
            (),
            {"__dlpack__": lambda self, **kw: buffer.__dlpack__(), "__dlpack_device__": lambda self: (1, 0)},
        )()
    )
    assert legacy.ctypes.data == np.asarray(buffer).ctypes.data
    # copy=True: a copy of its own, the same values, not the environment's memory.
    copied = np.from_dlpack(buffer, copy=True)
    assert np.array_equal(copied, np.asarray(buffer))
    assert copied.ctypes.data != np.asarray(buffer).ctypes.data
    assert np.from_dlpack(buffer, copy=False).ctypes.data == np.asarray(buffer).ctypes.data
    assert np.from_dlpack(buffer, device="cpu").ctypes.data == np.asarray(buffer).ctypes.data
    for kwargs in ({"stream": 1}, {"dl_device": (2, 0)}, {"dl_device": (1, 1)}):
        with pytest.raises(BufferError):
            buffer.__dlpack__(**kwargs)
    assert buffer.__dlpack__(stream=-1) is not None
    # A capsule nobody takes frees its export; many of them leak nothing that breaks the env.
    for _ in range(1000):
        buffer.__dlpack__(max_version=(1, 0))


def test_arrays_keep_the_environment_alive() -> None:
    import gc

    rust = rust_engine()
    env = rust.VectorEnv(rust.preset("hearts-4"), 5, 6, observation_dtype="uint8")
    by_dlpack, by_buffer = np.from_dlpack(env.observation), np.asarray(env.legal_action_mask)
    expected = by_dlpack.copy(), by_buffer.copy()
    del env
    gc.collect()
    np.asarray(bytearray(10**7))  # memory freed by now would likely be reused
    assert np.array_equal(by_dlpack, expected[0]) and np.array_equal(by_buffer, expected[1])


def test_torch_from_dlpack_shares_the_memory() -> None:
    torch = pytest.importorskip("torch")
    rust = rust_engine()
    env = rust.VectorEnv(rust.preset("hearts-4"), 70, 2, threads=2, observation_dtype="uint8")
    tensors = {name: torch.from_dlpack(getattr(env, name)) for name in BUFFERS}
    dtypes = {
        "current_player": torch.int32,
        "legal_action_mask": torch.bool,
        "observation": torch.uint8,
        "rewards": torch.float32,
        "terminated": torch.bool,
        "episode_scores": torch.int64,
    }
    for name, tensor in tensors.items():
        assert tensor.dtype == dtypes[name], name
        assert tensor.data_ptr() == np.asarray(getattr(env, name)).ctypes.data, name
    rng = np.random.default_rng(3)
    for _ in range(20):
        env.step(pick_ids(rng, np.asarray(env.legal_action_mask)))
        for name, tensor in tensors.items():
            assert np.array_equal(tensor.numpy(), np.asarray(getattr(env, name))), name


def test_writing_into_the_buffers_changes_no_game() -> None:
    # Against API-11, through memory a consumer may write (a tensor ignoring the read-only
    # flag): the environment checks steps against its own copy of the legal ids.
    import ctypes

    rust = rust_engine()
    env = rust.VectorEnv(rust.preset("hearts-4"), 2, 4, history=True)
    mask = np.asarray(env.legal_action_mask)
    illegal = int(np.flatnonzero(~mask[1])[0])
    states = [env.game(i).state() for i in range(2)]
    ctypes.memset(mask.ctypes.data + NUM_ACTIONS + illegal, 1, 1)
    assert mask[1, illegal]
    actions = [int(np.flatnonzero(mask[0])[0]), illegal]
    with pytest.raises(rust.ReversisError) as caught:
        env.step(actions)
    assert "game 1" in str(caught.value)
    assert [env.game(i).state() for i in range(2)] == states


# --------------------------------------------------------------------------- threads


def test_threads_kept_between_steps_give_the_same_results() -> None:
    import time

    rust = rust_engine()
    ruleset = rust.preset("hearts-4")
    envs = [
        rust.VectorEnv(ruleset, 300, 5, threads=threads, rewards="trick", observation_dtype="uint8")
        for threads in (1, 2, 3)
    ]
    rng = np.random.default_rng(8)
    for step in range(150):
        actions = pick_ids(rng, np.asarray(envs[0].legal_action_mask))
        for env in envs:
            env.step(actions)
        for other in envs[1:]:
            assert_same_buffers(arrays(envs[0]), arrays(other))
        if step % 40 == 39:
            # Longer than a worker waits spinning: the next step wakes it from its sleep.
            time.sleep(0.01)


def test_a_forked_child_steps_without_the_parents_threads() -> None:
    rust = rust_engine()
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    env = rust.VectorEnv(rust.preset("hearts-4"), 200, 5, threads=2)
    rng = np.random.default_rng(1)
    env.step(pick_ids(rng, np.asarray(env.legal_action_mask)))  # the worker thread exists now
    actions = [pick_ids(rng, np.asarray(env.legal_action_mask))]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its copy of the environment has no worker thread
        try:
            env.step(actions[0])
            os.write(write, np.asarray(env.observation).tobytes()[:4096])
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        child = pipe.read()
    os.waitpid(pid, 0)
    env.step(actions[0])
    assert child == np.asarray(env.observation).tobytes()[:4096]
