"""Case ids, ``--case``, expected-failures files and ``unsupported`` answers (conformance/README.md, DRV-1).

An implementation adopting the suite names cases by their ids, keeps a file of the cases it
knows it fails, and declines what it cannot express; the runner must report each as what it is.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reversis import reference
from reversis.cli import main
from reversis.conformance import ModuleEngine, load_cases, run_cases
from reversis.conformance.runner import CASE_FOLDERS, CASE_ID, read_expected_failures

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "conformance"
EVERY_FOLDER = (*CASE_FOLDERS, "bench")
CASES = load_cases(CASE_FOLDERS, SUITE)
SCHEMA = json.loads((ROOT / "spec" / "schemas" / "conformance.schema.json").read_text(encoding="utf-8"))
EXPECTED_SCHEMA = json.loads((ROOT / "spec" / "schemas" / "expected-failures.schema.json").read_text(encoding="utf-8"))

#: A case that every engine passes, and one whose ruleset breaks hearts only with a heart.
A_CARD_CASE = "cards/lowercase-qs-reads-qs"
BREAKING = "breaking-hearts/qs-does-not-break-hearts-hearts-computer"


# --- ids ------------------------------------------------------------------------------------------


def test_every_case_of_the_suite_has_an_id_unique_across_it() -> None:
    ids = [case.id for case in load_cases(EVERY_FOLDER, SUITE)]
    assert len(ids) == len(set(ids)) > 600
    assert all(CASE_ID.fullmatch(case_id) for case_id in ids)


def test_an_id_begins_with_its_area() -> None:
    for case in load_cases(EVERY_FOLDER, SUITE):
        assert case.id.split("/")[0] == case.area, case.location


def test_the_schema_and_the_runner_read_the_same_form_of_id() -> None:
    pattern = SCHEMA["$defs"]["case_id"]["pattern"]
    assert EXPECTED_SCHEMA["propertyNames"]["pattern"] == pattern
    for text in ("cards/null-not-card", "perft/hearts-4-start", "a/b/c", "Cards/x", "cards/", "cards//x", "x", "a-/b"):
        assert bool(re.search(pattern, text)) == bool(CASE_ID.fullmatch(text)), text


def _suite(tmp_path: Path, *cases: dict[str, Any]) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    case_list = [
        {"description": f"case {i}", "source": ["CARD-4"], "kind": "card", "text": "QS", "card": "QS", **case}
        for i, case in enumerate(cases)
    ]
    (folder / "x.json").write_text(json.dumps({"area": "x", "description": "x", "cases": case_list}))
    return tmp_path


@pytest.mark.parametrize(
    ("cases", "message"),
    [
        (({},), "x.json#0: the case has no id"),
        (({"id": "X/Upper"},), "x.json#0: the case has no id of the form AREA/SLUG: 'X/Upper'"),
        (({"id": "x/one"}, {"id": "x/one"}), "cases/x.json#1: the id 'x/one' is the id of cases/x.json#0 too"),
    ],
)
def test_a_suite_with_a_missing_malformed_or_repeated_id_is_refused(
    tmp_path: Path, cases: tuple[dict[str, Any], ...], message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        load_cases(("cases",), _suite(tmp_path, *cases))


class QueenBreaksHearts(ModuleEngine):
    """A broken engine: Q♠ breaks hearts under every ruleset (001 ¶11 says only a heart does)."""

    def __init__(self, **claims: Any) -> None:
        super().__init__(reference, "broken")
        self.claims = claims

    def _cmd_hello(self) -> dict[str, Any]:
        answer = super()._cmd_hello()
        answer["capabilities"].update(self.claims)
        return answer

    def _ruleset(self, ruleset: Any) -> Any:
        value = super()._ruleset(ruleset)
        if value.hearts_breaking != "heart":
            return value
        return self.module.Ruleset.from_json({**value.to_json(), "hearts_breaking": "heart-or-QS"})


def _only(*ids: str) -> list[Any]:
    return [case for case in CASES if case.id in ids]


def test_a_failure_is_named_by_the_case_id_and_its_file() -> None:
    from reversis.conformance.runner import iter_failures

    report = run_cases(QueenBreaksHearts(), _only(BREAKING))
    (outcome,) = report.failed
    lines = list(iter_failures(report))
    assert lines[0] == f"FAIL {BREAKING} (cases/breaking-hearts.json) {outcome.case.description}"
    data = report.to_json()["outcomes"][0]
    assert (data["case"], data["file"], data["status"]) == (BREAKING, "cases/breaking-hearts.json", "failed")


# --- --case ---------------------------------------------------------------------------------------


def test_case_runs_only_the_cases_named(tmp_path: Path, capsys: Any) -> None:
    report = tmp_path / "report.json"
    argv = ["conformance", "--engine", "reference", "--case", A_CARD_CASE, "--case", BREAKING, "--json", str(report)]
    assert main(argv) == 0
    assert "2 passed, 0 failed, 0 skipped" in capsys.readouterr().out
    (data,) = json.loads(report.read_text())
    assert sorted(o["case"] for o in data["outcomes"]) == sorted([A_CARD_CASE, BREAKING])


def test_an_unknown_case_id_is_a_usage_error_that_names_it(capsys: Any) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "--engine", "reference", "--case", A_CARD_CASE, "--case", "cards/no-such-case"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "'cards/no-such-case'" in err and A_CARD_CASE not in err


def test_case_and_area_together_run_the_cases_in_both(capsys: Any) -> None:
    assert main(["conformance", "--engine", "reference", "--case", A_CARD_CASE, "--area", "cards"]) == 0
    assert "1 passed" in capsys.readouterr().out
    assert main(["conformance", "--engine", "reference", "--case", A_CARD_CASE, "--area", "view"]) == 2
    assert "no cases in area(s) view with the id(s) cards/lowercase-qs-reads-qs" in capsys.readouterr().err


# --- expected failures ----------------------------------------------------------------------------


def test_a_listed_failure_is_an_expected_failure_and_a_listed_pass_fails_the_run() -> None:
    listed = {BREAKING: "Q♠ breaks hearts here", A_CARD_CASE: "thought broken"}
    report = run_cases(QueenBreaksHearts(), _only(BREAKING, A_CARD_CASE), expected_failures=listed)
    status = {o.case.id: o for o in report.outcomes}
    assert status[BREAKING].status == "expected-failure" and status[BREAKING].expected == "Q♠ breaks hearts here"
    assert "hearts_broken" in status[BREAKING].reason  # the failure itself is kept
    assert status[A_CARD_CASE].status == "unexpected-pass"
    assert not report.ok and [o.case.id for o in report.failed] == [A_CARD_CASE]
    counts = report.counts()
    assert counts["breaking-hearts"]["expected-failure"] == 1 and counts["breaking-hearts"]["failed"] == 0
    assert counts["cards"]["unexpected-pass"] == 1


def test_an_expected_failure_alone_passes_the_run() -> None:
    report = run_cases(QueenBreaksHearts(), _only(BREAKING, A_CARD_CASE), expected_failures={BREAKING: "known"})
    assert report.ok
    assert {o.case.id: o.status for o in report.outcomes} == {A_CARD_CASE: "passed", BREAKING: "expected-failure"}


def test_a_listed_case_that_is_skipped_stays_skipped() -> None:
    engine = QueenBreaksHearts(presets=["hearts-4"])
    report = run_cases(engine, _only(BREAKING, A_CARD_CASE), expected_failures={BREAKING: "known"})
    (skipped,) = [o for o in report.outcomes if o.case.id == BREAKING]
    assert skipped.status == "skipped" and skipped.reason == "preset 'hearts-computer' not claimed"
    assert report.ok


def _fake_driver(tmp_path: Path, answers_unsupported: str = "", claims: dict[str, Any] | None = None) -> str:
    """The reference engine behind the driver protocol, Q♠ breaking hearts everywhere.

    ``answers_unsupported`` names a command it answers ``unsupported``; ``claims`` replace
    capabilities of its ``hello``.
    """
    script = tmp_path / "fake.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            from reversis.conformance.engines import EngineError, ModuleEngine
            from reversis import reference

            class Broken(ModuleEngine):
                def _ruleset(self, ruleset):
                    value = super()._ruleset(ruleset)
                    if value.hearts_breaking != "heart":
                        return value
                    return self.module.Ruleset.from_json({{**value.to_json(), "hearts_breaking": "heart-or-QS"}})

            engine = Broken(reference, "fake")
            for line in sys.stdin:
                request = json.loads(line)
                request_id, cmd = request.pop("id"), request.pop("cmd")
                if cmd == "quit":
                    break
                if cmd == {answers_unsupported!r}:
                    body = {{"ok": False, "error": "unsupported", "message": "no such thing here"}}
                else:
                    try:
                        body = {{"ok": True, **engine.call(cmd, **request)}}
                        if cmd == "hello":
                            body["capabilities"].update({claims or {}!r})
                    except EngineError as error:
                        body = {{"ok": False, "error": error.code, "message": error.message}}
                print(json.dumps({{"id": request_id, **body}}), flush=True)
            """
        )
    )
    return f"{sys.executable} {script}"


