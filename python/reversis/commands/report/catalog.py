"""The list of implementations ``reversis report`` runs, and the installing of their harnesses.

The list is ``conformance/implementations.json`` (its schema: ``spec/schemas/implementations.schema.json``).
Its commands name places with placeholders, filled in here and nowhere else:

- ``{python}``: the interpreter running ``reversis report`` (reversis's own engines use it);
- ``{root}``: the checkout the list lives in;
- ``{harness}``: the implementation's harness folder, ``conformance/implementations/HARNESS``;
- ``{cache}``: the folder the harness is installed into, ``CACHE/NAME``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The fields of an entry of the list, and the JSON types each may have.
FIELDS: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "title": (str,),
    "language": (str,),
    "version": (str, type(None)),
    "homepage": (str,),
    "licence": (str,),
    "harness": (str, type(None)),
    "install": (str, type(None)),
    "creates": (str, type(None)),
    "driver": (str,),
}
OPTIONAL = frozenset({"creates"})
NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
PLACEHOLDERS = ("python", "root", "harness", "cache")
#: The file in an implementation's cache folder that says its install finished, and for what.
STAMP = ".reversis-installed.json"


class CatalogError(ValueError):
    """The list of implementations cannot be read or is not what its schema says."""


@dataclass(frozen=True)
class Implementation:
    """One entry of the list, its commands filled in for a checkout and a cache folder."""

    name: str
    title: str
    language: str
    version: str | None
    homepage: str
    licence: str
    harness: Path | None
    install: str | None
    creates: str | None
    driver: str
    cache: Path

    def about(self) -> dict[str, Any]:
        """The entry's descriptive fields, as the report writes them."""
        return {
            "name": self.name,
            "title": self.title,
            "language": self.language,
            "version": self.version,
            "homepage": self.homepage,
            "licence": self.licence,
            "harness": self.harness.name if self.harness is not None else None,
        }


def default_list() -> Path:
    """``conformance/implementations.json`` of the checkout this package runs from, else of the current folder."""
    checkout = Path(__file__).resolve().parents[4] / "conformance" / "implementations.json"
    return checkout if checkout.is_file() else Path("conformance") / "implementations.json"


