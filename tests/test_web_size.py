"""The size budget of the web table: the page and its WebAssembly module, as web/build.sh
assembles them in web/dist, at most 300 KB under ``gzip -9`` in all. The learned player's
network is no part of it: the worker fetches it only when that player is chosen."""

from __future__ import annotations

import gzip
from pathlib import Path

from webpage import site  # noqa: F401 (a fixture)

#: The most bytes the page and its module may take under gzip -9.
BUDGET = 300_000
#: Files of web/dist the page never loads with it: type declarations, and the learned player's
#: network, fetched only when that player is chosen.
NOT_LOADED = (".d.ts", ".rvnn")


def gzipped_sizes(dist: Path) -> dict[str, int]:
    """Each file of the page and its module in ``dist``, by its path there: its size under gzip -9."""
    return {
        str(path.relative_to(dist)): len(gzip.compress(path.read_bytes(), 9, mtime=0))
        for path in sorted(dist.rglob("*"))
        if path.is_file() and not path.name.endswith(NOT_LOADED)
    }


def test_the_page_and_its_module_fit_in_300_kb_gzipped(site: Path) -> None:  # noqa: F811
    sizes = gzipped_sizes(site)
    # What the page loads is all counted: its document, the package and the module.
    assert {"index.html", "app.js", "worker.js", "js/src/index.js", "js/wasm/reversis_wasm_bg.wasm"} <= set(sizes)
    total = sum(sizes.values())
    listing = ", ".join(f"{name} {size:,}" for name, size in sorted(sizes.items(), key=lambda item: -item[1]))
    assert total <= BUDGET, f"the page and its module take {total:,} bytes gzipped, over {BUDGET:,}: {listing}"


def test_the_learned_network_is_beside_the_page_not_in_it(site: Path) -> None:  # noqa: F811
    network = site / "js" / "learned-hearts-computer.rvnn"
    shipped = Path(__file__).resolve().parent.parent / "python" / "reversis" / "players" / network.name
    assert network.read_bytes() == shipped.read_bytes()
    assert str(network.relative_to(site)) not in gzipped_sizes(site)
