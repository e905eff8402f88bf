"""Perft and divide (spec/perft.md): both engines' API, the driver command, the runner's kind
``perft`` (by the command and by walking a driver), ``find_divergence`` and ``reversis perft``."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import reversis
from reversis import reference
from reversis.conformance import DriverEngine, ModuleEngine, load_cases, run_cases
from reversis.conformance.engines import EngineError
from reversis.conformance.perft import Position, Walker, find_divergence
from reversis.conformance.runner import CaseFailure, CaseRun

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
PERFT_CASES = [case for case in load_cases(("cases", "perft"), SUITE) if case.data["kind"] == "perft"]
GENERATED = [case for case in PERFT_CASES if case.file.startswith("perft/")]
WALKED = f"{sys.executable} {ROOT / 'tests' / 'perft_driver.py'}"
BROKEN = f"{WALKED} --broken"

# PERFT-6: three seats, Q K A of each suit, a free lead, hearts always broken.
TINY = {
    "name": "tiny-3",
    "title": "Three seats, queens to aces",
    "sources": ["D-9"],
    "players": 3,
    "deck": {"lowest_rank": "Q", "removed": []},
    "passing": None,
    "opening_card": None,
    "first_trick_ban": False,
    "hearts_breaking": "none",
    "card_points": {"QS": 1},
    "moon": None,
    "target": 100,
}
TINY_DEAL = [["QC", "KC", "AC", "QD"], ["KD", "AD", "QH", "KH"], ["AH", "QS", "KS", "AS"]]


def tiny(engine: ModuleType) -> Any:
    game = engine.Game(engine.Ruleset.from_json(TINY))
    game.deal(TINY_DEAL)
    return game


def at(engine: ModuleType, case: Any) -> Any:
    """The position of a perft case, in ``engine``."""
    data = case.data
    ruleset = (
        engine.preset(data["ruleset"])
        if isinstance(data["ruleset"], str)
        else engine.Ruleset.from_json(data["ruleset"])
    )
    game = engine.Game(ruleset, **data.get("start", {}))
    for step in data.get("steps", []):
        game.apply(step["action"])
    return game


# ------------------------------------------------------------------------------ the API


def test_the_worked_example_of_perft_6(engine: ModuleType) -> None:
    game = tiny(engine)
    assert [game.perft(depth) for depth in range(5)] == [1, 4, 10, 16, 48]
    assert game.divide(3) == {"KD": 4, "AD": 4, "QH": 4, "KH": 4}
    assert game.perft(1, "tricks") == 16
    assert game.divide(1, unit="tricks") == game.divide(3)


def test_divide_lists_the_decisions_in_order_and_adds_up(engine: ModuleType) -> None:
    game = engine.Game(engine.preset("hearts-4"), seed=5)
    assert game.phase == "pass"
    divide = game.divide(2)
    keys = list(divide)
    ids = [[engine.card_id(card) for card in key.split("+")] for key in keys]
    assert ids == sorted(ids) and all(part == sorted(part) for part in ids)
    assert len(keys) == 286 and sum(divide.values()) == game.perft(2) == 286 * 286
    hand = engine.Game(engine.preset("hearts-4"), seed=5, hand_number=3)
    while hand.phase == "play" and len(hand.legal_plays()) < 2:
        hand.play(hand.legal_plays()[0])
    assert list(hand.divide(1)) == hand.legal_plays()


def test_perft_leaves_the_game_as_it_was(engine: ModuleType) -> None:
    game = engine.Game(engine.preset("hartenjagen"), seed=3)
    game.play(game.legal_plays()[0])
    state, events, actions = game.state(), game.events, list(game.actions)
    game.perft(4)
    game.divide(2, "tricks")
    assert (game.state(), game.events, list(game.actions)) == (state, events, actions)
    game.undo()
    assert game == engine.Game(engine.preset("hartenjagen"), seed=3)


@pytest.mark.parametrize(
    ("depth", "unit", "code"),
    [
        (-1, "decisions", "invalid-setup"),
        (33, "decisions", "invalid-setup"),
        (True, "decisions", "invalid-setup"),
        (1.0, "decisions", "invalid-setup"),
        ("2", "decisions", "invalid-setup"),
        (2, "plies", "invalid-setup"),
        (2, 2, "invalid-setup"),
    ],
)
def test_bad_requests_are_typed_errors(engine: ModuleType, depth: Any, unit: Any, code: str) -> None:
    game = tiny(engine)
    with pytest.raises(engine.InvalidInputError) as raised:
        game.perft(depth, unit)
    assert raised.value.code == code
    with pytest.raises(engine.InvalidInputError):
        game.divide(depth, unit)


def test_divide_needs_a_depth_and_a_position_where_a_seat_decides(engine: ModuleType) -> None:
    with pytest.raises(engine.InvalidInputError) as raised:
        tiny(engine).divide(0)
    assert raised.value.code == "invalid-setup"
    waiting = engine.Game(engine.Ruleset.from_json(TINY))
    with pytest.raises(engine.IllegalActionError) as raised:
        waiting.perft(0)
    assert raised.value.code == "wrong-phase"
    over = engine.Game(engine.Ruleset.from_json({**TINY, "target": 1}))
    over.deal(TINY_DEAL)
    for card in ["KD", "AH", "QD", "AD", "QS", "QC", "KH", "KS", "KC", "QH", "AS", "AC"]:
        over.play(card)
    assert over.phase == "over"
    with pytest.raises(engine.IllegalActionError) as raised:
        over.divide(2, "tricks")
    assert raised.value.code == "match-over"


@pytest.mark.parametrize("name", ["hearts-4", "black-maria", "cancellation-6", "hartenjagen-count-down"])
def test_the_engines_count_alike_at_random_positions(name: str) -> None:
    rng = random.Random(name)
    for trial in range(6):
        games = [module.Game(module.preset(name), seed=trial, hand_number=trial) for module in (reversis, reference)]
        for _ in range(rng.randrange(0, 60)):
            if games[0].phase == "over":
                break
            action_id = rng.choice(games[0].legal_actions())
            for game in games:
                game.apply_action(action_id)
        if games[0].phase == "over":
            continue
        depth, unit = (2, "decisions") if games[0].phase == "pass" else (3, rng.choice(["decisions", "tricks"]))
        if unit == "tricks":
            depth = 1
        rust, ref = (game.divide(depth, unit) for game in games)
        assert list(rust.items()) == list(ref.items()), (name, trial, games[0].phase)


def test_ctrl_c_interrupts_a_count_of_the_rust_engine() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), seed=1)
    started = time.monotonic()
    timer = __import__("threading").Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        game.perft(8)
    assert time.monotonic() - started < 5


# ------------------------------------------------------------------------------ the cases


@pytest.mark.parametrize("case", GENERATED, ids=lambda case: case.data["id"])
def test_the_reference_perft_gives_the_generated_counts(case: Any) -> None:
    """The counts of perft/ come from the Rust engine; the reference engine counts them anew."""
    game = at(reference, case)
    divide = game.divide(case.data["depth"], case.data["unit"])
    assert divide == case.data["divide"]
    assert sum(divide.values()) == case.data["count"]


def test_every_perft_case_has_a_unique_stable_id() -> None:
    ids = [case.data["id"] for case in PERFT_CASES]
    assert len(ids) == len(set(ids))
    for case in GENERATED:
        preset = case.data["ruleset"]
        assert case.data["id"].startswith(f"perft/{preset}-"), case.data["id"]
    assert {case.data["ruleset"] for case in GENERATED} == set(reference.preset_names())
    generated_by = {json.loads((SUITE / case.file).read_text(encoding="utf-8"))["generated_by"] for case in GENERATED}
    assert all("Rust engine" in text for text in generated_by)


def _altered(case: Any, **changes: Any) -> Any:
    return type(case)(case.file, case.area, case.index, {**case.data, **changes})


def test_a_wrong_count_fails_with_the_decisions_that_differ() -> None:
    case = next(c for c in PERFT_CASES if c.data["id"] == "perft/tiny-3-lead-3")
    wrong = _altered(case, count=17, divide={"KD": 5, "AD": 4, "QH": 4, "QS": 4})
    for module in (reversis, reference):
        with pytest.raises(CaseFailure) as failure:
            CaseRun(ModuleEngine(module, "x"), wrong).run()
        text = str(failure.value)
        assert "expected 17" in text and "got      16" in text
        assert "decisions expected but not allowed: QS" in text
        assert "decisions allowed but not expected: KH" in text
        assert "below KD: expected 5, got 4" in text


def test_a_walked_driver_passes_what_it_can_be_walked_for_and_skips_the_rest() -> None:
    driver = DriverEngine(WALKED, timeout=30)
    try:
        report = run_cases(driver, PERFT_CASES, "walked")
    finally:
        driver.close()
    assert report.failed == [] and report.failure is None
    skipped = [o for o in report.outcomes if o.status == "skipped"]
    passed = [o for o in report.outcomes if o.status == "passed"]
    assert {o.case.data.get("phases") == ["play"] and "error" not in o.case.data for o in passed} == {True}
    assert all("perft not claimed" in o.reason or "perft command" in o.reason for o in skipped)
    assert len(passed) >= 2 * len(reference.preset_names())
    assert "perft no" in report.capability_line


def test_a_walked_driver_fails_a_case_it_counts_wrong() -> None:
    """The broken driver forbids the highest legal card of every trick's fourth play."""
    case = next(c for c in GENERATED if c.data["id"] == "perft/hearts-4-lead")
    driver = DriverEngine(BROKEN, timeout=30)
    try:
        report = run_cases(driver, [case], "broken")
    finally:
        driver.close()
    (outcome,) = report.outcomes
    assert outcome.status == "failed" and "a walk through new_game, apply and view" in outcome.reason


