"""``reversis tournament``: duplicate matches between computer players.

Every deal is played once per seat rotation, so each player type sits at each seat with each
deal and luck of the cards cancels out of the comparison. The unit is the **hand**: deal ``i``
is a fresh seeded game started at hand number ``i`` (so the passing direction cycles as in a
match), played to the end of that one hand and scored with the moon rule applied.

Per player type the report gives the mean hand points over every hand it played with a 95%
interval (mean ± 1.96·sd/√n over its per-hand values, the value of a hand being the mean over
the seats it held); per pair of types the mean difference with a 95% interval from the paired
per-deal differences (each deal's difference averaged over its rotations); and per type the
median time per card decision.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import inspect
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, TextIO

__all__ = [
    "PLAYER_CLASSES",
    "DealResult",
    "PairStats",
    "PlayerStats",
    "TournamentError",
    "TournamentResult",
    "deal_seed",
    "format_table",
    "interval",
    "load_player_class",
    "play_deal",
    "register",
    "run_tournament",
    "seatings",
]

#: Player names on the command line, mapped to (module, class); imported only when used.
PLAYER_CLASSES: dict[str, tuple[str, str]] = {
    "random": ("reversis.players", "RandomPlayer"),
    "rules": ("reversis.players.rulebased", "RuleBasedPlayer"),
    "montecarlo": ("reversis.players.montecarlo", "MonteCarloPlayer"),
}


class TournamentError(Exception):
    """A tournament that cannot be run as asked (unknown or unavailable player, bad sizes)."""


def load_player_class(name: str) -> type:
    """The player class registered under ``name``.

    :raises TournamentError: if the name is unknown or its module cannot be imported.
    """
    if name not in PLAYER_CLASSES:
        raise TournamentError(f"unknown player {name!r}; known players: {', '.join(PLAYER_CLASSES)}")
    module_name, class_name = PLAYER_CLASSES[name]
    try:
        module = importlib.import_module(module_name)
        cls: type = getattr(module, class_name)
        return cls
    except (ImportError, AttributeError) as error:
        raise TournamentError(
            f"player {name!r} is not available: cannot import {class_name} from {module_name} ({error})"
        ) from error


def _make_player(name: str, seed: int, rollouts: int | None) -> Any:
    """A fresh player of type ``name``, given ``seed`` and ``rollouts`` where its class takes them."""
    cls = load_player_class(name)
    parameters = inspect.signature(cls).parameters
    kwargs: dict[str, Any] = {}
    if "seed" in parameters:
        kwargs["seed"] = seed
    if rollouts is not None and "rollouts" in parameters:
        kwargs["rollouts"] = rollouts
    return cls(**kwargs)


def deal_seed(seed: int, index: int) -> int:
    """The 64-bit seed of deal ``index`` of a tournament seeded with ``seed``.

    A hash rather than ``seed + index``: seeds of neighbouring SplitMix64 states would give
    overlapping generator streams (SEED-1).
    """
    digest = hashlib.sha256(f"reversis-tournament:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def seatings(players: Sequence[str], seats: int) -> list[list[str]]:
    """The player type at each seat in each rotation: ``seats`` rotations of one base assignment.

    The base assignment repeats the types in order around the table; rotation ``r`` moves it
    ``r`` seats to the left, so every type sits at every seat once per deal set.
    """
    if not players:
        raise TournamentError("no players")
    if len(players) > seats:
        raise TournamentError(f"{len(players)} player types do not fit a table of {seats} seats")
    base = [players[i % len(players)] for i in range(seats)]
    return [[base[(seat - rotation) % seats] for seat in range(seats)] for rotation in range(seats)]


@dataclass
class DealResult:
    """One deal played in every rotation: each rotation's seating and hand scores, and decision times."""

    index: int
    seatings: list[list[str]]
    scores: list[list[int]]
    times: dict[str, list[float]] = field(default_factory=dict)


