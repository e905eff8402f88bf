"""A tournament as one call: the players named, the deals played by a backend, the numbers summed up as they come."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from .deals import Backend, DealResult, check_tournament
from .players import DEFAULT_TIME_LIMIT_MS, is_command, resolve_players
from .pool import iter_deals
from .stats import Tally, TournamentResult

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = ["run_tournament"]


class _Progress:
    """A one-line progress bar redrawn in place (at most ten times a second) with a carriage return."""

    def __init__(self, stream: TextIO, total: int, width: int = 30) -> None:
        self.stream = stream
        self.total = total
        self.width = width
        self._drawn = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and done and now - self._drawn < 0.1:
            return
        self._drawn = now
        filled = self.width * done // self.total if self.total else self.width
        self.stream.write(f"\r[{'#' * filled}{' ' * (self.width - filled)}] {done:,}/{self.total:,} deals")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _relabel(deal: DealResult, labels: dict[str, str]) -> DealResult:
    """The deal with every player under its reported name."""
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
    seed: int = 0,
    jobs: int = 1,
    rollouts: int | None = None,
    progress: TextIO | None = None,
    chunk: int | None = None,
    keep_deals: bool = False,
    on_deal: Callable[[DealResult], object] | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    labels: dict[str, str] | None = None,
    backend: Backend = iter_deals,
) -> TournamentResult:
    """Play ``hands`` deals under ``ruleset``, each in every seating, in ``jobs`` processes (:func:`.pool.iter_deals`).

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
    check_tournament(names, ruleset, hands, jobs)
    if labels is None:
        labels = resolve_players(names, ruleset, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr)
    tally = Tally([labels[name] for name in names])
    kept: list[DealResult] = []
    report = _Progress(progress, hands) if progress is not None else None
    if report is not None:
        report(0)
    deals = backend(
        names,
        ruleset=ruleset,
        hands=hands,
        seed=seed,
        jobs=jobs,
        rollouts=rollouts,
        chunk=chunk,
        time_limit_ms=time_limit_ms,
        bot_stderr=bot_stderr,
    )
    with contextlib.closing(deals):
        for played in deals:
            deal = _relabel(played, labels)
            tally.add(deal)
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
