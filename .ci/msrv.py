"""Hold the locked dependencies to the workspace's rust-version (Cargo.toml).

Reads `cargo metadata --locked --format-version 1` on stdin; fails naming every locked package
that declares a newer rust-version than the oldest one of the workspace's members.
"""

import json
import sys


def key(text: str) -> tuple[int, ...]:
    """A version such as ``1.74`` as a comparable (1, 74, 0)."""
    return tuple(int(part) for part in [*text.split("."), "0", "0"][:3])


meta = json.load(sys.stdin)
members = set(meta["workspace_members"])
floor = min(key(p["rust_version"]) for p in meta["packages"] if p["id"] in members)
late = [
    "{} {} needs Rust {}".format(p["name"], p["version"], p["rust_version"])
    for p in meta["packages"]
    if p.get("rust_version") and key(p["rust_version"]) > floor
]
if late:
    sys.exit("\n".join(late))
floor_text = ".".join(map(str, floor))
print(f"rust-version {floor_text}: none of the {len(meta['packages'])} locked packages needs a newer Rust")
