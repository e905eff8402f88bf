"""The results page of the web table (web/results.html) in headless Chromium: this browser's finished
matches, kept by the table under ``reversis.save.finished.*``, their statistics, export as game
records (REC-1), import and deleting.

The matches are made with the Python engine and written into localStorage as the table writes its
saves; every figure the page shows is checked against the Python engine replaying the same record.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import reversis
from webpage import SAVE_KEY, Table

FINISHED = "reversis.save.finished."
NAMES_4 = ["You", "West", "North", "East"]


def finished_by_choice(seed: int) -> Any:
    """A whole match of hearts-computer from ``seed``, every seat choosing by a fixed rule."""
    game = reversis.Game(reversis.preset("hearts-computer"), seed=seed)
    step = 0
    while game.phase != "over":
        legal = game.legal_actions()
        game.apply_action(legal[(step * 7) % len(legal)])
        step += 1
    return game


def moon_finish(start: list[int], choice: str) -> Any:
    """Seat 0 takes every trick of a last hand of hearts-4 (002's taker's choice), then chooses."""
    ruleset = reversis.preset("hearts-4")
    top = ["AC", "KC", "QC", "JC", "AS", "KS", "QS", "JS", "AD", "KD", "QD", "AH", "KH"]
    rest = sorted((c for c in ruleset.deck if c not in top), key=lambda c: c != "2C")
    game = reversis.Game(ruleset, hand_number=3, scores=start)  # hand 4 keeps its cards
    game.apply({"type": "deal", "hands": [top, rest[0:13], rest[13:26], rest[26:39]]})
    while game.phase == "play":
        legal = game.legal_plays()
        game.play(next(c for c in top if c in legal) if game.to_move == 0 else legal[0])
    game.choose_moon(choice)
    assert game.phase == "over"
    return game


def web_save(game: Any, opponents: str | None = "rules") -> str:
    """A save of the table holding ``game``, as web/app.js writes one."""
    data: dict[str, Any] = {
        "format": "reversis-web-save",
        "version": 1,
        "counter": 5,
        "opponent_seeds": [None] + [1000 + seat for seat in range(1, game.ruleset.players)],
        "record": reversis.dump_record(game.to_record(), "json").decode(),
    }
    if opponents is not None:
        data["settings"] = {"opponents": opponents, "rollouts": 100}
    return json.dumps(data)


def replay_moon_takers(record: dict[str, Any]) -> list[int]:
    """The seat that took every point card in each hand, from the Python engine's hand events."""
    start = record["start"]
    game = reversis.Game(
        reversis.Ruleset.from_json(record["ruleset"]),
        seed=record["seed"],
        hand_number=start["hand_number"],
        scores=start["scores"],
    )
    takers = []
    for action in record["actions"]:
        if action["type"] == "deal" and record["seed"] is not None:
            continue  # a seeded game made that deal itself (REC-4)
        game.apply(action)
        takers += [e["moon_taker"] for e in game.events if e["type"] == "hand" and e["moon_taker"] is not None]
    return takers


def engine_game(save_text: str) -> Any:
    record = json.loads(save_text)["record"]
    return reversis.Game.from_record(reversis.load_record(record.encode()))


def unfinished_save() -> str:
    game = reversis.Game(reversis.preset("hearts-computer"), seed=99)
    for _ in range(5):
        game.apply_action(game.legal_actions()[0])
    return web_save(game)


@pytest.fixture(scope="module")
def known_set() -> dict[str, str]:
    """Three finished matches (a loss, a shared win with a moon, a sole win with a moon) and two
    entries that cannot be read (not JSON; a match not over)."""
    loss = finished_by_choice(7)
    assert 0 not in loss.winners
    shared = moon_finish([26, 0, 90, 90], "add-to-others")
    assert shared.winners == [0, 1]
    sole = moon_finish([0, 90, 80, 95], "add-to-others")
    assert sole.winners == [0]
    return {
        FINISHED + "20261201T090000Z": web_save(loss),
        FINISHED + "20261202T090000Z": web_save(shared, opponents="montecarlo"),
        FINISHED + "20261203T090000Z": web_save(sole, opponents=None),
        FINISHED + "20261203T090000Z-2": "{not json",
        FINISHED + "20261204T090000Z": unfinished_save(),
    }


