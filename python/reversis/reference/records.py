"""Record encodings (REC-1, REC-3): JSON text and the same structure as MessagePack."""

from __future__ import annotations

import json
from typing import Any

from ..errors import InvalidInputError

#: Hostile input fails fast: no record of ours is anywhere near this size.
MAX_RECORD_BYTES = 64 * 1024 * 1024


def dump_record(record: dict[str, Any], format: str = "json") -> bytes:
    """Encode a record as ``"json"`` (UTF-8 text) or ``"msgpack"`` (API-4).

    :raises InvalidInputError: ``invalid-record`` for an unknown format.
    """
    if format == "json":
        return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    if format == "msgpack":
        import msgpack

        return msgpack.packb(record, use_bin_type=True)
    raise InvalidInputError("invalid-record", f"unknown record format {format!r}; use 'json' or 'msgpack'")


def load_record(data: bytes) -> dict[str, Any]:
    """Decode a record from JSON or MessagePack, told apart by the first byte (API-4).

    The result is checked for shape only; :meth:`Game.from_record` replays it.

    :raises InvalidInputError: ``invalid-record`` if the bytes are not a record.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidInputError("invalid-record", f"a record is bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > MAX_RECORD_BYTES:
        raise InvalidInputError("invalid-record", f"a record of {len(data)} bytes is larger than {MAX_RECORD_BYTES}")
    if data.lstrip()[:1] == b"{":
        try:
            record = json.loads(data.decode("utf-8"))
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
                max_buffer_size=len(data),
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
    return record
