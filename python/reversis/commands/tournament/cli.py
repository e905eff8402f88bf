"""``reversis tournament``: the command line of the tournament, its options and what it prints.

The unit is the hand (``--hands``: deals of one hand each) or the whole match (``--matches``:
match sequences, each played to the end of the match in every seating).

Every option value is checked before any work (a bad one is a usage error, exit status 2), and
so are the players (each ``cmd:`` player is started once to say hello). The ruleset is a preset by name
(``--preset``) or a ruleset from a JSON file (``--ruleset``); from here on it is a
:class:`reversis.Ruleset`. With ``--ray`` the Ray backend
(:mod:`reversis.commands.tournament_ray`) is imported and connected before any report is
opened; without it Ray is never imported.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
from typing import TYPE_CHECKING, Any

from ..._extras import install_hint
from ..common import STDOUT, count, positive, preset_name, ruleset_file, seed, writable_file
from .deals import check_tournament, seatings
from .errors import TournamentError
from .players import DEFAULT_TIME_LIMIT_MS, is_command, resolve_players, split_players
from .reports import (
    CSV_COLUMNS,
    MATCH_CSV_COLUMNS,
    PLOT_INSTALL,
    StreamedReports,
    chart_format,
    format_table,
    need_matplotlib,
    write_chart,
)
from .run import run_tournament
from .stats import TournamentResult

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = ["DEFAULT_HANDS", "DEFAULT_PRESET", "add_player_options", "register"]

#: The ruleset of a tournament that names none.
DEFAULT_PRESET = "hearts-computer"
#: The number of deals of a tournament that gives neither ``--hands`` nor ``--matches``.
DEFAULT_HANDS = 100


def _run(args: argparse.Namespace) -> int:
    """Run ``reversis tournament`` from parsed arguments."""
    import reversis

    ruleset: Ruleset = args.ruleset if args.ruleset is not None else reversis.preset(args.preset)
    bots = {"time_limit_ms": args.time_limit, "bot_stderr": args.bot_stderr}
    if args.hands is None:
        args.hands = DEFAULT_HANDS
    whole = args.matches is not None
    try:
        names = split_players(args.players)
        check_tournament(names, ruleset, args.matches if whole else args.hands, args.jobs, matches=whole)
        if args.chart:
            need_matplotlib()
        labels = resolve_players(names, ruleset, **bots)
    except TournamentError as error:
        print(f"reversis tournament: {error}", file=sys.stderr)
        return 2
    show = not args.no_progress and sys.stderr.isatty()
    options: dict[str, Any] = {
        "ruleset": ruleset,
        "hands": args.hands,
        "matches": args.matches,
        "seed": args.seed,
        "jobs": args.jobs,
        "rollouts": args.rollouts,
        "progress": sys.stderr if show else None,
        "labels": labels,
        **bots,
    }
    with contextlib.ExitStack() as cluster:
        if args.ray is not None:
            from ..tournament_ray import ray_backend, ray_session

            # Connected before any report is opened: a wrong address costs nothing but its message.
            try:
                cluster.enter_context(ray_session(args.ray, cpus=args.jobs, show_logs=args.bot_stderr == "show"))
            except TournamentError as error:
                print(f"reversis tournament: {error}", file=sys.stderr)
                return 2
            options["backend"] = ray_backend(args.ray)
        result = _run_reports(args, names, labels, options)
        if args.chart:
            write_chart(result, args.chart)
        # A report on standard output is read by a program: the table must not follow it there.
        table_out = sys.stderr if STDOUT in (args.json, args.csv) else sys.stdout
        print(format_table(result), file=table_out)
    return 0


def _run_reports(
    args: argparse.Namespace, names: list[str], labels: dict[str, str], options: dict[str, Any]
) -> TournamentResult:
    """Play the tournament, streaming each deal (or match sequence) into the ``--json`` and ``--csv`` reports."""
    ruleset = options["ruleset"]
    header = TournamentResult(
        ruleset.name,
        args.seed,
        args.matches if args.matches is not None else args.hands,
        [labels[name] for name in names],
        args.rollouts,
        [],
        [],
        [],
        rotations=len(seatings(names, ruleset.players)),
        commands={labels[name]: name for name in names if is_command(name)},
        time_limit_ms=args.time_limit,
        ruleset=ruleset,
        unit="match" if args.matches is not None else "hand",
    )
    with StreamedReports(args.json, args.csv, header) as reports:
        result = run_tournament(names, on_deal=reports.add if reports.wanted else None, **options)
        reports.finish(result)
    return result


def _chart_file(text: str) -> str:
    """A chart's path, as :func:`~reversis.commands.common.writable_file`, but a regular file (named .svg or .png)."""
    path = writable_file(text)
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise argparse.ArgumentTypeError(f"cannot write {text}: not a regular file")
    try:
        chart_format(path)
    except TournamentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return path


