"""The web table as a game: the seats around the table, the trick in front of its players, the
pace, the settings and the levels, and what a reload brings back. Headless Chromium through
Selenium, as tests/test_web_table.py; positions are checked against the Python engine through the
page's save (``Table.game``).
"""

from __future__ import annotations

import json
import math
import random
import re
from typing import Any

import reversis
from test_web_table import _web_save, assert_no_hidden_cards, choose_players
from webpage import SAVE_KEY, Table, card_name

SETTINGS_KEY = "reversis.settings"


def _centre(driver: Any, element: Any) -> tuple[float, float]:
    box = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height]", element
    )
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def _angle(origin: tuple[float, float], point: tuple[float, float]) -> float:
    """Degrees clockwise from "to the right" (the screen's y grows downwards)."""
    return math.degrees(math.atan2(point[1] - origin[1], point[0] - origin[0])) % 360


def _apart(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def _log(table: Table) -> list[str]:
    return table.driver.execute_script("return Array.from(document.querySelectorAll('#log li'), li => li.textContent)")


def _play_until(table: Table, done: Any) -> None:
    """Pass and play seat 0's first legal cards until ``done(game)`` holds at seat 0's turn."""
    while True:
        table.wait_idle()
        game = table.game()
        if game.phase == "pass" and 0 in game.awaiting_pass:
            table.pass_first()
        elif game.phase == "play" and game.to_move == 0:
            if done(game):
                return
            table.play_first_legal()
        else:
            table.wait(lambda d: table.my_turn() or table.game().phase not in ("play", "pass"), timeout=20)


def test_computer_cards_come_at_the_promised_pace_and_a_finished_trick_stays(table: Table) -> None:
    """README: the computer players pause 600 ms before each card unless ?pace= says otherwise,
    and the trick's last card is seen: the finished trick stays on the table, whole."""
    driver = table.driver
    table.deal(seed=11)
    table.pass_first()
    # Every change of the trick area, timed, from the first moment of the page without ?pace=.
    script = driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {
            "source": "window.trickChanges = [];"
            "new MutationObserver(() => {"
            "  const seats = Array.from(document.querySelectorAll('#trick li'), li => li.dataset.seat);"
            "  const last = window.trickChanges.at(-1);"
            "  if (!last || last.seats.join() !== seats.join())"
            "    window.trickChanges.push({t: performance.now(), seats});"
            "}).observe(document, {childList: true, subtree: true});"
        },
    )
    try:
        driver.get(table.url.split("?")[0])
        table.wait_idle()
        # From the settled, resumed position on: its first drawing is no card being played.
        driver.execute_script("window.trickChanges = window.trickChanges.slice(-1)")
        _play_until(table, lambda game: len(game.observation(0)["tricks"]) >= 2)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    changes = driver.execute_script("return window.trickChanges")
    players = table.game().ruleset.players
    computer_gaps, full_shown = _computer_gaps(changes, players)
    assert len(computer_gaps) >= 3, changes
    # 600 ms, less a timer's slack.
    assert min(computer_gaps) >= 550, computer_gaps
    assert full_shown and min(full_shown) >= 550, changes

    # The speed setting: "instant" takes the pause away, at once.
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "speed")).select_by_value("instant")
    driver.execute_script("window.trickChanges = window.trickChanges.slice(-1)")
    _play_until(table, lambda game: len(game.observation(0)["tricks"]) >= 4)
    gaps = _computer_gaps(driver.execute_script("return window.trickChanges"), players)[0]
    assert gaps and max(gaps) < 300, gaps


def _computer_gaps(changes: list[dict[str, Any]], players: int) -> tuple[list[float], list[float]]:
    """From the timed changes of the trick area: the time before each computer card appeared,
    and how long each whole trick stayed (unless seat 0 led the next one, taking it away)."""
    computer_gaps: list[float] = []
    full_shown: list[float] = []
    for before, after in zip(changes, changes[1:]):
        added = [seat for seat in after["seats"] if seat not in before["seats"]]
        if len(after["seats"]) == len(before["seats"]) + 1 and added != ["0"]:
            computer_gaps.append(after["t"] - before["t"])
        # (Seat 0 leading the next trick takes the last one away at once: a person's choice.)
        if len(before["seats"]) == players and after["seats"] != ["0"]:
            full_shown.append(after["t"] - before["t"])
    return computer_gaps, full_shown


