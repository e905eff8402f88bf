"""Bad option values are usage errors before any work; bounded memory; ``--version`` (issue 10, points 9 and 10)."""

from __future__ import annotations

import importlib.metadata
import os
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import reversis
from reversis.cli import build_parser, main
from reversis.commands.tournament import iter_deals

TIMEOUT = 30.0


def _usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    started = time.monotonic()
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2, argv
    assert time.monotonic() - started < 2, "the options were checked only after some work"
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "usage: reversis" in captured.err
    return captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--delay", "inf"],
        ["play", "--delay", "nan"],
        ["play", "--delay", "-1"],
        ["play", "--rollouts", "0"],
        ["conformance", "--timeout", "inf"],
        ["conformance", "--timeout", "nan"],
        ["conformance", "--timeout", "0"],
        ["bench", "--timeout", "nan"],
        ["bench", "--repeats", "0"],
        ["tournament", "--jobs", "0"],
        ["tournament", "--jobs", "-1"],
        ["tournament", "--hands", "0"],
        ["tournament", "--rollouts", "0"],
        ["soak", "--hands", "0"],
        ["soak", "--hands", "5", "--sample", "6"],
        ["soak", "--chunk", "0"],
        ["conformance", "--engine", "rust", "--driver", "python -m reversis driver"],
        # A driver that is empty, blank, unreadable or not there tests nothing: never a pass.
        ["conformance", "--driver", ""],
        ["conformance", "--driver", "   "],
        ["conformance", "--driver", "'unclosed"],
        ["conformance", "--driver", "/no/such/driver"],
        ["bench", "--driver", ""],
        ["bench", "--driver", "   "],
        ["bench", "--driver", "/no/such"],
        ["tournament", "--preset", "nosuch"],
        ["soak", "--preset", "nosuch"],
        ["play", "--preset", "nosuch"],
        ["play", "--save", "/nonexistent/dir/save.json"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_bad_values_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    _usage_error(capsys, argv)


@pytest.mark.parametrize("command", ["play", "tournament", "ladder", "soak"])
def test_one_seed_rule_for_every_command(capsys: pytest.CaptureFixture[str], command: str) -> None:
    for bad in ("-1", str(2**64), "seven", "1.5"):
        err = _usage_error(capsys, [command, "--seed", bad])
        assert "--seed" in err
    parser = build_parser()
    for good, number in (("0", 0), (str(2**64 - 1), 2**64 - 1), ("0xff", 255)):
        assert parser.parse_args([command, "--seed", good]).seed == number


@pytest.mark.parametrize("command", ["tournament", "ladder", "conformance"])
def test_a_json_path_that_cannot_be_written_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    for path in (tmp_path / "no" / "such" / "dir" / "report.json", tmp_path):
        err = _usage_error(capsys, [command, "--json", str(path)])
        assert "cannot write" in err
    assert list(tmp_path.iterdir()) == []


def test_a_json_report_is_written_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    out = tmp_path / "report.json"
    out.write_text("the previous report")
    status = main(["tournament", "--hands", "3", "--jobs", "1", "--preset", "hartenjagen", "--json", str(out)])
    assert status == 0
    data = json.loads(out.read_text())
    assert [h["deal"] for h in data["deals"]] == [0, 1, 2]
    assert data["stats"][0]["deals"] == 3 and "t(0.975" in data["interval"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    capsys.readouterr()


def test_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "reversis", "--version"], capture_output=True, text=True, timeout=TIMEOUT, check=True
    )
    assert proc.stdout.strip() == f"reversis {importlib.metadata.version('reversis')}"


def test_deals_stream_one_at_a_time() -> None:
    started = time.monotonic()
    deals = iter_deals(["random", "rules"], ruleset=reversis.preset("hartenjagen"), hands=10**9, seed=1)
    first, second = next(deals), next(deals)
    deals.close()
    assert (first.index, second.index) == (0, 1)
    assert time.monotonic() - started < 5


def _limit_memory() -> None:
    limit = 2 * 1024**3  # far below what a list of 10⁹ deals takes
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal and RLIMIT_AS as on Linux")
def test_a_billion_deals_run_in_bounded_memory_with_a_bar_on_the_terminal(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    command = [sys.executable, "-m", "reversis", "tournament", "--hands", str(10**9), "--jobs", "1"]
    command += ["--preset", "hartenjagen"]
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
        cwd=tmp_path,
        preexec_fn=_limit_memory,  # noqa: PLW1509 (the test starts no threads of its own)
        start_new_session=True,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    try:
        while time.monotonic() < deadline and not any(
            f"] {n}/1,000,000,000 deals".encode() in seen for n in range(1, 100)
        ):
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
            if proc.poll() is not None:
                break
        assert b"/1,000,000,000 deals" in seen and b"\r[" in seen, seen[-500:]
        assert proc.poll() is None, "the tournament stopped before playing"
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=TIMEOUT)
        assert proc.returncode == 130
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)


def test_the_progress_bar_is_not_drawn_into_a_pipe(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "reversis", "tournament", "--hands", "2", "--jobs", "1", "--preset", "hartenjagen"],
        capture_output=True,
        check=False,
        text=True,
        timeout=TIMEOUT,
        cwd=tmp_path,
    )
    assert proc.returncode == 0
    assert proc.stderr == "" and "\r" not in proc.stdout


def test_a_save_in_a_missing_directory_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such"
    error = _usage_error(capsys, ["play", "--save", str(missing / "save.json")])
    assert "there is no directory" in error
    assert not (tmp_path / "no").exists()


def test_a_driver_that_cannot_answer_fails_the_bench(capsys: pytest.CaptureFixture[str]) -> None:
    # `false` starts and exits at once: the benchmark cannot time it, so it must not pass.
    assert main(["bench", "--driver", "false", "--repeats", "1"]) == 1
    captured = capsys.readouterr()
    assert "false: no answer to hello" in captured.err
    assert "not timed: false" in captured.err


@pytest.mark.parametrize("players", ["rules,,random", "rules,random,", ",rules"])
def test_an_empty_player_entry_is_a_usage_error(capsys: pytest.CaptureFixture[str], players: str) -> None:
    assert main(["tournament", "--players", players, "--hands", "1"]) == 2
    assert "--players has an empty entry" in capsys.readouterr().err


def test_the_bench_reports_the_spread_and_says_when_it_cannot_rank() -> None:
    from reversis.conformance.bench import BenchResult, format_results
    from reversis.conformance.runner import load_cases

    case = next(c for c in load_cases(("bench",)) if c.data["ruleset"] == "hearts-4")
    apart = [BenchResult("fast", case, 100, [1.0, 1.1, 0.9]), BenchResult("slow", case, 100, [2.0, 2.1, 1.9])]
    table = format_results(apart)
    assert "100 ±10%" in table and "hearts-4: fast > slow" in table
    close = [BenchResult("a", case, 100, [1.0, 1.5, 0.9]), BenchResult("b", case, 100, [1.2, 1.3, 1.1])]
    assert "hearts-4: too noisy to rank a and b" in format_results(close)
