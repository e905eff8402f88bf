"""The player protocol (spec/player.md): bots in other processes, well-behaved and not, at the table.

The misbehaving bots are small Python scripts written at test time: each plays the lowest legal
id until the decision where it misbehaves. The fallback of a forfeit (PLY-7) plays the lowest
legal id too, so every tournament of theirs must score deal by deal exactly as the in-process
``lowest`` player does, whatever the fault, with the fault recorded as its kind of forfeit. Each
bot writes its process id (and any grandchild's) to a directory, so the tests can check that none
outlives the table.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis.cli import main
from reversis.commands.tournament import TournamentError, deal_seed, run_tournament, seatings, split_players
from reversis.players import LowestPlayer, ProcessPlayer, observe
from reversis.players.process import legal_action_ids

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for processes")

ROOT = Path(__file__).resolve().parents[1]
PRESET = "hearts-computer"
RULESET = reversis.preset(PRESET)
#: The seatings of a deal between the rule-based player and one bot, and the hands the bot plays in them.
SEATINGS = seatings(["rules", "bot"], 4)
BOT_HANDS = sum(seating.count("bot") for seating in SEATINGS)

BOT = r"""
import json, os, sys, time

mode, log, fault_at = sys.argv[1], sys.argv[2], int(sys.argv[3])

def note(pid):
    with open(os.path.join(log, str(pid)), "w") as out:
        out.write(str(os.getpgid(pid)))

note(os.getpid())
if mode == "grandchild" and os.fork() == 0:
    note(os.getpid())
    time.sleep(600)
    os._exit(0)

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

acts = 0
for line in sys.stdin:
    if mode == "record":
        with open(os.path.join(log, "messages"), "a") as out:
            out.write(line)
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if mode == "bad-hello":
            send({"type": "hello", "name": "old", "protocol_version": 2})
        else:
            send({"type": "hello", "name": "bot-" + mode, "protocol_version": 1})
    elif kind == "quit":
        if mode == "ignore-quit":
            time.sleep(600)
        break
    elif kind == "act":
        acts += 1
        number, legal = message["id"], message["legal_actions"]
        answer = {"id": number, "action": min(legal)}
        if acts == fault_at:
            if mode == "crash":
                sys.stderr.write("a crash at act %d\n" % acts)
                sys.exit(3)
            if mode == "noisy":
                for k in range(5000):
                    sys.stderr.write("line %d of a very chatty bot, going on and on\n" % k)
                sys.stderr.write("last words\n")
                sys.exit(4)
            if mode in ("hang", "grandchild"):
                time.sleep(600)
            if mode == "close-stdout":
                os.close(1)
                time.sleep(600)
            if mode == "huge":
                sys.stdout.write("x" * (2 * 1024 * 1024))
                sys.stdout.flush()
                time.sleep(600)
            if mode == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if mode == "illegal":
                answer["action"] = next(i for i in range(106) if i not in legal)
            if mode == "wrong-id":
                answer["id"] = number + 1
            if mode == "missing":
                del answer["action"]
            if mode == "float":
                answer["action"] = float(answer["action"])
        send(answer)
"""

RANDOM_BOT = r"""
import json, sys
import reversis
from reversis.players import Observation, RandomPlayer

ruleset, player, pending = None, None, []
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        ruleset = reversis.Ruleset.from_json(message["ruleset"])
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


def _write_bot(tmp_path: Path, source: str = BOT) -> Path:
    path = tmp_path / "bot.py"
    path.write_text(textwrap.dedent(source))
    return path


