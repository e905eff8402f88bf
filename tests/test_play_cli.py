"""End to end: ``reversis play`` driven as a subprocess, through pipes (``--plain``) and a pseudo-terminal."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import reversis

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals and pipes as on POSIX")

TIMEOUT = 60.0


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "XDG_DATA_HOME")}
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra)
    return env


class Screen:
    """The lines printed up to and including one ``prompt:`` line."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.kind = lines[-1].split(": ", 1)[1] if lines and lines[-1].startswith("prompt:") else None

    def values(self, key: str) -> list[str]:
        prefix = key + ":"
        return [line[len(prefix) :].strip() for line in self.lines if line.startswith(prefix)]

    def last(self, key: str) -> str | None:
        found = self.values(key)
        return found[-1] if found else None

    def cards(self, key: str) -> list[str]:
        return (self.last(key) or "").split()


class Play:
    """A ``reversis play --plain`` process, answered prompt by prompt."""

    def __init__(self, save: Path, *args: str) -> None:
        command = [sys.executable, "-m", "reversis", "play", "--plain", "--save", str(save)]
        command += ["--opponents", "random", *args]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=_env(),
            cwd=save.parent,
        )
        self.timer = threading.Timer(TIMEOUT, self.proc.kill)
        self.timer.start()

    def screen(self) -> Screen:
        """Read up to the next prompt (or the end of output)."""
        assert self.proc.stdout is not None
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return Screen(lines)
            lines.append(line.rstrip("\n"))
            if line.startswith("prompt:"):
                return Screen(lines)

    def send(self, text: str) -> Screen:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return self.screen()

    def finish(self, text: str | None = "quit") -> tuple[int, str]:
        assert self.proc.stdin is not None
        if text is not None:
            self.proc.stdin.write(text + "\n")
        out, err = self.proc.communicate(timeout=TIMEOUT)
        self.timer.cancel()
        return self.proc.returncode, out + err


def _pass_first(screen: Screen, play: Play) -> Screen:
    assert screen.kind == "pass"
    return play.send(" ".join(screen.cards("hand")[:3]))


def test_whole_hand_typed_in(tmp_path: Path) -> None:
    play = Play(tmp_path / "save.json", "--seed", "1")
    screen = play.screen()
    assert "seed 1 " in (screen.last("match") or "")
    dealt = reversis.Game(reversis.preset("hearts-computer"), 1).hand(0)
    assert screen.cards("hand") == dealt
    screen = _pass_first(screen, play)
    assert screen.last("passed") == " ".join(dealt[:3])
    assert len(screen.cards("received")) == 3
    plays = 0
    while not screen.values("hand-over"):
        assert screen.kind == "play", screen.lines
        legal = screen.cards("legal")
        assert legal and set(legal) <= set(screen.cards("hand"))
        screen = play.send(legal[0])
        assert f"0 {legal[0]}" in screen.values("played")
        plays += 1
    assert plays == 13
    assert len(screen.values("took")) >= 1
    hand_scores = [int(x) for x in screen.values("hand-over")[0].split()]
    assert sum(hand_scores) in (26, 78)
    assert screen.kind == "pass" and (screen.last("board") or "").startswith("hand 1 ")
    # The new hand's first screen has no trick yet: not the last hand's.
    board = max(i for i, line in enumerate(screen.lines) if line.startswith("board:"))
    assert not [line for line in screen.lines[board:] if line.startswith("last-trick:")]
    status, _ = play.finish()
    assert status == 0


@pytest.mark.parametrize("word", ["undo", "back", "UNDO"])
def test_a_take_back_is_answered_that_there_is_none(tmp_path: Path, word: str) -> None:
    play = Play(tmp_path / "save.json", "--seed", "1")
    screen = _pass_first(play.screen(), play)
    screen = play.send(screen.cards("legal")[0])
    screen = play.send(word)
    assert any("no take-back" in value for value in screen.values("rejected")), screen.lines
    assert not any("not a card" in value for value in screen.values("rejected"))
    status, _ = play.finish()
    assert status == 0


