"""Run conformance cases against an engine and report per area (conformance/README.md)."""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import os
import re
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Union

from ..commands.common import Terminated
from ..errors import ReversisError
from .engines import PROTOCOL_VERSION, DriverEngine, EngineError, EngineFault, EngineTimeout, ModuleEngine
from .perft import Position, Walker
from .variants import VariantError, Variants

Engine = Union[ModuleEngine, DriverEngine]

#: ``--max-timeouts``: the runner gives up after this many cases in a row end in a timeout.
MAX_TIMEOUTS = 3

#: The answer of an implementation that cannot express what a request asks (spec/driver.md).
UNSUPPORTED = "unsupported"

#: Where the suite lives: beside the package in a checkout, inside it when installed.
_PACKAGED = Path(__file__).resolve().parent / "suite"
_CHECKOUT = Path(__file__).resolve().parents[3] / "conformance"
SUITE_DIR = _PACKAGED if _PACKAGED.is_dir() else _CHECKOUT
CASE_FOLDERS = ("cases", "seeding", "generated", "perft")


@dataclass
class Case:
    """One case, with where it came from."""

    file: str
    area: str
    index: int
    data: dict[str, Any]

    @property
    def id(self) -> str:
        """The case's own ``id`` (``AREA/SLUG``), unique in the suite and never changed."""
        return str(self.data["id"])

    @property
    def location(self) -> str:
        """``file#index``: where the case is now, which a reordering of its file changes."""
        return f"{self.file}#{self.index}"

    @property
    def description(self) -> str:
        """The case's description."""
        return str(self.data.get("description", ""))

    @property
    def rules(self) -> list[str]:
        """The ruleset fields whose value decides the case's answers (conformance/README.md §House rules)."""
        return list(self.data.get("rules", []))


#: Every status an outcome can have; the last two only for a case listed as an expected failure.
STATUSES = ("passed", "failed", "skipped", "expected-failure", "unexpected-pass")


@dataclass
class Outcome:
    """What happened to one case: a status of :data:`STATUSES`, and why.

    ``stderr`` is the end of the implementation's standard error when the case ended in a fault;
    ``expected`` is the reason an expected-failures file gives for a case it lists.
    """

    case: Case
    status: str
    reason: str = ""
    seconds: float = 0.0
    stderr: str = ""
    expected: str | None = None


