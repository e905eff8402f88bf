"""The figures the documents quote about the project itself, each computed here and held to the text.

A document states such a figure in a recognisable form (the patterns below). Each test computes
the figure from the project as it is (the suite's files, a run of a driver, the built module,
a manifest, the code that sets a default) and fails naming the file, the line and the text to
write there instead, so that a count or a size cannot drift from what a fresh run gives. A new
figure in a document gets a pattern and a computation here; none is copied into this file. (The
size of a position, which only Rust can measure, is held by rust/reversis-core/tests/docs_figures.rs.)

The figures that need something built skip without it: the WebAssembly module (``bash
js/build.sh``) unless ``REVERSIS_REQUIRE_WASM=1``, as ``.ci/run`` sets. What each outside
implementation's harness page quotes of its run is held to the report's committed matrix by
``tests/test_report.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Union

import pytest

from reversis.conformance.runner import load_cases

ROOT = Path(__file__).resolve().parents[1]
WASM_MODULE = ROOT / "js" / "wasm" / "reversis_wasm_bg.wasm"

#: What a figure should read, by the name of its group in the pattern: fixed, or computed from
#: what the document states (a rounded size depends on the rounding the text gives).
Wanted = Union[Mapping[str, str], Callable[[dict[str, str]], Mapping[str, str]]]

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def require(variable: str, why: str) -> None:
    """Skip for ``why``, or fail where ``variable`` is ``1`` (``.ci/run``), which forbids skipping."""
    if os.environ.get(variable) == "1":
        pytest.fail(f"{why} ({variable}=1)")
    pytest.skip(why)


def check_figures(path: str, pattern: str, wanted: Wanted, how: str) -> None:
    """Every match of ``pattern`` in ``path`` reads as ``wanted`` in each named group.

    ``how`` says where the right figure comes from (the command that prints it). Fails when the
    pattern no longer matches at all, so that a figure reworded out of its form is not silently
    left unchecked.
    """
    text = (ROOT / path).read_text(encoding="utf-8")
    matches = list(re.finditer(pattern, text))
    assert matches, (
        f"{path} no longer states the figure of {how} in the form {pattern!r}; state it so, "
        "or change the pattern in tests/test_docs_figures.py with the text"
    )
    # The lines that hold a wrong figure, by their start, with the figures to put in them.
    fixes: dict[int, list[tuple[int, int, str]]] = {}
    for match in matches:
        groups = {name: value for name, value in match.groupdict().items() if value is not None}
        want = wanted(groups) if callable(wanted) else wanted
        for name, value in want.items():
            if groups[name] != value:
                line_start = text.rfind("\n", 0, match.start(name)) + 1
                fixes.setdefault(line_start, []).append((match.start(name), match.end(name), value))
    wrong = []
    for line_start, spans in sorted(fixes.items()):
        line_end = text.find("\n", line_start)
        line = text[line_start : line_end if line_end >= 0 else len(text)]
        corrected = line
        for start, end, value in sorted(spans, reverse=True):  # right to left, so the spans hold
            corrected = corrected[: start - line_start] + value + corrected[end - line_start :]
        number = text.count("\n", 0, line_start) + 1
        wrong.append(f"{path}:{number}: {line.strip()!r}\n  should read {corrected.strip()!r}")
    assert not wrong, f"figures out of date ({how}):\n" + "\n".join(wrong)


def number_word(count: int) -> str:
    """A small count as the documents write it in prose."""
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)


def run_suite(driver: str, tmp_path: Path) -> dict[str, Any]:
    """``reversis conformance --driver DRIVER --json``'s report, run from the checkout."""
    report = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, "-m", "reversis", "conformance", "--driver", driver, "--json", str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert report.is_file(), f"the run wrote no report (status {run.returncode}): {run.stderr[-2000:]}"
    (only,) = json.loads(report.read_text(encoding="utf-8"))
    assert only["failure"] is None, only["failure"]
    return dict(only)


def totals(report: Mapping[str, Any]) -> dict[str, str]:
    """The passed, failed and skipped counts of a report, as the runner's last line prints them."""
    return {
        outcome: str(sum(area[outcome] for area in report["counts"].values()))
        for outcome in ("passed", "failed", "skipped")
    }


