"""Nothing a player owns is destroyed by ``reversis play`` (issue 10, points 1 to 7).

Real files, real subprocesses and real signals. Running as root, devices are stand-ins made
under a temporary directory (a FIFO, a character device node made there), never the real ones.
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import reversis
import reversis.reference
from reversis.commands.play import PlaySession, Style, visible_width
from reversis.players import RandomPlayer, act_for
from reversis.table import SaveInUse, SaveLock, load_game, remove_stale_temp_files, save_game, start_match

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files, signals and pipes")

TIMEOUT = 30.0
#: The CLI's logic is the same over both engines; the reference engine keeps these tests independent of the build.
ENGINE = "reference"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "XDG_DATA_HOME")}
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra)
    return env


def _play_command(save: Path, *args: str, plain: bool = True) -> list[str]:
    command = [sys.executable, "-m", "reversis", "play", "--save", str(save), "--engine", ENGINE]
    return command + (["--plain"] if plain else []) + list(args)


class Play:
    """A ``reversis play --plain`` process, answered prompt by prompt."""

    def __init__(self, save: Path, *args: str, env: dict[str, str] | None = None, **popen: Any) -> None:
        if "--opponents" not in args:
            args = ("--opponents", "random", *args)
        self.proc = subprocess.Popen(
            _play_command(save, *args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env or _env(),
            **popen,
        )
        self.lines: list[str] = []

    def screen(self) -> list[str]:
        """The lines up to and including the next ``prompt:`` line (or the end of output)."""
        assert self.proc.stdout is not None
        lines: list[str] = []
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                break
            line = raw.decode("utf-8", "replace").rstrip("\n")
            lines.append(line)
            if line.startswith("prompt:"):
                break
        self.lines += lines
        return lines

    def send(self, text: str | bytes) -> list[str]:
        assert self.proc.stdin is not None
        data = text if isinstance(text, bytes) else text.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return self.screen()

    def finish(self, text: str | None = "quit") -> tuple[int, str, str]:
        assert self.proc.stdin is not None
        if text is not None:
            self.proc.stdin.write(text.encode() + b"\n")
        out, err = self.proc.communicate(timeout=TIMEOUT)
        return self.proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def value(lines: list[str], key: str) -> str | None:
    found = [line[len(key) + 2 :] for line in lines if line.startswith(key + ": ")]
    return found[-1] if found else None


def values(lines: list[str], key: str) -> list[str]:
    return [line[len(key) + 2 :] for line in lines if line.startswith(key + ": ")]


def prompt(lines: list[str]) -> str | None:
    return value(lines, "prompt")


def _act_once(play: Play, screen: list[str]) -> list[str]:
    """Pass or play once as the person."""
    if prompt(screen) == "pass":
        return play.send(" ".join((value(screen, "hand") or "").split()[:3]))
    return play.send((value(screen, "legal") or "").split()[0])


def _temp_files(*folders: Path) -> list[str]:
    return [p.name for folder in folders for p in folder.iterdir() if p.name.endswith(".tmp")]


def _record(path: Path) -> dict[str, Any]:
    return _record_of(path.read_bytes())


def _record_of(data: bytes) -> dict[str, Any]:
    return reversis.reference.load_record(data)


# 1. Never replace what is not ours --------------------------------------------------------------


@pytest.mark.parametrize("flags", [("--new",), ()])
def test_a_fifo_is_refused_and_left_alone(tmp_path: Path, flags: tuple[str, ...]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.run(
        _play_command(fifo, *flags), input=b"quit\n", capture_output=True, check=False, timeout=TIMEOUT, env=_env()
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err  # a usage error, as a missing directory is
    assert "FIFO" in err and "not a regular file" in err and "Traceback" not in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_character_device_is_refused_and_left_alone(tmp_path: Path) -> None:
    device = tmp_path / "null"  # a stand-in for /dev/null, made here
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    proc = subprocess.run(
        _play_command(device, "--new"), input=b"quit\n", capture_output=True, check=False, timeout=TIMEOUT, env=_env()
    )
    assert proc.returncode == 2
    assert "character device" in proc.stderr.decode()
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run(
        _play_command(tmp_path), input=b"quit\n", capture_output=True, check=False, timeout=TIMEOUT, env=_env()
    )
    assert proc.returncode == 2 and "directory" in proc.stderr.decode()


def test_a_symlinked_save_is_written_through_to_its_target(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "links").mkdir()
    target = tmp_path / "real" / "match.json"
    link = tmp_path / "links" / "save.json"
    link.symlink_to(target)
    play = Play(link, "--seed", "4")
    _act_once(play, play.screen())
    status, _, _ = play.finish()
    assert status == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert _record(target)["seed"] == 4
    assert not _temp_files(tmp_path / "real", tmp_path / "links")
    # Resuming through the link continues the same match.
    again = Play(link)
    assert (value(again.screen(), "match") or "").startswith("resumed seed 4 ")
    again.finish()
    assert link.is_symlink()


# 2. Never overwrite a file we cannot read ----------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        b'{"theme": "dark", "volume": 3}\n',  # someone's settings.json
        b'{"format": "reversis-record", "version": 1, "ruleset"',  # a truncated save
        b"",  # an empty file
        b"hello, this is text\n",
    ],
    ids=["settings", "truncated", "empty", "text"],
)
def test_a_file_that_is_not_a_save_is_moved_aside_not_overwritten(tmp_path: Path, content: bytes) -> None:
    save = tmp_path / "save.json"
    save.write_bytes(content)
    save.chmod(0o644)
    play = Play(save, "--seed", "3")
    screen = play.screen()
    (moved,) = values(screen, "moved-aside")
    why, where = moved.split(" ", 1)
    aside = Path(where)
    assert why == "unreadable" and aside.parent == tmp_path
    assert aside.name.startswith("save.json.unreadable-")
    assert aside.read_bytes() == content and stat.S_IMODE(aside.stat().st_mode) == 0o644
    assert (value(screen, "match") or "").startswith("replaying seed 3 ")
    play.finish()
    assert _record(save)["seed"] == 3


def test_a_save_from_a_future_version_is_moved_aside(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    record = reversis.reference.Game(reversis.reference.preset("hearts-computer"), 1).to_record()
    record["version"] = 99
    data = json.dumps(record).encode()
    save.write_bytes(data)
    play = Play(save)
    screen = play.screen()
    (moved,) = values(screen, "moved-aside")
    assert Path(moved.split(" ", 1)[1]).read_bytes() == data
    play.finish()


def test_moving_aside_never_overwrites_an_earlier_one(tmp_path: Path) -> None:
    from reversis.table import move_aside

    first = tmp_path / "save.json"
    first.write_text("one")
    a = move_aside(first)
    first.write_text("two")
    b = move_aside(first)
    assert a != b and a.read_text() == "one" and b.read_text() == "two"


# 3. Never drop a match in progress without asking ---------------------------------------------------


def _match_in_progress(save: Path) -> int:
    play = Play(save, "--seed", "21")
    _act_once(play, play.screen())
    status, _, _ = play.finish()
    assert status == 0
    return len(_record(save)["actions"])


@pytest.mark.parametrize(
    "flags", [("--seed", "7"), ("--preset", "hartenjagen"), ("--new",)], ids=["seed", "preset", "new"]
)
def test_options_that_would_drop_a_match_ask_first(tmp_path: Path, flags: tuple[str, ...]) -> None:
    save = tmp_path / "save.json"
    actions = _match_in_progress(save)
    # Declining keeps the match in progress, whole.
    play = Play(save, *flags)
    screen = play.screen()
    assert prompt(screen) == "confirm" and "abandon seed 21 " in (value(screen, "confirm") or "")
    screen = play.send("no")
    assert values(screen, "kept") and (value(screen, "match") or "").startswith("resumed seed 21 ")
    play.finish()
    assert len(_record(save)["actions"]) == actions
    # End of input at the question leaves it as it is too.
    status, _, _ = Play(save, *flags).finish(None)
    assert status == 0 and len(_record(save)["actions"]) == actions
    # Saying yes drops it.
    play = Play(save, *flags)
    play.screen()
    screen = play.send("yes")
    assert not (value(screen, "match") or "").startswith("resumed")
    play.finish()
    assert _record(save)["seed"] != 21


def test_a_finished_match_is_kept_when_new_is_typed_at_the_end(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    play = Play(save, "--seed", "8", "--preset", "hartenjagen")
    screen = play.screen()
    while prompt(screen) == "play":
        screen = play.send((value(screen, "legal") or "").split()[0])
    assert prompt(screen) == "over"
    finished = save.read_bytes()
    screen = play.send("new")
    (moved,) = values(screen, "moved-aside")
    assert moved.startswith("finished ") and Path(moved.split(" ", 1)[1]).read_bytes() == finished
    play.finish()


# 4. Two terminals on one save -------------------------------------------------------------------------


def test_a_second_session_on_one_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    first = Play(save, "--seed", "5")
    screen = first.screen()
    started = time.monotonic()
    second = subprocess.run(
        _play_command(save, "--new"),
        input=b"yes\nquit\n",
        capture_output=True,
        check=False,
        timeout=TIMEOUT,
        env=_env(),
    )
    assert time.monotonic() - started < 10
    assert second.returncode == 1
    err = second.stderr.decode()
    assert "in use by another reversis play" in err and f"(process {first.proc.pid})" in err
    # The first session's moves are all kept.
    screen = _act_once(first, screen)
    status, _, _ = first.finish()
    assert status == 0
    record = _record(save)
    assert record["seed"] == 5 and any(action.get("seat") == 0 for action in record["actions"])
    # Once it has left, the save is free again.
    with SaveLock(save):
        pass


def test_the_lock_is_advisory_and_released(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    with SaveLock(save):
        code = f"from reversis.table import SaveLock; SaveLock({str(save)!r}).acquire()"
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False, timeout=TIMEOUT)
        assert proc.returncode != 0 and b"SaveInUse" in proc.stderr
    subprocess.run([sys.executable, "-c", code], check=True, timeout=TIMEOUT)  # released: free again
    with SaveLock(save), pytest.raises(SaveInUse):
        SaveLock(save).acquire()  # a second lock in one process is refused too (flock is per open file)


# 5. Say the truth about saving ---------------------------------------------------------------------------


def test_a_save_under_a_file_is_refused_before_the_game(tmp_path: Path) -> None:
    # Where the save's directory should be there is a file: a usage error, and the file untouched
    # (a save that fails during the game is reported at once and on quit: the full-disk test).
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the save's directory should be")
    done = subprocess.run(
        [sys.executable, "-m", "reversis", "play", "--save", str(blocker / "save.json"), "--seed", "2"],
        input="quit\n",
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "there is no directory" in done.stderr
    assert blocker.read_text() == "a file where the save's directory should be"


def _limit_file_size(limit: int) -> Any:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_is_reported_at_once_and_on_quit(tmp_path: Path) -> None:
    """RLIMIT_FSIZE stands in for a full disk: writes past the limit fail (EFBIG) as on ENOSPC."""
    save = tmp_path / "save.json"
    play = Play(save, "--seed", "2", preexec_fn=_limit_file_size(1500))
    screen = play.screen()
    assert not values(screen, "save-failed")
    failed: list[str] = []
    for _ in range(12):
        good = save.read_bytes()
        screen = _act_once(play, screen)
        failed += values(screen, "save-failed")
        if failed:
            break
    assert failed, "the save never outgrew the limit"
    status, out, _ = play.finish()
    assert status == 1 and "unsaved: " in out
    assert "saved: " not in out.replace("unsaved: ", "")
    # The last save that fitted is intact (never torn, never older than before), and no temporary file is left.
    kept = _record(save)
    assert kept["seed"] == 2 and save.stat().st_size <= 1500
    assert kept["actions"][: len(_record_of(good)["actions"])] == _record_of(good)["actions"]
    assert not _temp_files(tmp_path)


def test_a_record_over_the_size_limit_is_reported_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import reversis.reference.records as records_module

    engine = reversis.reference
    monkeypatch.setattr(records_module, "MAX_RECORD_ACTIONS", 12)  # ERR-6's limit, made small
    out = io.StringIO()
    session = PlaySession(
        engine=engine,
        ruleset_name=None,
        save_path=tmp_path / "save.json",
        opponents="random",
        seed=1,
        new=False,
        delay=0.0,
        plain=True,
        style=Style(color=False, symbols=False),
        inp=io.StringIO(""),
        out=out,
    )
    answers = []
    game = start_match(engine.preset("hearts-computer"), 1, engine=engine)
    hand = sorted(game.hand(0), key=engine.card_id)
    answers.append(" ".join(hand[:3]))
    answers += [card for card in engine.preset("hearts-computer").deck] * 2
    session.inp = io.StringIO("\n".join(answers) + "\nquit\n")
    assert session.run() == 1
    text = out.getvalue()
    assert "save-failed: " in text and "more than the limit" in text
    assert "unsaved: " in text and "\nsaved: " not in text


def test_stale_temp_files_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    stale = tmp_path / ".save.json.k3j9x_2a.tmp"
    stale.write_bytes(b"half a record")
    other = tmp_path / "notes.tmp"
    other.write_text("not ours")
    play = Play(save, "--seed", "1")
    play.screen()
    assert not stale.exists() and other.exists()
    play.finish()
    assert remove_stale_temp_files(save) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_at_the_prompt_saves_and_leaves_no_temp_file(tmp_path: Path, signum: int) -> None:
    save = tmp_path / "save.json"

    def default_disposition() -> None:
        # Under nohup the child would inherit SIGHUP as ignored, which the command rightly keeps.
        signal.signal(signum, signal.SIG_DFL)

    play = Play(save, "--seed", "6", preexec_fn=default_disposition)
    _act_once(play, play.screen())
    play.proc.send_signal(signum)
    status, _, err = play.finish(None)
    assert status == 128 + signum
    assert "Traceback" not in err
    assert _record(save)["seed"] == 6 and any(a.get("seat") == 0 for a in _record(save)["actions"])
    assert not _temp_files(tmp_path)


def test_a_failed_write_leaves_the_old_save_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "save.json"
    game = start_match(reversis.reference.preset("hearts-computer"), 3, engine=reversis.reference)
    save_game(game, path, engine=reversis.reference)
    path.chmod(0o640)
    before = path.read_bytes()
    players = [RandomPlayer(s) for s in range(4)]
    act_for(game, players)

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_game(game, path, engine=reversis.reference)
    monkeypatch.undo()
    assert path.read_bytes() == before and not _temp_files(tmp_path)
    save_game(game, path, engine=reversis.reference)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # an existing save keeps its mode


# 6. Errors in the player's words ---------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"   \n", b"just some notes\n", b"\x00\x01\x02"])
def test_a_file_that_is_not_a_record_says_not_a_saved_match(engine: Any, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "save.json"
    path.write_bytes(content)
    with pytest.raises(reversis.InvalidInputError) as caught:
        load_game(path, engine=engine)
    assert caught.value.code == "invalid-record"
    assert "not a saved match" in str(caught.value) and "msgpack" not in str(caught.value)


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbf", b"  \n\t", b"\xef\xbb\xbf \n"], ids=["bom", "spaces", "both"])
def test_a_json_save_with_a_bom_or_leading_space_is_read(engine: Any, tmp_path: Path, prefix: bytes) -> None:
    game = start_match(engine.preset("hearts-computer"), 9, engine=engine)
    path = tmp_path / "save.json"
    path.write_bytes(prefix + engine.dump_record(game.to_record(), "json"))
    assert load_game(path, engine=engine).to_record() == game.to_record()


def test_q_is_the_queen_not_quit(tmp_path: Path) -> None:
    play = Play(tmp_path / "save.json", "--seed", "1")
    screen = play.screen()
    assert prompt(screen) == "pass"
    screen = play.send("Q")
    assert prompt(screen) == "pass", "Q must not quit"
    assert (value(screen, "rejected") or "").startswith("invalid-card: “Q” is a rank: add the suit")
    screen = play.send("q")
    assert prompt(screen) == "pass"
    status, out, _ = play.finish("quit")
    assert status == 0 and "saved: " in out


def test_cards_with_emoji_variation_selectors_and_bad_bytes(tmp_path: Path) -> None:
    play = Play(tmp_path / "save.json", "--seed", "1")
    screen = play.screen()
    screen = play.send(b"\xff\xfe\xc3")  # not UTF-8: rejected, never the end of the game
    assert prompt(screen) == "pass" and (value(screen, "rejected") or "").startswith("invalid-card")
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    hand = (value(screen, "hand") or "").split()[:3]
    typed = " ".join(card[0] + symbols[card[1]] + "\ufe0f" for card in hand)  # Q♠️ as emoji keyboards type it
    screen = play.send(typed)
    assert value(screen, "passed") == " ".join(hand)
    play.finish()


def test_an_ascii_terminal_never_ends_the_game(tmp_path: Path) -> None:
    env = _env(PYTHONIOENCODING="ascii", TERM="dumb")
    command = _play_command(tmp_path / "save.json", "--seed", "1", "--opponents", "random", plain=False)
    typed = "zz\nQ\u2660\ufe0f 2\u2663 3\u2663\nhelp\n\nquit\n".encode()
    proc = subprocess.run(command, input=typed, capture_output=True, check=False, timeout=TIMEOUT, env=env)
    out = proc.stdout.decode("ascii")  # nothing but ASCII is ever printed
    assert proc.returncode == 0, proc.stderr.decode()
    assert "Traceback" not in proc.stderr.decode()
    assert '"zz" is not a card' in out and "Hand 1 - " in out and "Saved to" in out


# 7. The board -----------------------------------------------------------------------------------------------


def test_resuming_keeps_the_chosen_opponents(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    play = Play(save, "--seed", "3", "--opponents", "random")
    assert (value(play.screen(), "match") or "").endswith("opponents random")
    play.finish()
    again = Play(save, "--opponents", "random")  # the helper's default; now without it:
    again.finish()
    proc = subprocess.run(
        [*_play_command(save)],
        input=b"quit\n",
        capture_output=True,
        check=False,
        timeout=TIMEOUT,
        env=_env(),
        cwd=tmp_path,
    )
    match = value(proc.stdout.decode().splitlines(), "match") or ""
    assert match.startswith("resumed seed 3 ") and match.endswith("opponents random")


def test_the_monte_carlo_player_is_offered_with_a_strength(tmp_path: Path) -> None:
    pytest.importorskip("reversis._core")
    save = tmp_path / "save.json"
    command = [sys.executable, "-m", "reversis", "play", "--plain", "--save", str(save), "--seed", "2"]
    command += ["--opponents", "montecarlo", "--rollouts", "4"]
    proc = subprocess.run(command, input=b"quit\n", capture_output=True, check=False, timeout=TIMEOUT, env=_env())
    match = value(proc.stdout.decode().splitlines(), "match") or ""
    assert proc.returncode == 0, proc.stderr.decode()
    assert match.endswith("opponents montecarlo (4 rollouts)")
    assert json.loads((tmp_path / "save.json.settings").read_text()) == {"opponents": "montecarlo", "rollouts": 4}


def test_the_last_trick_is_shown_after_resuming(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    play = Play(save, "--seed", "5")
    screen = play.screen()
    while not values(screen, "took"):
        screen = _act_once(play, screen)
    shown = value(screen, "last-trick")
    assert shown
    play.finish()
    again = Play(save)
    assert value(again.screen(), "last-trick") == shown
    again.finish()


def _board_of(preset: str, seed: int, *, color: bool = True) -> list[str]:
    """The pretty board of a match in mid-trick, with a last trick, at the person's turn."""
    engine = reversis.reference
    game = engine.Game(engine.preset(preset), seed)
    players = [RandomPlayer(100 + s) for s in range(game.ruleset.players)]
    while not (game.phase == "play" and game.to_move == 0 and game.trick and game.tricks_played):
        act_for(game, players)
    out = io.StringIO()
    session = PlaySession(
        engine=engine,
        ruleset_name=None,
        save_path=Path("never-written.json"),  # the board is drawn without saving
        opponents="random",
        seed=None,
        new=False,
        delay=0.0,
        plain=False,
        style=Style(color=color, symbols=True),
        inp=io.StringIO(""),
        out=out,
    )
    session.game = game
    session.last_trick = (1, [(s, c) for s, c in zip(range(7), ["TH", "QS", "TD", "JD", "AS", "KS", "TC"])], -10)
    session._make_players()
    session._board()
    return out.getvalue().splitlines()


