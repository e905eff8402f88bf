"""JSON data as ERR-6 defines it, for everything handed in from Python.

JSON data is ``None``, ``bool``, integers in -2**63 .. 2**64-1, finite ``float``, UTF-8-encodable
``str``, ``list`` (a ``tuple`` counts as one) and ``dict`` with ``str`` keys, nested at most
``MAX_JSON_DEPTH`` deep. Anything else makes the whole input malformed.
"""

from __future__ import annotations

import json
import math
import operator
from typing import Any

from ..errors import shown

#: ERR-6: how deeply JSON data handed in from Python may nest (as the Rust binding).
MAX_JSON_DEPTH = 128
_MIN_INT, _MAX_INT = -(1 << 63), (1 << 64) - 1
#: ERR-6: match totals are 64-bit signed integers.
MIN_I64, MAX_I64 = -(1 << 63), (1 << 63) - 1


def as_integer(value: Any) -> int | None:
    """``value`` as an ``int`` when it is an integer argument, else ``None``.

    An integer argument is an ``int`` other than ``bool``, or an object with ``__index__`` (NumPy's
    integer scalars, which learning code passes for action ids, seats and seeds). JSON data
    (actions, records, rulesets) takes ``int`` only.

    >>> as_integer(7), as_integer(True), as_integer(7.0)
    (7, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if getattr(type(value), "__index__", None) is None:
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def json_problem(value: Any) -> str | None:
    """Why ``value`` is not JSON data (ERR-6), or ``None`` if it is.

    Iterative, so any depth of nesting is safe to inspect.

    >>> json_problem({"a": [1, (2, 3)]}) is None
    True
    >>> json_problem(float("nan"))
    'not a finite number: nan'
    """
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return f"nested more than {MAX_JSON_DEPTH} deep"
        if item is None or isinstance(item, bool):
            continue
        if isinstance(item, int):
            if not _MIN_INT <= item <= _MAX_INT:
                return f"integer out of range: {shown(item)}"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"not a finite number: {shown(item)}"
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"not valid text (a lone surrogate): {shown(item)}"
        elif isinstance(item, (list, tuple)):
            stack.extend((element, depth + 1) for element in item)
        elif isinstance(item, dict):
            for key, element in item.items():
                if not isinstance(key, str):
                    return f"a key is not a string: {shown(key)}"
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    return f"a key is not valid text (a lone surrogate): {shown(key)}"
                stack.append((element, depth + 1))
        else:
            return f"a {type(item).__name__} is not JSON data"
    return None


def plain(value: Any) -> Any:
    """A copy of JSON data made of plain ``dict``, ``list`` and scalars: tuples become lists.

    Call it only on data that :func:`json_problem` accepted (its depth is bounded).
    """
    if isinstance(value, dict):
        return {key: plain(element) for key, element in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(element) for element in value]
    return value


def _parse_int(text: str) -> int | float:
    """ERR-6: ``-0`` is negative zero, not an integer (as JSON readers with doubles have it)."""
    return -0.0 if text == "-0" else int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes | bytearray) -> Any:
    """Parse JSON text as ERR-6 reads it.

    UTF-8 without a byte order mark, no ``NaN`` or infinities, ``-0`` not an integer; a
    repeated key keeps its last value.

    :raises ValueError: if the text is not JSON (``UnicodeDecodeError`` for bytes that are not
        UTF-8); ``RecursionError`` if it nests too deeply to read.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    return json.loads(text, parse_int=_parse_int, parse_constant=_no_constant)
