"""The reports of a tournament: the table printed at the end, ``--json`` and ``--csv`` deal by deal, ``--chart``.

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
from .deals import DealResult, deal_json, forfeit_flags
from .errors import TournamentError
from .stats import INTERVAL_METHOD, TournamentResult

__all__ = [
    "CHART_FORMATS",
    "CSV_COLUMNS",
    "PLOT_INSTALL",
    "StreamedReports",
    "chart_format",
    "deal_rows",
    "format_table",
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
            if self.json_path:
                self._json = files.enter_context(output_file(self.json_path))
                self._json.write((json.dumps(self.header.header(), indent=1)[:-2] + ',\n "deals": [\n').encode())
            if self.csv_path:
                self._csv = files.enter_context(output_file(self.csv_path))
                self._csv.write(_csv_lines([CSV_COLUMNS]))
            self._files = files.pop_all()
        return self

    def add(self, deal: DealResult) -> None:
        """Write the next deal to each report."""
        if self._json is not None:
            self._json.write(((",\n " if self._written else " ") + json.dumps(deal_json(deal))).encode())
        if self._csv is not None:
            self._csv.write(_csv_lines(deal_rows(deal)))
        self._written += 1

    def finish(self, result: TournamentResult) -> None:
        """Write the numbers of ``result`` after the deals of the JSON report."""
        if self._json is not None:
            numbers = json.dumps(result.numbers(), indent=1)[1:-1].strip()
            self._json.write(f"\n],\n{numbers}\n}}\n".encode())

    def __exit__(self, *exc: Any) -> None:
        self._files.__exit__(*exc)


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
