"""The JSON Lines transport under the driver client and the process players, against small children.

Each child is ``python -c`` source. The tests read ``/proc`` to check that a killed child, and
whatever it started in its group, is gone.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversis._jsonlines import (
    STDERR_KEPT,
    Child,
    InputClosed,
    LineTooLong,
    NotJson,
    OutputEnded,
    ReadTimeout,
    StartError,
    WriteTimeout,
    exit_text,
    kill_all,
    parse_line,
    shut_down,
    split_command,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for process groups")

#: Answers each line with ``{"echo": <the line's value>}``; exits at the end of its input.
ECHO = """
import json, sys
for line in sys.stdin:
    print(json.dumps({"echo": json.loads(line)}), flush=True)
"""
#: Starts a grandchild in its own group, writes the grandchild's pid, then never answers.
HANGS_WITH_GRANDCHILD = """
import subprocess, sys, time
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(grandchild.pid, flush=True)
time.sleep(600)
"""


def _child(source: str, **options: object) -> Child:
    options.setdefault("max_line", 1024 * 1024)
    return Child([sys.executable, "-c", source], **options)  # type: ignore[arg-type]


@pytest.fixture
def children() -> Iterator[list[Child]]:
    """Children a test starts; killed after it, whatever it did."""
    started: list[Child] = []
    yield started
    for child in started:
        child.kill()


def _soon(seconds: float = 10.0) -> float:
    return time.monotonic() + seconds


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has already died)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                members.append(int(entry.name))
    return members


def _left(pids: list[int], seconds: float = 5.0) -> list[int]:
    """The pids still alive, or still in one of their groups, after waiting up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        left = [pid for pid in pids if _alive(pid)] + [pid for group in pids for pid in _group(group)]
        if not left or time.monotonic() > deadline:
            return sorted(set(left))
        time.sleep(0.05)


def test_a_message_goes_out_as_one_compact_line_and_answers_come_back_in_order(children: list[Child]) -> None:
    child = _child(ECHO)
    children.append(child)
    messages = [{"id": 1, "cmd": "hello"}, {"id": 2, "text": "dame de pique ♠", "n": [1, 2.5, None]}]
    for message in messages:
        child.send(message, _soon())
    assert [parse_line(child.receive(_soon())) for _ in messages] == [{"echo": m} for m in messages]
    child.close_input()  # the end of its input: it exits, and its output ends
    with pytest.raises(OutputEnded):
        child.receive(_soon())
    assert child.wait_exit(5) == 0


def test_a_child_that_exits_early_ends_its_output_and_tells_its_status(children: list[Child]) -> None:
    child = _child("import sys; sys.stdin.readline(); sys.stderr.write('bye\\n'); sys.exit(3)")
    children.append(child)
    child.send({"cmd": "hello"}, _soon())
    with pytest.raises(OutputEnded):
        child.receive(_soon())
    status = child.wait_exit(5)
    assert status == 3 and exit_text(status) == "exited with status 3"
    pid = child.pid
    child.kill()
    assert child.stderr_tail() == "bye\n"  # read to the end before kill returns
    assert _left([pid]) == []


def test_a_line_written_just_before_the_exit_still_arrives(children: list[Child]) -> None:
    child = _child('print(\'{"last": "words"}\', flush=True)')
    children.append(child)
    assert child.wait_exit(10) == 0
    assert parse_line(child.receive(_soon())) == {"last": "words"}
    with pytest.raises(OutputEnded):
        child.receive(_soon())


@pytest.mark.parametrize(
    ("written", "text"),
    [
        (b"this is not json", "this is not json"),
        (b'{"id": 1, "ok"', '{"id": 1, "ok"'),
        (b'{"action": NaN}', '{"action": NaN}'),
        (b"\xff\xfe{}", None),
    ],
    ids=["words", "cut-short", "nan", "not-utf8"],
)
def test_a_line_that_is_not_json_is_told_apart_from_one_that_is_not_utf8(
    children: list[Child], written: bytes, text: str | None
) -> None:
    child = _child(f"import sys; sys.stdout.buffer.write({written!r} + b'\\n'); sys.stdout.flush()")
    children.append(child)
    line = child.receive(_soon())
    assert line == written
    with pytest.raises(NotJson) as error:
        parse_line(line)
    assert error.value.line == written and error.value.text == text


def test_a_child_that_hangs_past_the_deadline_is_killed_with_its_grandchild(children: list[Child]) -> None:
    child = _child(HANGS_WITH_GRANDCHILD)
    children.append(child)
    grandchild = int(child.receive(_soon()))
    child.send({"cmd": "hello"}, _soon())
    with pytest.raises(ReadTimeout):
        child.receive(time.monotonic() + 0.3)
    assert not child.ended() and _alive(grandchild)
    child.kill()
    assert child.process.returncode == -9  # reaped, by SIGKILL
    assert _left([child.pid, grandchild]) == []


def test_the_group_is_killed_even_when_its_leader_exited_cleanly(children: list[Child]) -> None:
    leaves_a_grandchild = """
import subprocess, sys
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(grandchild.pid, flush=True)
sys.stdin.readline()
"""
    child = _child(leaves_a_grandchild)
    children.append(child)
    grandchild = int(child.receive(_soon()))
    shut_down([(child, {"type": "quit"})], grace=5.0)
    assert child.process.returncode == 0  # it quit on its own, within the grace
    assert _left([child.pid, grandchild]) == []