def add_player_options(parser: argparse.ArgumentParser, *, jobs_note: str = "") -> None:
    """Add the options of how the players are run, as ``tournament`` and ``ladder`` share them.

    ``--jobs``, ``--rollouts``, ``--time-limit`` and ``--bot-stderr``; ``jobs_note`` ends the
    help of ``--jobs``.
    """
    parser.add_argument(
        "--jobs",
        type=count(1, 1024, "--jobs"),
        default=os.cpu_count() or 1,
        help=f"worker processes (default: the CPU count){jobs_note}",
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


def register(commands: Any) -> None:
    """Add ``tournament`` to the subcommands of ``reversis``."""
    parser = commands.add_parser(
        "tournament",
        help="play duplicate hands between computer players and compare them",
        description="Duplicate tournament: each deal is played once per seating, so every player "
        "type sits at every seat with every deal. With --hands the unit is the HAND: deal i is a fresh "
        "seeded game at hand number i (passing cycles), played for one hand and scored with the moon rule; "
        "it reports mean points per hand with 95% intervals clustered by deal (Student's t over the per-deal "
        "means; none from a single deal), paired differences per deal, and the median decision time per "
        "card. With --matches the unit is the whole MATCH: match sequence i is a game seeded as deal i, from "
        "hand 0 with zero totals, played in every seating to the end of the match (the same cards for hand k "
        "in every seating); it reports each type's match-win rate (its share of its seat-matches won, a win "
        "shared by k tied winners counting 1/k) beside the share under equal play (1/seats), its points per "
        "hand, both clustered by match sequence, and per pair the difference of win rates. Units stream, so "
        "any --hands or --matches runs in bounded memory; the progress bar is drawn only on a "
        "terminal. A player cmd:COMMAND is a program in any language speaking the player protocol of "
        "spec/player.md; its faults forfeit hands, which the fallback (the lowest legal action) finishes, "
        "count as played and are reported.",
    )
    parser.add_argument(
        "--players",
        default="random,rules",
        help="comma-separated: random, rules, montecarlo, search, lowest, learned, or cmd:COMMAND for a program "
        "speaking spec/player.md (quote a command's commas); a built-in player takes options after its name, "
        "search:playouts=8000 or search:time_ms=50, and learned a network file last, learned:weights=PATH; a "
        "built-in player that cannot play the ruleset is refused before any deal",
    )
    rules = parser.add_mutually_exclusive_group()
    rules.add_argument(
        "--preset", type=preset_name, default=DEFAULT_PRESET, help=f"the ruleset preset (default {DEFAULT_PRESET})"
    )
    rules.add_argument(
        "--ruleset",
        metavar="FILE",
        type=ruleset_file,
        help="play the ruleset in the JSON file FILE instead (spec/ruleset.md): any ruleset, such as a preset "
        "with other card points or no moon",
    )
    units = parser.add_mutually_exclusive_group()
    units.add_argument(
        "--hands",
        type=positive,
        default=None,
        help=f"number of deals (hands); each is played once per seating (default {DEFAULT_HANDS})",
    )
    units.add_argument(
        "--matches",
        type=positive,
        default=None,
        help="play N whole matches instead of hands: each match sequence is played to the end of the match once "
        "per seating",
    )
    parser.add_argument("--seed", type=seed, default=0, help="tournament seed, 0 to 2**64-1; deal seeds derive from it")
    add_player_options(parser, jobs_note="; with --ray and no ADDRESS, the local Ray instance's CPUs")
    parser.add_argument(
        "--json",
        "--report-json",
        metavar="FILE",
        type=writable_file,
        help="also write the numbers to FILE as JSON, with the ruleset played and every deal: its seed and hand "
        "number, and per seating and seat the player, its points and whether it forfeited (with --matches every "
        "match sequence: per seating its players, each hand's scores, the totals and the winners) (- for standard "
        "output, and the table then goes to standard error; a pipe or device is written through, a file replaced "
        "whole)",
    )
    parser.add_argument(
        "--csv",
        "--report-csv",
        metavar="FILE",
        type=writable_file,
        help="also write every deal to FILE as CSV, one row per deal, seating and seat: "
        + ", ".join(CSV_COLUMNS)
        + "; with --matches one row per match sequence, seating and seat: "
        + ", ".join(MATCH_CSV_COLUMNS)
        + " (- for standard output, as for --json)",
    )
    parser.add_argument(
        "--chart",
        metavar="FILE",
        type=_chart_file,
        help="also draw the means and pair differences (with --matches: the match-win rates and their "
        "differences) with their 95%% intervals to FILE, .svg or .png "
        f"(needs matplotlib: {PLOT_INSTALL})",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="",
        default=None,
        help="play the deals as tasks on a Ray cluster, with the same results: at ADDRESS (HOST:PORT of its "
        "head node, or auto), or without one on a local Ray instance of --jobs CPUs (needs Ray: "
        f"{install_hint('ray')})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (drawn only on a terminal)")
    parser.set_defaults(run=_run)
