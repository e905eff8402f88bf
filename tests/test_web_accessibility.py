"""axe-core on the web table and the results page in headless Chromium: no violation of impact
"serious" or "critical".

axe-core is the copy PyPI's axe-selenium-python bundles (the ``web`` extra), injected into the
page as it is; its wrapper is not needed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import reversis
from webpage import Table

FINISHED = "reversis.save.finished."
SEVERE = ("serious", "critical")


def axe_source() -> str:
    try:
        import axe_selenium_python
    except ImportError:
        pytest.skip("axe-selenium-python is not installed (pip install '.[web]' in the checkout)")
    return (Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()


def severe_violations(driver: Any) -> list[tuple[str, str, list[str]]]:
    """axe-core's violations of impact serious or critical on the page as it is now: for each, the
    rule, what it asks and the selectors of the nodes that break it."""
    driver.execute_script(axe_source())
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(JSON.stringify(r.violations)), e => done(JSON.stringify({error: String(e)})))"
    )
    violations = json.loads(result)
    assert isinstance(violations, list), violations
    return [
        (v["id"], f"{v['impact']}: {v['help']}", [" ".join(n["target"]) for n in v["nodes"]])
        for v in violations
        if v["impact"] in SEVERE
    ]


def test_axe_finds_a_planted_violation(table: Table) -> None:
    """The check can fail: an unlabelled image button and text on its own colour are reported."""
    table.driver.execute_script(
        "const b = document.createElement('button'); b.id = 'planted'; b.innerHTML = '<img src=\"icon.svg\">';"
        "document.body.append(b)"
    )
    found = severe_violations(table.driver)
    assert any(rule in ("button-name", "image-alt") and "#planted" in " ".join(nodes) for rule, _, nodes in found), (
        found
    )


def test_the_table_during_a_pass_and_during_play(table: Table) -> None:
    table.deal(seed=2024)
    assert table.data("phase") == "pass"
    during_pass = severe_violations(table.driver)
    table.pass_first()
    table.wait(lambda d: table.my_turn(), message="it never became seat 0's turn")
    table.wait_idle()
    assert table.data("phase") == "play"
    during_play = severe_violations(table.driver)
    assert (during_pass, during_play) == ([], [])


def _finished_save(seed: int) -> str:
    game = reversis.Game(reversis.preset("hearts-computer"), seed=seed)
    step = 0
    while game.phase != "over":
        legal = game.legal_actions()
        game.apply_action(legal[(step * 5) % len(legal)])
        step += 1
    record = reversis.dump_record(game.to_record(), "json").decode()
    settings = {"opponents": "rules", "rollouts": 100}
    return json.dumps(
        {"format": "reversis-web-save", "version": 1, "counter": 1, "settings": settings, "record": record}
    )


@pytest.mark.parametrize("width", [1000, 390])
def test_the_results_page(browser: Any, base_url: str, width: int) -> None:
    url = base_url + "results.html"
    browser.get(url)
    entries = {FINISHED + "20261201T090000Z": _finished_save(3), FINISHED + "20261202T090000Z": "not a save"}
    browser.execute_script(
        "localStorage.clear(); for (const [k, v] of Object.entries(arguments[0])) localStorage.setItem(k, v)", entries
    )
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    )
    try:
        browser.get(url)
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        assert browser.find_elements("css selector", "#matches-body tr")
        assert severe_violations(browser) == []
        # And with the confirmation open.
        browser.find_element("id", "delete-all").click()
        assert severe_violations(browser) == []
        browser.find_element("id", "confirm-no").click()
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
