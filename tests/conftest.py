"""Shared fixtures: every rules test runs against each engine that presents the API of spec/api.md."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

# The browser tests' fixtures (site, base_url, browser, table), shared by every test module of the web table.
from webpage import base_url, browser, site, table  # noqa: F401

ENGINE_MODULES = {"reference": "reversis.reference", "rust": "reversis"}


def _load(name: str) -> ModuleType | None:
    try:
        module = importlib.import_module(ENGINE_MODULES[name])
    except ImportError:
        return None
    return module if hasattr(module, "Game") else None


@pytest.fixture(params=sorted(ENGINE_MODULES))
def engine(request: pytest.FixtureRequest) -> ModuleType:
    """The engine module under test: ``reversis.reference`` or the Rust-backed ``reversis``."""
    module = _load(request.param)
    if module is None:
        if os.environ.get("REVERSIS_REQUIRE_RUST"):
            pytest.fail(f"engine {request.param!r} is required but cannot be imported")
        pytest.skip(f"engine {request.param!r} is not built")
    return module