@pytest.mark.parametrize("preset", ["hearts-3", "hearts-computer", "hearts-5", "hearts-6", "hearts-7"])
def test_every_board_fits_80_columns(preset: str) -> None:
    lines = _board_of(preset, 2**64 - 1)
    assert max(visible_width(line) for line in lines) <= 80, "\n".join(lines)


class _Answers:
    """Standard input that answers each prompt of ``session`` with a legal move, then ``quit``."""

    def __init__(self, limit: int) -> None:
        self.session: PlaySession | None = None
        self.limit = limit

    def readline(self) -> str:
        assert self.session is not None
        game = self.session.game
        self.limit -= 1
        if self.limit < 0 or game.phase == "over":
            return "quit\n"
        if game.phase == "pass":
            return " ".join(game.hand(0)[: game.ruleset.passing["size"]]) + "\n"
        if game.phase == "moon":
            return "add\n"
        return game.observation(0)["legal"][0] + "\n"


@pytest.mark.parametrize("preset", ["hearts-computer", "hearts-7"])
def test_a_whole_session_fits_80_columns(tmp_path: Path, preset: str) -> None:
    engine = reversis.reference
    answers = _Answers(30)
    out = io.StringIO()
    session = PlaySession(
        engine=engine,
        ruleset_name=preset,
        save_path=tmp_path / "save.json",
        opponents="random",
        seed=2**64 - 1,
        new=False,
        delay=0.0,
        plain=False,
        style=Style(color=True, symbols=True),
        inp=answers,  # type: ignore[arg-type]
        out=out,
    )
    answers.session = session
    assert session.run() == 0
    lines = out.getvalue().splitlines()
    assert any("Hand over" in line for line in lines) and any("Last trick" in line for line in lines)
    # Every line fits, but for those that name the save (a path is as long as it is).
    wide = [line for line in lines if visible_width(line) > 80 and str(tmp_path) not in line]
    assert not wide, "\n".join(wide)


