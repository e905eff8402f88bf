"""``reversis tournament --ray``: the deals on a real local Ray instance, equal to a local run's.

Ray runs only in child processes: after ``ray.init`` a process keeps Ray's threads, and the
local tournaments of this and later tests fork their workers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis.cli import main
from reversis.commands.tournament import run_tournament

#: Seconds any one command here may take before the test fails instead of hanging.
TIMEOUT = 60

RANDOM_BOT = r"""
import json, sys
import reversis
from reversis.players import Observation, RandomPlayer

ruleset, player, pending = None, None, []
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        ruleset = reversis.Ruleset.from_json(json.dumps(message["ruleset"]))
        print(json.dumps({"type": "hello", "name": "random-bot", "protocol_version": 1}), flush=True)
    elif message["type"] == "start":
        player, pending = RandomPlayer(message["seed"]), []
    elif message["type"] == "act":
        observation = Observation(ruleset, message["observation"])
        if not pending:
            action = player.act(observation)
            if action["type"] == "pass":
                pending = [52 + reversis.card_id(card) for card in action["cards"]]
            elif action["type"] == "play":
                pending = [reversis.card_id(action["card"])]
            else:
                pending = [104 if action["choice"] == "add-to-others" else 105]
        print(json.dumps({"id": message["id"], "action": pending.pop(0)}), flush=True)
    elif message["type"] == "quit":
        break
"""


needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")


def _without_times(data: dict[str, Any]) -> dict[str, Any]:
    for stat in data["stats"]:
        del stat["median_decision_seconds"]  # wall-clock time differs from run to run
    return data


def _table_without_times(table: str) -> list[str]:
    """The table's lines, the median ms/card column cut from the player rows."""
    lines = []
    for line in table.splitlines():
        words = line.split()
        if len(words) == 6 and words[0] in ("random", "rules"):
            line = " ".join(words[:-1])
        lines.append(line)
    return lines


def _deals(result: Any) -> list[Any]:
    """Each deal's index, seed, seatings, scores and forfeits, as JSON gives them back."""
    rows = [[d.index, d.seed, d.seatings, d.scores, d.forfeits] for d in result.deals]
    return json.loads(json.dumps(rows))


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "reversis.cli", "tournament", "--no-progress", *args]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)


