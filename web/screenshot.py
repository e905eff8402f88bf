"""Takes the README's picture of the web table: headless Chromium, a seeded match a few cards in.

    bash js/build.sh && bash web/build.sh && python web/screenshot.py web/screenshot.png

Needs Selenium (``pip install '.[web]'`` in the checkout), Chromium and chromedriver (Debian's
``chromium`` and ``chromium-driver``). The browser profile is a fresh one, so no save of yours is
read or touched; the picture is written beside its destination and then moved into place.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

DIST = Path(__file__).resolve().parent / "dist"


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

    WebDriverWait(driver, 30, poll_frequency=0.05).until(
        lambda d: d.execute_script(
            "return document.body.dataset.phase !== undefined && document.body.dataset.busy === 'false'"
        )
    )


def _click_first_enabled(driver: Any, count: int) -> None:
    # The hand is drawn anew after each click: find each card again by its name.
    buttons = driver.find_elements("css selector", "#hand button.card")
    cards = [b.get_attribute("data-card") for b in buttons if b.is_enabled()][:count]
    for card in cards:
        driver.find_element("css selector", f'#hand button[data-card="{card}"]').click()


def take(destination: Path, seed: int, cards: int, width: int, height: int) -> None:
    """Deal match ``seed``, pass, play ``cards`` cards, and save the page as a PNG."""
    from selenium import webdriver

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver_path:
        sys.exit("web/screenshot.py: needs Chromium and chromedriver (apt-get install chromium chromium-driver)")
    if not (DIST / "index.html").is_file():
        sys.exit("web/screenshot.py: the site is not built (bash js/build.sh && bash web/build.sh)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(DIST)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = chromium
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/?pace=0")
        _settle(driver)
        field = driver.find_element("id", "seed")
        field.clear()
        field.send_keys(str(seed))
        driver.find_element("id", "deal").click()
        _settle(driver)
        if driver.execute_script("return document.body.dataset.phase") == "pass":
            _click_first_enabled(driver, 3)
            driver.find_element("id", "pass-confirm").click()
            _settle(driver)
        for _ in range(cards):
            _click_first_enabled(driver, 1)
            _settle(driver)
        driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        png = driver.get_screenshot_as_png()
    finally:
        driver.quit()
        server.shutdown()
    with tempfile.NamedTemporaryFile(dir=destination.parent, prefix=".screenshot-", delete=False) as temporary:
        temporary.write(png)
    os.chmod(temporary.name, 0o644)
    os.replace(temporary.name, destination)


def main() -> None:
    """The command line: the destination, then the optional seed, cards and window size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("destination", type=Path, help="the PNG file to write")
    parser.add_argument("--seed", type=int, default=7, help="the match's seed (default 7)")
    parser.add_argument("--cards", type=int, default=3, help="cards you play before the picture (default 3)")
    parser.add_argument("--size", default="1000x1000", help="the window, WIDTHxHEIGHT (default 1000x1000)")
    arguments = parser.parse_args()
    try:
        width, height = (int(part) for part in arguments.size.split("x"))
    except ValueError:
        parser.error(f"--size is WIDTHxHEIGHT, not {arguments.size!r}")
    if not arguments.destination.parent.is_dir():
        parser.error(f"no directory {arguments.destination.parent}")
    take(arguments.destination, arguments.seed, arguments.cards, width, height)


if __name__ == "__main__":
    main()
