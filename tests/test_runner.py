"""The runner catches broken engines, and survives implementations that misbehave."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reversis import reference
from reversis.cli import main
from reversis.conformance import DriverEngine, ModuleEngine, load_cases, run_cases
from reversis.conformance.runner import CASE_FOLDERS

ROOT = Path(__file__).resolve().parents[1]
CASES = load_cases(CASE_FOLDERS, ROOT / "conformance")


class QueenBreaksHeartsEverywhere(ModuleEngine):
    """A broken engine: Q♠ breaks hearts even where the ruleset says only a heart does (001 ¶11)."""

    def _ruleset(self, ruleset: Any) -> Any:
        value = super()._ruleset(ruleset)
        if value.hearts_breaking != "heart":
            return value
        return self.module.Ruleset.from_json({**value.to_json(), "hearts_breaking": "heart-or-QS"})


class PitPaysTheTaker(reference.Game):
    """A broken game: an add-to-others moon or pit (or sun) also gives the moon's bonus to the taker."""

    def _score_hand(self, moon_choice: str | None) -> None:
        taker = self._moon_taker
        super()._score_hand(moon_choice)
        if moon_choice == "add-to-others" and taker is not None:
            self._scores[taker] += self._ruleset.moon_bonus
            self._hand_scores[-1][taker] += self._ruleset.moon_bonus


def _broken_module(**replacements: Any) -> SimpleNamespace:
    names = {name: getattr(reference, name) for name in reference.__all__}
    return SimpleNamespace(**{**names, **replacements})


def _ruleset_of(case: Any) -> dict[str, Any] | None:
    ruleset = case.data.get("ruleset") or case.data.get("record", {}).get("ruleset")
    if isinstance(ruleset, str):
        return reference.preset(ruleset).to_json()
    return ruleset if isinstance(ruleset, dict) else None


def test_a_queen_that_breaks_hearts_under_001_fails_exactly_the_001_breaking_cases() -> None:
    report = run_cases(QueenBreaksHeartsEverywhere(reference, "broken"), CASES)
    failed = report.failed
    assert failed, "the suite did not notice Q♠ breaking hearts under hearts-computer"
    # Only cases under a ruleset where a heart alone breaks hearts can notice the bug...
    for outcome in failed:
        ruleset = _ruleset_of(outcome.case)
        assert ruleset is not None and ruleset["hearts_breaking"] == "heart", outcome.case.id
    # ...and the breaking-hearts cases written for 001 ¶11 must be among them.
    assert any(o.case.area == "breaking-hearts" for o in failed)
    # The same suite passes the unbroken engine.
    assert run_cases(ModuleEngine(reference, "reference"), CASES).failed == []


def test_a_pit_that_pays_the_taker_fails_exactly_the_add_to_others_moon_cases() -> None:
    broken = ModuleEngine(_broken_module(Game=PitPaysTheTaker), "broken")
    failed = run_cases(broken, CASES).failed
    assert failed, "the suite did not notice a pit scored 15 for the taker"
    for outcome in failed:
        ruleset = _ruleset_of(outcome.case)
        assert ruleset is not None, outcome.case.id
        # The moon, or the sun (SCORE-5), which its taker's choice scores alike.
        shots = [ruleset.get(rule) for rule in ("moon", "sun")]
        assert any(shot and shot["scoring"] in ("add-to-others", "taker-choice") for shot in shots), outcome.case.id
    descriptions = " ".join(o.case.description for o in failed if o.case.area == "moon-and-pit")
    assert "pit" in descriptions


class DropsTheLastLegalId(reference.Game):
    """A broken game: the highest of the acting seat's legal ids is missing from ``legal_actions``."""

    def legal_actions(self, seat: int | None = None) -> list[int]:
        ids = super().legal_actions(seat)
        return ids[:-1] if len(ids) > 1 else ids


def test_a_missing_legal_id_fails_every_match_played_by_ids() -> None:
    broken = ModuleEngine(_broken_module(Game=DropsTheLastLegalId), "broken")
    generated = [case for case in CASES if case.area == "generated"]
    failed = {outcome.case.id for outcome in run_cases(broken, generated).failed}
    by_ids = {case.id for case in generated if "by action ids" in case.description}
    assert len(by_ids) == len(reference.preset_names())
    assert by_ids <= failed


