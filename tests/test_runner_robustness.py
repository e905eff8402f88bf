"""The runner and the driver protocol against implementations that hang, flood, crash or leave processes behind.

Each fake implementation is a script written into the test's temporary directory; it logs the
pid of every process it starts, and the ``no_process_left`` fixture checks that none of them
outlives its test (spec/driver.md DRV-2).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reversis import reference
from reversis.cli import MAX_TIMEOUTS as CLI_MAX_TIMEOUTS
from reversis.cli import main
from reversis.conformance import Case, DriverEngine, EngineFault, ModuleEngine, load_cases, run_cases
from reversis.conformance import driver as builtin_driver
from reversis.conformance.bench import time_case
from reversis.conformance.engines import STDERR_TAIL
from reversis.conformance.runner import CASE_FOLDERS, MAX_TIMEOUTS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups")

ROOT = Path(__file__).resolve().parents[1]
CASES = load_cases(CASE_FOLDERS, ROOT / "conformance")
GAME_CASES = [case for case in CASES if case.data["kind"] == "game" and case.data["ruleset"] == "hearts-4"]
CARD_CASES = [case for case in CASES if case.area == "cards"]

#: A fake implementation: the reference engine behind the protocol, with a ``before`` hook that
#: may misbehave or answer in its place. It logs every process it starts and every request.
FAKE = """
import json, os, signal, subprocess, sys, time
from reversis.conformance.engines import EngineError, builtin_engine

LOG = {log!r}

def log(*words):
    with open(LOG, "a") as out:
        out.write(" ".join(str(word) for word in words) + "\\n")

log("start", os.getpid())
engine = builtin_engine("reference")
{prelude}
{before}

for line in sys.stdin:
    request = json.loads(line)
    request_id, cmd = request.pop("id"), request.pop("cmd")
    log("request", os.getpid(), cmd, request.get("game", "-"))
    if cmd == "quit":
        break
    body = before(cmd, request)
    if body is None:
        try:
            body = {{"ok": True, **engine.call(cmd, **request)}}
        except EngineError as error:
            body = {{"ok": False, "error": error.code, "message": error.message}}
    if cmd in ("new_game", "load_record") and body.get("ok"):
        log("game", os.getpid(), body["game"])
    print(json.dumps({{"id": request_id, **body}}), flush=True)
