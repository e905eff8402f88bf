"""MaskablePPO (sb3-contrib) on the reversis PettingZoo AEC environment, in self-play.

    python examples/learning/sb3_pettingzoo.py --timesteps 200000 --save hearts-ppo.zip

The shape is that of PettingZoo's tutorial for Connect Four with action masking: a wrapper
turns the AEC environment into a single-agent Gymnasium environment whose ``action_mask()``
``sb3_contrib``'s ``ActionMasker`` reads. One change is needed for a game of four seats whose
rewards come late: the tutorial hands every seat's turn to the model in one stream, and the
reward a step returns is the acting seat's for that step alone, so a hand's score would reach
only the seat that happened to play its last card, and a trick's points would be credited to
whichever seat's turn came next. Here the wrapper gives the model one seat per episode (the
seat turns from hand to hand), plays the other seats itself with the model's current policy
(``--opponents self``, self-play) or at random (``--opponents random``), and returns as each
step's reward everything that seat collected until its next decision: minus the points of the
tricks it took (``--rewards trick``), or minus its score when the hand is scored (``hand``).

Before and after training the model is evaluated greedily against random players on the same
seeded deals, one seat of each, and the change in points per hand is printed with a 95%
interval on the paired differences.

Needs the ``learn`` extra (``sb3-contrib``, ``torch``, ``pettingzoo``, ``gymnasium``).
``--export`` writes the policy as a ``.rvnn`` network and needs ``reversis.players.learned``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import gymnasium
import numpy as np
import torch
from pettingzoo.utils import BaseWrapper
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from reversis.adapters import pettingzoo as reversis_pz
from reversis.encoding import ENCODING_VERSION

#: Chooses an id for one seat from its AEC observation (``observation`` and ``action_mask``).
Chooser = Callable[[dict[str, np.ndarray]], int]


def random_chooser(rng: np.random.Generator) -> Chooser:
    """A player choosing uniformly among the legal ids, with ``rng``."""

    def choose(observation: dict[str, np.ndarray]) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    return choose


def model_chooser(model: MaskablePPO, rng: np.random.Generator | None) -> Chooser:
    """A player choosing with ``model``'s actor: sampled with ``rng``, or (``None``) its best legal id.

    The actor's logits are computed directly: one observation at a time, ``model.predict``
    costs several times the network itself. A sample is the Gumbel-max of the masked logits,
    which draws from the masked softmax exactly; the greedy choice is the legal id of highest
    logit, as a ``.rvnn`` network decides.
    """
    policy = model.policy

    def choose(observation: dict[str, np.ndarray]) -> int:
        with torch.no_grad():
            tensor = torch.as_tensor(observation["observation"][None], dtype=torch.float32)
            features = policy.extract_features(tensor, policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0].numpy()
        if rng is not None:
            logits = logits - np.log(-np.log(rng.random(logits.shape)))
        return int(np.where(observation["action_mask"].astype(bool), logits, -np.inf).argmax())

    return choose


class SB3ActionMaskWrapper(BaseWrapper, gymnasium.Env):  # type: ignore[misc]
    """One seat of the AEC environment as a Gymnasium environment with an action mask.

    ``reset`` and ``step`` return that seat's observation (OBS-3 alone; the mask is
    :meth:`action_mask`), ``step`` the reward the seat collected up to its next decision. The
    other seats are played inside ``step`` by ``opponent``, which may be set after construction
    (self-play needs the model, which needs the environment first).
    """

    def __init__(self, env: Any, rewards: str = "trick", opponent: Chooser | None = None, seed: int = 0) -> None:
        super().__init__(env)
        if rewards not in ("trick", "hand"):
            raise ValueError(f"rewards must be 'trick' or 'hand', not {rewards!r}")
        self.reward_mode = rewards
        self.opponent = opponent or random_chooser(np.random.default_rng(seed))
        first = self.env.possible_agents[0]
        # SB3 reads the spaces as attributes, the same for every seat.
        self.observation_space = self.env.observation_space(first)["observation"]
        self.action_space = self.env.action_space(first)
        self.learner = first
        self._episodes = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal the next hand; the model's seat is the next one round the table."""
        self.env.reset(seed=seed, options=options)
        agents = self.env.possible_agents
        self.learner = agents[self._episodes % len(agents)]
        self._episodes += 1
        self._play_others()
        return self.observe(self.learner), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The model's seat acts; the others play until its next decision or the end of the hand."""
        self.env.step(int(action))
        reward = self._credit() + self._play_others()
        ended = self.env.terminations[self.learner]
        return self.observe(self.learner), reward, ended, False, {}

    def observe(self, agent: str) -> np.ndarray:
        """The OBS-3 tensor of ``agent``, without its mask."""
        return self.env.observe(agent)["observation"]

    def action_mask(self) -> np.ndarray:
        """The legal ids of the model's seat, as ``ActionMasker`` asks for them."""
        return self.env.observe(self.learner)["action_mask"].astype(bool)

    def _play_others(self) -> float:
        """Let the other seats act until the model's seat is to act or the hand is over; its rewards meanwhile."""
        collected = 0.0
        while not self.env.terminations[self.learner] and self.env.agent_selection != self.learner:
            self.env.step(self.opponent(self.env.observe(self.env.agent_selection)))
            collected += self._credit()
        return collected

    def _credit(self) -> float:
        """The model's seat's reward for the step just taken."""
        if self.reward_mode == "hand":
            return float(self.env.rewards[self.learner])
        # Per trick: minus the points of each trick the seat takes, and when the hand is scored
        # what the moon rule changes (its score minus the points it took), as VectorEnv's "trick".
        seat = self.env.possible_agents.index(self.learner)
        reward = 0.0
        for event in self.env.unwrapped.events:
            if event["type"] == "trick" and event["winner"] == seat:
                reward -= event["points"]
            elif event["type"] == "hand":
                reward -= event["scores"][seat] - event["points"][seat]
        return reward


