"""The examples a researcher runs first: each one runs to the end and prints what it promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_vector_numpy_example() -> None:
    pytest.importorskip("numpy")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/vector_numpy.py"), "200"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "204,800 decisions" in done.stdout
    means = re.search(r"mean score per seat: \[(.*)\]", done.stdout)
    assert means, done.stdout
    # A hearts-4 hand deals out 26 points, or 78 or -26 after a moon: the means add up near 26.
    assert 20 < sum(float(x) for x in means.group(1).split(",")) < 40


@pytest.mark.parametrize(
    ("example", "needs"),
    [("vector_numpy.py", "numpy"), ("pettingzoo_loop.py", "pettingzoo"), ("openspiel_bot.py", "pyspiel")],
)
def test_examples_check_their_arguments(example: str, needs: str) -> None:
    pytest.importorskip(needs)
    script = str(ROOT / "examples" / example)
    run = {"capture_output": True, "text": True, "timeout": 120}
    helped = subprocess.run([sys.executable, script, "--help"], check=False, **run)
    assert helped.returncode == 0 and "usage:" in helped.stdout, helped.stderr
    refused = subprocess.run([sys.executable, script, "0"], check=False, **run)
    assert refused.returncode == 2, refused.stderr
    assert "Traceback" not in refused.stderr and "at least 1" in refused.stderr
