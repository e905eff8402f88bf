"""The reference engine: a readable, stdlib-only pure-Python engine, the executable form of spec/.

It presents the same API as the Rust-backed :mod:`reversis` (spec/api.md) and never imports the
extension module.

>>> from reversis.reference import Game, preset
>>> game = Game(preset("hearts-4"), seed=2024)
>>> game.phase, game.pass_direction, game.to_act
('pass', 'left', 0)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _metadata_version

from ..errors import ERROR_CODES, IllegalActionError, InvalidInputError, ReversisError
from ..simulation import Simulation
from .actions import NUM_ACTIONS, action_from_ids, action_ids, action_label
from .batch import simulate
from .cards import card_id, parse_card
from .game import ActionsView, Game
from .records import dump_record, load_record
from .ruleset import Ruleset, preset, preset_names
from .seeding import deal_from_seed, seed_draws
from .vector import VectorEnv, episode_seed

ENGINE = "reference"

try:  # the package's version (Cargo.toml, through the metadata), as reversis.__version__
    __version__: str = _metadata_version("reversis")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "unknown"

__all__ = [
    "ENGINE",
    "ERROR_CODES",
    "NUM_ACTIONS",
    "ActionsView",
    "Game",
    "IllegalActionError",
    "InvalidInputError",
    "ReversisError",
    "Ruleset",
    "Simulation",
    "VectorEnv",
    "action_from_ids",
    "action_ids",
    "action_label",
    "card_id",
    "deal_from_seed",
    "dump_record",
    "episode_seed",
    "load_record",
    "parse_card",
    "preset",
    "preset_names",
    "seed_draws",
    "simulate",
]