def test_illegal_cards_are_rejected_with_reasons(tmp_path: Path) -> None:
    play = Play(tmp_path / "save.json", "--seed", "3")
    screen = play.screen()
    screen = play.send("zz 2C QS")
    assert (
        screen.last("rejected") == "invalid-card: “zz” is not a card: type the rank then the suit, like QS, 10h or Q♠"
    )
    hand = screen.cards("hand")
    screen = play.send(f"{hand[0]} {hand[0]} {hand[1]}")
    assert (screen.last("rejected") or "").startswith("duplicate-card: ")
    screen = play.send(f"{hand[0]} {hand[1]}")
    assert screen.last("rejected") == "wrong-pass-size: pass exactly 3 cards, on one line"
    screen = _pass_first(screen, play)
    seen = set()
    while not screen.values("hand-over"):
        hand, legal = screen.cards("hand"), screen.cards("legal")
        trick = screen.cards("trick")
        illegal = [card for card in hand if card not in legal]
        if illegal:
            screen = play.send(illegal[0].lower())
            reason = screen.last("rejected")
            assert reason is not None
            code, words = reason.split(": ", 1)
            seen.add(code)
            if code == "must-follow-suit":
                led = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[trick[0][-1]]
                assert words == f"you must follow suit: you hold {led}"
            elif code == "hearts-not-broken":
                assert words.startswith("hearts are not broken yet: lead another suit")
            elif code == "must-lead-opening-card":
                assert words == "the first trick must be led with 2C"
            else:
                assert code == "points-on-first-trick" and words.startswith("no points on the first trick")
            # Nothing changed: the same hand and trick are offered again.
            assert screen.cards("hand") == hand and screen.cards("trick") == trick
        missing = next(c for c in reversis.preset("hearts-computer").deck if c not in hand)
        screen = play.send(missing)
        assert screen.last("rejected") == f"card-not-held: you do not hold {missing}"
        screen = play.send("2C 3C")
        assert screen.last("rejected") == "one-card: play one card at a time"
        screen = play.send(legal[-1])
    assert seen, "no illegal card was ever available"
    play.finish()


