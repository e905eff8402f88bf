"""The web table (web/, document 001) in a real browser: headless Chromium driven by Selenium.

The site is web/dist, built by web/build.sh when it is missing or older than its sources, and
served from a thread on 127.0.0.1. Positions are checked against the Python engine: the page's
save holds the game record (REC-1), which ``reversis.Game.from_record`` replays.

Skipped when the WebAssembly module (js/wasm), Selenium or Chromium is missing, unless
``REVERSIS_REQUIRE_BROWSER=1`` is set: then any of those is a failure.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import reversis
from webpage import (
    ASIDE_PREFIX,
    ROOT,
    SAVE_KEY,
    WEB,
    Table,
    card_face,
    card_name,
)

LEVELS = {"random", "rules", "learned", "search"}


def choose_players(table: Table, name: str, preset: str | None = None) -> None:
    """Choose the next match's computer players: a level by its player's name, or any player
    for every seat through the "each seat" choice (after the preset, whose seats it lists)."""
    from selenium.webdriver.support.ui import Select

    if preset is not None:
        Select(table.driver.find_element("id", "preset")).select_by_value(preset)
    Select(table.driver.find_element("id", "difficulty")).select_by_value(name if name in LEVELS else "each")
    if name not in LEVELS:
        for select in table.driver.find_elements("css selector", "#seat-players select"):
            Select(select).select_by_value(name)


def assert_no_hidden_cards(table: Table) -> None:
    """No card another seat holds unseen by seat 0 is anywhere in the page (001 ¶9)."""
    game = table.game()
    known = set(game.observation(0)["passed"] or [])  # seat 0 knows what it passed
    hidden = {c for seat in range(1, game.ruleset.players) for c in game.hand(seat)} - known
    assert hidden or game.phase in ("moon", "over")
    source = table.driver.page_source
    text = table.driver.execute_script("return document.body.textContent")
    labels = " ".join(
        table.driver.execute_script(
            "return Array.from(document.querySelectorAll('[aria-label],[title]'),"
            " e => (e.getAttribute('aria-label') || '') + ' ' + (e.title || ''))"
        )
    )
    for card in hidden:
        assert f'data-card="{card}"' not in source, card
        assert card_face(card) not in text, card
        assert card_name(card) not in text and card_name(card) not in labels, card


def test_default_preset_and_every_preset_listed(table: Table) -> None:
    from selenium.webdriver.support.ui import Select

    select = Select(table.driver.find_element("id", "preset"))
    assert select.first_selected_option.get_attribute("value") == "hearts-computer"
    # Every preset, the two-pack ones (RS-21) included: every computer player plays them.
    assert [o.get_attribute("value") for o in select.options] == list(reversis.preset_names())
    assert table.game().ruleset.name == "hearts-computer"
    assert "Computer-table Hearts" in table.driver.find_element("id", "status").text
    difficulty = Select(table.driver.find_element("id", "difficulty"))
    assert difficulty.first_selected_option.get_attribute("value") == "rules"  # as `reversis play`
    assert [o.get_attribute("value") for o in difficulty.options] == ["random", "rules", "learned", "search", "each"]


def test_pass_and_play_with_the_keyboard_alone(table: Table) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = table.driver
    table.deal(seed=2024)
    driver.execute_script("document.activeElement.blur()")

    def press(*keys: str) -> None:
        ActionChains(driver).send_keys(*keys).perform()

    def active(attribute: str) -> str | None:
        return driver.switch_to.active_element.get_attribute(attribute)

    def tab_until(test: Any, backwards: bool = False, limit: int = 80) -> None:
        for _ in range(limit):
            if test():
                return
            press(Keys.SHIFT + Keys.TAB if backwards else Keys.TAB)
        raise AssertionError("the keyboard never reached the control")

    tab_until(lambda: active("data-card") is not None)
    chosen = []
    for key in (Keys.SPACE, Keys.ENTER, Keys.SPACE):
        if chosen:
            press(Keys.TAB)
        chosen.append(active("data-card"))
        press(key)
        assert active("aria-pressed") == "true"
    assert len(set(chosen)) == 3
    assert not driver.find_element("id", "pass-confirm").get_attribute("disabled")
    tab_until(lambda: active("id") == "pass-confirm")
    press(Keys.ENTER)
    table.wait_idle()
    game = table.game()
    assert sorted(game.observation(0)["passed"]) == sorted(chosen)
    table.wait(lambda d: table.my_turn(), message="it never became seat 0's turn")
    table.wait_idle()
    before = len(game.actions)
    legal = set(table.game().legal_plays())
    tab_until(lambda: active("data-card") in legal)
    played = active("data-card")
    press(Keys.ENTER)
    table.wait_idle()
    after = table.game()
    assert {"type": "play", "seat": 0, "card": played} in after.actions[before:]
    assert played not in table.hand()


def test_focus_is_visible_on_cards(table: Table) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = table.driver
    driver.execute_script("document.activeElement.blur()")
    for _ in range(80):
        if driver.switch_to.active_element.get_attribute("data-card"):
            break
        ActionChains(driver).send_keys(Keys.TAB).perform()
    button = driver.switch_to.active_element
    assert button.get_attribute("data-card")
    style = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth]", button
    )
    assert style[0] != "none" and style[1] != "0px", style
    first = button.get_attribute("data-card")
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    assert driver.switch_to.active_element.get_attribute("data-card") not in (None, first)
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    assert driver.switch_to.active_element.get_attribute("data-card") == first


def test_illegal_cards_cannot_be_activated(table: Table) -> None:
    table.deal(seed=77)
    chosen = table.hand()[-3:]
    for card in chosen:
        table.driver.find_element("css selector", f'#hand button[data-card="{card}"]').click()
    # Once the pass has its cards, the rest of the hand cannot be chosen.
    assert table.enabled() == chosen
    table.driver.find_element("id", "pass-confirm").click()
    table.wait_idle()
    for _ in range(13):
        table.wait(lambda d: table.my_turn(), message="it never became seat 0's turn")
        table.wait_idle()
        game = table.game()
        legal = set(game.legal_plays())
        assert set(table.enabled()) == legal
        illegal = [b for b in table.hand_buttons() if b.get_attribute("data-card") not in legal]
        if illegal:
            before = len(game.actions)
            for button in illegal:
                assert button.get_attribute("disabled") is not None
                table.driver.execute_script("arguments[0].click()", button)
            time.sleep(0.1)
            assert len(table.game().actions) == before
            return
        table.play_first_legal()
    pytest.fail("seed 77 never gave seat 0 an illegal card to try")


def test_a_whole_hand_to_the_score_decided_in_the_worker(table: Table) -> None:
    table.deal(seed=31337)
    while True:
        table.wait_idle()
        game = table.game()
        if game.hand_scores:
            break
        if game.phase == "pass" and 0 in game.awaiting_pass:
            assert_no_hidden_cards(table)
            table.pass_first()
        elif game.phase == "play" and game.to_move == 0:
            assert_no_hidden_cards(table)
            table.play_first_legal()
        elif game.phase == "moon" and game.moon_taker == 0:
            table.driver.find_element("css selector", "#prompt-actions button").click()
        else:
            time.sleep(0.05)
    game = table.game()
    scores = game.hand_scores[0]
    assert sum(scores) in (26, 78)
    rows = table.driver.find_elements("css selector", "#scores tbody tr")
    assert [int(td.text) for td in rows[0].find_elements("css selector", "td")] == list(scores)
    # Every computer decision came back from the worker: none was made on the page.
    computer = [a for a in game.actions if a.get("seat") not in (None, 0)]
    assert int(table.data("workerDecisions")) == len(computer)
    assert "Hand 1 is over" in table.driver.find_element("id", "log").text


def test_reload_resumes_the_exact_position(table: Table) -> None:
    table.deal(seed=99)
    table.pass_first()
    table.wait(lambda d: table.my_turn())
    table.wait_idle()
    table.play_first_legal()
    table.wait(lambda d: table.my_turn())
    table.wait_idle()
    record = table.save()["record"]
    hand, status = table.hand(), table.driver.find_element("id", "status").text
    trick = table.driver.find_element("id", "trick").get_attribute("textContent")
    table.open(fresh=False)
    assert table.save()["record"] == record
    assert table.hand() == hand
    assert table.driver.find_element("id", "status").text == status
    assert table.driver.find_element("id", "trick").get_attribute("textContent") == trick
    assert set(table.enabled()) == set(table.game().legal_plays())
    assert "Resumed match" in table.driver.find_element("id", "log").text


def test_same_seed_same_deal_and_new_match_new_seed(table: Table) -> None:
    seed = 2**64 - 1  # the largest: exact through BigInt, the save and back
    table.deal(seed=seed)
    expected = reversis.Game(reversis.preset("hearts-computer"), seed=seed).hand(0)
    assert sorted(table.hand()) == sorted(expected)
    assert table.data("seed") == str(seed) and table.game().seed == seed
    first = table.hand()
    table.pass_first()
    table.driver.find_element("id", "replay").click()
    assert table.driver.find_element("id", "confirm").is_displayed()  # a match in progress: asked first
    table.driver.find_element("id", "confirm-yes").click()
    table.wait_idle()
    assert table.hand() == first and table.game().seed == seed
    assert len(table.game().actions) < 5
    table.deal()
    assert table.game().seed != seed
    assert table.data("seed") == str(table.game().seed)
    assert str(table.game().seed) in table.driver.find_element("id", "status").text


def test_bad_seed_is_explained(table: Table) -> None:
    before = table.save_text()
    table.deal(seed="18446744073709551616")
    error = table.driver.find_element("id", "seed-error")
    assert error.is_displayed() and "0 to 18446744073709551615" in error.text
    assert table.save_text() == before


@pytest.mark.parametrize(
    "corrupt",
    [
        '{"format": "reversis-web-save", "version": 1, "record": ',
        json.dumps({"format": "reversis-web-save", "version": 1, "record": '{"format": "reversis-record"}'}),
    ],
    ids=["bad-json", "bad-record"],
)
def test_an_unreadable_save_is_moved_aside_and_reported(table: Table, corrupt: str) -> None:
    driver = table.driver
    driver.execute_script("localStorage.clear(); localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, corrupt)
    table.open(fresh=False)
    aside = driver.execute_script(
        "return Object.keys(localStorage).filter(k => k.startsWith(arguments[0]))", ASIDE_PREFIX
    )
    assert len(aside) == 1
    assert driver.execute_script("return localStorage.getItem(arguments[0])", aside[0]) == corrupt
    banner = driver.find_element("id", "banner")
    assert banner.is_displayed() and aside[0] in banner.text and "could not be read" in banner.text
    assert table.save()["format"] == "reversis-web-save"  # a new match, saved under the usual key


def test_a_second_tab_is_read_only(table: Table) -> None:
    driver = table.driver
    first = driver.current_window_handle
    table.deal(seed=5)
    hand = table.hand()
    driver.switch_to.new_window("tab")
    second = Table(driver, table.url.split("?")[0]).open(fresh=False)
    try:
        assert second.data("readOnly") == "true"
        banner = driver.find_element("id", "banner").text
        assert "another tab" in banner and "read-only" in banner
        assert second.hand() == hand
        assert not second.enabled()
        assert not driver.find_element("id", "deal").is_enabled()
        # Asking to play here while the first tab is open changes nothing.
        saved = second.save_text()
        driver.find_element("xpath", "//div[@id='banner']//button[contains(., 'Play here instead')]").click()
        time.sleep(0.2)
        assert second.data("readOnly") == "true" and second.save_text() == saved
        driver.switch_to.window(first)
        assert table.data("readOnly") == "false"
        table.pass_first()  # the first tab plays on
        assert table.game().observation(0)["passed"]
        actions = table.data("actions")
        driver.switch_to.window(driver.window_handles[-1])
        # ...and the read-only tab follows what it saves.
        second.wait(lambda d: second.data("actions") == actions, message="the read-only tab did not follow the save")
        assert not second.enabled()
    finally:
        if driver.current_window_handle != first:
            driver.close()
        driver.switch_to.window(first)


def test_a_save_written_elsewhere_stops_this_tab_saving(table: Table) -> None:
    """The guard behind the lock: a save this tab did not write is never overwritten by it."""
    driver = table.driver
    first = driver.current_window_handle
    table.deal(seed=6)
    driver.switch_to.new_window("tab")
    driver.get(table.url)
    foreign = json.dumps({**json.loads(table.save_text()), "counter": 1000})
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, foreign)
    driver.close()
    driver.switch_to.window(first)
    table.wait(lambda d: table.data("readOnly") == "true", message="the first tab did not notice the other writer")
    assert not table.enabled()
    assert json.loads(table.save_text())["counter"] == 1000


def test_no_horizontal_scroll_on_a_phone(table: Table) -> None:
    driver = table.driver
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 375, "height": 667, "deviceScaleFactor": 2, "mobile": True}
    )
    try:
        for preset in ("hearts-computer", "hearts-3"):  # 13 and 17 cards
            table.deal(seed=8, preset=preset)
            width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1] == 375, width
        table.pass_first()
        table.wait(lambda d: table.my_turn())
        table.wait_idle()
        width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _web_save(game: Any) -> str:
    """A save of this table holding ``game``, as the page writes one."""
    record = reversis.dump_record(game.to_record(), "json").decode()
    seeds = [None] + [1000 + seat for seat in range(1, game.ruleset.players)]
    settings = {"opponents": "rules", "rollouts": 100}
    return json.dumps(
        {
            "format": "reversis-web-save",
            "version": 1,
            "counter": 1,
            "settings": settings,
            "opponent_seeds": seeds,
            "record": record,
        }
    )


def test_the_moon_choice_and_a_shared_win(table: Table) -> None:
    """Seat 0 takes every trick under a ruleset that lets the taker choose (002), and adding the
    bonus to the others ends the match with seat 0 and West tied for the lowest total."""
    ruleset = reversis.preset("hearts-4")
    top = ["AC", "KC", "QC", "JC", "AS", "KS", "QS", "JS", "AD", "KD", "QD", "AH", "KH"]
    rest = sorted((c for c in ruleset.deck if c not in top), key=lambda c: c != "2C")
    game = reversis.Game(ruleset, hand_number=3, scores=[26, 0, 90, 90])  # hand 4 keeps its cards
    game.apply({"type": "deal", "hands": [top, rest[0:13], rest[13:26], rest[26:39]]})
    while game.phase == "play":
        legal = game.legal_plays()
        game.play(next(c for c in top if c in legal) if game.to_move == 0 else legal[0])
    assert game.phase == "moon" and game.moon_taker == 0
    driver = table.driver
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, _web_save(game))
    table.open(fresh=False)
    prompt = driver.find_element("id", "prompt-text").text
    assert "shot the moon" in prompt
    buttons = driver.find_elements("css selector", "#prompt-actions button")
    assert [b.text for b in buttons] == ["Add 26 to every opponent", "Subtract 26 from your score"]
    assert not table.enabled()  # no card to play while the choice waits
    assert "no seed" in driver.find_element("id", "status").text
    assert not driver.find_element("id", "replay").is_enabled()
    buttons[0].click()
    table.wait_idle()
    game = table.game()
    assert game.phase == "over" and game.winners == [0, 1] and game.scores == [26, 26, 116, 116]
    assert "You share the win with West!" in driver.find_element("id", "prompt-text").text
    rows = [
        [c.text for c in tr.find_elements("css selector", "th, td")]
        for tr in driver.find_elements("css selector", "#scores tbody tr")
    ]
    assert rows == [["Start", "26", "0", "90", "90"], ["4", "0", "26", "26", "26"]]
    winners = driver.find_elements("css selector", "#scores tfoot td.winner")
    assert [td.text for td in winners] == ["26", "26"]
    # ...and on the table itself, at the winners' seats.
    seats = driver.find_elements("css selector", "#seats > .seat")
    marked = [int(s.get_attribute("data-seat")) for s in seats if "winner" in s.get_attribute("class").split()]
    assert marked == game.winners
    assert all("shares the win" in seats[seat].text for seat in game.winners)
    assert all("win" not in seats[seat].text for seat in range(4) if seat not in game.winners)
    assert "Match over" in driver.find_element("id", "prompt-text").text


@pytest.mark.parametrize(
    ("opponents", "preset"),
    [
        ("random", "cancellation-10"),
        ("rules", "cancellation-8"),
        ("montecarlo", "cancellation-6"),
        ("search", "cancellation-6"),
    ],
)
def test_two_pack_tables_play_a_whole_hand(table: Table, opponents: str, preset: str) -> None:
    """Cancellation Hearts (RS-21, RS-22) at the table: every kind of computer player, each seat
    count of the presets; the hand is scored as the Python engine scores the saved record."""
    choose_players(table, opponents, preset)
    table.deal(seed=5)
    players = table.game().ruleset.players
    assert len(table.driver.find_elements("css selector", "#seats > *")) == players
    while True:
        table.wait_idle()
        game = table.game()
        if game.hand_scores:
            break
        if game.phase == "pass" and 0 in game.awaiting_pass:
            table.pass_first()
        elif game.phase == "play" and game.to_move == 0:
            assert sorted(table.hand()) == sorted(game.hand(0))  # a card held twice shows twice
            tricks = game.observation(0)["tricks"]
            if tricks and tricks[-1]["winner"] is None:  # PLAY-9: the last trick is shown held over
                assert "held over" in table.driver.find_element("id", "last-trick").text
            table.play_first_legal()
        elif game.phase == "moon" and game.moon_taker == 0:
            table.driver.find_element("css selector", "#prompt-actions button").click()
        else:
            time.sleep(0.05)
    game = table.game()
    rows = table.driver.find_elements("css selector", "#scores tbody tr")
    assert [int(td.text) for td in rows[0].find_elements("css selector", "td")] == list(game.hand_scores[0])
    computer = [a for a in game.actions if a.get("seat") not in (None, 0)]
    assert int(table.data("workerDecisions")) == len(computer)
    assert table.save()["settings"]["players"] == [None] + [opponents] * (players - 1)
    log = table.driver.find_element("id", "log").text
    assert "undefined" not in log and "Hand 1 is over" in log


def _held_over_position() -> Any:
    """A game of `cancellation-6` where the trick just completed was held over (PLAY-9) and its
    leader, seat 0, leads again; reached by seeded random play."""
    ruleset = reversis.preset("cancellation-6")
    for seed in range(500):
        game = reversis.Game(ruleset, seed=seed)
        rng = random.Random(seed)
        while game.phase in ("pass", "play"):
            game.apply_action(rng.choice(game.legal_actions()))
            if game.phase == "play" and game.to_move == 0 and not game.observation(0)["trick"]:
                tricks = game.observation(0)["tricks"]
                if tricks and tricks[-1]["winner"] is None:
                    return game
    raise AssertionError("no held-over trick led by seat 0 in 500 seeded hands")


def test_a_held_over_trick_is_shown_as_such(table: Table) -> None:
    game = _held_over_position()
    driver = table.driver
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, _web_save(game))
    table.open(fresh=False)
    table.wait_idle()
    last = driver.find_element("id", "last-trick").text
    assert "held over" in last and "took it" not in last
    assert len(driver.find_elements("css selector", "#seats > *")) == 6
    assert sorted(table.hand()) == sorted(game.hand(0))


@pytest.mark.parametrize("opponents", ["random", "montecarlo", "search", "learned"])
def test_every_kind_of_computer_player_plays(table: Table, opponents: str) -> None:
    choose_players(table, opponents)
    table.deal(seed=3)
    table.pass_first()
    table.wait(lambda d: table.my_turn(), timeout=60)
    table.wait_idle()
    game = table.game()
    assert len([a for a in game.actions if a.get("seat") not in (None, 0)]) >= 3
    assert int(table.data("workerDecisions")) >= 3
    assert table.save()["settings"]["players"] == [None, opponents, opponents, opponents]


# Copies every decision the page asks a worker for, the seed as text (a BigInt does not leave
# the page).
DECISIONS = """
window.decisions = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (data, ...rest) {
  if (data && data.player) {
    const player = { ...data.player, seed: String(data.player.seed) };
    window.decisions.push({ observation: structuredClone(data.observation), player });
  }
  return post.call(this, data, ...rest);
};
"""


def test_the_hard_level_is_the_search_playing_for_the_match(table: Table) -> None:
    script = table.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": DECISIONS})
    try:
        table.open()
        choose_players(table, "search")
        # The match on the table when the page opened has rule-based players.
        table.driver.execute_script("window.decisions = []")
        table.deal(seed=3)
        table.pass_first()
        table.wait(lambda d: table.my_turn(), timeout=60)
        table.wait_idle()
        sent = table.driver.execute_script("return window.decisions")
    finally:
        table.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    game = table.game()
    # The observation of each decision of a computer seat in this match, as the Python engine
    # shows it to that seat: the requests of the match are those for one of these.
    replay = reversis.Game(game.ruleset)  # the record deals every hand itself
    observations: list[dict[str, Any]] = []
    for action in game.actions:
        seat = action.get("seat")
        if seat not in (None, 0) and action["type"] in ("pass", "play"):
            observations.append(replay.observation(seat))
        replay.apply(action)
    sent = [message for message in sent if message["observation"] in observations]
    assert len(sent) >= 3
    assert all(message["player"]["name"] == "search" and message["player"]["objective"] == "match" for message in sent)
    # The worker hands the objective to the player: one it does not know is refused, not dropped.
    reply = table.driver.execute_async_script(
        """
        const [rules, observation, done] = arguments;
        const worker = new Worker("worker.js", { type: "module" });
        worker.onmessage = (event) => {
          if (event.data.type === "ready") {
            const player = { name: "search", seed: 1n, objective: "the hand" };
            worker.postMessage({ id: 1, ruleset: rules, observation, player });
          } else {
            worker.terminate();
            done(event.data);
          }
        };
        """,
        game.ruleset.to_json(),
        observations[-1],
    )
    assert reply["type"] == "error" and "objective" in reply["message"], reply


def test_there_is_no_take_back(table: Table) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    table.deal(seed=12)
    table.pass_first()
    record = table.save()["record"]
    ActionChains(table.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    table.wait(lambda d: "There is no take-back" in d.find_element("id", "log").text)
    assert table.save()["record"] == record
    assert "no take-back" in table.driver.find_element("css selector", "details.help-text").get_attribute("textContent")


def test_an_unreadable_save_that_cannot_be_moved_is_left_alone(table: Table) -> None:
    """Where the browser refuses the copy (storage full), the save stays as it was, unwritten."""
    driver = table.driver
    corrupt = "not a save at all"
    driver.execute_script("localStorage.clear(); localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, corrupt)
    script = driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {
            "source": "const set = Storage.prototype.setItem;"
            "Storage.prototype.setItem = function (key, value) {"
            f"  if (String(key).startsWith('{ASIDE_PREFIX}')) throw new DOMException('full', 'QuotaExceededError');"
            "  return set.call(this, key, value); };"
        },
    )
    try:
        table.open(fresh=False)
        banner = driver.find_element("id", "banner").text
        assert "could not be moved aside" in banner and "will not be saved" in banner
        before = int(table.data("actions"))
        for card in table.enabled()[:3]:  # the match is played, only not saved
            driver.find_element("css selector", f'#hand button[data-card="{card}"]').click()
        driver.find_element("id", "pass-confirm").click()
        table.wait_idle()
        assert int(table.data("actions")) > before
        assert table.save_text() == corrupt
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_a_finished_match_is_kept_when_the_next_one_starts(table: Table) -> None:
    """As reversis play keeps save.json.finished-*: the finished match's save is not overwritten."""
    ruleset = reversis.preset("hearts-4")
    top = ["AC", "KC", "QC", "JC", "AS", "KS", "QS", "JS", "AD", "KD", "QD", "AH", "KH"]
    rest = sorted((c for c in ruleset.deck if c not in top), key=lambda c: c != "2C")
    game = reversis.Game(ruleset, hand_number=3, scores=[26, 0, 90, 90])
    game.apply({"type": "deal", "hands": [top, rest[0:13], rest[13:26], rest[26:39]]})
    while game.phase == "play":
        legal = game.legal_plays()
        game.play(next(c for c in top if c in legal) if game.to_move == 0 else legal[0])
    game.choose_moon("add-to-others")
    assert game.phase == "over"
    driver = table.driver
    finished = _web_save(game)
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, finished)
    table.open(fresh=False)
    table.deal(seed=5)
    kept = driver.execute_script(
        "return Object.keys(localStorage).filter(k => k.startsWith('reversis.save.finished.'))"
        ".map(k => localStorage.getItem(k))"
    )
    assert kept == [finished]
    assert table.save()["record"] != json.loads(finished)["record"]
    assert table.game().seed == 5
    assert "finished match is kept" in driver.find_element("tag name", "body").text