def make_env(ruleset: str, rewards: str, seed: int) -> SB3ActionMaskWrapper:
    """The wrapped environment: its deals and its random opponents seeded from ``seed``."""
    return SB3ActionMaskWrapper(reversis_pz.env(ruleset, seed=seed), rewards=rewards, seed=seed)


def evaluate(model: MaskablePPO, ruleset: str, deals: int, seed: int) -> np.ndarray:
    """The model's points in ``deals`` seeded hands, greedily, one seat against random players.

    Deal ``d`` is the AEC environment's ``reset(seed=seed + d)`` (hand number 0, passing to the
    left); the model holds seat
    ``d mod players`` and the others draw from a generator seeded with ``d``, so two
    evaluations meet the same deals and are compared deal by deal.
    """
    env = reversis_pz.env(ruleset)
    learner = model_chooser(model, None)
    points = np.zeros(deals)
    for deal in range(deals):
        env.reset(seed=seed + deal)
        seat = env.possible_agents[deal % len(env.possible_agents)]
        others = random_chooser(np.random.default_rng(deal))
        collected = 0.0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if agent == seat:
                collected += reward
            if terminated or truncated:
                env.step(None)
            else:
                env.step(learner(observation) if agent == seat else others(observation))
        points[deal] = -collected
    return points


@dataclass(frozen=True)
class Outcome:
    """Points per hand against random players, before and after, deal by deal."""

    before: np.ndarray
    after: np.ndarray
    timesteps: int
    seconds: float

    def change(self) -> tuple[float, float, float]:
        """The mean of after − before and its 95% interval (normal approximation)."""
        differences = self.after - self.before
        mean = float(differences.mean())
        half = 1.96 * float(differences.std(ddof=1)) / math.sqrt(len(differences))
        return mean, mean - half, mean + half


def export_rvnn(model: MaskablePPO, path: Path, metadata: dict[str, Any]) -> None:
    """Write the model's actor (ReLU layers then the action layer) as a ``.rvnn`` network."""
    from reversis.players.learned import write_weights

    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    linears.append(model.policy.action_net)
    layers = [
        (
            layer.weight.detach().double().numpy(),
            layer.bias.detach().double().numpy(),
            "identity" if k == len(linears) - 1 else "relu",
        )
        for k, layer in enumerate(linears)
    ]
    write_weights(path, layers, {"encoding_version": ENCODING_VERSION, **metadata})


