"""PPO over ``reversis.VectorEnv`` in PyTorch, in one file (in the manner of CleanRL).

    python examples/learning/ppo_vector.py --decisions 2000000 --log ppo.csv --export ppo.rvnn

The learner is an MLP on the raw OBS-3 integers of the acting seat (1435 in, ReLU hidden layers,
106 logits out, illegal ids masked before the softmax). It plays every seat of every game
(``--seats all``, self-play with one shared policy) or the seats listed (``--seats 0`` or
``--seats 0,2``), the others played by computer players (``--opponents random``, ``rules``, a
frozen ``.rvnn`` network, or a league of several, comma-separated, each game against one).

Every seat's decisions go through the same buffers of the vector environment, the acting seat
changing from step to step, so the decisions of one seat in one game form that seat's own
trajectory: a step's rewards (one per seat) go to each seat's latest decision, and GAE runs
over each seat's sequence of decisions, not over the rows of the batch. A decision whose seat
has not decided again by the end of a rollout waits for the next rollout to learn its return.

The learner is evaluated greedily (the legal id with the highest logit, as a ``.rvnn`` network
decides) on a fixed set of seeded deals, one seat of each deal, against ``--eval-opponents``: the same
deals every time, so that two evaluations are compared deal by deal, with a 95% interval on the
mean paired difference. ``--log`` writes one CSV row per evaluation (learner decisions seen,
training wall seconds, mean points per hand) for ``plot_curve.py``; ``--export`` writes the
policy as a ``.rvnn`` network; ``--init`` starts from a ``.rvnn`` network or a checkpoint written
by ``--save``.

Needs the ``learn`` extra (``torch``, ``numpy``). The rule-based opponents are
:func:`reversis.players.computer_actions`; ``.rvnn`` files are read by
:func:`reversis.players.learned.read_weights`.
"""

from __future__ import annotations

import argparse
import csv
import math
import pickle
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import reversis
from reversis.encoding import ENCODING_LENGTH, ENCODING_VERSION, LAYOUT
from reversis.players import computer_actions

NUM_ACTIONS = reversis.NUM_ACTIONS
#: What an illegal id's logit becomes: far below any real logit, yet finite, so no NaN appears.
MASKED_LOGIT = -1e9
OPPONENTS = ("random", "rules")


# --------------------------------------------------------------------------- the networks


def card_points_total(ruleset: Any) -> float:
    """The points of every card of the pack, each counted by its size (penalties and bonuses alike)."""
    return float(sum(abs(value) for value in ruleset.card_points.values()))


def input_scale(ruleset: Any) -> np.ndarray:
    """A factor per OBS-3 input: 1 for the indicator and count blocks, less for points and totals.

    Points and totals are the only inputs far from 0 and 1; dividing them by a hand's points (and
    a match's target) keeps every input of the first layer on the same footing. At export the
    factor is folded into the first layer's weights, so that the ``.rvnn`` network takes the raw
    integers.
    """
    hand_points = card_points_total(ruleset)
    scale = np.ones(ENCODING_LENGTH, dtype=np.float32)
    for name, offset, length in LAYOUT:
        if name == "points":
            scale[offset : offset + length] = 1.0 / hand_points
        elif name == "scores":
            scale[offset : offset + length] = 1.0 / float(ruleset.target or hand_points)
    return scale


