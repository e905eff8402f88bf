"""A tournament as one call: the players named, the deals (or matches) played by a backend, the numbers summed up."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .deals import Backend, Unit, check_tournament
from .players import DEFAULT_TIME_LIMIT_MS, is_command, resolve_players
from .pool import iter_deals
from .stats import MatchTally, Tally, TournamentResult

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = ["run_tournament"]


class _Progress:
    """A one-line progress bar redrawn in place (at most ten times a second) with a carriage return."""

    def __init__(self, stream: TextIO, total: int, width: int = 30, unit: str = "deals") -> None:
        self.stream = stream
        self.total = total
        self.width = width
        self.unit = unit
        self._drawn = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and done and now - self._drawn < 0.1:
            return
        self._drawn = now
        filled = self.width * done // self.total if self.total else self.width
        self.stream.write(f"\r[{'#' * filled}{' ' * (self.width - filled)}] {done:,}/{self.total:,} {self.unit}")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _relabel(deal: Unit, labels: dict[str, str]) -> Unit:
    """The deal (or match sequence) with every player under its reported name."""
    if all(key == value for key, value in labels.items()):
        return deal
    deal.seatings = [[labels[name] for name in seating] for seating in deal.seatings]
    deal.times = {labels[name]: values for name, values in deal.times.items()}
    deal.forfeits = [{**forfeit, "player": labels[forfeit["player"]]} for forfeit in deal.forfeits]
    return deal


def run_tournament(
    players: Sequence[str],
    *,
    ruleset: Ruleset,
    hands: int = 100,
    matches: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    rollouts: int | None = None,
    progress: TextIO | None = None,
    chunk: int | None = None,
    keep_deals: bool = False,
    on_deal: Callable[[Unit], object] | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    labels: dict[str, str] | None = None,
    backend: Backend = iter_deals,
) -> TournamentResult:
    """Play ``hands`` deals under ``ruleset``, each in every seating, in ``jobs`` processes (:func:`.pool.iter_deals`).

    With ``matches`` (a number, in place of ``hands``) the units are whole matches instead: match
    sequence ``i`` is a game seeded as deal ``i``, from hand 0 with zero totals, played in every
    seating to the end of the match; the result is one of match win rates
    (:class:`~.stats.MatchStats`) and ``on_deal`` gets each :class:`~.deals.MatchResult`.

    The deals stream: memory stays bounded whatever ``hands`` is, unless ``keep_deals`` keeps
    each deal's scores in the result's ``deals``. ``on_deal`` is called with each deal's
    :class:`~.deals.DealResult` in order. With ``progress`` a bar is drawn on that stream (the
    command passes one only when standard error is a terminal).

    ``cmd:`` players get ``time_limit_ms`` per decision; their standard error is kept
    (``bot_stderr`` ``"capture"``) or shown (``"show"``). Players are reported under ``labels``
    (from :func:`~.players.resolve_players`, which is called when it is ``None``). ``backend``
    plays the deals: the local worker processes by default, or Ray's
    (:func:`reversis.commands.tournament_ray.ray_backend`), with the same results.

    :raises TournamentError: as :func:`~.pool.iter_deals` (or ``backend``) and
        :func:`~.players.resolve_players`.
    """
    names = list(players)
    whole = matches is not None
    units = matches if matches is not None else hands
    check_tournament(names, ruleset, units, jobs, matches=whole)
    if labels is None:
        labels = resolve_players(names, ruleset, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr)
    reported = [labels[name] for name in names]
    tally: Tally | MatchTally = MatchTally(reported) if whole else Tally(reported)
    kept: list[Any] = []
    report = _Progress(progress, units, unit="matches" if whole else "deals") if progress is not None else None
    if report is not None:
        report(0)
    deals = backend(
        names,
        ruleset=ruleset,
        hands=units,
        seed=seed,
        jobs=jobs,
        rollouts=rollouts,
        chunk=chunk,
        time_limit_ms=time_limit_ms,
        bot_stderr=bot_stderr,
        **({"matches": True} if whole else {}),
    )
    with contextlib.closing(deals):
        for played in deals:
            deal = _relabel(played, labels)
            tally.add(deal)  # type: ignore[arg-type]  # a MatchTally gets MatchResults, a Tally DealResults
            if keep_deals:
                kept.append(deal)
            if on_deal is not None:
                on_deal(deal)
            if report is not None:
                report(tally.deals)
    result = tally.result(ruleset, seed, rollouts, kept)
    result.commands = {labels[name]: name for name in names if is_command(name)}
    result.time_limit_ms = time_limit_ms
    return result
