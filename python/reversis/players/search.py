"""A search player that decides from its observation alone (001 ¶9).

Every decision is searched in Rust (``_core.search_play``). For a card, each legal card (one of
each set of cards no play can tell apart) is played in layouts of the hidden cards, and every
seat then finishes the hand as the rule-based player would
(:class:`~reversis.players.RuleBasedPlayer`, ported to Rust), the searcher's own later decisions
too; the hand is scored with the ruleset's moon rule as own score minus the others' mean. Once
the searcher has captured every point card taken so far, each card is also tried with the
searcher going for the moon (leading its masters, winning what it can, keeping its point cards
out of the others' tricks), which the rule-based player never does, and the card goes with the
better of its two plans. The
layouts are drawn exactly uniformly among those consistent with everything the seat knows: its
hand, the cards played, the cards it passed, every seat's number of cards, the revealed voids,
and what the legality of the plays reveals (a heart led before hearts were broken, a point card
discarded on the first trick under the first-trick ban, the seat to lead holding the opening
card). They are then weighed by how likely the other seats' plays so far are in them if those
seats play as the rule-based player does, each seat by how well that model has fitted it.
Sequential halving spends the budget: rounds of equal size, every surviving card played in the
same layouts, the better half kept. A pass is searched the same way among the rule-based pass
and passes of the most dangerous cards, and (where the ruleset has a moon) a pass of the least
dangerous cards played on going for the moon, the others' passes drawn from the rule-based
player in each layout of the deal. The moon choice is evaluated exactly against the match totals.

``rollouts`` hands the playouts' cards to a learned network (``"learned"``, the network shipped
with the package, or the path of a ``.rvnn`` file, spec/learned.md) in place of the rule-based
player: each seat plays the legal card with the network's highest logit, shown what that seat
would see (its hand, the plays, the points, the totals; its pass and receipt where the searcher
knows them: every one in a pass's playouts, whose deal is drawn whole, and in a card's its own
and the receipt of the seat it passed to). The belief that weighs the layouts, the passes drawn
for the others and the moon plan stay the rule-based player's.

Each playout is judged by the hand's scores, own minus the others' mean (``objective="points"``),
or by the chance of winning the match that the hand's scores leave (``objective="match"``):
the match is played on from those totals many times with hands the rule-based player played,
scored by the ruleset's own moon, count-down and end of the match, the same continuations for
every playout of a decision so that candidates compare; the moon choice then goes by the same
chance. In a count-down hand (MATCH-6) a hand's scores are the changes of the totals, so both
objectives take the points that lower a total there.

With two packs (RS-21) the layouts hold copies, drawn uniformly among the physical layouts (the
two copies of a card told apart, as a uniform deal makes them equally likely); a card whose
other copy is still live is searched apart from its neighbours (which copy comes first, and
whether they cancel, PLAY-9, tells them apart); a pass holds distinct cards.

The player never sees hidden cards, the game or the seed of the deal.
"""

from __future__ import annotations

import os
import random
from typing import Any, Union

from .. import _core
from .base import Observation, Player

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["OBJECTIVES", "SearchPlayer", "evaluate_decision"]

#: What a search player may play for: the hand's points, or the match.
OBJECTIVES = ("points", "match")

#: Whose cards a network of ``rollouts`` plays in the playouts: every seat's, or the searcher's alone.
ROLLOUT_SEATS = ("every", "searcher")

#: The playouts of one decision when neither a number of playouts nor a time is given.
DEFAULT_PLAYOUTS = 4000


def _core_ruleset(ruleset: Any) -> _core.Ruleset:
    """The ruleset as the Rust core's type (the reference engine has its own)."""
    if isinstance(ruleset, _core.Ruleset):
        return ruleset
    return _core.Ruleset.from_json(ruleset.to_json())