def _linear(inputs: int, outputs: int, gain: float) -> nn.Linear:
    """A linear layer with orthogonal weights of ``gain`` and zero biases (as CleanRL's PPO)."""
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def _mlp(sizes: Sequence[int], last_gain: float) -> nn.Sequential:
    """Linear layers of ``sizes`` with ReLU between them and nothing after the last."""
    layers: list[nn.Module] = []
    for k, (inputs, outputs) in enumerate(zip(sizes[:-1], sizes[1:])):
        last = k == len(sizes) - 2
        layers.append(_linear(inputs, outputs, last_gain if last else math.sqrt(2)))
        if not last:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class Policy(nn.Module):
    """The actor: scaled OBS-3 → ReLU MLP → 106 logits; the part that is exported.

    With ``value=True`` the last layer has one more output, the value of spec/learned.md's
    LRN-7 (the acting seat's score for the hand, in points), exported as a format version 2
    network. The layer gives it in units of ``value_scale`` points (a hand's points, say), so
    that the optimizer's steps, which do not grow with the target, reach it; the factor is
    folded into the layer at export, as the input scale is into the first.
    """

    def __init__(self, hidden: Sequence[int], scale: np.ndarray, value: bool = False, value_scale: float = 1.0) -> None:
        super().__init__()
        self.hidden = list(hidden)
        self.has_value = value
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        # Not saved in checkpoints: it is the constructor's, and checkpoints of networks without
        # a value stay what they were.
        self.register_buffer("value_scale", torch.tensor(float(value_scale)), persistent=False)
        # A small last layer makes the first policy nearly uniform over the legal ids.
        self.net = _mlp([ENCODING_LENGTH, *hidden, NUM_ACTIONS + int(value)], 0.01)

    def outputs(self, observation: torch.Tensor) -> torch.Tensor:
        """Every output for a batch of OBS-3 rows: the logits, then the value (in points) if there is one."""
        out = self.net(observation * self.scale)
        if not self.has_value:
            return out
        return torch.cat([out[:, :NUM_ACTIONS], out[:, NUM_ACTIONS:] * self.value_scale], dim=1)

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        """The logits of every id (illegal ones included) for a batch of OBS-3 rows."""
        return self.outputs(observation)[:, :NUM_ACTIONS]

    def masked_logits(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The logits with every illegal id's set to :data:`MASKED_LOGIT`."""
        return torch.where(mask, self(observation), torch.tensor(MASKED_LOGIT))

    def linears(self) -> list[nn.Linear]:
        """The linear layers, input first."""
        return [module for module in self.net if isinstance(module, nn.Linear)]


class Critic(nn.Module):
    """The value of a seat's decision: scaled OBS-3 → ReLU MLP → 1 (its own layers, never exported)."""

    def __init__(self, hidden: Sequence[int], scale: np.ndarray) -> None:
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        self.net = _mlp([ENCODING_LENGTH, *hidden, 1], 1.0)

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        """One value per OBS-3 row."""
        return self.net(observation * self.scale).squeeze(-1)


def greedy(policy: Policy, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The legal id of highest logit for each row (ties: the lowest id), as a ``.rvnn`` network decides."""
    with torch.no_grad():
        logits = policy.masked_logits(torch.as_tensor(observation, dtype=torch.float32), torch.as_tensor(mask))
    return logits.argmax(dim=1).numpy()


# --------------------------------------------------------------------------- .rvnn and checkpoints


def export_rvnn(policy: Policy, path: Path, metadata: dict[str, Any]) -> None:
    """Write ``policy`` as a ``.rvnn`` network: its layers, the input scale folded into the first.

    :raises SystemExit: when ``reversis.players.learned`` (which writes the format) is missing.
    """
    write_weights = _learned("write_weights")
    linears = policy.linears()
    layers = []
    for k, layer in enumerate(linears):
        weights = layer.weight.detach().double().numpy()
        biases = layer.bias.detach().double().numpy()
        if k == 0:
            weights = weights * policy.scale.double().numpy()[None, :]
        last = k == len(linears) - 1
        if last and policy.has_value:
            weights, biases = weights.copy(), biases.copy()
            weights[NUM_ACTIONS:] *= float(policy.value_scale)
            biases[NUM_ACTIONS:] *= float(policy.value_scale)
        layers.append((weights, biases, "identity" if last else "relu"))
    write_weights(path, layers, {"encoding_version": ENCODING_VERSION, **metadata})


def _learned(name: str) -> Any:
    """A function of ``reversis.players.learned``."""
    from reversis.players import learned

    return getattr(learned, name)


def rvnn_layers(path: Path) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """The layers of a ``.rvnn`` file as ``(weights, biases, activation)``, weights outputs × inputs."""
    network = _learned("read_weights")(path)
    return [(np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64), str(a)) for w, b, a in network.layers]


def load_init(path: Path, policy: Policy, critic: Critic | None) -> None:
    """Load a ``.rvnn`` network or a ``--save`` checkpoint into ``policy`` (and ``critic`` if it has one).

    A ``.rvnn`` network's first layer takes raw integers: the input scale is divided back out.

    :raises SystemExit: when the layer sizes differ from ``policy``'s.
    """
    if path.suffix == ".rvnn":
        layers = rvnn_layers(path)
        linears = policy.linears()
        if not policy.has_value and len(layers[-1][1]) == NUM_ACTIONS + 1:
            # This learner has no value head (its critic is its own): the network's is dropped.
            weights, biases, activation = layers[-1]
            layers[-1] = (weights[:NUM_ACTIONS], biases[:NUM_ACTIONS], activation)
        # A network without a value starting a learner with one loads the logits' rows alone:
        # the learner's value row keeps its initial weights.
        outputs = len(layers[-1][1])
        shapes = [tuple(w.shape) for w, _, _ in layers]
        wanted = [tuple(layer.weight.shape) for layer in linears]
        wanted[-1] = (outputs, wanted[-1][1]) if outputs == NUM_ACTIONS else wanted[-1]
        if shapes != wanted:
            raise SystemExit(f"{path}: layers {shapes} do not fit --hidden {policy.hidden}")
        if policy.has_value and outputs == NUM_ACTIONS + 1:
            # The learner's value output is in units of value_scale, the network's in points.
            weights, biases, activation = layers[-1]
            weights, biases = weights.copy(), biases.copy()
            weights[NUM_ACTIONS:] /= float(policy.value_scale)
            biases[NUM_ACTIONS:] /= float(policy.value_scale)
            layers[-1] = (weights, biases, activation)
        with torch.no_grad():
            for k, ((weights, biases, _), layer) in enumerate(zip(layers, linears)):
                unscaled = weights / policy.scale.double().numpy()[None, :] if k == 0 else weights
                layer.weight[: len(biases)].copy_(torch.as_tensor(unscaled))
                layer.bias[: len(biases)].copy_(torch.as_tensor(biases))
        return
    checkpoint = _checkpoint(path)
    try:
        policy.load_state_dict(checkpoint["policy"])
        if critic is not None and "critic" in checkpoint:
            critic.load_state_dict(checkpoint["critic"])
    except RuntimeError as error:
        raise SystemExit(f"{path}: not a checkpoint of this network ({error})") from None


def _checkpoint(path: Path) -> dict[str, Any]:
    """A checkpoint written by ``--save``: the policy's weights, and the critic's.

    :raises SystemExit: for a file that cannot be read as one.
    """
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, ValueError, EOFError, pickle.UnpicklingError) as error:
        raise SystemExit(f"{path}: not a .rvnn network nor a checkpoint ({error})") from None
    if not isinstance(checkpoint, dict) or "policy" not in checkpoint:
        raise SystemExit(f"{path}: a checkpoint holds the policy's weights under 'policy'")
    return checkpoint


def init_hidden(path: Path) -> list[int]:
    """The hidden layer sizes of the network to start from: a ``.rvnn`` file or a ``--save`` checkpoint."""
    if path.suffix == ".rvnn":
        return [int(w.shape[0]) for w, _, _ in rvnn_layers(path)[:-1]]
    state = _checkpoint(path)["policy"]
    weights = [value for key, value in state.items() if key.startswith("net.") and key.endswith(".weight")]
    return [int(w.shape[0]) for w in weights[:-1]]


# --------------------------------------------------------------------------- opponents


def opponent_kinds(text: str) -> list[str]:
    """``--opponents``: a comma-separated list of ``random``, ``rules`` or ``.rvnn`` paths, else a usage error."""
    kinds = [part.strip() for part in text.split(",")]
    for kind in kinds:
        if kind not in OPPONENTS and not kind.endswith(".rvnn"):
            raise argparse.ArgumentTypeError(f"{kind!r}: an opponent is {', '.join(OPPONENTS)} or a .rvnn network")
    return kinds


class Opponents:
    """The computer players of the seats the learner does not hold: ``random``, ``rules`` or a network.

    ``random`` draws uniformly among each row's legal ids with NumPy; ``rules`` asks the
    Rust rule-based player for its choice (:func:`reversis.players.computer_actions`), made from
    the acting seat's knowledge alone; the path of a ``.rvnn`` network (a frozen learned player)
    plays that network's best legal id, evaluated in Rust from the acting seat's OBS-3.

    Several kinds make a league: game ``i`` of the batch is played against kind ``i mod k``, its
    every other seat of that kind.

    :raises SystemExit: for a network that cannot be read.
    """

    def __init__(self, kinds: str | Sequence[str], seed: int) -> None:
        self.kinds = opponent_kinds(kinds) if isinstance(kinds, str) else list(kinds)
        self.rng = np.random.default_rng(seed)
        self.networks: dict[str, Any] = {}
        for kind in self.kinds:
            if kind not in OPPONENTS and kind not in self.networks:
                try:
                    self.networks[kind] = reversis._core.LearnedPolicy.from_file(kind)
                except (OSError, reversis.InvalidInputError) as error:
                    raise SystemExit(f"--opponents {kind}: {error}") from None

    def check(self, env: Any) -> None:
        """Refuse, before any work is done, an environment that cannot play these opponents."""
        if "rules" in self.kinds:
            # Refuses a ruleset the rule-based player cannot play (two packs) with a clear error.
            computer_actions(env, "rules", 0)

    def choose(self, env: Any, mask: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The opponents' ids for the games ``rows`` (indices into the batch)."""
        actions = np.zeros(len(rows), dtype=np.int64)
        # The rule-based player decides for the whole batch at once: asked once however often it is named.
        rules: np.ndarray | None = None
        for k, kind in enumerate(self.kinds):
            mine = (rows % len(self.kinds)) == k
            if not mine.any():
                continue
            games = rows[mine]
            if kind == "rules":
                if rules is None:
                    rules = np.asarray(computer_actions(env, "rules", int(self.rng.integers(2**63))), dtype=np.int64)
                actions[mine] = rules[games]
            elif kind == "random":
                # A legal id's draw is in [0, 1) and an illegal one's -1: the argmax is always legal.
                draws = np.where(mask[games], self.rng.random((len(games), NUM_ACTIONS), dtype=np.float32), -1.0)
                actions[mine] = draws.argmax(axis=1)
            else:
                observation = np.asarray(env.observation)[games]
                actions[mine] = self.networks[kind].decide_batch(observation, mask[games])
        return actions


# --------------------------------------------------------------------------- evaluation


def evaluate(
    policy: Policy, ruleset: Any, *, opponents: str, games: int, hands: int, seed: int, threads: int = 1
) -> np.ndarray:
    """The learner's points in each of ``games × hands`` seeded deals, one seat each, against ``opponents``.

    Deal ``(i, e)`` is episode ``e`` of game ``i`` of a ``VectorEnv`` seeded with ``seed`` (so
    the same deals every time), and the learner holds seat ``(i + e) mod players`` of it; the
    opponents' choices are drawn from ``seed`` too. Returns ``games × hands`` points, deal by
    deal (fewer points are better).
    """
    env = reversis.VectorEnv(ruleset, games, seed, threads=threads, episode="hand", rewards="hand")
    players = int(ruleset.players)
    others = Opponents(opponents, seed)
    others.check(env)
    current, mask = np.asarray(env.current_player), np.asarray(env.legal_action_mask)
    observation, terminated = np.asarray(env.observation), np.asarray(env.terminated)
    scores = np.asarray(env.episode_scores)
    index = np.arange(games)
    seat_of = (index[:, None] + np.arange(hands)[None, :]) % players
    episode = np.zeros(games, dtype=np.int64)
    points = np.zeros((games, hands), dtype=np.int64)
    policy.eval()
    while (episode < hands).any():
        playing = episode < hands
        learner = playing & (current == seat_of[index, np.minimum(episode, hands - 1)])
        actions = np.zeros(games, dtype=np.int64)
        rows = np.flatnonzero(learner)
        if rows.size:
            actions[rows] = greedy(policy, observation[rows], mask[rows])
        rows = np.flatnonzero(~learner)
        if rows.size:
            actions[rows] = others.choose(env, mask, rows)
        env.step(actions)
        ended = np.flatnonzero(terminated & playing)
        points[ended, episode[ended]] = scores[ended, seat_of[ended, episode[ended]]]
        episode[ended] += 1
    return points.reshape(-1)


@dataclass(frozen=True)
class Paired:
    """The mean of paired differences (after − before) with its 95% interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, before: np.ndarray, after: np.ndarray) -> Paired:
        """The normal-approximation interval of the mean of ``after - before``, deal by deal."""
        differences = np.asarray(after, dtype=np.float64) - np.asarray(before, dtype=np.float64)
        mean = float(differences.mean())
        half = 1.96 * float(differences.std(ddof=1)) / math.sqrt(len(differences))
        return cls(mean, mean - half, mean + half)


# --------------------------------------------------------------------------- the decisions of a rollout


class Decisions:
    """The learner's decisions, each linked to the next decision of the same seat in the same game.

    A step's rewards go to each seat's latest decision; the step that ends a game's episode
    closes every seat's trajectory there. A decision is complete once its seat has decided
    again or its episode has ended: then its one-step target is known. Incomplete decisions are
    kept for the next rollout.
    """

    def __init__(self, capacity: int, num_envs: int, players: int) -> None:
        self.observation = np.zeros((capacity, ENCODING_LENGTH), dtype=np.int16)
        self.mask = np.zeros((capacity, NUM_ACTIONS), dtype=bool)
        self.action = np.zeros(capacity, dtype=np.int64)
        self.logprob = np.zeros(capacity, dtype=np.float32)
        self.value = np.zeros(capacity, dtype=np.float32)
        self.reward = np.zeros(capacity, dtype=np.float32)
        self.done = np.zeros(capacity, dtype=bool)
        self.next = np.full(capacity, -1, dtype=np.int64)
        self.step = np.zeros(capacity, dtype=np.int64)
        self.size = 0
        # The latest decision of each seat of each game, or -1.
        self.latest = np.full((num_envs, players), -1, dtype=np.int64)

    def add(self, step: int, rows: np.ndarray, seats: np.ndarray, **columns: np.ndarray) -> None:
        """Record one decision for each of ``rows`` (games), made by ``seats``."""
        new = np.arange(self.size, self.size + len(rows))
        previous = self.latest[rows, seats]
        self.next[previous[previous >= 0]] = new[previous >= 0]
        self.latest[rows, seats] = new
        for name, values in columns.items():
            getattr(self, name)[new] = values
        self.reward[new] = 0.0
        self.done[new] = False
        self.next[new] = -1
        self.step[new] = step
        self.size += len(rows)

    def collect(self, rewards: np.ndarray, terminated: np.ndarray) -> None:
        """Credit a step's rewards (games × seats) and close the trajectories of ended episodes."""
        holding = self.latest >= 0
        self.reward[self.latest[holding]] += rewards[holding]
        closed = holding & terminated[:, None]
        self.done[self.latest[closed]] = True
        self.latest[terminated] = -1

    def advantages(self, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """GAE over each seat's own decisions: the complete decisions, their advantages and returns.

        A decision whose next one is still incomplete bootstraps from that decision's value.
        """
        n = self.size
        value, done, following = self.value[:n], self.done[:n], self.next[:n]
        has_next = following >= 0
        complete = done | has_next
        next_value = np.where(has_next, value[np.maximum(following, 0)], 0.0)
        delta = self.reward[:n] + gamma * next_value * ~done - value
        advantage = np.zeros(n, dtype=np.float32)
        # The next decision of a seat comes at a later step: going back step by step, it is
        # always computed before the decision that leads to it.
        bounds = np.flatnonzero(np.diff(self.step[:n])) + 1
        starts, ends = np.concatenate([[0], bounds]), np.concatenate([bounds, [n]])
        for start, end in zip(starts[::-1], ends[::-1]):
            ahead = following[start:end]
            carried = np.where((ahead >= 0) & complete[np.maximum(ahead, 0)], advantage[np.maximum(ahead, 0)], 0.0)
            advantage[start:end] = delta[start:end] + gamma * lam * ~done[start:end] * carried
        chosen = np.flatnonzero(complete)
        return chosen, advantage[chosen], advantage[chosen] + value[chosen]

    def keep_incomplete(self) -> None:
        """Drop the complete decisions, moving the incomplete ones (every seat's latest) to the front."""
        holding = self.latest >= 0
        kept = np.sort(self.latest[holding])
        moved = np.arange(len(kept))
        for name in ("observation", "mask", "action", "logprob", "value", "reward", "done", "step"):
            column = getattr(self, name)
            column[moved] = column[kept]
        self.next[moved] = -1
        where = np.empty(self.size, dtype=np.int64)
        where[kept] = moved
        self.latest[holding] = where[self.latest[holding]]
        self.size = len(kept)


# --------------------------------------------------------------------------- training


@dataclass
class Result:
    """What a run measured: the paired evaluations before and after, and the learning curve."""

    before: np.ndarray
    after: np.ndarray
    curve: list[tuple[int, float, float]] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0

    @property
    def change(self) -> Paired:
        """Points per hand after minus before, deal by deal, with its 95% interval."""
        return Paired.of(self.before, self.after)


def _seats(text: str, players: int) -> np.ndarray:
    """A boolean per seat: the seats the learner holds."""
    if text == "all":
        return np.ones(players, dtype=bool)
    held = np.zeros(players, dtype=bool)
    for part in text.split(","):
        if not part.strip().isdigit() or int(part) >= players:
            raise SystemExit(f"--seats: {part!r} is not a seat of 0 to {players - 1}")
        held[int(part)] = True
    return held


def eval_opponents(args: argparse.Namespace) -> str:
    """Whom the learner is evaluated against: ``--eval-opponents``, else ``rules`` if met, else ``random``."""
    if args.eval_opponents is not None:
        return str(args.eval_opponents)
    return "rules" if "rules" in args.opponents else "random"


def train(args: argparse.Namespace) -> Result:
    """Train as ``args`` say, evaluating before, every ``eval_every`` decisions, and after."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    ruleset = reversis.preset(args.ruleset)
    players = int(ruleset.players)
    held = _seats(args.seats, players)
    hidden = init_hidden(args.init) if args.init else args.hidden
    scale = input_scale(ruleset)
    policy, critic = Policy(hidden, scale), Critic(hidden, scale)
    if args.init:
        load_init(args.init, policy, critic)
    optimizer = torch.optim.Adam([*policy.parameters(), *critic.parameters()], lr=args.lr, eps=1e-5)
    # Rewards are minus points: divided by a hand's points they are of the size of the values.
    reward_scale = 1.0 / float(sum(abs(value) for value in ruleset.card_points.values()))

    env = reversis.VectorEnv(ruleset, args.num_envs, args.seed, threads=args.env_threads, rewards=args.rewards)
    opponents = Opponents(args.opponents, args.seed + 1)
    opponents.check(env)
    current, mask = np.asarray(env.current_player), np.asarray(env.legal_action_mask)
    observation, rewards = np.asarray(env.observation), np.asarray(env.rewards)
    terminated = np.asarray(env.terminated)
    decisions = Decisions(args.num_envs * (args.rollout + players), args.num_envs, players)

    def assess() -> np.ndarray:
        return evaluate(
            policy,
            ruleset,
            opponents=eval_opponents(args),
            games=args.eval_games,
            hands=args.eval_hands,
            seed=args.eval_seed,
        )

    before = assess()
    result = Result(before=before, after=before)
    log = _Log(args.log)
    log.row(result, 0, 0.0, before)
    seen, seconds, step, next_eval = 0, 0.0, 0, args.eval_every
    while seen < args.decisions:
        started = time.perf_counter()
        policy.eval()
        for _ in range(args.rollout):
            actions = np.zeros(args.num_envs, dtype=np.int64)
            learner = held[current]
            rows = np.flatnonzero(learner)
            if rows.size:
                rows_observation = torch.as_tensor(observation[rows], dtype=torch.float32)
                rows_mask = torch.as_tensor(mask[rows])
                with torch.no_grad():
                    distribution = Categorical(logits=policy.masked_logits(rows_observation, rows_mask))
                    chosen = distribution.sample()
                    logprob = distribution.log_prob(chosen)
                    value = critic(rows_observation)
                actions[rows] = chosen.numpy()
                decisions.add(
                    step,
                    rows,
                    current[rows],
                    observation=observation[rows],
                    mask=mask[rows],
                    action=chosen.numpy(),
                    logprob=logprob.numpy(),
                    value=value.numpy(),
                )
                seen += rows.size
            rows = np.flatnonzero(~learner)
            if rows.size:
                actions[rows] = opponents.choose(env, mask, rows)
            env.step(actions)
            decisions.collect(rewards * reward_scale, terminated)
            step += 1
        _update(policy, critic, optimizer, decisions, args)
        decisions.keep_incomplete()
        seconds += time.perf_counter() - started
        if seen >= next_eval or seen >= args.decisions:
            result.after = assess()
            log.row(result, seen, seconds, result.after)
            next_eval = seen + args.eval_every
    result.decisions, result.seconds = seen, seconds
    if args.save:
        torch.save({"policy": policy.state_dict(), "critic": critic.state_dict()}, args.save)
    if args.export:
        command = "examples/learning/ppo_vector.py " + " ".join(sys.argv[1:])
        export_rvnn(policy, args.export, {"preset": ruleset.name, "trained_by": command, "decisions": seen})
    return result


def _update(
    policy: Policy, critic: Critic, optimizer: torch.optim.Optimizer, decisions: Decisions, args: argparse.Namespace
) -> None:
    """PPO's clipped update over the complete decisions, ``epochs`` passes of ``minibatches`` each."""
    chosen, advantage, returns = decisions.advantages(args.gamma, args.gae_lambda)
    if len(chosen) < 2:
        return
    observation = torch.as_tensor(decisions.observation[chosen], dtype=torch.float32)
    mask = torch.as_tensor(decisions.mask[chosen])
    action = torch.as_tensor(decisions.action[chosen])
    old_logprob = torch.as_tensor(decisions.logprob[chosen])
    old_value = torch.as_tensor(decisions.value[chosen])
    advantage_t, returns_t = torch.as_tensor(advantage), torch.as_tensor(returns)
    policy.train()
    size = max(2, len(chosen) // args.minibatches)
    for _ in range(args.epochs):
        order = torch.randperm(len(chosen))
        for start in range(0, len(chosen), size):
            batch = order[start : start + size]
            if len(batch) < 2:
                continue
            distribution = Categorical(logits=policy.masked_logits(observation[batch], mask[batch]))
            logprob = distribution.log_prob(action[batch])
            ratio = (logprob - old_logprob[batch]).exp()
            adv = advantage_t[batch]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            value = critic(observation[batch])
            clipped = old_value[batch] + (value - old_value[batch]).clamp(-args.clip, args.clip)
            value_loss = 0.5 * torch.max((value - returns_t[batch]) ** 2, (clipped - returns_t[batch]) ** 2).mean()
            loss = policy_loss - args.entropy * distribution.entropy().mean() + args.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_([*policy.parameters(), *critic.parameters()], args.max_grad_norm)
            optimizer.step()


class _Log:
    """The learning curve: one CSV row per evaluation, written as it comes."""

    HEADER = ("decisions", "seconds", "eval_points", "eval_ci95")

    def __init__(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            with path.open("w", newline="") as out:
                csv.writer(out).writerow(self.HEADER)

    def row(self, result: Result, decisions: int, seconds: float, points: np.ndarray) -> None:
        """Add the evaluation ``points`` made after ``decisions`` decisions and ``seconds`` of training."""
        mean = float(points.mean())
        half = 1.96 * float(points.std(ddof=1)) / math.sqrt(len(points))
        result.curve.append((decisions, seconds, mean))
        print(f"{decisions:>10,} decisions {seconds:8.1f} s   {mean:6.3f} ± {half:.3f} points per hand", flush=True)
        if self.path is not None:
            with self.path.open("a", newline="") as out:
                csv.writer(out).writerow((decisions, f"{seconds:.2f}", f"{mean:.4f}", f"{half:.4f}"))


# --------------------------------------------------------------------------- the command line


def _positive(text: str) -> int:
    """A whole number of at least 1, else a usage error."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _sizes(text: str) -> list[int]:
    """Hidden layer sizes, comma-separated: ``128,128``."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of sizes such as 128,128") from None
    if not sizes or any(size < 1 or size > 4096 for size in sizes) or len(sizes) > 7:
        raise argparse.ArgumentTypeError(f"{text!r}: 1 to 7 sizes, each 1 to 4096")
    return sizes


def parser() -> argparse.ArgumentParser:
    """The command line of the recipe."""
    p = argparse.ArgumentParser(description="PPO over reversis.VectorEnv in PyTorch.")
    p.add_argument("--ruleset", choices=reversis.preset_names(), default="hearts-computer", help="a preset")
    p.add_argument("--seats", default="all", help="the learner's seats: all (self-play) or a list such as 0 or 0,2")
    p.add_argument(
        "--opponents",
        type=opponent_kinds,
        default=["random"],
        help="the computer players met: random, rules or a .rvnn network; several, comma-separated, share the games",
    )
    p.add_argument(
        "--eval-opponents",
        choices=OPPONENTS,
        help="whom the evaluation plays (default: rules if met in training, else random)",
    )
    p.add_argument("--rewards", choices=("trick", "hand"), default="trick", help="minus points per trick, or per hand")
    p.add_argument("--decisions", type=_positive, default=2_000_000, help="learner decisions to train on")
    p.add_argument("--num-envs", type=_positive, default=128, help="games stepped together")
    p.add_argument("--rollout", type=_positive, default=64, help="steps of the batch between updates")
    p.add_argument("--hidden", type=_sizes, default=[128, 128], help="hidden layer sizes (default 128,128)")
    p.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    p.add_argument("--gamma", type=float, default=1.0, help="discount per decision of a seat")
    p.add_argument("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    p.add_argument("--epochs", type=_positive, default=4, help="passes over each rollout")
    p.add_argument("--minibatches", type=_positive, default=4, help="minibatches per pass")
    p.add_argument("--clip", type=float, default=0.2, help="PPO's clip range (policy ratio and value)")
    p.add_argument("--entropy", type=float, default=0.01, help="entropy bonus coefficient")
    p.add_argument("--value-coef", type=float, default=0.5, help="value loss coefficient")
    p.add_argument("--max-grad-norm", type=float, default=0.5, help="gradient norm clip")
    p.add_argument("--seed", type=int, default=0, help="seeds the training games, the sampling and the weights")
    p.add_argument("--eval-games", type=_positive, default=500, help="games of the evaluation")
    p.add_argument("--eval-hands", type=_positive, default=4, help="hands of each evaluation game")
    p.add_argument("--eval-seed", type=int, default=12345, help="the evaluation's deals (keep it to compare runs)")
    p.add_argument("--eval-every", type=_positive, default=200_000, help="decisions between evaluations")
    p.add_argument("--env-threads", type=_positive, default=1, help="threads of the vector environment")
    p.add_argument("--torch-threads", type=_positive, default=1, help="threads of PyTorch")
    p.add_argument("--log", type=Path, help="CSV learning curve: decisions, seconds, eval_points, eval_ci95")
    p.add_argument("--init", type=Path, help="start from a .rvnn network or a --save checkpoint")
    p.add_argument("--save", type=Path, help="write a checkpoint (policy and critic) at the end")
    p.add_argument("--export", type=Path, help="write the policy as a .rvnn network at the end")
    return p


def main(argv: list[str] | None = None) -> int:
    """Train, then print the paired change in points per hand against the opponents."""
    args = parser().parse_args(argv)
    result = train(args)
    change = result.change
    print(
        f"{result.decisions:,} decisions in {result.seconds:.1f} s: points per hand against {eval_opponents(args)} "
        f"{result.before.mean():.3f} -> {result.after.mean():.3f}, "
        f"change {change.mean:+.3f} (95% interval {change.low:+.3f} to {change.high:+.3f}, "
        f"{len(result.before):,} paired deals)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
