"""Packaging: one version everywhere, the files a release needs, and (marked ``packaging``) the
sdist and the portable wheels installed into fresh environments, away from the checkout.

The default run checks the checkout and the installed package in seconds. ``.ci/run`` builds the
wheels with ``.ci/wheels`` and runs ``pytest -m packaging`` with ``REVERSIS_WHEELS`` naming their
folder; those tests take minutes (the sdist compiles the Rust core from scratch).
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.metadata import metadata, version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTHONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]
REQUIRED_PYTHONS = {"3.9", "3.10", "3.13"}  # one for each version-specific wheel, and the newest for abi3
# The extension (search player, vector environment), the suite (20 presets, two recorded matches each) and the
# learned network (2.0 MB in binary16: the 1435-512-256-106 policy, its value beside): 3.62 MB for the cp311 wheel.
MAX_WHEEL_BYTES = 4_000_000


def cargo_version() -> str:
    """The one version: ``[workspace.package] version`` of the top Cargo.toml."""
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    section = text.split("[workspace.package]", 1)[1].split("\n[", 1)[0]
    found = re.search(r'^version\s*=\s*"([^"]+)"', section, re.MULTILINE)
    assert found, "no version in [workspace.package]"
    return found.group(1)


def run(*args: str | Path, cwd: Path | None = None, timeout: float = 900) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{args} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


# -- one version -----------------------------------------------------------------------------


def test_one_version_everywhere() -> None:
    import reversis
    import reversis.reference
    from reversis.conformance.engines import ModuleEngine

    expected = cargo_version()
    assert version("reversis") == expected
    assert reversis.__version__ == expected
    assert reversis.reference.__version__ == expected
    assert run(sys.executable, "-m", "reversis", "--version").strip() == f"reversis {expected}"
    for module, name in ((reversis, "rust"), (reversis.reference, "reference")):
        assert ModuleEngine(module, name).call("hello")["version"] == expected


def test_hello_through_the_driver_names_the_version() -> None:
    request = json.dumps({"id": 1, "cmd": "hello"}) + "\n" + json.dumps({"id": 2, "cmd": "quit"}) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "reversis", "driver", "--engine", "rust"],
        input=request,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["version"] == cargo_version()


def test_crates_and_lock_take_the_workspace_version() -> None:
    expected = cargo_version()
    lock = (ROOT / "Cargo.lock").read_text(encoding="utf-8")
    for manifest in sorted((ROOT / "rust").glob("*/Cargo.toml")):
        text = manifest.read_text(encoding="utf-8")
        assert "version.workspace = true" in text, manifest
        name = re.search(r'^name\s*=\s*"([^"]+)"', text, re.MULTILINE)
        assert name
        assert f'name = "{name.group(1)}"\nversion = "{expected}"' in lock, name.group(1)


def test_the_javascript_package_takes_the_workspace_version() -> None:
    package = json.loads((ROOT / "js" / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == cargo_version()


def test_changelog_starts_with_this_release() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+)", text, re.MULTILINE)
    assert first and first.group(1) == cargo_version()


# -- metadata and files ----------------------------------------------------------------------


def test_license_and_metadata() -> None:
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License")
    assert "Copyright (c)" in license_text and "the reversis authors" in license_text
    assert "license.workspace = true" in (ROOT / "rust/reversis-core/Cargo.toml").read_text(encoding="utf-8")
    assert 'license = "MIT"' in (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    meta = metadata("reversis")
    assert meta["License"] == "MIT"
    classifiers = meta.get_all("Classifier") or []
    assert "License :: OSI Approved :: MIT License" in classifiers
    for minor in PYTHONS:
        assert f"Programming Language :: Python :: {minor}" in classifiers
    assert meta["Keywords"]
    # The only address the project has is Cargo.toml's repository field; the metadata uses it.
    repository = re.search(r'^repository\s*=\s*"([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.MULTILINE)
    assert repository
    assert f"Repository, {repository.group(1)}" in (meta.get_all("Project-URL") or [])


def test_presets_inside_the_crate_are_the_spec_files() -> None:
    spec = sorted((ROOT / "spec/rulesets").glob("*.json"))
    crate = sorted((ROOT / "rust/reversis-core/rulesets").glob("*.json"))
    assert [p.name for p in spec] == [p.name for p in crate] and spec
    for a, b in zip(spec, crate):
        assert a.read_bytes() == b.read_bytes()
    # The crate keeps no list of its own: build.rs lists rulesets/ and ruleset.rs includes what it
    # generates (the Rust tests check that preset_names() is that listing).
    source = (ROOT / "rust/reversis-core/src/ruleset.rs").read_text(encoding="utf-8")
    assert re.findall(r"include_str!", source) == []
    assert 'include!(concat!(env!("OUT_DIR"), "/presets.rs"));' in source
    build = (ROOT / "rust/reversis-core/build.rs").read_text(encoding="utf-8")
    assert 'join("rulesets")' in build and "include_str!" in build
    assert "/build.rs" in (ROOT / "rust/reversis-core/Cargo.toml").read_text(encoding="utf-8")


def test_core_readme_example_is_the_doctested_crate_root_example() -> None:
    readme = (ROOT / "rust/reversis-core/README.md").read_text(encoding="utf-8")
    block = re.search(r"```rust\n(.*?)```", readme, re.DOTALL)
    assert block
    lib = (ROOT / "rust/reversis-core/src/lib.rs").read_text(encoding="utf-8")
    doc = "\n".join(line[4:] if len(line) > 3 else "" for line in lib.splitlines() if line.startswith("//!"))
    example = re.search(r"```\n(.*?)```", doc, re.DOTALL)
    assert example
    assert block.group(1) == example.group(1)


def test_release_workflow_builds_what_ci_builds() -> None:
    workflow = (ROOT / ".github/workflows/release.yml").read_text(encoding="utf-8")
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    tools = (ROOT / ".ci/tools.txt").read_text(encoding="utf-8")
    # Every wheel build takes its arguments from .ci/wheels, which .ci/run builds with.
    builds = re.findall(r"args: (.*)", workflow)
    flavors = tuple(f"${{{{ steps.args.outputs.{flavor} }}}} --out dist" for flavor in ("abi3", "cp39", "cp310"))
    assert [builds.count(flavor) for flavor in flavors] == [3, 3, 3]  # linux, macos, windows
    assert set(builds) == {*flavors, "--out dist"}  # and the sdist
    asked = set(re.findall(r'\.ci/wheels args "?\$?(\w+)"? (\w+)', workflow))
    assert asked == {(kind, flavor) for kind in ("KIND", "macos", "windows") for flavor in ("abi3", "cp39", "cp310")}
    assert {"manylinux", "musllinux"} <= set(re.findall(r"kind: (\w+)", workflow))
    assert ".ci/wheels build manylinux" in ci and "-m packaging" in ci
    for target in (
        "x86_64-unknown-linux-gnu",
        "aarch64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-pc-windows-msvc",
    ):
        assert f"target: {target}" in workflow
    assert "macos-15-intel" in workflow and "macos-14" in workflow
    assert "command: sdist" in workflow and "id-token: write" in workflow
    assert "pypa/gh-action-pypi-publish" in workflow
    pinned = re.search(r"^maturin==(\S+)", tools, re.MULTILINE)
    assert pinned and f'MATURIN_VERSION: "{pinned.group(1)}"' in workflow


# -- the built artifacts, in fresh environments (.ci/run: pytest -m packaging) ---------------


def find_python(minor: str) -> str | None:
    """A working ``python3.X``: on PATH, else a pyenv installation of it (pyenv's shim on PATH
    fails unless that version is selected, so each candidate must run)."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = [
        shutil.which(f"python{minor}"),
        *sorted(glob.glob(f"{root}/versions/{minor}.*/bin/python{minor}"))[::-1],
    ]
    for candidate in candidates:
        if (
            candidate
            and subprocess.run([candidate, "-c", "import sys"], capture_output=True, check=False).returncode == 0
        ):
            return candidate
    return None