class Results:
    """The results page in the browser's one tab."""

    def __init__(self, driver: Any, base_url: str) -> None:
        self.driver = driver
        self.url = base_url + "results.html"

    def open(self, entries: dict[str, str] | None = None) -> Results:
        self.driver.get(self.url)
        if entries is not None:
            self.driver.execute_script(
                "localStorage.clear(); for (const [k, v] of Object.entries(arguments[0])) localStorage.setItem(k, v)",
                entries,
            )
            self.driver.get(self.url)
        self.wait_ready()
        return self

    def wait(self, condition: Any, message: str = "", timeout: float = 20) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition, message)

    def wait_ready(self) -> None:
        def ready(driver: Any) -> bool:
            status = driver.find_element("id", "status")
            if "could not be read" in status.text:
                raise AssertionError(status.text)
            return driver.execute_script("return document.body.dataset.ready === 'true'")

        self.wait(ready, "the results page did not load")

    def storage(self) -> dict[str, str]:
        return self.driver.execute_script(
            "return Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))"
        )

    def rows(self) -> dict[str, Any]:
        return {
            row.get_attribute("data-key"): row for row in self.driver.find_elements("css selector", "#matches-body tr")
        }

    def stat(self, name: str) -> str:
        return self.driver.find_element("id", f"stat-{name}").text

    def row_button(self, key: str, label: str) -> Any:
        return self.rows()[key].find_element("xpath", f".//button[starts-with(normalize-space(.), '{label}')]")

    def confirm(self, yes: bool) -> None:
        dialog = self.driver.find_element("id", "confirm")
        assert dialog.is_displayed()
        self.driver.find_element("id", "confirm-yes" if yes else "confirm-no").click()
        self.wait(lambda d: not dialog.is_displayed(), "the confirmation did not close")
        self.wait_ready()


@pytest.fixture
def results(browser: Any, base_url: str) -> Results:
    return Results(browser, base_url)


def test_finished_matches_listed_with_their_totals_and_winners(results: Results, known_set: dict[str, str]) -> None:
    results.open(known_set)
    rows = results.rows()
    readable = [k for k in known_set if k.endswith(("01T090000Z", "02T090000Z", "03T090000Z"))]
    assert list(rows) == sorted(readable, reverse=True)  # newest first
    for key in readable:
        game = engine_game(known_set[key])
        cells = {td.get_attribute("data-label"): td for td in rows[key].find_elements("css selector", "td")}
        totals = [li.text for li in cells["Totals"].find_elements("css selector", "li")]
        assert totals == [f"{NAMES_4[seat]} {score}" for seat, score in enumerate(game.scores)]
        bold = [int(li.get_attribute("data-seat")) for li in cells["Totals"].find_elements("css selector", "li.winner")]
        assert bold == list(game.winners)
        winners = [NAMES_4[seat] for seat in game.winners]
        assert cells["Winners"].text == (winners[0] if len(winners) == 1 else " and ".join(winners))
        assert f"(preset {game.ruleset.name})" in cells["Rules"].text
        assert game.ruleset.title in cells["Rules"].text
    opponents = {key: rows[key].find_element("css selector", "td.opponents").text for key in readable}
    assert opponents[readable[0]] == "Easy computer players (rule-based)"
    assert opponents[readable[1]] == "Monte Carlo computer players"
    assert opponents[readable[2]] == "not recorded"
    date = rows[readable[0]].find_element("css selector", "th time")
    assert date.get_attribute("datetime") == "2026-12-01T09:00:00.000Z"
    # The entries that cannot be read are listed with why, and kept.
    unreadable = {
        li.get_attribute("data-key"): li.text for li in results.driver.find_elements("css selector", "#unreadable > li")
    }
    assert set(unreadable) == {FINISHED + "20261203T090000Z-2", FINISHED + "20261204T090000Z"}
    assert "not JSON" in unreadable[FINISHED + "20261203T090000Z-2"]
    assert "not over" in unreadable[FINISHED + "20261204T090000Z"]
    assert results.storage() == known_set  # reading changed nothing


