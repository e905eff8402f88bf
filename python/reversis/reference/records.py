"""Record encodings (REC-1, REC-3): JSON text and the same structure as MessagePack."""

from __future__ import annotations

import json
from typing import Any

from ..errors import InvalidInputError, shown
from .jsondata import loads, plain

#: Hostile input fails fast: no record of ours is anywhere near this size.
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: REC-5: the key a record may carry beside those of REC-1.
OPTIONAL_RECORD_KEYS = frozenset({"spec_version"})


def check_record_version(record: dict[Any, Any]) -> None:
    """REC-5: a record's optional ``spec_version``, read before anything else of it (RS-18).

    :raises InvalidInputError: ``invalid-record`` for a malformed version or another major one.
    """
    from .ruleset import spec_version_problem

    if "spec_version" in record:
        problem = spec_version_problem(record["spec_version"])
        if problem is not None:
            raise InvalidInputError("invalid-record", f"invalid record: spec_version {problem}")


def dump_record(record: dict[str, Any], format: str = "json") -> bytes:
    """Encode a record as ``"json"`` (UTF-8 text) or ``"msgpack"`` (API-4).

    :raises InvalidInputError: ``invalid-record`` for an unknown format or a malformed record.
    """
    if not isinstance(format, str) or format not in ("json", "msgpack"):
        raise InvalidInputError("invalid-record", f"unknown record format {shown(format)}; use 'json' or 'msgpack'")
    from .game import check_record

    check_record(record)
    record = plain(record)  # ERR-6: tuples count as lists
    if format == "json":
        return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    if format == "msgpack":
        import msgpack

        return msgpack.packb(record, use_bin_type=True)
    raise InvalidInputError("invalid-record", f"unknown record format {shown(format)}; use 'json' or 'msgpack'")


def load_record(data: bytes) -> dict[str, Any]:
    """Decode a record from JSON or MessagePack, told apart by the first byte (API-4).

    The result's structure is checked (REC-1), nothing is replayed; :meth:`Game.from_record`
    replays it. JSON is recognised by its first byte, ``{`` (API-4).

    :raises InvalidInputError: ``invalid-record`` if the bytes are not a record.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidInputError("invalid-record", f"a record is bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > MAX_RECORD_BYTES:
        raise InvalidInputError("invalid-record", f"a record of {len(data)} bytes is larger than {MAX_RECORD_BYTES}")
    if data[:1] == b"{":
        try:
            record = loads(data)
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            raise InvalidInputError("invalid-record", f"record is not valid JSON: {error}") from None
    else:
        import msgpack

        try:
            # The limits bound what a lying length prefix can make the decoder allocate.
            record = msgpack.unpackb(
                data,
                raw=False,
                strict_map_key=True,
                # No max_buffer_size: unpackb already holds the whole buffer, and msgpack 1.1+
                # rejects that keyword here.
                max_str_len=len(data),
                max_bin_len=0,
                max_array_len=len(data),
                max_map_len=len(data),
                max_ext_len=0,
            )
        except Exception as error:  # msgpack raises several unrelated types for bad input
            raise InvalidInputError("invalid-record", f"record is not valid MessagePack: {error}") from None
    if not isinstance(record, dict):
        raise InvalidInputError("invalid-record", "a record must be a JSON object or MessagePack map")
    from .game import check_record

    check_record(record)
    return record