@dataclass
class Report:
    """Every outcome of one run, with per-area counts.

    ``failure`` says why the run as a whole failed (the runner gave up, or the implementation
    claims no case); ``not_run`` counts the cases it never got to; ``stderr`` is the end of the
    implementation's standard error when anything failed.
    """

    engine: str
    outcomes: list[Outcome] = field(default_factory=list)
    implementation: dict[str, Any] | None = None
    capabilities: dict[str, Any] | None = None
    failure: str | None = None
    not_run: int = 0
    stderr: str = ""

    def counts(self) -> dict[str, dict[str, int]]:
        """``{area: {"passed": n, "failed": n, "skipped": n, ...}}`` sorted by area, each status of :data:`STATUSES`."""
        table: dict[str, dict[str, int]] = {}
        for outcome in self.outcomes:
            row = table.setdefault(outcome.case.area, dict.fromkeys(STATUSES, 0))
            row[outcome.status] += 1
        return dict(sorted(table.items()))

    @property
    def failed(self) -> list[Outcome]:
        """The outcomes that fail the run: failed cases, and listed expected failures that passed."""
        return [o for o in self.outcomes if o.status in ("failed", "unexpected-pass")]

    @property
    def expected_failures(self) -> list[Outcome]:
        """The cases that failed as the expected-failures file says they do."""
        return [o for o in self.outcomes if o.status == "expected-failure"]

    @property
    def ok(self) -> bool:
        """Whether the run passed: no case failed or passed unexpectedly, and the run itself did not fail."""
        return self.failure is None and not self.failed

    @property
    def capability_line(self) -> str:
        """What the implementation claims, in one line (DRV-4); empty before a usable ``hello``."""
        return capability_line(self.capabilities) if self.capabilities is not None else ""

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data (``--json``)."""
        return {
            "engine": self.engine,
            "implementation": self.implementation,
            "capabilities": self.capabilities,
            "capability_line": self.capability_line,
            "failure": self.failure,
            "not_run": self.not_run,
            "stderr": self.stderr,
            "counts": self.counts(),
            "outcomes": [
                {
                    "case": o.case.id,
                    "file": o.case.file,
                    "area": o.case.area,
                    "description": o.case.description,
                    "status": o.status,
                    "reason": o.reason,
                    **({"expected_failure": o.expected} if o.expected is not None else {}),
                    "stderr": o.stderr,
                }
                for o in self.outcomes
            ],
        }


def capability_line(capabilities: dict[str, Any]) -> str:
    """The capabilities of a ``hello`` as the line the runner prints (DRV-4).

    Without ``error_codes`` it says that a case expecting a particular code passes on any rejection.
    """

    def listed(key: str) -> str:
        values = capabilities.get(key) or []
        return ", ".join(str(value) for value in values) if values else "none"

    def claimed(key: str) -> str:
        return "yes" if capabilities.get(key) else "no"

    error_codes = "yes" if capabilities.get("error_codes") else "no (any rejection passes where a case expects a code)"
    line = (
        f"players {listed('players')}; presets {listed('presets')}; custom rulesets {claimed('custom_rulesets')}; "
        f"kinds {listed('kinds')}; observations {claimed('observations')}; action ids {claimed('action_ids')}; "
        f"observation tensor {claimed('observation_tensor')}; perft {claimed('perft')}; error codes {error_codes}"
    )
    variants = capabilities.get("variants")
    if variants:
        # Only where claimed: the line of every implementation without house rules stays as it was.
        houses = "; ".join(
            f"{name} with {', '.join(f'{field} {json.dumps(value)}' for field, value in fields.items())}"
            for name, fields in variants.items()
            if isinstance(fields, dict)
        )
        line += f"; variants {houses}"
    return line


#: The form of a case's ``id``: ``AREA/SLUG``, lowercase words joined by ``-``, parts by ``/``.
CASE_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)+")


def load_cases(folders: Iterable[str] = CASE_FOLDERS, suite: Path = SUITE_DIR) -> list[Case]:
    """Every case of the suite's files, in file order.

    :raises ValueError: for a case without an ``id`` of the form ``AREA/SLUG``, or an ``id``
        that two cases share.
    """
    cases = []
    seen: dict[str, str] = {}
    for folder in folders:
        for path in sorted((suite / folder).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            relative = path.relative_to(suite).as_posix()
            for index, case in enumerate(data["cases"]):
                found = Case(relative, data["area"], index, case)
                case_id = case.get("id")
                if not isinstance(case_id, str) or not CASE_ID.fullmatch(case_id):
                    raise ValueError(f"{found.location}: the case has no id of the form AREA/SLUG: {case_id!r}")
                if case_id in seen:
                    raise ValueError(f"{found.location}: the id {case_id!r} is the id of {seen[case_id]} too")
                seen[case_id] = found.location
                cases.append(found)
    return cases


def read_expected_failures(path: str | Path, cases: Iterable[Case]) -> dict[str, str]:
    """An implementation's expected-failures file: ``{"CASE-ID": "reason", ...}`` (conformance/README.md).

    :raises ValueError: for a file that cannot be read, that is not such an object, or that
        names an id no case of ``cases`` has (every unknown id is named).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"cannot read the expected failures {str(path)!r}: {error}") from None
    if not isinstance(data, dict) or not all(isinstance(reason, str) for reason in data.values()):
        raise ValueError(f"the expected failures {str(path)!r} are not an object of case ids and reasons (strings)")
    known = {case.id for case in cases}
    unknown = [case_id for case_id in data if case_id not in known]
    if unknown:
        names = ", ".join(unknown)
        raise ValueError(f"the expected failures {str(path)!r} name cases the suite does not have: {names}")
    return dict(data)


class CaseFailure(Exception):
    """A case's expectation did not hold; the message is the readable diff."""