def test_signed_points_and_one_winner_reads_right(tmp_path: Path) -> None:
    lines = _board_of("hearts-7", 1, color=False)
    last = next(line for line in lines if "Last trick" in line)
    assert "(-10)" in last and "+-" not in last
    # A match won by one computer player: "East wins."
    engine = reversis.reference
    for seed in range(1, 200):
        game = engine.Game(engine.preset("hartenjagen"), seed)
        players = [RandomPlayer(seed * 10 + s) for s in range(4)]
        while game.phase != "over":
            act_for(game, players)
        if len(game.winners) == 1 and game.winners[0] != 0:
            break
    out = io.StringIO()
    session = PlaySession(
        engine=engine,
        ruleset_name=None,
        save_path=tmp_path / "save.json",
        opponents="random",
        seed=None,
        new=False,
        delay=0.0,
        plain=False,
        style=Style(color=False, symbols=True),
        inp=io.StringIO("quit\n"),
        out=out,
    )
    assert session.run(game) == 0
    name = ["You", "West", "North", "East"][game.winners[0]]
    assert f"{name} wins." in out.getvalue()


def test_help_names_the_real_number_of_opponents() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "reversis", "play", "--help"],
        capture_output=True,
        check=False,
        text=True,
        timeout=TIMEOUT,
    )
    text = " ".join(proc.stdout.split())
    assert "one computer player in each other seat, so 3 in the default preset" in text
    assert "three computer players" not in text
    assert "--rollouts" in text and "montecarlo" in text


