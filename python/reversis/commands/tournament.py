"""``reversis tournament``: duplicate matches between computer players.

Every deal is played once per seating, so each player type sits at each seat with each
deal and luck of the cards cancels out of the comparison. The unit is the **hand**: deal ``i``
is a fresh seeded game started at hand number ``i`` (so the passing direction cycles as in a
match), played to the end of that one hand and scored with the moon rule applied.

The statistics treat a deal as one **cluster**: the hands of one deal's seatings share
its cards, so they are not independent observations. A player type's value for a deal is its
mean hand points over that deal's rotations (and the seats it held); the report gives the mean
of those per-deal values with a 95% interval ``mean ± t · sd / √D`` over the ``D`` deals, where
``sd`` is the standard deviation of the per-deal values (with ``D − 1``) and ``t`` the 0.975
quantile of Student's t with ``D − 1`` degrees of freedom (the cluster-robust standard error of
a mean with equal cluster sizes). Per pair of types it gives the mean per-deal difference with
the same interval, and per type the median time per card decision. One deal gives no interval.

Deals stream: they are generated, played (in ``--jobs`` worker processes) and summed up in
order, a bounded number at a time, so memory does not grow with ``--hands``. With ``--ray`` the
same chunks of deals are Ray tasks, on a local instance or a cluster, with the same results
(:mod:`reversis.commands.tournament_ray`). ``--json`` and ``--csv`` stream every deal and seat
into their reports as the deals come, ``--chart`` draws the means and pair differences.

A player named ``cmd:COMMAND`` is a program in any language speaking the player protocol of
spec/player.md, run as a process (:class:`~reversis.players.process.ProcessPlayer`) for each
seat it holds, per batch of deals. Its faults forfeit hands (PLY-7): the fallback finishes them,
they count in the numbers as played, and they are reported beside them (PLY-8).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import importlib
import inspect
import io
import itertools
import json
import math
import multiprocessing
import os
import random
import shlex
import signal
import stat
import statistics
import sys
import time
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import IO, Any, TextIO

from .common import count, positive, preset_name, seed, writable_file

__all__ = [
    "COMMAND_PREFIX",
    "OPTION_SEPARATOR",
    "PLAYER_CLASSES",
    "DealResult",
    "PairStats",
    "PlayerStats",
    "TournamentError",
    "TournamentResult",
    "deal_seed",
    "format_table",
    "interval",
    "iter_deals",
    "load_player_class",
    "play_deal",
    "player_options",
    "register",
    "resolve_players",
    "run_tournament",
    "seatings",
    "split_players",
    "t_quantile",
]

#: Player names on the command line, mapped to (module, class); imported only when used.
PLAYER_CLASSES: dict[str, tuple[str, str]] = {
    "random": ("reversis.players", "RandomPlayer"),
    "rules": ("reversis.players.rulebased", "RuleBasedPlayer"),
    "montecarlo": ("reversis.players.montecarlo", "MonteCarloPlayer"),
    "search": ("reversis.players.search", "SearchPlayer"),
    "lowest": ("reversis.players.process", "LowestPlayer"),
}

#: A built-in player's name may carry options for its class: ``search:playouts=8000`` or
#: ``search:time_ms=50:playouts=20000``, each a keyword argument with a number.
OPTION_SEPARATOR = ":"

#: A player named ``cmd:COMMAND`` is the program ``COMMAND``, through spec/player.md.
COMMAND_PREFIX = "cmd:"
#: The default limit of one decision of a ``cmd:`` player, in milliseconds (PLY-5).
DEFAULT_TIME_LIMIT_MS = 5000
#: How many forfeits the table describes one by one (all are in the JSON report).
FORFEIT_LINES = 5


class TournamentError(Exception):
    """A tournament that cannot be run as asked (unknown or unavailable player, bad sizes)."""


def _is_command(name: str) -> bool:
    return name.startswith(COMMAND_PREFIX)


def _command(name: str) -> str:
    return name[len(COMMAND_PREFIX) :].strip()


def split_players(text: str) -> list[str]:
    """The player names of ``--players``: split at commas, except commas inside quotes or after a backslash.

    So ``rules,"cmd:./bot --mode 'a,b'"`` is two players, the second's command keeping its
    quotes for the shell-like split of PLY-1.

    :raises TournamentError: for an unclosed quote.
    """
    names: list[str] = []
    current: list[str] = []
    quote = ""
    escaped = False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            names.append("".join(current))
            current = []
            continue
        current.append(ch)
    if quote or escaped:
        raise TournamentError(f"--players has an unclosed quote or a trailing backslash: {text!r}")
    names.append("".join(current))
    names = [name.strip() for name in names]
    if not all(names):
        raise TournamentError(f"--players has an empty entry: {text!r} (a name between every two commas)")
    return names


def player_options(name: str) -> tuple[str, dict[str, int | float]]:
    """The registered name and the options of a built-in player's name ``NAME[:KEY=VALUE]...``.

    :raises TournamentError: for an option that is not ``KEY=NUMBER``.
    """
    base, *items = name.split(OPTION_SEPARATOR)
    options: dict[str, int | float] = {}
    for item in items:
        key, equals, text = item.partition("=")
        value: int | float | None = None
        with contextlib.suppress(ValueError):
            value = float(text)
            value = int(text)
        if not equals or not key.isidentifier() or value is None or not math.isfinite(value):
            raise TournamentError(f"player {name!r}: an option is KEY=NUMBER, not {item!r}")
        options[key] = value
    return base, options


def load_player_class(name: str) -> type:
    """The player class registered under ``name`` (options after the name are checked, not used).

    :raises TournamentError: if the name is unknown, its module cannot be imported, or it has
        an option its class does not take.
    """
    base, options = player_options(name)
    if base not in PLAYER_CLASSES:
        raise TournamentError(f"unknown player {base!r}; known players: {', '.join(PLAYER_CLASSES)}")
    module_name, class_name = PLAYER_CLASSES[base]
    try:
        module = importlib.import_module(module_name)
        cls: type = getattr(module, class_name)
    except (ImportError, AttributeError) as error:
        raise TournamentError(
            f"player {base!r} is not available: cannot import {class_name} from {module_name} ({error})"
        ) from error
    parameters = inspect.signature(cls).parameters
    for key in options:
        if key not in parameters or key == "seed":
            raise TournamentError(f"player {base!r} takes no option {key!r}")
    if options:
        try:
            cls(**options)
        except (TypeError, ValueError) as error:
            raise TournamentError(f"player {name!r}: {error}") from None
    return cls


class _Seated:
    """The ``cmd:`` players of one batch of deals, one process per command and seat, closed together."""

    def __init__(self, ruleset: Any, time_limit_ms: int, stderr: str) -> None:
        self.ruleset = ruleset
        self.time_limit_ms = time_limit_ms
        self.stderr = stderr
        self.players: dict[tuple[str, int], Any] = {}

    def get(self, name: str, seat: int) -> Any:
        from ..players.process import ProcessPlayer

        key = (name, seat)
        if key not in self.players:
            self.players[key] = ProcessPlayer(
                _command(name), self.ruleset, seat, time_limit_ms=self.time_limit_ms, stderr=self.stderr
            )
        return self.players[key]

    def __enter__(self) -> _Seated:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        from ..players.process import close_all

        if exc_type is None:
            close_all(self.players.values())
        else:  # Ctrl-C or a failure: no quit and no grace, the groups go at once
            for player in self.players.values():
                player.kill()
        self.players.clear()


def _make_player(name: str, seed: int, rollouts: int | None) -> Any:
    """A fresh player of type ``name``: ``seed`` and ``rollouts`` where its class takes them, and the name's options."""
    cls = load_player_class(name)
    parameters = inspect.signature(cls).parameters
    kwargs: dict[str, Any] = {}
    if "seed" in parameters:
        kwargs["seed"] = seed
    if rollouts is not None and "rollouts" in parameters:
        kwargs["rollouts"] = rollouts
    kwargs.update(player_options(name)[1])
    return cls(**kwargs)


