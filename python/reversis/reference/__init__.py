"""The reference engine: a readable, stdlib-only pure-Python engine, the executable form of spec/.

It presents the same API as the Rust-backed :mod:`reversis` (spec/api.md) and never imports the
extension module.

>>> from reversis.reference import Game, preset
>>> game = Game(preset("hearts-4"), seed=2024)
>>> game.phase, game.pass_direction
('pass', 'left')
"""

from __future__ import annotations

from ..errors import IllegalActionError, InvalidInputError, ReversisError
from .cards import card_id, parse_card
from .game import Game
from .records import dump_record, load_record
from .ruleset import Ruleset, preset, preset_names
from .seeding import deal_from_seed, seed_draws

ENGINE = "reference"

__all__ = [
    "ENGINE",
    "Game",
    "IllegalActionError",
    "InvalidInputError",
    "ReversisError",
    "Ruleset",
    "card_id",
    "deal_from_seed",
    "dump_record",
    "load_record",
    "parse_card",
    "preset",
    "preset_names",
    "seed_draws",
]