@needs_ray
def test_a_ray_tournament_equals_the_local_one_deal_by_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--players", "random,rules", "--hands", "24", "--seed", "7", "--jobs", "2"]
    reports = ["--json", str(tmp_path / "ray.json"), "--csv", str(tmp_path / "ray.csv")]
    proc = _run(_command(*common, "--ray", *reports))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert (
        main(["tournament", *common, "--json", str(tmp_path / "local.json"), "--csv", str(tmp_path / "local.csv")]) == 0
    )
    local_table = capsys.readouterr().out
    local = json.loads((tmp_path / "local.json").read_text())
    remote = json.loads((tmp_path / "ray.json").read_text())
    assert len(remote["deals"]) == 24
    for mine, theirs in zip(local["deals"], remote["deals"]):
        assert mine == theirs
    assert _without_times(remote) == _without_times(local)
    assert (tmp_path / "ray.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    assert _table_without_times(proc.stdout) == _table_without_times(local_table)


SESSION_SCRIPT = """
import json, sys
import ray
import reversis
from reversis.commands.tournament import run_tournament
from reversis.commands.tournament_ray import ray_backend, ray_session

def deals(result):
    return [[d.index, d.seed, d.seatings, d.scores, d.forfeits] for d in result.deals]

options = json.loads(sys.argv[2])
options["ruleset"] = reversis.Ruleset.from_json(options["ruleset"])
with ray_session("", cpus=2) as cpus:
    plain = run_tournament(["random", "rules"], backend=ray_backend(), chunk=2, **options)
    bots = run_tournament(["rules", sys.argv[1]], backend=ray_backend(), **options)
    inside = ray.is_initialized()
print(json.dumps({
    "cpus": cpus, "inside": inside, "after": ray.is_initialized(), "plain": deals(plain), "bots": deals(bots),
    "players": bots.players, "forfeited": bots.forfeited_deals,
}))
"""


@needs_ray
def test_ray_sessions_are_reused_and_protocol_bots_play_in_ray_tasks(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(textwrap.dedent(RANDOM_BOT))
    bot = f"cmd:{shlex.join([sys.executable, str(script)])}"
    options: dict[str, Any] = {"hands": 4, "seed": 5, "keep_deals": True, "jobs": 1}
    # Not a preset: the Ray tasks play the ruleset they are sent, whose hands all take 13 + 5 points.
    hearts = reversis.preset("hearts-4")
    ruleset = hearts.replace(name="hearts-4-light", moon=None, card_points={**hearts.card_points, "QS": 5})
    proc = _run([sys.executable, "-c", SESSION_SCRIPT, bot, json.dumps({**options, "ruleset": ruleset.to_json()})])
    options["ruleset"] = ruleset
    assert proc.returncode == 0, proc.stderr
    on_ray = json.loads(proc.stdout)
    assert on_ray["cpus"] == 2
    assert on_ray["inside"] and not on_ray["after"]  # the outer session is the one shut down
    assert on_ray["plain"] == _deals(run_tournament(["random", "rules"], **options))
    assert all(sum(hand) == 18 for deal in on_ray["plain"] for hand in deal[3])
    local_bots = run_tournament(["rules", bot], **options)
    assert on_ray["players"] == ["rules", "random-bot"] == local_bots.players
    assert on_ray["bots"] == _deals(local_bots)
    assert on_ray["forfeited"] == 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@needs_ray
@pytest.mark.parametrize(
    ("address", "message"),
    [
        # A port nobody listens on, found when the test runs (so every collection names it alike).
        ("127.0.0.1:FREE", "cannot reach the Ray cluster at 127.0.0.1:"),
        ("no-port-here", "not an address of a Ray cluster"),
    ],
)
def test_a_bad_address_is_one_line_and_status_2(tmp_path: Path, address: str, message: str) -> None:
    address = address.replace("FREE", str(_free_port()))
    report = tmp_path / "report.json"
    start = time.monotonic()
    proc = _run(_command("--hands", "4", "--ray", address, "--json", str(report)))
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == "" and not report.exists()
    assert time.monotonic() - start < TIMEOUT / 2


def test_without_ray_the_message_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as where it is not installed
    status = main(["tournament", "--hands", "2", "--jobs", "1", "--ray", "--json", str(tmp_path / "r.json")])
    assert status == 2
    assert "pip install '.[ray]'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def _session(sid: int) -> list[tuple[int, str]]:
    """The live processes of session ``sid`` and their command lines."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as info:
                fields = info.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                words = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            found.append((int(entry), words))
    return found


@needs_ray
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_a_ray_tournament_and_its_local_instance(signum: int) -> None:
    # Search players make each task long (seconds): the signal must not wait for the one in flight.
    proc = subprocess.Popen(
        _command("--hands", "100000", "--jobs", "2", "--ray", "--players", "search,rules"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        # Once a Ray worker runs deals (its title names the task), the instance is up.
        while not any("ray::play_chunk" in words for _, words in _session(proc.pid)):
            assert proc.poll() is None and time.monotonic() < deadline, "the Ray instance never started"
            time.sleep(0.2)
        time.sleep(1.0)
        proc.send_signal(signum)  # to the tournament's own process, not its group as a terminal would
        sent = time.monotonic()
        _, err = proc.communicate(timeout=TIMEOUT)
        assert time.monotonic() - sent < 15, f"the tournament took {time.monotonic() - sent:.0f} s to stop"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == (130 if signum == signal.SIGINT else 128 + signum), err
    assert "Traceback" not in err
    deadline = time.monotonic() + 15
    while _session(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _session(proc.pid)
    for pid, _ in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes of the local Ray instance outlived the tournament: {left}"