def test_statistics_of_a_known_set(results: Results, known_set: dict[str, str]) -> None:
    results.open(known_set)
    games = [engine_game(text) for key, text in known_set.items() if key in results.rows()]
    assert len(games) == 3
    hands = sum(len(g.hand_scores) for g in games)
    points = sum(scores[0] for g in games for scores in g.hand_scores)
    moons = sum(replay_moon_takers(g.to_record()).count(0) for g in games)
    assert moons == 2  # both hearts-4 matches end with seat 0 taking every point card
    assert results.stat("matches") == "3"
    assert results.stat("wins") == str(sum(g.winners == [0] for g in games)) == "1"
    assert results.stat("shared") == str(sum(len(g.winners) > 1 and 0 in g.winners for g in games)) == "1"
    assert results.stat("hands") == str(hands)
    assert abs(float(results.stat("average")) - points / hands) < 0.005
    assert results.stat("moons") == str(moons)


def test_no_results_yet(results: Results) -> None:
    results.open({})
    assert results.rows() == {}
    assert results.driver.find_element("id", "empty").is_displayed()
    assert results.stat("matches") == "0" and results.stat("average") == "none yet"
    assert not results.driver.find_element("id", "export-all").is_enabled()


def _downloads(folder: Path, count: int, timeout: float = 10) -> list[Path]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = sorted(p for p in folder.iterdir() if not p.name.endswith(".crdownload"))
        if len(done) >= count:
            return done
        time.sleep(0.05)
    raise AssertionError(f"{count} downloads expected in {folder}, found {sorted(folder.iterdir())}")


def test_export_one_and_all_as_records_the_engine_loads(
    results: Results, known_set: dict[str, str], tmp_path: Path
) -> None:
    results.open(known_set)
    driver = results.driver
    (tmp_path / "one").mkdir()
    (tmp_path / "all").mkdir()
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path / "one")})
    key = FINISHED + "20261202T090000Z"
    results.row_button(key, "Export").click()
    [file] = _downloads(tmp_path / "one", 1)
    assert file.name == "reversis-hearts-4-20261202T090000Z.json"
    exported = reversis.Game.from_record(reversis.load_record(file.read_bytes()))
    assert exported.to_record() == engine_game(known_set[key]).to_record()

    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path / "all")})
    driver.find_element("id", "export-all").click()
    files = _downloads(tmp_path / "all", 3)
    loaded = sorted(
        (reversis.Game.from_record(reversis.load_record(f.read_bytes())).to_record()["actions"] for f in files), key=len
    )
    expected = sorted((engine_game(known_set[k]).to_record()["actions"] for k in results.rows()), key=len)
    assert loaded == expected


