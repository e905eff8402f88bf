"""axe-core on the web table and the results page in headless Chromium: no violation of impact
"serious" or "critical" (the review is audited in tests/test_web_review.py, once a hand is played).

axe-core is the copy PyPI's axe-selenium-python bundles (the ``web`` extra), injected into the
page as it is; its wrapper is not needed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import reversis
from webpage import Table, severe_violations

FINISHED = "reversis.save.finished."


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
