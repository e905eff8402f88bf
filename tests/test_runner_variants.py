"""House rules (DRV-4 ``variants``): an implementation whose preset plays another moon, strip, ban, passing or breaking.

The fake implementations here are the reference engine playing a preset with a field replaced,
as a real engine with a house rule would. Claiming the variant must make the suite pass them:
the cases written for the preset's own value are skipped with the house rule and the case's
answer named, the cases written on a ruleset equal to the variant run as the preset, and every
other case of the preset still runs.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from reversis import reference
from reversis.cli import main
from reversis.conformance import ModuleEngine, load_cases, run_cases
from reversis.conformance.runner import CASE_FOLDERS

ROOT = Path(__file__).resolve().parents[1]
CASES = load_cases(CASE_FOLDERS, ROOT / "conformance")

ADD_TO_OTHERS = {"moon": {"scoring": "add-to-others", "bonus": 26}}
NO_BAN = {"first_trick_ban": False}
STRIP_2D = {"deck": {"lowest_rank": "2", "removed": ["2D"]}}
NO_PASSING: dict[str, Any] = {"passing": None}
PASS_LEFT = {"passing": {"cycle": ["left"], "size": 3}}
HEART = {"hearts_breaking": "heart"}


class HouseRules(ModuleEngine):
    """The reference engine, its presets played with ``house`` replacing fields, claiming ``claims``.

    It records the ruleset of every game it is asked for.
    """

    def __init__(self, house: dict[str, dict[str, Any]], **claims: Any) -> None:
        super().__init__(reference, "house rules")
        self.house = house
        self.claims = {"custom_rulesets": False, **claims}
        self.asked: list[Any] = []

    def _cmd_hello(self) -> dict[str, Any]:
        answer = super()._cmd_hello()
        answer["capabilities"].update(self.claims)
        return answer

    def _ruleset(self, ruleset: Any) -> Any:
        self.asked.append(ruleset)
        if isinstance(ruleset, str) and ruleset in self.house:
            return self.module.Ruleset.from_json({**self.module.preset(ruleset).to_json(), **self.house[ruleset]})
        return super()._ruleset(ruleset)


def _same_rules(ruleset: dict[str, Any], preset: str, house: dict[str, Any]) -> bool:
    """Whether ``ruleset`` is ``preset`` with ``house``, name, title and sources aside (RS-16)."""

    def rules(data: dict[str, Any]) -> dict[str, Any]:
        canonical = reference.Ruleset.from_json(data).to_json()
        return {key: value for key, value in canonical.items() if key not in ("name", "title", "sources")}

    return rules(ruleset) == rules({**reference.preset(preset).to_json(), **house})


def _on(preset: str) -> list[Any]:
    """The cases on ``preset``: by name, or on a ruleset object of its number of players."""
    players = reference.preset(preset).players
    return [
        case
        for case in CASES
        if case.data.get("ruleset") == preset
        or (isinstance(case.data.get("ruleset"), dict) and case.data["ruleset"].get("players") == players)
    ]


@pytest.mark.parametrize(
    ("preset", "house", "variant_case"),
    [
        ("hearts-4", ADD_TO_OTHERS, "moon-and-pit/hearts-4-with-the-moon-added-to-the-others"),
        ("hearts-4", NO_BAN, "first-trick/only-qs-and-hearts-without-the-ban"),
        ("black-maria", STRIP_2D, "decks-and-deals/black-maria-stripping-2d-instead"),
        # The house rules that outside engines declare (conformance/implementations/*/README.md).
        ("hearts-4", {**NO_PASSING, **NO_BAN}, "first-trick/without-passing-or-ban-void-seat-discards-qs"),
        ("hearts-computer", NO_PASSING, "follow-suit/without-passing-leader-not-bound-previous-suit"),
        (
            "hearts-4",
            {**HEART, **ADD_TO_OTHERS},
            "breaking-hearts/heart-breaking-moon-added-qs-led-leaves-hearts-unbroken",
        ),
        ("hearts-computer", PASS_LEFT, "moon-and-pit/passing-left-taker-keeps-moon-when-another-wins-last"),
    ],
)
def test_a_claimed_house_rule_skips_the_cases_of_the_other_answer_and_runs_its_own(
    preset: str, house: dict[str, Any], variant_case: str
) -> None:
    cases = _on(preset)
    # Unclaimed, the house rule fails the cases written for the preset's own value.
    # (Perft cases aside: a changed rule may make their counts astronomical, and no tag sorts them.)
    unclaimed = run_cases(HouseRules({preset: house}), [case for case in cases if case.data["kind"] != "perft"])
    assert unclaimed.failed and all(set(house) & set(o.case.rules) for o in unclaimed.failed)
    engine = HouseRules({preset: house}, variants={preset: house})
    report = run_cases(engine, cases)
    assert report.ok, [(o.case.id, o.reason) for o in report.failed]
    house_skips = {o.case.id: o.reason for o in report.outcomes if o.reason.startswith("house rule")}
    # A perft count depends on every rule: each perft case on the varied preset is skipped.
    perft = {case_id: reason for case_id, reason in house_skips.items() if case_id.startswith("perft/")}
    assert perft and all(reason.endswith("a perft count depends on every rule") for reason in perft.values())
    assert {case.id for case in cases if case.data["kind"] == "perft" and case.data["ruleset"] == preset} == set(perft)
    house_skips = {case_id: reason for case_id, reason in house_skips.items() if case_id not in perft}
    on_preset = {case.id: case for case in cases if case.data["ruleset"] == preset and case.data["kind"] != "perft"}
    assert set(house_skips) == {i for i, case in on_preset.items() if set(house) & set(case.rules)}
    for case_id, reason in house_skips.items():
        # The reason names the first varied field the case depends on, and the value it was written for.
        field = next(field for field in house if field in on_preset[case_id].rules)
        own = json.dumps(reference.preset(preset).to_json()[field])
        plays = f"house rule: the implementation's {preset} plays {field} {json.dumps(house[field])}"
        assert reason == f"{plays}; this case is for {preset}'s own {field} {own}"
    # Every other case on the preset ran, and the case on the variant's ruleset ran as the preset.
    ran = {o.case.id for o in report.outcomes if o.status == "passed"}
    assert set(on_preset) - set(house_skips) <= ran
    assert variant_case in ran
    (variant,) = [case for case in cases if case.id == variant_case]
    sent_whole = [r for r in engine.asked if isinstance(r, dict) and r.get("name") == variant.data["ruleset"]["name"]]
    assert preset in engine.asked and sent_whole == []
    # Game and seed cases on other ruleset objects are still custom rulesets, which it does not claim.
    on_objects = [o for o in report.outcomes if o.case.data["kind"] in ("game", "seed") and o.case.id not in on_preset]
    equal = {o.case.id for o in on_objects if _same_rules(o.case.data["ruleset"], preset, house)}
    assert variant_case in equal and equal <= ran
    assert {o.reason for o in on_objects if o.case.id not in equal} == {"custom rulesets not claimed"}


def test_a_variant_case_runs_as_a_custom_ruleset_where_no_variant_is_claimed() -> None:
    (case,) = [c for c in CASES if c.id == "moon-and-pit/hearts-4-with-the-moon-added-to-the-others"]
    engine = HouseRules({}, custom_rulesets=True)
    assert run_cases(engine, [case]).ok
    assert isinstance(engine.asked[0], dict) and engine.asked[0]["name"] == "hearts-4-add-to-others"
    assert run_cases(HouseRules({}), [case]).outcomes[0].reason == "custom rulesets not claimed"


def test_a_house_rule_the_suite_does_not_sort_by_skips_every_case_on_the_preset() -> None:
    house = {"target": 50}
    report = run_cases(HouseRules({"hearts-4": house}, variants={"hearts-4": house}), _on("hearts-4"))
    on_preset = [o for o in report.outcomes if o.case.data["ruleset"] == "hearts-4"]
    assert on_preset and all(o.status == "skipped" for o in on_preset)
    perft = {o.reason for o in on_preset if o.case.data["kind"] == "perft"}
    assert perft == {"house rule: the implementation's hearts-4 plays target 50; a perft count depends on every rule"}
    assert {o.reason for o in on_preset if o.case.data["kind"] != "perft"} == {
        "house rule: the implementation's hearts-4 plays target 50, "
        "and the suite does not mark which cases on hearts-4 depend on target"
    }
    assert report.ok


@pytest.mark.parametrize(
    ("variants", "problem"),
    [
        ({"hearts-99": ADD_TO_OTHERS}, "names no preset of this suite: 'hearts-99'"),
        ({"hearts-4": {"name": "mine"}}, "hearts-4: 'name' is not a rule of a ruleset"),
        ({"hearts-4": {"trumps": "spades"}}, "hearts-4: 'trumps' is not a rule of a ruleset"),
        ({"hearts-4": STRIP_2D}, "hearts-4 with"),  # 51 cards for four seats (RS-13)
        ({"hearts-4": {}}, "hearts-4: not an object of fields"),
        (["hearts-4"], "not an object"),
    ],
)
def test_a_malformed_variants_claim_is_a_hello_the_runner_cannot_use(variants: Any, problem: str) -> None:
    report = run_cases(HouseRules({}, variants=variants), CASES[:5])
    assert report.failure is not None and report.outcomes == [] and report.not_run == 5
    assert "no usable answer to the first hello: hello's capability 'variants' " in report.failure
    assert problem in report.failure


def test_the_command_runs_a_driver_with_a_house_rule(tmp_path: Path, capsys: Any) -> None:
    """Through the protocol: the moon of hearts-computer's rules on hearts-4, claimed as a variant."""
    script = tmp_path / "house.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            from reversis.conformance.engines import EngineError, ModuleEngine
            from reversis import reference

            HOUSE = {ADD_TO_OTHERS!r}

            class House(ModuleEngine):
                def _ruleset(self, ruleset):
                    if ruleset == "hearts-4":
                        return reference.Ruleset.from_json({{**reference.preset("hearts-4").to_json(), **HOUSE}})
                    return super()._ruleset(ruleset)

            engine = House(reference, "house")
            for line in sys.stdin:
                request = json.loads(line)
                request_id, cmd = request.pop("id"), request.pop("cmd")
                if cmd == "quit":
                    break
                try:
                    body = {{"ok": True, **engine.call(cmd, **request)}}
                    if cmd == "hello":
                        claims = dict(presets=["hearts-4"], custom_rulesets=False, variants={{"hearts-4": HOUSE}})
                        body["capabilities"].update(claims)
                except EngineError as error:
                    body = {{"ok": False, "error": error.code, "message": error.message}}
                print(json.dumps({{"id": request_id, **body}}), flush=True)
            """
        )
    )
    report = tmp_path / "report.json"
    driver = f"{sys.executable} {script}"
    assert main(["conformance", "--driver", driver, "--area", "moon-and-pit", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert '; variants hearts-4 with moon {"scoring": "add-to-others", "bonus": 26}' in out
    (data,) = json.loads(report.read_text())
    status = {o["case"]: o for o in data["outcomes"]}
    assert status["moon-and-pit/hearts-4-with-the-moon-added-to-the-others"]["status"] == "passed"
    assert status["moon-and-pit/taker-choice-stops-phase-moon-taker-choose"]["reason"].startswith(
        "house rule: the implementation's hearts-4 plays moon"
    )
    assert data["capabilities"]["variants"] == {"hearts-4": ADD_TO_OTHERS}