# --------------------------------------------------------------------------- the suite's size


def suite_size() -> int:
    """The number of cases ``reversis conformance`` runs, counted in the checkout's files."""
    return len(load_cases(suite=ROOT / "conformance"))


def test_suite_size_in_conformance_readme() -> None:
    check_figures(
        "conformance/README.md",
        r"The suite holds (?P<cases>\d+) cases",
        {"cases": str(suite_size())},
        "the cases of conformance/cases, seeding and generated: the `total` row of `reversis conformance`",
    )


NODE_LINE = (
    r'--driver "node js/driver\.mjs" *# (?P<passed>\d+) passed, (?P<failed>\d+) failed, (?P<skipped>\d+) skipped'
)


def test_node_driver_line_counts_the_whole_suite() -> None:
    """js/README.md says the Node driver passes every case: as many as the suite holds."""
    check_figures(
        "js/README.md",
        NODE_LINE,
        {"passed": str(suite_size()), "failed": "0", "skipped": "0"},
        'every case of the suite passed: `reversis conformance --driver "node js/driver.mjs"`',
    )


def test_node_driver_line_is_what_a_run_gives(tmp_path: Path) -> None:
    if not WASM_MODULE.is_file():
        require("REVERSIS_REQUIRE_WASM", "the WebAssembly module is not built (bash js/build.sh)")
    if shutil.which("node") is None:
        require("REVERSIS_REQUIRE_WASM", "node is not installed")
    report = run_suite("node js/driver.mjs", tmp_path)
    check_figures("js/README.md", NODE_LINE, totals(report), 'reversis conformance --driver "node js/driver.mjs"')


# --------------------------------------------------------------------------- the WebAssembly module

#: "about 650 KB, 250 KB gzipped (to the nearest 10 KB", KB being 1,000 bytes.
WASM_SIZE = r"about\s+(?P<kb>\d+)\s+KB,\s+(?P<gzip_kb>\d+)\s+KB\s+gzipped\s+\(to\s+the\s+nearest\s+(?P<step>\d+)\s+KB"


