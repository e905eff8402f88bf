"""The Gymnasium spaces of the vector environment of API-11, one mixin for both engines' ``VectorEnv``.

The action space is ``Discrete(106)``, the ids of ACT-2; a row of a ``legal_action_mask`` taken
as ``int8`` is the ``mask`` of its ``sample``. The observation space is a ``Box`` of 1435
entries of the environment's ``observation_dtype`` (``int32`` or ``uint8``), the OBS-3 encoding
(version 3), bounded block by block: 0 or 1 in every indicator block, 0 to 2 in the blocks that
count a card's copies (two packs, CARD-2), the whole range of the dtype in the ``points`` and
``scores`` blocks (signed for ``int32``; ``uint8`` is taken only where they stay within 0 to
255, API-11). Both are the same for every ruleset of a dtype, as the encoding is.

``gymnasium`` is an optional dependency: every function here raises ``ImportError`` naming it
when it is not installed. It is imported only when a space is asked for, through ``importlib``,
so that importing this module, or type-checking the package, does not need it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._extras import install_hint
from .encoding import ENCODING_LENGTH, LAYOUT

__all__ = [
    "COUNT_BLOCKS",
    "MAX_COPIES",
    "NUM_ACTIONS",
    "OBSERVATION_DTYPES",
    "SIGNED_BLOCKS",
    "VectorSpaces",
    "batched_spaces",
    "single_action_space",
    "single_observation_space",
]

#: ACT-2: the number of action ids, the same for every ruleset.
NUM_ACTIONS = 106
#: The OBS-3 blocks that hold signed counts rather than 0/1 indicators.
SIGNED_BLOCKS = frozenset({"points", "scores"})
#: The OBS-3 blocks that count the copies of a card, 0 to :data:`MAX_COPIES` (RS-21).
COUNT_BLOCKS = frozenset({"hand", "played", "passed", "received", "selected", "held_over"})
#: RS-21: the most copies of one card a deck holds (two packs).
MAX_COPIES = 2
#: API-11: the element types an observation buffer may have, the default first.
OBSERVATION_DTYPES = ("int32", "uint8")
_INSTALL_HINT = f"the gymnasium spaces need the optional 'gymnasium' package: {install_hint('gymnasium')}"


def _require(name: str) -> Any:
    """The module ``name`` (``gymnasium`` or ``numpy``), or ``ImportError`` naming the extra to install.

    Submodules are reached as attributes of the top-level module, which imports them: asking
    for ``gymnasium.spaces`` by name would find it in ``sys.modules`` even where ``gymnasium``
    itself has been made unimportable.
    """
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ImportError(_INSTALL_HINT) from error


def single_action_space() -> Any:
    """``gymnasium.spaces.Discrete(106)``: one action id of ACT-2.

    :raises ImportError: when ``gymnasium`` is not installed.
    """
    return _require("gymnasium").spaces.Discrete(NUM_ACTIONS)


def single_observation_space(observation_dtype: str = "int32") -> Any:
    """A ``gymnasium.spaces.Box`` of shape ``(1435,)`` and dtype ``observation_dtype``: one OBS-3 encoding.

    The bounds are 0 and 1 for the indicator blocks, 0 and 2 for the blocks that count copies
    of a card (:data:`COUNT_BLOCKS`), and the dtype's range for the blocks of ``points`` and
    ``scores``: for ``int32`` signed, as negative card values and the moon's subtraction make
    them so and totals are not bounded by the target; for ``uint8`` 0 to 255, which an
    environment takes only where they stay within it (API-11).

    :raises ImportError: when ``gymnasium`` is not installed.
    :raises ValueError: for a dtype not in :data:`OBSERVATION_DTYPES`.
    """
    if observation_dtype not in OBSERVATION_DTYPES:
        raise ValueError(f"observation_dtype must be one of {OBSERVATION_DTYPES}, not {observation_dtype!r}")
    gymnasium = _require("gymnasium")
    numpy = _require("numpy")
    dtype = numpy.dtype(observation_dtype)
    info = numpy.iinfo(dtype)
    low = numpy.zeros(ENCODING_LENGTH, dtype=dtype)
    high = numpy.ones(ENCODING_LENGTH, dtype=dtype)
    for name, offset, length in LAYOUT:
        if name in SIGNED_BLOCKS:
            low[offset : offset + length] = info.min
            high[offset : offset + length] = info.max
        elif name in COUNT_BLOCKS:
            high[offset : offset + length] = MAX_COPIES
    return gymnasium.spaces.Box(low=low, high=high, dtype=dtype)


def batched_spaces(num_envs: int, observation_dtype: str = "int32") -> tuple[Any, Any]:
    """The action and observation spaces of ``num_envs`` games, batched as ``gymnasium.vector`` does.

    The actions are a ``MultiDiscrete`` of ``num_envs`` times 106, the observations a ``Box``
    of shape ``(num_envs, 1435)`` and dtype ``observation_dtype``.

    :raises ImportError: when ``gymnasium`` is not installed.
    :raises ValueError: for a dtype not in :data:`OBSERVATION_DTYPES`.
    """
    batch_space = _require("gymnasium").vector.utils.batch_space
    observations = single_observation_space(observation_dtype)
    return batch_space(single_action_space(), num_envs), batch_space(observations, num_envs)


class VectorSpaces:
    """The Gymnasium space properties of a vector environment with ``num_envs`` games (API-11).

    Mixed into both engines' ``VectorEnv``; each space needs the optional ``gymnasium``
    package, imported only when the space is asked for.
    """

    __slots__ = ()

    if TYPE_CHECKING:

        @property
        def num_envs(self) -> int:
            """The number of games, which each ``VectorEnv`` has."""
            ...

        @property
        def observation_dtype(self) -> str:
            """The element type of the observations, which each ``VectorEnv`` has."""
            ...

    @property
    def single_action_space(self) -> Any:
        """``gymnasium.spaces.Discrete(106)``: one game's action (needs ``gymnasium``)."""
        return single_action_space()

    @property
    def single_observation_space(self) -> Any:
        """A ``gymnasium.spaces.Box`` of 1435 entries with OBS-3's bounds: one game's row (needs ``gymnasium``)."""
        return single_observation_space(self.observation_dtype)

    @property
    def action_space(self) -> Any:
        """:attr:`single_action_space` batched over the games, as ``gymnasium.vector`` has it."""
        return batched_spaces(self.num_envs, self.observation_dtype)[0]

    @property
    def observation_space(self) -> Any:
        """:attr:`single_observation_space` batched over the games, as ``gymnasium.vector`` has it."""
        return batched_spaces(self.num_envs, self.observation_dtype)[1]
