"""Run conformance cases against an engine and report per area (conformance/README.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from .engines import DriverEngine, EngineError, EngineFault, ModuleEngine

Engine = Union[ModuleEngine, DriverEngine]

#: The answer of an implementation that cannot express what a request asks (spec/driver.md).
UNSUPPORTED = "unsupported"

#: Where the suite lives: beside the package in a checkout, inside it when installed.
_PACKAGED = Path(__file__).resolve().parent / "suite"
_CHECKOUT = Path(__file__).resolve().parents[3] / "conformance"
SUITE_DIR = _PACKAGED if _PACKAGED.is_dir() else _CHECKOUT
CASE_FOLDERS = ("cases", "seeding", "generated")


@dataclass
class Case:
    """One case, with where it came from."""

    file: str
    area: str
    index: int
    data: dict[str, Any]

    @property
    def id(self) -> str:
        """``file#index``, stable across runs."""
        return f"{self.file}#{self.index}"

    @property
    def description(self) -> str:
        """The case's description."""
        return str(self.data.get("description", ""))


@dataclass
class Outcome:
    """What happened to one case: ``passed``, ``failed`` or ``skipped``, and why."""

    case: Case
    status: str
    reason: str = ""
    seconds: float = 0.0


@dataclass
class Report:
    """Every outcome of one run, with per-area counts."""

    engine: str
    outcomes: list[Outcome] = field(default_factory=list)

    def counts(self) -> dict[str, dict[str, int]]:
        """``{area: {"passed": n, "failed": n, "skipped": n}}`` sorted by area."""
        table: dict[str, dict[str, int]] = {}
        for outcome in self.outcomes:
            row = table.setdefault(outcome.case.area, {"passed": 0, "failed": 0, "skipped": 0})
            row[outcome.status] += 1
        return dict(sorted(table.items()))

    @property
    def failed(self) -> list[Outcome]:
        """The failed outcomes."""
        return [o for o in self.outcomes if o.status == "failed"]

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data (``--json``)."""
        return {
            "engine": self.engine,
            "counts": self.counts(),
            "outcomes": [
                {
                    "case": o.case.id,
                    "area": o.case.area,
                    "description": o.case.description,
                    "status": o.status,
                    "reason": o.reason,
                }
                for o in self.outcomes
            ],
        }


def load_cases(folders: Iterable[str] = CASE_FOLDERS, suite: Path = SUITE_DIR) -> list[Case]:
    """Every case of the suite's files, in file order."""
    cases = []
    for folder in folders:
        for path in sorted((suite / folder).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            relative = path.relative_to(suite).as_posix()
            for index, case in enumerate(data["cases"]):
                cases.append(Case(relative, data["area"], index, case))
    return cases


class CaseFailure(Exception):
    """A case's expectation did not hold; the message is the readable diff."""


class Skip(Exception):
    """The implementation does not claim what the case needs."""


def run_cases(engine: Engine, cases: Iterable[Case], engine_name: str | None = None) -> Report:
    """Run ``cases`` against ``engine`` and collect the outcomes; never raises for a case."""
    report = Report(engine_name or engine.name)
    capabilities: dict[str, Any] | None = None
    for case in cases:
        started = time.perf_counter()
        try:
            if capabilities is None:
                capabilities = engine.call("hello").get("capabilities", {})
            _check_claimed(case, capabilities)
            CaseRun(engine, case, capabilities.get("error_codes", True)).run()
        except Skip as why:
            report.outcomes.append(Outcome(case, "skipped", str(why)))
            continue
        except CaseFailure as why:
            status, reason = "failed", str(why)
        except EngineFault as fault:
            status, reason = "failed", f"implementation fault: {fault}"
            capabilities = None
        except EngineError as error:
            status, reason = "failed", f"unexpected error {error.code!r}: {error}"
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as error:
            # An answer with the right id but the wrong shape (a view without "view", a card
            # that is not a string...): the implementation's fault, not the runner's.
            status, reason = "failed", f"implementation fault: malformed answer: {error!r}"
        else:
            status, reason = "passed", ""
        report.outcomes.append(Outcome(case, status, reason, time.perf_counter() - started))
    return report


def _check_claimed(case: Case, capabilities: dict[str, Any]) -> None:
    data = case.data
    if data["kind"] not in capabilities.get("kinds", []):
        raise Skip(f"kind {data['kind']!r} not claimed")
    ruleset = data.get("ruleset")
    if data["kind"] in ("game", "seed") and ruleset is not None:
        if isinstance(ruleset, str):
            if ruleset not in capabilities.get("presets", []):
                raise Skip(f"preset {ruleset!r} not claimed")
        elif not capabilities.get("custom_rulesets", False):
            raise Skip("custom rulesets not claimed")
    if data["kind"] == "record" and not capabilities.get("custom_rulesets", False):
        raise Skip("records carry whole rulesets; custom rulesets not claimed")
    players = ruleset.get("players") if isinstance(ruleset, dict) and "error" not in data else None
    if isinstance(players, int) and players not in capabilities.get("players", []):
        raise Skip(f"{players} players not claimed")
    steps = data.get("steps", [])
    uses_observation = any("observe" in step for step in steps)
    if uses_observation and not capabilities.get("observations", False):
        raise Skip("observations not claimed")
    uses_ids = any(
        "action_id" in step or "undo" in step or not ACTION_ID_VIEW_KEYS.isdisjoint(step.get("expect", {}))
        for step in steps
        if "observe" not in step
    )
    if uses_ids and not capabilities.get("action_ids", False):
        raise Skip("action ids not claimed")


#: The view keys that come with the capability ``action_ids`` (spec/driver.md DRV-4).
ACTION_ID_VIEW_KEYS = frozenset({"to_act", "legal_actions", "selected", "events", "last_hand"})


def _diff(what: str, expected: Any, got: Any) -> str:
    expected_text = json.dumps(expected, ensure_ascii=False)
    got_text = json.dumps(got, ensure_ascii=False)
    return f"{what}:\n    expected {expected_text}\n    got      {got_text}"


class CaseRun:
    """One case being run; each ``_kind_*`` method handles one kind of case."""

    def __init__(self, engine: Engine, case: Case, error_codes: bool = True) -> None:
        """Prepare to run ``case`` on ``engine``; without ``error_codes`` any rejection will do."""
        self.engine = engine
        self.error_codes = error_codes
        self.case = case
        self.data = case.data
        self.saved: dict[int, Any] = {}

    def run(self) -> None:
        """Run the case; raise :class:`CaseFailure` with a readable diff if it fails."""
        getattr(self, f"_kind_{self.data['kind']}")()

    def _expect_error(self, what: str, expected: str, cmd: str, **args: Any) -> None:
        try:
            answer = self.engine.call(cmd, **args)
        except EngineError as error:
            if error.code == UNSUPPORTED:
                raise CaseFailure(f"{what}: the implementation cannot express this: {error}") from None
            if error.code != expected and self.error_codes:
                raise CaseFailure(_diff(f"{what}: error code", expected, error.code)) from None
            return
        raise CaseFailure(f"{what}: expected error {expected!r}, but it was accepted: {json.dumps(answer)[:300]}")

    def _kind_card(self) -> None:
        if "error" in self.data:
            self._expect_error(f"card {self.data['text']!r}", self.data["error"], "parse_card", text=self.data["text"])
            return
        got = self.engine.call("parse_card", text=self.data["text"])["card"]
        if got != self.data["card"]:
            raise CaseFailure(_diff(f"card {self.data['text']!r}", self.data["card"], got))

    def _kind_ruleset(self) -> None:
        if "error" in self.data:
            self._expect_error("ruleset", self.data["error"], "ruleset", ruleset=self.data["ruleset"])
            return
        answer = self.engine.call("ruleset", ruleset=self.data["ruleset"])
        for key in ("hand_size", "deck", "point_cards"):
            if key in self.data and answer.get(key) != self.data[key]:
                raise CaseFailure(_diff(f"ruleset {key}", self.data[key], answer.get(key)))

    def _kind_seed(self) -> None:
        data = self.data
        if "draws" in data:
            got = self.engine.call("seed_draws", seed=data["seed"], count=len(data["draws"]))["draws"]
            if [d.upper().replace("0X", "0x") for d in got] != data["draws"]:
                raise CaseFailure(_diff(f"draws of seed {data['seed']}", data["draws"], got))
            return
        got = self.engine.call(
            "deal_from_seed",
            ruleset=data["ruleset"],
            seed=data["seed"],
            deals=len(data["deals"]),
            hand_number=data.get("hand_number", 0),
        )["deals"]
        if got != data["deals"]:
            raise CaseFailure(_diff(f"deals of seed {data['seed']}", data["deals"], got))

    def _kind_game(self) -> None:
        start = self.data.get("start", {})
        game = self.engine.call("new_game", ruleset=self.data["ruleset"], **start)["game"]
        try:
            self._steps(game)
        finally:
            self.engine.call("drop", game=game)

    def _kind_record(self) -> None:
        if "error" in self.data:
            self._expect_error("record", self.data["error"], "load_record", record=self.data["record"])
            return
        game = self.engine.call("load_record", record=self.data["record"])["game"]
        try:
            self._steps(game)
        finally:
            self.engine.call("drop", game=game)

    def _steps(self, game: int) -> None:
        for index, step in enumerate(self.data["steps"]):
            where = f"step {index}"
            if "action" in step:
                self._action_step(game, step, where)
            elif "action_id" in step:
                args = {"action": step["action_id"]}
                if "seat" in step:
                    args["seat"] = step["seat"]
                self._command_step(
                    game, step, where, what=f"action id {step['action_id']}", cmd="apply_action", args=args
                )
            elif "undo" in step:
                self._command_step(game, step, where, what="undo", cmd="undo", args={})
            elif "record" in step:
                self._record_step(game, where)
            elif "observe" in step:
                seen = self.engine.call("observation", game=game, seat=step["observe"])["observation"]
                self.saved[index] = seen
                if "same_as" in step:
                    earlier = self.saved.get(step["same_as"])
                    if seen != earlier:
                        raise CaseFailure(_diff(f"{where}: observation of seat {step['observe']}", earlier, seen))
                else:
                    _compare(f"{where}: observation of seat {step['observe']}", step["expect"], seen)
            else:
                view = self.engine.call("view", game=game)["view"]
                _compare(where, step["expect"], view)

    def _action_step(self, game: int, step: dict[str, Any], where: str) -> None:
        action = step["action"]
        what = json.dumps(action, ensure_ascii=False)
        self._command_step(game, step, where, what=what, cmd="apply", args={"action": action})

    def _command_step(
        self, game: int, step: dict[str, Any], where: str, *, what: str, cmd: str, args: dict[str, Any]
    ) -> None:
        """Run ``cmd``; it must be accepted, or rejected with the step's error leaving the state as it was."""
        if "error" not in step:
            try:
                self.engine.call(cmd, game=game, **args)
            except EngineError as error:
                raise CaseFailure(f"{where}: {what} was rejected with {error.code!r}: {error}") from None
            return
        before = self.engine.call("state", game=game)["state"]
        self._expect_error(f"{where}: {what}", step["error"], cmd, game=game, **args)
        after = self.engine.call("state", game=game)["state"]
        if after != before:
            raise CaseFailure(f"{where}: the rejected {cmd} changed the state (ERR-1)")

    def _record_step(self, game: int, where: str) -> None:
        record = self.engine.call("record", game=game)["record"]
        copy = self.engine.call("load_record", record=record)["game"]
        try:
            original = self.engine.call("view", game=game)["view"]
            replayed = self.engine.call("view", game=copy)["view"]
            if original != replayed:
                raise CaseFailure(_diff(f"{where}: the replayed record's view", original, replayed))
        finally:
            self.engine.call("drop", game=copy)


def _compare(where: str, expected: dict[str, Any], got: dict[str, Any]) -> None:
    problems = [
        _diff(f"{where}: {key}", value, got.get(key, "<missing>"))
        for key, value in expected.items()
        if got.get(key, object()) != value
    ]
    if problems:
        raise CaseFailure("\n".join(problems))


def iter_failures(report: Report) -> Iterator[str]:
    """Readable lines for each failure of a report."""
    for outcome in report.failed:
        yield f"FAIL {outcome.case.id} [{outcome.case.area}] {outcome.case.description}"
        for line in outcome.reason.splitlines():
            yield f"  {line}"
