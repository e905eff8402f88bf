"""A learned player: a feed-forward network over the OBS-3 encoding (spec/learned.md).

The network reads the 1,435 integers of its seat's encoded observation
(:func:`reversis.encoding.encode_observation`, OBS-3 version 3) and scores the 106 action ids
of ACT-2; the player takes the legal id with the highest score, the lowest id among equals. A
network of format version 2 also gives a value, its estimate of the acting seat's score for the
hand (LRN-7), which no decision of the player reads (:meth:`LearnedPlayer.value` gives it). It
is evaluated in Rust (:data:`LearnedPolicy`); this module writes and reads the weight format
(``.rvnn``) in pure Python, and :meth:`Weights.logits` is a forward pass in pure Python too, an
independent implementation to check the Rust one against.

A pass is chosen as the vector environment asks for it: one card at a time, the network run
once per card with the cards selected so far in the encoding's ``selected`` block, as
:class:`reversis.VectorEnv` presents the successive selections (ACT-2).

The network shipped with the package, :data:`SHIPPED_WEIGHTS`, is trained on
``hearts-computer``. OBS-3 has the same length for every ruleset, so it plays any ruleset, but
how well it plays one it was not trained on is another matter; ``weights=PATH`` seats any other
network (``reversis tournament --players learned:weights=PATH,rules``).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import stat
import struct
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from .. import _core
from ..encoding import ENCODING_LENGTH, ENCODING_VERSION, encode_observation
from ..errors import InvalidInputError, shown
from .base import Observation, Player

__all__ = [
    "ACTIVATIONS",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_LAYERS",
    "MAX_METADATA_BYTES",
    "MAX_WIDTH",
    "NUM_ACTIONS",
    "SHIPPED_WEIGHTS",
    "LearnedPlayer",
    "LearnedPolicy",
    "Weights",
    "parse_weights",
    "read_weights",
    "write_weights",
]

#: The first four bytes of a weight file.
MAGIC = b"RVNN"
#: The newest version of the format, read here with every older one. Version 1 networks give
#: the 106 logits; version 2 networks the logits and a value (LRN-7). A network is written in
#: the version its last layer's width calls for, so a network without a value stays version 1.
FORMAT_VERSION = 2
#: The most layers of a network.
MAX_LAYERS = 8
#: The most bytes of the metadata.
MAX_METADATA_BYTES = 65536
#: The most inputs or outputs of a layer.
MAX_WIDTH = 4096
#: The network's outputs: one per action id (ACT-2).
NUM_ACTIONS = 106
#: The activations by their code in a layer header.
ACTIVATIONS = ("identity", "relu")
#: The network shipped with the package, trained on ``hearts-computer``.
SHIPPED_WEIGHTS = Path(__file__).with_name("learned-hearts-computer.rvnn")

#: A network of the weight format evaluated in Rust: ``LearnedPolicy.from_file(path)`` or
#: ``LearnedPolicy(data)``, with ``logits(encoding)``, ``decide(encoding, legal_ids)``,
#: ``decide_batch(observations, masks, threads=1)`` (a ``VectorEnv``'s buffers, without the GIL),
#: ``metadata`` and ``layers``.
LearnedPolicy = _core.LearnedPolicy

_HEADER = struct.Struct("<4sHHI")
_LAYER = struct.Struct("<IIB3s")
_PASS_BASE = 52
_MOON_IDS = {104: "add-to-others", 105: "subtract-from-taker"}
_RANKS = "23456789TJQKA"
_SUITS = "CDHS"

PathLike = Union[str, "os.PathLike[str]"]


def _invalid(message: str) -> InvalidInputError:
    return InvalidInputError("invalid-setup", f"invalid setup: invalid weights: {message}")


@dataclass(frozen=True)
class Weights:
    """A network of the weight format: its metadata and its layers.

    Each layer is ``(weights, biases, activation)``: ``weights`` a list of rows, row ``o``
    holding output ``o``'s weight of every input, ``biases`` one per output, ``activation``
    ``"identity"`` or ``"relu"``.
    """

    metadata: dict[str, Any]
    layers: list[tuple[list[list[float]], list[float], str]]

    @property
    def has_value(self) -> bool:
        """Whether the network gives a value (format version 2): its last layer has 107 outputs."""
        return len(self.layers[-1][1]) == NUM_ACTIONS + 1

    def _outputs(self, encoding: Sequence[float]) -> list[float]:
        _check_length(encoding)
        values = [float(v) for v in encoding]
        for weights, biases, activation in self.layers:
            values = [b + math.fsum(w * v for w, v in zip(row, values)) for row, b in zip(weights, biases)]
            if activation == "relu":
                values = [max(0.0, v) for v in values]
        return values

    def logits(self, encoding: Sequence[float]) -> list[float]:
        """The 106 logits for ``encoding`` (OBS-3's 1,435 values), computed in pure Python."""
        return self._outputs(encoding)[:NUM_ACTIONS]

    def value(self, encoding: Sequence[float]) -> float | None:
        """The value for ``encoding`` (LRN-7), in pure Python; None for a network without one."""
        if not self.has_value:
            _check_length(encoding)
            return None
        return self._outputs(encoding)[NUM_ACTIONS]

    def decide(self, encoding: Sequence[float], legal_ids: Iterable[int]) -> int:
        """The legal id with the highest of :meth:`logits`, the lowest among equal ones."""
        logits = self.logits(encoding)
        return max(sorted(legal_ids), key=lambda i: (logits[i], -i))


def _check_length(encoding: Sequence[float]) -> None:
    if len(encoding) != ENCODING_LENGTH:
        raise InvalidInputError(
            "invalid-setup", f"invalid setup: an encoding holds {ENCODING_LENGTH} values, got {len(encoding)}"
        )


def _rows(value: Any) -> list[Any]:
    """A nested sequence, or anything with ``tolist()`` (a NumPy array), as lists."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return list(value)


def _activation(value: Any, k: int) -> int:
    if value in ACTIVATIONS:
        return ACTIVATIONS.index(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(ACTIVATIONS):
        return value
    raise _invalid(f"layer {k}: the activation is 'identity' or 'relu', not {shown(value)}")


def _metadata_bytes(metadata: Mapping[str, Any] | None) -> bytes:
    if metadata is None:
        return b""
    if not isinstance(metadata, Mapping):
        raise _invalid(f"the metadata must be a dict, not {shown(metadata)}")
    if "encoding_version" in metadata and metadata["encoding_version"] != ENCODING_VERSION:
        raise _invalid(
            f"the metadata's encoding_version is {shown(metadata['encoding_version'])}, "
            f"and the network's input is OBS-3 version {ENCODING_VERSION}"
        )
    try:
        data = json.dumps(dict(metadata), ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as error:
        raise _invalid(f"the metadata is not JSON data: {error}") from None
    if len(data) > MAX_METADATA_BYTES:
        raise _invalid(f"the metadata length must be at most {MAX_METADATA_BYTES} bytes, got {len(data)}")
    return data


def _version_of(shapes: list[tuple[int, int, int]]) -> int:
    """The format version a network of ``shapes`` is written in: 2 where it gives a value."""
    return 2 if shapes and shapes[-1][1] == NUM_ACTIONS + 1 else 1


def _check_shapes(shapes: list[tuple[int, int, int]], version: int) -> None:
    """The constraints of format ``version`` on the layers' sizes and activations (spec/learned.md)."""
    if not 1 <= len(shapes) <= MAX_LAYERS:
        raise _invalid(f"the number of layers must be 1 to {MAX_LAYERS}, got {len(shapes)}")
    for k, (inputs, outputs, _) in enumerate(shapes):
        for name, size in (("inputs", inputs), ("outputs", outputs)):
            if not 1 <= size <= MAX_WIDTH:
                raise _invalid(f"layer {k}: {name} must be 1 to {MAX_WIDTH}, got {size}")
    if shapes[0][0] != ENCODING_LENGTH:
        raise _invalid(
            f"size mismatch: layer 0 takes {shapes[0][0]} inputs, and the OBS-3 encoding has {ENCODING_LENGTH}"
        )
    for k in range(1, len(shapes)):
        if shapes[k][0] != shapes[k - 1][1]:
            raise _invalid(
                f"size mismatch: layer {k} takes {shapes[k][0]} inputs, and layer {k - 1} gives {shapes[k - 1][1]}"
            )
    if version >= 2:
        expected, what = NUM_ACTIONS + 1, "the 106 action ids' logits and the value"
    else:
        expected, what = NUM_ACTIONS, "one per action id"
    if shapes[-1][1] != expected:
        raise _invalid(
            f"size mismatch: the last layer gives {shapes[-1][1]} outputs, "
            f"and a version {version} network gives {expected} ({what})"
        )
    if shapes[-1][2] != 0:
        raise _invalid(f"the last layer's activation must be identity, not {ACTIVATIONS[shapes[-1][2]]}")


def _halves(values: list[float], what: str) -> bytes:
    """``values`` as little-endian binary16, refusing what is not finite or does not fit."""
    try:
        floats = [float(v) for v in values]
    except (TypeError, ValueError):
        raise _invalid(f"{what} holds a value that is not a number") from None
    for v in floats:
        if not math.isfinite(v):
            raise _invalid(f"non-finite value: {what} holds {v}")
    try:
        return struct.pack(f"<{len(floats)}e", *floats)
    except (OverflowError, struct.error):
        raise _invalid(f"non-finite value: {what} holds a value beyond binary16's ±65504") from None


def write_weights(
    path: PathLike,
    layers: Sequence[tuple[Any, Any, Any]],
    metadata: Mapping[str, Any] | None = None,
) -> None:
    """Write a network to ``path`` in the weight format, atomically (a temporary file renamed over it).

    ``layers`` holds ``(weights, biases, activation)`` per layer, first to last: ``weights``
    one row per output (nested sequences, or anything with ``tolist()`` such as a NumPy array),
    ``biases`` one per output, ``activation`` ``"identity"``/``"relu"`` (or 0/1). A last layer
    of 106 outputs is written as format version 1, one of 107 (the logits, then the value,
    LRN-7) as version 2. Values are
    stored as binary16, rounded to nearest. ``metadata`` is a JSON object; an
    ``encoding_version`` in it must be 3.

    :raises InvalidInputError: ``invalid-setup`` for layers or metadata the format cannot hold,
        naming the problem; nothing is written then.
    :raises OSError: when the file cannot be written; ``path`` is then untouched.
    """
    metadata_bytes = _metadata_bytes(metadata)
    if not isinstance(layers, Sequence) or not 1 <= len(layers) <= MAX_LAYERS:
        raise _invalid(f"the number of layers must be 1 to {MAX_LAYERS}, not {shown(layers)}")
    shapes: list[tuple[int, int, int]] = []
    bodies: list[bytes] = []
    for k, layer in enumerate(layers):
        try:
            weights, biases, activation = layer
        except (TypeError, ValueError):
            raise _invalid(f"layer {k} must be (weights, biases, activation), not {shown(layer)}") from None
        rows = [_rows(row) for row in _rows(weights)]
        biases = _rows(biases)
        inputs = len(rows[0]) if rows else 0
        if any(len(row) != inputs for row in rows):
            raise _invalid(f"layer {k}: the rows of its weights have different lengths")
        if len(biases) != len(rows):
            raise _invalid(f"size mismatch: layer {k} has {len(rows)} rows of weights and {len(biases)} biases")
        shapes.append((inputs, len(rows), _activation(activation, k)))
    version = _version_of(shapes)
    _check_shapes(shapes, version)
    for k, layer in enumerate(layers):
        weights, biases, _ = layer
        flat = [v for row in _rows(weights) for v in _rows(row)]
        bodies.append(_halves(flat, f"layer {k}'s weights") + _halves(_rows(biases), f"layer {k}'s biases"))
    data = b"".join(
        [
            _HEADER.pack(MAGIC, version, len(shapes), len(metadata_bytes)),
            metadata_bytes,
            *(_LAYER.pack(i, o, a, b"\0\0\0") for i, o, a in shapes),
            *bodies,
        ]
    )
    _replace_file(os.fspath(path), data)


def _replace_file(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` (through a symlink: its target's), then rename it over.

    A new file gets the permissions the umask gives (a weight file is data to share, not a
    secret); an existing one keeps its own.
    """
    target = os.path.realpath(path)
    directory, name = os.path.split(target)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    while True:
        temporary = os.path.join(directory, f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as out:
            if mode is not None:
                os.chmod(temporary, mode)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def parse_weights(data: bytes) -> Weights:
    """The network of the bytes of a weight file, read in pure Python.

    :raises InvalidInputError: ``invalid-setup`` naming the problem (spec/learned.md): a
        truncated file, a bad magic, an unsupported version, a count or length out of range,
        metadata that is not a UTF-8 JSON object or has another ``encoding_version``, a bad
        layer header, a size mismatch, trailing bytes or a non-finite value.
    """
    data = bytes(data)

    def need(at: int, size: int, what: str) -> None:
        if at + size > len(data):
            raise _invalid(f"truncated file: {what} needs {size} bytes at offset {at}, the file has {len(data)}")

    need(0, 4, "the magic")
    if data[:4] != MAGIC:
        raise _invalid(f"bad magic: a weight file starts with 'RVNN', not {data[:4]!r}")
    need(4, 2, "the format version")
    (version,) = struct.unpack_from("<H", data, 4)
    if not 1 <= version <= FORMAT_VERSION:
        raise _invalid(f"unsupported version {version}: this reader reads versions 1 to {FORMAT_VERSION}")
    need(6, 2, "the number of layers")
    (count,) = struct.unpack_from("<H", data, 6)
    if not 1 <= count <= MAX_LAYERS:
        raise _invalid(f"the number of layers must be 1 to {MAX_LAYERS}, got {count}")
    need(8, 4, "the metadata length")
    (length,) = struct.unpack_from("<I", data, 8)
    if length > MAX_METADATA_BYTES:
        raise _invalid(f"the metadata length must be at most {MAX_METADATA_BYTES} bytes, got {length}")
    at = _HEADER.size
    need(at, length, "the metadata")
    metadata = _read_metadata(data[at : at + length])
    at += length
    shapes: list[tuple[int, int, int]] = []
    for k in range(count):
        need(at, _LAYER.size, f"layer {k}'s header")
        inputs, outputs, code, reserved = _LAYER.unpack_from(data, at)
        at += _LAYER.size
        if code >= len(ACTIVATIONS):
            raise _invalid(f"layer {k}: unknown activation {code} (0 is identity, 1 is relu)")
        if reserved != b"\0\0\0":
            raise _invalid(f"layer {k}: the three bytes after the activation must be 0, got {list(reserved)}")
        for name, size in (("inputs", inputs), ("outputs", outputs)):
            if not 1 <= size <= MAX_WIDTH:
                raise _invalid(f"layer {k}: {name} must be 1 to {MAX_WIDTH}, got {size}")
        shapes.append((inputs, outputs, code))
    _check_shapes(shapes, version)
    needed = sum(2 * (o * i + o) for i, o, _ in shapes)
    rest = len(data) - at
    if rest < needed:
        raise _invalid(
            f"truncated file: the layers' values need {needed} bytes after the headers, and {rest} are there"
        )
    if rest > needed:
        raise _invalid(f"trailing bytes: {rest - needed} bytes after the last layer's biases")
    layers: list[tuple[list[list[float]], list[float], str]] = []
    for k, (inputs, outputs, code) in enumerate(shapes):
        flat = struct.unpack_from(f"<{outputs * inputs}e", data, at)
        at += 2 * outputs * inputs
        biases = list(struct.unpack_from(f"<{outputs}e", data, at))
        at += 2 * outputs
        for index, value in enumerate(flat):
            if not math.isfinite(value):
                raise _invalid(f"non-finite value: layer {k}'s weight {divmod(index, inputs)} is {value}")
        for index, value in enumerate(biases):
            if not math.isfinite(value):
                raise _invalid(f"non-finite value: layer {k}'s bias {index} is {value}")
        rows = [list(flat[o * inputs : (o + 1) * inputs]) for o in range(outputs)]
        layers.append((rows, biases, ACTIVATIONS[code]))
    return Weights(metadata, layers)


def _read_metadata(raw: bytes) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _invalid(f"the metadata is not UTF-8: {error}") from None
    try:
        value = json.loads(text)
    except ValueError as error:
        raise _invalid(f"the metadata is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise _invalid(f"the metadata must be a JSON object, not {shown(value)}")
    version = value.get("encoding_version", ENCODING_VERSION)
    if isinstance(version, bool) or version != ENCODING_VERSION:
        raise _invalid(
            f"the metadata's encoding_version is {shown(version)}, "
            f"and the network's input is OBS-3 version {ENCODING_VERSION}"
        )
    return value


def read_weights(path: PathLike) -> Weights:
    """The network of the weight file at ``path``, read in pure Python (see :func:`parse_weights`).

    :raises InvalidInputError: ``invalid-setup`` for a file that cannot be read or is not a
        valid weight file.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InvalidInputError(
            "invalid-setup", f"invalid setup: cannot read the weight file {os.fspath(path)}: {error}"
        ) from None
    return parse_weights(data)


#: Networks read by players, by file and version of it: a tournament makes a player per hand.
_LOADED: dict[tuple[str, int, int], _core.LearnedPolicy] = {}
#: The most networks kept read.
_KEPT = 4


def _load(path: PathLike, shipped: bool) -> _core.LearnedPolicy:
    name = os.fspath(path)
    try:
        status = os.stat(name)
    except OSError as error:
        if shipped:
            raise InvalidInputError(
                "invalid-setup",
                f"invalid setup: the learned player's network is not installed ({name} is missing); "
                "give one with weights=PATH",
            ) from None
        raise InvalidInputError(
            "invalid-setup", f"invalid setup: cannot read the weight file {name}: {error}"
        ) from None
    key = (os.path.realpath(name), status.st_mtime_ns, status.st_size)
    policy = _LOADED.get(key)
    if policy is None:
        policy = _core.LearnedPolicy.from_file(name)
        while len(_LOADED) >= _KEPT:
            del _LOADED[next(iter(_LOADED))]
        _LOADED[key] = policy
    return policy


def _card(card_id: int) -> str:
    return _RANKS[card_id % 13] + _SUITS[card_id // 13]


def _card_id(card: str) -> int:
    return _SUITS.index(card[1]) * 13 + _RANKS.index(card[0])


class LearnedPlayer(Player):
    """Plays what a network of the weight format scores best among its legal actions.

    ``weights`` is the path of a ``.rvnn`` file; without it, the network shipped with the
    package (:data:`SHIPPED_WEIGHTS`, trained on ``hearts-computer``). Deterministic: the same
    observation gets the same action.

    :raises InvalidInputError: ``invalid-setup`` when the file is missing (the shipped one
        included), cannot be read or is not a valid weight file.
    """

    name = "learned"

    def __init__(self, weights: PathLike | None = None) -> None:
        """Read the network at ``weights``, or the shipped one."""
        self.weights = Path(SHIPPED_WEIGHTS if weights is None else weights)
        self.policy = _load(self.weights, shipped=weights is None)

    @property
    def metadata(self) -> dict[str, Any]:
        """The network's metadata (for the shipped one, how it was trained)."""
        metadata: dict[str, Any] = self.policy.metadata
        return metadata

    def value(self, observation: Observation) -> float | None:
        """The network's estimate of the observing seat's score for the hand (LRN-7), in points.

        ``None`` for a network without a value (format version 1). The shipped network has one,
        fitted to the hands of benches/LEARNING.md's data sets as they were played; its play does
        not read it.
        """
        value: float | None = self.policy.value(encode_observation(observation))
        return value

    def _decide(self, observation: Observation, legal: Iterable[int]) -> int:
        return self.policy.decide(encode_observation(observation), list(legal))

    def act(self, observation: Observation) -> dict[str, Any]:
        """The action of the observing seat: its pass, its play or its moon choice."""
        seat = observation.seat
        if observation.phase == "play":
            card = _card(self._decide(observation, sorted(_card_id(c) for c in observation.legal)))
            return {"type": "play", "seat": seat, "card": card}
        if observation.phase == "moon":
            return {"type": "moon", "seat": seat, "choice": _MOON_IDS[self._decide(observation, _MOON_IDS)]}
        if observation.phase != "pass":
            raise ValueError(f"seat {seat} has no decision in phase {observation.phase!r}")
        held = Counter(observation.hand)
        selected = list(observation["selected"])
        size = int(observation.ruleset.passing["size"])
        while len(selected) < size:
            # The seat's observation as the vector environment shows it at this selection.
            shown_now = Observation(observation.ruleset, {**observation.data, "selected": list(selected)})
            chosen = Counter(selected)
            legal = sorted(_PASS_BASE + _card_id(c) for c in held if held[c] > chosen[c])
            selected.append(_card(self._decide(shown_now, legal) - _PASS_BASE))
        return {"type": "pass", "seat": seat, "cards": selected}