class SearchPlayer(Player):
    """Plays the card, pass or moon choice that searches best over layouts of the hidden cards.

    ``playouts`` bounds each decision's playouts, ``time_ms`` its time in milliseconds; with
    both, whichever runs out first ends it, and with neither it makes
    :data:`DEFAULT_PLAYOUTS`. A pass gets four times the budget of a card. With ``playouts``
    alone the player is a function of its observations and ``seed``.

    ``objective`` is what it plays for: ``"points"``, the fewest points in each hand against the
    others' mean, or ``"match"``, the greatest chance of winning the match from the totals, each
    playout judged by where it leaves them (the match played on from there with the rule-based
    player's hands), the moon choice too. With ``shoot`` false it never tries going for the moon
    (it shoots only where ducking would not stop it).

    ``rollouts`` is who plays the playouts' cards: ``"rules"`` (the default) the rule-based
    player, ``"learned"`` the network shipped with the package, or the path of a ``.rvnn``
    network (read once, a clear :class:`~reversis.errors.InvalidInputError` if it cannot be).
    ``rollout_seats`` says whose cards that network plays: ``"every"`` seat's (the default), or
    the ``"searcher"``'s alone (its own later decisions), the others following the rule-based
    player.

    ``leaves``, ``"learned"`` or the path of a network with a value (LRN-7), ends each card's
    playouts at the searcher's next decision and scores them by the value of its view there
    (objective ``"points"``, one pack); ``None`` (the default) plays every playout to the end.

    With ``defend``, where another seat has captured every point card taken so far, half of a
    card's layouts have that seat go for the moon in the playouts (which the rule-based player
    never does), so that a card is also judged by whether it lets a run through.

    With ``weigh_passes``, the layouts of a card are also weighed by the pass the searcher
    received: by how many of its cards the rule-based player would have passed from the passer's
    hand before the exchange in each (one pack).
    """

    name = "search"

    def __init__(
        self,
        playouts: int | None = None,
        time_ms: float | None = None,
        seed: int | None = None,
        objective: str = "points",
        shoot: bool = True,
        *,
        rollouts: PathLike = "rules",
        rollout_seats: str = "every",
        leaves: PathLike | None = None,
        defend: bool = False,
        weigh_passes: bool = False,
    ) -> None:
        """Bound each decision by ``playouts`` and/or ``time_ms``, seeded by ``seed``, playing for ``objective``."""
        if not isinstance(shoot, bool):
            raise TypeError(f"shoot must be True or False, not {shoot!r}")
        if not isinstance(defend, bool):
            raise TypeError(f"defend must be True or False, not {defend!r}")
        if not isinstance(weigh_passes, bool):
            raise TypeError(f"weigh_passes must be True or False, not {weigh_passes!r}")
        if not isinstance(rollouts, (str, os.PathLike)):
            raise TypeError(f"rollouts must be 'rules', 'learned' or the path of a .rvnn network, not {rollouts!r}")
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
        if playouts is not None and playouts < 1:
            raise ValueError("playouts must be at least 1")
        if time_ms is not None and not time_ms > 0:
            raise ValueError("time_ms must be above 0")
        if playouts is None and time_ms is None:
            playouts = DEFAULT_PLAYOUTS
        self.playouts = playouts
        self.time_ms = time_ms
        self.objective = objective
        self.shoot = shoot
        self.defend = defend
        self.weigh_passes = weigh_passes
        if leaves is not None and not isinstance(leaves, (str, os.PathLike)):
            raise TypeError(f"leaves must be 'learned' or the path of a .rvnn network with a value, not {leaves!r}")
        if rollout_seats not in ROLLOUT_SEATS:
            raise ValueError(f"rollout_seats must be one of {', '.join(ROLLOUT_SEATS)}, not {rollout_seats!r}")
        self.rollouts = rollouts
        self.rollout_seats = rollout_seats
        self.leaves = leaves
        network = None if rollouts == "rules" else _network_of(rollouts)
        # The core refuses settings that cannot go together, here rather than at the first card.
        self._style = _core.SearchStyle(
            objective=objective,
            shoot=shoot,
            rollouts=network,
            rollout_seats=rollout_seats,
            leaves=None if leaves is None else _network_of(leaves),
            defend=defend,
            weigh_passes=weigh_passes,
        )
        self._rng = random.Random(seed)
        self._rules: tuple[Any, _core.Ruleset] | None = None

    def _ruleset(self, ruleset: Any) -> _core.Ruleset:
        """The core ruleset of ``ruleset``, converted once."""
        if self._rules is None or self._rules[0] is not ruleset:
            self._rules = (ruleset, _core_ruleset(ruleset))
        return self._rules[1]

    def act(self, observation: Observation) -> dict[str, Any]:
        """The action of the observing seat: its pass, its play or its moon choice."""
        seat = observation.seat
        seed = self._rng.getrandbits(64)
        forced = _forced_play(observation)
        if forced is not None:
            return forced
        ids = _core.search_play(
            self._ruleset(observation.ruleset),
            observation.data,
            seed,
            playouts=self.playouts,
            time_ms=self.time_ms,
            style=self._style,
        )
        if observation.phase == "pass":
            deck = {_core.card_id(card): card for card in observation.hand}
            return {"type": "pass", "seat": seat, "cards": [deck[i - 52] for i in ids]}
        action: dict[str, Any] = _core.action_from_ids(ids, seat)
        return action

    def act_reviewed(self, observation: Observation) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The action :meth:`act` would return, with :func:`evaluate_decision`'s review of it.

        The same action from the same seed draw, so a player may alternate the two freely; the
        review (``None`` for a forced card) has every candidate's estimate, at about twice the
        time of :meth:`act`. Only a player that :func:`evaluate_decision` reproduces can review:
        a budget of playouts alone, the points as its objective, shooting allowed, no defence, no
        weighing of passes and the rule-based playouts to the end; any other raises
        :class:`ValueError`.
        """
        if (
            self.time_ms is not None
            or self.objective != "points"
            or not self.shoot
            or self.rollouts != "rules"
            or self.leaves is not None
            or self.defend
            or self.weigh_passes
        ):
            raise ValueError(
                "act_reviewed needs playouts alone, objective 'points', shoot, no defend, no weigh_passes and "
                "rule-based playouts to the end"
            )
        seed = self._rng.getrandbits(64)
        forced = _forced_play(observation)
        if forced is not None:
            return forced, None
        assert self.playouts is not None
        review = evaluate_decision(observation, playouts=self.playouts, seed=seed)
        choice: dict[str, Any] = review["choice"]
        return choice, review


def _forced_play(observation: Observation) -> dict[str, Any] | None:
    """The play of the observing seat's only legal card, where it has nothing else to search."""
    if observation.phase == "play" and len(observation.legal) == 1:
        return {"type": "play", "seat": observation.seat, "card": observation.legal[0]}
    return None