#: The breaking-hearts cases that Q♠ breaking hearts under hearts-computer fails.
BREAKING_FAILS = {
    BREAKING: "Q♠ breaks hearts in this engine",
    "breaking-hearts/qs-discarded-first-trick-unbroken-hearts-computer": "the same",
    "breaking-hearts/heart-rule-names-hearts-whatever-value": "the same, under a ruleset of its own",
    "breaking-hearts/heart-breaking-moon-added-qs-led-leaves-hearts-unbroken": "the same, under hearts-4 as played so",
}


def test_the_command_reports_expected_failures_apart(tmp_path: Path, capsys: Any) -> None:
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps(BREAKING_FAILS))
    jsonschema.validate(json.loads(expected.read_text()), EXPECTED_SCHEMA)
    report = tmp_path / "report.json"
    argv = ["conformance", "--driver", _fake_driver(tmp_path), "--area", "breaking-hearts"]
    assert main([*argv, "--expected-failures", str(expected), "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert f"expected failure {BREAKING} (cases/breaking-hearts.json): Q♠ breaks hearts in this engine" in out
    assert re.search(r"\d+ passed, 0 failed, 0 skipped, 4 expected failures, 0 unexpected passes", out)
    assert "FAIL" not in out
    (data,) = json.loads(report.read_text())
    (listed,) = [o for o in data["outcomes"] if o["case"] == BREAKING]
    assert listed["status"] == "expected-failure" and listed["expected_failure"] == "Q♠ breaks hearts in this engine"
    assert sum(area["expected-failure"] for area in data["counts"].values()) == 4
    # The same run without the file fails, on these four cases.
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert sorted(re.findall(r"^FAIL (\S+) \(cases/breaking-hearts.json\)", out, re.MULTILINE)) == sorted(
        BREAKING_FAILS
    )


def test_the_command_fails_on_an_unexpected_pass(tmp_path: Path, capsys: Any) -> None:
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({A_CARD_CASE: "stale"}))
    assert main(["conformance", "--engine", "reference", "--area", "cards", "--expected-failures", str(expected)]) == 1
    out = capsys.readouterr().out
    assert f"UNEXPECTED PASS {A_CARD_CASE} (cases/cards.json)" in out and "stale; remove it from the file" in out
    assert re.search(r"\d+ passed, 0 failed, 0 skipped, 0 expected failures, 1 unexpected passes", out)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"cards/no-such-case": "x", "cards/nor-this": "y"}', "cards/no-such-case, cards/nor-this"),
        ('["cards/null-not-card"]', "not an object of case ids and reasons"),
        ('{"cards/null-not-card": 3}', "not an object of case ids and reasons"),
        ("{", "cannot read the expected failures"),
        (None, "cannot read the expected failures"),
    ],
)
def test_a_bad_expected_failures_file_is_a_usage_error(
    tmp_path: Path, capsys: Any, content: str | None, message: str
) -> None:
    path = tmp_path / "expected.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "--engine", "reference", "--expected-failures", str(path)])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    if content is not None and content.startswith('{"'):
        with pytest.raises(ValueError, match=re.escape(message)):
            read_expected_failures(path, CASES)


