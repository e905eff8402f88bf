"""Takes the README's pictures of the web table in headless Chromium.

The table a few cards into a seeded match, the review of a finished hand, and the results page,
each at a desktop's width and at a phone's:

    bash js/build.sh && bash web/build.sh && python web/screenshot.py web/screenshots

writes ``table-desktop.png``, ``table-phone.png``, ``review-desktop.png``, ``review-phone.png``,
``results-desktop.png`` and ``results-phone.png`` into the folder (``--only table`` takes one
screen). Needs Selenium (``pip install '.[web]'`` in the checkout), Chromium and chromedriver
(Debian's ``chromium`` and ``chromium-driver``), and the package for the results page's matches.
The browser profile is a fresh one, so no save of yours is read or touched; each picture is
written beside its destination and then moved into place.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

DIST = Path(__file__).resolve().parent / "dist"
#: The windows, width × height: a desktop's and a phone's (a 390-pixel-wide phone held upright).
WINDOWS = {"desktop": (1280, 900), "phone": (390, 844)}
SCREENS = ("table", "review", "results")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _settle(driver: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 60, poll_frequency=0.05).until(
        lambda d: d.execute_script(
            "return document.body.dataset.phase !== undefined && document.body.dataset.busy === 'false'"
        )
    )


def _click_first_enabled(driver: Any, count: int) -> None:
    cards = driver.execute_script(
        "return Array.from(document.querySelectorAll('#hand button.card:enabled'), b => b.dataset.card)"
    )[:count]
    for card in cards:
        driver.find_element("css selector", f'#hand button[data-card="{card}"]').click()


def _deal(driver: Any, url: str, seed: int) -> None:
    driver.get(url + "?pace=0")
    _settle(driver)
    field = driver.find_element("id", "seed")
    field.clear()
    field.send_keys(str(seed))
    driver.find_element("id", "deal").click()
    if driver.find_element("id", "confirm").is_displayed():
        driver.find_element("id", "confirm-yes").click()
    _settle(driver)


def _play(driver: Any, cards: int) -> None:
    """Pass where the hand begins with one, then play ``cards`` of seat 0's cards."""
    if driver.execute_script("return document.body.dataset.phase") == "pass":
        _click_first_enabled(driver, 3)
        driver.find_element("id", "pass-confirm").click()
        _settle(driver)
    for _ in range(cards):
        _click_first_enabled(driver, 1)
        _settle(driver)


def table_screen(driver: Any, url: str, seed: int) -> None:
    """A seeded match a few cards in."""
    _deal(driver, url, seed)
    _play(driver, 3)
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")


def review_screen(driver: Any, url: str, seed: int) -> None:
    """The review of the first hand of a seeded match, played to its end."""
    from selenium.webdriver.support.ui import WebDriverWait

    _deal(driver, url, seed)
    _play(driver, 0)
    while driver.execute_script("return document.body.dataset.phase") == "play":
        if not driver.find_elements("css selector", "#hand button.card:enabled"):
            break
        _play(driver, 1)
    driver.find_element("css selector", "[data-review-hand]").click()
    WebDriverWait(driver, 60, poll_frequency=0.1).until(
        lambda d: d.execute_script("return document.body.dataset.review === 'done'")
    )
    driver.execute_script("document.activeElement.blur(); document.getElementById('review').scrollIntoView()")


def _finished_saves() -> dict[str, str]:
    """Three finished matches as the table keeps them, played by the package's rule-based players."""
    import reversis
    from reversis.players.base import act_for
    from reversis.players.rulebased import RuleBasedPlayer

    saves = {}
    for day, seed in enumerate((3, 5, 8), start=1):
        game = reversis.Game(reversis.preset("hearts-computer"), seed=seed)
        players = [RuleBasedPlayer() for _ in range(game.ruleset.players)]
        while game.phase != "over":
            act_for(game, players)
        record = reversis.dump_record(game.to_record(), "json").decode()
        settings = {"opponents": "rules", "players": [None, "rules", "rules", "rules"], "rollouts": 100}
        data = {"format": "reversis-web-save", "version": 1, "counter": 1, "settings": settings, "record": record}
        saves[f"reversis.save.finished.202612{day:02d}T200000Z"] = json.dumps(data)
    return saves


def results_screen(driver: Any, url: str, seed: int) -> None:
    """The results page with three finished matches."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url + "results.html")
    driver.execute_script(
        "for (const [k, v] of Object.entries(arguments[0])) localStorage.setItem(k, v)", _finished_saves()
    )
    driver.get(url + "results.html")
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))


SCREEN: dict[str, Callable[[Any, str, int], None]] = {
    "table": table_screen,
    "review": review_screen,
    "results": results_screen,
}


def _write(destination: Path, png: bytes) -> None:
    with tempfile.NamedTemporaryFile(dir=destination.parent, prefix=".screenshot-", delete=False) as temporary:
        temporary.write(png)
    os.chmod(temporary.name, 0o644)
    os.replace(temporary.name, destination)


def take(folder: Path, screens: tuple[str, ...], seed: int) -> list[Path]:
    """Each of ``screens`` at each window, as ``SCREEN-WINDOW.png`` in ``folder``."""
    from selenium import webdriver

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver_path:
        sys.exit("web/screenshot.py: needs Chromium and chromedriver (apt-get install chromium chromium-driver)")
    if not (DIST / "index.html").is_file():
        sys.exit("web/screenshot.py: the site is not built (bash js/build.sh && bash web/build.sh)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(DIST)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    written = []
    try:
        for window, (width, height) in WINDOWS.items():
            options = webdriver.ChromeOptions()
            for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"):
                options.add_argument(argument)
            options.binary_location = chromium
            driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
            try:
                # The page's own size, whatever the window's frame takes.
                driver.execute_cdp_cmd(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": window == "phone"},
                )
                for screen in screens:
                    driver.execute_script("window.scrollTo(0, 0)")
                    SCREEN[screen](driver, url, seed)
                    destination = folder / f"{screen}-{window}.png"
                    _write(destination, driver.get_screenshot_as_png())
                    written.append(destination)
            finally:
                driver.quit()
    finally:
        server.shutdown()
        server.server_close()
    return written


def main() -> None:
    """The command line: the folder, then the optional screens and seed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder to write the PNG files into")
    parser.add_argument("--only", choices=SCREENS, action="append", help="a screen to take (default: every one)")
    parser.add_argument("--seed", type=int, default=7, help="the match's seed (default 7)")
    arguments = parser.parse_args()
    if not arguments.folder.is_dir():
        parser.error(f"no directory {arguments.folder}")
    for path in take(arguments.folder, tuple(arguments.only or SCREENS), arguments.seed):
        print(path)


if __name__ == "__main__":
    main()