def test_the_table_at_a_glance(table: Table) -> None:
    """Seats around the table in playing order, the trick in front of its players, leader and
    seat to move marked, SVG cards, the pass within a laptop's window, focus unlike selection,
    received cards tagged, the four-colour deck and no motion where it is not wanted."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = table.driver
    table.deal(seed=2024)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 757, "deviceScaleFactor": 1, "mobile": False}
    )
    try:
        table.open(fresh=False)  # the page as it opens in a laptop's window
        # The whole hand and the Pass button without scrolling.
        assert driver.execute_script("return window.scrollY") == 0
        bottom = driver.execute_script("return window.innerHeight")
        for element in [*table.hand_buttons(), driver.find_element("id", "pass-confirm")]:
            rect = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)
            assert rect["top"] >= 0 and rect["bottom"] <= bottom, rect

        # Focus and selection look different: a chosen card is raised with a check mark; the
        # keyboard's card has an outline of a colour the chosen card's edge does not have.
        first, second = table.enabled()[:2]
        driver.find_element("css selector", f'#hand button[data-card="{first}"]').click()
        driver.execute_script("document.activeElement.blur()")
        for _ in range(80):
            if driver.switch_to.active_element.get_attribute("data-card") == second:
                break
            ActionChains(driver).send_keys(Keys.TAB).perform()
        style = """const [b, pseudo] = [arguments[0], getComputedStyle(arguments[0], '::after')];
            const s = getComputedStyle(b); const paper = getComputedStyle(b.querySelector('.paper'));
            return {outline: s.outlineStyle + ' ' + s.outlineColor, transform: s.transform,
                    check: pseudo.content, edge: paper.stroke};"""
        selected = driver.execute_script(style, driver.find_element("css selector", f'#hand [data-card="{first}"]'))
        focused = driver.execute_script(style, driver.switch_to.active_element)
        assert focused["outline"].startswith("solid") and selected["outline"].startswith("none"), (focused, selected)
        assert "✓" in selected["check"] and "✓" not in focused["check"]
        assert selected["transform"] != "none" and focused["transform"] == "none"
        assert focused["outline"].split(" ", 1)[1] != selected["edge"]
        driver.find_element("css selector", f'#hand button[data-card="{first}"]').click()  # unchosen again

        table.pass_first()
        table.wait(lambda d: table.my_turn())
        table.wait_idle()
        game = table.game()
        observation = game.observation(0)
        # The received cards carry a word, readable on a dimmed card too.
        received = set(observation["received"])
        tagged = driver.execute_script(
            "return Array.from(document.querySelectorAll('#hand button.card'), b => {"
            " const tag = b.querySelector('.tag');"
            " return [b.dataset.card, tag ? tag.textContent : null, tag ? getComputedStyle(tag).opacity : null,"
            "         tag ? tag.getBoundingClientRect().width : 0, b.disabled]; })"
        )
        assert {card for card, text, *_ in tagged if text == "received"} == received
        assert all(opacity == "1" and width > 0 for _, text, opacity, width, _ in tagged if text)

        # Seats: you at the bottom, West left, North at the top, East right (clockwise, the
        # order of play); each card of the trick lies between its player and the middle.
        felt = _centre(driver, driver.find_element("id", "felt"))
        seats = {int(e.get_attribute("data-seat")): e for e in driver.find_elements("css selector", "#seats > .seat")}
        assert sorted(seats) == [0, 1, 2, 3]
        where = {seat: _centre(driver, e) for seat, e in seats.items()}
        assert where[0][1] > felt[1] and where[2][1] < felt[1] and where[1][0] < felt[0] < where[3][0]
        trick = observation["trick"]
        assert trick, "seed 2024: a computer seat leads the first trick"
        for entry in trick:
            card = driver.find_element("css selector", f'#trick li[data-seat="{entry["seat"]}"] [data-card]')
            assert card.get_attribute("data-card") == entry["card"]
            spot = _centre(driver, card)
            assert _apart(_angle(felt, spot), _angle(felt, where[entry["seat"]])) < 180 / 4
            assert math.dist(felt, spot) < math.dist(felt, where[entry["seat"]])
            # ...and a screen reader hears it from the seat.
            label = seats[entry["seat"]].get_attribute("aria-label")
            assert f"played the {card_name(entry['card'])}" in label
        leader = trick[0]["seat"]
        for seat, element in seats.items():
            classes = element.get_attribute("class").split()
            assert ("leader" in classes) == (seat == leader)
            assert ("to-move" in classes) == (seat == 0)
            assert ("leads" in element.text) == (seat == leader)
            assert element.get_attribute("role") == "group"
        # Cards are drawn: rank and suit as SVG text.
        svg = driver.execute_script(
            "return Array.from(document.querySelectorAll('#hand button.card'),"
            " b => Array.from(b.querySelectorAll('svg text'), t => t.textContent).join(''))"
        )
        for card, faces in zip(table.hand(), svg):
            assert ("10" if card[0] == "T" else card[0]) in faces, faces
            assert {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]] in faces, faces
        assert_no_hidden_cards(table)

        # The four-colour deck: clubs and spades, diamonds and hearts, no longer alike.
        def colours() -> dict[str, str]:
            return driver.execute_script(
                "const out = {}; for (const s of 'CDHS') {"
                " const t = document.createElement('span'); t.className = 'card suit-' + s;"
                " document.getElementById('hand').append(t); out[s] = getComputedStyle(t).color; t.remove(); }"
                " return out"
            )

        two = colours()
        assert two["C"] == two["S"] and two["D"] == two["H"]
        driver.find_element("id", "four-colour").click()
        four = colours()
        assert len(set(four.values())) == 4, four

        # A taken trick slides to its taker, except under prefers-reduced-motion.
        def animation() -> str:
            return driver.execute_script(
                "const t = document.getElementById('trick'); t.classList.add('collecting');"
                " const li = t.querySelector('li.played'); const name = getComputedStyle(li).animationName;"
                " t.classList.remove('collecting'); return name"
            )

        assert animation() != "none"
        driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
        )
        assert animation() == "none"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_reload_brings_back_the_chosen_cards_the_story_and_the_view(table: Table) -> None:
    from selenium.webdriver.support.ui import Select

    driver = table.driver
    table.deal(seed=99)
    _play_until(table, lambda game: len(game.observation(0)["tricks"]) >= 2)
    driver.find_element("id", "last-trick-toggle").click()
    driver.find_element("id", "four-colour").click()
    Select(driver.find_element("id", "speed")).select_by_value("fast")
    before = _log(table)
    table.open(fresh=False)
    after = _log(table)
    # The hand's story, told again from the record: the same lines, then the resumption.
    start = max(i for i, line in enumerate(before) if line.startswith("Hand 1 is dealt"))
    assert after[:-1] == before[start:]
    assert after[-1].startswith("Resumed match")
    # The view as it was: the last trick open, showing the engine's last trick.
    assert driver.find_element("id", "last-trick-panel").is_displayed()
    assert driver.find_element("id", "last-trick-toggle").get_attribute("aria-expanded") == "true"
    last = table.game().observation(0)["tricks"][-1]
    shown = [
        e.get_attribute("data-card") for e in driver.find_elements("css selector", "#last-trick-cards [data-card]")
    ]
    assert shown == [entry["card"] for entry in last["cards"]]
    assert driver.find_element("id", "four-colour").is_selected()
    assert "four-colour" in driver.find_element("tag name", "body").get_attribute("class")
    assert Select(driver.find_element("id", "speed")).first_selected_option.get_attribute("value") == "fast"
    # Kept as settings, apart from the match's save.
    settings = json.loads(driver.execute_script("return localStorage.getItem(arguments[0])", SETTINGS_KEY))
    assert settings["speed"] == "fast" and settings["fourColour"] is True and settings["lastTrickOpen"] is True
    assert "fast" not in table.save_text() and "four" not in table.save_text().lower()

    # The cards chosen toward a pass.
    table.deal(seed=100)
    chosen = table.enabled()[-2:]
    for card in chosen:
        driver.find_element("css selector", f'#hand button[data-card="{card}"]').click()
    table.open(fresh=False)
    pressed = [b.get_attribute("data-card") for b in table.hand_buttons() if b.get_attribute("aria-pressed") == "true"]
    assert sorted(pressed) == sorted(chosen)
    assert "2 of 3 chosen" in driver.find_element("id", "prompt-text").text
    assert not driver.find_element("id", "pass-confirm").is_enabled()
    # ...and a save from before the choice was kept (no `selection`) still loads, none chosen.
    save = table.save()
    del save["selection"]
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, json.dumps(save))
    table.open(fresh=False)
    assert not [b for b in table.hand_buttons() if b.get_attribute("aria-pressed") == "true"]
    assert table.game().seed == 100


def test_levels_map_to_players_and_each_seat_may_have_its_own(table: Table) -> None:
    from selenium.webdriver.support.ui import Select

    driver = table.driver
    difficulty = Select(driver.find_element("id", "difficulty"))
    named = {o.text.split(" ")[0]: o.get_attribute("value") for o in difficulty.options}
    assert named == {"Beginner": "random", "Easy": "rules", "Medium": "learned", "Hard": "search", "Each": "each"}
    for level in ("random", "search", "rules"):
        choose_players(table, level)
        table.deal(seed=7)
        assert table.save()["settings"]["players"] == [None, level, level, level]
    assert not driver.find_element("id", "seat-players").is_displayed()
    # Each seat its own player: the preset's computer seats, by name.
    Select(driver.find_element("id", "preset")).select_by_value("hearts-3")
    Select(driver.find_element("id", "difficulty")).select_by_value("each")
    selects = driver.find_elements("css selector", "#seat-players select")
    assert driver.find_element("id", "seat-players").is_displayed() and len(selects) == 2
    chosen = ["montecarlo", "random"]
    for select, name in zip(selects, chosen):
        Select(select).select_by_value(name)
    table.deal(seed=7)
    assert table.save()["settings"]["players"] == [None, *chosen]
    assert table.game().ruleset.players == 3
    table.open(fresh=False)
    assert table.save()["settings"]["players"] == [None, *chosen]
    assert Select(driver.find_element("id", "difficulty")).first_selected_option.get_attribute("value") == "each"
    selects = driver.find_elements("css selector", "#seat-players select")
    assert [Select(s).first_selected_option.get_attribute("value") for s in selects] == chosen
    settings = json.loads(driver.execute_script("return localStorage.getItem(arguments[0])", SETTINGS_KEY))
    assert settings["difficulty"] == "each" and settings["seatPlayers"][1:3] == chosen
    # A save of version 1 from before the levels (`opponents` alone) plays on with that player.
    game = reversis.Game(reversis.preset("hearts-computer"), seed=8)
    old = json.loads(_web_save(game))
    old["settings"] = {"opponents": "search", "rollouts": 100}
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, json.dumps(old))
    table.open(fresh=False)
    assert "Hard computer players" in driver.find_element("id", "status").text
    table.pass_first()
    assert table.save()["settings"]["players"] == [None, "search", "search", "search"]


def _events_position() -> tuple[Any, dict[str, Any], int]:
    """A hearts-computer game, seat 0 to play, after the queen of spades was taken, starting
    from a total of 1 for seat 0; with the first point card played (its entry) and the queen's
    taker. Reached by seeded random play."""
    ruleset = reversis.preset("hearts-computer")
    for seed in range(300):
        game = reversis.Game(ruleset, seed=seed, scores=[1, 0, 0, 0])
        rng = random.Random(seed)
        while game.phase in ("pass", "play"):
            game.apply_action(rng.choice(game.legal_actions()))
            if game.hand_scores or game.phase != "play" or game.to_move != 0:
                continue
            tricks = game.observation(0)["tricks"]
            taken = [t["winner"] for t in tricks if any(e["card"] == "QS" for e in t["cards"])]
            if taken and game.observation(0)["points"][0] == 0:
                plays = [e for t in tricks for e in t["cards"]]
                first = next(e for e in plays if ruleset.card_points.get(e["card"], 0))
                return game, first, taken[0]
    raise AssertionError("no position with the queen taken in 300 seeded hands")


def test_the_hands_events_the_winners_and_one_point_on_the_table(table: Table) -> None:
    game, first, taker = _events_position()
    driver = table.driver
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", SAVE_KEY, _web_save(game))
    table.open(fresh=False)
    names = ["you", "West", "North", "East"]
    events = driver.find_element("id", "events").text
    broken = "Hearts broken" if first["card"][1] == "H" else "First points"
    assert f"{broken}: {names[first['seat']]} played the {card_name(first['card'])}." in events
    assert f"{names[taker].capitalize()} took the queen of spades (13 points)." in events
    # Seat 0's total is 1 (and no seat has taken points this hand before the queen's taker).
    you = driver.find_element("css selector", '#seats > .seat[data-seat="0"]')
    assert re.search(r"\b1 point\b", you.text), you.text
    assert "1 point," in you.get_attribute("aria-label")
    page = driver.execute_script("return document.body.innerText")
    assert not re.search(r"\b1 points\b", page), re.findall(r".{30}\b1 points\b", page)
    assert not re.search(r"\b1 cards\b", page)
    assert not driver.find_elements("css selector", "#seats .winner")  # the match goes on
