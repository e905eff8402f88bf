"""The report's pages, badges and README table, made from ``results.json`` alone.

The pages are static HTML that reads without JavaScript and fits a phone: the matrix scrolls
sideways inside its own box, its first column stays in view, and a small script (progressive
enhancement) makes the column headers sort the rows.
"""

from __future__ import annotations

from html import escape
from typing import Any

STYLE = """
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --skip: #6e7781; --line: #d0d7de; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.scroll { overflow-x: auto; border: 1px solid var(--line); }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; position: sticky; left: 0; background: Canvas; }
tbody th { white-space: normal; min-width: 8rem; max-width: 40vw; }
caption { text-align: left; padding: .3rem .5rem; position: sticky; left: 0; max-width: 85vw; }
td.text, thead th:nth-child(-n+3) { text-align: left; }
thead th { vertical-align: bottom; }
thead button { font: inherit; font-weight: bold; background: none; border: 0; padding: 0;
  cursor: pointer; color: inherit; }
.ok { color: var(--ok); } .bad { color: var(--bad); font-weight: bold; } .skip { color: var(--skip); }
code, pre { font-family: ui-monospace, monospace; font-size: .9em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; padding: .5rem;
  background: color-mix(in srgb, Canvas 92%, CanvasText); }
li { margin-bottom: 1rem; } dt { font-weight: bold; } dd { margin: 0 0 .5rem 0; overflow-wrap: anywhere; }
"""

SORT_SCRIPT = """
document.querySelectorAll("table.sortable").forEach((table) => {
  const heads = table.tHead.rows[0].cells;
  Array.from(heads).forEach((th, column) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    button.addEventListener("click", () => {
      const down = th.getAttribute("aria-sort") !== "descending";
      Array.from(heads).forEach((other) => other.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      const rows = Array.from(table.tBodies[0].rows);
      const key = (row) => row.cells[column].dataset.sort ?? row.cells[column].textContent;
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const order = isNaN(x) || isNaN(y) ? x.localeCompare(y) : Number(x) - Number(y);
        return down ? -order : order;
      });
      rows.forEach((row) => table.tBodies[0].appendChild(row));
    });
  });
});
"""


def _page(title: str, body: str, script: bool = False) -> str:
    tail = f"<script>{SORT_SCRIPT}</script>" if script else ""
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n{tail}\n</body>\n</html>\n"
    )


def _cell(row: dict[str, int] | None) -> str:
    if row is None:
        return '<td data-sort="-1" class="skip">–</td>'
    passed, failed, skipped = row["passed"], row["failed"], row["skipped"]
    text = f"{passed}/{passed + failed}" if passed + failed else "–"
    css = "bad" if failed else "ok" if passed else "skip"
    title = f"{passed} passed, {failed} failed, {skipped} skipped"
    share = passed / (passed + failed) if passed + failed else -1
    return f'<td class="{css}" title="{title}" data-sort="{share:.4f}">{text}</td>'


def status_text(entry: dict[str, Any]) -> str:
    """How an implementation's run went, in a few words."""
    return {
        "ran": "ran",
        "failed-run": "the run failed",
        "failed-install": "not installed",
    }.get(entry["status"], entry["status"])


