"""Where a command's reports may go: ``-`` for standard output, a pipe or device written through,
a regular file replaced atomically, and a path that cannot be written refused before any work.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from reversis.cli import main
from reversis.commands.tournament import cli

TIMEOUT = 60
ARGS = ["--players", "random,rules", "--preset", "hearts-4", "--hands", "3", "--seed", "5", "--jobs", "1"]


def _tournament(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversis", "tournament", "--no-progress", *ARGS, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=TIMEOUT,
        check=False,
    )


def test_a_dash_is_standard_output_and_the_table_goes_to_standard_error(tmp_path: Path) -> None:
    done = _tournament(tmp_path, "--json", "-")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # nothing else on standard output
    assert report["deal_count"] == 3 and len(report["deals"]) == 3
    assert "mean" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_a_csv_report_on_standard_output(tmp_path: Path) -> None:
    done = _tournament(tmp_path, "--csv", "-")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("deal,") and len(lines) > 3
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout here")
def test_dev_stdout_into_a_pipe_is_written_through(tmp_path: Path) -> None:
    done = _tournament(tmp_path, "--json", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    start = done.stdout.index("{")
    report, _ = json.JSONDecoder().raw_decode(done.stdout[start:])
    assert len(report["deals"]) == 3


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
@pytest.mark.parametrize("option", ["--json", "--csv"])
def test_a_character_device_is_written_through_and_left_a_device(tmp_path: Path, option: str) -> None:
    done = _tournament(tmp_path, option, "/dev/null")
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc here")
@pytest.mark.parametrize("option", ["--json", "--csv"])
def test_a_directory_no_file_can_be_made_in_is_a_usage_error_before_the_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    played: list[int] = []
    monkeypatch.setattr(cli, "run_tournament", lambda *a, **k: played.append(1))
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", *ARGS, option, "/proc/report.out"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "cannot write /proc/report.out" in err and "/proc" in err and "Errno" not in err
    assert not played


def test_a_regular_report_is_still_replaced_atomically_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    done = _tournament(tmp_path, "--json", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and json.loads(target.read_text())["deal_count"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_the_help_says_a_dash_is_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "- for standard output" in text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option", ["--json", "--csv"])
def test_a_fifo_with_a_reader_is_written_through_and_left_a_fifo(tmp_path: Path, option: str) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "reversis", "tournament", "--no-progress", *ARGS, option, str(fifo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    with open(fifo, "rb") as reader:
        data = reader.read()
    assert proc.wait(timeout=TIMEOUT) == 0
    assert data.startswith(b"{" if option == "--json" else b"deal,")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_conformance_report_on_standard_output(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reversis", "conformance", "--engine", "reference", "--area", "cards", "--json", "-"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["engine"] == "reference"
    assert "passed" in done.stderr
    assert list(tmp_path.iterdir()) == []
