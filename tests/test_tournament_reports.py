"""``reversis tournament`` reports: every deal and seat in JSON and CSV, every pair in the table, the chart."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

import reversis
from reversis.cli import main
from reversis.commands import tournament
from reversis.commands.tournament import (
    CSV_COLUMNS,
    DealResult,
    cli,
    deal_json,
    deal_rows,
    deal_seed,
    format_table,
    run_tournament,
    seatings,
)
from reversis.commands.tournament.stats import Tally

PRESET = "hartenjagen"
RULESET = reversis.preset(PRESET)
ARGS = ["--players", "random,rules", "--preset", PRESET, "--hands", "5", "--seed", "11", "--jobs", "1"]


def _usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    return capsys.readouterr().err


def _result(**options: Any) -> tournament.TournamentResult:
    return run_tournament(["random", "rules"], ruleset=RULESET, hands=5, seed=11, keep_deals=True, **options)


def test_json_and_csv_hold_every_deal_and_seat_as_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, table = tmp_path / "t.json", tmp_path / "t.csv"
    assert main(["tournament", *ARGS, "--json", str(report), "--csv", str(table)]) == 0
    printed = capsys.readouterr().out
    result = _result()
    data = json.loads(report.read_text())
    assert data["deals"] == [deal_json(deal) for deal in result.deals]
    for index, hand in enumerate(data["deals"]):
        assert (hand["deal"], hand["hand_number"], hand["seed"]) == (index, index, deal_seed(11, index))
        assert hand["forfeited"] == [[False] * 4] * len(seatings(["random", "rules"], 4))
    numbers = result.numbers()
    for stats in (numbers["stats"], data["stats"]):
        for stat in stats:
            del stat["median_decision_seconds"]
    assert {key: data[key] for key in numbers} == numbers
    with table.open(newline="") as rows_file:
        rows = list(csv.reader(rows_file))
    assert tuple(rows[0]) == CSV_COLUMNS
    # One row per (deal, rotation, seat), in that order, with the points each seat took.
    assert len(rows) - 1 == 5 * len(seatings(["random", "rules"], 4)) * 4
    expected = [[str(value) for value in row] for deal in result.deals for row in deal_rows(deal)]
    assert rows[1:] == expected
    keys = [(int(r[0]), int(r[3]), int(r[4])) for r in rows[1:]]
    assert keys == sorted(set(keys))
    for row in rows[1:]:
        deal = result.deals[int(row[0])]
        rotation, seat = int(row[3]), int(row[4])
        assert row[5] == deal.seatings[rotation][seat] and int(row[6]) == deal.scores[rotation][seat]
        assert int(row[1]) == deal_seed(11, int(row[0])) and row[2] == row[0] and row[7] == "0"
    assert format_table(result).splitlines()[0] in printed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.json"]


def test_forfeits_are_flagged_at_their_seat() -> None:
    forfeit = {"seating": 1, "seat": 2, "player": "bot", "kind": "timeout", "reason": "slow", "decision": 3}
    seatings = [["bot", "rules", "bot", "rules"], ["rules", "bot", "rules", "bot"]]
    deal = DealResult(7, seatings, [[1, 2, 3, 20], [4, 5, 6, 11]], forfeits=[forfeit], seed=99)
    data = deal_json(deal)
    assert data["forfeited"] == [[False] * 4, [False, False, True, False]]
    assert data["seed"] == 99 and data["hand_number"] == 7 and data["forfeits"] == [forfeit]
    rows = deal_rows(deal)
    assert len(rows) == 8
    assert [row for row in rows if row[-1]] == [(7, 99, 7, 1, 2, "rules", 6, 1)]


def test_the_table_prints_every_pair(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_tournament(["random", "rules", "lowest"], ruleset=RULESET, hands=3, seed=2)
    assert len(result.pairs) == 3
    table = format_table(result)
    for first, second in (("random", "rules"), ("random", "lowest"), ("rules", "lowest")):
        assert f"{first} - {second}" in table
    # A long name widens the pair column instead of pushing the numbers out of line.
    long = tournament.PairStats("a" * 20, "b" * 20, 3, 1.0, 0.5, 1.5)
    short = tournament.PairStats("a", "b", 3, 1.0, 0.5, 1.5)
    lines = format_table(dataclasses.replace(result, pairs=[long, short])).splitlines()
    rows = [line for line in lines if line.startswith(("a - b", "aaaa"))]
    assert len(rows) == 2 and len({len(row) for row in rows}) == 1


def test_the_chart_is_a_valid_svg_or_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    svg, png = tmp_path / "chart.svg", tmp_path / "chart.png"
    assert main(["tournament", *ARGS, "--chart", str(svg)]) == 0
    root = ElementTree.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert root.findall(".//{http://www.w3.org/2000/svg}path")
    result = _result()
    tournament.write_chart(result, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The same results draw the same SVG, byte for byte.
    again = tmp_path / "again.svg"
    tournament.write_chart(result, again)
    first = tmp_path / "first.svg"
    tournament.write_chart(result, first)
    assert again.read_bytes() == first.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.svg", "chart.png", "chart.svg", "first.svg"]
    capsys.readouterr()


def test_without_matplotlib_the_message_names_the_extra_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails as where it is not installed
    played: list[int] = []
    monkeypatch.setattr(cli, "run_tournament", lambda *a, **k: played.append(1))
    status = main(["tournament", *ARGS, "--chart", str(tmp_path / "chart.svg"), "--json", str(tmp_path / "t.json")])
    assert status == 2
    assert "pip install '.[plot]'" in capsys.readouterr().err
    assert not played and list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option", ["--chart"])
def test_a_chart_is_never_written_through_a_directory_or_fifo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    fifo = tmp_path / "pipe.svg"
    os.mkfifo(fifo)
    link = tmp_path / "link.svg"
    link.symlink_to(fifo)
    folder = tmp_path / "folder.svg"
    folder.mkdir()
    for path, why in ((fifo, "not a regular file"), (link, "not a regular file"), (folder, "directory")):
        err = _usage_error(capsys, ["tournament", *ARGS, option, str(path)])
        assert "cannot write" in err and why in err
    assert _usage_error(capsys, ["tournament", *ARGS, option, str(tmp_path / "no" / "dir" / "r.svg")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.svg", "link.svg", "pipe.svg"]


def test_a_chart_is_svg_or_png_by_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(capsys, ["tournament", *ARGS, "--chart", str(tmp_path / "chart.txt")])
    assert ".svg or .png" in err
    with pytest.raises(tournament.TournamentError):
        tournament.write_chart(_result(), tmp_path / "chart.jpeg")
    assert list(tmp_path.iterdir()) == []


def test_write_chart_refuses_a_fifo_that_appeared_after_the_check(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from reversis.table import SaveError

    fifo = tmp_path / "late.svg"
    os.mkfifo(fifo)
    with pytest.raises(SaveError):
        tournament.write_chart(_result(), fifo)


def test_a_stopped_run_leaves_the_previous_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    report, table = tmp_path / "t.json", tmp_path / "t.csv"
    report.write_text("the previous report")
    table.write_text("the previous rows")
    add = Tally.add

    def add_then_stop(self: Any, deal: DealResult) -> None:
        add(self, deal)
        if self.deals == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(Tally, "add", add_then_stop)
    assert main(["tournament", *ARGS, "--json", str(report), "--csv", str(table)]) == 130
    assert report.read_text() == "the previous report" and table.read_text() == "the previous rows"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.json"]
    capsys.readouterr()
