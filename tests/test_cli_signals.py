"""Every command under Ctrl-C, other stop signals and a closed pipe (issue 10, point 8).

Real subprocesses and real signals: Ctrl-C at a terminal sends ``SIGINT`` to the whole
foreground process group, so most cases signal the group of a command started in its own session.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for child processes")

TIMEOUT = 30.0
REVERSIS = [sys.executable, "-m", "reversis"]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME",)}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid``."""
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.update(int(word) for word in listing.read().split())
    except OSError:
        pass
    return found


def _command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as line:
            return line.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie has already died)."""
    try:
        with open(f"/proc/{pid}/stat") as info:
            state = info.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _start(args: list[str], tmp_path: Path, **popen: object) -> subprocess.Popen[bytes]:
    env = _env()
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    return subprocess.Popen(
        REVERSIS + args,
        stdin=popen.pop("stdin", subprocess.DEVNULL),  # type: ignore[arg-type]
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
        start_new_session=True,
        **popen,  # type: ignore[arg-type]
    )


def _wait_for(condition: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for the command to get to work")


def _interrupt(proc: subprocess.Popen[bytes], *, group: bool = True, signum: int = signal.SIGINT) -> tuple[str, str]:
    """Send ``signum`` like a terminal would (to the process group) and collect the output."""
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    started = time.monotonic()
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # anything of the command's that is left
    assert time.monotonic() - started < 10, "the command did not stop promptly"
    return out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


@pytest.mark.parametrize("group", [True, False], ids=["terminal", "parent-only"])
def test_ctrl_c_stops_a_parallel_tournament_and_its_workers(tmp_path: Path, group: bool) -> None:
    proc = _start(["tournament", "--hands", "100000", "--jobs", "2", "--players", "random,rules"], tmp_path)
    _wait_for(lambda: len(_children(proc.pid)) >= 2)
    time.sleep(0.5)  # the workers are busy playing deals
    workers = _children(proc.pid)
    _, err = _interrupt(proc, group=group)
    assert proc.returncode == 130
    assert "Traceback" not in err and err.strip() == "reversis tournament: interrupted"
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "worker processes outlived the tournament"


def test_sigterm_stops_a_parallel_tournament_and_its_workers(tmp_path: Path) -> None:
    proc = _start(["tournament", "--hands", "100000", "--jobs", "2"], tmp_path)
    _wait_for(lambda: len(_children(proc.pid)) >= 2)
    workers = _children(proc.pid)
    _, err = _interrupt(proc, group=False, signum=signal.SIGTERM)
    assert proc.returncode == 128 + signal.SIGTERM and "Traceback" not in err
    time.sleep(0.5)
    assert not [pid for pid in workers if _alive(pid)]


def _ready_after_first_line(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdout is not None
    assert proc.stdout.readline()


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tournament", ["tournament", "--hands", "100000", "--jobs", "1"]),
        ("tournament", ["tournament", "--matches", "100000", "--jobs", "2"]),
        ("ladder", ["ladder", "--players", "random,rules", "--hands", "100000", "--jobs", "2"]),
        ("soak", ["soak", "--hands", "100000000", "--chunk", "2000", "--checkpoints", "100000", "--sample", "0"]),
        ("conformance", ["conformance", "--driver", "sleep 60", "--timeout", "60"]),
        ("bench", ["bench", "--driver", "sleep 60", "--timeout", "60", "--repeats", "1"]),
        ("driver", ["driver", "--engine", "reference"]),
    ],
)
def test_ctrl_c_stops_every_command_with_one_line(tmp_path: Path, name: str, args: list[str]) -> None:
    stdin = subprocess.PIPE if name == "driver" else subprocess.DEVNULL
    proc = _start(args, tmp_path, stdin=stdin)
    if name == "soak":
        pytest.importorskip("reversis._core")
        _ready_after_first_line(proc)
    elif name in ("conformance", "bench"):
        _wait_for(lambda: any(_command_line(pid).startswith("sleep") for pid in _children(proc.pid)))
        time.sleep(0.3)  # the driver it started is running and waited on
    else:
        time.sleep(1.5)
    children = _children(proc.pid)
    _, err = _interrupt(proc)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1] == f"reversis {name}: interrupted" and len(lines) <= 2, err
    time.sleep(0.2)
    assert not [pid for pid in children if _alive(pid)], "a child process outlived the command"


def test_ctrl_c_at_the_prompt_saves_the_match(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    proc = _start(
        ["play", "--plain", "--engine", "reference", "--save", str(save), "--seed", "3"],
        tmp_path,
        stdin=subprocess.PIPE,
    )
    assert proc.stdout is not None
    while not proc.stdout.readline().startswith(b"prompt:"):
        pass
    out, err = _interrupt(proc)
    assert proc.returncode == 130 and "Traceback" not in err
    assert "Interrupted; the match is saved in" in out
    import reversis.reference

    assert reversis.reference.load_record(save.read_bytes())["seed"] == 3
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    "args",
    [
        ["soak", "--hands", "100000", "--chunk", "1000", "--checkpoints", "100", "--sample", "0"],
        ["tournament", "--hands", "2", "--jobs", "1", "--preset", "hartenjagen"],
        ["ladder", "--players", "random,rules", "--hands", "2", "--jobs", "1", "--preset", "hartenjagen"],
        ["conformance", "--engine", "reference", "--area", "cards"],
        ["play", "--plain", "--engine", "reference", "--seed", "1"],
    ],
    ids=["soak", "tournament", "ladder", "conformance", "play"],
)
def test_a_closed_pipe_ends_quietly(tmp_path: Path, args: list[str]) -> None:
    if args[0] == "soak":
        pytest.importorskip("reversis._core")
    if args[0] == "play":
        args = [*args, "--save", str(tmp_path / "save.json")]
    # ``reversis … | head -1``: the reader takes one line and goes away.
    reader, writer = os.pipe()
    env = _env()
    proc = subprocess.Popen(
        REVERSIS + args,
        stdin=subprocess.PIPE if args[0] == "play" else subprocess.DEVNULL,
        stdout=writer,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    os.close(writer)
    with os.fdopen(reader, "rb") as head:
        assert head.readline()
    if proc.stdin is not None:
        proc.stdin.write(b"\n" * 200 + b"quit\n")
        proc.stdin.close()
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.wait(timeout=TIMEOUT)
    assert err == "", err
    assert proc.returncode in (0, 141)
