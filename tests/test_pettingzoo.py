"""The PettingZoo AEC environment (reversis.adapters.pettingzoo).

PettingZoo's own API and seed tests run on every preset; the rest checks the environment
against the rules: masks against the game's legal ids (ACT-3), rewards against scores computed
here from the tricks alone (PLAY-7, SCORE-1, SCORE-2, RS-14), observations against OBS-2, and
illegal actions against ERR-1.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import reversis  # noqa: E402
import reversis.reference  # noqa: E402
from reversis.adapters.pettingzoo import env as make_env  # noqa: E402
from reversis.encoding import encode_observation  # noqa: E402
from reversis.players import Observation  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RANKS = "23456789TJQKA"
PRESETS = reversis.preset_names()
# Dict observations are PettingZoo's own convention for masks, yet its API test warns about them
# for every environment not on its list of classic names.
DICT_OBSERVATION_WARNINGS = (
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


def quick_match() -> Any:
    """hearts-4 to 30, so that a match is a few hands."""
    return reversis.preset("hearts-4").replace(target=30)


def only_queen(name: str, **fields: Any) -> Any:
    """The preset with hearts worth nothing: QS is the one point card, so its taker shoots the moon."""
    ruleset = reversis.preset(name)
    hearts = {card: 0 for card in ruleset.card_points if card.endswith("H")}
    return ruleset.replace(card_points=hearts, **fields)


def random_action(observation: dict[str, Any], rng: Any) -> int:
    """A uniformly random id among those the mask allows."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def trick_winner(cards: list[dict[str, Any]], cancellation: Any = None, last: bool = False) -> int | None:
    """PLAY-7: the highest card of the suit led, the first played of two identical ones; under
    PLAY-9 identical cards cancel, and a trick with none of the suit led left is held over
    (``None``) unless it is the last, which ``last_trick`` gives away."""
    led = cards[0]["card"][1]
    following = [(RANKS.index(p["card"][0]), -i, p["seat"]) for i, p in enumerate(cards) if p["card"][1] == led]
    if cancellation is None:
        return max(following)[2]
    named = [p["card"] for p in cards]
    alive = [f for f in following if named.count(cards[-f[1]]["card"]) == 1]
    if alive:
        return max(alive)[2]
    if not last:
        return None
    if cancellation["last_trick"] == "leader":
        return cards[0]["seat"]
    # later-highest: of the highest rank led, the copy played later.
    return max(following, key=lambda f: (f[0], -f[1]))[2]


def expected_scores(ruleset: Any, tricks: list[list[dict[str, Any]]], choice: str | None) -> list[int]:
    """SCORE-1 and SCORE-2 from the cards of the tricks alone; ``choice`` is the taker's (SCORE-3)."""
    players = ruleset.players
    values = ruleset.card_points
    positive, negative = [0] * players, [0] * players
    held_over: list[dict[str, Any]] = []
    for index, cards in enumerate(tricks):
        winner = trick_winner(cards, ruleset.cancellation, last=index == len(tricks) - 1)
        if winner is None:
            held_over += cards
            continue
        for play in cards + held_over:
            value = values.get(play["card"], 0)
            if value > 0:
                positive[winner] += value
            else:
                negative[winner] += value
        held_over = []
    all_points = sum(values.get(card, 0) for card in ruleset.deck if values.get(card, 0) > 0)
    takers = [seat for seat in range(players) if positive[seat] == all_points]
    if ruleset.moon is None or not takers:
        return [positive[seat] + negative[seat] for seat in range(players)]
    taker, bonus = takers[0], ruleset.moon["bonus"]
    scoring = ruleset.moon["scoring"] if ruleset.moon["scoring"] != "taker-choice" else choice
    if scoring == "add-to-others":
        base = [0 if seat == taker else bonus for seat in range(players)]
    else:
        base = [-bonus if seat == taker else 0 for seat in range(players)]
    return [base[seat] + negative[seat] for seat in range(players)]