def default_cache() -> Path:
    """Where harnesses are installed unless ``--cache`` says otherwise: ``$XDG_CACHE_HOME/reversis/implementations``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "reversis" / "implementations"


def load(path: Path, cache: Path) -> list[Implementation]:
    """Read the list at ``path``; every harness is to be installed under ``cache``.

    :raises CatalogError: for a file that is not there, not JSON, or not as the schema says,
        naming the entry and the field.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CatalogError(f"cannot read the list of implementations {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise CatalogError(f"{path} is not JSON: {error}") from None
    if not isinstance(data, dict) or set(data) != {"implementations"} or not isinstance(data["implementations"], list):
        raise CatalogError(f'{path}: expected an object {{"implementations": [...]}}')
    root = path.resolve().parent.parent
    found: list[Implementation] = []
    for index, entry in enumerate(data["implementations"]):
        where = f"{path}: implementations[{index}]"
        if not isinstance(entry, dict):
            raise CatalogError(f"{where} is not an object")
        missing = sorted(set(FIELDS) - OPTIONAL - set(entry))
        unknown = sorted(set(entry) - set(FIELDS))
        if missing or unknown:
            problems = [f"missing field(s) {missing}"] * bool(missing) + [f"unknown field(s) {unknown}"] * bool(unknown)
            raise CatalogError(f"{where}: {'; '.join(problems)}")
        for key, value in entry.items():
            if not isinstance(value, FIELDS[key]) or isinstance(value, bool):
                raise CatalogError(f"{where}.{key}: {json.dumps(value)} is not {_types(FIELDS[key])}")
        name = entry["name"]
        if not NAME.fullmatch(name):
            raise CatalogError(f"{where}.name: {name!r} is not lower-case words joined by '-'")
        if any(other.name == name for other in found):
            raise CatalogError(f"{where}.name: {name!r} is listed twice")
        harness = root / "conformance" / "implementations" / entry["harness"] if entry["harness"] else None
        if harness is not None and not harness.is_dir():
            raise CatalogError(f"{where}.harness: there is no folder {harness}")
        places = {
            "python": sys.executable,
            "root": str(root),
            "harness": str(harness or root),
            "cache": str(cache / name),
        }
        filled = {key: _fill(entry.get(key), places, f"{where}.{key}") for key in ("install", "creates", "driver")}
        found.append(
            Implementation(
                name=name,
                title=entry["title"],
                language=entry["language"],
                version=entry["version"],
                homepage=entry["homepage"],
                licence=entry["licence"],
                harness=harness,
                install=filled["install"],
                creates=filled["creates"],
                driver=filled["driver"] or "",
                cache=cache / name,
            )
        )
    return found


def _types(kinds: tuple[type, ...]) -> str:
    return " or ".join("null" if kind is type(None) else "a string" for kind in kinds)


def _fill(template: str | None, places: dict[str, str], where: str) -> str | None:
    """``template`` with each ``{placeholder}`` replaced by its path, quoted as a shell word."""
    if template is None:
        return None

    def replace(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in places:
            raise CatalogError(f"{where}: unknown placeholder {{{key}}} (known: {', '.join(PLACEHOLDERS)})")
        return shlex.quote(places[key])

    return re.sub(r"\{([a-z]*)\}", replace, template)


def _digest(implementation: Implementation) -> str:
    """What the install was made from: the install command and every file of the harness folder."""
    digest = hashlib.sha256((implementation.install or "").encode())
    if implementation.harness is not None:
        for file in sorted(_files(implementation.harness)):
            digest.update(str(file.relative_to(implementation.harness)).encode() + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def _files(folder: Path) -> Iterator[Path]:
    for path in folder.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and "target" not in path.relative_to(folder).parts:
            yield path


def installed(implementation: Implementation) -> bool:
    """Whether the harness is installed: what ``creates`` names exists, or else the stamp matches the checkout.

    ``creates`` is for an install that builds into the checkout (the JavaScript package's
    module), which a build outside the report may have made already; any other install is
    run again when its harness folder changes.
    """
    if implementation.install is None:
        return True
    if implementation.creates is not None:
        return Path(shlex.split(implementation.creates)[0]).exists()
    try:
        stamp = json.loads((implementation.cache / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("digest") == _digest(implementation)


def install(implementation: Implementation, log: Path) -> str | None:
    """Run the harness's install command into its cache folder; ``None``, or why it failed.

    Its output goes to ``log``. The stamp is written only after the command succeeds, so an
    install cut short is run again next time.
    """
    if implementation.install is None:
        return None
    implementation.cache.mkdir(parents=True, exist_ok=True)
    (implementation.cache / STAMP).unlink(missing_ok=True)
    cwd = implementation.harness or implementation.cache
    with open(log, "wb") as out:
        status = run_group(shlex.split(implementation.install), cwd=cwd, stdout=out)
    if status != 0:
        return f"the install command exited with status {status} (its output: {log})"
    stamp = {"digest": _digest(implementation), "install": implementation.install}
    (implementation.cache / STAMP).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    return None


#: The process groups started by :func:`run_group` that are still running: killed if the report is stopped.
RUNNING: set[subprocess.Popen[bytes]] = set()


def run_group(argv: list[str], *, cwd: Path, stdout: Any, timeout: float | None = None) -> int:
    """Run ``argv`` in a process group of its own, standard error with standard output; its exit status.

    The group is what :func:`stop_all` kills, so a stopped report leaves no install or run behind.
    """
    try:
        process = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.STDOUT, start_new_session=True
        )
    except OSError as error:
        stdout.write(f"cannot run {argv[0]}: {error.strerror or error}\n".encode())
        return 127
    RUNNING.add(process)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        stdout.write(f"stopped after {timeout:g} s\n".encode())
        return -9
    finally:
        RUNNING.discard(process)


def _kill(process: subprocess.Popen[bytes]) -> None:
    import signal

    for signum in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, signum)
        except (ProcessLookupError, PermissionError):
            return
        try:
            process.wait(timeout=2.0)
            return
        except subprocess.TimeoutExpired:
            continue


def stop_all() -> None:
    """Kill every process group still running (a report stopped by Ctrl-C or a signal)."""
    for process in list(RUNNING):
        _kill(process)
