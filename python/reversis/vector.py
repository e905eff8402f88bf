"""Thousands of games per call: the Rust core's batched environment (API-11, spec/api.md).

A :class:`VectorEnv` steps ``num_envs`` games of one ruleset with one action id per game
(ACT-2), the GIL released, and leaves what learning code reads next in buffers shared without a
copy: NumPy wraps them with ``numpy.asarray``, and the package itself needs no NumPy.

>>> import reversis
>>> env = reversis.VectorEnv(reversis.preset("hearts-4"), num_envs=2, seed=1)
>>> env.observation.shape, env.legal_action_mask.format
((2, 1435), '?')
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
    history=False)``: ``episode`` is ``"hand"`` or ``"match"``, ``rewards`` ``"hand"`` (at the
    hand's scoring) or ``"trick"`` (as tricks complete). Without ``history`` a game is its
    position alone, 248 bytes in the core; with it each game also keeps its episode's action
    ids (a byte each), so that :meth:`game` can rebuild it as a :class:`~reversis.Game`. After
    every :meth:`reset` and :meth:`step` the buffers ``current_player``, ``legal_action_mask``,
    ``observation`` (OBS-3), ``rewards``, ``terminated`` and ``episode_scores`` hold one row per
    game; a step overwrites them in place.
    Games whose episode ends start their next one in the same step. Game ``i`` plays the same
    whatever ``num_envs`` and ``threads``.

    :raises InvalidInputError: ``invalid-setup`` for an argument out of range.
    """

    __slots__ = ()