def index_html(results: dict[str, Any]) -> str:
    """``index.html``: the matrix of every implementation against every area of the suite."""
    suite = results["suite"]
    areas = suite["areas"]
    head = "".join(f'<th scope="col">{escape(area)}</th>' for area in areas)
    rows = []
    order = sorted(results["implementations"], key=lambda e: (-e["share"], e["name"]))
    for entry in order:
        totals = entry["totals"]
        claimed = totals["passed"] + totals["failed"]
        link = f'<a href="implementations/{escape(entry["name"])}.html">{escape(entry["title"])}</a>'
        share = f"{100 * entry['share']:.1f}%" if claimed else escape(status_text(entry))
        cells = "".join(_cell(entry["counts"].get(area)) for area in areas)
        rows.append(
            f'<tr><th scope="row" data-sort="{escape(entry["title"])}">{link}</th>'
            f'<td class="text">{escape(entry["language"])}</td><td class="text">{escape(entry["version"] or "")}</td>'
            f'<td data-sort="{entry["share"]:.4f}">{share}</td>'
            f'<td class="ok">{totals["passed"]}</td>'
            f'<td class="{"bad" if totals["failed"] else ""}">{totals["failed"]}</td>'
            f'<td class="skip">{totals["skipped"]}</td>{cells}</tr>'
        )
    body = f"""
<h1>Hearts implementations under the reversis conformance suite</h1>
<p>Every implementation ran the {suite["cases"]} cases of the suite (specification {escape(suite["spec_version"])})
through the driver protocol. A cell is <em>passed / claimed</em>: the cases of that area the implementation
passed, of those it claims to play; the rest were skipped, each for a stated reason on the implementation's page.
<em>Share</em> is passed of claimed.</p>
<div class="scroll"><table class="sortable">
<caption>Passed of claimed, per area (hover a cell for its counts)</caption>
<thead><tr><th scope="col">implementation</th><th scope="col">language</th><th scope="col">version</th>
<th scope="col">share</th><th scope="col">passed</th><th scope="col">failed</th>
<th scope="col">skipped</th>{head}</tr></thead>
<tbody>
{"".join(rows)}
</tbody></table></div>
<p>Made by <code>reversis report</code> in {results["seconds"]} s; the data: <a href="results.json">results.json</a>,
badges in <a href="badges/">badges/</a>.</p>
"""
    return _page("reversis conformance: every implementation", body, script=True)


def implementation_html(entry: dict[str, Any], results: dict[str, Any]) -> str:
    """A page for one implementation: its claims and counts, each failure and its reproduction, each skip's reason."""
    about = [
        ("language", escape(entry["language"])),
        ("version", escape(entry["version"] or "(not pinned)")),
        ("homepage", f'<a href="{escape(entry["homepage"])}">{escape(entry["homepage"])}</a>'),
        ("licence", escape(entry["licence"])),
        ("install", f"<code>{escape(entry['install'] or '(none)')}</code>"),
        ("driver", f"<code>{escape(entry['driver'])}</code>"),
        ("claims", escape(entry["capability_line"] or "(no usable hello)")),
        ("run", f"{entry['seconds']} s, {entry['cases_per_second']} claimed cases a second"),
    ]
    parts = [f"<h1>{escape(entry['title'])}</h1>", '<p><a href="../index.html">All implementations</a></p>', "<dl>"]
    parts += [f"<dt>{key}</dt><dd>{value}</dd>" for key, value in about]
    parts.append("</dl>")
    if entry["problem"]:
        parts.append(f"<h2>The run did not finish</h2><p>{escape(entry['problem'])}</p>")
    if entry["stderr"]:
        parts.append(f"<h2>The end of its standard error</h2><pre>{escape(entry['stderr'][-4000:])}</pre>")
    totals = entry["totals"]
    rows = "".join(
        f'<tr><th scope="row">{escape(area)}</th><td class="ok">{row["passed"]}</td>'
        f'<td class="{"bad" if row["failed"] else ""}">{row["failed"]}</td><td class="skip">{row["skipped"]}</td></tr>'
        for area, row in entry["counts"].items()
    )
    parts.append(
        f"<h2>Counts</h2><p>{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped.</p>"
        '<div class="scroll"><table><thead><tr><th scope="col">area</th><th scope="col">passed</th>'
        f'<th scope="col">failed</th><th scope="col">skipped</th></tr></thead><tbody>{rows}</tbody></table></div>'
    )
    if entry["failures"]:
        parts.append(f"<h2>Failures ({len(entry['failures'])})</h2><ol>")
        for failure in entry["failures"]:
            cites = ", ".join(failure["clauses"] + failure["decisions"]) or "(none)"
            documents = "; ".join(failure["documents"]) or "(none)"
            divergence = ""
            if failure.get("divergence"):
                divergence = f"<dt>where the engines part</dt><dd>{escape(failure['divergence'])}</dd>"
            parts.append(
                f'<li id="{escape(failure["case"])}"><strong><code>{escape(failure["case"])}</code></strong> '
                f"[{escape(failure['area'])}] {escape(failure['description'])}<dl>"
                f"<dt>first difference</dt><dd><code>{escape(failure['difference'])}</code></dd>{divergence}"
                f"<dt>spec</dt><dd>{escape(cites)}</dd><dt>source</dt><dd>{escape(documents)}</dd>"
                f"<dt>reproduce</dt><dd><code>{escape(failure['reproduce'])}</code></dd></dl>"
                f"<details><summary>the runner's words</summary><pre>{escape(failure['reason'])}</pre></details></li>"
            )
        parts.append("</ol>")
    if entry["skips"]:
        parts.append("<h2>Skipped, and why</h2><ul>")
        for skip in entry["skips"]:
            ids = " ".join(f"<code>{escape(case)}</code>" for case in skip["cases"])
            parts.append(
                f"<li>{escape(skip['reason'])}: {len(skip['cases'])} case{'s' * (len(skip['cases']) != 1)}"
                f"<details><summary>which</summary><p>{ids}</p></details></li>"
            )
        parts.append("</ul>")
    return _page(f"{entry['title']} under the reversis conformance suite", "\n".join(parts))