def play_episode(env: Any, rng: Any, before_step: Callable[[str, dict[str, Any]], None] | None = None) -> dict:
    """Play the episode to its end with random legal ids, checking rewards hand by hand.

    Returns each agent's rewards summed as ``last()`` hands them out, and the hands' scores as
    computed here.
    """
    raw = env.unwrapped
    ruleset = raw.game.ruleset
    returns = dict.fromkeys(env.possible_agents, 0.0)
    hands: list[list[int]] = []
    tricks: list[list[dict[str, Any]]] = []
    choice = None
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if before_step is not None:
            before_step(agent, observation)
        action = random_action(observation, rng)
        if action >= 104:
            choice = ("add-to-others", "subtract-from-taker")[action - 104]
        env.step(action)  # raises if the engine rejects an id the mask allowed
        events = raw.events
        tricks += [event["cards"] for event in events if event["type"] == "trick"]
        scored = [event for event in events if event["type"] == "hand"]
        if scored:
            scores = expected_scores(ruleset, tricks, choice)
            assert env.rewards == {f"player_{seat}": float(-scores[seat]) for seat in range(ruleset.players)}
            hands.append(scores)
            tricks, choice = [], None
            over = raw.episode == "hand" or any(event["type"] == "over" for event in events)
            assert all(env.terminations.values()) == over
            assert any(env.terminations.values()) == over
        else:
            assert set(env.rewards.values()) == {0.0}
            assert not any(env.terminations.values())
    return {"returns": returns, "hands": hands}


# ----------------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@pytest.mark.parametrize("name", PRESETS)
def test_api_test_every_preset_by_hand(name: str) -> None:
    api_test(make_env(name), num_cycles=40)


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_api_test_match() -> None:
    api_test(make_env(quick_match(), episode="match"), num_cycles=1000)


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_api_test_reference_engine() -> None:
    api_test(make_env("hartenjagen", engine="reference"), num_cycles=40)


@pytest.mark.parametrize("episode", ["hand", "match"])
def test_seed_test(episode: str) -> None:
    seed_test(lambda: make_env(quick_match(), episode=episode), num_cycles=500)


# ----------------------------------------------------------------------------- masks and observations


@pytest.mark.parametrize(("ruleset", "episode"), [(name, "hand") for name in PRESETS] + [(quick_match(), "match")])
def test_masks_are_the_game_legal_ids(ruleset: Any, episode: str) -> None:
    env = make_env(ruleset, episode=episode)
    env.reset(seed=3)
    game_of = lambda: env.unwrapped.game  # noqa: E731
    steps = []

    def check(agent: str, observation: dict[str, Any]) -> None:
        game = game_of()
        seat = game.to_act
        assert agent == f"player_{seat}"
        assert np.flatnonzero(observation["action_mask"]).tolist() == game.legal_actions(seat)
        expected = encode_observation(Observation(game.ruleset, game.observation(seat)))
        assert observation["observation"].tolist() == list(expected)
        assert observation["observation"].dtype == np.int32
        assert observation["action_mask"].dtype == np.int8
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        steps.append(game.phase)

    play_episode(env, np.random.default_rng(1), check)
    assert not env.agents
    assert "play" in steps
    assert ("pass" in steps) == (env.unwrapped.ruleset.passing is not None)


@pytest.mark.parametrize(
    ("name", "hand_number"), [("hearts-4", 0), ("hearts-4", 3), ("hartenjagen", 1), ("hearts-3", 1), ("hearts-6", 0)]
)
def test_hidden_cards_do_not_change_observations(name: str, hand_number: int) -> None:
    """OBS-2: swap two unplayed cards between two other seats; the observer's view must not move.

    The cards swapped are of one suit and one value, dealt to their seats and neither passed nor
    selected, and not the opening card, so the same ids stay legal in both games.
    """
    ruleset = reversis.preset(name)
    players = ruleset.players
    deal = reversis.deal_from_seed(ruleset, 11, 1, hand_number)[0]
    options = {"hands": deal, "hand_number": hand_number}
    env = make_env(ruleset)
    env.reset(options=options)
    rng = np.random.default_rng(2)
    history: list[int] = []
    compared = 0
    while not env.terminations[env.agent_selection]:
        game = env.unwrapped.game
        if len(history) % 5 == 0:
            for observer in range(players):
                p, q = (observer + 1) % players, (observer + 2) % players
                swapped = swap_hidden(ruleset, deal, game, p, q)
                if swapped is None:
                    continue
                other = make_env(ruleset)
                other.reset(options={"hands": swapped, "hand_number": hand_number})
                for action in history:
                    other.step(action)
                assert other.unwrapped.game.state()["hands"] != game.state()["hands"]
                assert other.agent_selection == env.agent_selection
                mine, theirs = env.observe(f"player_{observer}"), other.observe(f"player_{observer}")
                assert mine["observation"].tolist() == theirs["observation"].tolist()
                assert mine["action_mask"].tolist() == theirs["action_mask"].tolist()
                # The swap is real: the seat holding the card sees it.
                assert (
                    env.observe(f"player_{p}")["observation"].tolist()
                    != other.observe(f"player_{p}")["observation"].tolist()
                )
                compared += 1
        observation = env.observe(env.agent_selection)
        action = random_action(observation, rng)
        env.step(action)
        history.append(action)
    assert compared >= 3 * players


