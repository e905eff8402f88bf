"""``reversis driver``: serve a built-in engine over the driver protocol (spec/driver.md)."""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from ..errors import ReversisError, shown
from .engines import EngineError, builtin_engine


def _answer(request_id: Any, body: dict[str, Any]) -> str:
    try:
        text = json.dumps({"id": request_id, **body}, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate echoed from the request cannot be written as is
        return text
    except UnicodeEncodeError:
        return json.dumps({"id": request_id, **body})
    except (TypeError, ValueError, RecursionError):
        # An id that is not JSON-serialisable as given: answer without echoing it.
        return json.dumps({"id": None, **body}, ensure_ascii=False)


def serve(engine_name: str, stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    """Answer requests, one JSON object a line, until ``quit`` or the end of input."""
    engine = builtin_engine(engine_name)
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except (ValueError, RecursionError) as error:
            stdout.write(
                _answer(None, {"ok": False, "error": "invalid-request", "message": f"not JSON: {error}"}) + "\n"
            )
            stdout.flush()
            continue
        if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
            stdout.write(
                _answer(None, {"ok": False, "error": "invalid-request", "message": "a request is an object with 'cmd'"})
                + "\n"
            )
            stdout.flush()
            continue
        request_id = request.pop("id", None)
        command = request.pop("cmd")
        # Only the commands of DRV-3 are served; never a private method of the engine.
        if command.startswith("_"):
            command = "?" + command
        if command == "quit":
            stdout.write(_answer(request_id, {"ok": True}) + "\n")
            stdout.flush()
            return 0
        try:
            if not hasattr(engine, f"_cmd_{command}"):
                raise EngineError("invalid-request", f"unknown command {shown(command)}")
            body = {"ok": True, **engine.call(command, **request)}
        except EngineError as error:
            body = {"ok": False, "error": error.code, "message": str(error)}
        except TypeError as error:
            body = {"ok": False, "error": "invalid-request", "message": f"bad arguments to {shown(command)}: {error}"}
        except (ReversisError, ValueError, KeyError, AttributeError, RecursionError, OverflowError) as error:
            # Arguments of the right names but unusable values: the request cannot be read.
            body = {"ok": False, "error": "invalid-request", "message": f"bad arguments to {shown(command)}: {error!r}"}
        stdout.write(_answer(request_id, body) + "\n")
        stdout.flush()
    return 0