class Skip(Exception):
    """The implementation does not claim what the case needs."""


class Unsupported(Skip):
    """The implementation answered ``unsupported`` (DRV-1): the case is skipped, never passed."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{UNSUPPORTED}: {message}")
        self.message = message

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from the implementation's message, not from ``args`` (which carry the prefix).
        return type(self), (self.message,), self.__dict__


def run_cases(
    engine: Engine,
    cases: Iterable[Case],
    engine_name: str | None = None,
    *,
    max_timeouts: int | None = MAX_TIMEOUTS,
    expected_failures: dict[str, str] | None = None,
) -> Report:
    """Run ``cases`` against ``engine`` and collect the outcomes; never raises for a case.

    The runner gives up, with one failure in :attr:`Report.failure`, when the first ``hello``
    gets no usable answer, or after ``max_timeouts`` cases in a row end in a timeout (never
    when ``None``). If the run is cut short by an exception, Ctrl-C or ``SIGTERM``, the
    implementation is killed before the exception goes on. A case whose id
    ``expected_failures`` lists, with its reason, is an ``expected-failure`` where it fails and
    an ``unexpected-pass`` (a failure of the run) where it passes.
    """
    report = Report(engine_name or engine.name)
    unwinding = _termination_unwinds() if isinstance(engine, DriverEngine) else contextlib.nullcontext()
    with unwinding:
        try:
            _run(engine, list(cases), report, max_timeouts, expected_failures or {})
        except BaseException:
            engine.kill()
            raise
    return report


def _run(
    engine: Engine, cases: list[Case], report: Report, max_timeouts: int | None, expected_failures: dict[str, str]
) -> None:
    capabilities: dict[str, Any] | None = None
    variants = Variants(None)
    timeouts = 0
    for index, case in enumerate(cases):
        started = time.perf_counter()
        stderr = ""
        timed_out = False
        try:
            if capabilities is None:
                try:
                    capabilities, variants = _hello(engine, report)
                except (EngineFault, EngineError) as problem:
                    if report.implementation is None:
                        # Nothing was ever heard from it: one failure, not one per case.
                        report.failure = f"no usable answer to the first hello: {_problem(problem)}"
                        report.not_run = len(cases) - index
                        report.stderr = engine.stderr_tail()
                        return
                    raise
            data, house_rule = variants.plan(case.data)
            if house_rule is not None:
                raise Skip(house_rule)
            _check_claimed(data, capabilities)
            CaseRun(engine, case, capabilities.get("error_codes", True), data).run()
        except Skip as why:
            report.outcomes.append(Outcome(case, "skipped", str(why)))
            continue
        except CaseFailure as why:
            status, reason = "failed", str(why)
        except EngineFault as fault:
            status, reason, stderr = "failed", f"implementation fault: {fault}", fault.stderr
            timed_out = isinstance(fault, EngineTimeout)
            capabilities = None
        except EngineError as error:
            if error.code == UNSUPPORTED:
                report.outcomes.append(Outcome(case, "skipped", str(Unsupported(error.message))))
                continue
            status, reason = "failed", f"unexpected error {error.code!r}: {error.message}"
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as error:
            # An answer with the right id but the wrong shape (a view without "view", a card
            # that is not a string...): the implementation's fault, not the runner's.
            status, reason = "failed", f"implementation fault: malformed answer: {error!r}"
        else:
            status, reason = "passed", ""
        expected = expected_failures.get(case.id)
        if expected is not None:
            status = "expected-failure" if status == "failed" else "unexpected-pass"
        report.outcomes.append(Outcome(case, status, reason, time.perf_counter() - started, stderr, expected))
        timeouts = timeouts + 1 if timed_out else 0
        if max_timeouts is not None and timeouts >= max_timeouts:
            report.failure = f"gave up after {timeouts} cases in a row ended in a timeout"
            report.not_run = len(cases) - index - 1
            break
    if report.failure is None and report.outcomes and all(o.status == "skipped" for o in report.outcomes):
        report.failure = f"the implementation claims none of the {len(report.outcomes)} cases: every one was skipped"
    if not report.ok:
        report.stderr = engine.stderr_tail()


def _problem(problem: EngineFault | EngineError) -> str:
    if isinstance(problem, EngineError):
        return f"hello was rejected with {problem.code!r}: {problem.message}"
    return str(problem)


def _hello(engine: Engine, report: Report) -> tuple[dict[str, Any], Variants]:
    """Send ``hello`` and check its answer (DRV-3, DRV-4); returns the capabilities and the house rules."""
    answer = engine.call("hello")
    protocol = answer.get("protocol")
    if protocol != PROTOCOL_VERSION or isinstance(protocol, bool):
        raise EngineFault(f"hello names protocol {json.dumps(protocol)}; the runner speaks protocol {PROTOCOL_VERSION}")
    capabilities = answer.get("capabilities")
    if not isinstance(capabilities, dict):
        raise EngineFault(f"hello has no capabilities object: {json.dumps(capabilities)[:200]}")
    for key, check, what in _CAPABILITY_TYPES:
        if key in capabilities and not check(capabilities[key]):
            raise EngineFault(f"hello's capability {key!r} is not {what}: {json.dumps(capabilities[key])[:200]}")
    try:
        variants = Variants(capabilities.get("variants"))
    except VariantError as error:
        raise EngineFault(f"hello's capability 'variants' {error}") from None
    if report.implementation is None:
        report.implementation = {key: answer.get(key) for key in ("name", "version", "protocol", "spec_version")}
        report.capabilities = capabilities
    return capabilities, variants


def _is_list_of(kind: type) -> Callable[[Any], bool]:
    return lambda value: (
        isinstance(value, list) and all(isinstance(item, kind) and not isinstance(item, bool) for item in value)
    )


_CAPABILITY_TYPES: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("players", _is_list_of(int), "a list of integers"),
    ("presets", _is_list_of(str), "a list of strings"),
    ("kinds", _is_list_of(str), "a list of strings"),
    *(
        (key, lambda value: isinstance(value, bool), "true or false")
        for key in ("custom_rulesets", "observations", "error_codes", "action_ids", "observation_tensor", "perft")
    ),
)


@contextlib.contextmanager
def _termination_unwinds() -> Iterator[None]:
    """Where nobody handles ``SIGTERM`` or ``SIGHUP``, make them unwind the run first.

    The command line installs handlers of its own and keeps them. A program that left the
    default (die at once, leaving the implementation running) gets the implementation killed on
    the way out, then dies of the same signal as it would have.
    """
    installed: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) == signal.SIG_DFL:
                signal.signal(number, _raise_terminated)
                installed[number] = signal.SIG_DFL

    def restore() -> None:
        for number, handler in installed.items():
            signal.signal(number, handler)
        installed.clear()

    try:
        yield
    except Terminated as stop:
        if stop.signum in installed:
            restore()
            os.kill(os.getpid(), stop.signum)
        raise
    finally:
        restore()


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


def _check_claimed(data: dict[str, Any], capabilities: dict[str, Any]) -> None:
    """Raise :class:`Skip` unless the capabilities claim all a case (its data, as sent) needs (DRV-4)."""
    kind = data["kind"]
    if kind not in capabilities.get("kinds", []):
        raise Skip(f"kind {kind!r} not claimed")
    # DRV-8: without the perft command the runner counts by walking the game, through legal.
    if kind == "perft" and not capabilities.get("perft", False):
        if "error" in data:
            raise Skip("an error of the perft command, which is not claimed (DRV-8)")
        if data.get("phases") != ["play"]:
            phases = ", ".join(data.get("phases", [])) or "none"
            raise Skip(f"decisions in phases {phases}, which only the perft command counts; perft not claimed (DRV-8)")
    ruleset = data.get("ruleset")
    if kind in ("game", "seed", "perft") and ruleset is not None:
        if isinstance(ruleset, str):
            if ruleset not in capabilities.get("presets", []):
                raise Skip(f"preset {ruleset!r} not claimed")
        elif not capabilities.get("custom_rulesets", False):
            raise Skip("custom rulesets not claimed")
    if kind == "record":
        if not capabilities.get("custom_rulesets", False):
            raise Skip("records carry whole rulesets; custom rulesets not claimed")
        record = data.get("record")
        ruleset = record.get("ruleset") if isinstance(record, dict) else None
    if kind == "record-bytes" and not capabilities.get("custom_rulesets", False):
        raise Skip("encoded records carry whole rulesets; custom rulesets not claimed")
    players = _players(ruleset) if "error" not in data else None
    if players is not None and players not in capabilities.get("players", []):
        raise Skip(f"{players} players not claimed")
    steps = data.get("steps", [])
    uses_observation = any("observe" in step for step in steps)
    if uses_observation and not capabilities.get("observations", False):
        raise Skip("observations not claimed")
    # DRV-4: a hello written before the command existed does not name it, and so claims it not.
    if any("observe_tensor" in step for step in steps) and not capabilities.get("observation_tensor", False):
        raise Skip("observation tensors not claimed (DRV-7)")
    uses_ids = any(
        "action_id" in step or "undo" in step or not ACTION_ID_VIEW_KEYS.isdisjoint(step.get("expect", {}))
        for step in steps
        if "observe" not in step
    )
    if uses_ids and not capabilities.get("action_ids", False):
        raise Skip("action ids not claimed")


def _players(ruleset: Any) -> int | None:
    """The number of players of a preset name or a ruleset object, if it can be told."""
    if isinstance(ruleset, str):
        return _preset_players(ruleset)
    players = ruleset.get("players") if isinstance(ruleset, dict) else None
    return players if isinstance(players, int) and not isinstance(players, bool) else None


@functools.cache
def _preset_players(name: str) -> int | None:
    from .. import reference

    try:
        return int(reference.preset(name).players)
    except ReversisError:
        return None


#: The view keys that come with the capability ``action_ids`` (spec/driver.md DRV-4).
ACTION_ID_VIEW_KEYS = frozenset({"to_act", "legal_actions", "selected", "events", "last_hand"})


def first_difference(expected: Any, got: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """Where two JSON values first differ: a path such as ``.last_hand.scores[2]``, and the two values there.

    Object keys are visited in the expected value's order (keys only the other has come last),
    array items by index; ``None`` when the values are equal. A missing key reads as ``<missing>``.
    """
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(k for k in got if k not in expected)]:
            inner = first_difference(expected.get(key, "<missing>"), got.get(key, "<missing>"), f"{path}.{key}")
            if inner is not None:
                return inner
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for index in range(max(len(expected), len(got))):
            if index >= len(expected) or index >= len(got):
                left = expected[index] if index < len(expected) else "<missing>"
                right = got[index] if index < len(got) else "<missing>"
                return f"{path}[{index}]", left, right
            inner = first_difference(expected[index], got[index], f"{path}[{index}]")
            if inner is not None:
                return inner
        return None
    same = expected == got and type(expected) is type(got)
    return None if same else (path or "the value", expected, got)


def _diff(what: str, expected: Any, got: Any) -> str:
    expected_text = json.dumps(expected, ensure_ascii=False)
    got_text = json.dumps(got, ensure_ascii=False)
    found = first_difference(expected, got)
    where = ""
    if found is not None and (isinstance(expected, (dict, list)) or isinstance(got, (dict, list))):
        path, left, right = found
        where = (
            f"\n    first difference at {path}: expected {json.dumps(left, ensure_ascii=False)}, "
            f"got {json.dumps(right, ensure_ascii=False)}"
        )
    return f"{what}:{where}\n    expected {expected_text}\n    got      {got_text}"


class CaseRun:
    """One case being run; each ``_kind_*`` method handles one kind of case."""

    def __init__(
        self, engine: Engine, case: Case, error_codes: bool = True, data: dict[str, Any] | None = None
    ) -> None:
        """Prepare to run ``case`` on ``engine``; without ``error_codes`` any rejection will do.

        ``data`` is the case as sent, where it differs from the file's (a variant's ruleset
        object sent as the preset's name, DRV-4).
        """
        self.engine = engine
        self.error_codes = error_codes
        self.case = case
        self.data = case.data if data is None else data
        self.saved: dict[int, Any] = {}

    def run(self) -> None:
        """Run the case; raise :class:`CaseFailure` with a readable diff if it fails."""
        getattr(self, f"_kind_{self.data['kind'].replace('-', '_')}")()

    def _expect_error(self, what: str, expected: str, cmd: str, **args: Any) -> None:
        try:
            answer = self.engine.call(cmd, **args)
        except EngineError as error:
            if error.code == UNSUPPORTED:
                # DRV-1: declining is no rejection; the case is skipped, never passed.
                raise Unsupported(error.message) from None
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
        if "canonical" in self.data and not _same_json(answer.get("ruleset"), self.data["canonical"]):
            raise CaseFailure(_diff("canonical ruleset (RS-16)", self.data["canonical"], answer.get("ruleset")))

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
        self._with_game(game, self._steps)

    def _kind_perft(self) -> None:
        """Perft and divide of a named position (spec/perft.md): the command's, or a walk of the game's."""
        data = self.data
        walker = Walker(self.engine, Position.of(data))
        depth, unit = data["depth"], data["unit"]
        if "error" in data:
            cursor_game = walker.open([])

            def rejected(game: int) -> None:
                what = f"perft to depth {depth} in {unit}"
                self._expect_error(what, data["error"], "perft", game=game, depth=depth, unit=unit)

            self._with_game(cursor_game, rejected)
            return
        how = "the perft command" if walker.claims_perft else "a walk through new_game, apply and view"
        if "divide" not in data:
            got = walker.perft([], depth, unit)
            if got != data["count"]:
                raise CaseFailure(_diff(f"perft to depth {depth} in {unit} ({how})", data["count"], got))
            return
        if walker.claims_perft:
            game = walker.open([])
            answer: dict[str, Any] = {}

            def ask(game: int) -> None:
                answer.update(self.engine.call("perft", game=game, depth=depth, unit=unit, divide=True))

            self._with_game(game, ask)
            count, divide = answer["count"], answer["divide"]
            if not isinstance(divide, dict) or sum(divide.values()) != count:
                raise CaseFailure(f"the perft command's divide does not add up to its count {count}: {divide}")
        else:
            divide = walker.divide([], depth, unit)
            count = sum(divide.values())
        problems = []
        if count != data["count"]:
            problems.append(_diff(f"perft to depth {depth} in {unit} ({how})", data["count"], count))
        if divide != data["divide"]:
            problems.append(_divide_diff(data["divide"], divide))
        if problems:
            raise CaseFailure("\n".join(problems))

    def _kind_record(self) -> None:
        if "error" in self.data:
            self._expect_error("record", self.data["error"], "load_record", record=self.data["record"])
            return
        game = self.engine.call("load_record", record=self.data["record"])["game"]
        self._with_game(game, self._steps)

    def _with_game(self, game: int, body: Callable[[int], None]) -> None:
        """Run ``body`` on ``game``, then ``drop`` it, but only in the process that holds it.

        After a fault the implementation was killed: the process that gave ``game`` is gone and
        the next one never had it. A failed drop must not hide why the case failed either.
        """
        generation = self.engine.generation
        try:
            body(game)
        except Exception:
            if self.engine.generation == generation:
                with contextlib.suppress(EngineError, EngineFault):
                    self.engine.call("drop", game=game)
            raise
        if self.engine.generation == generation:
            self.engine.call("drop", game=game)

    def _kind_record_bytes(self) -> None:
        data = self.data
        if "error" in data:
            self._expect_error("record bytes", data["error"], "load_record_bytes", data=data["data"])
            return
        game = self.engine.call("load_record_bytes", data=data["data"])["game"]

        def steps_then_encodings(game: int) -> None:
            self._steps(game)
            for record_format in data.get("encode", []):
                self._encode_step(game, record_format)

        self._with_game(game, steps_then_encodings)

    def _encode_step(self, game: int, record_format: str) -> None:
        """The game's record, encoded by the implementation, decodes here to its ``record`` and replays."""
        where = f"{record_format} encoding"
        record = self.engine.call("record", game=game)["record"]
        encoded = self.engine.call("record_bytes", game=game, format=record_format)["data"]
        try:
            decoded = _decode_record(base64.b64decode(encoded, validate=True), record_format)
        except Exception as error:  # the decoders raise several unrelated types for bad input
            raise CaseFailure(f"{where}: the bytes are not a {record_format} record: {error!r}") from None
        if not _same_json(decoded, record):
            raise CaseFailure(_diff(f"{where}: the decoded bytes", record, decoded))
        copy = self.engine.call("load_record_bytes", data=encoded)["game"]

        def compare(copy: int) -> None:
            original = self.engine.call("view", game=game)["view"]
            replayed = self.engine.call("view", game=copy)["view"]
            if original != replayed:
                raise CaseFailure(_diff(f"{where}: the replayed view", original, replayed))

        self._with_game(copy, compare)

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
            elif "observe_tensor" in step:
                self._tensor_step(game, step, where)
            elif "observe" in step and "error" in step:
                what = f"{where}: observation of seat {step['observe']}"
                self._expect_error(what, step["error"], "observation", game=game, seat=step["observe"])
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

    def _tensor_step(self, game: int, step: dict[str, Any], where: str) -> None:
        """The seat's OBS-3 row must hold the step's ``nonzero`` entries and 0 everywhere else (DRV-7)."""
        seat = step["observe_tensor"]
        what = f"{where}: observation tensor of seat {seat}"
        if "error" in step:
            self._expect_error(what, step["error"], "observation_tensor", game=game, seat=seat)
            return
        row = self.engine.call("observation_tensor", game=game, seat=seat)["tensor"]
        if not (isinstance(row, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in row)):
            raise CaseFailure(f"{what}: not a list of integers: {json.dumps(row)[:200]}")
        if len(row) != TENSOR_LENGTH:
            raise CaseFailure(f"{what}: {len(row)} integers, not OBS-3's {TENSOR_LENGTH}")
        expected = {int(index): value for index, value in step["nonzero"].items()}
        wrong = [
            f"    [{index}] ({_tensor_slot(index)}): expected {expected.get(index, 0)}, got {row[index]}"
            for index in range(TENSOR_LENGTH)
            if row[index] != expected.get(index, 0)
        ]
        if wrong:
            shown = wrong[:20] + ([f"    … and {len(wrong) - 20} more"] if len(wrong) > 20 else [])
            raise CaseFailure(f"{what}: {len(wrong)} entries differ\n" + "\n".join(shown))

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
                if error.code == UNSUPPORTED:
                    raise Unsupported(error.message) from None
                raise CaseFailure(f"{where}: {what} was rejected with {error.code!r}: {error.message}") from None
            return
        before = self.engine.call("state", game=game)["state"]
        self._expect_error(f"{where}: {what}", step["error"], cmd, game=game, **args)
        after = self.engine.call("state", game=game)["state"]
        if after != before:
            raise CaseFailure(f"{where}: the rejected {cmd} changed the state (ERR-1)")

    def _record_step(self, game: int, where: str) -> None:
        record = self.engine.call("record", game=game)["record"]
        copy = self.engine.call("load_record", record=record)["game"]

        def compare(copy: int) -> None:
            original = self.engine.call("view", game=game)["view"]
            replayed = self.engine.call("view", game=copy)["view"]
            if original != replayed:
                raise CaseFailure(_diff(f"{where}: the replayed record's view", original, replayed))

        self._with_game(copy, compare)


