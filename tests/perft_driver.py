"""A driver over the reference engine that does not claim ``perft``, so that the runner walks it.

    python tests/perft_driver.py            # the reference engine, perft not claimed
    python tests/perft_driver.py --broken   # and it forbids one legal card in one position

``--broken`` plays Hearts wrong in one place, for the tests of ``find_divergence``: wherever the
seat to move follows a trick of three cards and may play more than one card, the highest of its
legal cards is neither shown in ``legal`` nor accepted.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

# Run by the interpreter of the tests, so it is the reversis installed there (the wheel in CI).
from reversis import reference
from reversis.conformance.driver import serve
from reversis.conformance.engines import EngineError, ModuleEngine, game_view


class Walked(ModuleEngine):
    """The reference engine, claiming everything but ``perft``."""

    def _cmd_hello(self) -> dict[str, Any]:
        answer = super()._cmd_hello()
        answer["capabilities"]["perft"] = False
        answer["name"] = "reference without perft"
        return answer

    def _cmd_perft(self, game: int, depth: Any, unit: Any, divide: Any = None) -> dict[str, Any]:
        raise EngineError("invalid-request", 'unknown command "perft"')


def _hidden(game: Any) -> str | None:
    """The card the broken driver forbids at this position, if any."""
    if game.phase != "play" or len(game.trick) != 3:
        return None
    legal = game.legal_plays()
    return legal[-1] if len(legal) > 1 else None


class Broken(Walked):
    """:class:`Walked`, but the fourth card of a trick never takes the highest legal card."""

    def _cmd_view(self, game: int) -> dict[str, Any]:
        position = self._game(game)
        view = game_view(position)
        hidden = _hidden(position)
        if hidden is not None:
            view["legal"] = [card for card in view["legal"] if card != hidden]
        return {"view": view}

    def _cmd_apply(self, game: int, action: Any) -> dict[str, Any]:
        position = self._game(game)
        hidden = _hidden(position)
        if hidden is not None and isinstance(action, dict) and action.get("card") == hidden:
            raise EngineError("must-follow-suit", f"seat {position.to_move} may not play {hidden!r} here")
        return super()._cmd_apply(game, action)


def main() -> int:
    """Serve :class:`Walked` or :class:`Broken` over the driver protocol."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--broken", action="store_true")
    broken = parser.parse_args().broken
    engine = (Broken if broken else Walked)(reference, "reference")
    return serve("reference", engine=engine)


if __name__ == "__main__":
    sys.exit(main())