"""
PASSIVE = "def before(cmd, request):\n    return None"
#: Started by a fake in the fake's own process group, and left behind when the fake exits.
GRANDCHILD = """
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
log("start", child.pid)
"""


def _fake(tmp_path: Path, before: str = PASSIVE, prelude: str = "", name: str = "fake.py") -> str:
    script = tmp_path / name
    source = FAKE.format(log=str(tmp_path / "log"), prelude=textwrap.dedent(prelude), before=textwrap.dedent(before))
    script.write_text(source)
    return f"{sys.executable} {script}"


def _script(tmp_path: Path, source: str, name: str = "script.py") -> str:
    """A script that is not the fake above; it logs its pid like the fake does."""
    log = str(tmp_path / "log")
    prelude = f"import os\nwith open({log!r}, 'a') as out:\n    out.write(f'start {{os.getpid()}}\\n')\n"
    script = tmp_path / name
    script.write_text(prelude + textwrap.dedent(source))
    return f"{sys.executable} {script}"


def _log(tmp_path: Path) -> list[list[str]]:
    path = tmp_path / "log"
    return [line.split() for line in path.read_text().splitlines()] if path.exists() else []


def _started(tmp_path: Path) -> list[int]:
    return [int(words[1]) for words in _log(tmp_path) if words[0] == "start"]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has already died)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``, as ``ps -o pgid`` would list them."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def _gone(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The pids still alive after waiting up to ``seconds`` for them to die."""
    deadline = time.monotonic() + seconds
    alive = [pid for pid in pids if _alive(pid)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [pid for pid in pids if _alive(pid)]
    return alive


@pytest.fixture(autouse=True)
def no_process_left(tmp_path: Path) -> Iterator[None]:
    """Every process a fake started is gone after the test; any survivor is killed, and fails it."""
    yield
    started = _started(tmp_path)
    survivors = _gone(started) + [pid for pgid in started for pid in _group(pgid)]
    for pid in set(survivors):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not survivors, f"processes left behind: {sorted(set(survivors))}"


def _kill_group(pgid: int) -> bool:
    """SIGKILL to process group ``pgid``; whether any process of it was still there."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


def _wait_for(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


# --- 1. hangs, give-ups and process groups -------------------------------------------------


def test_an_implementation_that_never_answers_hello_is_one_quick_failure(tmp_path: Path) -> None:
    engine = DriverEngine(_script(tmp_path, "import time\ntime.sleep(600)\n"), timeout=0.5)
    started = time.monotonic()
    try:
        report = run_cases(engine, CASES[:30])
        elapsed = time.monotonic() - started
        # Killed already, before anyone closes the engine.
        assert _gone(_started(tmp_path)) == []
    finally:
        engine.close()
    assert elapsed < 5
    assert report.outcomes == [] and report.not_run == 30 and not report.ok
    assert report.failure is not None and "hello" in report.failure and "0.5 s" in report.failure


def test_the_run_stops_after_max_timeouts_cases_in_a_row_hang(tmp_path: Path) -> None:
    hang = """
    def before(cmd, request):
        if cmd == "new_game":
            time.sleep(600)
    """
    engine = DriverEngine(_fake(tmp_path, hang), timeout=0.5)
    try:
        report = run_cases(engine, GAME_CASES[:10], max_timeouts=2)
    finally:
        engine.close()
    assert [o.status for o in report.outcomes] == ["failed", "failed"]
    assert all("no answer to new_game within 0.5 s" in o.reason for o in report.outcomes)
    assert report.failure == "gave up after 2 cases in a row ended in a timeout" and report.not_run == 8
    assert len(_started(tmp_path)) == 2  # one process per timed-out case, none for the cases not run


def test_the_command_lines_default_number_of_timeouts_is_the_runners() -> None:
    assert CLI_MAX_TIMEOUTS == MAX_TIMEOUTS


def test_a_grandchild_is_killed_even_when_the_implementation_quits_cleanly(tmp_path: Path) -> None:
    engine = DriverEngine(_fake(tmp_path, prelude=GRANDCHILD), timeout=5)
    try:
        assert run_cases(engine, CARD_CASES[:3]).failed == []
    finally:
        # The grandchild holds the implementation's output open: closing must not wait on it.
        closing = threading.Thread(target=engine.close, daemon=True)
        closing.start()
        closing.join(timeout=15)
    assert not closing.is_alive(), "close() hangs on the grandchild's pipes"
    parent, grandchild = _started(tmp_path)
    assert _gone([parent, grandchild]) == []
    assert _group(parent) == []


def test_an_exception_inside_the_run_kills_the_implementation(tmp_path: Path) -> None:
    class Exploding(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: Any) -> Any:
            raise KeyboardInterrupt

    engine = DriverEngine(_fake(tmp_path, prelude=GRANDCHILD), timeout=5)
    cases = [CARD_CASES[0], Case("boom.json", "boom", 0, Exploding(kind="card"))]
    with pytest.raises(KeyboardInterrupt):
        run_cases(engine, cases)
    # Nobody closed the engine: the runner killed the group on the way out.
    assert _gone(_started(tmp_path)) == []
    engine.close()


def _ready_to_hang(tmp_path: Path, crash_first: bool = False) -> str:
    """A fake that starts a grandchild, answers hello, then hangs on the next request.

    With ``crash_first``, its first process exits on that request instead, leaving its
    grandchild behind; the process started after it hangs.
    """
    hang = f"""
    def before(cmd, request):
        if cmd == "hello":
            return None
        if {crash_first!r} and not os.path.exists({str(tmp_path / "crashed")!r}):
            open({str(tmp_path / "crashed")!r}, "w").close()
            os._exit(3)
        log("hanging")
        time.sleep(600)
    """
    return _fake(tmp_path, hang, prelude=GRANDCHILD)


def _hanging(tmp_path: Path) -> bool:
    return any(words == ["hanging"] for words in _log(tmp_path))


def test_sigterm_to_the_conformance_command_kills_the_implementations_group(tmp_path: Path) -> None:
    """The runner restarts a crashed implementation, then gets SIGTERM: no process of either run survives."""
    command = [sys.executable, "-m", "reversis", "conformance", "--driver", _ready_to_hang(tmp_path, True)]
    proc = subprocess.Popen(
        [*command, "--timeout", "60", "--area", "cards"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        _wait_for(lambda: _hanging(tmp_path))
        proc.send_signal(signal.SIGTERM)  # to the runner alone, as a service manager would
        _, err = proc.communicate(timeout=15)
    finally:
        runner_left = _kill_group(proc.pid)
    assert not runner_left, "a process of the runner's own group survived it"
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in err
    started = _started(tmp_path)
    assert len(started) == 4  # the crashed run and the hanging one, each with its grandchild
    assert _gone(started) == []
    assert _group(started[0]) == [] and _group(started[2]) == []


def test_sigterm_to_a_program_that_runs_the_cases_kills_the_implementation(tmp_path: Path) -> None:
    """A program that calls run_cases and installed no handler still leaves nothing behind."""
    program = tmp_path / "program.py"
    program.write_text(
        textwrap.dedent(
            f"""
            from reversis.conformance import DriverEngine, load_cases, run_cases
            engine = DriverEngine({_ready_to_hang(tmp_path)!r}, timeout=60)
            run_cases(engine, load_cases()[:5])
            """
        )
    )
    proc = subprocess.Popen([sys.executable, str(program)], stderr=subprocess.PIPE, start_new_session=True)
    try:
        _wait_for(lambda: _hanging(tmp_path))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
    finally:
        runner_left = _kill_group(proc.pid)
    assert not runner_left, "a process of the program's own group survived it"
    assert proc.returncode == -signal.SIGTERM, err  # it still dies of the signal, after the cleanup
    parent, grandchild = _started(tmp_path)
    assert _gone([parent, grandchild]) == []
    assert _group(parent) == []


# --- 2. bounded lines and stderr ---------------------------------------------------------------


def test_an_answer_without_a_newline_is_a_bounded_failure(tmp_path: Path) -> None:
    flood = """
    import sys, time
    sys.stdin.readline()
    chunk = b"x" * 65536
    while True:  # 64 MB/s at most: a runner that keeps it all must not exhaust the machine running this test
        sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
        time.sleep(0.001)
    """
    engine = DriverEngine(_script(tmp_path, flood), timeout=3, max_line=2**20)
    started = time.monotonic()
    with pytest.raises(EngineFault, match=r"answer to hello is a line longer than 1 MiB"):
        engine.call("hello")
    assert time.monotonic() - started < 2.5
    engine.close()


def test_a_chatty_stderr_neither_blocks_the_implementation_nor_grows_the_runner(tmp_path: Path) -> None:
    chatty = """
    def before(cmd, request):
        for _ in range(16):
            sys.stderr.write("e" * 65536)
        sys.stderr.write("the end")
        sys.stderr.flush()
    """
    engine = DriverEngine(_fake(tmp_path, chatty), timeout=10)
    try:
        for _ in range(3):  # 3 MiB of stderr, far beyond what a pipe buffers
            engine.call("parse_card", text="QS")
        _wait_for(lambda: engine.stderr_tail().endswith("the end"), 5)
        assert len(engine.stderr_tail()) <= STDERR_TAIL
    finally:
        engine.close()


def test_the_report_shows_why_an_implementation_could_not_start(tmp_path: Path, capsys: Any) -> None:
    broken = """
    import sys
    sys.stderr.write("Traceback (most recent call last):\\nModuleNotFoundError: No module named 'pyspiel'\\n")
    sys.exit(1)
    """
    report_file = tmp_path / "report.json"
    status = main(["conformance", "--driver", _script(tmp_path, broken), "--json", str(report_file)])
    out = capsys.readouterr().out
    assert status == 1
    assert out.count("FAIL") == 1 and "exited with status 1 before answering hello" in out
    assert "| ModuleNotFoundError: No module named 'pyspiel'" in out
    (report,) = json.loads(report_file.read_text())
    assert "pyspiel" in report["stderr"] and "hello" in report["failure"] and report["outcomes"] == []


# --- 3. restarts, crashes, capabilities, bench -------------------------------------------------

CRASH_ONCE = """
def before(cmd, request):
    if cmd == "apply" and not os.path.exists({marker!r}):
        open({marker!r}, "w").close()
        {crash}
"""


def test_after_a_crash_no_drop_names_a_game_of_the_dead_process(tmp_path: Path) -> None:
    crash = CRASH_ONCE.format(marker=str(tmp_path / "crashed"), crash="os._exit(7)")
    engine = DriverEngine(_fake(tmp_path, crash), timeout=5)
    try:
        report = run_cases(engine, GAME_CASES[:3])
    finally:
        engine.close()
    first, *rest = report.outcomes
    assert first.status == "failed" and "the implementation exited with status 7 before answering apply" in first.reason
    assert [o.status for o in rest] == ["passed", "passed"]
    held: dict[str, set[str]] = {}
    requests: dict[str, list[str]] = {}
    for words in _log(tmp_path):
        if words[0] == "game":
            held.setdefault(words[1], set()).add(words[2])
        elif words[0] == "request":
            requests.setdefault(words[1], []).append(words[2])
            if words[2] == "drop":
                assert words[3] in held.get(words[1], set()), f"process {words[1]} was asked to drop game {words[3]}"
    first_pid, second_pid = requests
    assert "drop" not in requests[first_pid] and requests[second_pid][0] == "hello"


def test_a_crash_by_a_signal_is_reported_with_the_signal(tmp_path: Path) -> None:
    crash = CRASH_ONCE.format(marker=str(tmp_path / "crashed"), crash="os.kill(os.getpid(), signal.SIGKILL)")
    engine = DriverEngine(_fake(tmp_path, crash), timeout=5)
    try:
        report = run_cases(engine, GAME_CASES[:1])
    finally:
        engine.close()
    assert "was killed by signal 9 (SIGKILL) before answering apply" in report.outcomes[0].reason


def _claiming(**capabilities: Any) -> str:
    return f"""
    def before(cmd, request):
        if cmd == "hello":
            answer = engine.call("hello")
            answer["capabilities"].update({capabilities!r})
            return {{"ok": True, **answer}}
    """


def test_the_capability_line_is_printed_and_written_to_the_json_report(tmp_path: Path, capsys: Any) -> None:
    report_file = tmp_path / "report.json"
    driver = _fake(tmp_path, _claiming(error_codes=False))
    status = main(["conformance", "--driver", driver, "--area", "cards", "--json", str(report_file)])
    out = capsys.readouterr().out
    assert status == 0
    (line,) = [line for line in out.splitlines() if line.startswith("  capabilities: ")]
    assert "kinds card, ruleset, seed, game, record" in line
    assert "error codes no (any rejection passes where a case expects a code)" in line
    (report,) = json.loads(report_file.read_text())
    assert report["capabilities"]["error_codes"] is False and report["capability_line"] == line.split(": ", 1)[1]
    assert report["implementation"]["name"] == "reversis (reference)"


class Claiming(ModuleEngine):
    """The reference engine, claiming only what ``claims`` says."""

    def __init__(self, **claims: Any) -> None:
        super().__init__(reference, "claiming")
        self.claims = claims

    def _cmd_hello(self) -> dict[str, Any]:
        answer = super()._cmd_hello()
        answer["capabilities"].update(self.claims)
        return answer


def test_a_preset_runs_only_if_its_number_of_players_is_claimed_too() -> None:
    report = run_cases(Claiming(players=[4]), CASES)
    three = [o for o in report.outcomes if o.case.data.get("ruleset") == "hearts-3"]
    assert three and all(o.status == "skipped" and o.reason == "3 players not claimed" for o in three)
    assert any(o.status == "passed" and o.case.data.get("ruleset") == "hearts-4" for o in report.outcomes)
    assert report.ok


TENSOR_CASES = [case for case in load_cases(("cases",), ROOT / "conformance") if case.area == "observation-tensor"]


class SaysNothingOfTensors(ModuleEngine):
    """The reference engine with the hello of an implementation written before DRV-7: no ``observation_tensor``."""

    def __init__(self) -> None:
        super().__init__(reference, "before DRV-7")

    def _cmd_hello(self) -> dict[str, Any]:
        answer = super()._cmd_hello()
        del answer["capabilities"]["observation_tensor"]
        return answer


@pytest.mark.parametrize(
    "engine", [SaysNothingOfTensors(), Claiming(observation_tensor=False)], ids=["unsaid", "claimed-false"]
)
def test_tensor_cases_are_skipped_never_passed_where_the_tensor_is_not_claimed(engine: ModuleEngine) -> None:
    cases = TENSOR_CASES + CARD_CASES[:2]
    report = run_cases(engine, cases)
    skipped = [o for o in report.outcomes if o.status == "skipped"]
    assert len(TENSOR_CASES) >= 4 and [o.case for o in skipped] == TENSOR_CASES
    assert {o.reason for o in skipped} == {"observation tensors not claimed (DRV-7)"}
    assert [o.status for o in report.outcomes if o.case.area != "observation-tensor"] == ["passed", "passed"]
    assert report.ok
    assert "observation tensor no" in report.capability_line


class ShortTensor(ModuleEngine):
    """The reference engine answering ``observation_tensor`` with one integer too few."""

    def __init__(self) -> None:
        super().__init__(reference, "short tensor")

    def _cmd_observation_tensor(self, game: int, seat: int) -> dict[str, Any]:
        return {"tensor": super()._cmd_observation_tensor(game, seat)["tensor"][:-1]}


def test_a_tensor_of_the_wrong_length_fails_its_case() -> None:
    report = run_cases(ShortTensor(), TENSOR_CASES)
    assert [o.status for o in report.outcomes] == ["failed"] * len(TENSOR_CASES)
    assert all("1434 integers, not OBS-3's 1435" in o.reason for o in report.outcomes)


def test_an_implementation_that_claims_nothing_fails(tmp_path: Path, capsys: Any) -> None:
    report = run_cases(Claiming(kinds=[]), CARD_CASES)
    assert not report.ok and report.failure is not None and "claims none" in report.failure
    assert main(["conformance", "--driver", _fake(tmp_path, _claiming(kinds=[])), "--area", "cards"]) == 1
    assert "claims none of the" in capsys.readouterr().out


def test_the_bench_warms_up_before_it_times() -> None:
    class SlowFirstGame:
        """Stands for an implementation whose first game pays for its start-up."""

        def __init__(self) -> None:
            self.games = 0

        def call(self, cmd: str, **args: Any) -> dict[str, Any]:
            if cmd == "new_game":
                self.games += 1
                if self.games == 1:
                    time.sleep(0.5)
            return {"game": self.games}

    case = next(case for case in load_cases(("bench",), ROOT / "conformance"))
    engine = SlowFirstGame()
    assert max(time_case(engine, case, repeats=1)) < 0.25  # type: ignore[arg-type]
    assert engine.games == 2


# --- 4. the built-in driver's messages ----------------------------------------------------


def _serve(*lines: str, engine: str = "reference") -> list[dict[str, Any]]:
    out = io.StringIO()
    builtin_driver.serve(engine, io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(line, parse_constant=_reject) for line in out.getvalue().splitlines()]


def _reject(name: str) -> Any:
    raise AssertionError(f"the driver wrote {name}, which is not JSON")


@pytest.mark.parametrize("engine", ["reference", "rust"])
def test_driver_messages_are_the_engines_without_the_code_repeated(engine: str) -> None:
    new_game = '{"id": 1, "cmd": "new_game", "ruleset": "hearts-4"}'
    play = '{"id": 2, "cmd": "apply", "game": 1, "action": {"type": "play", "seat": 0, "card": "7C"}}'
    _, answer = _serve(new_game, play, engine=engine)
    module = reference if engine == "reference" else pytest.importorskip("reversis")
    with pytest.raises(Exception) as error:
        module.Game(module.preset("hearts-4")).apply({"type": "play", "seat": 0, "card": "7C"})
    assert answer["error"] == "wrong-phase" and not answer["message"].startswith("wrong-phase")
    assert answer["message"] == str(error.value)


def test_driver_messages_name_nothing_of_python(monkeypatch: pytest.MonkeyPatch) -> None:
    class Choking(ModuleEngine):
        def _cmd_view(self, game: int) -> dict[str, Any]:
            raise TypeError("'NoneType' object is not subscriptable")

    monkeypatch.setattr(builtin_driver, "builtin_engine", lambda name: Choking(reference, "choking"))
    answers = _serve(
        '{"id": 1, "cmd": "new_game", "ruleset": "hearts-4"}',
        '{"id": 2, "cmd": "view", "game": 1}',
        '{"id": 3, "cmd": "apply", "game": 1}',
        '{"id": 4, "cmd": "hello", "verbose": true}',
        '{"id": 5, "cmd": "drop", "game": [1]}',
        '{"id": 6, "cmd": "view", "game": null}',
        '{"id": 7, "cmd": "_game", "game": 1}',
    )
    messages = [answer["message"] for answer in answers[1:]]
    for message in messages:
        for python in ("NoneType", "subscriptable", "_cmd_", "ModuleEngine", "positional", "keyword", "unhashable"):
            assert python not in message, message
    assert messages[1:] == [
        'apply needs the argument "action"',
        'hello takes no argument "verbose"',
        "no game [1]",
        "no game null",
        'unknown command "_game"',
    ]
    assert all(answer["error"] == "invalid-request" for answer in answers[1:])


def test_the_driver_echoes_every_id_it_can_read() -> None:
    answers = _serve(
        '{"id": 7}',
        '{"id": "x", "cmd": 5}',
        '{"id": 9, "cmd": "no-such-command"}',
        '{"cmd": "hello"}',
        "[1]",
        "not json",
        '{"id": NaN, "cmd": "hello"}',
    )
    assert [answer["id"] for answer in answers] == [7, "x", 9, None, None, None, None]
    # NaN cannot be written back as JSON: that id is answered null, never as the bare word NaN.
    assert [answer["ok"] for answer in answers] == [False, False, False, True, False, False, True]


def test_the_driver_module_runs_and_tolerates_a_bom_and_bad_bytes() -> None:
    data = b'\xef\xbb\xbf{"id": 1, "cmd": "hello"}\n\xff\xfe\n{"id": 2, "cmd": "parse_card", "text": "qs"}\n'
    done = subprocess.run(
        [sys.executable, "-m", "reversis.conformance.driver", "--engine", "reference"],
        input=data,
        capture_output=True,
        timeout=30,
        check=True,
    )
    hello, bad, card = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["id"] == 1 and hello["ok"] is True
    assert bad == {"id": None, "ok": False, "error": "invalid-request", "message": "the line is not UTF-8"}
    assert card == {"id": 2, "ok": True, "card": "QS"}


@pytest.mark.parametrize("engine", ["rust", "reference"])
def test_a_request_without_an_id_is_served_and_answered_with_a_null_id(engine: str) -> None:
    # DRV-1: the id is not an argument; a request that lacks one is still a request.
    requests = io.StringIO('{"cmd": "parse_card", "text": "qs"}\n{"cmd": "parse_card", "text": "1S"}\n')
    answers = io.StringIO()
    builtin_driver.serve(engine, requests, answers)
    served, refused = (json.loads(line) for line in answers.getvalue().splitlines())
    assert served == {"id": None, "ok": True, "card": "QS"}
    assert refused["id"] is None and refused["ok"] is False and refused["error"] == "invalid-card"
