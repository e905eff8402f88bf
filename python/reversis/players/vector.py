"""Computer players for every game of a :class:`reversis.VectorEnv`, decided in Rust.

Learning code that trains a policy against computer players asks, at each step, what they
choose for the games whose acting seat is theirs. :func:`computer_actions` gives, for every
game of the batch, the action id (ACT-2) that the ``"random"`` or the ``"rules"`` player
chooses for the acting seat (ACT-3), from what that seat may see (OBS-1) and nothing else:

- ``"random"``: uniformly among the seat's legal ids (each selection of a pass, each card,
  each moon choice);
- ``"rules"``: the rule-based policy the search player plays out with (``_core.search_policy``,
  the Python :class:`~reversis.players.RuleBasedPlayer`'s rules ported to Rust), given the hand
  with every other seat's cards removed; in phase ``pass``, where each selection is its own
  decision, it selects the lowest card of its pass not yet selected. With two packs (RS-21) it
  reads copies as the Python player does.

Game ``i`` draws (the random choice, the rule-based player's exact ties) from the generator of
hand ``i`` of a batch seeded with ``seed``: SplitMix64 (SEED-1) started from the first draw of a
SplitMix64 whose state is ``seed XOR (i × 0xD1B54A32D192ED03 mod 2**64)``, as
``reversis.reference.batch.hand_generator`` builds it; the random choice is the
``below(n)``-th (SEED-2) of the ``n`` legal ids. So the ids depend on neither ``num_envs`` nor
``threads``. They are computed without the GIL, on the environment's threads.

>>> import reversis
>>> env = reversis.VectorEnv(reversis.preset("hearts-4"), num_envs=3, seed=0)
>>> for step in range(52):
...     env.step(computer_actions(env, "rules", seed=step))
>>> all(mask[a] for mask, a in zip(env.legal_action_mask.tolist(), computer_actions(env, "random", 1)))
True
"""

from __future__ import annotations

from typing import Any

from .. import _core

__all__ = ["COMPUTER_PLAYERS", "computer_actions"]

#: The computer players :func:`computer_actions` seats.
COMPUTER_PLAYERS = ("random", "rules")


def computer_actions(env: Any, player: str, seed: int) -> list[int]:
    """For every game of ``env``, the action id ``player`` chooses for its acting seat (see the module).

    ``env`` is a :class:`reversis.VectorEnv` (the Rust engine's); the ids can be given to
    ``env.step`` as they are.

    :raises InvalidInputError: ``invalid-setup`` for another ``env``, a ``player`` not in
        :data:`COMPUTER_PLAYERS` or a ``seed`` not in 0 … 2**64-1.
    """
    return _core.computer_actions(env, player, seed)
