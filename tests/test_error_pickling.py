"""Every exception the package raises survives pickle unchanged: type, code, message and fields.

Worker processes and Ray tasks send a task's exception back pickled. An exception that does not
come back whole (``pickle.loads`` raising ``TypeError`` for a missing ``__init__`` argument)
kills multiprocessing's result thread, and a tournament then waits for a result that never comes.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from typing import Any

import pytest

import reversis
from reversis.errors import ERROR_CODES, ReversisError

#: Modules that need an optional dependency (Ray, OpenSpiel, PettingZoo …) are skipped when it is missing.
_MODULES: list[Any] = []
for info in pkgutil.walk_packages(reversis.__path__, "reversis."):
    if info.name.endswith("__main__"):
        continue
    try:
        _MODULES.append(importlib.import_module(info.name))
    except ImportError:
        continue


def _package_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for module in _MODULES:
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("reversis."):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


#: The arguments to build each exception whose ``__init__`` takes other than one message.
SAMPLE_ARGUMENTS: dict[str, tuple[Any, ...]] = {
    "ReversisError": ("invalid-card", "not a card: 'ZZ'"),
    "InvalidInputError": ("invalid-ruleset", "invalid ruleset: 'players' is 11"),
    "IllegalActionError": ("must-follow-suit", "seat 1 must follow suit"),
    "PlayerFault": ("timeout", "no answer in 5000 ms", "last words\n"),
    "StartError": ("./bot --fast", "No such file or directory"),
    "LineTooLong": (65536,),
    "NotJson": (b"\xff\xfe", None),
    "EngineError": ("card-not-held", "seat 0 does not hold QS"),
    "EngineFault": ("the driver crashed", "panic at src/main.rs\n"),
    "EngineTimeout": ("no answer in 10 s", ""),
    "Terminated": (15,),
    "Finished": (3,),
}


def _fields(error: BaseException) -> tuple[Any, ...]:
    return type(error), error.args, str(error), vars(error)


@pytest.mark.parametrize("cls", _package_exceptions(), ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_exception_class_round_trips_through_pickle(cls: type[BaseException]) -> None:
    arguments = SAMPLE_ARGUMENTS.get(cls.__name__, ("a message",))
    error = cls(*arguments)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(error, protocol))
        assert _fields(back) == _fields(error)


def test_the_list_finds_the_exceptions_of_the_package() -> None:
    names = {cls.__name__ for cls in _package_exceptions()}
    # A filter gone wrong would make the test above pass by testing nothing.
    assert {"ReversisError", "InvalidInputError", "IllegalActionError", "PlayerFault", "TournamentError"} <= names


@pytest.mark.parametrize("code", ERROR_CODES)
def test_every_error_code_round_trips_with_its_class(code: str) -> None:
    error = ReversisError.of(code, f"a message for {code}")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and back.code == code and str(back) == f"a message for {code}"


def test_errors_raised_by_the_rust_extension_round_trip() -> None:
    pytest.importorskip("reversis._core")
    raised = []
    for attempt in (
        lambda: reversis.preset("no-such-preset"),
        lambda: reversis.Game(reversis.preset("hearts-4"), seed=1).apply({"type": "play", "seat": 3, "card": "2C"}),
        lambda: reversis.Ruleset.from_json(b"{}"),
    ):
        with pytest.raises(ReversisError) as caught:
            attempt()
        raised.append(caught.value)
    for error in raised:
        back = pickle.loads(pickle.dumps(error))
        assert (type(back), back.code, str(back)) == (type(error), error.code, str(error))