#: OBS-3's blocks as spec/records.md lays them out: (name, offset, length). Only to name the
#: block of an entry in a failure; what a row must hold is written out in the cases.
TENSOR_BLOCKS: tuple[tuple[str, int, int], ...] = (
    ("hand", 0, 52),
    ("played", 52, 520),
    ("trick", 572, 520),
    ("passed", 1092, 52),
    ("received", 1144, 52),
    ("voids", 1196, 40),
    ("points", 1236, 10),
    ("scores", 1246, 10),
    ("phase", 1256, 5),
    ("hearts_broken", 1261, 1),
    ("to_move", 1262, 11),
    ("pass_direction", 1273, 5),
    ("legal", 1278, 52),
    ("selected", 1330, 52),
    ("count_down", 1382, 1),
    ("held_over", 1383, 52),
)
#: The number of integers of an OBS-3 row, version 3.
TENSOR_LENGTH = 1435


def _tensor_slot(index: int) -> str:
    """Where ``index`` lies in OBS-3: the block's name and the place in it (``played +56``)."""
    for name, offset, length in TENSOR_BLOCKS:
        if offset <= index < offset + length:
            return f"{name} +{index - offset}" if length > 1 else name
    return "outside OBS-3"


def _divide_diff(expected: dict[str, int], got: dict[str, int]) -> str:
    """Where two divides (PERFT-4) differ: the decisions only one has, then the counts that differ."""
    lines = ["divide (the sequences below each first decision):"]
    missing = [key for key in expected if key not in got]
    extra = [key for key in got if key not in expected]
    if missing:
        lines.append(f"    decisions expected but not allowed: {', '.join(missing)}")
    if extra:
        lines.append(f"    decisions allowed but not expected: {', '.join(extra)}")
    for key, count in expected.items():
        if key in got and got[key] != count:
            lines.append(f"    below {key}: expected {count}, got {got[key]}")
    return "\n".join(lines)


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: object keys in any order, but ``1``, ``1.0`` and ``true`` all differ."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _decode_record(data: bytes, record_format: str) -> Any:
    """The runner's own reading of an encoded record (REC-3), independent of the implementation's."""
    if (data[:1] == b"{") != (record_format == "json"):
        raise ValueError(f"the first byte does not mark {record_format} (REC-3)")
    if record_format == "json":
        return json.loads(data.decode("utf-8"))
    import msgpack

    return msgpack.unpackb(data, raw=False, strict_map_key=True)