def play_deal(
    preset_name: str, players: Sequence[str], seed: int, index: int, rollouts: int | None = None
) -> DealResult:
    """Play deal ``index`` once per rotation of :func:`seatings`; every seat acts from its observation."""
    import reversis
    from reversis.players import observe

    ruleset = reversis.preset(preset_name)
    rotations = seatings(players, ruleset.players)
    scores: list[list[int]] = []
    times: dict[str, list[float]] = {name: [] for name in players}
    for rotation, seating in enumerate(rotations):
        game = reversis.Game(ruleset, seed=deal_seed(seed, index), hand_number=index)
        table = [
            _make_player(name, deal_seed(seed, index * 1000 + rotation * 10 + seat), rollouts)
            for seat, name in enumerate(seating)
        ]
        while game.hand_number == index and game.phase not in ("over", "deal"):
            phase = game.phase
            mover = game.awaiting_pass[0] if phase == "pass" else game.to_move
            assert mover is not None
            seat = int(mover)
            observation = observe(game, seat)
            start = time.perf_counter()
            action = table[seat].act(observation)
            elapsed = time.perf_counter() - start
            if phase == "play":
                times[seating[seat]].append(elapsed)
            game.apply(action)
        scores.append([int(x) for x in game.hand_scores[-1]])
    return DealResult(index, rotations, scores, times)