def deal_seed(seed: int, index: int) -> int:
    """The 64-bit seed of deal ``index`` of a tournament seeded with ``seed``.

    A hash rather than ``seed + index``: seeds of neighbouring SplitMix64 states would give
    overlapping generator streams (SEED-1).
    """
    digest = hashlib.sha256(f"reversis-tournament:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


#: The most seatings one deal is played in when it is played in every assignment of the players.
MAX_SEATINGS = 64


def seatings(players: Sequence[str], seats: int) -> list[list[str]]:
    """The player type at each seat in each seating a deal is played in, no seating twice.

    Every distinct assignment of the types to the seats that seats each type at least once, as
    the published duplicate evaluations of Hearts programs play them (two programs at four
    seats: the 14 seatings that are not all one program), when there are at most
    :data:`MAX_SEATINGS` of them; otherwise the distinct rotations of the assignment that repeats
    the types in order around the table. Either way every type sits at every seat equally often
    (for the rotations, where the number of types divides the seats).
    """
    if not players:
        raise TournamentError("no players")
    if len(players) > seats:
        raise TournamentError(f"{len(players)} player types do not fit a table of {seats} seats")
    kinds = list(dict.fromkeys(players))
    if len(kinds) ** seats <= 8 * MAX_SEATINGS:
        every = [list(seating) for seating in itertools.product(kinds, repeat=seats) if set(seating) == set(kinds)]
        if len(every) <= MAX_SEATINGS:
            return every
    base = [players[i % len(players)] for i in range(seats)]
    rotations = [[base[(seat - rotation) % seats] for seat in range(seats)] for rotation in range(seats)]
    return [seating for index, seating in enumerate(rotations) if seating not in rotations[:index]]


@dataclass
class DealResult:
    """One deal played in every rotation: each rotation's seating and hand scores, decision times, forfeits.

    ``forfeits`` lists the hands a ``cmd:`` player forfeited (PLY-7, PLY-8): ``rotation``,
    ``seat``, ``player``, and the fault's ``kind``, ``reason``, ``decision`` and ``stderr``.
    ``seed`` is the deal's game seed (:func:`deal_seed`); its hand number is ``index``.
    """

    index: int
    seatings: list[list[str]]
    scores: list[list[int]]
    times: dict[str, list[float]] = field(default_factory=dict)
    forfeits: list[dict[str, Any]] = field(default_factory=list)
    seed: int = 0


def play_deal(
    preset_name: str,
    players: Sequence[str],
    seed: int,
    index: int,
    rollouts: int | None = None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    seated: _Seated | None = None,
) -> DealResult:
    """Play deal ``index`` once per rotation of :func:`seatings`; every seat acts from its observation.

    A ``cmd:`` player's processes come from ``seated`` (kept for the next deals) or, without
    it, live for this deal only.
    """
    import reversis
    from reversis.players import observe

    ruleset = reversis.preset(preset_name)
    if seated is None:
        with _Seated(ruleset, time_limit_ms, bot_stderr) as own:
            return play_deal(preset_name, players, seed, index, rollouts, seated=own)
    rotations = seatings(players, ruleset.players)
    scores: list[list[int]] = []
    times: dict[str, list[float]] = {name: [] for name in players}
    forfeits: list[dict[str, Any]] = []
    for rotation, seating in enumerate(rotations):
        game = reversis.Game(ruleset, seed=deal_seed(seed, index), hand_number=index)
        table = []
        for seat, name in enumerate(seating):
            player_seed = deal_seed(seed, index * 1000 + rotation * 10 + seat)
            if _is_command(name):
                player = seated.get(name, seat)
                # The seed its built-in neighbours would get: a seeded program can play as they do.
                player.start_hand(index, player_seed)
            else:
                player = _make_player(name, player_seed, rollouts)
            table.append(player)
        while game.hand_number == index and game.phase not in ("over", "deal"):
            phase = game.phase
            mover = game.awaiting_pass[0] if phase == "pass" else game.to_move
            assert mover is not None
            seat = int(mover)
            observation = observe(game, seat)
            start = time.perf_counter()
            action = table[seat].act(observation)
            elapsed = time.perf_counter() - start
            if phase == "play" and not getattr(table[seat], "fell_back", False):
                times[seating[seat]].append(elapsed)
            game.apply(action)
        scores.append([int(x) for x in game.hand_scores[-1]])
        for seat, name in enumerate(seating):
            if not _is_command(name):
                continue
            forfeit = table[seat].forfeit
            if forfeit is not None:
                forfeits.append({"seating": rotation, "seat": seat, "player": name, **forfeit.to_json()})
            else:
                table[seat].end_hand(game.last_hand, game.scores)
    return DealResult(index, rotations, scores, times, forfeits, seed=deal_seed(seed, index))


def _play_chunk(
    preset_name: str,
    players: Sequence[str],
    seed: int,
    indices: Sequence[int],
    rollouts: int | None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
) -> list[DealResult]:
    """Play several deals in one worker task, each ``cmd:`` player's processes serving them all."""
    import reversis

    with _Seated(reversis.preset(preset_name), time_limit_ms, bot_stderr) as seated:
        return [
            play_deal(
                preset_name,
                players,
                seed,
                index,
                rollouts,
                time_limit_ms=time_limit_ms,
                bot_stderr=bot_stderr,
                seated=seated,
            )
            for index in indices
        ]


def _worker_signals(bots: bool = False) -> None:
    """In a worker: Ctrl-C is the parent's to handle; ``SIGTERM`` (the pool's terminate) just ends it.

    With ``cmd:`` players the worker first kills their process groups: they live in sessions of
    their own, so nothing else would reach them (PLY-4).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    handler: Any = signal.SIG_DFL
    if bots:
        from ..players.process import kill_all

        def handler(signum: int, frame: Any) -> None:
            kill_all()
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), handler)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


#: The signals blocked while worker processes start, so none arrives before they ignore it.
_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


def _start_pool(jobs: int, bots: bool = False) -> Any:
    """A ``multiprocessing`` pool of ``jobs`` workers that ignore Ctrl-C (the parent stops them).

    The stop signals are blocked while the workers start, so none reaches a worker before it
    ignores Ctrl-C; one that arrived meanwhile is raised once they are unblocked, and then the
    new pool is terminated at once.
    """
    if not hasattr(signal, "pthread_sigmask"):
        return multiprocessing.get_context().Pool(jobs, initializer=_worker_signals, initargs=(bots,))
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        pool = multiprocessing.get_context().Pool(jobs, initializer=_worker_signals, initargs=(bots,))
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a Ctrl-C that came meanwhile is raised here
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    return pool


def _chunks(hands: int, size: int) -> Iterator[range]:
    """The deal indices ``0 … hands − 1`` in ranges of ``size``, made one at a time."""
    for first in range(0, hands, size):
        yield range(first, min(first + size, hands))


def _check_players(names: list[str], preset: str) -> None:
    import reversis

    if len(set(names)) != len(names):
        raise TournamentError("each player type may be named once")
    for name in names:
        if not _is_command(name):
            load_player_class(name)
            continue
        try:
            words = shlex.split(_command(name))
        except ValueError as error:
            raise TournamentError(f"player {name!r}: {error}") from None
        if not words:
            raise TournamentError(f"player {name!r} names no command: write cmd:PROGRAM ARGS")
    seatings(names, reversis.preset(preset).players)


def resolve_players(
    players: Sequence[str],
    preset: str = "hearts-computer",
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
) -> dict[str, str]:
    """The name each player is reported under: its own, or for ``cmd:`` players the ``name`` of their hello.

    Each ``cmd:`` player is started once, says hello and is quit (PLY-3). Its hello name is used
    unless another player has it too, or it is a built-in player's: then its ``cmd:`` text.

    :raises TournamentError: for a ``cmd:`` player that cannot be started or gives no valid hello.
    """
    import reversis

    from ..players.process import PlayerFault, ProcessPlayer

    ruleset = reversis.preset(preset)
    hello: dict[str, str] = {}
    for name in players:
        if not _is_command(name):
            continue
        try:
            with ProcessPlayer(_command(name), ruleset, 0, time_limit_ms=time_limit_ms, stderr=bot_stderr) as probe:
                hello[name] = probe.open()
        except PlayerFault as fault:
            tail = fault.stderr.strip().splitlines()[-3:]
            said = "".join(f"\n  {line}" for line in tail)
            raise TournamentError(f"player {name!r} cannot play: {fault.reason}{said}") from None
    taken = [*players, *PLAYER_CLASSES, *hello.values()]
    return {name: hello[name] if name in hello and taken.count(hello[name]) == 1 else name for name in players}


def _relabel(deal: DealResult, labels: dict[str, str]) -> DealResult:
    """The deal with every player under its reported name."""
    if all(key == value for key, value in labels.items()):
        return deal
    deal.seatings = [[labels[name] for name in seating] for seating in deal.seatings]
    deal.times = {labels[name]: values for name, values in deal.times.items()}
    deal.forfeits = [{**forfeit, "player": labels[forfeit["player"]]} for forfeit in deal.forfeits]
    return deal


def iter_deals(
    players: Sequence[str],
    *,
    preset: str = "hearts-computer",
    hands: int = 100,
    seed: int = 0,
    jobs: int = 1,
    rollouts: int | None = None,
    chunk: int | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    ray: str | None = None,
) -> Generator[DealResult, None, None]:
    """Play deals ``0 … hands − 1`` and yield their results in order, never holding them all.

    With ``jobs`` above 1 the deals are played in that many worker processes, at most
    ``2 · jobs`` chunks of ``chunk`` deals in flight; closing the generator (or an exception,
    Ctrl-C included) terminates the workers at once, and the processes of ``cmd:`` players with
    them. The results depend only on the players, ``preset``, ``seed`` and ``rollouts``, never
    on ``jobs`` or ``chunk`` (for ``cmd:`` players: if their decisions depend only on what the
    protocol gives them, PLY-4). Players are named as given (``cmd:…``), not as reported.

    With ``ray`` (an address, or ``""`` for a local instance of ``jobs`` CPUs) the deals are Ray
    tasks instead, with the same results (:func:`reversis.commands.tournament_ray.iter_deals`).

    :raises TournamentError: for an unknown or unavailable player, a repeated player, more
        player types than seats, or fewer than one deal; with ``ray``, when Ray is missing or
        its cluster cannot be reached.
    """
    names = list(players)
    _check_players(names, preset)
    if hands < 1:
        raise TournamentError("--hands must be at least 1")
    if jobs < 1:
        raise TournamentError("--jobs must be at least 1")
    if ray is not None:
        from . import tournament_ray

        yield from tournament_ray.iter_deals(
            names,
            preset=preset,
            hands=hands,
            seed=seed,
            rollouts=rollouts,
            chunk=chunk,
            time_limit_ms=time_limit_ms,
            bot_stderr=bot_stderr,
            address=ray,
            jobs=jobs,
        )
        return
    size = chunk or max(1, min(16, hands // (jobs * 8) or 1))
    bots: dict[str, Any] = {"time_limit_ms": time_limit_ms, "bot_stderr": bot_stderr}
    if jobs == 1:
        for part in _chunks(hands, size):
            yield from _play_chunk(preset, names, seed, part, rollouts, **bots)
        return
    pool = _start_pool(jobs, bots=any(_is_command(name) for name in names))
    try:
        window: deque[Any] = deque()
        for part in _chunks(hands, size):
            window.append(pool.apply_async(_play_chunk, (preset, names, seed, part, rollouts), bots))
            if len(window) >= 2 * jobs:
                yield from window.popleft().get()
        while window:
            yield from window.popleft().get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``0.5 < p < 1``) of Student's t distribution with ``df`` degrees of freedom.

    Exact (to float precision) up to 1000 degrees of freedom: the distribution function's
    closed form for integer ``df`` (Abramowitz and Stegun 26.7.3–26.7.4), inverted by
    bisection; beyond that the Cornish–Fisher expansion around the normal quantile (26.7.5),
    whose error there is below 1e-12.
    """
    if not 0.5 < p < 1 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    if df > 1000:
        z = statistics.NormalDist().inv_cdf(p)
        terms = (
            (z**3 + z) / 4,
            (5 * z**5 + 16 * z**3 + 3 * z) / 96,
            (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
            (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
        )
        return z + sum(term / df ** (k + 1) for k, term in enumerate(terms))
    target = 2 * p - 1  # P(|T| <= t)
    low, high = 0.0, 1.0
    while _t_within(high, df) < target:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if _t_within(middle, df) < target:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _t_within(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with integer ``df`` (A&S 26.7.3, 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos = math.sin(theta), math.cos(theta)
    if df % 2 == 1:
        total, term = 0.0, cos
        for k in range(1, (df - 1) // 2 + 1):
            if k > 1:
                term *= cos * cos * (2 * k - 2) / (2 * k - 1)
            total += term
        return 2 / math.pi * (theta + sin * total)
    total = term = 1.0
    for k in range(1, df // 2):
        term *= cos * cos * (2 * k - 1) / (2 * k)
        total += term
    return sin * total


#: How the intervals are made, as the report and its JSON say.
INTERVAL_METHOD = (
    "95% interval: mean of the per-deal values ± t(0.975, deals − 1) × their sd / √deals; "
    "a deal's seatings are one cluster"
)


def _interval(n: int, mean: float, variance: float) -> tuple[float, float, float]:
    if n < 2:
        return (mean if n else math.nan, math.nan, math.nan)
    half = t_quantile(0.975, n - 1) * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of independent ``values`` and its 95% interval, ``mean ± t · sd / √n``.

    ``sd`` is taken with ``n − 1`` and ``t`` is the 0.975 quantile of Student's t with ``n − 1``
    degrees of freedom. Below two values there is no interval: the bounds are ``nan``.
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    return _interval(n, mean, statistics.variance(values) if n > 1 else 0.0)


class _Moments:
    """Count, mean and sum of squared deviations of a stream of values (Welford's method)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    def interval(self) -> tuple[float, float, float]:
        return _interval(self.n, self.mean, self.m2 / (self.n - 1) if self.n > 1 else 0.0)


class _Sample:
    """A uniform sample of at most ``size`` values of a stream (reservoir sampling), for a median."""

    def __init__(self, size: int = 20_000, seed: int = 0) -> None:
        self.size = size
        self.seen = 0
        self.values: list[float] = []
        self._rng = random.Random(seed)

    def extend(self, values: Iterable[float]) -> None:
        for value in values:
            self.seen += 1
            if len(self.values) < self.size:
                self.values.append(value)
            else:
                slot = self._rng.randrange(self.seen)
                if slot < self.size:
                    self.values[slot] = value

    def median(self) -> float:
        return statistics.median(self.values) if self.values else math.nan


@dataclass(frozen=True)
class PlayerStats:
    """One player type's results: hands played, mean hand points with its 95% interval, median seconds per card.

    The interval is clustered by deal (see the module's docstring); ``deals`` is the number of
    clusters. ``low`` and ``high`` are ``nan`` from a single deal. ``forfeits`` counts the hands
    the player forfeited (PLY-8); they are among ``hands``, played out by the fallback.
    """

    name: str
    hands: int
    mean: float
    low: float
    high: float
    median_decision_seconds: float
    deals: int = 0
    forfeits: int = 0


@dataclass(frozen=True)
class PairStats:
    """Mean of ``first`` minus ``second`` points per hand over paired deals, with its 95% interval."""

    first: str
    second: str
    deals: int
    mean_difference: float
    low: float
    high: float


@dataclass
class TournamentResult:
    """What :func:`run_tournament` measured; ``deals`` holds each deal's scores if they were kept."""

    preset: str
    seed: int
    hands: int
    players: list[str]
    rollouts: int | None
    stats: list[PlayerStats]
    pairs: list[PairStats]
    deals: list[DealResult]
    rotations: int = 0
    #: The ``cmd:`` players, by reported name.
    commands: dict[str, str] = field(default_factory=dict)
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS
    #: The deals with at least one forfeit, and the first forfeits, for the table.
    forfeited_deals: int = 0
    first_forfeits: list[dict[str, Any]] = field(default_factory=list)

    def stat(self, name: str) -> PlayerStats:
        """The statistics of the player type ``name``."""
        return next(s for s in self.stats if s.name == name)

    def header(self) -> dict[str, Any]:
        """What was played, as JSON data."""
        return {
            "preset": self.preset,
            "seed": self.seed,
            "deal_count": self.hands,
            "seating_count": self.rotations,
            "players": self.players,
            "rollouts": self.rollouts,
            "commands": self.commands,
            "time_limit_ms": self.time_limit_ms,
        }

    def numbers(self) -> dict[str, Any]:
        """The statistics as JSON data (``null`` for a bound that a single deal cannot give)."""
        return {
            "interval": INTERVAL_METHOD,
            "stats": [_json_safe(asdict(s)) for s in self.stats],
            "pairs": [_json_safe(asdict(p)) for p in self.pairs],
            "forfeited_deals": self.forfeited_deals,
        }

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON data, with each kept deal's scores (decision times are summarised)."""
        return {**self.header(), **self.numbers(), "deals": [deal_json(d) for d in self.deals]}


def deal_json(deal: DealResult) -> dict[str, Any]:
    """One deal as JSON data: its index, game seed and hand number, then per seating and seat the player and points.

    ``seatings``, ``scores`` and ``forfeited`` are lists of rotations, each a list of seats: the
    player type there, its hand points, and whether it forfeited that hand (the details of each
    forfeit are in ``forfeits``).
    """
    return {
        "deal": deal.index,
        "seed": deal.seed,
        "hand_number": deal.index,
        "seatings": deal.seatings,
        "scores": deal.scores,
        "forfeited": _forfeited(deal),
        "forfeits": deal.forfeits,
    }


def _forfeited(deal: DealResult) -> list[list[bool]]:
    flags = [[False] * len(seating) for seating in deal.seatings]
    for forfeit in deal.forfeits:
        flags[forfeit["seating"]][forfeit["seat"]] = True
    return flags


#: The columns of the ``--csv`` report: one row per deal, seating and seat.
CSV_COLUMNS = ("deal", "seed", "hand_number", "seating", "seat", "player", "points", "forfeit")


def deal_rows(deal: DealResult) -> list[tuple[Any, ...]]:
    """One deal as rows of :data:`CSV_COLUMNS`, seating by seating and seat by seat (``forfeit`` is 0 or 1)."""
    flags = _forfeited(deal)
    return [
        (deal.index, deal.seed, deal.index, rotation, seat, player, points, int(flags[rotation][seat]))
        for rotation, (seating, scores) in enumerate(zip(deal.seatings, deal.scores))
        for seat, (player, points) in enumerate(zip(seating, scores))
    ]


def _csv_lines(rows: Iterable[Iterable[Any]]) -> bytes:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue().encode()


def _json_safe(data: dict[str, Any]) -> dict[str, Any]:
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in data.items()}


class _Tally:
    """The running statistics of deals added in order: bounded memory, whatever their number."""

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.deals = 0
        self.rotations = 0
        self.hands = dict.fromkeys(players, 0)
        self.per_deal = {name: _Moments() for name in players}
        self.pairs = {(a, b): _Moments() for i, a in enumerate(players) for b in players[i + 1 :]}
        self.times = {name: _Sample(seed=k) for k, name in enumerate(players)}
        self.forfeits = dict.fromkeys(players, 0)
        self.forfeited_deals = 0
        self.first_forfeits: list[dict[str, Any]] = []

    def add(self, deal: DealResult) -> None:
        self.deals += 1
        self.rotations = len(deal.seatings)
        # Forfeited hands count as played (PLY-8): they are only counted here, never left out.
        self.forfeited_deals += bool(deal.forfeits)
        for forfeit in deal.forfeits:
            self.forfeits[forfeit["player"]] += 1
            if len(self.first_forfeits) < FORFEIT_LINES:
                self.first_forfeits.append({"deal": deal.index, **forfeit})
        values: dict[str, list[float]] = {name: [] for name in self.players}
        for seating, scores in zip(deal.seatings, deal.scores):
            for name in self.players:
                mine = [score for seat_name, score in zip(seating, scores) if seat_name == name]
                if mine:
                    values[name].append(statistics.fmean(mine))
        means = {}
        for name in self.players:
            self.hands[name] += len(values[name])
            means[name] = statistics.fmean(values[name])
            self.per_deal[name].add(means[name])
            self.times[name].extend(deal.times.get(name, []))
        for (first, second), moments in self.pairs.items():
            moments.add(means[first] - means[second])

    def result(self, preset: str, seed: int, rollouts: int | None, kept: list[DealResult]) -> TournamentResult:
        stats = []
        for name in self.players:
            mean, low, high = self.per_deal[name].interval()
            stats.append(
                PlayerStats(
                    name, self.hands[name], mean, low, high, self.times[name].median(), self.deals, self.forfeits[name]
                )
            )
        pairs = []
        for (first, second), moments in self.pairs.items():
            mean, low, high = moments.interval()
            pairs.append(PairStats(first, second, moments.n, mean, low, high))
        return TournamentResult(
            preset,
            seed,
            self.deals,
            self.players,
            rollouts,
            stats,
            pairs,
            kept,
            rotations=self.rotations,
            forfeited_deals=self.forfeited_deals,
            first_forfeits=self.first_forfeits,
        )


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


def run_tournament(
    players: Sequence[str],
    *,
    preset: str = "hearts-computer",
    hands: int = 100,
    seed: int = 0,
    jobs: int = 1,
    rollouts: int | None = None,
    progress: TextIO | None = None,
    chunk: int | None = None,
    keep_deals: bool = False,
    on_deal: Any = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    labels: dict[str, str] | None = None,
    ray: str | None = None,
) -> TournamentResult:
    """Play ``hands`` deals, each in every seating, across ``jobs`` processes (see :func:`iter_deals`).

    The deals stream: memory stays bounded whatever ``hands`` is, unless ``keep_deals`` keeps
    each deal's scores in the result's ``deals``. ``on_deal`` is called with each deal's
    :class:`DealResult` in order. With ``progress`` a bar is drawn on that stream (the command
    passes one only when standard error is a terminal).

    ``cmd:`` players get ``time_limit_ms`` per decision; their standard error is kept
    (``bot_stderr`` ``"capture"``) or shown (``"show"``). Players are reported under ``labels``
    (from :func:`resolve_players`, which is called when it is ``None``). With ``ray`` the deals
    are played on a Ray cluster, as :func:`iter_deals` says, with the same results.

    :raises TournamentError: as :func:`iter_deals` and :func:`resolve_players`.
    """
    names = list(players)
    _check_players(names, preset)
    if labels is None:
        labels = resolve_players(names, preset, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr)
    tally = _Tally([labels[name] for name in names])
    kept: list[DealResult] = []
    report = _Progress(progress, hands) if progress is not None else None
    if report is not None:
        report(0)
    deals = iter_deals(
        names,
        preset=preset,
        hands=hands,
        seed=seed,
        jobs=jobs,
        rollouts=rollouts,
        chunk=chunk,
        time_limit_ms=time_limit_ms,
        bot_stderr=bot_stderr,
        ray=ray,
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
    result = tally.result(preset, seed, rollouts, kept)
    result.commands = {labels[name]: name for name in names if _is_command(name)}
    result.time_limit_ms = time_limit_ms
    return result


def _bounds(low: float, high: float) -> str:
    return "n/a (1 deal)" if math.isnan(low) else f"[{low:.2f}, {high:.2f}]"


def format_table(result: TournamentResult) -> str:
    """The report: one row per player type, then one per pair, then how the intervals are made.

    With ``cmd:`` players the rows have a ``forfeits`` column and the report says how forfeits
    were counted, naming the first few (PLY-8).
    """
    commands = bool(result.commands)
    width = max([12, *(len(s.name) for s in result.stats)])
    extra = f" {'forfeits':>9}" if commands else ""
    lines = [
        f"preset {result.preset}, {result.hands} deals x {result.rotations} seatings, seed {result.seed}",
        f"{'player':<{width}} {'hands':>7} {'mean pts/hand':>14} {'95% interval':>20} {'median ms/card':>15}{extra}",
    ]
    for s in result.stats:
        ms = s.median_decision_seconds * 1000
        extra = f" {s.forfeits:>9}" if commands else ""
        lines.append(f"{s.name:<{width}} {s.hands:>7} {s.mean:>14.2f} {_bounds(s.low, s.high):>20} {ms:>15.3f}{extra}")
    if result.pairs:
        # Every pair, however long the names: the column widens rather than the rows shift.
        pair_width = max([26, *(len(p.first) + len(p.second) + 3 for p in result.pairs)])
        lines.append("")
        lines.append(f"{'pair (first - second)':<{pair_width}} {'deals':>7} {'mean diff':>10} {'95% interval':>20}")
        for p in result.pairs:
            pair = f"{p.first} - {p.second}"
            lines.append(f"{pair:<{pair_width}} {p.deals:>7} {p.mean_difference:>10.2f} {_bounds(p.low, p.high):>20}")
    lines.append("")
    if commands:
        lines.extend(_forfeit_lines(result))
    if result.hands < 2:
        lines.append("No intervals from a single deal: the seatings of one deal are one observation.")
    lines.append(INTERVAL_METHOD.replace("−", "-").replace("±", "+/-").replace("×", "x").replace("√", "sqrt "))
    return "\n".join(lines)


def _forfeit_lines(result: TournamentResult) -> list[str]:
    if not result.forfeited_deals:
        return [f"No forfeits (time limit {result.time_limit_ms} ms per decision).", ""]
    total = sum(s.forfeits for s in result.stats)
    lines = [
        f"{total} forfeited hands in {result.forfeited_deals} of {result.hands} deals: finished by the fallback "
        "(the lowest legal action) and counted as played (spec/player.md PLY-8); the comparison is not clean."
    ]
    for forfeit in result.first_forfeits:
        lines.append(
            f"  deal {forfeit['deal']} seating {forfeit['seating']} seat {forfeit['seat']} {forfeit['player']}: "
            f"{forfeit['kind']} at decision {forfeit['decision']}: {forfeit['reason']}"
        )
    if total > len(result.first_forfeits):
        lines.append(f"  ... and {total - len(result.first_forfeits)} more (every one is in the --json report)")
    lines.append("")
    return lines


def _write_json(out: IO[bytes], result: TournamentResult | None, deal: DealResult | None, first: bool) -> None:
    """Stream the JSON report: the header, then each deal as it comes, then the numbers."""
    if deal is not None:
        out.write(((" " if first else ",\n ") + json.dumps(deal_json(deal))).encode())
    elif result is not None:
        numbers = json.dumps(result.numbers(), indent=1)[1:-1].strip()
        out.write(f"\n],\n{numbers}\n}}\n".encode())


#: The chart formats of ``--chart``, by the file name's suffix.
CHART_FORMATS = ("svg", "png")
_PLOT_INSTALL = "pip install reversis[plot]"


def _need_matplotlib() -> None:
    """Fail before a tournament whose chart could not be drawn.

    :raises TournamentError: naming the extra to install, when matplotlib is missing.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise TournamentError(f"--chart needs matplotlib, which is not installed: {_PLOT_INSTALL} ({error})") from None


def chart_format(path: str | os.PathLike[str]) -> str:
    """The format of a chart written to ``path``: its suffix, one of :data:`CHART_FORMATS`.

    :raises TournamentError: for another suffix.
    """
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if suffix not in CHART_FORMATS:
        raise TournamentError(f"a chart is written as .svg or .png, not {os.fspath(path)!r}")
    return suffix


def write_chart(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Draw each player's mean points per hand and each pair's mean difference, with their 95% intervals.

    The format is the suffix of ``path`` (:func:`chart_format`); the file is replaced atomically
    and never written through a device or FIFO. An SVG is the same for the same results.

    :raises TournamentError: when matplotlib is missing (naming ``pip install reversis[plot]``)
        or the suffix is neither ``.svg`` nor ``.png``.
    :raises reversis.table.SaveError: if ``path`` is a device, a FIFO or a directory.
    """
    kind = chart_format(path)
    _need_matplotlib()
    import matplotlib
    from matplotlib.figure import Figure

    from ..table import replace_atomically

    rows = [(s.name, s.mean, s.low, s.high) for s in result.stats]
    pairs = [(f"{p.first} − {p.second}", p.mean_difference, p.low, p.high) for p in result.pairs]
    sizes = [len(rows), *([len(pairs)] if pairs else [])]
    figure = Figure(figsize=(8, 1.6 + 0.5 * sum(sizes) + 0.9 * len(sizes)), layout="constrained")
    axes = figure.subplots(len(sizes), 1, squeeze=False, gridspec_kw={"height_ratios": [n + 1.2 for n in sizes]})[:, 0]
    labels = (
        "mean points per hand (lower is better)",
        "mean difference per hand, first − second (below 0: the first takes fewer)",
    )
    for ax, data, label, colour in zip(axes, (rows, pairs), labels, ("tab:blue", "tab:orange")):
        names = [row[0] for row in data]
        means = [row[1] for row in data]
        spans = [(0.0, 0.0) if math.isnan(low) else (mean - low, high - mean) for _, mean, low, high in data]
        places = list(range(len(data)))[::-1]
        ax.errorbar(
            means, places, xerr=list(zip(*spans)), fmt="o", color=colour, ecolor=colour, elinewidth=2, capsize=5
        )
        ax.set_yticks(places, names)
        ax.set_ylim(-0.7, len(data) - 0.3)
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
        if data is pairs:
            ax.axvline(0.0, color="grey", linewidth=1)
        for place, (_, mean, low, high) in zip(places, data):
            text = f"{mean:.2f}" if math.isnan(low) else f"{mean:.2f} [{low:.2f}, {high:.2f}]"
            ax.annotate(text, (mean, place), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)
        ax.margins(x=0.15)
    figure.suptitle(
        f"{result.preset}: {result.hands:,} deals × {result.rotations} seatings, seed {result.seed}\n"
        "95% intervals clustered by deal" + (" (none from a single deal)" if result.hands < 2 else ""),
        fontsize=10,
    )
    metadata = {"Date": None} if kind == "svg" else {"Software": None}
    # A fixed salt for the SVG's element ids: the same results give the same file.
    with matplotlib.rc_context({"svg.hashsalt": "reversis-tournament"}), replace_atomically(path) as out:
        figure.savefig(out, format=kind, metadata=metadata)


def _run(args: argparse.Namespace) -> int:
    """Run ``reversis tournament`` from parsed arguments."""
    bots = {"time_limit_ms": args.time_limit, "bot_stderr": args.bot_stderr}
    try:
        names = split_players(args.players)
        _check_players(names, args.preset)
        if args.chart:
            _need_matplotlib()
        labels = resolve_players(names, args.preset, **bots)
    except TournamentError as error:
        print(f"reversis tournament: {error}", file=sys.stderr)
        return 2
    show = not args.no_progress and sys.stderr.isatty()
    options = {
        "preset": args.preset,
        "hands": args.hands,
        "seed": args.seed,
        "jobs": args.jobs,
        "rollouts": args.rollouts,
        "progress": sys.stderr if show else None,
        "labels": labels,
        "ray": args.ray,
        **bots,
    }
    with contextlib.ExitStack() as cluster:
        if args.ray is not None:
            from .tournament_ray import ray_session

            # Connected before any report is opened: a wrong address costs nothing but its message.
            try:
                cluster.enter_context(ray_session(args.ray, cpus=args.jobs, show_logs=args.bot_stderr == "show"))
            except TournamentError as error:
                print(f"reversis tournament: {error}", file=sys.stderr)
                return 2
        result = _run_reports(args, names, labels, options)
        if args.chart:
            write_chart(result, args.chart)
        print(format_table(result))
    return 0


def _run_reports(
    args: argparse.Namespace, names: list[str], labels: dict[str, str], options: dict[str, Any]
) -> TournamentResult:
    """Play the tournament, streaming each deal into the ``--json`` and ``--csv`` reports as it comes.

    Each report replaces its file in one step when the tournament is over; if it is stopped,
    the files are left as they were.
    """
    import reversis

    from ..table import replace_atomically

    with contextlib.ExitStack() as reports:
        json_out = csv_out = None
        if args.json:
            json_out = reports.enter_context(replace_atomically(args.json, special="write"))
            shown = [labels[name] for name in names]
            header = TournamentResult(args.preset, args.seed, args.hands, shown, args.rollouts, [], [], [])
            header.rotations = len(seatings(names, reversis.preset(args.preset).players))
            header.commands = {labels[name]: name for name in names if _is_command(name)}
            header.time_limit_ms = args.time_limit
            json_out.write((json.dumps(header.header(), indent=1)[:-2] + ',\n "deals": [\n').encode())
        if args.csv:
            csv_out = reports.enter_context(replace_atomically(args.csv))
            csv_out.write(_csv_lines([CSV_COLUMNS]))
        written = [0]

        def stream(deal: DealResult) -> None:
            if json_out is not None:
                _write_json(json_out, None, deal, not written[0])
            if csv_out is not None:
                csv_out.write(_csv_lines(deal_rows(deal)))
            written[0] += 1

        result = run_tournament(names, on_deal=stream if json_out or csv_out else None, **options)
        if json_out is not None:
            _write_json(json_out, result, None, False)
    return result


def _report_file(text: str) -> str:
    """A report's path, as :func:`~reversis.commands.common.writable_file`, but never a device or FIFO."""
    path = writable_file(text)
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise argparse.ArgumentTypeError(f"cannot write {text}: not a regular file")
    return path


def _chart_file(text: str) -> str:
    path = _report_file(text)
    try:
        chart_format(path)
    except TournamentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return path


def register(commands: Any) -> None:
    """Add ``tournament`` to the subcommands of ``reversis``."""
    parser = commands.add_parser(
        "tournament",
        help="play duplicate hands between computer players and compare them",
        description="Duplicate tournament: each deal is played once per seating, so every player "
        "type sits at every seat with every deal. The unit is the HAND, not the match: deal i is a fresh "
        "seeded game at hand number i (passing cycles), played for one hand and scored with the moon rule. "
        "Reports mean points per hand with 95% intervals clustered by deal (Student's t over the per-deal "
        "means; none from a single deal), paired differences per deal, and the median decision time per "
        "card. Deals stream, so any --hands runs in bounded memory; the progress bar is drawn only on a "
        "terminal. A player cmd:COMMAND is a program in any language speaking the player protocol of "
        "spec/player.md; its faults forfeit hands, which the fallback (the lowest legal action) finishes, "
        "count as played and are reported.",
    )
    parser.add_argument(
        "--players",
        default="random,rules",
        help="comma-separated: random, rules, montecarlo, search, lowest, or cmd:COMMAND for a program speaking "
        "spec/player.md (quote a command's commas); a built-in player takes options after its name, "
        "search:playouts=8000 or search:time_ms=50",
    )
    parser.add_argument(
        "--preset", type=preset_name, default="hearts-computer", help="the ruleset preset (default hearts-computer)"
    )
    parser.add_argument(
        "--hands", type=positive, default=100, help="number of deals (hands); each is played once per seating"
    )
    parser.add_argument("--seed", type=seed, default=0, help="tournament seed, 0 to 2**64-1; deal seeds derive from it")
    parser.add_argument(
        "--jobs",
        type=count(1, 1024, "--jobs"),
        default=os.cpu_count() or 1,
        help="worker processes (default: the CPU count); with --ray and no ADDRESS, the local Ray instance's CPUs",
    )
    parser.add_argument("--rollouts", type=positive, default=None, help="rollouts per decision for montecarlo")
    parser.add_argument(
        "--time-limit",
        metavar="MS",
        type=count(1, 3_600_000, "--time-limit"),
        default=DEFAULT_TIME_LIMIT_MS,
        help=f"milliseconds a cmd: player has per decision (default {DEFAULT_TIME_LIMIT_MS}); "
        "its hello gets at least 10000",
    )
    parser.add_argument(
        "--bot-stderr",
        choices=["capture", "show"],
        default="capture",
        help="a cmd: player's standard error: kept (its tail goes with a forfeit; the default) or shown",
    )
    parser.add_argument(
        "--json",
        "--report-json",
        metavar="FILE",
        type=writable_file,
        help="also write the numbers to FILE as JSON, with every deal: its seed and hand number, and per "
        "seating and seat the player, its points and whether it forfeited",
    )
    parser.add_argument(
        "--csv",
        "--report-csv",
        metavar="FILE",
        type=_report_file,
        help="also write every deal to FILE as CSV, one row per deal, seating and seat: " + ", ".join(CSV_COLUMNS),
    )
    parser.add_argument(
        "--chart",
        metavar="FILE",
        type=_chart_file,
        help="also draw the means and pair differences with their 95%% intervals to FILE, .svg or .png "
        f"(needs matplotlib: {_PLOT_INSTALL})",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="",
        default=None,
        help="play the deals as tasks on a Ray cluster, with the same results: at ADDRESS (HOST:PORT of its "
        "head node, or auto), or without one on a local Ray instance of --jobs CPUs (needs Ray: "
        "pip install reversis[ray])",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (drawn only on a terminal)")
    parser.set_defaults(run=_run)