def _bot(tmp_path: Path, mode: str, fault_at: int = 0) -> tuple[str, Path]:
    """The ``cmd:`` player of a bot script in ``mode``, and the directory its processes are noted in."""
    log = tmp_path / "pids"
    log.mkdir(exist_ok=True)
    script = _write_bot(tmp_path)
    words = [sys.executable, str(script), mode, str(log), str(fault_at)]
    return "cmd:" + shlex.join(words), log


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as info:
            state = info.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _in_groups(groups: set[int]) -> list[int]:
    """The live processes whose process group is one of ``groups``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as info:
                    fields = info.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) in groups and fields[0] not in ("Z", "X"):
                found.append(int(entry))
    return found


def _assert_none_left(log: Path, seconds: float = 5.0) -> None:
    """No process a bot noted, nor any process of their groups, still runs; at least one was noted."""
    noted = {int(p.name): int(p.read_text() or 0) for p in log.iterdir() if p.name.isdigit()}
    assert noted, "no bot ever started"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [pid for pid in noted if _alive(pid)] + _in_groups({g for g in noted.values() if g > 0})
        if not left:
            return
        time.sleep(0.05)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"bot processes outlived the table: {sorted(set(left))}")


def _scores(result: Any) -> list[list[list[int]]]:
    return [deal.scores for deal in result.deals]


@pytest.fixture(scope="module")
def lowest_scores() -> list[list[list[int]]]:
    """What ``rules`` against the in-process ``lowest`` player scores on deal 0 of seed 11."""
    return _scores(run_tournament(["rules", "lowest"], ruleset=RULESET, hands=1, seed=11, keep_deals=True))


@pytest.fixture(scope="session")
def rust_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/bot-rust, built into a fresh target directory (offline where the registry cache allows)."""
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed")
    target = tmp_path_factory.mktemp("bot-rust-target")
    manifest = ROOT / "examples" / "bot-rust" / "Cargo.toml"
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    command = ["cargo", "build", "--release", "--locked", "--quiet", "--manifest-path", str(manifest)]
    done = subprocess.run([*command, "--offline"], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:  # the crates are not in the local cache yet: fetch them once
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    binary = target / "release" / "reversis-bot-rust"
    assert binary.is_file()
    return binary


# --------------------------------------------------------------------------- well-behaved bots


def test_the_rust_bot_plays_a_tournament_without_forfeits(rust_bot: Path, tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "report.json"
    players = f"rules,cmd:{rust_bot}"
    status = main(["tournament", "--players", players, "--hands", "4", "--jobs", "2", "--preset", PRESET])
    assert status == 0
    table = capsys.readouterr().out
    assert "forfeits" in table and "No forfeits" in table and "lowest-rust" in table
    status = main(
        ["tournament", "--players", players, "--hands", "4", "--jobs", "1", "--preset", PRESET, "--json", str(out)]
    )
    assert status == 0
    data = json.loads(out.read_text())
    assert data["players"] == ["rules", "lowest-rust"]
    assert data["commands"] == {"lowest-rust": f"cmd:{rust_bot}"}
    assert data["forfeited_deals"] == 0
    assert [s["forfeits"] for s in data["stats"]] == [0, 0]
    assert all(hand["forfeits"] == [] for hand in data["deals"]) and len(data["deals"]) == 4
    assert all("lowest-rust" in seating for hand in data["deals"] for seating in hand["seatings"])
    # The Rust bot plays the lowest legal id: exactly the in-process lowest player, deal by deal.
    lowest = run_tournament(["rules", "lowest"], ruleset=RULESET, hands=4, seed=0, keep_deals=True)
    assert [hand["scores"] for hand in data["deals"]] == _scores(lowest)
    capsys.readouterr()


def test_a_protocol_bot_plays_exactly_as_the_player_it_wraps(tmp_path: Path) -> None:
    script = _write_bot(tmp_path, RANDOM_BOT)
    bot = f"cmd:{shlex.join([sys.executable, str(script)])}"
    options: dict[str, Any] = {
        "ruleset": reversis.preset(PRESET),
        "hands": 3,
        "seed": 5,
        "keep_deals": True,
        "chunk": 3,
    }
    wrapped = run_tournament(["rules", bot], **options)
    direct = run_tournament(["rules", "random"], **options)
    assert wrapped.players == ["rules", "random-bot"]
    assert _scores(wrapped) == _scores(direct)
    rename = {"random-bot": "random"}
    assert [[[rename.get(n, n) for n in s] for s in d.seatings] for d in wrapped.deals] == [
        d.seatings for d in direct.deals
    ]
    assert all(deal.forfeits == [] for deal in wrapped.deals)


def test_the_table_speaks_the_protocol(tmp_path: Path, lowest_scores: list[list[list[int]]]) -> None:
    bot, log = _bot(tmp_path, "record")
    result = run_tournament(["rules", bot], ruleset=RULESET, hands=1, seed=11, keep_deals=True, time_limit_ms=3000)
    assert _scores(result) == lowest_scores
    messages = [json.loads(line) for line in (log / "messages").read_text().splitlines()]
    hellos = [m for m in messages if m["type"] == "hello"]
    # The probe, then one process for each seat the bot holds in the deal's rotations.
    assert len(hellos) == 1 + 4
    assert {m["seat"] for m in hellos} == {0, 1, 2, 3}
    for hello in hellos:
        assert hello["protocol_version"] == 1 and hello["time_limit_ms"] == 3000
        assert hello["hello_time_limit_ms"] == 10000 and hello["ruleset"]["name"] == PRESET
        assert isinstance(hello["spec_version"], str)
    starts = [m for m in messages if m["type"] == "start"]
    ends = [m for m in messages if m["type"] == "end"]
    assert len(starts) == len(ends) == BOT_HANDS  # every seat the bot holds in every seating
    assert all(m["hand_number"] == 0 for m in starts + ends)
    seeds = {deal_seed(11, seating * 10 + seat) for seating in range(len(SEATINGS)) for seat in range(4)}
    assert {m["seed"] for m in starts} <= seeds and len({m["seed"] for m in starts}) == BOT_HANDS
    for end in ends:
        assert set(end) == {"type", "hand_number", "scores", "points", "moon_taker", "moon_choice", "tricks", "totals"}
        assert len(end["tricks"]) == 13
    assert [m["type"] for m in messages].count("quit") == 5
    # Within one process, ids count its acts from 1; the selections of a pass show in `selected`.
    acts = [m for m in messages if m["type"] == "act"]
    assert acts[0]["id"] == 1
    for act in acts:
        observation = act["observation"]
        assert act["legal_actions"] == legal_action_ids(observation) and act["legal_actions"]
        assert set(observation) >= {"seat", "phase", "hand", "selected", "legal", "voids", "scores"}
    passes = [a["observation"]["selected"] for a in acts if a["observation"]["phase"] == "pass"]
    assert [len(s) for s in passes[:3]] == [0, 1, 2]
    _assert_none_left(log)


# --------------------------------------------------------------------------- misbehaving bots


@pytest.mark.parametrize(
    ("mode", "fault_at", "kind"),
    [
        ("crash", 1, "exited"),
        ("crash", 6, "exited"),
        ("close-stdout", 2, "exited"),
        ("hang", 1, "timeout"),
        ("garbage", 2, "not-json"),
        ("illegal", 4, "illegal-action"),
        ("wrong-id", 3, "invalid-answer"),
        ("missing", 5, "invalid-answer"),
        ("float", 7, "invalid-answer"),
        ("huge", 2, "too-long"),
        ("grandchild", 4, "timeout"),
    ],
)
def test_a_fault_forfeits_the_hand_and_the_run_goes_on(
    tmp_path: Path, lowest_scores: list[list[list[int]]], mode: str, fault_at: int, kind: str
) -> None:
    bot, log = _bot(tmp_path, mode, fault_at)
    started = time.monotonic()
    limit = 200 if kind == "timeout" else 3000  # short only where the fault is to take it
    result = run_tournament(["rules", bot], ruleset=RULESET, hands=1, seed=11, keep_deals=True, time_limit_ms=limit)
    assert time.monotonic() - started < 20
    # The fallback plays the lowest legal id, as the bot did before its fault: the scores are lowest's.
    assert _scores(result) == lowest_scores
    (deal,) = result.deals
    # Every hand the bot played faulted, each in a fresh process, at the same decision.
    assert len(deal.forfeits) == BOT_HANDS
    assert {(f["seating"], f["seat"]) for f in deal.forfeits} == {
        (r, s) for r in range(len(deal.seatings)) for s in range(4) if deal.seatings[r][s] == f"bot-{mode}"
    }
    for forfeit in deal.forfeits:
        assert forfeit["kind"] == kind, forfeit
        assert forfeit["decision"] == fault_at - 1
        assert forfeit["player"] == f"bot-{mode}" and forfeit["reason"]
    assert result.stat(f"bot-{mode}").forfeits == BOT_HANDS and result.stat("rules").forfeits == 0
    assert result.forfeited_deals == 1
    if mode == "crash":
        assert "exited with status 3" in deal.forfeits[0]["reason"]
        assert deal.forfeits[0]["stderr"] == f"a crash at act {fault_at}\n"
    _assert_none_left(log)


def test_a_forfeit_keeps_only_the_tail_of_standard_error(tmp_path: Path) -> None:
    bot, log = _bot(tmp_path, "noisy", 1)
    result = run_tournament(["rules", bot], ruleset=RULESET, hands=1, seed=2, keep_deals=True, time_limit_ms=1000)
    for forfeit in result.deals[0].forfeits:
        assert forfeit["kind"] == "exited" and "status 4" in forfeit["reason"]
        assert len(forfeit["stderr"].encode()) <= 2048
        assert forfeit["stderr"].endswith("last words\n") and forfeit["stderr"].startswith("line ")
    _assert_none_left(log)


def test_a_bots_standard_error_can_be_shown(tmp_path: Path, capfd: Any) -> None:
    bot, log = _bot(tmp_path, "crash", 2)
    result = run_tournament(
        ["rules", bot],
        ruleset=RULESET,
        hands=1,
        seed=2,
        keep_deals=True,
        time_limit_ms=1000,
        bot_stderr="show",
    )
    assert capfd.readouterr().err.count("a crash at act 2\n") == BOT_HANDS
    assert [f["stderr"] for f in result.deals[0].forfeits] == [""] * BOT_HANDS
    _assert_none_left(log)


def test_a_bot_that_ignores_quit_is_killed(tmp_path: Path) -> None:
    bot, log = _bot(tmp_path, "ignore-quit")
    started = time.monotonic()
    result = run_tournament(["rules", bot], ruleset=RULESET, hands=1, seed=3, keep_deals=True, time_limit_ms=1000)
    assert result.deals[0].forfeits == []  # not exiting after quit is no fault (PLY-6)
    assert time.monotonic() - started < 15
    _assert_none_left(log, seconds=1.0)


def test_the_command_reports_forfeits(tmp_path: Path, capsys: Any) -> None:
    bot, log = _bot(tmp_path, "hang", 3)
    out = tmp_path / "report.json"
    args = ["tournament", "--players", f"rules,{bot}", "--hands", "2", "--jobs", "2", "--preset", PRESET]
    status = main([*args, "--time-limit", "200", "--json", str(out)])
    assert status == 0
    table = capsys.readouterr().out
    header = next(line for line in table.splitlines() if line.startswith("player"))
    assert header.split()[-1] == "forfeits"
    row = next(line for line in table.splitlines() if line.startswith("bot-hang"))
    assert row.split()[-1] == str(2 * BOT_HANDS)
    assert f"{2 * BOT_HANDS} forfeited hands in 2 of 2 deals" in table and "counted as played" in table
    assert "timeout at decision 2: no answer to act 3 within 200 ms" in table
    shown = sum(line.startswith("  deal ") for line in table.splitlines())
    assert f"... and {2 * BOT_HANDS - shown} more" in table
    data = json.loads(out.read_text())
    assert data["forfeited_deals"] == 2 and data["time_limit_ms"] == 200
    assert [s["forfeits"] for s in data["stats"]] == [0, 2 * BOT_HANDS]
    for hand in data["deals"]:
        assert len(hand["forfeits"]) == BOT_HANDS
        assert set(hand["forfeits"][0]) == {"seating", "seat", "player", "kind", "reason", "decision", "stderr"}
    _assert_none_left(log)


@pytest.mark.parametrize("mode", ["bad-hello", "missing-command"])
def test_a_bot_without_a_valid_hello_is_a_usage_error(tmp_path: Path, mode: str, capsys: Any) -> None:
    bot = _bot(tmp_path, mode)[0] if mode == "bad-hello" else f"cmd:{tmp_path / 'no-such-bot'} --fast"
    status = main(["tournament", "--players", f"rules,{bot}", "--hands", "1", "--jobs", "1"])
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot play" in err
    assert ("protocol version 2" if mode == "bad-hello" else "could not start") in err
    if mode == "bad-hello":
        _assert_none_left(tmp_path / "pids")


def test_player_lists_keep_quoted_commas() -> None:
    assert split_players("rules, montecarlo ,cmd:./bot --x 1") == ["rules", "montecarlo", "cmd:./bot --x 1"]
    assert split_players("""cmd:./bot --pair 'a,b' "c,d",random""") == ["cmd:./bot --pair 'a,b' \"c,d\"", "random"]
    assert split_players(r"cmd:./bot a\,b,rules") == [r"cmd:./bot a\,b", "rules"]
    with pytest.raises(TournamentError, match="unclosed quote"):
        split_players("cmd:./bot 'a,rules")
    with pytest.raises(TournamentError, match="names no command"):
        run_tournament(["rules", "cmd: "], ruleset=RULESET, hands=1)


@pytest.mark.parametrize("value", ["0", "-5", "3600001", "soon"])
def test_a_bad_time_limit_is_a_usage_error(value: str, capsys: Any) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--time-limit", value, "--hands", "1"])
    assert stop.value.code == 2 and "--time-limit" in capsys.readouterr().err


# --------------------------------------------------------------------------- stopping the table


def _start_tournament(tmp_path: Path, bot: str, jobs: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "reversis", "tournament", "--players", f"rules,{bot}", "--hands", "1000"]
    command += ["--jobs", str(jobs), "--time-limit", "60000", "--preset", PRESET]
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        start_new_session=True,
    )


@pytest.mark.parametrize(
    ("jobs", "signum", "group"),
    [(1, signal.SIGINT, True), (2, signal.SIGINT, True), (2, signal.SIGTERM, False)],
    ids=["ctrl-c", "ctrl-c-workers", "sigterm-workers"],
)
def test_stopping_the_table_stops_its_bots(tmp_path: Path, jobs: int, signum: int, group: bool) -> None:
    bot, log = _bot(tmp_path, "grandchild", 3)  # hangs at its third act, beside a sleeping grandchild
    proc = _start_tournament(tmp_path, bot, jobs)
    try:
        deadline = time.monotonic() + 30
        # The probe's process, then one bot (and its grandchild) hanging in each player of the table.
        while sum(1 for p in log.iterdir()) < 2 + 2 * jobs and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        assert proc.poll() is None
        (os.killpg if group else os.kill)(proc.pid, signum)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == (130 if signum == signal.SIGINT else 128 + signum), err
        assert b"Traceback" not in err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    _assert_none_left(log)


# --------------------------------------------------------------------------- the table's side


def test_legal_ids_and_pass_selections_follow_the_game(engine: Any) -> None:
    from reversis.players.process import _act_by_ids

    for preset, seed in [("hearts-computer", 1), ("hearts-3", 2), ("hartenjagen", 3)]:
        game = engine.Game(engine.preset(preset), seed=seed)
        while game.hand_number == 0:
            for seat in range(game.ruleset.players):
                assert legal_action_ids(game.observation(seat)) == game.legal_actions(seat)
            seat = game.to_act
            asked: list[tuple[dict[str, Any], list[int]]] = []

            def choose(data: dict[str, Any], legal: list[int]) -> int:
                asked.append((data, legal))
                return legal[len(legal) // 2]

            action = _act_by_ids(observe(game, seat), choose)
            # Each decision of a pass is asked with the observation the game gives after the ones before.
            replay = game.copy()
            for data, legal in asked:
                assert data == replay.observation(seat) and legal == replay.legal_actions(seat)
                replay.apply_action(legal[len(legal) // 2], seat)
            game.apply(action)
            assert game.state() == replay.state()
    moon = {"seat": 2, "phase": "moon", "moon_taker": 2, "to_move": 2}
    assert legal_action_ids(moon) == [104, 105] and legal_action_ids({**moon, "seat": 1}) == []


def test_a_process_player_is_a_player(tmp_path: Path) -> None:
    bot, log = _bot(tmp_path, "crash", 2)
    ruleset = reversis.preset(PRESET)
    game = reversis.Game(ruleset, seed=4)
    with ProcessPlayer(bot[len("cmd:") :], ruleset, 0, time_limit_ms=500) as player:
        assert player.open() == "bot-crash" and player.pid is not None
        action = player.act(observe(game, 0))
        assert action == LowestPlayer().act(observe(game, 0))  # the second selection faulted
        assert player.forfeit is not None and player.forfeit.kind == "exited" and player.forfeit.decision == 1
        assert player.fell_back and player.pid is None
        player.start_hand(1)
        assert player.forfeit is None
    assert player.pid is None
    _assert_none_left(log)