def _play_chunk(
    preset_name: str, players: Sequence[str], seed: int, indices: Sequence[int], rollouts: int | None
) -> list[DealResult]:
    """Play several deals in one worker task."""
    return [play_deal(preset_name, players, seed, index, rollouts) for index in indices]


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval, mean ± 1.96·sd/√n (sd with n − 1; 0 below 2 values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True)
class PlayerStats:
    """One player type's results: hands played, mean hand points with its 95% interval, median seconds per card."""

    name: str
    hands: int
    mean: float
    low: float
    high: float
    median_decision_seconds: float


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
    """What :func:`run_tournament` measured; ``deals`` holds the raw scores of every hand."""

    preset: str
    seed: int
    hands: int
    players: list[str]
    rollouts: int | None
    stats: list[PlayerStats]
    pairs: list[PairStats]
    deals: list[DealResult]

    def stat(self, name: str) -> PlayerStats:
        """The statistics of the player type ``name``."""
        return next(s for s in self.stats if s.name == name)

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON data (without decision times per card, which are summarised)."""
        return {
            "preset": self.preset,
            "seed": self.seed,
            "deals": self.hands,
            "players": self.players,
            "rollouts": self.rollouts,
            "stats": [asdict(s) for s in self.stats],
            "pairs": [asdict(p) for p in self.pairs],
            "hands": [{"deal": d.index, "seatings": d.seatings, "scores": d.scores} for d in self.deals],
        }


def _summarise(
    preset: str, seed: int, players: list[str], rollouts: int | None, deals: list[DealResult]
) -> TournamentResult:
    """The statistics of a finished set of deals."""
    per_hand: dict[str, list[float]] = {name: [] for name in players}
    per_deal: dict[str, list[float]] = {name: [] for name in players}
    times: dict[str, list[float]] = {name: [] for name in players}
    for deal in deals:
        deal_values: dict[str, list[float]] = {name: [] for name in players}
        for seating, scores in zip(deal.seatings, deal.scores):
            for name in players:
                mine = [score for seat_name, score in zip(seating, scores) if seat_name == name]
                if mine:
                    value = statistics.fmean(mine)
                    per_hand[name].append(value)
                    deal_values[name].append(value)
        for name in players:
            per_deal[name].append(statistics.fmean(deal_values[name]))
            times[name].extend(deal.times.get(name, []))
    stats = []
    for name in players:
        mean, low, high = interval(per_hand[name])
        median = statistics.median(times[name]) if times[name] else math.nan
        stats.append(PlayerStats(name, len(per_hand[name]), mean, low, high, median))
    pairs = []
    for i, first in enumerate(players):
        for second in players[i + 1 :]:
            differences = [a - b for a, b in zip(per_deal[first], per_deal[second])]
            mean, low, high = interval(differences)
            pairs.append(PairStats(first, second, len(differences), mean, low, high))
    return TournamentResult(preset, seed, len(deals), players, rollouts, stats, pairs, deals)


def _progress(done: int, total: int, stream: TextIO, width: int = 30) -> None:
    """Draw a one-line progress bar, redrawn in place with a carriage return."""
    filled = width * done // total if total else width
    stream.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} deals")
    if done >= total:
        stream.write("\n")
    stream.flush()


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
) -> TournamentResult:
    """Play ``hands`` deals, each in every seat rotation, across ``jobs`` processes.

    The numbers depend only on the players, ``preset``, ``hands``, ``seed`` and ``rollouts``,
    never on ``jobs``. With ``progress`` a bar is drawn on that stream.

    :raises TournamentError: for an unknown or unavailable player, a repeated player, or more
        player types than seats.
    """
    import reversis

    names = list(players)
    if len(set(names)) != len(names):
        raise TournamentError("each player type may be named once")
    for name in names:
        load_player_class(name)
    seatings(names, reversis.preset(preset).players)
    if hands < 1:
        raise TournamentError("--hands must be at least 1")
    indices = list(range(hands))
    size = chunk or max(1, min(16, hands // (max(jobs, 1) * 8) or 1))
    chunks = [indices[i : i + size] for i in range(0, hands, size)]
    results: list[DealResult] = []
    done = 0
    report: Callable[[int], None] = (lambda n: _progress(n, hands, progress)) if progress else (lambda n: None)
    report(0)
    if jobs <= 1:
        for part in chunks:
            results.extend(_play_chunk(preset, names, seed, part, rollouts))
            done += len(part)
            report(done)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, preset, names, seed, part, rollouts) for part in chunks]
            for future in as_completed(futures):
                part_results = future.result()
                results.extend(part_results)
                done += len(part_results)
                report(done)
    results.sort(key=lambda d: d.index)
    return _summarise(preset, seed, names, rollouts, results)


def format_table(result: TournamentResult) -> str:
    """The report: one row per player type, then one per pair."""
    lines = [
        f"preset {result.preset}, {result.hands} deals x {len(result.deals[0].seatings) if result.deals else 0} "
        f"seat rotations, seed {result.seed}",
        f"{'player':<12} {'hands':>7} {'mean pts/hand':>14} {'95% interval':>20} {'median ms/card':>15}",
    ]
    for s in result.stats:
        ci = f"[{s.low:.2f}, {s.high:.2f}]"
        lines.append(f"{s.name:<12} {s.hands:>7} {s.mean:>14.2f} {ci:>20} {s.median_decision_seconds * 1000:>15.3f}")
    if result.pairs:
        lines.append("")
        lines.append(f"{'pair (first - second)':<26} {'deals':>7} {'mean diff':>10} {'95% interval':>20}")
        for p in result.pairs:
            ci = f"[{p.low:.2f}, {p.high:.2f}]"
            lines.append(f"{p.first + ' - ' + p.second:<26} {p.deals:>7} {p.mean_difference:>10.2f} {ci:>20}")
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    """Run ``reversis tournament`` from parsed arguments."""
    names = [name.strip() for name in args.players.split(",") if name.strip()]
    try:
        result = run_tournament(
            names,
            preset=args.preset,
            hands=args.hands,
            seed=args.seed,
            jobs=args.jobs,
            rollouts=args.rollouts,
            progress=None if args.no_progress else sys.stderr,
        )
    except TournamentError as error:
        print(f"reversis tournament: {error}", file=sys.stderr)
        return 2
    print(format_table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result.to_json(), out, indent=1)
    return 0


def register(commands: Any) -> None:
    """Add ``tournament`` to the subcommands of ``reversis``."""
    parser = commands.add_parser(
        "tournament",
        help="play duplicate hands between computer players and compare them",
        description="Duplicate tournament: each deal is played once per seat rotation, so every player "
        "type sits at every seat with every deal. The unit is the HAND, not the match: deal i is a fresh "
        "seeded game at hand number i (passing cycles), played for one hand and scored with the moon rule. "
        "Reports mean points per hand with 95%% intervals, paired differences per deal, and the median "
        "decision time per card.",
    )
    parser.add_argument("--players", default="random,rules", help="comma-separated: random, rules, montecarlo")
    parser.add_argument("--preset", default="hearts-computer", help="the ruleset preset (default hearts-computer)")
    parser.add_argument(
        "--hands", type=int, default=100, help="number of deals (hands); each is played once per seat rotation"
    )
    parser.add_argument("--seed", type=int, default=0, help="tournament seed; every deal's seed derives from it")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: the CPU count)"
    )
    parser.add_argument("--rollouts", type=int, default=None, help="rollouts per decision for montecarlo")
    parser.add_argument("--json", metavar="FILE", help="also write the numbers to FILE as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(run=_run)