def _compare(where: str, expected: dict[str, Any], got: dict[str, Any]) -> None:
    problems = [
        _diff(f"{where}: {key}", value, got.get(key, "<missing>"))
        for key, value in expected.items()
        if got.get(key, object()) != value
    ]
    if problems:
        raise CaseFailure("\n".join(problems))


def iter_failures(report: Report) -> Iterator[str]:
    """Readable lines for each failure of a report, with the implementation's last words on stderr.

    An expected failure is one line with the reason its file gives; a listed case that passed
    is a failure, with that reason, so that the file is brought up to date.
    """
    shown = ""
    for outcome in report.expected_failures:
        yield f"expected failure {outcome.case.id} ({outcome.case.file}): {outcome.expected}"
    for outcome in report.failed:
        case = outcome.case
        if outcome.status == "unexpected-pass":
            yield f"UNEXPECTED PASS {case.id} ({case.file}) {case.description}"
            yield f"  listed as an expected failure: {outcome.expected}; remove it from the file"
            continue
        yield f"FAIL {case.id} ({case.file}) {case.description}"
        for line in outcome.reason.splitlines():
            yield f"  {line}"
        if outcome.stderr:
            shown = outcome.stderr
            yield from _stderr_lines(outcome.stderr, STDERR_LINES_PER_CASE)
    if report.failure is not None:
        yield f"FAIL {report.engine}: {report.failure}"
        if report.not_run:
            yield f"  {report.not_run} cases were not run"
    if report.stderr and report.stderr != shown:
        yield from _stderr_lines(report.stderr, STDERR_LINES)


#: How many lines of an implementation's standard error a text report shows: after a case's
#: fault, and once at the end of a run that failed.
STDERR_LINES_PER_CASE = 8
STDERR_LINES = 20


def _stderr_lines(text: str, count: int) -> Iterator[str]:
    lines = text.rstrip("\n").splitlines()[-count:]
    yield "  standard error of the implementation, last lines:"
    for line in lines:
        yield f"  | {line[:500]}"