def fresh_venv(python: str, where: Path) -> Path:
    run(python, "-m", "venv", where)
    run(where / "bin/python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    return where / "bin"


def check_installed(bin_dir: Path, cwd: Path) -> None:
    """``reversis --version`` and the whole conformance suite on both engines, away from any checkout."""
    expected = cargo_version()
    assert run(bin_dir / "reversis", "--version", cwd=cwd).strip() == f"reversis {expected}"
    where = run(
        bin_dir / "python",
        "-c",
        "import reversis, reversis._core as c; print(reversis.__version__, c.__file__)",
        cwd=cwd,
    )
    got_version, core_file = where.split()
    # The VectorEnv's buffers need the buffer protocol, which each wheel's ABI must provide.
    shapes = run(
        bin_dir / "python",
        "-c",
        "import reversis; e = reversis.VectorEnv(reversis.preset('hearts-4'), 3, 1);"
        " print(e.observation.shape, e.legal_action_mask.format, e.rewards.format)",
        cwd=cwd,
    )
    assert shapes.split() == ["(3,", "1435)", "?", "f"], shapes
    assert got_version == expected
    assert Path(core_file).resolve().is_relative_to(bin_dir.parent.resolve())  # not a checkout's
    out = run(bin_dir / "reversis", "conformance", cwd=cwd)
    assert re.search(r"^\d+ passed, 0 failed, 0 skipped$", out, re.MULTILINE), out[-2000:]


def wheels() -> list[Path]:
    folder = os.environ.get("REVERSIS_WHEELS")
    if not folder:
        pytest.skip("REVERSIS_WHEELS names no folder of built wheels (.ci/run sets it)")
    found = sorted(Path(folder).glob("reversis-*.whl"))
    assert found, f"no wheels in {folder}"
    return found


def wheel_for(minor: str) -> Path:
    tag = {"3.9": "-cp39-cp39-", "3.10": "-cp310-cp310-"}.get(minor, "-cp311-abi3-")
    matching = [w for w in wheels() if tag in w.name]
    assert len(matching) == 1, [w.name for w in wheels()]
    return matching[0]


@pytest.mark.packaging
def test_wheels_are_portable_and_small() -> None:
    built = wheels()
    assert sorted(w.name.split("-")[2] for w in built) == ["cp310", "cp311", "cp39"]
    auditwheel = shutil.which("auditwheel")
    assert auditwheel, "auditwheel is not on PATH"
    expected = cargo_version()
    for wheel in built:
        assert wheel.stat().st_size < MAX_WHEEL_BYTES, (wheel.name, wheel.stat().st_size)
        assert wheel.name.startswith(f"reversis-{expected}-")
        assert "manylinux2014_x86_64" in wheel.name
        report = run(auditwheel, "show", wheel)
        assert '"manylinux_2_17_x86_64"' in " ".join(report.split()), report
        names = zipfile.ZipFile(wheel).namelist()
        for needed in (
            "reversis/py.typed",
            "reversis/rulesets/hearts-4.json",
            "reversis/conformance/suite/cases/cards.json",
        ):
            assert needed in names, needed
        assert any(n.endswith("LICENSE") for n in names)


@pytest.mark.packaging
@pytest.mark.parametrize("minor", PYTHONS)
def test_wheel_runs_the_suite_on(minor: str, tmp_path: Path) -> None:
    python = find_python(minor)
    if python is None:
        if minor in REQUIRED_PYTHONS:
            pytest.fail(f"CPython {minor} is required and not installed")
        pytest.skip(f"CPython {minor} is not installed")
    wheel = wheel_for(minor)  # the same abi3 wheel for every 3.11+
    bin_dir = fresh_venv(python, tmp_path / "venv")
    run(bin_dir / "python", "-m", "pip", "install", "--quiet", wheel)
    check_installed(bin_dir, tmp_path)


@pytest.mark.packaging
def test_sdist_builds_and_runs_alone(tmp_path: Path) -> None:
    if shutil.which("maturin") is None:
        pytest.fail("maturin is not on PATH (pip install -r .ci/tools.txt)")
    out = tmp_path / "sdist"
    run("bash", ROOT / ".ci/wheels", "sdist", out)
    (sdist,) = out.glob("reversis-*.tar.gz")
    assert sdist.name == f"reversis-{cargo_version()}.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in (
        "LICENSE",
        "CHANGELOG.md",
        "rust/reversis-core/rulesets/hearts-4.json",
        "python/reversis/rulesets/hearts-4.json",
        "python/reversis/conformance/suite/cases/cards.json",
    ):
        assert needed in names, needed
    # Installed from a folder with nothing of the checkout beside it.
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(sdist, alone)
    bin_dir = fresh_venv(sys.executable, tmp_path / "venv")
    run(bin_dir / "python", "-m", "pip", "install", "--quiet", alone / sdist.name, cwd=alone)
    check_installed(bin_dir, alone)
