"""The match at the table of ``reversis play``: its computer players and who acts next.

Two facts here restate rules the engines know (which seat passes to which, and which seat
acts); each is one small function, so that taking them from the core is a change of one place.
"""

from __future__ import annotations

import importlib
from typing import Any, Optional

from ...players import Player, RandomPlayer, why_cannot_play

DEFAULT_PRESET = "hearts-computer"
#: The computer players ``--opponents`` offers.
OPPONENTS = ("rules", "random", "montecarlo", "search", "learned")
DEFAULT_OPPONENTS = "rules"
#: Playouts per legal card of the Monte Carlo player unless ``--rollouts`` says otherwise.
DEFAULT_ROLLOUTS = 100
#: The most ``--rollouts`` takes.
MAX_ROLLOUTS = 100_000

#: A completed trick as the board shows it: its winner (``None`` where it was held over), the
#: cards by seat, and its points.
LastTrick = tuple[Optional[int], list[tuple[int, str]], int]

#: The module and class of each computer player but ``random``, imported only when chosen.
_PLAYER_CLASSES = {
    "rules": ("reversis.players.rulebased", "RuleBasedPlayer"),
    "montecarlo": ("reversis.players.montecarlo", "MonteCarloPlayer"),
    "search": ("reversis.players.search", "SearchPlayer"),
    "learned": ("reversis.players.learned", "LearnedPlayer"),
}


def opponent_class(opponents: str, rollouts: int) -> tuple[Any, dict[str, Any], str]:
    """The class of the computer players ``opponents``, its keyword arguments and the label shown."""
    cls: Any = RandomPlayer
    label = "random"
    kwargs: dict[str, Any] = {}
    if opponents in _PLAYER_CLASSES:
        module, name = _PLAYER_CLASSES[opponents]
        try:
            cls = getattr(importlib.import_module(module), name)
            label = opponents
            if opponents == "montecarlo":
                kwargs = {"rollouts": rollouts}
                label = f"montecarlo ({rollouts} rollouts)"
            elif opponents == "search":
                # The table plays whole matches: the search plays for winning them.
                kwargs = {"objective": "match"}
                label = "search (playing for the match)"
        except (ImportError, AttributeError):
            cls, label = RandomPlayer, f"random (the {opponents} player is not available)"
    return cls, kwargs, label


def make_players(seats: int, opponents: str, rollouts: int) -> tuple[list[Player | None], str]:
    """One computer player ``opponents`` for every seat but the person's (seat 0), and their label."""
    cls, kwargs, label = opponent_class(opponents, rollouts)
    # Fresh entropy, never the shuffle seed: computer players know only their observation.
    return [None] + [cls(**kwargs) for _ in range(1, seats)], label


def cannot_play(opponents: str, rollouts: int, ruleset: Any) -> str | None:
    """Why the computer players ``opponents`` cannot play ``ruleset``, or ``None``."""
    cls, kwargs, _ = opponent_class(opponents, rollouts)
    return why_cannot_play(cls(**kwargs), ruleset)


def in_progress(game: Any) -> bool:
    """Whether dropping ``game`` loses the person's play: it is not over and seat 0 has acted."""
    return game.phase != "over" and any(action.get("seat") == 0 for action in game.actions)


def last_trick(game: Any) -> LastTrick | None:
    """The hand's last completed trick, or ``None`` before its first (never the previous hand's).

    Its winner is ``None`` where the trick was held over (PLAY-9, TRICK-1).
    """
    tricks = list(game.tricks_played)
    if not tricks:
        return None
    trick = tricks[-1]
    winner = None if trick["winner"] is None else int(trick["winner"])
    return winner, [(int(e["seat"]), str(e["card"])) for e in trick["cards"]], int(trick["points"])


def pass_partners(game: Any) -> tuple[int, int]:
    """The seats the person (seat 0) passes to and receives from this hand (the core's pass plan, PASS-3).

    :raises ValueError: if this hand has no pass.
    """
    plan = game.pass_plan
    if plan is None:
        raise ValueError(f"hand {game.hand_number} has no pass")
    return int(plan["to"][0]), int(plan["from"][0])


def next_seat(game: Any) -> int | None:
    """The seat the table asks next: ``None`` where no seat acts (the match is over, or awaits a deal).

    Outside the pass phase this is the state's ``to_act`` (ACT-3). In the pass phase ``to_act``
    is the lowest seat still to pass, so the person (seat 0) first, while the table lets every
    computer player pass before it asks the person: passes are exchanged together, so the order
    changes only when the prompt is shown, not the game.
    """
    if game.phase == "pass":
        return next((seat for seat in game.awaiting_pass if seat != 0), 0)
    if game.phase in ("play", "moon"):
        return int(game.to_act)
    return None
