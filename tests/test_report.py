"""``reversis report``: the list of implementations, installing harnesses, the matrix and its pages.

The report runs over a list made in a temporary folder (a sound implementation, one that breaks
a rule, one whose install fails), on a few areas so that it stays quick; the real list is held
to its schema and its harness folders here, and run whole by ``.ci/run``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from reversis.commands.report import README_BEGIN, README_END, RESULT_BEGIN, RESULT_END, render, results

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "conformance" / "implementations.json"
HARNESSES = ROOT / "conformance" / "implementations"
EXPECTED = ROOT / "conformance" / "implementations.expected.json"
SCHEMAS = ROOT / "spec" / "schemas"
AREAS = ["follow-suit", "cards"]

#: A driver that plays by the reference engine but leaves the highest card out of every legal list
#: that has more than one: a rule broken where a case looks at ``legal``.
BROKEN_DRIVER = """
import json, sys
from reversis.conformance.engines import EngineError, builtin_engine

engine = builtin_engine("reference")
for line in sys.stdin:
    request = json.loads(line)
    request_id, cmd = request.pop("id"), request.pop("cmd")
    if cmd == "quit":
        break
    try:
        body = {"ok": True, **engine.call(cmd, **request)}
    except EngineError as error:
        body = {"ok": False, "error": error.code, "message": error.message}
    if cmd == "hello":
        body["capabilities"]["perft"] = False  # so that the runner walks its perft cases through view
    if cmd == "view" and body["ok"] and len(body["view"]["legal"]) > 1:
        body["view"]["legal"] = body["view"]["legal"][:-1]
    print(json.dumps({"id": request_id, **body}), flush=True)
