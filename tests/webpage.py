"""What the browser tests of the web table share: the site (web/dist, built by web/build.sh when it
is missing or older than its sources), a server on 127.0.0.1, headless Chromium driven by
Selenium, and :class:`Table`, the page in one tab.

Import the fixtures into a test module (``from webpage import base_url, browser, site, table``).
Without the WebAssembly module, Selenium or Chromium the tests are skipped, unless
``REVERSIS_REQUIRE_BROWSER=1`` is set: then any of those is a failure.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import reversis

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
DIST = WEB / "dist"
WASM = ROOT / "js" / "wasm"
SAVE_KEY = "reversis.save"
ASIDE_PREFIX = "reversis.save.unreadable."
REQUIRED = os.environ.get("REVERSIS_REQUIRE_BROWSER") == "1"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def _unavailable(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why} (REVERSIS_REQUIRE_BROWSER=1)")
    pytest.skip(why)


def _sources() -> list[Path]:
    files = [p for p in WEB.iterdir() if p.is_file()]
    for folder in (ROOT / "js" / "src", WASM):
        if folder.is_dir():
            files += [p for p in folder.rglob("*") if p.is_file()]
    return files


def _dist_is_fresh() -> bool:
    if not (DIST / "index.html").is_file():
        return False
    built = min(p.stat().st_mtime for p in DIST.rglob("*") if p.is_file())
    return all(p.stat().st_mtime <= built for p in _sources())


@pytest.fixture(scope="module")
def site() -> Path:
    """web/dist, built first when it is missing or older than web/, js/src or js/wasm."""
    if not (WASM / "reversis_wasm_bg.wasm").is_file():
        _unavailable("the WebAssembly module is not built (bash js/build.sh builds js/wasm)")
    # One builder at a time: the test modules of the table run in parallel workers (pytest-xdist),
    # and build.sh replaces dist/ while another worker may be about to serve it.
    lock = Path(tempfile.gettempdir()) / f"reversis-web-dist-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}.lock"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not _dist_is_fresh():
            built = subprocess.run(
                ["bash", str(WEB / "build.sh")],
                check=False,
                cwd=ROOT,
                capture_output=True,
                text=True,
                env={**os.environ, "PYTHON": sys.executable},
            )
            if built.returncode != 0:
                pytest.fail(f"web/build.sh failed: {built.stderr.strip()}")
    return DIST


class _Quiet(http.server.SimpleHTTPRequestHandler):
    # Module scripts and WebAssembly streaming need these types, whatever the system's mime tables say.
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from selenium import webdriver
    except ImportError:
        _unavailable("selenium is not installed (pip install '.[web]' in the checkout)")
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver_path:
        _unavailable("Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1000,1200",
    ):
        options.add_argument(argument)
    options.binary_location = chromium
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


class Table:
    """The page in one tab, with the helpers the tests share."""

    def __init__(self, driver: Any, url: str) -> None:
        self.driver = driver
        self.url = url + "?pace=0"

    def open(self, *, fresh: bool = True) -> Table:
        self.driver.get(self.url)
        if fresh:
            self.driver.execute_script("localStorage.clear()")
            self.driver.get(self.url)
        self.wait_idle()
        return self

    def wait(self, condition: Any, timeout: float = 20, message: str = "") -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition, message)

    def wait_idle(self) -> None:
        """Until the table is drawn and no computer player is deciding."""

        def idle(driver: Any) -> bool:
            error = driver.execute_script("return document.getElementById('status').classList.contains('error')")
            if error:
                raise AssertionError(driver.find_element("id", "status").text)
            return driver.execute_script(
                "return document.body.dataset.phase !== undefined && document.body.dataset.busy === 'false'"
            )

        self.wait(idle, message="the table did not settle")

    def data(self, name: str) -> str:
        return self.driver.execute_script(f"return document.body.dataset.{name}")

    def save_text(self) -> str | None:
        return self.driver.execute_script(f"return localStorage.getItem('{SAVE_KEY}')")

    def save(self) -> dict[str, Any]:
        text = self.save_text()
        assert text is not None, "nothing is saved"
        return json.loads(text)  # Python's json keeps the 64-bit seeds exact

    def game(self) -> Any:
        """The saved match, replayed by the Python engine."""
        record = reversis.load_record(self.save()["record"].encode())
        return reversis.Game.from_record(record)

    def hand_buttons(self) -> list[Any]:
        return self.driver.find_elements("css selector", "#hand button.card")

    def hand(self) -> list[str]:
        # Read in one script: the hand may be drawn anew (a finished trick cleared after the
        # pace) between two calls of the driver.
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#hand button.card'), b => b.dataset.card)"
        )

    def enabled(self) -> list[str]:
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#hand button.card:enabled'), b => b.dataset.card)"
        )

    def click_card(self, card: str) -> None:
        """Press the button of ``card`` in the hand, found anew if the hand was redrawn meanwhile."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(5):
            try:
                self.driver.find_element("css selector", f'#hand button[data-card="{card}"]').click()
                return
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"the button of {card} was redrawn under every click")

    def my_turn(self) -> bool:
        game = self.game()
        return game.phase == "play" and game.to_move == 0

    def pass_first(self) -> list[str]:
        """Choose the first cards of the hand and pass them (by clicking)."""
        size = self.game().ruleset.passing["size"]
        cards = self.enabled()[:size]
        for card in cards:
            self.click_card(card)
        self.driver.find_element("id", "pass-confirm").click()
        self.wait_idle()
        return cards

    def play_first_legal(self) -> str:
        card = self.enabled()[0]
        self.click_card(card)
        self.wait_idle()
        return card

    def deal(self, seed: int | str = "", preset: str | None = None) -> None:
        from selenium.webdriver.support.ui import Select

        if preset is not None:
            Select(self.driver.find_element("id", "preset")).select_by_value(preset)
        field = self.driver.find_element("id", "seed")
        field.clear()
        field.send_keys(str(seed))
        self.driver.find_element("id", "deal").click()
        self.confirm_if_asked()
        self.wait_idle()

    def confirm_if_asked(self) -> None:
        if self.driver.find_element("id", "confirm").is_displayed():
            self.driver.find_element("id", "confirm-yes").click()


@pytest.fixture
def table(browser: Any, base_url: str) -> Table:
    while len(browser.window_handles) > 1:
        browser.switch_to.window(browser.window_handles[-1])
        browser.close()
    browser.switch_to.window(browser.window_handles[0])
    return Table(browser, base_url).open()


def card_name(card: str) -> str:
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def card_face(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


# axe-core, as PyPI's axe-selenium-python bundles it (the ``web`` extra), injected into the page.
SEVERE = ("serious", "critical")


def axe_source() -> str:
    try:
        import axe_selenium_python
    except ImportError:
        _unavailable("axe-selenium-python is not installed (pip install '.[web]' in the checkout)")
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
