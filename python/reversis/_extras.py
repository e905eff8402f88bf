"""How to install an optional extra of the package, as the messages that need one say it.

No release is on PyPI yet, so asking pip for the package by name with an extra finds nothing;
what works is the extra from a checkout (``pip install '.[plot]'``, as the README says) or its packages by name,
which the installed package's metadata lists. One function says it for every extra, so that no
message names a form that does not work.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, requires

__all__ = ["extra_requirements", "install_hint"]

#: ``name>=1.0; extra == "plot"`` (the marker's quotes and spacing as the build backend writes them).
_EXTRA_MARKER = re.compile(r"""^\s*(?P<requirement>[^;]+?)\s*;\s*extra\s*==\s*["'](?P<extra>[^"']+)["']\s*$""")


def extra_requirements(extra: str) -> list[str]:
    """The requirements the installed package's metadata gives ``extra``, in their order.

    Empty when the package was never installed (a source tree on ``sys.path``) or has no such
    extra.
    """
    try:
        declared = requires("reversis") or []
    except PackageNotFoundError:
        return []
    found = []
    for line in declared:
        match = _EXTRA_MARKER.match(line)
        if match and match["extra"] == extra:
            found.append(match["requirement"].replace(" ", ""))
    return found


def install_hint(extra: str) -> str:
    """The commands that install ``extra``: from a checkout, and its packages by name where known.

    >>> install_hint("plot").startswith("pip install '.[plot]' in a checkout of reversis")
    True
    """
    hint = f"pip install '.[{extra}]' in a checkout of reversis"
    packages = extra_requirements(extra)
    if packages:
        hint += ", or " + " ".join(["pip install"] + [f"'{package}'" for package in packages])
    return hint
