"""The numbers of a tournament: means per hand with 95% intervals clustered by deal, paired differences, decision times.

The statistics treat a deal as one **cluster**: the hands of one deal's seatings share its
cards, so they are not independent observations. A player type's value for a deal is its mean
hand points over that deal's rotations (and the seats it held); the result gives the mean of
those per-deal values with a 95% interval ``mean ± t · sd / √D`` over the ``D`` deals, where
``sd`` is the standard deviation of the per-deal values (with ``D − 1``) and ``t`` the 0.975
quantile of Student's t with ``D − 1`` degrees of freedom (the cluster-robust standard error of
a mean with equal cluster sizes). Per pair of types it gives the mean per-deal difference with
the same interval, and per type the median time per card decision. One deal gives no interval.

With whole matches (``--matches``) the cluster is the **match sequence**: its seatings share the
cards of every hand. A type's values for a sequence are its share of the wins over the
seat-matches it held there (a win shared by ``k`` tied winners counts ``1/k``) and its mean points
per hand over every hand of those matches; the intervals are made the same way over the sequences.

:class:`Tally` sums the deals up as they come, in bounded memory whatever their number;
:class:`MatchTally` does so for match sequences.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .deals import DealResult, MatchResult, deal_json, match_end, match_json
from .players import DEFAULT_TIME_LIMIT_MS

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = [
    "FORFEIT_LINES",
    "INTERVAL_METHOD",
    "MATCH_INTERVAL_METHOD",
    "MatchPairStats",
    "MatchStats",
    "MatchTally",
    "PairStats",
    "PlayerStats",
    "Tally",
    "TournamentResult",
    "interval",
    "t_quantile",
]

#: How many forfeits the result keeps one by one for the table (all are in the JSON report).
FORFEIT_LINES = 5


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


#: How the intervals of a tournament of whole matches are made.
MATCH_INTERVAL_METHOD = (
    "95% interval: mean of the per-sequence values ± t(0.975, sequences − 1) × their sd / √sequences; "
    "a match sequence's seatings are one cluster; a win shared by k tied winners counts 1/k"
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


@dataclass(frozen=True)
class MatchStats(PlayerStats):
    """A player type's results over whole matches, with its match-win rate.

    As :class:`PlayerStats` (``hands`` the hands of its seat-matches, ``mean`` its points per hand
    over them, ``deals`` the match sequences), and its ``matches`` (seat-matches), ``win_rate``
    (its share of their wins, ties shared) with its 95% interval clustered by sequence, and
    ``expected_win_rate``, the share under equal play (1/seats).
    """

    matches: int = 0
    win_rate: float = math.nan
    win_low: float = math.nan
    win_high: float = math.nan
    expected_win_rate: float = math.nan


@dataclass(frozen=True)
class MatchPairStats(PairStats):
    """A pair's difference over whole matches: of points per hand, and of match-win rates.

    As :class:`PairStats` over match sequences (``deals`` the sequences, the difference of points
    per hand), and the mean per-sequence difference of win rates with its 95% interval.
    """

    win_rate_difference: float = math.nan
    win_low: float = math.nan
    win_high: float = math.nan


@dataclass
class TournamentResult:
    """What :func:`~reversis.commands.tournament.run_tournament` measured; ``deals`` holds each deal's scores if kept.

    ``preset`` is the name of the ruleset played, ``ruleset`` the ruleset itself (``None`` only
    where a result was made without one). ``unit`` is ``"hand"`` (``hands`` deals of one hand) or
    ``"match"`` (``hands`` match sequences, ``stats`` and ``pairs`` then :class:`MatchStats` and
    :class:`MatchPairStats`, ``deals`` the kept :class:`~.deals.MatchResult`).
    """

    preset: str
    seed: int
    hands: int
    players: list[str]
    rollouts: int | None
    stats: list[PlayerStats]
    pairs: list[PairStats]
    deals: list[Any]
    rotations: int = 0
    #: The ``cmd:`` players, by reported name.
    commands: dict[str, str] = field(default_factory=dict)
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS
    #: The deals with at least one forfeit, and the first forfeits, for the table.
    forfeited_deals: int = 0
    first_forfeits: list[dict[str, Any]] = field(default_factory=list)
    ruleset: Ruleset | None = None
    unit: str = "hand"

    @property
    def matches(self) -> bool:
        """Whether the units are whole matches."""
        return self.unit == "match"

    @property
    def custom(self) -> bool:
        """Whether the ruleset is not the built-in preset of its name (a ruleset from a file, say)."""
        import reversis

        if self.ruleset is None:
            return False
        return self.preset not in reversis.preset_names() or reversis.preset(self.preset) != self.ruleset

    def stat(self, name: str) -> PlayerStats:
        """The statistics of the player type ``name``."""
        return next(s for s in self.stats if s.name == name)

    def header(self) -> dict[str, Any]:
        """What was played, as JSON data: ``ruleset`` is the ruleset's canonical object (RS-16)."""
        count = (
            {"unit": "match", "match_count": self.hands}
            | ({"match_end": match_end(self.ruleset)} if self.ruleset is not None else {})
            if self.matches
            else {"deal_count": self.hands}
        )
        return {
            "preset": self.preset,
            **({"ruleset": self.ruleset.to_json()} if self.ruleset is not None else {}),
            "seed": self.seed,
            **count,
            "seating_count": self.rotations,
            "players": self.players,
            "rollouts": self.rollouts,
            "commands": self.commands,
            "time_limit_ms": self.time_limit_ms,
        }

    def numbers(self) -> dict[str, Any]:
        """The statistics as JSON data (``null`` for a bound that a single deal cannot give)."""
        return {
            "interval": MATCH_INTERVAL_METHOD if self.matches else INTERVAL_METHOD,
            "stats": [_json_safe(asdict(s)) for s in self.stats],
            "pairs": [_json_safe(asdict(p)) for p in self.pairs],
            "forfeited_deals": self.forfeited_deals,
        }

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON data, with each kept deal's scores (decision times are summarised)."""
        if self.matches:
            return {**self.header(), **self.numbers(), "matches": [match_json(m) for m in self.deals]}
        return {**self.header(), **self.numbers(), "deals": [deal_json(d) for d in self.deals]}


