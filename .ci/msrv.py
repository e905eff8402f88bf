"""Hold the locked dependencies of the native crates to the workspace's rust-version (Cargo.toml).

Reads `cargo metadata --locked --format-version 1` on stdin; fails naming every locked package
that a native crate (a member with the workspace's rust-version, the oldest of the members')
depends on, directly or not, and that declares a newer rust-version. A member that declares a
newer one of its own (the WebAssembly binding, built by another toolchain) is held to that.
"""

import json
import sys


def key(text: str) -> tuple[int, ...]:
    """A version such as ``1.74`` as a comparable (1, 74, 0)."""
    return tuple(int(part) for part in [*text.split("."), "0", "0"][:3])


meta = json.load(sys.stdin)
packages = {p["id"]: p for p in meta["packages"]}
members = set(meta["workspace_members"])
edges = {node["id"]: [dep["pkg"] for dep in node["deps"]] for node in meta["resolve"]["nodes"]}


def closure(root: str) -> set[str]:
    """The package ``root`` and every package it depends on."""
    seen, todo = set(), [root]
    while todo:
        package = todo.pop()
        if package not in seen:
            seen.add(package)
            todo.extend(edges.get(package, []))
    return seen


late = []
for member in sorted(members):
    floor = key(packages[member]["rust_version"])
    for package in sorted(closure(member)):
        p = packages[package]
        if p.get("rust_version") and key(p["rust_version"]) > floor:
            late.append(f"{p['name']} {p['version']} needs Rust {p['rust_version']} (under {packages[member]['name']})")
if late:
    sys.exit("\n".join(sorted(set(late))))
floors = sorted({packages[m]["rust_version"] for m in members}, key=key)
print(f"rust-version {', '.join(floors)}: no locked package needs a newer Rust than the member it serves")
