"""Thousands of games per call: the Rust core's batched environment (API-11, spec/api.md).

A :class:`VectorEnv` steps ``num_envs`` games of one ruleset with one action id per game
(ACT-2), the GIL released, on ``threads`` threads, and leaves what learning code reads next in
buffers shared without a copy: ``numpy.asarray`` wraps them through the buffer protocol, and
``numpy.from_dlpack``, ``torch.from_dlpack`` and ``jax.dlpack.from_dlpack`` through DLPack. The
package itself needs none of those.

>>> import reversis
>>> env = reversis.VectorEnv(reversis.preset("hearts-4"), num_envs=2, seed=1, observation_dtype="uint8")
>>> env.observation.shape, env.observation.format, env.legal_action_mask.format
((2, 1435), 'B', '?')
>>> mask = env.legal_action_mask.tolist()  # or numpy.asarray(env.legal_action_mask)
>>> env.step([row.index(True) for row in mask])  # the lowest legal id of each game
>>> env.terminated.tolist()
[False, False]
"""

from __future__ import annotations

from . import _core
from .spaces import VectorSpaces

__all__ = ["VectorEnv", "episode_seed"]

episode_seed = _core.episode_seed


class VectorEnv(_core.VectorEnv, VectorSpaces):
    """``num_envs`` games of one ruleset stepped together by action ids (API-11).

    ``VectorEnv(ruleset, num_envs, seed, *, threads=1, episode="hand", rewards="hand",
    history=False, observation_dtype="int32")``: ``episode`` is ``"hand"`` or ``"match"``,
    ``rewards`` ``"hand"`` (at the hand's scoring) or ``"trick"`` (as tricks complete).
    ``observation_dtype`` ``"uint8"`` writes a quarter of the bytes, and is taken where every
    value of the observations fits 0 … 255 (no card worth less than 0, and in matches a moon
    that adds to the others and a low enough target; API-11). Without ``history`` a game is its
    position alone, 424 bytes in the core; with it each game also keeps its episode's action
    ids (a byte each), so that :meth:`game` can rebuild it as a :class:`~reversis.Game`. After
    every :meth:`reset` and :meth:`step` the buffers ``current_player``, ``legal_action_mask``,
    ``observation`` (OBS-3), ``rewards``, ``terminated`` and ``episode_scores`` hold one row per
    game; a step overwrites them in place. Each is a read-only
    :class:`~reversis._core.VectorEnvBuffer` over the environment's memory, which reads like a
    ``memoryview`` and speaks DLPack. With ``threads`` above 1, the calling thread and threads
    kept by the environment each step a run of games (a multiple of 64 where there are enough).
    Games whose episode ends start their next one in the same step. Game ``i`` plays the same
    whatever ``num_envs`` and ``threads``.

    :raises InvalidInputError: ``invalid-setup`` for an argument out of range.
    """

    __slots__ = ()
