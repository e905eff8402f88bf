"""Every reversis ruleset as a PettingZoo AEC environment (turn by turn, one seat at a time).

>>> from reversis.adapters import pettingzoo as reversis_pz
>>> env = reversis_pz.env("hearts-4", seed=1)
>>> env.reset()
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((1435,), (106,))

Needs the optional packages ``pettingzoo`` and ``numpy``. The conventions are those of
PettingZoo's classic card games (``pettingzoo.classic``'s Texas Hold'em and Leduc):

- **Agents** are ``"player_0"`` … ``"player_{n-1}"``, seat ``i`` being ``"player_i"`` (SEAT-1),
  for every ruleset of 3 to 10 players. ``agent_selection`` is the game's acting seat
  (``Game.to_act``, ACT-3): the seat to play, the moon taker, or in phase ``pass`` the lowest seat
  still building its pass, one selected card per step.
- **Actions** are the 106 ids of ACT-2 (``Discrete(106)``): ``c`` plays card ``c``, ``52 + c``
  selects card ``c`` toward the pass, 104 and 105 are the moon choices. An illegal id raises the
  engine's :class:`~reversis.IllegalActionError` or :class:`~reversis.InvalidInputError` and
  changes nothing, so no wrapper turns it into a penalty: a learner is expected to sample from the
  mask.
- **Observations** are ``{"observation", "action_mask"}``. ``observation`` is OBS-3's 1435
  ``int32`` (:func:`reversis.encoding.encode_observation` of the seat's OBS-1 observation, so it
  never shows a hidden card, OBS-2); ``action_mask`` is 106 ``int8``, 1 for each legal id of the
  agent when it is ``agent_selection`` and all 0 for every other agent.
- **Rewards** are minus points, as in API-11's ``rewards="hand"``: the step that scores a hand
  gives each seat minus its score for the hand after the moon rule (the ``hand`` event's
  ``scores``, EVT-1); every other step gives 0. ``last()`` returns what an agent has collected
  since it last acted.
- **Episodes.** ``episode="hand"`` is one hand from zero totals, ending (every agent terminated)
  on the step that scores it; successive episodes play hand numbers 0, 1, 2, … modulo
  ``players × len(passing.cycle)`` (API-11), so dealers and pass directions rotate. Its final
  observation is the game at rest in phase ``deal``, the hand's scores in the totals; the next
  hand is not dealt. ``episode="match"`` is a whole match from hand 0, ending when the game
  reaches phase ``over``. Nothing is ever truncated.
- **Seeds.** ``reset(seed=s)`` deals exactly what ``Game(ruleset, seed=s, hand_number=h)``
  deals (SEED-5): the environment deals the seed's hands itself (``deal_from_seed``), so that a
  hand episode can stop before the next deal. ``reset()`` without a seed draws a 64-bit game seed
  from a :class:`random.Random` seeded by the last seed given to ``reset`` (or to the
  constructor, which counts as the first reset's), else by :func:`os.urandom`.
- **Options.** ``reset(options={"hands": hands, "hand_number": h})`` deals ``hands`` (a list of
  hands of card strings, DEAL-1) as the episode's first hand instead of the seed's, and starts at
  hand number ``h``; later hands of a match still come from the seed. Any other key is ignored,
  as PettingZoo's API test passes options of its own.
- **Inspection.** ``env.unwrapped`` has ``game`` (the episode's ``Game``, to read, not to
  change), ``events`` (what the last step set off, EVT-1), ``game_seed`` and ``ruleset``.
- **Rendering.** ``render_mode="ansi"`` makes ``render()`` return a short text table (totals,
  points, the trick in progress, the acting seat's hand); ``"human"`` prints it after every step;
  ``None`` renders nothing.
"""

from __future__ import annotations

import importlib
import operator
import os
import random
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from reversis import NUM_ACTIONS
from reversis.encoding import ENCODING_LENGTH, LAYOUT, encode_observation
from reversis.players import Observation

__all__ = ["NUM_ACTIONS", "action_space", "env", "observation_space", "raw_env"]

_ENGINES = {"rust": "reversis", "reference": "reversis.reference"}
_ENGINE_ALIASES = {"rust": "rust", "reversis": "rust", "reference": "reference", "reversis.reference": "reference"}
_EPISODES = ("hand", "match")
# The blocks of OBS-3 that hold signed totals, and those that count a card's copies (0 to 2).
_SIGNED_BLOCKS = ("points", "scores")
_COUNT_BLOCKS = ("hand", "played", "passed", "received", "selected", "held_over")
_MAX_COPIES = 2
# Deals drawn from the seed at a time in a match: matches of the presets rarely need more.
_MATCH_DEALS = 8