def swap_hidden(ruleset: Any, deal: list[list[str]], game: Any, p: int, q: int) -> list[list[str]] | None:
    """The deal with a card of ``p`` and one of ``q`` exchanged, both still hidden in their hands, or None."""
    values = ruleset.card_points

    def candidates(seat: int) -> list[str]:
        keep = set(game.hand(seat)) - set(game.selected(seat)) - {ruleset.opening_card}
        return [card for card in deal[seat] if card in keep]

    for first in candidates(p):
        for second in candidates(q):
            if first[1] == second[1] and values.get(first, 0) == values.get(second, 0):
                swapped = [list(hand) for hand in deal]
                swapped[p] = sorted(set(swapped[p]) - {first} | {second})
                swapped[q] = sorted(set(swapped[q]) - {second} | {first})
                return swapped
    return None


# ----------------------------------------------------------------------------- rewards


@pytest.mark.parametrize(
    "ruleset",
    [reversis.preset(name) for name in PRESETS]
    + [
        only_queen("hearts-4"),
        only_queen("hearts-computer"),
        only_queen("hearts-4", moon_scoring="subtract-from-taker"),
        only_queen("omnibus-4"),
    ],
    ids=lambda ruleset: ruleset.name,
)
def test_hand_rewards_are_minus_the_hand_scores(ruleset: Any) -> None:
    env = make_env(ruleset, seed=5)
    rng = np.random.default_rng(3)
    moons = 0
    for _ in range(4):
        env.reset()
        result = play_episode(env, rng)
        (scores,) = result["hands"]
        assert result["returns"] == {f"player_{seat}": float(-scores[seat]) for seat in range(ruleset.players)}
        moons += env.unwrapped.game.last_hand["moon_taker"] is not None
    if len(ruleset.point_cards) == 1:
        assert moons == 4


def test_match_rewards_sum_to_minus_the_totals() -> None:
    ruleset = only_queen("omnibus-4").replace(target=40)
    env = make_env(ruleset, episode="match", seed=8)
    env.reset()
    result = play_episode(env, np.random.default_rng(4))
    game = env.unwrapped.game
    assert game.phase == "over"
    assert len(result["hands"]) == len(game.hand_scores) > 1
    totals = [sum(hand[seat] for hand in result["hands"]) for seat in range(4)]
    assert game.scores == totals
    assert result["returns"] == {f"player_{seat}": float(-totals[seat]) for seat in range(4)}


# ----------------------------------------------------------------------------- illegal actions


def snapshot(env: Any) -> Any:
    raw = env.unwrapped
    views = [env.observe(agent) for agent in env.agents]
    return (
        raw.game.state(),
        list(raw.game.actions),
        raw.events,
        env.agent_selection,
        dict(env.rewards),
        dict(raw._cumulative_rewards),
        dict(env.terminations),
        [view["observation"].tolist() + view["action_mask"].tolist() for view in views],
    )