def test_a_child_that_ignores_its_farewell_is_killed_after_the_grace(children: list[Child]) -> None:
    child = _child("import time; time.sleep(600)")
    children.append(child)
    shut_down([(child, {"type": "quit"})], grace=0.2)
    assert child.process.returncode == -9
    assert _left([child.pid]) == []


def test_kill_all_reaches_every_running_group(children: list[Child]) -> None:
    children.extend(_child(HANGS_WITH_GRANDCHILD) for _ in range(2))
    grandchildren = [int(child.receive(_soon())) for child in children]
    kill_all()
    assert all(child.wait_exit(5) == -9 for child in children)
    assert _left(grandchildren) == []


def test_a_line_longer_than_the_limit_is_refused_without_being_kept(children: list[Child]) -> None:
    child = _child("import sys, time; sys.stdout.write('x' * 101); sys.stdout.flush(); time.sleep(600)", max_line=100)
    children.append(child)
    with pytest.raises(LineTooLong) as error:
        child.receive(_soon())
    assert error.value.limit == 100


def test_a_line_of_exactly_the_limit_is_read(children: list[Child]) -> None:
    child = _child("print('x' * 100, flush=True)", max_line=100)
    children.append(child)
    assert child.receive(_soon()) == b"x" * 100


def test_a_child_that_never_reads_its_input_makes_a_write_time_out(children: list[Child]) -> None:
    child = _child("import time; time.sleep(600)")
    children.append(child)
    with pytest.raises(WriteTimeout):
        child.send({"data": "x" * (4 * 1024 * 1024)}, time.monotonic() + 0.3)  # far beyond a pipe's buffer


def test_a_child_that_closed_its_input_makes_a_write_fail_cleanly(children: list[Child]) -> None:
    child = _child("import os, time; os.close(0); print('closed', flush=True); time.sleep(600)")
    children.append(child)
    assert child.receive(_soon()) == b"closed"
    with pytest.raises(InputClosed):
        child.send({"cmd": "hello"}, _soon())


def test_the_tail_of_standard_error_is_kept_from_a_line_start(children: list[Child]) -> None:
    chatty = """
import sys
for k in range(5000):
    sys.stderr.write(f"line {k} of a chatty child\\n")
print("done", flush=True)
"""
    child = _child(chatty)
    children.append(child)
    assert child.receive(_soon()) == b"done"
    child.kill()
    tail = child.stderr_tail()
    assert len(tail.encode()) <= STDERR_KEPT and tail.endswith("line 4999 of a chatty child\n")
    assert tail.startswith("line ")
    assert child.stderr_tail(40) == "line 4999 of a chatty child\n"


def test_standard_error_can_be_discarded(children: list[Child]) -> None:
    child = _child("import sys; sys.stderr.write('noise\\n'); print('done', flush=True)", stderr="discard")
    children.append(child)
    assert child.receive(_soon()) == b"done"
    child.kill()
    assert child.stderr_tail() == ""


def test_a_bom_is_dropped_from_the_first_line_only_where_asked(children: list[Child]) -> None:
    source = "import sys; sys.stdout.buffer.write(b'\\xef\\xbb\\xbf{}\\n\\xef\\xbb\\xbf{}\\n'); sys.stdout.flush()"
    tolerant, strict = _child(source, bom=True), _child(source)
    children.extend([tolerant, strict])
    assert [tolerant.receive(_soon()) for _ in range(2)] == [b"{}", b"\xef\xbb\xbf{}"]
    assert strict.receive(_soon()) == b"\xef\xbb\xbf{}"


def test_a_command_that_cannot_start_says_why(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-program")
    with pytest.raises(StartError) as error:
        Child([missing, "--fast"], name=f"{missing} --fast", max_line=100)
    assert str(error.value) == f"could not start '{missing} --fast': No such file or directory"
    not_runnable = tmp_path / "plain.txt"
    not_runnable.write_text("")
    with pytest.raises(StartError, match="Permission denied"):
        Child([str(not_runnable)], max_line=100)


@pytest.mark.parametrize("command", ["", "  \t ", []])
def test_an_empty_command_is_refused(command: str | list[str]) -> None:
    with pytest.raises(ValueError, match="the command is empty"):
        split_command(command)


def test_a_child_of_no_words_is_refused() -> None:
    with pytest.raises(ValueError, match="the command is empty"):
        Child([], max_line=100)


def test_a_command_line_is_split_as_a_shell_would() -> None:
    assert split_command('./bot --mode \'a b\' "c\\"d"') == ["./bot", "--mode", "a b", 'c"d']
    assert split_command(["prog", 3]) == ["prog", "3"]  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"cannot read the command \"./bot 'a\": No closing quotation"):
        split_command("./bot 'a")


def test_a_signal_death_is_told_by_name() -> None:
    assert exit_text(-9) == "was killed by signal 9 (SIGKILL)"
    assert exit_text(-200) == "was killed by signal 200"


def test_parse_line_rejects_what_json_loads_would_let_through() -> None:
    assert parse_line(b'{"a": [1, 2.5, true, null]}\r') == {"a": [1, 2.5, True, None]}  # a \r before \n is tolerated
    for constant in (b"Infinity", b"-Infinity", b"NaN"):
        with pytest.raises(NotJson):
            parse_line(b'{"x": ' + constant + b"}")


def test_no_child_is_left_in_the_running_set_after_kill(children: list[Child]) -> None:
    from reversis import _jsonlines

    child = _child(ECHO)
    children.append(child)
    assert child in _jsonlines._RUNNING
    child.kill()
    child.kill()  # safe to repeat
    assert child not in _jsonlines._RUNNING
