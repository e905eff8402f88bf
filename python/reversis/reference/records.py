"""Record encodings (REC-1, REC-3): JSON text and the same structure as MessagePack."""

from __future__ import annotations

import json
from typing import Any, Union

from ..errors import InvalidInputError, shown
from .actions import is_seat_value, parse_action
from .jsondata import MAX_I64, MIN_I64, json_problem, loads, plain
from .ruleset import Ruleset, spec_version_problem

#: Hostile input fails fast: no record of ours is anywhere near this size.
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: REC-5: the key a record may carry beside those of REC-1.
OPTIONAL_RECORD_KEYS = frozenset({"spec_version"})
#: ERR-6: the most actions a record may hold (the Rust core's ``MAX_RECORD_ACTIONS``).
MAX_RECORD_ACTIONS = 100_000


def check_record_version(record: dict[Any, Any]) -> None:
    """REC-5: a record's optional ``spec_version``, read before anything else of it (RS-18).

    :raises InvalidInputError: ``invalid-record`` for a malformed version or another major one.
    """
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
    check_record(record)
    return record


def _bad_record(message: str) -> InvalidInputError:
    return InvalidInputError("invalid-record", f"invalid record: {message}")


RecordParts = tuple[Ruleset, Union[int, None], int, list[int], list[Any]]


def check_record(record: Any) -> RecordParts:
    """Check a record's structure (REC-1) without replaying it.

    Its keys, format and version, a valid ruleset, seed and start, and well-formed actions (at
    most ``MAX_RECORD_ACTIONS``); JSON data throughout (ERR-6: tuples count as lists).

    :raises InvalidInputError: ``invalid-record`` naming the first problem.
    """
    if not isinstance(record, dict):
        raise _bad_record(f"a record must be an object, not {type(record).__name__}")
    check_record_version(record)  # REC-5, first
    expected = {"format", "version", "ruleset", "seed", "start", "actions"}
    if set(record) - OPTIONAL_RECORD_KEYS != expected:
        odd = sorted((set(record) - OPTIONAL_RECORD_KEYS) ^ expected, key=str)
        raise _bad_record(f"a missing or unknown key {shown(odd[0])}")
    actions = record["actions"]
    if isinstance(actions, (list, tuple)) and len(actions) > MAX_RECORD_ACTIONS:
        raise _bad_record(f"{len(actions)} actions, more than the limit of {MAX_RECORD_ACTIONS}")
    problem = json_problem(record)
    if problem is not None:
        raise _bad_record(f"not JSON data: {problem}")
    record = plain(record)
    if not isinstance(record["format"], str) or record["format"] != "reversis-record":
        raise _bad_record(f"format must be 'reversis-record', not {shown(record['format'])}")
    version = record["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version != 1:
        raise _bad_record(f"version must be 1, not {shown(version)}")
    if not isinstance(record["ruleset"], dict):
        # Ruleset.from_json also reads JSON text; a record holds the object itself (REC-1).
        raise _bad_record(f"ruleset must be a ruleset object, not {shown(record['ruleset'])}")
    try:
        ruleset = Ruleset.from_json(record["ruleset"])
    except InvalidInputError as error:
        raise _bad_record(str(error)) from None
    seed = record["seed"]
    if seed is not None and not is_seat_value(seed):
        raise _bad_record(f"seed must be an unsigned 64-bit integer or null, not {shown(seed)}")
    start = record["start"]
    if not isinstance(start, dict) or set(start) != {"hand_number", "scores"}:
        raise _bad_record("'start' must hold exactly 'hand_number' and 'scores'")
    hand_number, scores = start["hand_number"], start["scores"]
    if not is_seat_value(hand_number):
        raise _bad_record(f"start.hand_number must be a non-negative integer, not {shown(hand_number)}")
    if (
        not isinstance(scores, list)
        or len(scores) != ruleset.players
        or any(isinstance(s, bool) or not isinstance(s, int) or not MIN_I64 <= s <= MAX_I64 for s in scores)
    ):
        raise _bad_record(f"start.scores must be {ruleset.players} 64-bit integers, not {shown(scores)}")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise _bad_record("'actions' must be an array")
    for index, action in enumerate(actions):
        try:
            parse_action(action, None)
        except InvalidInputError as error:
            raise _bad_record(f"action {index}: {error}") from None
    return ruleset, seed, hand_number, list(scores), actions