@pytest.mark.parametrize("engine", ["rust", "reference"])
def test_illegal_actions_raise_and_change_nothing(engine: str) -> None:
    # A match, so that some tries come while agents hold rewards not yet collected.
    env = make_env(quick_match(), episode="match", engine=engine)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    phases, pending = set(), False
    step = 0
    while not env.terminations[env.agent_selection]:
        observation = env.observe(env.agent_selection)
        game = env.unwrapped.game
        owed = any(env.unwrapped._cumulative_rewards.values())
        if step % 7 == 0 or (owed and not pending):
            illegal = np.flatnonzero(observation["action_mask"] == 0).tolist()
            # Ids of the other phases and cards not held, and in play cards held but not allowed.
            picks = illegal[:: len(illegal) // 3]
            if game.phase == "play":
                picks += [i for i in illegal if i < 52 and reversis_card(i) in game.hand(game.to_act)][:2]
            for bad in picks:
                before = snapshot(env)
                with pytest.raises(reversis.IllegalActionError):
                    env.step(np.int64(bad))
                assert snapshot(env) == before
                phases.add(game.phase)
            for bad in (106, -1, None, 2.0, "52", True):
                before = snapshot(env)
                with pytest.raises(reversis.InvalidInputError, match="action id"):
                    env.step(bad)
                assert snapshot(env) == before
            pending = pending or owed
        env.step(random_action(observation, rng))
        step += 1
    assert phases >= {"pass", "play"}
    assert pending
    with pytest.raises(ValueError, match="None"):
        env.step(0)  # a terminated agent's only action is None (PettingZoo)


def reversis_card(card_id: int) -> str:
    """CARD-2: the card of an id."""
    return RANKS[card_id % 13] + "CDHS"[card_id // 13]


def test_bad_arguments_are_rejected() -> None:
    for mode in ("rgb_array", "Human", ""):
        with pytest.raises(ValueError, match="render_mode"):
            make_env("hearts-4", render_mode=mode)
    with pytest.raises(ValueError, match="episode"):
        make_env("hearts-4", episode="trick")
    with pytest.raises(ValueError, match="engine"):
        make_env("hearts-4", engine="c")
    for ruleset in ("no-such-preset", {"name": "x"}, 4):
        with pytest.raises(reversis.InvalidInputError):
            make_env(ruleset)
    # Either engine's Ruleset, or its JSON object, for either engine.
    for engine, module in (("rust", reversis), ("reference", reversis.reference)):
        for given in (reversis.preset("hearts-5"), reversis.reference.preset("hearts-5"), quick_match().to_json()):
            made = make_env(given, engine=engine).unwrapped
            assert made.engine is module
            assert isinstance(made.ruleset, module.Ruleset)
            assert made.ruleset.to_json() == (given if isinstance(given, dict) else given.to_json())
    env = make_env("hearts-4", seed=1)
    with pytest.raises(reversis.InvalidInputError, match="seed"):
        env.reset(seed=-1)
    env.reset()
    assert env.unwrapped.game_seed == 1
    twin = make_env("hearts-4", seed=1)
    twin.reset()
    before = snapshot(env)
    for bad in ({"hands": [["2C"]] * 4}, {"hand_number": -1}):
        with pytest.raises(reversis.InvalidInputError):
            env.reset(options=bad)
        assert snapshot(env) == before
    # Nor did the rejected resets use up a seed.
    env.reset()
    twin.reset()
    assert env.unwrapped.game.state() == twin.unwrapped.game.state()


# ----------------------------------------------------------------------------- seeds and episodes


@pytest.mark.parametrize("engine", ["rust", "reference"])
def test_reset_seed_deals_what_a_seeded_game_deals(engine: str) -> None:
    module = __import__("reversis.reference" if engine == "reference" else "reversis", fromlist=["Game"])
    ruleset = quick_match()
    env = make_env(ruleset, episode="match", engine=engine)
    env.reset(seed=21)
    assert env.unwrapped.game.state()["hands"] == module.Game(ruleset, seed=21).state()["hands"]
    play_episode(env, np.random.default_rng(6))
    played = env.unwrapped.game
    # The environment deals every hand itself; a seeded game must accept the same plays.
    seeded = module.Game(ruleset, seed=21)
    for action in played.actions:
        if action["type"] != "deal":
            seeded.apply(action)
    assert seeded.phase == "over"
    assert seeded.hand_scores == played.hand_scores
    assert seeded.scores == played.scores


def test_seedless_resets_follow_the_first_seed_and_rotate_hands() -> None:
    def episodes(env: Any, first_seed: int | None) -> list[Any]:
        env.reset(seed=first_seed)
        out = [env.unwrapped.game.state()]
        for _ in range(9):
            env.reset()
            out.append(env.unwrapped.game.state())
        return out

    a = episodes(make_env("hearts-4", seed=7), None)
    b = episodes(make_env("hearts-4"), 7)
    assert a == b
    assert [state["hand_number"] for state in a] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    # hearts-4 rotates over 4 seats × 4 directions; hartenjagen, without passing, over 4 seats.
    hartenjagen = episodes(make_env("hartenjagen", seed=7), None)
    assert [state["hand_number"] for state in hartenjagen] == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert len({str(state["hands"]) for state in a}) == 10
    fresh = [make_env("hearts-4") for _ in range(2)]
    for env in fresh:
        env.reset()
    assert fresh[0].unwrapped.game.state() != fresh[1].unwrapped.game.state()


def test_hand_episode_rests_after_the_hand() -> None:
    env = make_env("hearts-4", seed=9)
    env.reset()
    result = play_episode(env, np.random.default_rng(7))
    game = env.unwrapped.game
    assert game.phase == "deal"
    assert game.scores == result["hands"][0]
    assert game.hand_scores == [result["hands"][0]]


def test_engines_agree_step_by_step() -> None:
    envs = [make_env("hearts-4", engine=engine) for engine in ("rust", "reference")]
    for env in envs:
        env.reset(seed=13)
    rng = np.random.default_rng(8)
    while envs[0].agents:
        views = [env.last() for env in envs]
        assert views[0][0]["observation"].tolist() == views[1][0]["observation"].tolist()
        assert views[0][0]["action_mask"].tolist() == views[1][0]["action_mask"].tolist()
        assert views[0][1:] == views[1][1:]
        assert envs[0].agent_selection == envs[1].agent_selection
        action = None if views[0][2] else random_action(views[0][0], rng)
        for env in envs:
            env.step(action)
    assert not envs[1].agents


def test_raw_env_pickles_mid_hand() -> None:
    env = make_env("hartenjagen")
    env.reset(seed=4)
    rng = np.random.default_rng(9)
    for _ in range(10):
        env.step(random_action(env.observe(env.agent_selection), rng))
    copy = pickle.loads(pickle.dumps(env.unwrapped))
    assert copy.game == env.unwrapped.game
    while env.agents:
        assert copy.agent_selection == env.agent_selection
        assert copy.observe(copy.agent_selection)["observation"].tolist() == (
            env.observe(env.agent_selection)["observation"].tolist()
        )
        action = None if env.terminations[env.agent_selection] else random_action(env.observe(env.agent_selection), rng)
        env.step(action)
        copy.step(action)
    assert copy._cumulative_rewards == env.unwrapped._cumulative_rewards


# ----------------------------------------------------------------------------- rendering and the example


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = make_env("hearts-4", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    game = env.unwrapped.game
    assert isinstance(text, str)
    assert "phase pass" in text
    assert " ".join(game.hand(game.to_act)) in text
    assert capsys.readouterr().out == ""

    human = make_env("hearts-4", render_mode="human")
    human.reset(seed=1)
    human.step(random_action(human.observe(human.agent_selection), np.random.default_rng(0)))
    assert "player_0 selected:" in capsys.readouterr().out
    assert human.render() is None
    assert "phase pass" in capsys.readouterr().out

    quiet = make_env("hearts-4")
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    assert capsys.readouterr().out == ""


def test_example_script_runs() -> None:
    completed = subprocess.run(
        [sys.executable, "examples/pettingzoo_loop.py", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert "3 hands" in lines[0]
    rewards = [float(line.split(":")[1]) for line in lines[1:]]
    assert len(rewards) == 4
    # Every hand of hearts-4 scores 26 in all, or ±26 more after a moon: a multiple of 26.
    assert round(-sum(rewards) * 3) % 26 == 0
