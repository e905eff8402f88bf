"""Computer players that decide from an observation alone (001 ¶9).

A :class:`Player` is handed an :class:`Observation`: what its seat may know (OBS-1) and the
ruleset, which is public. Nothing else reaches it: not the game, not the other hands, not the
seed. :func:`act_for` asks the player of the seat that must act and applies the action it
returns.
"""

from __future__ import annotations

from .base import Observation, Player, RandomPlayer, act_for, observe, probe_ruleset, why_cannot_play
from .learned import LearnedPlayer
from .montecarlo import MonteCarloPlayer
from .process import LowestPlayer, ProcessPlayer
from .rulebased import RuleBasedPlayer
from .search import SearchPlayer
from .vector import computer_actions

__all__ = [
    "LearnedPlayer",
    "LowestPlayer",
    "MonteCarloPlayer",
    "Observation",
    "Player",
    "ProcessPlayer",
    "RandomPlayer",
    "RuleBasedPlayer",
    "SearchPlayer",
    "act_for",
    "computer_actions",
    "observe",
    "probe_ruleset",
    "why_cannot_play",
]
