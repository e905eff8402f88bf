"""A tournament never waits on a dead worker: a worker that dies, or whose result cannot be delivered, stops it.

Each case runs ``reversis tournament`` in a child process with a test player registered under
a name of its own (the workers are forked, so they have it too), in a session of its own so
that every process it leaves behind can be found.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for leftover processes")

#: Seconds the command may take: a hang fails the test instead of hanging it.
TIMEOUT = 60

PLAYERS = '''
import os

from reversis.players.rulebased import RuleBasedPlayer


class Unpicklable(Exception):
    """An error pickle cannot rebuild: its __init__ takes two arguments and args holds one."""

    def __init__(self, what, why):
        super().__init__(f"{what}: {why}")


class Doomed(RuleBasedPlayer):
    """Says it plays every ruleset, so that the command does not ask it to play before the workers do."""

    def cannot_play(self, ruleset):
        return None


class DiesPlayer(Doomed):
    """Kills its own worker process at its first decision."""

    def act(self, observation):
        os._exit(7)


class UnpicklablePlayer(Doomed):
    """Raises an error that cannot come back from a worker."""

    def act(self, observation):
        raise Unpicklable("no", "way")
'''

MAIN = """
import sys

from reversis.cli import main
from reversis.commands.tournament.players import PLAYER_CLASSES

PLAYER_CLASSES["dies"] = ("doomed_players", "DiesPlayer")
PLAYER_CLASSES["unpicklable"] = ("doomed_players", "UnpicklablePlayer")
sys.exit(main(sys.argv[1:]))
"""


def _session(sid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as info:
                fields = info.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def _tournament(tmp_path: Path, player: str, jobs: int) -> tuple[int, str]:
    (tmp_path / "doomed_players.py").write_text(textwrap.dedent(PLAYERS))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    proc = subprocess.Popen(
        [sys.executable, "-c", MAIN, "tournament", "--no-progress", "--players", f"{player},rules"]
        + ["--hands", "40", "--jobs", str(jobs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        _, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise AssertionError("the tournament hung on its failed worker") from None
    deadline = time.monotonic() + 5
    while _session(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _session(proc.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes outlived the tournament: {left}"
    return proc.returncode, err


def test_a_worker_that_dies_stops_the_tournament_with_a_clear_error(tmp_path: Path) -> None:
    status, err = _tournament(tmp_path, "dies", jobs=2)
    assert status == 1, err
    assert "Traceback" not in err
    assert "a worker process died (exit status 7)" in err, err


def test_an_error_that_cannot_come_back_from_a_worker_stops_the_tournament(tmp_path: Path) -> None:
    status, err = _tournament(tmp_path, "unpicklable", jobs=2)
    assert status == 1, err
    assert "Traceback" not in err
    assert "Unpicklable" in err and "no: way" in err, err