def test_the_quit_hint_repeats_the_save_option(tmp_path: Path) -> None:
    save = tmp_path / "my save.json"
    command = _play_command(save, "--seed", "1", "--no-color", plain=False)
    proc = subprocess.run(command, input=b"quit\n", capture_output=True, check=False, timeout=TIMEOUT, env=_env())
    assert f"Run `reversis play --save '{save}'` to resume" in proc.stdout.decode()


@pytest.mark.parametrize(
    "content",
    [b"garbage{\n", b'{"opponents": "rules", "rollouts": -5}\n', b'["rules"]\n', b'{"opponents": "grandmaster"}\n'],
    ids=["garbage", "negative-rollouts", "not-an-object", "unknown-opponents"],
)
def test_a_bad_settings_file_is_moved_aside_and_said_so(tmp_path: Path, content: bytes) -> None:
    save = tmp_path / "save.json"
    settings = tmp_path / "save.json.settings"
    settings.write_bytes(content)
    proc = subprocess.run(
        _play_command(save, "--seed", "3"),
        input=b"quit\n",
        capture_output=True,
        check=False,
        timeout=TIMEOUT,
        env=_env(),
    )
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("save.json.settings.unreadable-")]
    assert len(kept) == 1 and kept[0].read_bytes() == content
    assert str(settings) in err and kept[0].name in err
    assert settings.read_bytes() != content and isinstance(json.loads(settings.read_text()), dict)  # written anew


def test_a_missing_settings_file_is_no_news(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    proc = subprocess.run(
        _play_command(save, "--seed", "3"),
        input=b"quit\n",
        capture_output=True,
        check=False,
        timeout=TIMEOUT,
        env=_env(),
    )
    assert proc.returncode == 0 and proc.stderr.decode() == ""
    assert not [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]