class _Requests(ModuleEngine):
    """The reference engine in process, walked, counting requests."""

    def _cmd_hello(self) -> dict[str, Any]:
        answer = super()._cmd_hello()
        answer["capabilities"]["perft"] = False
        return answer


@pytest.mark.parametrize("case", [c for c in GENERATED if c.data["phases"] == ["play"]], ids=lambda c: c.data["id"])
def test_a_walk_of_a_generated_case_stays_short(case: Any) -> None:
    """About 0.2 ms a request through a Python driver: a walkable case makes at most 500."""
    walker = Walker(_Requests(reference, "reference"), Position.of(case))
    assert walker.divide([], case.data["depth"], case.data["unit"]) == case.data["divide"]
    assert walker.requests <= 500


# ------------------------------------------------------------------------------ the driver command


def test_the_driver_answers_perft() -> None:
    lines = [
        {"id": 1, "cmd": "hello"},
        {"id": 2, "cmd": "new_game", "ruleset": TINY},
        {"id": 3, "cmd": "apply", "game": 1, "action": {"type": "deal", "hands": TINY_DEAL}},
        {"id": 4, "cmd": "perft", "game": 1, "depth": 3, "unit": "decisions", "divide": True},
        {"id": 5, "cmd": "perft", "game": 1, "depth": 1, "unit": "tricks"},
        {"id": 6, "cmd": "perft", "game": 1, "depth": 1},
        {"id": 7, "cmd": "perft", "game": 1, "depth": 1, "unit": "decisions", "divide": "yes"},
        {"id": 8, "cmd": "perft", "game": 1, "depth": 0, "unit": "decisions", "divide": True},
        {"id": 9, "cmd": "perft", "game": 1, "depth": 40, "unit": "tricks"},
        {"id": 10, "cmd": "perft", "game": 9, "depth": 1, "unit": "tricks"},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    for name in ("rust", "reference"):
        run = subprocess.run(
            [sys.executable, "-m", "reversis", "driver", "--engine", name],
            input=text.encode(),
            capture_output=True,
            timeout=60,
            check=True,
        )
        answers = [json.loads(line) for line in run.stdout.decode().splitlines()]
        assert answers[0]["capabilities"]["perft"] is True
        assert answers[3] == {"id": 4, "ok": True, "count": 16, "divide": {"KD": 4, "AD": 4, "QH": 4, "KH": 4}}
        assert answers[4] == {"id": 5, "ok": True, "count": 16}
        codes = [answer.get("error") for answer in answers[5:]]
        assert codes == ["invalid-request", "invalid-setup", "invalid-setup", "invalid-setup", "invalid-request"]


# ------------------------------------------------------------------------------ find_divergence


def test_find_divergence_descends_to_the_position_the_broken_driver_gets_wrong() -> None:
    case = next(c for c in GENERATED if c.data["id"] == "perft/hearts-4-lead")
    theirs = DriverEngine(BROKEN, timeout=30)
    try:
        found = find_divergence(ModuleEngine(reversis, "rust"), theirs, case)
    finally:
        theirs.close()
    assert found is not None
    # Every divergence of this driver is at a trick's fourth card: three plays into the trick.
    game = at(reversis, case)
    for key in found.path:
        game.play(key)
    assert len(game.trick) == 3
    legal = game.legal_plays()
    assert found.ours == legal and found.theirs == legal[:-1]
    assert (
        found.summary
        == f"after {' '.join(found.path)}, ours allows [{', '.join(legal)}] theirs allows [{', '.join(legal[:-1])}]"
    )
    # The first such position in divide order: every position on the way agrees.
    assert len(found.path) == 3


def test_find_divergence_finds_none_where_the_counts_agree() -> None:
    case = next(c for c in GENERATED if c.data["id"] == "perft/hartenjagen-trick")
    theirs = DriverEngine(WALKED, timeout=30)
    try:
        assert find_divergence(ModuleEngine(reversis, "rust"), theirs, case) is None
    finally:
        theirs.close()


class _Miscounts(ModuleEngine):
    """Claims perft and answers one count too many below its last decision."""

    def _cmd_perft(self, game: int, depth: Any, unit: Any, divide: Any = None) -> dict[str, Any]:
        answer = super()._cmd_perft(game, depth, unit, divide)
        if divide:
            last = list(answer["divide"])[-1]
            answer["divide"][last] += 1
            answer["count"] += 1
        return answer


def test_find_divergence_names_a_count_that_differs_where_the_decisions_agree() -> None:
    case = next(c for c in PERFT_CASES if c.data["id"] == "perft/tiny-3-lead-2")
    found = find_divergence(ModuleEngine(reversis, "rust"), _Miscounts(reference, "x"), case)
    assert found is not None
    assert found.path[0] == "KH" and found.ours == found.theirs
    assert "both allow the same decisions" in found.summary


# ------------------------------------------------------------------------------ reversis perft


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversis", "perft", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_command_prints_the_divide_and_the_total() -> None:
    outputs = []
    for engine in ("rust", "reference"):
        run = _cli("--seed", "1", "--hand-number", "3", "--depth", "4", "--path", "2c", "--divide", "--engine", engine)
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        assert lines[0].startswith("hearts-4, seed 1, hand 3, then 2C: phase play, seat 0 to act;")
        counts = dict(line.split(": ") for line in lines[1:-1])
        assert lines[-1].startswith(f"perft 4 (decisions): {sum(int(n) for n in counts.values())} ")
        outputs.append(lines[1:-1])
    assert outputs[0] == outputs[1]
    game = reversis.Game(reversis.preset("hearts-4"), seed=1, hand_number=3)
    game.play("2C")
    assert outputs[0] == [f"{key}: {count}" for key, count in game.divide(4).items()]


def test_the_command_walks_a_driver_and_reads_a_record(tmp_path: Path) -> None:
    game = reversis.Game(reversis.preset("hartenjagen"), seed=4)
    for _ in range(5):
        game.play(game.legal_plays()[-1])
    record = tmp_path / "game.json"
    record.write_bytes(reversis.dump_record(game.to_record()))
    run = _cli("--record", str(record), "--depth", "3", "--divide", "--driver", WALKED)
    assert run.returncode == 0, run.stderr
    assert "a walk through new_game, apply and view" in run.stdout.splitlines()[0]
    assert run.stdout.splitlines()[1:-1] == [f"{key}: {count}" for key, count in game.divide(3).items()]
    actions = json.dumps([{"type": "play", "seat": 0, "card": "2C"}])
    run = _cli("--ruleset", "hartenjagen", "--seed", "4", "--actions", actions, "--depth", "1")
    assert run.returncode == 1 and run.stderr.startswith("reversis perft: error: "), run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("args", "status", "says"),
    [
        (["--depth", "2", "--divide", "--path", "3C"], 1, "'3C' is not a decision"),
        (["--depth", "0", "--divide"], 2, "--divide needs a --depth of at least 1"),
        (["--depth", "33"], 2, "--depth must be from 0 to 32"),
        (["--depth", "1", "--path", "XX"], 2, "is not a decision key"),
        (["--depth", "1", "--record", "nowhere.json"], 2, "cannot read the record"),
        (["--depth", "1", "--actions", "[1]"], 2, "a JSON list of action objects"),
        (["--depth", "1", "--ruleset", "hearts-9"], 2, "no preset named 'hearts-9'"),
    ],
)
def test_bad_options(args: list[str], status: int, says: str) -> None:
    run = _cli("--seed", "1", "--hand-number", "3", *args)
    assert run.returncode == status and says in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("engine", ["rust", "reference"])
def test_a_closed_pipe_ends_a_long_count(engine: str) -> None:
    reader, writer = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-m", "reversis", "perft", "--seed", "1", "--depth", "9", "--engine", engine],
        stdout=writer,
        stderr=subprocess.PIPE,
    )
    os.close(writer)
    with os.fdopen(reader, "rb") as head:
        assert head.readline().startswith(b"hearts-4, seed 1")
    started = time.monotonic()
    proc.wait(timeout=30)
    assert time.monotonic() - started < 10
    assert proc.returncode == 141
    assert proc.stderr is not None and proc.stderr.read() == b""


def test_ctrl_c_ends_a_long_count_with_one_line() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "reversis", "perft", "--seed", "1", "--depth", "9", "--driver", WALKED],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stdout.readline()
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.decode().strip() == "reversis perft: interrupted"


def test_walker_errors_say_where_nobody_decides() -> None:
    walker = Walker(ModuleEngine(reference, "reference"), Position(TINY))
    with pytest.raises(EngineError) as raised:
        walker.perft([], 1, "decisions")
    assert raised.value.code == "wrong-phase"