@pytest.mark.parametrize("path", ["README.md", "benches/README.md"])
def test_wasm_module_size(path: str) -> None:
    if not WASM_MODULE.is_file():
        require("REVERSIS_REQUIRE_WASM", "the WebAssembly module is not built (bash js/build.sh)")
    raw = WASM_MODULE.read_bytes()
    sizes = {"kb": len(raw), "gzip_kb": len(gzip.compress(raw, compresslevel=9))}

    def rounded(stated: dict[str, str]) -> dict[str, str]:
        step = int(stated["step"]) * 1000
        return {name: str(round(size / step) * step // 1000) for name, size in sizes.items()}

    check_figures(
        path,
        WASM_SIZE,
        rounded,
        f"{len(raw):,} bytes, {sizes['gzip_kb']:,} gzipped: wc -c {WASM_MODULE.relative_to(ROOT)}, "
        "and gzip -9 -c of it | wc -c, after bash js/build.sh",
    )


# --------------------------------------------------------------------------- versions


def test_npm_pack_file_name() -> None:
    """``npm pack`` names its file after js/package.json's version."""
    version = json.loads((ROOT / "js" / "package.json").read_text(encoding="utf-8"))["version"]
    for path in ("README.md", "js/README.md"):
        check_figures(path, r"reversis-(?P<version>\d+\.\d+\.\d+[^ ]*?)\.tgz", {"version": version}, "js/package.json")


def test_node_version_in_documents() -> None:
    """The Node the documents ask for is js/package.json's ``engines.node``."""
    engines = json.loads((ROOT / "js" / "package.json").read_text(encoding="utf-8"))["engines"]["node"]
    match = re.fullmatch(r">=(\d+)", engines)
    assert match, f"js/package.json's engines.node is {engines!r}, which the documents' 'Node N' cannot say"
    for path in ("README.md", "js/README.md"):
        check_figures(path, r"\bNode\s+(?P<major>\d+)\b", {"major": match.group(1)}, "engines.node of js/package.json")


def rust_version(manifest: str) -> str:
    """The ``rust-version`` a Cargo manifest declares (its own or, for ``.workspace = true``, the workspace's)."""
    text = (ROOT / manifest).read_text(encoding="utf-8")
    match = re.search(r'^rust-version = "([^"]+)"', text, re.MULTILINE)
    if match is None:
        return rust_version("Cargo.toml")
    return match.group(1)


def test_rust_versions_in_readme() -> None:
    native, wasm = rust_version("rust/reversis-core/Cargo.toml"), rust_version("rust/reversis-wasm/Cargo.toml")
    how = "rust-version in Cargo.toml and rust/reversis-wasm/Cargo.toml"
    check_figures("README.md", r"takes the Rust toolchain, (?P<native>[\d.]+) or later", {"native": native}, how)
    check_figures(
        "README.md",
        r"keep their rust-version \((?P<native>[\d.]+)\); "
        r"the WebAssembly binding declares its own\s+\((?P<wasm>[\d.]+),",
        {"native": native, "wasm": wasm},
        how,
    )


# --------------------------------------------------------------------------- install hints

#: Where the documents and messages that name an extra are: the package, the docs, the scripts.
HINT_FILES = (
    "README.md",
    "CONTRIBUTING.md",
    "*/README.md",
    "spec/*.md",
    "benches/*.md",
    "examples/**/*.md",
    "examples/**/*.py",
    "web/*.py",
    "python/reversis/**/*.py",
)


def declared_extras() -> dict[str, list[str]]:
    """``[project.optional-dependencies]`` of pyproject.toml: each extra's requirements."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    return {
        match["extra"]: json.loads(match["requirements"])
        for match in re.finditer(r"^(?P<extra>[\w-]+) = (?P<requirements>\[.*\])$", section, re.MULTILINE)
    }


def test_install_hints_work_from_a_checkout() -> None:
    """No release is on PyPI yet: ``reversis[EXTRA]`` appears only beside the checkout's ``.[EXTRA]``.

    The package's own messages say it through ``install_hint`` and never name ``reversis[EXTRA]``;
    a document may (the README says it finds nothing yet), in a paragraph that also gives the form
    that works. CHANGELOG.md is left out: it describes the release, from which the name works.
    """
    wrong = []
    for pattern in HINT_FILES:
        for path in sorted(ROOT.glob(pattern)):
            relative = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            for paragraph in re.finditer(r"(?:[^\n]+\n?)+", text):
                for match in re.finditer(r"reversis\[(?P<extras>[\w,-]+)\]", paragraph.group(0)):
                    checkout = f".[{match['extras']}]"
                    if path.suffix == ".md" and checkout in paragraph.group(0):
                        continue
                    line = text.count("\n", 0, paragraph.start() + match.start()) + 1
                    wrong.append(f"{relative}:{line}: {match.group(0)} (say pip install '{checkout}' from a checkout)")
    assert not wrong, "install hints that find nothing on PyPI yet:\n" + "\n".join(wrong)


def test_install_hint_names_each_extra_and_its_packages() -> None:
    from reversis._extras import extra_requirements, install_hint

    extras = declared_extras()
    assert {"plot", "ray", "gymnasium", "web", "learn"} <= set(extras), extras
    if not extra_requirements("plot"):
        pytest.skip("the package's metadata is not installed (a source tree on sys.path)")
    for extra, requirements in extras.items():
        hint = install_hint(extra)
        assert hint.startswith(f"pip install '.[{extra}]' in a checkout"), hint
        assert extra_requirements(extra) == requirements, (
            f"the installed metadata of extra {extra!r} is not pyproject.toml's: reinstall the package"
        )
        assert all(f"'{requirement}'" in hint for requirement in requirements), hint


# --------------------------------------------------------------------------- recipes

#: README.md §Tournaments: a ruleset written by a line of Python, then played from its file.
RULESET_RECIPE = r"(?m)^python -c '(?P<code>[^'\n]*)' > (?P<file>\S+)\n(?P<command>reversis tournament [^\n]*)$"


def test_readme_ruleset_recipe_runs_and_titles_what_it_writes(tmp_path: Path) -> None:
    """The recipe's ruleset is named and titled as itself, not as the preset it started from."""
    import reversis

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(RULESET_RECIPE, text)
    assert match, f"README.md no longer shows the ruleset recipe in the form {RULESET_RECIPE!r}"
    written = subprocess.run(
        [sys.executable, "-c", match["code"]], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True
    ).stdout
    (tmp_path / match["file"]).write_text(written, encoding="utf-8")
    ruleset = reversis.Ruleset.from_json(written)
    assert ruleset.to_json()["moon"] is None
    presets = [reversis.preset(name) for name in reversis.preset_names()]
    assert ruleset.name not in {preset.name for preset in presets}, ruleset.name
    assert ruleset.title not in {preset.title for preset in presets}, (
        f"the recipe keeps a preset's title {ruleset.title!r}"
    )

    # The README's command on the file, one deal and the quick players (the search player would
    # take its budget on every card).
    arguments = shlex.split(match["command"])[1:]
    for option, value in (("--hands", "1"), ("--players", "rules,random"), ("--json", str(tmp_path / "report.json"))):
        arguments[arguments.index(option) + 1] = value
    played = subprocess.run(
        [sys.executable, "-m", "reversis", *arguments, "--jobs", "1", "--no-progress"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith(f"ruleset {ruleset.name},"), played.stdout
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["ruleset"] == ruleset.to_json()


# --------------------------------------------------------------------------- the fuzz corpora


def test_fuzz_seed_counts(tmp_path: Path) -> None:
    """FUZZING.md's count of the seeds seed_corpora.py writes, which grows with the suite."""
    script = ROOT / "rust" / "reversis-core" / "fuzz" / "seed_corpora.py"
    subprocess.run([sys.executable, str(script), "--out", str(tmp_path)], capture_output=True, timeout=600, check=True)
    counts = {target.name: str(sum(1 for _ in target.iterdir())) for target in tmp_path.iterdir()}
    check_figures(
        "rust/reversis-core/FUZZING.md",
        r"the script writes (?P<record_bytes>\d+), (?P<ruleset_json>\d+) and (?P<game_actions>\d+) seeds",
        counts,
        "python rust/reversis-core/fuzz/seed_corpora.py --out DIR prints each target's seeds",
    )


# --------------------------------------------------------------------------- defaults the documents quote


def cli_default(command: str, dest: str) -> Any:
    """The default of an option of ``reversis COMMAND``, from the command line's own parser."""
    from reversis.cli import build_parser

    parser = build_parser()
    (commands,) = [action for action in parser._actions if isinstance(action.choices, dict)]
    return commands.choices[command].get_default(dest)


def js_constant(pattern: str, path: str = "js/src/index.js") -> int:
    """An integer the JavaScript source sets, found by ``pattern`` (one group)."""
    match = re.search(pattern, (ROOT / path).read_text(encoding="utf-8"))
    assert match, f"{path} no longer matches {pattern!r}"
    return int(match.group(1))


def _conformance_timeout() -> str:
    return f"{cli_default('conformance', 'timeout'):g}"


def _max_line_mib() -> str:
    from reversis.conformance.engines import MAX_LINE

    return str(MAX_LINE // 2**20)


def _max_timeouts() -> str:
    from reversis.conformance.runner import MAX_TIMEOUTS

    return str(MAX_TIMEOUTS)


def _stderr_kib() -> str:
    from reversis.conformance.engines import STDERR_TAIL

    return str(STDERR_TAIL // 1024)


def _time_limit_ms() -> str:
    from reversis.commands.tournament.players import DEFAULT_TIME_LIMIT_MS

    return str(DEFAULT_TIME_LIMIT_MS)


def _ladder_hands() -> str:
    return str(cli_default("ladder", "hands"))


def _ladder_matches() -> str:
    return str(cli_default("ladder", "matches"))


def _search_playouts() -> str:
    playouts = js_constant(r"const DEFAULT_PLAYOUTS = (\d+);")
    return f"{playouts:,}"


def _table_pace() -> str:
    # The default speed's milliseconds: SPEEDS[DEFAULT_SPEED].
    found = re.search(r'const DEFAULT_SPEED = "(\w+)";', (ROOT / "web/app.js").read_text(encoding="utf-8"))
    assert found, "web/app.js no longer names its DEFAULT_SPEED"
    speed = found.group(1)
    return str(js_constant(rf"const SPEEDS = \{{[^}}]*\b{speed}: (\d+)", "web/app.js"))


def _table_pace_limit() -> str:
    return str(js_constant(r"Math\.min\(asked, (\d+)\)", "web/app.js"))


#: (document, the figure's form with one group ``v``, its value from the code that sets it).
DEFAULTS = [
    ("conformance/README.md", r"`--timeout` seconds \((?P<v>[\d.]+) by default\)", _conformance_timeout),
    ("spec/driver.md", r"\(`--timeout`, (?P<v>[\d.]+) s by\s+default\)", _conformance_timeout),
    ("conformance/README.md", r"an answer line may be at most (?P<v>\d+) MiB", _max_line_mib),
    ("spec/driver.md", r"reads lines of at most (?P<v>\d+) MiB", _max_line_mib),
    ("conformance/README.md", r"`--max-timeouts` cases in a row \((?P<v>\d+) by default\)", _max_timeouts),
    ("spec/driver.md", r"`--max-timeouts` cases in a row \((?P<v>\d+) by default\)", _max_timeouts),
    ("conformance/README.md", r"The last (?P<v>\d+) KiB of the implementation's standard error", _stderr_kib),
    ("spec/driver.md", r"It keeps the last (?P<v>\d+) KiB of the", _stderr_kib),
    ("README.md", r"`--time-limit` \((?P<v>\d+) ms per decision by default\)", _time_limit_ms),
    ("benches/TOURNAMENT.md", r"`--hands` deals, (?P<v>\d+) by default", _ladder_hands),
    ("benches/TOURNAMENT.md", r"`--matches`\s+whole matches, (?P<v>\d+) by default", _ladder_matches),
    ("web/README.md", r"default budget \((?P<v>[\d,]+) playouts a card", _search_playouts),
    ("benches/README.md", r"default budget \((?P<v>[\d,]+) playouts a card", _search_playouts),
    ("web/README.md", r"players pause (?P<v>\d+) ms before each card", _table_pace),
    ("web/README.md", r"number of milliseconds up to (?P<v>\d+)\)", _table_pace_limit),
]


@pytest.mark.parametrize(("path", "pattern", "value"), DEFAULTS, ids=[f"{d[0]}:{d[2].__name__}" for d in DEFAULTS])
def test_defaults_in_documents(path: str, pattern: str, value: Callable[[], str]) -> None:
    check_figures(path, pattern, {"v": value()}, f"the default set by {value.__name__.lstrip('_')}'s source")


def test_wheel_size_bound_in_readme() -> None:
    """README.md's bound on a wheel's size is the one tests/test_packaging.py holds every built wheel to."""
    source = (ROOT / "tests" / "test_packaging.py").read_text(encoding="utf-8")
    match = re.search(r"^MAX_WHEEL_BYTES = ([\d_]+)$", source, re.MULTILINE)
    assert match, "tests/test_packaging.py no longer sets MAX_WHEEL_BYTES"
    bound_mb = int(match.group(1).replace("_", "")) / 1_000_000
    check_figures(
        "README.md",
        r"three wheels of under (?P<mb>[\d.]+) MB",
        {"mb": f"{bound_mb:g}"},
        "MAX_WHEEL_BYTES of tests/test_packaging.py, in MB of 1,000,000 bytes",
    )


def test_shipped_network_size() -> None:
    """Every page that gives the size of the network the package ships gives it right, in whole KB
    or in MB to a tenth (of 1,000 and 1,000,000 bytes)."""
    network = ROOT / "python" / "reversis" / "players" / "learned-hearts-computer.rvnn"
    size = network.stat().st_size

    def wanted(groups: dict[str, str]) -> dict[str, str]:
        return {"size": str(round(size / 1000)) if groups["unit"] == "KB" else f"{size / 1e6:.1f}"}

    # "learned-hearts-computer.rvnn` (2.0 MB)", "….rvnn`, 2.0 MB", "network (2.0 MB)".
    stated = r"(?:learned-hearts-computer\.rvnn`?,?\s+\(?|network \()(?P<size>[\d.]+)\s+(?P<unit>KB|MB)"
    pages = (
        "benches/LEARNING.md",
        "benches/README.md",
        "web/README.md",
        "web/worker.js",
        "js/README.md",
        "js/src/index.js",
    )
    for page in pages:
        check_figures(page, stated, wanted, f"{size:,} bytes: wc -c {network.relative_to(ROOT)}")
