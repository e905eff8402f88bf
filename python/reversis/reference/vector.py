"""The vector environment of API-11: many seeded games stepped together by action ids.

Game ``i`` of a :class:`VectorEnv` plays episode after episode; episode ``e`` is the game
``Game(ruleset, seed=episode_seed(seed, i, e), hand_number=...)`` of API-3, one hand (from hand
number ``e mod (players × cycle)``) or one match (from hand 0). Each :meth:`VectorEnv.step`
applies one action id (ACT-2) per game for its acting seat (ACT-3) and rewrites, in place, the
buffers that describe every game: the acting seat, its legal ids, its OBS-3 observation, the
step's rewards and where an episode ended. A game whose episode ends starts its next one in the
same step (auto-reset). The reference steps the games one after another on the calling thread.

>>> from reversis.reference import VectorEnv, preset
>>> env = VectorEnv(preset("hearts-4"), num_envs=2, seed=7, history=True)
>>> env.current_player.tolist(), env.observation.shape
([0, 0], (2, 1435))
>>> first_legal = [row.index(True) for row in env.legal_action_mask.tolist()]
>>> env.step(first_legal)
>>> env.terminated.tolist(), env.rewards.tolist()
([False, False], [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
>>> env.game(0).selected(0) == [env.game(0).hand(0)[0]]
True
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..encoding import ENCODING_LENGTH, encode_observation
from ..errors import InvalidInputError, ReversisError, shown
from ..spaces import OBSERVATION_DTYPES, VectorSpaces
from .actions import NUM_ACTIONS
from .game import Game, shot_rules
from .ruleset import Ruleset, as_ruleset
from .seeding import SplitMix64, check_count

__all__ = ["MAX_ENVS", "VectorEnv", "episode_seed"]

#: API-11: the most games one environment holds.
MAX_ENVS = 65_536
EPISODE_KINDS = ("hand", "match")
REWARD_MODES = ("hand", "trick")
_MASK64 = (1 << 64) - 1
_INDEX_STRIDE = 0x9E3779B97F4A7C15
_EPISODE_STRIDE = 0xD1B54A32D192ED69


def episode_seed(seed: int, index: int, episode: int) -> int:
    """The seed of episode ``episode`` of game ``index`` of an environment seeded with ``seed``.

    Two SplitMix64 draws (SEED-1): ``b`` is the first draw from ``seed XOR (index ×
    0x9E3779B97F4A7C15)``, the result the first draw from ``b XOR (episode ×
    0xD1B54A32D192ED69)``, products wrapping modulo 2**64 (API-11). It depends on nothing else,
    so game ``index`` plays the same in every environment with that seed.

    >>> from reversis.reference import seed_draws
    >>> episode_seed(0, 0, 0) == seed_draws(seed_draws(0, 1)[0], 1)[0]
    True

    :raises InvalidInputError: ``invalid-setup`` unless all three are integers in 0 … 2**64-1.
    """
    check_count(seed, "a seed", 0, _MASK64)
    check_count(index, "a game index", 0, _MASK64)
    check_count(episode, "an episode index", 0, _MASK64)
    base = SplitMix64(seed ^ (index * _INDEX_STRIDE & _MASK64)).next()
    return SplitMix64(base ^ (episode * _EPISODE_STRIDE & _MASK64)).next()


class _Seen(NamedTuple):
    """What :func:`~reversis.encoding.encode_observation` reads: the ruleset and an OBS-1 dict."""

    ruleset: Ruleset
    data: dict[str, Any]


def _shaped(buffer: array, fmt: str, shape: tuple[int, ...]) -> memoryview:
    """A read-only view of ``buffer`` with element format ``fmt`` and ``shape``, sharing its memory."""
    octets: Any = memoryview(buffer).cast("B")  # typeshed types cast() only for literal formats
    view: memoryview = octets.cast(fmt, shape).toreadonly()
    return view


def _choice(value: Any, what: str, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``, else ``invalid-setup``."""
    if not isinstance(value, str) or value not in allowed:
        names = " or ".join(repr(name) for name in allowed)
        raise InvalidInputError("invalid-setup", f"{what} must be {names}, not {shown(value)}")
    return value


