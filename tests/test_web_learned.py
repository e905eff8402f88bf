"""The learned player in the web table's worker (web/worker.js): its network fetched on first use
from beside the package, its decisions the Python package's, and a failed fetch reported as the
worker's other errors are."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path
from typing import Any, ClassVar

import reversis
from reversis.players import observe
from reversis.players.learned import LearnedPlayer
from webpage import base_url, browser, site  # noqa: F401 (fixtures)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


# Runs in a page of the site: asks a new worker for the learned player's decisions on each
# observation in turn (a request of the worker's protocol), and gives back its answers and the
# network fetches the page saw.
ASK_WORKER = """
const [requests, done] = arguments;
(async () => {
  const worker = new Worker("/worker.js", { type: "module" });
  const answers = [];
  let next = null;
  const ready = new Promise((resolve, reject) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "ready") resolve();
      else if (data.type === "failed") reject(new Error(data.message));
      else next(data);
    });
  });
  await ready;
  for (const request of requests) {
    answers.push(await new Promise((resolve) => { next = resolve; worker.postMessage(request); }));
  }
  worker.terminate();
  const fetched = performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".rvnn")).length;
  done({ answers, fetched });
})().catch((error) => done({ error: String(error) }));
"""


def _requests(preset: str, seed: int, count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The worker's requests for the learned player's first ``count`` decisions of a seeded game
    played by the Python package's learned player, and that player's actions."""
    game = reversis.Game(reversis.preset(preset), seed=seed)
    player = LearnedPlayer()
    requests, expected = [], []
    while len(requests) < count:
        observation = observe(game, game.to_act)
        action = player.act(observation)
        requests.append(
            {
                "id": len(requests),
                "ruleset": game.ruleset.to_json(),
                "observation": observation.data,
                "player": {"name": "learned", "seed": len(requests)},
            }
        )
        expected.append(action)
        game.apply(action)
    return requests, expected


def test_the_worker_fetches_the_network_once_and_decides_as_python(browser: Any, base_url: str) -> None:  # noqa: F811
    requests, expected = _requests("hearts-computer", 3, 8)
    browser.get(base_url + "style.css")
    result = browser.execute_async_script(ASK_WORKER, requests)
    assert "error" not in result, result["error"]
    assert [a["type"] for a in result["answers"]] == ["action"] * len(requests), result["answers"]
    assert [a["action"] for a in result["answers"]] == expected
    # Workers' fetches are not the page's resources: the page itself never fetched the network.
    assert result["fetched"] == 0


def test_a_failed_fetch_of_the_network_is_the_requests_error(browser: Any, site: Path, tmp_path: Path) -> None:  # noqa: F811
    # The site without its network, served on its own.
    copy = tmp_path / "dist"
    shutil.copytree(site, copy)
    (copy / "js" / "learned-hearts-computer.rvnn").unlink()
    handler = functools.partial(_Quiet, directory=str(copy))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    requests, _ = _requests("hearts-computer", 3, 2)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/style.css")
        result = browser.execute_async_script(ASK_WORKER, requests)
    finally:
        server.shutdown()
        server.server_close()
    assert "error" not in result, result["error"]
    for request, answer in zip(requests, result["answers"]):
        # Each request is answered with the error (the fetch is tried again for the second).
        assert answer["type"] == "error" and answer["id"] == request["id"], answer
        assert "the learned player's network could not be loaded: 404" in answer["message"], answer


def test_the_site_holds_the_network(site: Path) -> None:  # noqa: F811
    assert (site / "js" / "learned-hearts-computer.rvnn").is_file()