def _network_of(name: PathLike) -> _core.LearnedPolicy:
    """The network ``name`` names: ``"learned"``, the shipped one, or a path; read once per file."""
    from .learned import SHIPPED_WEIGHTS, _load

    if name == "learned":
        return _load(SHIPPED_WEIGHTS, shipped=True)
    return _load(name, shipped=False)


def evaluate_decision(
    observation: Observation,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    action: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Reviews the decision the observing seat has to make, from its observation alone.

    Returns ``{"choice", "estimates", "layouts"}``: ``choice`` is the action a
    :class:`SearchPlayer` with ``playouts`` plays given the decision seed ``seed``; each entry
    of ``estimates`` is ``{"action", "points", "margin"}``, a candidate with the observing seat's
    expected points for the hand (what the hand adds to its total, the moon rule included; lower
    is better) and its expected points minus the other seats' mean. In phase ``play`` the
    candidates are every legal card, in phase ``pass`` the search's pass and ``action`` (the
    pass the seat made, where given), in phase ``moon`` both choices (exact scores). The cards and
    passes are played in the same ``layouts`` layouts of the hidden cards each, drawn as the
    search draws them, and the hand finished by the search's playout policy, so the estimates
    compare. ``action``, where given, must be one the seat may make.

    Raises :class:`~reversis.InvalidInputError` (``invalid-action``) for an observation that is
    malformed or has no decision to make, or an action the seat may not make, and
    ``invalid-setup`` for a bad ``playouts`` or ``seed``.
    """
    review: dict[str, Any] = _core.evaluate_decision(
        _core_ruleset(observation.ruleset), observation.data, seed, playouts, action
    )
    return review
