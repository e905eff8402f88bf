"""The reports of a tournament: the table printed at the end, ``--json`` and ``--csv`` deal by deal, ``--chart``.

A tournament of whole matches (``--matches``) has reports of its own kind: its table gives the
match-win rates beside the share under equal play, its JSON report every match sequence with the
hands, totals and winners of each seating, its CSV report a row per sequence, seating and seat
(:data:`MATCH_CSV_COLUMNS`), its chart the win rates.

:class:`StreamedReports` writes the JSON and CSV reports as the deals come, so they cost no
memory however many deals there are; each replaces its file in one step when the tournament is
over, and a tournament stopped half-way leaves the files as they were.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
from collections.abc import Iterable
from typing import IO, Any

from ..._extras import install_hint
from .deals import DealResult, MatchResult, Unit, deal_json, forfeit_flags, match_end, match_json
from .errors import TournamentError
from .stats import INTERVAL_METHOD, MATCH_INTERVAL_METHOD, MatchPairStats, MatchStats, TournamentResult

__all__ = [
    "CHART_FORMATS",
    "CSV_COLUMNS",
    "MATCH_CSV_COLUMNS",
    "PLOT_INSTALL",
    "StreamedReports",
    "chart_format",
    "deal_rows",
    "format_table",
    "match_rows",
    "need_matplotlib",
    "write_chart",
]

#: The columns of the ``--csv`` report: one row per deal, seating and seat.
CSV_COLUMNS = ("deal", "seed", "hand_number", "seating", "seat", "player", "points", "forfeit")


def deal_rows(deal: DealResult) -> list[tuple[Any, ...]]:
    """One deal as rows of :data:`CSV_COLUMNS`, seating by seating and seat by seat (``forfeit`` is 0 or 1)."""
    flags = forfeit_flags(deal)
    return [
        (deal.index, deal.seed, deal.index, rotation, seat, player, points, int(flags[rotation][seat]))
        for rotation, (seating, scores) in enumerate(zip(deal.seatings, deal.scores))
        for seat, (player, points) in enumerate(zip(seating, scores))
    ]


#: The columns of the ``--csv`` report of whole matches: one row per match sequence, seating and seat.
MATCH_CSV_COLUMNS = ("match", "seed", "seating", "seat", "player", "hands", "total", "win_share", "forfeited_hands")


def match_rows(match: MatchResult) -> list[tuple[Any, ...]]:
    """One match sequence as rows of :data:`MATCH_CSV_COLUMNS`, seating by seating and seat by seat."""
    data = match_json(match)
    shares = match.win_shares()
    return [
        (match.index, match.seed, rotation, seat, player, data["hands"][rotation], total, shares[rotation][seat], flag)
        for rotation, (seating, totals, flags) in enumerate(zip(match.seatings, match.totals, data["forfeited"]))
        for seat, (player, total, flag) in enumerate(zip(seating, totals, flags))
    ]


def _csv_lines(rows: Iterable[Iterable[Any]]) -> bytes:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue().encode()


class StreamedReports:
    """The ``--json`` report at ``json_path`` and the ``--csv`` report at ``csv_path`` (either may be ``None``).

    Used as a ``with`` block: entering it opens the reports and writes what ``header`` says was
    played (a :class:`~.stats.TournamentResult` with no deals yet), :meth:`add` writes each deal
    as it comes, :meth:`finish` the numbers at the end. Each file is replaced in one step when
    the block ends normally, and left as it was if it ends by an exception, Ctrl-C included.
    """

    def __init__(self, json_path: str | None, csv_path: str | None, header: TournamentResult) -> None:
        self.json_path = json_path
        self.csv_path = csv_path
        self.header = header
        self._files = contextlib.ExitStack()
        self._json: IO[bytes] | None = None
        self._csv: IO[bytes] | None = None
        self._written = 0

    @property
    def wanted(self) -> bool:
        """Whether there is any report to write."""
        return self.json_path is not None or self.csv_path is not None

    def __enter__(self) -> StreamedReports:
        from ..common import output_file

        with self._files as files:
            key = "matches" if self.header.matches else "deals"
            if self.json_path:
                self._json = files.enter_context(output_file(self.json_path))
                self._json.write((json.dumps(self.header.header(), indent=1)[:-2] + f',\n "{key}": [\n').encode())
            if self.csv_path:
                self._csv = files.enter_context(output_file(self.csv_path))
                self._csv.write(_csv_lines([MATCH_CSV_COLUMNS if self.header.matches else CSV_COLUMNS]))
            self._files = files.pop_all()
        return self

    def add(self, deal: Unit) -> None:
        """Write the next deal (or match sequence) to each report."""
        if self._json is not None:
            data = match_json(deal) if isinstance(deal, MatchResult) else deal_json(deal)
            self._json.write(((",\n " if self._written else " ") + json.dumps(data)).encode())
        if self._csv is not None:
            self._csv.write(_csv_lines(match_rows(deal) if isinstance(deal, MatchResult) else deal_rows(deal)))
        self._written += 1

    def finish(self, result: TournamentResult) -> None:
        """Write the numbers of ``result`` after the deals of the JSON report."""
        if self._json is not None:
            numbers = json.dumps(result.numbers(), indent=1)[1:-1].strip()
            self._json.write(f"\n],\n{numbers}\n}}\n".encode())

    def __exit__(self, *exc: Any) -> None:
        self._files.__exit__(*exc)


def _bounds(low: float, high: float, unit: str = "deal", digits: int = 2) -> str:
    return f"n/a (1 {unit})" if math.isnan(low) else f"[{low:.{digits}f}, {high:.{digits}f}]"


def _interval_note(method: str) -> str:
    return method.replace("−", "-").replace("±", "+/-").replace("×", "x").replace("√", "sqrt ")


def format_table(result: TournamentResult) -> str:
    """The report: one row per player type, then one per pair, then how the intervals are made.

    With ``cmd:`` players the rows have a ``forfeits`` column and the report says how forfeits
    were counted, naming the first few (PLY-8). A tournament of whole matches gives the
    match-win rates (:func:`_format_match_table`).
    """
    if result.matches:
        return _format_match_table(result)
    commands = bool(result.commands)
    width = max([12, *(len(s.name) for s in result.stats)])
    extra = f" {'forfeits':>9}" if commands else ""
    kind = "ruleset" if result.custom else "preset"
    lines = [
        f"{kind} {result.preset}, {result.hands} deals x {result.rotations} seatings, seed {result.seed}",
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
    lines.append(_interval_note(INTERVAL_METHOD))
    return "\n".join(lines)


def _format_match_table(result: TournamentResult) -> str:
    """The report of whole matches: per type its match-win rate beside the share under equal play.

    Then its points per hand, and per pair the difference of win rates and of points per hand.
    """
    commands = bool(result.commands)
    width = max([12, *(len(s.name) for s in result.stats)])
    extra = f" {'forfeits':>9}" if commands else ""
    kind = "ruleset" if result.custom else "preset"
    end = match_end(result.ruleset) if result.ruleset is not None else ""
    lines = [
        f"{kind} {result.preset}, {result.hands} matches {end} x {result.rotations} seatings, seed {result.seed}",
        f"{'player':<{width}} {'matches':>7} {'win rate':>8} {'95% interval':>16} {'equal':>6} "
        f"{'hands':>7} {'pts/hand':>8} {'95% interval':>16} {'ms/card':>8}{extra}",
    ]
    for s in result.stats:
        assert isinstance(s, MatchStats)
        ms = s.median_decision_seconds * 1000
        extra = f" {s.forfeits:>9}" if commands else ""
        lines.append(
            f"{s.name:<{width}} {s.matches:>7} {s.win_rate:>8.3f} {_bounds(s.win_low, s.win_high, 'match', 3):>16} "
            f"{s.expected_win_rate:>6.3f} {s.hands:>7} {s.mean:>8.2f} {_bounds(s.low, s.high, 'match'):>16} "
            f"{ms:>8.3f}{extra}"
        )
    if result.pairs:
        pair_width = max([26, *(len(p.first) + len(p.second) + 3 for p in result.pairs)])
        lines.append("")
        lines.append(
            f"{'pair (first - second)':<{pair_width}} {'matches':>7} {'win rate diff':>13} {'95% interval':>18}"
            f" {'pts/hand diff':>13} {'95% interval':>18}"
        )
        for p in result.pairs:
            assert isinstance(p, MatchPairStats)
            pair = f"{p.first} - {p.second}"
            lines.append(
                f"{pair:<{pair_width}} {p.deals:>7} {p.win_rate_difference:>13.3f} "
                f"{_bounds(p.win_low, p.win_high, 'match', 3):>18} {p.mean_difference:>13.2f} "
                f"{_bounds(p.low, p.high, 'match'):>18}"
            )
    lines.append("")
    if commands:
        lines.extend(_forfeit_lines(result))
    lines.append(
        "win rate: the share of a type's seat-matches it won; equal: the share under equal play (1/seats); "
        "'matches' counts match sequences in the pair rows, seat-matches above; lower pts/hand is better."
    )
    if result.hands < 2:
        lines.append("No intervals from a single match sequence: its seatings are one observation.")
    lines.append(_interval_note(MATCH_INTERVAL_METHOD))
    return "\n".join(lines)


def _forfeit_lines(result: TournamentResult) -> list[str]:
    if not result.forfeited_deals:
        return [f"No forfeits (time limit {result.time_limit_ms} ms per decision).", ""]
    total = sum(s.forfeits for s in result.stats)
    unit, units = ("match", "matches") if result.matches else ("deal", "deals")
    lines = [
        f"{total} forfeited hands in {result.forfeited_deals} of {result.hands} {units}: finished by the fallback "
        "(the lowest legal action) and counted as played (spec/player.md PLY-8); the comparison is not clean."
    ]
    for forfeit in result.first_forfeits:
        hand = f" hand {forfeit['hand']}" if "hand" in forfeit else ""
        lines.append(
            f"  {unit} {forfeit[unit]} seating {forfeit['seating']}{hand} seat {forfeit['seat']} {forfeit['player']}: "
            f"{forfeit['kind']} at decision {forfeit['decision']}: {forfeit['reason']}"
        )
    if total > len(result.first_forfeits):
        lines.append(f"  ... and {total - len(result.first_forfeits)} more (every one is in the --json report)")
    lines.append("")
    return lines


#: The chart formats of ``--chart``, by the file name's suffix.
CHART_FORMATS = ("svg", "png")
#: How to install what ``--chart`` needs.
PLOT_INSTALL = install_hint("plot")


def need_matplotlib() -> None:
    """Fail before a tournament whose chart could not be drawn.

    :raises TournamentError: naming the extra to install, when matplotlib is missing.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as error:
        raise TournamentError(f"--chart needs matplotlib, which is not installed: {PLOT_INSTALL} ({error})") from None


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

    For whole matches: each player's match-win rate (beside the share under equal play) and each
    pair's difference of win rates.

    The format is the suffix of ``path`` (:func:`chart_format`); the file is replaced atomically
    and never written through a device or FIFO. An SVG is the same for the same results.

    :raises TournamentError: when matplotlib is missing (naming :data:`PLOT_INSTALL`)
        or the suffix is neither ``.svg`` nor ``.png``.
    :raises reversis.table.SaveError: if ``path`` is a device, a FIFO or a directory.
    """
    kind = chart_format(path)
    need_matplotlib()
    import matplotlib
    from matplotlib.figure import Figure

    from reversis.table import replace_atomically

    if result.matches:
        rows = [(s.name, s.win_rate, s.win_low, s.win_high) for s in result.stats if isinstance(s, MatchStats)]
        pairs = [
            (f"{p.first} − {p.second}", p.win_rate_difference, p.win_low, p.win_high)
            for p in result.pairs
            if isinstance(p, MatchPairStats)
        ]
        labels = (
            "match-win rate, ties shared (grey: the share under equal play)",
            "difference of match-win rates, first − second",
        )
        equal = 1 / result.ruleset.players if result.ruleset is not None else math.nan
        title = f"{result.preset}: {result.hands:,} matches {match_end(result.ruleset) if result.ruleset else ''}"
        cluster = "match sequence"
    else:
        rows = [(s.name, s.mean, s.low, s.high) for s in result.stats]
        pairs = [(f"{p.first} − {p.second}", p.mean_difference, p.low, p.high) for p in result.pairs]
        labels = (
            "mean points per hand (lower is better)",
            "mean difference per hand, first − second (below 0: the first takes fewer)",
        )
        equal = math.nan
        title = f"{result.preset}: {result.hands:,} deals"
        cluster = "deal"
    sizes = [len(rows), *([len(pairs)] if pairs else [])]
    figure = Figure(figsize=(8, 1.6 + 0.5 * sum(sizes) + 0.9 * len(sizes)), layout="constrained")
    axes = figure.subplots(len(sizes), 1, squeeze=False, gridspec_kw={"height_ratios": [n + 1.2 for n in sizes]})[:, 0]
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
        elif not math.isnan(equal):
            ax.axvline(equal, color="grey", linewidth=1)
        for place, (_, mean, low, high) in zip(places, data):
            text = f"{mean:.2f}" if math.isnan(low) else f"{mean:.2f} [{low:.2f}, {high:.2f}]"
            ax.annotate(text, (mean, place), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)
        ax.margins(x=0.15)
    figure.suptitle(
        f"{title} × {result.rotations} seatings, seed {result.seed}\n"
        f"95% intervals clustered by {cluster}" + (f" (none from a single {cluster})" if result.hands < 2 else ""),
        fontsize=10,
    )
    metadata = {"Date": None} if kind == "svg" else {"Software": None}
    # A fixed salt for the SVG's element ids: the same results give the same file.
    with matplotlib.rc_context({"svg.hashsalt": "reversis-tournament"}), replace_atomically(path) as out:
        figure.savefig(out, format=kind, metadata=metadata)
