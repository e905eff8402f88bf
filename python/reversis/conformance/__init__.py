"""The conformance runner, the driver protocol and the suite's coverage check."""

from __future__ import annotations

from .engines import DriverEngine, EngineError, EngineFault, ModuleEngine, builtin_engine
from .perft import Divergence, find_divergence
from .runner import SUITE_DIR, Case, Outcome, Report, load_cases, run_cases

__all__ = [
    "SUITE_DIR",
    "Case",
    "Divergence",
    "DriverEngine",
    "EngineError",
    "EngineFault",
    "ModuleEngine",
    "Outcome",
    "Report",
    "builtin_engine",
    "find_divergence",
    "load_cases",
    "run_cases",
]
