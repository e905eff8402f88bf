"""The size budget of the web table: the page and its WebAssembly module, as web/build.sh
assembles them in web/dist, at most 300 KB under ``gzip -9`` in all. The learned player's
network is no part of it: the worker fetches it only when that player is chosen. The site has
two pages, the table and the results: each is counted with everything it loads (the module, the
package, the service worker), without the other page's own files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from webpage import site  # noqa: F401 (a fixture)

#: The most bytes the page and its module may take under gzip -9.
BUDGET = 300_000
#: Files of web/dist the page never loads with it: type declarations, and the learned player's
#: network, fetched only when that player is chosen.
NOT_LOADED = (".d.ts", ".rvnn")
#: Each page's own files, which the other page never loads.
OWN_FILES = {
    "index.html": {"index.html", "app.js", "review.js", "style.css", "worker.js"},
    "results.html": {"results.html", "results.js", "results.css"},
}


def gzipped_sizes(dist: Path) -> dict[str, int]:
    """Each file of the page and its module in ``dist``, by its path there: its size under gzip -9."""
    return {
        str(path.relative_to(dist)): len(gzip.compress(path.read_bytes(), 9, mtime=0))
        for path in sorted(dist.rglob("*"))
        if path.is_file() and not path.name.endswith(NOT_LOADED)
    }


@pytest.mark.parametrize("page", sorted(OWN_FILES))
def test_each_page_and_its_module_fit_in_300_kb_gzipped(site: Path, page: str) -> None:  # noqa: F811
    sizes = gzipped_sizes(site)
    assert set().union(*OWN_FILES.values()) <= set(sizes), "a page's own file is missing from dist"
    others = set().union(*(files for name, files in OWN_FILES.items() if name != page))
    loaded = {name: size for name, size in sizes.items() if name not in others}
    # The module and the package are counted with every page.
    assert {page, "js/src/index.js", "js/wasm/reversis_wasm.js", "js/wasm/reversis_wasm_bg.wasm"} <= set(loaded)
    total = sum(loaded.values())
    listing = ", ".join(f"{name} {size:,}" for name, size in sorted(loaded.items(), key=lambda item: -item[1]))
    assert total <= BUDGET, f"{page} and its module take {total:,} bytes gzipped, over {BUDGET:,}: {listing}"


def test_the_learned_network_is_beside_the_page_not_in_it(site: Path) -> None:  # noqa: F811
    network = site / "js" / "learned-hearts-computer.rvnn"
    shipped = Path(__file__).resolve().parent.parent / "python" / "reversis" / "players" / network.name
    assert network.read_bytes() == shipped.read_bytes()
    assert str(network.relative_to(site)) not in gzipped_sizes(site)
