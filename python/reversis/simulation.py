"""The result of ``simulate`` (API-5), shared by both engines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


def _view(data: bytes, code: Literal["i", "Q"], rows: int, columns: int) -> memoryview:
    # A memoryview cannot have a zero in a two-dimensional shape: no rows is the empty (0,) view.
    flat = memoryview(data).cast("B").cast(code)
    return flat.cast("B").cast(code, (rows, columns)) if rows else flat


@dataclass(frozen=True)
class Simulation:
    """The results of ``simulate``, as zero-copy buffers.

    ``scores`` has shape ``(hands, players)`` of ``int32``: each hand's scores after the moon
    rule. ``legal_masks``, when asked for, has shape ``(hands, deck size)`` of ``uint64``: the
    legal-card mask (bit ``card_id``) of every play decision of each hand, in playing order.
    With no hands both are empty, of shape ``(0,)``. ``numpy.asarray`` wraps either without
    copying.
    """

    scores: memoryview
    legal_masks: memoryview | None

    @classmethod
    def from_bytes(
        cls, scores: bytes, legal_masks: bytes | None, *, hands: int, players: int, deck_size: int
    ) -> Simulation:
        """Wrap native-endian ``int32`` scores and ``uint64`` masks as views of their shapes."""
        masks = None if legal_masks is None else _view(legal_masks, "Q", hands, deck_size)
        return cls(_view(scores, "i", hands, players), masks)