FAKES = {
    "crashes": "import sys; sys.stdin.readline(); sys.exit(3)",
    "hangs": "import sys, time; sys.stdin.readline(); time.sleep(600)",
    "garbage": "import sys\nfor line in sys.stdin:\n    print('this is not json', flush=True)",
    "wrong-id": ("import sys, json\nfor line in sys.stdin:\n    print(json.dumps({'id': -1, 'ok': True}), flush=True)"),
    "closes": "import sys, os; os.close(0); os.close(1); import time; time.sleep(600)",
    # Right id, wrong shape: hello is fine, every other answer lacks its results.
    "wrong-shape": """
        import json, sys
        PRESETS = @PRESETS@
        for line in sys.stdin:
            request = json.loads(line)
            answer = {"id": request["id"], "ok": True}
            if request["cmd"] == "hello":
                kinds = ["card", "ruleset", "seed", "game", "record"]
                answer.update(name="fake", protocol=1, capabilities={
                    "players": [3, 4, 5, 6, 7], "presets": PRESETS, "custom_rulesets": True,
                    "kinds": kinds, "observations": True, "error_codes": True})
            elif request["cmd"] == "parse_card":
                answer["card"] = ["not", "a", "string"]
            print(json.dumps(answer), flush=True)
    """.replace("@PRESETS@", repr(reference.preset_names())),
    "partial-line": 'import sys; sys.stdin.readline(); sys.stdout.write(\'{"id": 1, "ok"\'); sys.exit(0)',
}


@pytest.mark.parametrize("behaviour", sorted(FAKES))
def test_a_misbehaving_implementation_is_reported_and_the_run_finishes(tmp_path: Path, behaviour: str) -> None:
    script = tmp_path / "fake.py"
    script.write_text(textwrap.dedent(FAKES[behaviour]))
    driver = DriverEngine(f"{sys.executable} {script}", timeout=1.0)
    some_cases = [case for case in CASES if case.area == "breaking-hearts"][:3]
    started = time.monotonic()
    try:
        report = run_cases(driver, some_cases, behaviour)
    finally:
        driver.close()
    if behaviour == "wrong-shape":
        # Its hello is fine, so every case runs and fails on its own.
        assert len(report.outcomes) == len(some_cases)
        assert all(o.status == "failed" and "implementation fault" in o.reason for o in report.outcomes)
    else:
        # No usable answer to the first hello: the run fails once, with no case run (DRV-2).
        assert report.failure is not None and "hello" in report.failure
        assert report.outcomes == [] and report.not_run == len(some_cases)
        assert not report.ok
    assert time.monotonic() - started < 30
    assert driver._process is None


def test_an_implementation_whose_child_hangs_leaves_no_process_behind(tmp_path: Path) -> None:
    """The runner kills the implementation's whole process group, its children included."""
    pids = tmp_path / "pids"
    script = tmp_path / "fake.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import os, subprocess, sys, time
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            with open({str(pids)!r}, "a") as out:
                out.write(f"{{os.getpid()}} {{child.pid}}\\n")
            sys.stdin.readline()
            time.sleep(600)
            """
        )
    )
    driver = DriverEngine(f"{sys.executable} {script}", timeout=1.0)
    try:
        report = run_cases(driver, CASES[:2], "child")
    finally:
        driver.close()
    assert report.failure is not None and report.outcomes == []  # it never answers hello
    started = [int(pid) for line in pids.read_text().split() for pid in [line]]
    assert len(started) == 2  # one run, a parent and its child: the runner gave up after it
    deadline = time.monotonic() + 10
    alive = started
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in started if _running(pid)]
        time.sleep(0.1)
    assert not alive, f"processes left behind: {alive}"


def _running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def test_the_cli_runs_one_area_on_one_engine_and_writes_a_json_report(tmp_path: Path, capsys: Any) -> None:
    report = tmp_path / "report.json"
    status = main(["conformance", "--engine", "reference", "--area", "follow-suit", "--json", str(report)])
    out = capsys.readouterr().out
    assert status == 0
    assert "follow-suit" in out and "trick-winner" not in out
    assert report.read_text().count('"status": "passed"') == sum(1 for c in CASES if c.area == "follow-suit")


def test_the_cli_exits_non_zero_when_a_case_fails(capsys: Any) -> None:
    status = main(["conformance", "--driver", f"{sys.executable} -c 'import sys'", "--area", "cards", "--timeout", "2"])
    assert status == 1
    assert "FAIL" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("expected", "got", "path"),
    [
        ({"a": 1, "b": [1, 2, 3]}, {"a": 1, "b": [1, 2, 4]}, ".b[2]"),
        ({"hands": [["2C"], ["3C"]]}, {"hands": [["2C"]]}, ".hands[1]"),
        ({"scores": [1, 2]}, {"scores": [1, 2], "extra": 0}, ".extra"),
        ({"x": {"y": True}}, {"x": {"y": 1}}, ".x.y"),
        ([1, 2], [1, 2], None),
    ],
)
def test_a_difference_is_named_by_its_first_differing_key(expected: Any, got: Any, path: str | None) -> None:
    from reversis.conformance.runner import first_difference

    found = first_difference(expected, got)
    assert (found[0] if found else None) == path


def test_a_failure_names_the_first_differing_key() -> None:
    broken = ModuleEngine(_broken_module(Game=DropsTheLastLegalId), "broken")
    case = next(c for c in CASES if c.area == "generated" and "by action ids" in c.description)
    (outcome,) = run_cases(broken, [case]).failed
    assert "first difference at [" in outcome.reason, outcome.reason