"""
INSTALL = """
set -eu
mkdir -p "$1"
cp "$(dirname "$0")/driver.py" "$1/driver.py"
echo installed >> "$1/installs"
"""


def _validator(name: str) -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(json.loads((SCHEMAS / name).read_text()))


def _entry(name: str, **fields: Any) -> dict[str, Any]:
    return {
        "name": name,
        "title": name.replace("-", " "),
        "language": "Python",
        "version": "1.0",
        "homepage": "https://example.invalid/" + name,
        "licence": "MIT",
        "harness": None,
        "install": None,
        **fields,
    }


@pytest.fixture
def fake_root(tmp_path: Path) -> Path:
    """A checkout-like folder whose list has a sound, a broken and an uninstallable implementation."""
    root = tmp_path / "root"
    harnesses = root / "conformance" / "implementations"
    for name, install in (("broken", INSTALL), ("uninstallable", "echo no compiler here >&2\nexit 3\n")):
        (harnesses / name).mkdir(parents=True)
        (harnesses / name / "install").write_text(textwrap.dedent(install))
        (harnesses / name / "driver.py").write_text(BROKEN_DRIVER)
    python = shutil.which("python3") or sys.executable
    implementations = [
        _entry("sound", driver="{python} -m reversis driver --engine rust"),
        _entry("broken", harness="broken", install="sh {harness}/install {cache}", driver="{python} {cache}/driver.py"),
        _entry("uninstallable", harness="uninstallable", install="sh {harness}/install {cache}", driver=python),
    ]
    (root / "conformance" / "implementations.json").write_text(json.dumps({"implementations": implementations}))
    return root


def _report(root: Path, *options: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "reversis", "report", "--list", str(root / "conformance" / "implementations.json")]
    argv += ["--cache", str(root / "cache"), *options]
    for area in AREAS:
        argv += ["--area", area]
    done = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def test_the_list_of_implementations_is_as_its_schema_says() -> None:
    data = json.loads(LIST.read_text())
    errors = [error.message for error in _validator("implementations.schema.json").iter_errors(data)]
    assert errors == []


def test_every_harness_folder_is_listed_with_its_readme_and_install() -> None:
    listed = {entry["harness"] for entry in json.loads(LIST.read_text())["implementations"] if entry["harness"]}
    folders = {path.name for path in HARNESSES.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert folders == listed
    for name in listed:
        assert (HARNESSES / name / "README.md").is_file(), name
        assert (HARNESSES / name / "install").is_file(), name


def test_no_harness_asks_reversis_anything() -> None:
    # A harness that imported reversis could take its answers from the engine it is measured against.
    pattern = re.compile(r"^\s*(import reversis|from reversis)|\breversis[-_](core|players)\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(ROOT))
        for path in HARNESSES.rglob("*")
        if path.suffix in (".py", ".rs", ".toml") and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_report_measures_each_implementation_and_names_each_failure(fake_root: Path) -> None:
    out = fake_root / "out"
    _report(fake_root, "--out", str(out))
    data = json.loads((out / "results.json").read_text())
    assert [error.message for error in _validator("report.schema.json").iter_errors(data)] == []
    rows = {entry["name"]: entry for entry in data["implementations"]}
    assert rows["sound"]["status"] == "ran" and rows["sound"]["totals"]["failed"] == 0
    assert rows["sound"]["totals"]["passed"] == data["suite"]["cases"]
    broken = rows["broken"]
    assert broken["status"] == "ran" and broken["failures"]
    for failure in broken["failures"]:
        assert failure["area"] in AREAS
        assert "legal" in failure["difference"]
        assert failure["case"] in failure["reproduce"] and "--print-driver broken" in failure["reproduce"]
        assert failure["clauses"] or failure["decisions"]
    assert rows["uninstallable"]["status"] == "failed-install"
    assert "status 3" in rows["uninstallable"]["problem"]
    assert "no compiler here" in rows["uninstallable"]["stderr"]
    badges = {name: json.loads((out / "badges" / f"{name}.json").read_text()) for name in rows}
    for badge in badges.values():
        assert set(badge) == {"schemaVersion", "label", "message", "color"} and badge["schemaVersion"] == 1
    assert badges["sound"]["color"] == "brightgreen"
    assert badges["broken"]["color"] != "brightgreen"
    assert badges["uninstallable"]["color"] == "lightgrey"
    page = (out / "implementations" / "broken.html").read_text()
    for failure in broken["failures"]:
        assert f'id="{failure["case"]}"' in page


def test_divide_names_where_a_failed_perft_case_parts_from_ours(fake_root: Path) -> None:
    out = fake_root / "out"
    argv = [
        sys.executable,
        "-m",
        "reversis",
        "report",
        "--list",
        str(fake_root / "conformance" / "implementations.json"),
    ]
    argv += ["--cache", str(fake_root / "cache"), "--only", "broken", "--area", "perft", "--out", str(out)]
    done = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    (broken,) = json.loads((out / "results.json").read_text())["implementations"]
    walked = [failure for failure in broken["failures"] if "divergence" in failure]
    assert walked, broken["failures"][:3]
    for failure in walked:
        # The broken driver hides the last of several legal cards: divide finds a position where
        # ours allows one decision more, and nothing it does not.
        text = failure["divergence"]
        short = re.fullmatch(r".*, ours allows \[(?P<ours>.*)\] theirs allows \[(?P<theirs>.*)\]", text)
        long = re.fullmatch(
            r".*, ours allows (\d+) decisions, theirs (\d+): only ours \[(\w+)\], only theirs \[\]", text
        )
        assert short is not None or long is not None, text
        if short is not None:
            ours, theirs = short["ours"].split(", "), short["theirs"].split(", ")
            assert len(ours) == len(theirs) + 1 and set(theirs) < set(ours), text
        else:
            assert long is not None and int(long.group(1)) == int(long.group(2)) + 1, text
    page = (out / "implementations" / "broken.html").read_text()
    assert "where the engines part" in page


def test_a_harness_is_installed_once_and_again_when_it_changes(fake_root: Path) -> None:
    _report(fake_root, "--only", "broken", "--write-expected", str(fake_root / "m.json"))
    _report(fake_root, "--only", "broken", "--write-expected", str(fake_root / "m.json"))
    installs = fake_root / "cache" / "broken" / "installs"
    assert installs.read_text().count("installed") == 1
    driver = fake_root / "conformance" / "implementations" / "broken" / "driver.py"
    driver.write_text(driver.read_text() + "\n# changed\n")
    _report(fake_root, "--only", "broken", "--write-expected", str(fake_root / "m.json"))
    assert installs.read_text().count("installed") == 2


def test_check_fails_when_the_matrix_moves(fake_root: Path) -> None:
    expected = fake_root / "expected.json"
    _report(fake_root, "--only", "sound", "--only", "broken", "--write-expected", str(expected))
    _report(fake_root, "--only", "sound", "--only", "broken", "--check", str(expected))
    data = json.loads(expected.read_text())
    row = next(row for row in data["implementations"] if row["name"] == "broken")
    row["counts"]["cards"]["failed"] += 1
    expected.write_text(json.dumps(data))
    done = _report(fake_root, "--only", "sound", "--only", "broken", "--check", str(expected), check=False)
    assert done.returncode == 1
    assert "broken cards: expected" in done.stderr


def test_usage_errors_name_the_problem(fake_root: Path, tmp_path: Path) -> None:
    done = _report(fake_root, "--only", "nobody", "--out", str(tmp_path / "o"), check=False)
    assert done.returncode == 2 and "no implementation named nobody" in done.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"implementations": [_entry("x", driver="true", harness="missing")]}))
    done = subprocess.run(
        [sys.executable, "-m", "reversis", "report", "--list", str(bad), "--out", str(tmp_path / "o")],
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "harness: there is no folder" in done.stderr
    printed = subprocess.run(
        [sys.executable, "-m", "reversis", "report", "--list", str(fake_root / "conformance" / "implementations.json")]
        + ["--cache", "/c", "--print-driver", "broken"],
        check=False,
        capture_output=True,
        text=True,
    )
    assert printed.returncode == 0 and printed.stdout.strip() == f"{sys.executable} /c/broken/driver.py"


def test_the_readme_shows_the_expected_matrix() -> None:
    readme = (ROOT / "README.md").read_text()
    begin, end = readme.index(README_BEGIN) + len(README_BEGIN), readme.index(README_END)
    table = render.markdown_table(json.loads(EXPECTED.read_text()))
    assert readme[begin:end].strip() == table.strip(), (
        "README.md's table of implementations is not the one conformance/implementations/expected.json makes: "
        "run `reversis report --only ... --readme README.md` or rebuild it with --write-expected first"
    )


def test_each_harness_page_shows_its_row_of_the_expected_matrix() -> None:
    rows = {row["name"]: row for row in json.loads(EXPECTED.read_text())["implementations"]}
    for entry in json.loads(LIST.read_text())["implementations"]:
        if entry["harness"] is None:
            continue
        page = HARNESSES / entry["harness"] / "README.md"
        text = page.read_text()
        assert RESULT_BEGIN in text and RESULT_END in text, f"{page} has no generated result"
        shown = text[text.index(RESULT_BEGIN) + len(RESULT_BEGIN) : text.index(RESULT_END)]
        assert shown.strip() == render.harness_result(rows[entry["name"]]).strip(), (
            f"{page}'s result is not its row of {EXPECTED}: run `reversis report --readme README.md`"
        )


def test_the_expected_matrix_lists_every_implementation() -> None:
    names = [entry["name"] for entry in json.loads(LIST.read_text())["implementations"]]
    expected = json.loads(EXPECTED.read_text())
    assert [row["name"] for row in expected["implementations"]] == names
    assert results.matrix_differences(expected, expected) == []


# --------------------------------------------------------------------------- the pages in Chromium


@pytest.fixture(scope="module")
def chromium() -> Any:
    required = os.environ.get("REVERSIS_REQUIRE_BROWSER") == "1"
    try:
        from selenium import webdriver
    except ImportError:
        if required:
            pytest.fail("selenium is not installed (REVERSIS_REQUIRE_BROWSER=1)")
        pytest.skip("selenium is not installed (pip install '.[web]')")
    binary = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if not binary or not driver_path:
        if required:
            pytest.fail("Chromium and chromedriver are not installed (REVERSIS_REQUIRE_BROWSER=1)")
        pytest.skip("Chromium and chromedriver are not installed")
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.binary_location = binary
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(driver_path))
    yield driver
    driver.quit()


def _rows(driver: Any) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('table.sortable tbody tr')).map(r => r.cells[0].textContent)"
    )


def test_the_matrix_reads_sorts_and_fits_a_phone_in_chromium(fake_root: Path, chromium: Any) -> None:
    out = fake_root / "out"
    _report(fake_root, "--out", str(out))
    chromium.set_window_size(1200, 900)
    chromium.get((out / "index.html").as_uri())
    # Without a click the rows come best first: the sound one leads, the uninstallable one is last.
    assert _rows(chromium) == ["sound", "broken", "uninstallable"]
    header = chromium.execute_script(
        "return Array.from(document.querySelectorAll('thead th')).find(th => th.textContent === 'failed')"
    )
    header.find_element("tag name", "button").click()
    assert _rows(chromium)[0] == "broken"
    assert header.get_attribute("aria-sort") == "descending"
    header.find_element("tag name", "button").click()
    assert header.get_attribute("aria-sort") == "ascending" and _rows(chromium)[-1] == "broken"
    chromium.find_element("link text", "broken").click()
    failures = chromium.find_elements("css selector", "ol > li")
    assert failures and all("reversis conformance --driver" in item.text for item in failures)
    chromium.set_window_size(390, 844)
    for page in (out / "index.html", out / "implementations" / "broken.html"):
        chromium.get(page.as_uri())
        # Only the matrix's own box scrolls sideways; the page itself fits the phone.
        width = chromium.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], page.name


def test_the_reusable_workflow_runs_this_release_of_the_suite() -> None:
    # The workflow implementers call installs reversis from PyPI at its default version: this one.
    workflow = (ROOT / ".github" / "workflows" / "conformance.yml").read_text()
    default = re.search(r"reversis-version:\n(?:\s+\w[\w-]*: .*\n)*?\s+default: \"([^\"]+)\"", workflow)
    version = re.search(r'^version = "([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.MULTILINE)
    assert default is not None and version is not None
    assert default.group(1) == version.group(1)
    assert f"conformance.yml@v{version.group(1)}" in workflow