def test_quit_and_resume_continue_the_same_trick(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    play = Play(save, "--seed", "5")
    screen = _pass_first(play.screen(), play)
    # Play until the person must answer in the middle of a trick.
    while not screen.cards("trick"):
        screen = play.send(screen.cards("legal")[0])
    before = {key: screen.last(key) for key in ("hand", "trick", "legal", "points", "scores", "board")}
    status, out = play.finish("quit")
    assert status == 0 and f"saved: {save}" in out
    record = reversis.load_record(save.read_bytes())
    assert record["seed"] == 5
    resumed = Play(save)
    screen = resumed.screen()
    assert (screen.last("match") or "").startswith("resumed seed 5 ")
    assert {key: screen.last(key) for key in before} == before
    # Play goes on from there.
    screen = resumed.send(screen.cards("legal")[0])
    assert screen.values("played")[0].startswith("0 ")
    status, _ = resumed.finish(None)  # end of input saves too
    assert status == 0
    game = reversis.Game.from_record(reversis.load_record(save.read_bytes()))
    assert len(game.actions) > len(record["actions"])


def test_save_is_written_before_each_prompt_so_nothing_can_be_taken_back(tmp_path: Path) -> None:
    save = tmp_path / "save.msgpack"
    play = Play(save, "--seed", "9")
    screen = _pass_first(play.screen(), play)
    while not screen.cards("trick"):
        screen = play.send(screen.cards("legal")[0])
    # Killed without a chance to save: the opponents' revealed cards are already in the save.
    play.proc.kill()
    play.finish(None)
    assert save.read_bytes()[:1] != b"{"
    game = reversis.Game.from_record(reversis.load_record(save.read_bytes()))
    assert [entry["card"] for entry in game.trick] == [entry.split(":")[1] for entry in screen.cards("trick")]


def test_replay_deals_the_same_hand_and_new_changes_the_seed(tmp_path: Path) -> None:
    play = Play(tmp_path / "a.json", "--seed", "42")
    first = play.screen()
    hand = first.cards("hand")
    screen = _pass_first(first, play)
    screen = play.send(screen.cards("legal")[0]) if screen.kind == "play" else screen
    screen = play.send("replay")
    assert screen.kind == "confirm"  # a match in progress is dropped only when the person says so
    screen = play.send("no")
    assert screen.values("kept") and not screen.values("match")
    screen = play.send("replay")
    screen = play.send("yes")
    assert (screen.last("match") or "").startswith("replaying seed 42 ")
    assert screen.kind == "pass" and screen.cards("hand") == hand
    screen = _pass_first(screen, play)
    screen = play.send("new")
    assert screen.kind == "confirm"
    screen = play.send("yes")
    match = screen.last("match") or ""
    assert match.startswith("new seed ") and not match.startswith("new seed 42 ")
    play.finish()
    again = Play(tmp_path / "b.json", "--seed", "42")
    assert again.screen().cards("hand") == hand
    again.finish()


def test_new_ignores_the_save_and_finished_match_is_not_resumed(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    play = Play(save, "--seed", "8", "--preset", "hartenjagen")
    screen = play.screen()
    assert screen.kind == "play"  # no passing in Hartenjagen
    while screen.kind == "play":
        screen = play.send(screen.cards("legal")[0])
    assert screen.kind == "over"
    winners = [int(s) for s in (screen.last("over") or "").split()[1:]]
    game = reversis.Game.from_record(reversis.load_record(save.read_bytes()))
    assert game.phase == "over" and game.winners == winners and min(game.scores) == game.scores[winners[0]]
    play.finish()
    later = Play(save)
    screen = later.screen()
    # The finished match is not overwritten: it is kept beside the save, and the player is told where.
    (moved,) = screen.values("moved-aside")
    why, kept = moved.split(" ", 1)
    assert why == "finished" and Path(kept).name.startswith("save.json.finished-")
    assert reversis.Game.from_record(reversis.load_record(Path(kept).read_bytes())).phase == "over"
    assert (screen.last("match") or "").startswith("new seed ")
    later.finish()
    fresh = Play(save, "--new")
    assert not (fresh.screen().last("match") or "").startswith("resumed")
    fresh.finish()


def _pty_session(tmp_path: Path, env: dict[str, str], *args: str) -> str:
    import pty  # POSIX only

    master, slave = pty.openpty()
    command = [sys.executable, "-m", "reversis", "play", "--save", str(tmp_path / "save.json"), "--seed", "1", *args]
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    output = b""
    deadline = time.monotonic() + TIMEOUT

    def read_until(marker: bytes) -> None:
        nonlocal output
        while marker not in output and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # EIO: the child closed the terminal
                    return
                if not chunk:
                    return
                output += chunk

    try:
        read_until(b"> ")
        os.write(master, b"quit\n")
        read_until(b"Saved to")
        proc.wait(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 0
    return output.decode("utf-8")


def test_terminal_shows_suit_symbols_in_colour(tmp_path: Path) -> None:
    text = _pty_session(tmp_path, _env(TERM="xterm-256color"))
    assert "♣" in text and "♥" in text and "♦" in text
    assert "\x1b[31m" in text  # hearts and diamonds in red
    assert "seed 1" in text and "Your hand" in text


def test_no_color_keeps_symbols_without_escapes(tmp_path: Path) -> None:
    for env, args in ((_env(TERM="xterm", NO_COLOR="1"), ()), (_env(TERM="xterm"), ("--no-color",))):
        text = _pty_session(tmp_path, env, *args)
        assert "♣" in text and "\x1b[" not in text


def test_default_save_path_under_xdg_data_home(tmp_path: Path) -> None:
    env: dict[str, Any] = _env(XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run(
        [sys.executable, "-m", "reversis", "play", "--plain", "--seed", "2"],
        input="quit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=TIMEOUT,
        check=True,
    )
    save = tmp_path / "data" / "reversis" / "save.json"
    assert f"saved: {save}" in proc.stdout
    assert reversis.load_record(save.read_bytes())["seed"] == 2


def test_person_chooses_how_the_moon_is_scored(tmp_path: Path) -> None:
    """In process: seat 0 holds every club, wins every trick and is asked for its moon choice."""
    import io

    from reversis.commands.play import PlaySession, Style

    deck = reversis.preset("hearts-4").deck
    clubs = [card for card in deck if card[1] == "C"]
    rest = [card for card in deck if card[1] != "C"]
    game = reversis.Game(reversis.preset("hearts-4"), hand_number=3)  # hand 4: no passing
    game.deal([clubs, rest[0::3], rest[1::3], rest[2::3]])
    answers = "\n".join([*clubs, "moon", "subtract", "quit"]) + "\n"
    out = io.StringIO()
    session = PlaySession(
        engine=reversis,
        ruleset_name=None,
        save_path=tmp_path / "save.json",
        opponents="random",
        seed=None,
        new=False,
        delay=0.0,
        plain=True,
        style=Style(color=False, symbols=False),
        inp=io.StringIO(answers),
        out=out,
    )
    assert session.run(game) == 0
    lines = out.getvalue().splitlines()
    assert lines.count("prompt: moon") == 2
    assert "rejected: invalid-action: type 'add' or 'subtract'" in lines
    assert "hand-over: -26 0 0 0" in lines
    assert game.hand_scores[-1] == [-26, 0, 0, 0] and game.hand_number == 4


@pytest.mark.parametrize(
    ("preset", "opponents"),
    [("cancellation-6", "montecarlo"), ("cancellation-6", "search"), ("cancellation-10", "rules")],
)
def test_a_two_pack_hand_against_every_kind_of_computer_player(tmp_path: Path, preset: str, opponents: str) -> None:
    """Cancellation Hearts (RS-21, RS-22) to the end of a hand, and the match resumed from its save."""
    save = tmp_path / "save.json"
    play = Play(save, "--preset", preset, "--opponents", opponents, "--rollouts", "8", "--seed", "3")
    screen = play.screen()
    ruleset = reversis.preset(preset)
    assert screen.cards("hand") == reversis.Game(ruleset, 3).hand(0)  # a card held twice shows twice
    if screen.kind == "pass":
        screen = play.send(" ".join(screen.cards("hand")[: ruleset.passing["size"]]))
    plays = 0
    while not screen.values("hand-over"):
        if screen.kind == "moon":  # the computer players draw their own randomness: seat 0 may take every point
            screen = play.send("add")
            continue
        assert screen.kind == "play", screen.lines
        screen = play.send(screen.cards("legal")[0])
        plays += 1
    assert plays == len(ruleset.deck) // ruleset.players
    status, _ = play.finish()
    assert status == 0
    resumed = Play(save)  # the save keeps the opponents: the match goes on
    assert (resumed.screen().last("board") or "").startswith("hand 1 ")
    status, output = resumed.finish()
    assert status == 0, output
