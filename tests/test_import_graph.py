"""The package's modules import one another without a cycle, lazy imports included.

A cycle makes the order of imports matter and hides which module owns a rule; the reference
engine, the executable form of the spec, also imports nothing of the adapters.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "reversis"


def _module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, modules: set[str], package_root: Path = PACKAGE) -> set[str]:
    """Every module of the package that ``path`` imports, at any depth of its code."""
    name = _module_name(path, package_root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            stem = node.module or ""
            root = f"{base}.{stem}".strip(".") if node.level else stem
            # ``from package import module`` needs the module, and the package only as the parent
            # every import loads first; ``from package import name`` needs the package's own code.
            targets = [f"{root}.{alias.name}" if f"{root}.{alias.name}" in modules else root for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in modules and target != name)
    return found


def _graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    paths = sorted(package.rglob("*.py"))
    # An extension module has only its stub here; it imports nothing of the package.
    stubs = package.rglob("*.pyi")
    extensions = {_module_name(path, package) for path in stubs if not path.with_suffix(".py").exists()}
    modules = {_module_name(path, package) for path in paths} | extensions
    graph: dict[str, set[str]] = {name: set() for name in extensions}
    graph.update({_module_name(path, package): _imports(path, modules, package) for path in paths})
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle() -> None:
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()) or [])


def test_the_reference_engine_imports_no_adapter() -> None:
    graph = _graph()
    for name, targets in graph.items():
        if name.startswith("reversis.reference"):
            assert not {t for t in targets if t.startswith("reversis.adapters")}, name


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_a_module_importing_names_from_its_own_package_closes_a_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .player import Player\nfrom .base import Base\n")
    (package / "base.py").write_text("class Base: ...\n")
    (package / "_ext.pyi").write_text("def f() -> None: ...\n")
    (package / "player.py").write_text("from . import _ext, base\nclass Player(base.Base): ...\n")
    assert _cycle(_graph(package)) is None
    (package / "player.py").write_text("from . import Base\nclass Player(Base): ...\n")
    assert _cycle(_graph(package)) == ["pkg", "pkg.player", "pkg"]