def badge(entry: dict[str, Any], spec_version: str) -> dict[str, Any]:
    """The shields.io endpoint badge of one implementation: passed of claimed, coloured by how many failed."""
    totals = entry["totals"]
    claimed = totals["passed"] + totals["failed"]
    if entry["status"] != "ran" or not claimed:
        message, color = status_text(entry), "lightgrey"
    else:
        message = f"{totals['passed']}/{claimed} passed"
        share = entry["share"]
        color = (
            "brightgreen" if not totals["failed"] else "yellow" if share >= 0.9 else "orange" if share >= 0.5 else "red"
        )
    return {"schemaVersion": 1, "label": f"reversis {spec_version}", "message": message, "color": color}


def markdown_table(results: dict[str, Any], link: str = "conformance/implementations/{harness}/README.md") -> str:
    """The README's table: one row an implementation, linking its harness's page."""
    lines = [
        "| implementation | language | version | passed | failed | skipped | share of claimed |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for entry in sorted(results["implementations"], key=lambda e: (-e["share"], e["name"])):
        totals = entry["totals"]
        harness = entry.get("harness")
        title = f"[{entry['title']}]({link.format(harness=harness)})" if harness else entry["title"]
        claimed = totals["passed"] + totals["failed"]
        share = f"{100 * entry['share']:.1f}%" if claimed else status_text(entry)
        lines.append(
            f"| {title} | {entry['language']} | {entry['version'] or ''} | {totals['passed']} | {totals['failed']} "
            f"| {totals['skipped']} | {share} |"
        )
    return "\n".join(lines) + "\n"


def run_badge(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The badge of one ``reversis conformance`` run (its ``--json`` reports, every engine's counts added)."""
    from ...reference.ruleset import SPEC_VERSION

    totals = {"passed": 0, "failed": 0, "skipped": 0}
    for report in reports:
        for row in report["counts"].values():
            for key in totals:
                totals[key] += row[key]
    claimed = totals["passed"] + totals["failed"]
    ran = all(report["failure"] is None for report in reports)
    entry = {
        "status": "ran" if ran else "failed-run",
        "totals": totals,
        "share": totals["passed"] / claimed if claimed else 0.0,
    }
    return badge(entry, SPEC_VERSION)


def harness_result(row: dict[str, Any]) -> str:
    """What a harness's README shows of its run: its row of the matrix, as the runner prints it."""
    totals = row["totals"]
    summary = f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped"
    return (
        f"`reversis report --only {row['name']}` (its row of `conformance/implementations.expected.json`):\n\n"
        f"```\ncapabilities: {row['capability_line']}\n{summary}\n```\n"
    )