def _as_id(value: Any) -> Any:
    """``value`` as a Python ``int`` where it is an integer of another type (a NumPy scalar).

    Anything else, bools included, is returned as it is, for the game to reject.
    """
    if isinstance(value, (bool, int)):
        return value
    try:
        return operator.index(value)
    except TypeError:
        return value


def _id_list(actions: Any) -> list[Any]:
    """The items of ``actions``: a buffer of integers (read through a memoryview) or an iterable."""
    try:
        items = memoryview(actions).tolist()
    except (TypeError, NotImplementedError, ValueError):
        # Not a buffer, or one whose format memoryview cannot read (non-native byte order).
        if not isinstance(actions, Iterable) or isinstance(actions, (str, dict)):
            raise InvalidInputError(
                "invalid-action", f"actions must be a sequence of action ids, not {shown(actions)}"
            ) from None
        return [_as_id(item) for item in actions]
    if not isinstance(items, list):  # a zero-dimensional buffer
        raise InvalidInputError("invalid-action", f"actions must be a sequence of action ids, not {shown(actions)}")
    return [_as_id(item) for item in items]


#: API-11: the most threads a step may use (as ``simulate``; ERR-6).
MAX_THREADS = 256
#: The largest value a ``uint8`` observation holds.
_UINT8_MAX = 255


def _uint8_refusal(ruleset: Ruleset, episode: str) -> str | None:
    """Why a ``uint8`` observation cannot hold every value of OBS-3 for ``ruleset`` and ``episode``, or ``None``.

    API-11: the ``points`` block lies between the sum of the negative card values and that of
    the positive ones (each copy counted); the ``scores`` block is 0 in hand episodes, and in a
    match never below 0 without negative cards or a rule that replaces a hand's scores and may
    subtract (game.py's :func:`shot_rules`), and never above ``target - 1``, plus under
    ``count_down`` the most one hand adds (the positive values, or such a rule's bonus where larger).
    """
    values = ruleset.card_points
    for card, value in values.items():
        if value < 0:
            return f"the points block: {card} is worth {value}, and a seat's points go below 0 when it takes it"
    positive = sum(values.get(card, 0) for card in ruleset.deck)
    if positive > _UINT8_MAX:
        return f"the points block: the cards are worth {positive} together, and a seat can take them all"
    if episode == "hand":
        return None
    shots = shot_rules(ruleset)
    for name, scoring, _ in shots:
        if scoring != "add-to-others":
            return f"the scores block: the {name} is scored {scoring}, so a match's totals can go below 0"
    # API-11 (1.4.0): with no target, or a count-down past zero, a match's totals have no bound.
    if ruleset.target is None:
        return "the scores block: the ruleset has no target, so a match's totals have no bound"
    if ruleset.count_down_end == "below-zero":
        return "the scores block: the count-down goes below zero, so a match's totals can go below 0"
    highest = ruleset.target - 1
    if ruleset.count_down:
        highest += max(positive, *(bonus for _, _, bonus in shots))
    if highest > _UINT8_MAX:
        return f"the scores block: a match's totals reach {highest}, above {_UINT8_MAX}"
    return None


