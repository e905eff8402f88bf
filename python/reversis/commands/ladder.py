"""``reversis ladder``: every player against one reference player, in one table, best first.

Each listed player other than the reference plays a two-type duplicate tournament against the
reference (:func:`~reversis.commands.tournament.run_tournament`): ``hands`` deals, and where
``matches`` is above 0 that many whole matches too. Every pairing has the same seed, so every
player meets the reference on the same cards. A player's rung is its points per hand relative to
the reference (the mean paired difference per deal, player minus reference, with its 95%
interval clustered by deal; the reference's own row is 0), and with matches its match-win rate
against the reference (ties shared) beside the share under equal play. Lower points are better,
so the table is sorted by that difference, lowest first.

A ``cmd:`` player (a program speaking spec/player.md) takes a rung like any other.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from .common import STDOUT, count, positive, preset_name, ruleset_file, seed, writable_file
from .tournament.cli import add_player_options
from .tournament.deals import Backend, match_end
from .tournament.errors import TournamentError
from .tournament.players import DEFAULT_TIME_LIMIT_MS, check_players, is_command, resolve_players, split_players
from .tournament.pool import iter_deals
from .tournament.run import run_tournament
from .tournament.stats import MatchStats

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = [
    "DEFAULT_HANDS",
    "DEFAULT_MATCHES",
    "DEFAULT_PLAYERS",
    "DEFAULT_PRESET",
    "DEFAULT_REFERENCE",
    "LadderResult",
    "LadderRow",
    "check_ladder",
    "format_ladder",
    "register",
    "run_ladder",
]

#: The ruleset of a ladder that names none.
DEFAULT_PRESET = "hearts-computer"
#: The players of a ladder that names none: quick ones, for a ladder of a few minutes.
DEFAULT_PLAYERS = "random,rules,learned"
#: The player every other is measured against, unless ``--reference`` names another.
DEFAULT_REFERENCE = "rules"
#: Deals per pairing: a few minutes for the rule-based and learned players on two cores.
DEFAULT_HANDS = 200
#: Whole matches per pairing: none unless asked.
DEFAULT_MATCHES = 0


@dataclass(frozen=True)
class LadderRow:
    """One rung: a player's points per hand relative to the reference, and its match-win rate against it.

    ``difference`` is the mean over ``deals`` deals of the player's points per hand minus the
    reference's, with its 95% interval (``low``, ``high``; ``nan`` from one deal and on the
    reference's own row, whose difference is 0). ``win_rate`` is its share of its seat-matches
    won against the reference over ``matches`` match sequences (``nan`` without matches and on
    the reference's row), ``expected_win_rate`` the share under equal play. ``player`` is the name
    as given (``cmd:…``), ``name`` as reported.
    """

    name: str
    player: str
    reference: bool
    deals: int
    difference: float
    low: float
    high: float
    median_decision_seconds: float
    matches: int = 0
    win_rate: float = math.nan
    win_low: float = math.nan
    win_high: float = math.nan
    expected_win_rate: float = math.nan


@dataclass
class LadderResult:
    """A ladder: what was played and its rows, best first."""

    ruleset: Ruleset
    reference: str
    seed: int
    hands: int
    matches: int
    rows: list[LadderRow]
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS
    commands: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ladder as JSON data (``null`` for a bound or rate there is none of)."""
        return {
            "preset": self.ruleset.name,
            "ruleset": self.ruleset.to_json(),
            "reference": self.reference,
            "seed": self.seed,
            "deal_count": self.hands,
            "match_count": self.matches,
            **({"match_end": match_end(self.ruleset)} if self.matches else {}),
            "commands": self.commands,
            "time_limit_ms": self.time_limit_ms,
            "rows": [
                {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in asdict(row).items()}
                for row in self.rows
            ],
        }


def check_ladder(players: Sequence[str], reference: str) -> None:
    """Refuse a ladder that cannot be played: the reference missing, a player twice, nobody to compare.

    :raises TournamentError: naming the problem.
    """
    if len(set(players)) != len(players):
        twice = sorted({name for name in players if list(players).count(name) > 1})
        raise TournamentError(f"each player may be named once: {', '.join(twice)} is named more than once")
    if reference not in players:
        raise TournamentError(f"the reference {reference!r} is not among the players: add it to --players")
    if len(players) < 2:
        raise TournamentError("a ladder needs at least one player besides the reference")


def run_ladder(
    players: Sequence[str],
    reference: str,
    *,
    ruleset: Ruleset,
    hands: int = DEFAULT_HANDS,
    matches: int = DEFAULT_MATCHES,
    seed: int = 0,
    jobs: int = 1,
    rollouts: int | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    labels: dict[str, str] | None = None,
    progress: TextIO | None = None,
    backend: Backend = iter_deals,
) -> LadderResult:
    """Play every player of ``players`` but ``reference`` against ``reference`` and rank them, best first.

    Each pairing is :func:`~reversis.commands.tournament.run_tournament` of the two, ``hands``
    deals, then ``matches`` match sequences where that is above 0, all with ``seed``.

    :raises TournamentError: as :func:`check_ladder`, and as ``run_tournament``.
    """
    names = list(players)
    check_ladder(names, reference)
    check_players(names, ruleset)
    if matches < 0:
        raise TournamentError("--matches must be at least 0")
    bots: dict[str, Any] = {"time_limit_ms": time_limit_ms, "bot_stderr": bot_stderr}
    if labels is None:
        labels = resolve_players(names, ruleset, **bots)
    common: dict[str, Any] = {
        "ruleset": ruleset,
        "seed": seed,
        "jobs": jobs,
        "rollouts": rollouts,
        "progress": progress,
        "labels": labels,
        "backend": backend,
        **bots,
    }
    rows: list[LadderRow] = []
    reference_ms = math.nan
    for name in names:
        if name == reference:
            continue
        if progress is not None:
            progress.write(f"{labels[name]} against {labels[reference]}\n")
        pair = [name, reference]
        by_hand = run_tournament(pair, hands=hands, **common)
        (difference,) = by_hand.pairs
        if math.isnan(reference_ms):
            reference_ms = by_hand.stat(labels[reference]).median_decision_seconds
        wins: dict[str, Any] = {}
        if matches:
            by_match = run_tournament(pair, matches=matches, **common)
            mine = by_match.stat(labels[name])
            assert isinstance(mine, MatchStats)
            wins = {
                "matches": by_match.hands,
                "win_rate": mine.win_rate,
                "win_low": mine.win_low,
                "win_high": mine.win_high,
                "expected_win_rate": mine.expected_win_rate,
            }
        rows.append(
            LadderRow(
                labels[name],
                name,
                False,
                difference.deals,
                difference.mean_difference,
                difference.low,
                difference.high,
                by_hand.stat(labels[name]).median_decision_seconds,
                **wins,
            )
        )
    rows.append(
        LadderRow(
            labels[reference],
            reference,
            True,
            hands,
            0.0,
            math.nan,
            math.nan,
            reference_ms,
            matches=matches,
            expected_win_rate=1 / ruleset.players if matches else math.nan,
        )
    )
    # Stable: a player level with the reference stays above it, in the order given.
    rows.sort(key=lambda row: row.difference)
    return LadderResult(
        ruleset,
        labels[reference],
        seed,
        hands,
        matches,
        rows,
        time_limit_ms=time_limit_ms,
        commands={labels[name]: name for name in names if is_command(name)},
    )


def _bounds(low: float, high: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(low) else f"[{low:.{digits}f}, {high:.{digits}f}]"


def format_ladder(result: LadderResult) -> str:
    """The ladder's table: one row per player, best first, then what the columns mean."""
    width = max([12, *(len(row.name) for row in result.rows)])
    what = f"{result.hands} deals"
    if result.matches:
        what += f" and {result.matches} matches {match_end(result.ruleset)}"
    header = f"{'player':<{width}} {'pts/hand vs ref':>15} {'95% interval':>16}"
    if result.matches:
        header += f" {'win rate':>8} {'95% interval':>16} {'equal':>6}"
    lines = [
        f"ladder on {result.ruleset.name}, reference {result.reference}: {what} per pairing, seed {result.seed}",
        header + f" {'ms/card':>8}",
    ]
    for row in result.rows:
        spread = "reference" if row.reference else _bounds(row.low, row.high)
        line = f"{row.name:<{width}} {row.difference:>15.2f} {spread:>16}"
        if result.matches:
            rate = "-" if row.reference else f"{row.win_rate:.3f}"
            spread = "reference" if row.reference else _bounds(row.win_low, row.win_high, 3)
            line += f" {rate:>8} {spread:>16} {row.expected_win_rate:>6.3f}"
        lines.append(line + f" {row.median_decision_seconds * 1000:>8.3f}")
    lines.append("")
    lines.append(
        "pts/hand vs ref: mean per deal of (player - reference) points per hand in their duplicate tournament, "
        "lower is better; 95% interval clustered by deal."
    )
    if result.matches:
        lines.append(
            "win rate: the player's share of its seat-matches won against the reference (ties shared 1/k), 95% "
            "interval clustered by match sequence; equal: the share under equal play (1/seats)."
        )
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    """Run ``reversis ladder`` from parsed arguments."""
    import reversis

    from .common import output_file

    ruleset: Ruleset = args.ruleset if args.ruleset is not None else reversis.preset(args.preset)
    bots = {"time_limit_ms": args.time_limit, "bot_stderr": args.bot_stderr}
    try:
        names = split_players(args.players)
        check_ladder(names, args.reference)
        check_players(names, ruleset)
        labels = resolve_players(names, ruleset, **bots)
    except TournamentError as error:
        print(f"reversis ladder: {error}", file=sys.stderr)
        return 2
    show = not args.no_progress and sys.stderr.isatty()
    result = run_ladder(
        names,
        args.reference,
        ruleset=ruleset,
        hands=args.hands,
        matches=args.matches,
        seed=args.seed,
        jobs=args.jobs,
        rollouts=args.rollouts,
        labels=labels,
        progress=sys.stderr if show else None,
        **bots,
    )
    if args.json:
        with output_file(args.json) as out:
            out.write((json.dumps(result.to_json(), indent=1) + "\n").encode())
    print(format_ladder(result), file=sys.stderr if args.json == STDOUT else sys.stdout)
    return 0


def register(commands: Any) -> None:
    """Add ``ladder`` to the subcommands of ``reversis``."""
    parser = commands.add_parser(
        "ladder",
        help="rank computer players by duplicate tournaments against one reference player",
        description="Ladder: every player of --players other than the reference plays a two-type duplicate "
        "tournament against the reference (as reversis tournament: --hands deals of one hand in every seating, "
        "and with --matches that many whole matches too), all with the same seed, so every player meets the "
        "reference on the same cards. One table, best first: points per hand relative to the reference (mean "
        "paired difference per deal, the reference's own row 0) with its 95% interval clustered by deal, the "
        "match-win rate against the reference with its interval (with --matches), and the median decision "
        f"time per card. The defaults (--hands {DEFAULT_HANDS}, --matches {DEFAULT_MATCHES}) take a few minutes "
        "for rules and learned on two cores; raise --hands for narrower intervals (the width falls as "
        "1/sqrt(hands)), and --matches to rank by match wins. A cmd:COMMAND player is a program speaking "
        "spec/player.md, as in reversis tournament.",
    )
    parser.add_argument(
        "--players",
        default=DEFAULT_PLAYERS,
        help="comma-separated, the reference among them: random, rules, montecarlo, search, lowest, learned (with "
        f"options as in reversis tournament), or cmd:COMMAND for a program speaking spec/player.md (default "
        f"{DEFAULT_PLAYERS})",
    )
    parser.add_argument(
        "--reference",
        default=DEFAULT_REFERENCE,
        help=f"the player every other is measured against; it must be one of --players (default {DEFAULT_REFERENCE})",
    )
    rules = parser.add_mutually_exclusive_group()
    rules.add_argument(
        "--preset", type=preset_name, default=DEFAULT_PRESET, help=f"the ruleset preset (default {DEFAULT_PRESET})"
    )
    rules.add_argument("--ruleset", metavar="FILE", type=ruleset_file, help="play the ruleset in the JSON file FILE")
    parser.add_argument(
        "--hands",
        type=positive,
        default=DEFAULT_HANDS,
        help=f"deals per pairing (default {DEFAULT_HANDS}); raise it for narrower intervals",
    )
    parser.add_argument(
        "--matches",
        type=count(0, None, "--matches"),
        default=DEFAULT_MATCHES,
        help=f"whole matches per pairing as well, for the match-win rates (default {DEFAULT_MATCHES}: none)",
    )
    parser.add_argument("--seed", type=seed, default=0, help="the seed of every pairing, 0 to 2**64-1")
    add_player_options(parser)
    parser.add_argument(
        "--json",
        metavar="FILE",
        type=writable_file,
        help="also write the ladder to FILE as JSON, the figures of every player (- for standard output, and the "
        "table then goes to standard error)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (drawn only on a terminal)")
    parser.set_defaults(run=_run)