def test_the_expected_failures_schema_takes_ids_and_reasons_only() -> None:
    jsonschema.validate({"cards/null-not-card": "we read null as a card"}, EXPECTED_SCHEMA)
    bad_files: list[Any] = [[], {"cards/null-not-card": 1}, {"Not An Id": "x"}, {"cards/null-not-card": ""}]
    for bad in bad_files:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, EXPECTED_SCHEMA)


# --- unsupported (DRV-1) --------------------------------------------------------------------------


@pytest.mark.parametrize("declined", ["new_game", "apply", "parse_card"])
def test_an_unsupported_answer_skips_the_case_never_passes_or_fails_it(tmp_path: Path, declined: str) -> None:
    from reversis.conformance import DriverEngine

    # Cases that expect rejections among them: a declined command is no rejection either.
    cases = [
        c for c in CASES if c.area in ("cards", "illegal-actions") and c.data.get("ruleset", "hearts-4") == "hearts-4"
    ]
    assert any("error" in c.data for c in cases) and any(
        "error" in step for c in cases for step in c.data.get("steps", [])
    )
    driver = DriverEngine(_fake_driver(tmp_path, answers_unsupported=declined), timeout=10)
    try:
        report = run_cases(driver, cases)
    finally:
        driver.close()
    declined_cases = [o for o in report.outcomes if o.reason.startswith("unsupported: ")]
    assert declined_cases, f"no case asked for {declined}"
    assert all(o.status == "skipped" and o.reason == "unsupported: no such thing here" for o in declined_cases)
    assert report.failed == [] and report.ok
    # Every case that needs the declined command is among them; the others ran and passed.
    asks = {"new_game": "ruleset", "apply": "steps", "parse_card": "text"}[declined]
    assert {o.case.id for o in declined_cases} == {c.id for c in cases if asks in c.data}
    assert all(o.status == "passed" for o in report.outcomes if o not in declined_cases)