def test_the_readme_screenshot_command_takes_its_pictures(site: Path, tmp_path: Path) -> None:
    """web/screenshot.py, as the README gives it, writes a PNG of the table at each window's size."""
    import sys

    taken = subprocess.run(
        [sys.executable, str(WEB / "screenshot.py"), str(tmp_path), "--only", "table"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert taken.returncode == 0, taken.stderr
    sizes = {}
    for path in sorted(tmp_path.iterdir()):
        png = path.read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n"), path
        sizes[path.name] = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
    # Every file is a picture: no temporary file is left behind.
    assert sizes == {"table-desktop.png": (1280, 900), "table-phone.png": (390, 844)}, sizes


def _count_down_match(seed: int) -> Any:
    """A hartenjagen-count-down match played by random players through its first count-down
    hand, at the start of the next; ``None`` where that hand ended the match (MATCH-7)."""
    from reversis.players import RandomPlayer, act_for

    game = reversis.Game(reversis.preset("hartenjagen-count-down"), seed=seed)
    players = [RandomPlayer(seed=seed * 10 + seat) for seat in range(4)]
    started = None  # the hands scored when the count-down started
    while game.phase != "over":
        if started is None and game.count_down:
            started = len(game.hand_scores)
        if started is not None and len(game.hand_scores) > started:
            return game
        act_for(game, players)
    return None


def _status_and_caption(table: Table) -> tuple[str, str]:
    driver = table.driver
    return driver.find_element("id", "status").text, driver.find_element("css selector", "#scores caption").text


def test_before_the_target_the_count_down_is_announced(table: Table) -> None:
    game = reversis.Game(reversis.preset("hartenjagen-count-down"), seed=3)
    table.driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, _web_save(game))
    table.open(fresh=False)
    status, caption = _status_and_caption(table)
    # MATCH-5: reaching 50 does not end the match; it starts the count-down.
    assert "the count-down starts at 50 points" in status
    assert "ends at 50" not in status
    assert caption.startswith("When a total reaches 50, the count-down starts: from the next hand each total goes down")


def test_after_the_target_the_count_down_is_explained(table: Table) -> None:
    game = next(g for g in map(_count_down_match, range(100)) if g is not None)
    # Worked from the hand rows, not from the engine's standing: the hand after which a total
    # first reached 50 (MATCH-5), and the seats at or past 50 then.
    cumulative, totals = [], [0, 0, 0, 0]
    for row in game.hand_scores:
        totals = [t + s for t, s in zip(totals, row)]
        cumulative.append(totals)
    number = next(n for n, after in enumerate(cumulative) if max(after) >= 50)
    named = [["You", "West", "North", "East"][seat] for seat in range(4) if cumulative[number][seat] >= 50]
    who = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    table.driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, _web_save(game))
    table.open(fresh=False)
    status, caption = _status_and_caption(table)
    assert "ends at 50" not in status
    assert "counting down to zero since" in status
    assert caption.startswith("Count-down: ")
    assert f"reached 50 after hand {number + 1}; from hand {number + 2} on each total goes down" in caption
    assert "the match ends when a total reaches zero" in caption
    assert f"since {who} reached 50" in status and f"Count-down: {who} reached 50" in caption
    # The count-down hand's row shows each total going down (MATCH-6), which the caption explains.
    rows = [
        [c.text for c in tr.find_elements("css selector", "td")]
        for tr in table.driver.find_elements("css selector", "#scores tbody tr")
    ]
    assert len(rows) == len(game.hand_scores) == number + 2
    assert all(int(v) <= 0 for v in rows[-1]) and any(int(v) < 0 for v in rows[-1])
    assert "rows show how much each total went down" in caption


def test_a_match_of_a_number_of_deals_counts_them(table: Table) -> None:
    # MATCH-9: black-maria-deals has no target; its sixth deal (hand number 5) is its last.
    game = reversis.Game(reversis.preset("black-maria-deals"), seed=3, hand_number=2)
    table.driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, _web_save(game))
    table.open(fresh=False)
    status, caption = _status_and_caption(table)
    assert "deal 3 of 6" in status
    assert "ends at" not in status and "None" not in status and "null" not in status
    assert caption.startswith("The match ends after 6 deals.")