class VectorEnv(VectorSpaces):
    """``num_envs`` seeded games of one ruleset, stepped together by action ids (API-11).

    ``episode`` is ``"hand"`` (an episode is one hand from zero totals) or ``"match"`` (a whole
    match); ``rewards`` is ``"hand"`` (each seat is paid minus its score on the step that
    scores a hand) or ``"trick"`` (minus the points of each trick as it is won, and the moon
    rule's adjustment when the hand is scored). ``threads`` is recorded; the reference steps
    the games sequentially, which gives the same results whatever it says. With ``history``
    each game's episode is kept whole, so that :meth:`game` can give it; without it (the
    default) a game is only its position, as small as the Rust core can make it.
    ``observation_dtype`` is ``"int32"`` or ``"uint8"``, the latter only where every value of
    the observations fits 0 … 255 (API-11).

    The buffers :attr:`current_player`, :attr:`legal_action_mask`, :attr:`observation`,
    :attr:`rewards`, :attr:`terminated` and :attr:`episode_scores` are read-only memoryviews
    over this environment's own arrays: every :meth:`step` and :meth:`reset` overwrites them
    in place, so a view read once keeps showing the latest step.

    :raises InvalidInputError: ``invalid-setup`` for a ruleset that is not one, ``num_envs``
        not in 1 … 65 536, a seed not in 0 … 2**64-1, ``threads`` not an integer of at least 1,
        or an unknown ``episode`` or ``rewards``, or a ``history`` that is not a bool, or an
        ``observation_dtype`` that is neither, or ``"uint8"`` where a value can leave 0 … 255.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        num_envs: int,
        seed: int,
        *,
        threads: int = 1,
        episode: str = "hand",
        rewards: str = "hand",
        history: bool = False,
        observation_dtype: str = "int32",
    ) -> None:
        """Build the games of episode 0 and describe their first decisions in the buffers."""
        checked = as_ruleset(ruleset)
        if checked is None:
            raise InvalidInputError("invalid-setup", f"a vector environment needs a Ruleset, not {shown(ruleset)}")
        num_envs = check_count(num_envs, "a number of games", 1, MAX_ENVS)
        seed = check_count(seed, "a seed", 0, _MASK64)
        threads = check_count(threads, "a number of threads", 1, MAX_THREADS)
        self._ruleset = checked
        self._num_envs = num_envs
        self._seed = seed
        self._threads = threads
        self._episode = _choice(episode, "episode", EPISODE_KINDS)
        self._rewards_mode = _choice(rewards, "rewards", REWARD_MODES)
        if not isinstance(history, bool):
            raise InvalidInputError("invalid-setup", f"history must be True or False, not {shown(history)}")
        self._history = history
        self._observation_dtype = _choice(observation_dtype, "observation_dtype", OBSERVATION_DTYPES)
        if self._observation_dtype == "uint8":
            why = _uint8_refusal(checked, self._episode)
            if why is not None:
                raise InvalidInputError("invalid-setup", f'observation_dtype "uint8" cannot hold {why}')
        players = checked.players
        self._players = players
        passing = checked.passing
        # API-11: hand episodes walk through the dealers and the pass directions as a match does.
        self._rotation = players * (1 if passing is None else len(passing["cycle"]))

        # The buffers' memory: flat arrays, never resized, so that the views stay valid.
        self._player_data = array("i", bytes(4 * num_envs))
        self._mask_data = array("B", bytes(num_envs * NUM_ACTIONS))
        code, size = ("B", 1) if self._observation_dtype == "uint8" else ("i", 4)
        self._observation_data = array(code, bytes(size * num_envs * ENCODING_LENGTH))
        self._reward_data = array("f", bytes(4 * num_envs * players))
        self._terminated_data = array("B", bytes(num_envs))
        self._score_data = array("q", bytes(8 * num_envs * players))
        self._current_player = _shaped(self._player_data, "i", (num_envs,))
        self._legal_action_mask = _shaped(self._mask_data, "?", (num_envs, NUM_ACTIONS))
        self._observation = _shaped(self._observation_data, code, (num_envs, ENCODING_LENGTH))
        self._rewards = _shaped(self._reward_data, "f", (num_envs, players))
        self._terminated = _shaped(self._terminated_data, "?", (num_envs,))
        self._episode_scores = _shaped(self._score_data, "q", (num_envs, players))

        self._episodes = [0] * num_envs
        self._games = [self._new_game(i) for i in range(num_envs)]
        self._legal = [0] * num_envs  # each game's legal mask (ACT-3), as in the mask buffer
        for i in range(num_envs):
            self._describe(i)

    # ------------------------------------------------------------------ inspection

    @property
    def num_envs(self) -> int:
        """The number of games."""
        return self._num_envs

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset every game plays (this engine's)."""
        return self._ruleset

    @property
    def seed(self) -> int:
        """The seed every episode's seed comes from (:func:`episode_seed`)."""
        return self._seed

    @property
    def threads(self) -> int:
        """The number of threads asked for; the reference steps on the calling thread alone."""
        return self._threads

    @property
    def episode(self) -> str:
        """What an episode is: ``"hand"`` or ``"match"``."""
        return self._episode

    @property
    def rewards_mode(self) -> str:
        """When rewards are paid: ``"hand"`` or ``"trick"``."""
        return self._rewards_mode

    @property
    def history(self) -> bool:
        """Whether each game's episode is kept whole, so that :meth:`game` can give it."""
        return self._history

    @property
    def observation_dtype(self) -> str:
        """The element type of :attr:`observation`: ``"int32"`` or ``"uint8"``."""
        return self._observation_dtype

    def episode_index(self, index: int) -> int:
        """The episode game ``index`` is playing, 0 for its first.

        :raises InvalidInputError: ``invalid-action`` for an index that is not a game's.
        """
        return self._episodes[self._check_index(index)]

    def game(self, index: int) -> Game:
        """A copy of game ``index`` in its current episode, as a reference :class:`Game`.

        Its ``legal_mask()`` is row ``index`` of :attr:`legal_action_mask`, and the
        observation of its acting seat encodes to row ``index`` of :attr:`observation`.

        :raises InvalidInputError: ``invalid-action`` for an index that is not a game's;
            ``invalid-setup`` in an environment built without ``history``.
        """
        game = self._games[self._check_index(index)]
        if not self._history:
            raise InvalidInputError(
                "invalid-setup",
                "this environment keeps no history, so a game cannot be rebuilt (create it with history=True)",
            )
        return game.copy()

    # --------------------------------------------------------------------- buffers

    @property
    def current_player(self) -> memoryview:
        """``int32``, shape ``(num_envs,)``: each game's acting seat (ACT-3)."""
        return self._current_player

    @property
    def legal_action_mask(self) -> memoryview:
        """``bool``, shape ``(num_envs, 106)``: ``True`` for each legal id of the acting seat."""
        return self._legal_action_mask

    @property
    def observation(self) -> memoryview:
        """:attr:`observation_dtype`, shape ``(num_envs, 1435)``: OBS-3 of the acting seat's observation."""
        return self._observation

    @property
    def rewards(self) -> memoryview:
        """``float32``, shape ``(num_envs, players)``: each seat's reward for the last step."""
        return self._rewards

    @property
    def terminated(self) -> memoryview:
        """``bool``, shape ``(num_envs,)``: ``True`` where the last step ended the game's episode."""
        return self._terminated

    @property
    def episode_scores(self) -> memoryview:
        """``int64``, shape ``(num_envs, players)``: the ended episode's scores where terminated, else 0."""
        return self._episode_scores

    # -------------------------------------------------------------------- stepping

    def step(self, actions: Any) -> None:
        """Apply ``actions[i]`` for the acting seat of game ``i``, for every game, and update the buffers.

        ``actions`` holds one action id per game: a sequence of integers or any buffer of
        integers (a NumPy array of any integer type). Every id is checked before any is
        applied, so a rejected step changes nothing (ERR-1).

        :raises InvalidInputError: ``invalid-action`` when the number of ids is not
            :attr:`num_envs`, or for an id that is not an integer in 0 … 105.
        :raises ReversisError: the rejection of the first illegal id by its game (ERR-4),
            its message starting ``game <i>:``.
        """
        ids = _id_list(actions)
        if len(ids) != self._num_envs:
            raise InvalidInputError("invalid-action", f"step needs {self._num_envs} action ids, not {len(ids)}")
        for i, action_id in enumerate(ids):
            legal = isinstance(action_id, int) and not isinstance(action_id, bool) and 0 <= action_id < NUM_ACTIONS
            if not (legal and self._legal[i] >> action_id & 1):
                raise self._rejection(i, action_id)
        self._clear_outcomes()
        for i, action_id in enumerate(ids):
            game = self._games[i]
            game.apply_action(action_id)
            self._pay(i, game)
            self._describe(i)

    def reset(self) -> None:
        """Abandon every game's episode and start its next one; rewards and the rest become 0.

        The next episode has a seed of its own, so a reset never replays a deal.
        """
        self._clear_outcomes()
        for i in range(self._num_envs):
            self._episodes[i] += 1
            self._games[i] = self._new_game(i)
            self._describe(i)

    def __repr__(self) -> str:
        return (
            f"VectorEnv({self._ruleset.name!r}, num_envs={self._num_envs}, seed={self._seed}, "
            f"threads={self._threads}, episode={self._episode!r}, rewards={self._rewards_mode!r}, "
            f"history={self._history}, observation_dtype={self._observation_dtype!r})"
        )

    # ------------------------------------------------------------------- internals

    def _check_index(self, index: Any) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self._num_envs:
            raise InvalidInputError(
                "invalid-action", f"a game index is an integer from 0 to {self._num_envs - 1}, not {shown(index)}"
            )
        return index

    def _new_game(self, i: int) -> Game:
        """Episode ``self._episodes[i]`` of game ``i``, dealt from its seed."""
        episode = self._episodes[i]
        hand_number = episode % self._rotation if self._episode == "hand" else 0
        return Game(self._ruleset, seed=episode_seed(self._seed, i, episode), hand_number=hand_number)

    def _rejection(self, i: int, action_id: Any) -> ReversisError:
        """The error game ``i`` raises for ``action_id``, named after the game, leaving it untouched.

        The game's own ``apply_action`` decides the code (ERR-4); it is asked on a copy so that
        the check can never change the game even if it accepted the id.
        """
        try:
            self._games[i].copy().apply_action(action_id)
        except ReversisError as error:
            return type(error)(error.code, f"game {i}: {error}")
        # The mask and the game disagree; that is a bug of this module, not of the caller.
        raise AssertionError(f"game {i} accepts action {action_id!r}, which its mask does not hold")

    def _clear_outcomes(self) -> None:
        """Rewards, ``terminated`` and ``episode_scores`` become 0 before a step fills them."""
        size = self._num_envs * self._players
        self._reward_data[:] = array("f", bytes(4 * size))
        self._terminated_data[:] = array("B", bytes(self._num_envs))
        self._score_data[:] = array("q", bytes(8 * size))

    def _pay(self, i: int, game: Game) -> None:
        """Fill row ``i`` of the rewards from the step's events; end the episode where it ended."""
        players = self._players
        reward = [0] * players
        ended: list[int] | None = None
        for event in game.events:
            # A trick held over (PLAY-9) has no winner and pays nobody until it is captured.
            if event["type"] == "trick" and self._rewards_mode == "trick" and event["winner"] is not None:
                reward[event["winner"]] -= event["points"]
            elif event["type"] == "hand":
                for seat in range(players):
                    reward[seat] -= event["scores"][seat]
                    if self._rewards_mode == "trick":
                        # The trick rewards already paid the points captured: this is the moon's change.
                        reward[seat] += event["points"][seat]
                if self._episode == "hand":
                    ended = event["scores"]
        if self._episode == "match" and game.phase == "over":
            ended = game.scores
        row = slice(i * players, (i + 1) * players)
        self._reward_data[row] = array("f", reward)
        if ended is not None:
            self._terminated_data[i] = 1
            self._score_data[row] = array("q", ended)
            self._episodes[i] += 1
            self._games[i] = self._new_game(i)

    def _describe(self, i: int) -> None:
        """Write game ``i``'s acting seat, its legal ids and its observation into the buffers."""
        game = self._games[i]
        seat = game.to_act
        # A seeded game deals each hand itself, and the episode ends before phase over.
        assert seat is not None
        legal = game.legal_mask()
        self._legal[i] = legal
        self._player_data[i] = seat
        self._mask_data[i * NUM_ACTIONS : (i + 1) * NUM_ACTIONS] = array(
            "B", [legal >> action_id & 1 for action_id in range(NUM_ACTIONS)]
        )
        encoded = encode_observation(_Seen(self._ruleset, game.observation(seat)))
        if self._observation_data.typecode != encoded.typecode:
            # The constructor's check keeps every value within 0 … 255: no value is refused.
            encoded = array(self._observation_data.typecode, encoded)
        self._observation_data[i * ENCODING_LENGTH : (i + 1) * ENCODING_LENGTH] = encoded