def run(args: argparse.Namespace) -> Outcome:
    """Evaluate, train as ``args`` say, evaluate again."""
    torch.set_num_threads(args.torch_threads)
    wrappers = [make_env(args.ruleset, args.rewards, args.seed + k) for k in range(args.num_envs)]
    # DummyVecEnv wants factories; each returns an environment built above, so that the
    # wrappers stay at hand to be given their opponent.
    vec_env = DummyVecEnv([lambda w=w: ActionMasker(w, lambda e: e.action_mask()) for w in wrappers])
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=args.lr,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        gamma=args.gamma,
        ent_coef=args.entropy,
        # An MLP of ReLU layers on the raw tensor is what a .rvnn network holds.
        policy_kwargs={"net_arch": {"pi": args.hidden, "vf": args.hidden}, "activation_fn": nn.ReLU},
        seed=args.seed,
        verbose=0,
    )
    if args.opponents == "self":
        for k, wrapper in enumerate(wrappers):
            wrapper.opponent = model_chooser(model, np.random.default_rng([args.seed, k]))
    before = evaluate(model, args.ruleset, args.eval_deals, args.eval_seed)
    started = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - started
    after = evaluate(model, args.ruleset, args.eval_deals, args.eval_seed)
    if args.save:
        model.save(args.save)
    if args.export:
        command = "examples/learning/sb3_pettingzoo.py " + " ".join(sys.argv[1:])
        export_rvnn(model, args.export, {"preset": args.ruleset, "trained_by": command})
    return Outcome(before, after, int(model.num_timesteps), seconds)


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
    p = argparse.ArgumentParser(description="MaskablePPO on the reversis PettingZoo environment, in self-play.")
    p.add_argument("--ruleset", choices=("hearts-computer", "hearts-4"), default="hearts-computer", help="a preset")
    p.add_argument("--opponents", choices=("self", "random"), default="self", help="the other seats in training")
    p.add_argument("--rewards", choices=("trick", "hand"), default="trick", help="minus points per trick, or per hand")
    p.add_argument("--timesteps", type=_positive, default=200_000, help="decisions of the model's seat to train on")
    p.add_argument("--num-envs", type=_positive, default=4, help="environments stepped together")
    p.add_argument("--n-steps", type=_positive, default=512, help="steps of each environment per rollout")
    p.add_argument("--batch-size", type=_positive, default=256, help="minibatch size")
    p.add_argument("--hidden", type=_sizes, default=[128, 128], help="hidden layer sizes (default 128,128)")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument("--gamma", type=float, default=1.0, help="discount per decision")
    p.add_argument("--entropy", type=float, default=0.01, help="entropy bonus coefficient")
    p.add_argument("--seed", type=int, default=0, help="seeds the training deals, the opponents and the weights")
    p.add_argument("--eval-deals", type=_positive, default=500, help="deals of each evaluation")
    p.add_argument("--eval-seed", type=int, default=1_000_000, help="the evaluation's first deal seed")
    p.add_argument("--torch-threads", type=_positive, default=1, help="threads of PyTorch")
    p.add_argument("--save", type=Path, help="save the model (SB3's .zip)")
    p.add_argument("--export", type=Path, help="write the policy as a .rvnn network")
    return p


def main(argv: list[str] | None = None) -> int:
    """Train, then print the paired change in points per hand against random players."""
    args = parser().parse_args(argv)
    outcome = run(args)
    mean, low, high = outcome.change()
    print(
        f"{outcome.timesteps:,} decisions in {outcome.seconds:.1f} s: points per hand against random "
        f"{outcome.before.mean():.3f} -> {outcome.after.mean():.3f}, change {mean:+.3f} "
        f"(95% interval {low:+.3f} to {high:+.3f}, {len(outcome.before):,} paired deals)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
