"""``reversis driver``: serve a built-in engine over the driver protocol (spec/driver.md).

Also ``python -m reversis.conformance.driver [--engine rust|reference]``. Every message is in
the protocol's terms: arguments are named as in DRV-3 and values are quoted as JSON, never as
Python sees them.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from ..errors import ReversisError
from .engines import EngineError, ModuleEngine, builtin_engine

INVALID_REQUEST = "invalid-request"


class _Rejected(Exception):
    """A request the driver cannot read: answered ``invalid-request`` with this message."""


def _json(value: Any, limit: int = 80) -> str:
    """``value`` as JSON text for a message, cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        text = "an unreadable value"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _answer(request_id: Any, body: dict[str, Any]) -> str:
    try:
        text = json.dumps({"id": request_id, **body}, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")  # a lone surrogate echoed from the request cannot be written as is
        return text
    except UnicodeEncodeError:
        return json.dumps({"id": request_id, **body})
    except (TypeError, ValueError, RecursionError):
        # An id that cannot be written back as JSON: answer without echoing it.
        return json.dumps({"id": None, **body}, ensure_ascii=False)


def _failure(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": code, "message": message}


def _message(code: str, text: str) -> str:
    """The engine's message, without the ``code: `` that :class:`EngineError` puts in front of it."""
    if text == code:
        return ""
    prefix = f"{code}: "
    while text.startswith(prefix):
        text = text[len(prefix) :]
    return text


def _arguments(engine: ModuleEngine) -> dict[str, dict[str, bool]]:
    """For each command of DRV-3 the engine answers, its arguments, each with whether it is required.

    ``quit`` is the driver's own; nothing but the engine's ``_cmd_`` methods is ever called.
    """
    table = {}
    for attribute in dir(engine):
        if attribute.startswith("_cmd_"):
            parameters = inspect.signature(getattr(engine, attribute)).parameters
            table[attribute[5:]] = {name: p.default is inspect.Parameter.empty for name, p in parameters.items()}
    return table


def _check_arguments(engine: ModuleEngine, command: str, expected: dict[str, bool], given: dict[str, Any]) -> None:
    """Reject missing and unknown arguments, and games the engine does not hold (DRV-1)."""
    unknown = sorted(name for name in given if name not in expected)
    if unknown:
        raise _Rejected(f"{command} takes no argument {', '.join(_json(name) for name in unknown)}")
    missing = [name for name, required in expected.items() if required and name not in given]
    if missing:
        raise _Rejected(f"{command} needs the argument {', '.join(_json(name) for name in missing)}")
    if "game" in expected and not engine.holds(given["game"]):
        raise _Rejected(f"no game {_json(given['game'])}")


def _handle(engine: ModuleEngine, arguments: dict[str, dict[str, bool]], request: dict[str, Any]) -> dict[str, Any]:
    """The answer's body for one request that is an object (its ``id`` already taken out)."""
    command = request.pop("cmd", None)
    if not isinstance(command, str):
        which = "has no cmd" if command is None else f"has the cmd {_json(command)}, not a string"
        return _failure(INVALID_REQUEST, f"a request is an object with a cmd string; this one {which}")
    if command not in arguments:
        return _failure(INVALID_REQUEST, f"unknown command {_json(command)}")
    try:
        _check_arguments(engine, command, arguments[command], request)
        return {"ok": True, **engine.call(command, **request)}
    except _Rejected as why:
        return _failure(INVALID_REQUEST, str(why))
    except EngineError as error:
        return _failure(error.code, _message(error.code, str(error)))
    except ReversisError as error:
        return _failure(error.code, _message(error.code, str(error)))
    except Exception:
        # The engine choked on a value of the right name but an unusable kind; what Python says
        # about it names the engine's internals, not the request.
        return _failure(INVALID_REQUEST, f"the arguments of {command} have values it cannot use")


def _lines(stdin: IO[str]) -> Iterator[str | None]:
    """The input's lines as text, ``None`` for a line that is not UTF-8; a BOM on the first is dropped."""
    raw = getattr(stdin, "buffer", None)
    if raw is None:
        for number, line in enumerate(stdin):
            yield line.removeprefix("\ufeff") if number == 0 else line
        return
    # Bytes, so that the protocol's UTF-8 holds whatever the locale, and one bad line is
    # answered instead of ending the driver.
    for number, data in enumerate(raw):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            yield None
            continue
        yield text.removeprefix("\ufeff") if number == 0 else text


def _write(stdout: IO[str], text: str) -> None:
    raw = getattr(stdout, "buffer", None)
    if raw is not None:
        raw.write(text.encode("utf-8") + b"\n")
        raw.flush()
    else:
        stdout.write(text + "\n")
        stdout.flush()


def serve(
    engine_name: str, stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout, *, engine: ModuleEngine | None = None
) -> int:
    """Answer requests, one JSON object a line, until ``quit`` or the end of input.

    ``engine`` serves instead of the built-in engine ``engine_name`` (a test's altered engine).
    """
    engine = builtin_engine(engine_name) if engine is None else engine
    arguments = _arguments(engine)
    for line in _lines(stdin):
        if line is None:
            _write(stdout, _answer(None, _failure(INVALID_REQUEST, "the line is not UTF-8")))
            continue
        if not line.strip():
            continue
        try:
            # NaN and Infinity are read as Python reads them, for the operation to reject (ERR-2);
            # an answer never carries them (see _answer).
            request = json.loads(line)
        except (ValueError, RecursionError) as error:
            _write(stdout, _answer(None, _failure(INVALID_REQUEST, f"not JSON: {error}")))
            continue
        if not isinstance(request, dict):
            _write(stdout, _answer(None, _failure(INVALID_REQUEST, "a request is a JSON object")))
            continue
        # DRV-1: the id is echoed whenever it can be read, also when the rest cannot.
        request_id = request.pop("id", None)
        if request.get("cmd") == "quit":
            _write(stdout, _answer(request_id, {"ok": True}))
            return 0
        _write(stdout, _answer(request_id, _handle(engine, arguments, request)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m reversis.conformance.driver``: the same as ``reversis driver``."""
    parser = argparse.ArgumentParser(
        prog="python -m reversis.conformance.driver",
        description="Serve a built-in engine over the driver protocol (spec/driver.md).",
    )
    parser.add_argument("--engine", choices=("rust", "reference"), default="rust")
    engine = parser.parse_args(argv).engine
    try:
        return serve(engine)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141


if __name__ == "__main__":
    sys.exit(main())