def observation_space() -> spaces.Dict:
    """The observation space of every agent, whatever the ruleset: OBS-3's bounds and the mask.

    Indicator blocks are 0 or 1; the blocks that count a card's copies 0 to 2 (two packs,
    RS-21); the points and totals blocks take any ``int32`` (totals have no bound: a match may
    start from any totals, and Omnibus points go below zero).
    """
    low = np.zeros(ENCODING_LENGTH, dtype=np.int32)
    high = np.ones(ENCODING_LENGTH, dtype=np.int32)
    limits = np.iinfo(np.int32)
    for name, offset, length in LAYOUT:
        if name in _SIGNED_BLOCKS:
            low[offset : offset + length] = limits.min
            high[offset : offset + length] = limits.max
        elif name in _COUNT_BLOCKS:
            high[offset : offset + length] = _MAX_COPIES
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, dtype=np.int32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    """The action space of every agent: the 106 ids of ACT-2."""
    return spaces.Discrete(NUM_ACTIONS)


def env(
    ruleset: Any = "hearts-4",
    *,
    seed: int | None = None,
    episode: str = "hand",
    render_mode: str | None = None,
    engine: Any = None,
) -> AECEnv:
    """A reversis AEC environment, wrapped to enforce PettingZoo's call order.

    ``ruleset`` is a preset name, a ``Ruleset`` of either engine, or a ruleset's JSON object;
    ``engine`` is ``"rust"`` (the default, ``reversis``) or ``"reference"``
    (``reversis.reference``), or either module. See :class:`raw_env` for the rest.
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(ruleset, seed=seed, episode=episode, render_mode=render_mode, engine=engine)
    )


def _engine_name(engine: Any) -> str:
    """``"rust"`` or ``"reference"`` for an engine given by name or module."""
    if engine is None:
        return "rust"
    if isinstance(engine, ModuleType):
        name = getattr(engine, "ENGINE", None)
        if engine.__name__ in _ENGINES.values() and name in _ENGINES:
            return str(name)
    elif isinstance(engine, str) and engine in _ENGINE_ALIASES:
        return _ENGINE_ALIASES[engine]
    raise ValueError(f"engine must be 'rust' (reversis) or 'reference' (reversis.reference), not {engine!r}")


def _action_id(action: Any) -> Any:
    """An integer id for what learning code hands over (NumPy integers, 0-d arrays); anything else as given.

    What is not an integer goes on to the engine unchanged, whose ``invalid-action`` names it.
    """
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    if isinstance(action, np.integer):
        return int(action)
    return action


class raw_env(AECEnv):  # lower case: the name PettingZoo gives every unwrapped environment
    """The unwrapped AEC environment; :func:`env` adds PettingZoo's order checks.

    ``seed`` seeds the first ``reset()`` that is given none; ``episode`` is ``"hand"`` or
    ``"match"``; ``render_mode`` is ``None``, ``"ansi"`` or ``"human"``; ``engine`` as for
    :func:`env`. A bad ``episode``, ``render_mode`` or ``engine`` is a :class:`ValueError`, a bad
    ruleset the engine's error (``unknown-preset``, ``invalid-ruleset``, ``invalid-setup``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads and extends it as a plain dict)
        "render_modes": ["human", "ansi"],
        "name": "reversis_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: Any = "hearts-4",
        *,
        seed: int | None = None,
        episode: str = "hand",
        render_mode: str | None = None,
        engine: Any = None,
    ) -> None:
        super().__init__()
        if episode not in _EPISODES:
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        # The engine is kept by name so that the environment pickles (a module does not).
        self._engine_name = _engine_name(engine)
        engine_module = self.engine
        if isinstance(ruleset, str):
            ruleset = engine_module.preset(ruleset)
        elif isinstance(ruleset, dict):
            ruleset = engine_module.Ruleset.from_json(ruleset)
        # The engine's own ruleset (API-2: equal to the one given), and anything else rejected now.
        ruleset = engine_module.Game(ruleset).ruleset
        self.ruleset: Any = ruleset
        self.episode = episode
        self.render_mode = render_mode
        players = int(ruleset.players)
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per agent, so that seeding one agent's sampling leaves the others alone.
        self.observation_spaces = {agent: observation_space() for agent in self.possible_agents}
        self.action_spaces = {agent: action_space() for agent in self.possible_agents}
        passing = ruleset.passing
        self._hand_cycle = players * (len(passing["cycle"]) if passing else 1)
        self._first_seed = seed
        self._rng = random.Random(int.from_bytes(os.urandom(8), "little"))
        self._episode_index = 0
        self._game: Any = None
        self._game_seed = 0
        self._first_hand = 0
        self._deals: list[Any] = []
        self._hands_dealt = 0
        self._events: list[dict[str, Any]] = []
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    # ------------------------------------------------------------------ inspection

    @property
    def engine(self) -> ModuleType:
        """The engine module: ``reversis`` or ``reversis.reference``."""
        return importlib.import_module(_ENGINES[self._engine_name])

    @property
    def game(self) -> Any:
        """The game of the current episode (``None`` before the first reset); read it, do not change it."""
        return self._game

    @property
    def events(self) -> list[dict[str, Any]]:
        """What the last step (or reset) set off (EVT-1), as a seeded game would list it.

        In a match this is the step's action's events followed by those of the next hand's deal,
        which the environment makes itself; ``game.events`` holds only the deal's.
        """
        return list(self._events)

    @property
    def game_seed(self) -> int:
        """The seed the current episode's hands are dealt from (SEED-5)."""
        return self._game_seed

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent`` (the same object every time)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start the next episode; see the module's documentation for ``seed`` and ``options``.

        A rejected seed or option (the engine's error) leaves the environment as it was.
        """
        if seed is None:
            seed = self._first_seed
        options = options or {}
        if seed is not None:
            game_seed = operator.index(seed)
            rng = random.Random(game_seed)
            episode_index = 0
        else:
            # A copy, so that a rejected reset leaves the sequence of seeds where it was.
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            episode_index = self._episode_index
            game_seed = rng.getrandbits(64)
        if "hand_number" in options:
            first_hand = options["hand_number"]
        elif self.episode == "hand":
            first_hand = episode_index % self._hand_cycle
        else:
            first_hand = 0
        engine = self.engine
        game = engine.Game(self.ruleset, hand_number=first_hand)
        count = 1 if self.episode == "hand" else _MATCH_DEALS
        deals = list(engine.deal_from_seed(self.ruleset, game_seed, count, first_hand))
        if "hands" in options:
            # Later hands of a match still follow the seed, as though its first deal were replaced.
            deals[0] = options["hands"]
        game.deal(deals[0])

        self._first_seed = None
        self._rng = rng
        self._episode_index = episode_index + 1
        self._game = game
        self._game_seed = game_seed
        self._first_hand = first_hand
        self._deals = deals
        self._hands_dealt = 1
        self._events = list(game.events)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[game.to_act]
        self._skip_agent_selection = None

    def _deal_next(self) -> None:
        """Deal the match's next hand from the seed, drawing more deals when those drawn run out."""
        if self._hands_dealt >= len(self._deals):
            more = self.engine.deal_from_seed(self.ruleset, self._game_seed, 2 * len(self._deals), self._first_hand)
            self._deals.extend(more[len(self._deals) :])
        self._game.deal(self._deals[self._hands_dealt])
        self._hands_dealt += 1

    def step(self, action: Any) -> None:
        """Apply ``action`` (an id of ACT-2) for ``agent_selection``, or ``None`` for a terminated agent.

        An illegal id raises the engine's error and changes nothing (ERR-1).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        game.apply_action(_action_id(action), self._seats[agent])

        events = list(game.events)
        rewards = dict.fromkeys(self.agents, 0.0)
        ended = False
        for event in events:
            if event["type"] == "hand":
                for seat, score in enumerate(event["scores"]):
                    rewards[self.possible_agents[seat]] = float(-score)
                ended = ended or self.episode == "hand"
            elif event["type"] == "over":
                ended = True
        if not ended and game.phase == "deal":
            self._deal_next()
            events += game.events
        self._events = events

        # The acting agent has just been handed its collected reward by last(); it starts afresh.
        self._cumulative_rewards[agent] = 0.0
        self.rewards = rewards
        if ended:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.to_act]
        self._accumulate_rewards()
        if ended:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The OBS-3 encoding of ``agent``'s observation, and its action mask."""
        seat = self._seats[agent]
        game = self._game
        encoded = encode_observation(Observation(game.ruleset, game.observation(seat)))
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        acting = agent == self.agent_selection and not (
            self.terminations.get(agent, True) or self.truncations.get(agent, True)
        )
        if acting:
            mask[game.legal_actions(seat)] = 1
        return {"observation": np.asarray(encoded, dtype=np.int32), "action_mask": mask}

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """The table as text: returned under ``"ansi"``, printed under ``"human"``, nothing under ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing is rendered")
            return None
        text = self._table()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _table(self) -> str:
        """A few lines: the hand, each seat's totals and points, the trick, the acting seat's cards."""
        game = self._game
        if game is None:
            return "(no game: call reset())"
        direction = game.pass_direction or "none"
        lines = [
            f"{self.ruleset.name}  hand {game.hand_number}  dealer player_{game.dealer}  "
            f"pass {direction}  phase {game.phase}",
            f"{'agent':<10}{'total':>7}{'points':>8}{'cards':>7}",
        ]
        for seat, agent in enumerate(self.possible_agents):
            marker = "  <- to act" if seat == game.to_act else ""
            lines.append(f"{agent:<10}{game.scores[seat]:>7}{game.points[seat]:>8}{len(game.hand(seat)):>7}{marker}")
        trick = "  ".join(f"player_{play['seat']} {play['card']}" for play in game.trick)
        lines.append(f"trick: {trick or '-'}")
        if game.to_act is not None:
            seat = game.to_act
            lines.append(f"player_{seat} holds: {' '.join(game.hand(seat))}")
            selected = game.selected(seat)
            if selected:
                lines.append(f"player_{seat} selected: {' '.join(selected)}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: rendering is text."""