def test_import_a_good_and_a_bad_file(results: Results, known_set: dict[str, str], tmp_path: Path) -> None:
    results.open({})
    driver = results.driver
    finished = finished_by_choice(11)
    good = tmp_path / "good.json"
    good.write_bytes(reversis.dump_record(finished.to_record(), "json"))
    moon = moon_finish([26, 0, 90, 90], "add-to-others")
    packed = tmp_path / "moon.msgpack"
    packed.write_bytes(reversis.dump_record(moon.to_record(), "msgpack"))
    unfinished = engine_game(known_set[FINISHED + "20261204T090000Z"])
    array = tmp_path / "array.json"
    array.write_text(
        "["
        + reversis.dump_record(unfinished.to_record(), "json").decode()
        + ","
        + reversis.dump_record(finished.to_record(), "json").decode()
        + "]"
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "reversis-record", "version": 1}')
    driver.find_element("id", "import").send_keys("\n".join(str(p) for p in (good, packed, array, bad)))
    results.wait(lambda d: "Imported" in d.find_element("id", "import-result").text, "the import said nothing")
    lines = [li.text for li in driver.find_elements("css selector", "#import-result li")]
    assert lines[0].startswith("good.json: added")
    assert lines[1].startswith("moon.msgpack: added")
    assert lines[2].startswith("array.json, record 1: refused: its match is not over (hand 1, phase pass)")
    assert lines[3].startswith("array.json, record 2: already kept")
    assert lines[4].startswith("bad.json: refused: it is not a game record")
    assert "Imported 2 matches; 2 refused." in driver.find_element("id", "import-result").text
    stored = {k: v for k, v in results.storage().items() if k.startswith(FINISHED)}
    assert len(stored) == 2 and set(results.rows()) == set(stored)
    replayed = sorted((engine_game(text) for text in stored.values()), key=lambda g: len(g.actions))
    assert [g.to_record() for g in replayed] == [moon.to_record(), finished.to_record()]
    texts = {row.find_element("css selector", "td.opponents").text for row in results.rows().values()}
    assert texts == {"not recorded (imported)"}
    assert results.stat("matches") == "2"

    # A file that is no record at all, and an empty array.
    for name, content in (("notes.txt", b"hello"), ("empty.json", b"[]")):
        path = tmp_path / name
        path.write_bytes(content)
        driver.find_element("id", "import").send_keys(str(path))
        results.wait(lambda d, n=name: n in d.find_element("id", "import-result").text, "no word on the import")
        assert "refused" in driver.find_element("id", "import-result").text
    assert len([k for k in results.storage() if k.startswith(FINISHED)]) == 2


def test_delete_one_then_all_after_a_confirmation(results: Results, known_set: dict[str, str]) -> None:
    on_table = finished_by_choice(5)
    entries = {**known_set, SAVE_KEY: web_save(on_table)}
    results.open(entries)
    driver = results.driver
    assert "erases them" in driver.find_element("css selector", "main .note").text
    assert "listed here once you deal the next match" in driver.find_element("id", "current").text
    key = FINISHED + "20261201T090000Z"
    results.row_button(key, "Delete").click()
    results.confirm(yes=False)
    assert key in results.rows() and key in results.storage()
    results.row_button(key, "Delete").click()
    assert "cannot be undone" in driver.find_element("id", "confirm-text").text
    results.confirm(yes=True)
    assert key not in results.rows() and key not in results.storage()
    assert results.stat("matches") == "2"

    driver.find_element("id", "delete-all").click()
    assert "Delete all 2 finished matches" in driver.find_element("id", "confirm-text").text
    results.confirm(yes=True)
    assert results.rows() == {}
    left = results.storage()
    # The unreadable entries stay until deleted one by one; the table's save is never touched.
    kept = (SAVE_KEY, FINISHED + "20261203T090000Z-2", FINISHED + "20261204T090000Z")
    assert left == {k: v for k, v in entries.items() if k in kept}
    item = driver.find_element("css selector", "#unreadable > li")
    item.find_element("xpath", ".//button[starts-with(normalize-space(.), 'Delete')]").click()
    results.confirm(yes=True)
    assert len(results.storage()) == 2


def test_a_link_from_the_table_and_back(table: Table) -> None:
    driver = table.driver
    driver.find_element("link text", "Your results").click()
    Results(driver, "").wait_ready()
    assert driver.current_url.endswith("/results.html")
    assert driver.find_element("tag name", "h1").text == "Your results"
    driver.find_element("link text", "Back to the table").click()
    table.wait_idle()
    assert driver.find_element("tag name", "h1").text == "Hearts against the computer"


def test_the_page_fits_a_phone(results: Results, known_set: dict[str, str]) -> None:
    driver = results.driver
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        results.open(known_set)
        assert driver.execute_script("return window.innerWidth") == 390
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        for element in driver.find_elements("css selector", "button, a, input"):
            if element.is_displayed():
                box = element.rect
                assert box["x"] >= 0 and box["x"] + box["width"] <= 390, element.text
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
