"""The search player's decision time in a real browser, as the web table (web/) asks for it.

Headless Chromium loads the built site (web/build.sh into web/dist) from a local server; the page
starts the table's own worker (web/worker.js), plays seeded ``hearts-computer`` hands with the
rule-based player at every other seat, and times each of seat 0's decisions from the moment the
observation is posted to the worker until its action comes back: the search player at its default
budget (4,000 playouts a card, four times that for a pass) playing for the match, as the table's
Hard level asks for it (the package's ``createPlayer("search", {objective: "match"})``).
``conftest.py`` prints the median, the slowest and the count. A second benchmark times the table's
review of a whole hand (web/review.js): a seeded ``hearts-computer`` hand is played by the
rule-based player at every seat, and the review of seat 0's pass and 13 cards, at review.js's
playouts, is timed from the saved record to the last row, with the longest task the page's thread
ran meanwhile (the longtask entries of the Performance API). Needs Selenium, Chromium and
chromedriver (Debian's ``chromium`` and ``chromium-driver``) and the built module (``bash
js/build.sh``); skipped without them. Run:

    python -m pytest benches/test_bench_browser.py --benchmark-only

Beside it, what loading the page costs: the gzipped size of every file of the page and its
module (``gzip -9``; the learned player's network, fetched only when that player is chosen, is
not part of it), and over ``LOADS`` cold loads (each in a browser of a new profile: nothing cached,
no match saved) the time from navigation until the table is ready to play (``document.body`` carries a
``data-phase`` and ``data-busy="false"``) and the longest main-thread task (a ``longtask`` entry
of the Long Tasks API: 50 ms or more) during the load and during one hand then played through the
page's buttons against the rule-based players.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import shutil
import statistics
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Seeds of the matches played; each plays HANDS hands.
SEEDS = (1, 2, 3)
HANDS = 2
#: Cold loads of the page timed, each in a new browser.
LOADS = 5

# Runs in the page: arguments are the seeds, the hands per match, and Selenium's callback.
TIME_DECISIONS = """
const [seeds, handsPerMatch, done] = arguments;
(async () => {
  const reversis = await import("/js/src/index.js");
  const worker = new Worker("/worker.js", { type: "module" });
  const answers = new Map();
  const ready = new Promise((resolve, reject) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "ready") resolve();
      else if (data.type === "failed") reject(new Error(data.message));
      else answers.get(data.id)(data);
    });
  });
  await ready;
  const ruleset = reversis.preset("hearts-computer");
  const rules = reversis.createPlayer("rules", { seed: 1 });
  const others = [rules, rules, rules, rules];
  const times = { pass: [], play: [] };
  let id = 0;
  for (const seed of seeds) {
    const game = new reversis.Game(ruleset, { seed: BigInt(seed) });
    while (game.phase !== "over" && game.handNumber < handsPerMatch) {
      const phase = game.phase;
      const seat = phase === "pass" ? game.awaitingPass[0] : game.toMove;
      if (seat !== 0 || (phase !== "pass" && phase !== "play")) {
        reversis.actFor(game, others);
        continue;
      }
      const request = {
        id: id++,
        ruleset: ruleset.toJson(),
        observation: game.observation(0),
        player: { name: "search", seed: id, objective: "match" },
      };
      const started = performance.now();
      const answer = await new Promise((resolve) => {
        answers.set(request.id, resolve);
        worker.postMessage(request);
      });
      times[phase].push(performance.now() - started);
      if (answer.type !== "action") throw new Error(answer.message);
      game.apply(answer.action);
    }
    game.free();
  }
  worker.terminate();
  done({ times, agent: navigator.userAgent });
})().catch((error) => done({ error: String(error && error.stack ? error.stack : error) }));
"""


#: Seeds of the hands reviewed (hand 0 of each match).
REVIEW_SEEDS = (1, 2, 3, 4, 5)
#: The review of a hand may take this long at review.js's playouts (median, ms) ...
REVIEW_GOAL_MS = 2000
#: ... and never hold the page's thread longer than this (ms).
LONGEST_TASK_MS = 100

# Runs in the page: arguments are the seeds and Selenium's callback.
TIME_REVIEWS = """
const [seeds, done] = arguments;
(async () => {
  const reversis = await import("/js/src/index.js");
  const review = await import("/review.js");
  const ruleset = reversis.preset("hearts-computer");
  const rules = reversis.createPlayer("rules", { seed: 1 });
  const players = [rules, rules, rules, rules];
  let longest = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  }).observe({ type: "longtask" });
  // The observer sees a task of 70 ms, or its silence below would mean nothing.
  const busy = performance.now();
  while (performance.now() - busy < 70);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const seen = longest;
  // The worker starts once, as on the page, before the first review is timed.
  const warm = new reversis.Game(ruleset, { seed: 99n });
  await review.evaluate(ruleset.toJson(), warm.observation(0), { seed: 0, playouts: 1 });
  const times = [];
  const rows = [];
  let worst = 0;
  for (const seed of seeds) {
    const game = new reversis.Game(ruleset, { seed: BigInt(seed) });
    while (Number(game.handNumber) === 0) reversis.actFor(game, players);
    // The record as the page saves it and reads it back.
    const saved = new TextDecoder().decode(reversis.dumpRecord(game.toRecord(), "json"));
    game.free();
    // Long tasks are reported a little after they end: settle before and after each review.
    await new Promise((resolve) => setTimeout(resolve, 50));
    longest = 0;
    const started = performance.now();
    const record = reversis.loadRecord(new TextEncoder().encode(saved));
    const reviewed = await review.reviewHand(record, 0);
    times.push(performance.now() - started);
    rows.push(reviewed.length);
    await new Promise((resolve) => setTimeout(resolve, 50));
    worst = Math.max(worst, longest);
  }
  done({ times, rows, longest: worst, seen, playouts: review.REVIEW_PLAYOUTS, agent: navigator.userAgent });
})().catch((error) => done({ error: String(error && error.stack ? error.stack : error) }));
"""

# Runs in every new document before its own scripts: records when the table is first ready to play
# and every long task (the Long Tasks API), with its start, both on the page's clock (from navigation).
OBSERVE_LOAD = """
(() => {
  const marks = { ready: null, tasks: [], error: null };
  window.__reversisLoad = marks;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.tasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) {
    marks.error = String(error);
  }
  const check = () => {
    const body = document.body;
    if (marks.ready === null && body && body.dataset.phase !== undefined && body.dataset.busy === "false") {
      marks.ready = performance.now();
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true, attributes: true, attributeFilter: ["data-phase", "data-busy"],
  });
})();
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    if not (ROOT / "js" / "wasm" / "reversis_wasm_bg.wasm").is_file():
        pytest.skip("the WebAssembly module is not built (bash js/build.sh)")
    subprocess.run(["bash", str(ROOT / "web" / "build.sh")], check=True, cwd=ROOT, capture_output=True)
    handler = functools.partial(_Quiet, directory=str(ROOT / "web" / "dist"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _new_browser() -> Any:
    """Headless Chromium with a profile of its own, new and empty."""
    webdriver = pytest.importorskip("selenium.webdriver")
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.binary_location = chromium
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
    driver.set_script_timeout(600)
    return driver


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = _new_browser()
    yield driver
    driver.quit()


def test_search_decision_in_the_browser(benchmark: Any, browser: Any, site_url: str) -> None:
    # A page of the site's origin that runs nothing itself: the worker and the module load from it.
    browser.get(site_url + "style.css")
    result: dict[str, Any] = benchmark.pedantic(
        lambda: browser.execute_async_script(TIME_DECISIONS, list(SEEDS), HANDS), rounds=1
    )
    assert "error" not in result, result.get("error")
    times = result["times"]
    # No match ends within two hands (a seat takes at most 26 points a hand), so seat 0 plays every card.
    assert len(times["play"]) == 13 * HANDS * len(SEEDS), times
    benchmark.extra_info.update(
        kind="browser-search",
        browser=result["agent"],
        play_ms=times["play"],
        pass_ms=times["pass"],
        median_play_ms=statistics.median(times["play"]),
    )


def test_review_of_a_hand_in_the_browser(benchmark: Any, browser: Any, site_url: str) -> None:
    browser.get(site_url + "style.css")
    result: dict[str, Any] = benchmark.pedantic(
        lambda: browser.execute_async_script(TIME_REVIEWS, list(REVIEW_SEEDS)), rounds=1
    )
    assert "error" not in result, result.get("error")
    assert result["seen"] >= 70, result
    # hearts-computer's first hand: a pass and 13 cards of seat 0.
    assert result["rows"] == [14] * len(REVIEW_SEEDS), result
    median = statistics.median(result["times"])
    benchmark.extra_info.update(
        kind="browser-review",
        browser=result["agent"],
        review_ms=result["times"],
        playouts=result["playouts"],
        longest_task_ms=result["longest"],
        median_review_ms=median,
    )
    assert median <= REVIEW_GOAL_MS, result
    assert result["longest"] <= LONGEST_TASK_MS, result


def page_sizes(dist: Path) -> dict[str, tuple[int, int]]:
    """Every file of the page and its module in ``dist``: its bytes and its bytes under ``gzip -9``.

    The type declarations (``.d.ts``) are never loaded, and the learned player's network
    (``.rvnn``) only when that player is chosen: neither is counted.
    """
    return {
        str(path.relative_to(dist)): (len(data), len(gzip.compress(data, 9, mtime=0)))
        for path in sorted(dist.rglob("*"))
        if path.is_file() and not path.name.endswith((".d.ts", ".rvnn"))
        for data in [path.read_bytes()]
    }


#: Each page's own files, which the other page never loads (as tests/test_web_size.py counts them).
OWN_FILES = {
    "index.html": {"index.html", "app.js", "review.js", "style.css", "worker.js"},
    "results.html": {"results.html", "results.js", "results.css"},
}


def test_page_size(benchmark: Any, site_url: str) -> None:
    sizes = benchmark.pedantic(lambda: page_sizes(ROOT / "web" / "dist"), rounds=1)
    network = (ROOT / "web" / "dist" / "js" / "learned-hearts-computer.rvnn").stat().st_size
    # Each page with everything it loads: every file but the other page's own.
    pages = {
        page: sorted(set(sizes) - set().union(*(own for other, own in OWN_FILES.items() if other != page)))
        for page in OWN_FILES
    }
    benchmark.extra_info.update(kind="web-size", sizes=sizes, pages=pages, learned_network_bytes=network)


def _idle(driver: Any) -> bool:
    if driver.execute_script("return document.getElementById('status').classList.contains('error')"):
        raise AssertionError(driver.find_element("id", "status").text)
    return bool(
        driver.execute_script(
            "return document.body.dataset.phase !== undefined && document.body.dataset.busy === 'false'"
        )
    )


def _play_one_hand(driver: Any) -> None:
    """Plays seat 0's part of the current hand through the page's buttons: the first cards it
    may pass, the first card it may play, the first moon choice."""
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(driver, 120, poll_frequency=0.02)
    wait.until(_idle)
    hand = driver.execute_script("return document.body.dataset.handNumber")
    for _ in range(200):
        wait.until(_idle)
        phase, number = driver.execute_script("return [document.body.dataset.phase, document.body.dataset.handNumber]")
        if number != hand or phase == "over":
            return
        clicked = driver.execute_script(
            """
            const confirm = document.getElementById("pass-confirm");
            if (confirm && !confirm.disabled) { confirm.click(); return "confirm"; }
            const moon = document.querySelector(".moon button");
            if (moon) { moon.click(); return "moon"; }
            const card = [...document.querySelectorAll("#hand button.card")].find(
              (b) => !b.disabled && b.getAttribute("aria-pressed") !== "true");
            if (card) { card.click(); return "card"; }
            return null;
            """
        )
        assert clicked is not None, f"seat 0 has nothing to do in phase {phase} and the table is idle"
    raise AssertionError("the hand did not end within 200 clicks")


def test_cold_load_in_the_browser(benchmark: Any, site_url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    def load_and_play() -> dict[str, Any]:
        figures: dict[str, Any] = {"ready_ms": [], "longest_load_ms": [], "longest_hand_ms": []}
        for _ in range(LOADS):
            # Cold: a browser of a new profile, so nothing is cached and no match is saved.
            browser = _new_browser()
            try:
                browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVE_LOAD})
                browser.get(site_url + "?pace=0")
                WebDriverWait(browser, 120, poll_frequency=0.02).until(_idle)
                marks = browser.execute_script("return window.__reversisLoad")
                assert marks["error"] is None and marks["ready"] is not None, marks
                _play_one_hand(browser)
                marks = browser.execute_script("return window.__reversisLoad")
                figures["browser"] = browser.capabilities.get("browserVersion")
            finally:
                browser.quit()
            ready = marks["ready"]
            figures["ready_ms"].append(ready)
            figures["longest_load_ms"].append(max([d for t, d in marks["tasks"] if t < ready], default=0.0))
            figures["longest_hand_ms"].append(max([d for t, d in marks["tasks"] if t >= ready], default=0.0))
        return figures

    figures = benchmark.pedantic(load_and_play, rounds=1)
    benchmark.extra_info.update(kind="browser-load", **figures)