def _json_safe(data: dict[str, Any]) -> dict[str, Any]:
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in data.items()}


class Tally:
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
        """Count one more deal, the next in order."""
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

    def result(self, ruleset: Ruleset, seed: int, rollouts: int | None, kept: list[DealResult]) -> TournamentResult:
        """The numbers of the deals added so far, played under ``ruleset``; ``kept`` becomes the result's ``deals``."""
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
            ruleset.name,
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
            ruleset=ruleset,
        )


class MatchTally:
    """The running statistics of match sequences added in order: bounded memory, whatever their number."""

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.sequences = 0
        self.rotations = 0
        self.seats = 0
        self.matches = dict.fromkeys(players, 0)
        self.hands = dict.fromkeys(players, 0)
        self.wins = {name: _Moments() for name in players}
        self.points = {name: _Moments() for name in players}
        self.pair_wins = {(a, b): _Moments() for i, a in enumerate(players) for b in players[i + 1 :]}
        self.pair_points = {(a, b): _Moments() for i, a in enumerate(players) for b in players[i + 1 :]}
        self.times = {name: _Sample(seed=k) for k, name in enumerate(players)}
        self.forfeits = dict.fromkeys(players, 0)
        self.forfeited = 0
        self.first_forfeits: list[dict[str, Any]] = []

    @property
    def deals(self) -> int:
        """The match sequences added so far (the progress bar's count)."""
        return self.sequences

    def add(self, match: MatchResult) -> None:
        """Count one more match sequence, the next in order."""
        self.sequences += 1
        self.rotations = len(match.seatings)
        self.seats = len(match.seatings[0]) if match.seatings else 0
        self.forfeited += bool(match.forfeits)
        for forfeit in match.forfeits:
            self.forfeits[forfeit["player"]] += 1
            if len(self.first_forfeits) < FORFEIT_LINES:
                self.first_forfeits.append({"match": match.index, **forfeit})
        shares: dict[str, list[float]] = {name: [] for name in self.players}
        points = dict.fromkeys(self.players, 0)
        hands = dict.fromkeys(self.players, 0)
        for seating, scores, row in zip(match.seatings, match.scores, match.win_shares()):
            for seat, name in enumerate(seating):
                shares[name].append(row[seat])
                points[name] += sum(hand[seat] for hand in scores)
                hands[name] += len(scores)
        rates: dict[str, float] = {}
        means: dict[str, float] = {}
        for name in self.players:
            self.matches[name] += len(shares[name])
            self.hands[name] += hands[name]
            rates[name] = statistics.fmean(shares[name])
            means[name] = points[name] / hands[name]
            self.wins[name].add(rates[name])
            self.points[name].add(means[name])
            self.times[name].extend(match.times.get(name, []))
        for first, second in self.pair_wins:
            self.pair_wins[first, second].add(rates[first] - rates[second])
            self.pair_points[first, second].add(means[first] - means[second])

    def result(self, ruleset: Ruleset, seed: int, rollouts: int | None, kept: list[MatchResult]) -> TournamentResult:
        """The numbers of the match sequences added so far, played under ``ruleset``; ``kept`` becomes ``deals``."""
        stats: list[PlayerStats] = []
        for name in self.players:
            mean, low, high = self.points[name].interval()
            rate, win_low, win_high = self.wins[name].interval()
            stats.append(
                MatchStats(
                    name,
                    self.hands[name],
                    mean,
                    low,
                    high,
                    self.times[name].median(),
                    self.sequences,
                    self.forfeits[name],
                    matches=self.matches[name],
                    win_rate=rate,
                    win_low=win_low,
                    win_high=win_high,
                    expected_win_rate=1 / ruleset.players,
                )
            )
        pairs: list[PairStats] = []
        for (first, second), wins in self.pair_wins.items():
            mean, low, high = self.pair_points[first, second].interval()
            rate, win_low, win_high = wins.interval()
            pairs.append(
                MatchPairStats(
                    first, second, wins.n, mean, low, high, win_rate_difference=rate, win_low=win_low, win_high=win_high
                )
            )
        return TournamentResult(
            ruleset.name,
            seed,
            self.sequences,
            self.players,
            rollouts,
            stats,
            pairs,
            kept,
            rotations=self.rotations,
            forfeited_deals=self.forfeited,
            first_forfeits=self.first_forfeits,
            ruleset=ruleset,
            unit="match",
        )
