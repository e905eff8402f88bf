"""The learning curve of one or more runs, from their CSV logs, as an SVG chart.

    python examples/learning/plot_curve.py ppo.csv imitation-then-ppo.csv --out curve.svg

Each log is what ``ppo_vector.py --log`` writes: a row per evaluation with ``decisions``,
``seconds`` (training wall time), ``eval_points`` (mean points per hand of the learner against
the evaluation's opponents; fewer is better) and ``eval_ci95`` (the half-width of its 95%
interval). The chart has two panels, points per hand against decisions and against wall time,
one line per log named after its file, the interval shaded.

Needs the ``plot`` extra (``matplotlib``).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, whatever display the machine has
import matplotlib.pyplot as plt

COLUMNS = ("decisions", "seconds", "eval_points", "eval_ci95")


def read_log(path: Path) -> dict[str, list[float]]:
    """The columns of a log, as numbers.

    :raises SystemExit: naming the file, when it lacks a column or holds something else than numbers.
    """
    try:
        with path.open(newline="") as source:
            rows = list(csv.DictReader(source))
    except OSError as error:
        raise SystemExit(f"{path}: {error.strerror}") from None
    if not rows or any(column not in rows[0] for column in COLUMNS):
        raise SystemExit(f"{path}: not a learning-curve log (the columns are {', '.join(COLUMNS)})")
    try:
        return {column: [float(row[column]) for row in rows] for column in COLUMNS}
    except (TypeError, ValueError):
        raise SystemExit(f"{path}: a value that is not a number") from None


def draw(logs: list[Path], out: Path, title: str) -> None:
    """Write the chart of ``logs`` to ``out`` (SVG)."""
    curves = [(path.stem, read_log(path)) for path in logs]
    figure, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for axis, x, label in ((axes[0], "decisions", "learner decisions"), (axes[1], "seconds", "training wall time (s)")):
        for name, curve in curves:
            low = [p - h for p, h in zip(curve["eval_points"], curve["eval_ci95"])]
            high = [p + h for p, h in zip(curve["eval_points"], curve["eval_ci95"])]
            (line,) = axis.plot(curve[x], curve["eval_points"], marker="o", markersize=3, label=name)
            axis.fill_between(curve[x], low, high, color=line.get_color(), alpha=0.2, linewidth=0)
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("points per hand (fewer is better)")
    axes[0].legend()
    figure.suptitle(title)
    figure.tight_layout()
    # No date in the file, so that the same logs draw the same bytes.
    figure.savefig(out, format="svg", metadata={"Date": None})
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    """Draw the logs given on the command line."""
    parser = argparse.ArgumentParser(description="The learning curve of runs, from their CSV logs, as SVG.")
    parser.add_argument("logs", nargs="+", type=Path, help="CSV logs written by ppo_vector.py --log")
    parser.add_argument("--out", type=Path, default=Path("learning-curve.svg"), help="the SVG file to write")
    parser.add_argument("--title", default="Points per hand of the learner", help="the chart's title")
    args = parser.parse_args(argv)
    draw(args.logs, args.out, args.title)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
