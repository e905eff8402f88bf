"""``reversis tournament`` under any ruleset, and the modules of the tournament without an import cycle."""

from __future__ import annotations

import ast
import doctest
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis.cli import main
from reversis.commands import tournament
from reversis.commands.tournament import deal_seed, play_deal, run_tournament, seatings

HEARTS_4 = reversis.preset("hearts-4")
#: Hearts for four with a Q♠ of 5 and no moon: every hand's points sum to 13 + 5, whoever plays.
LIGHT = HEARTS_4.replace(name="hearts-4-light", target=50, moon=None, card_points={**HEARTS_4.card_points, "QS": 5})
LIGHT_POINTS = 18
PACKAGE = Path(tournament.__file__).parent


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


def _usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_ruleset_file_is_played_and_named_in_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    rules = _write(tmp_path / "light.json", LIGHT.to_json())
    report = tmp_path / "report.json"
    argv = ["tournament", "--ruleset", str(rules), "--hands", "4", "--seed", "3", "--jobs", jobs, "--json", str(report)]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("ruleset hearts-4-light, 4 deals x 14 seatings, seed 3\n")
    data = json.loads(report.read_text())
    assert data["preset"] == "hearts-4-light"
    assert reversis.Ruleset.from_json(data["ruleset"]) == LIGHT and data["ruleset"]["target"] == 50
    # The worker processes played the file's ruleset, not a preset: its points, in every hand.
    assert len(data["deals"]) == 4
    for deal in data["deals"]:
        assert all(sum(hand) == LIGHT_POINTS for hand in deal["scores"]), deal["scores"]


def test_a_ruleset_file_with_a_presets_name_is_not_called_the_preset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _write(tmp_path / "short.json", {**HEARTS_4.to_json(), "target": 50})
    report = tmp_path / "report.json"
    assert main(["tournament", "--ruleset", str(rules), "--hands", "1", "--jobs", "1", "--json", str(report)]) == 0
    assert capsys.readouterr().out.startswith("ruleset hearts-4, 1 deals")
    data = json.loads(report.read_text())
    assert data["preset"] == "hearts-4" and data["ruleset"]["target"] == 50
    # The preset itself, from a file, is the preset.
    exact = _write(tmp_path / "exact.json", HEARTS_4.to_json())
    assert main(["tournament", "--ruleset", str(exact), "--hands", "1", "--jobs", "1", "--json", str(report)]) == 0
    assert capsys.readouterr().out.startswith("preset hearts-4, 1 deals")
    assert json.loads(report.read_text())["ruleset"] == HEARTS_4.to_json()


def test_a_preset_gives_the_report_its_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    assert main(["tournament", "--preset", "hartenjagen", "--hands", "1", "--jobs", "1", "--json", str(report)]) == 0
    assert capsys.readouterr().out.startswith("preset hartenjagen, 1 deals")
    data = json.loads(report.read_text())
    assert data["preset"] == "hartenjagen" and data["ruleset"] == reversis.preset("hartenjagen").to_json()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read the ruleset"),
        (b"", "not json"),
        (b"{not json", "not json"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[]", "must be an object"),
        (json.dumps({**HEARTS_4.to_json(), "players": 1}).encode(), "field 'players'"),
        (json.dumps({**HEARTS_4.to_json(), "colour": "red"}).encode(), "field 'colour' is not a known field"),
    ],
    ids=["missing", "empty", "not-json", "not-utf8", "array", "bad-field", "unknown-field"],
)
def test_a_bad_ruleset_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    rules = tmp_path / "rules.json"
    if content is not None:
        rules.write_bytes(content)
    report = tmp_path / "report.json"
    err = _usage_error(capsys, ["tournament", "--ruleset", str(rules), "--hands", "1", "--json", str(report)])
    assert "argument --ruleset" in err and str(rules) in err and message in err
    assert not report.exists()


def test_a_ruleset_file_is_never_read_without_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(capsys, ["tournament", "--ruleset", "/dev/zero", "--hands", "1"])
    assert "larger than" in err
    assert "is a directory" in _usage_error(capsys, ["tournament", "--ruleset", str(tmp_path)]).lower()


def test_ruleset_and_preset_are_one_or_the_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = _write(tmp_path / "light.json", LIGHT.to_json())
    err = _usage_error(capsys, ["tournament", "--ruleset", str(rules), "--preset", "hearts-4", "--hands", "1"])
    assert "not allowed with" in err


def test_the_library_plays_a_ruleset_object() -> None:
    result = run_tournament(["random", "rules"], ruleset=LIGHT, hands=3, seed=1, jobs=2, chunk=1, keep_deals=True)
    assert result.preset == "hearts-4-light" and result.ruleset == LIGHT and result.custom
    assert result.to_json()["ruleset"] == LIGHT.to_json()
    assert all(sum(hand) == LIGHT_POINTS for deal in result.deals for hand in deal.scores)
    # One deal played alone is the deal the tournament played.
    alone = play_deal(LIGHT, ["random", "rules"], 1, 2)
    assert (alone.seed, alone.seatings, alone.scores) == (
        deal_seed(1, 2),
        result.deals[2].seatings,
        result.deals[2].scores,
    )
    assert alone.seatings == seatings(["random", "rules"], LIGHT.players)
    assert not run_tournament(["random", "rules"], ruleset=HEARTS_4, hands=1).custom


def test_the_package_docstring_example_runs() -> None:
    failed, tried = doctest.testmod(tournament, raise_on_error=False)
    assert tried > 0 and failed == 0


#: The modules of the tournament but its command line, which must never import the Ray backend.
CORE_MODULES = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "cli"))


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (inside functions too), as written."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names.add(base)
            names.update(f"{base}.{alias.name}" if node.module else base + alias.name for alias in node.names)
    return names


def test_no_core_module_imports_the_ray_backend_or_the_command_line() -> None:
    assert {"players", "deals", "pool", "stats", "reports", "run"} <= set(CORE_MODULES)
    for name in [*CORE_MODULES, "__init__"]:
        imported = _imported_modules(PACKAGE / f"{name}.py")
        assert not any("tournament_ray" in module or module == "ray" for module in imported), (name, imported)
        assert not any(module.rsplit(".", 1)[-1] == "cli" for module in imported), (name, imported)
    ray_backend = _imported_modules(PACKAGE.parent / "tournament_ray.py")
    assert not any(module.rsplit(".", 1)[-1] == "cli" for module in ray_backend), ray_backend


_LOADED = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(name for name in sys.modules if name.startswith(("reversis.commands", "ray")))))
"""


@pytest.mark.parametrize(
    "module", ["reversis.commands.tournament_ray", *(f"reversis.commands.tournament.{name}" for name in CORE_MODULES)]
)
def test_each_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _LOADED, module], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    assert module in loaded
    assert "reversis.commands.tournament.cli" not in loaded
    if module != "reversis.commands.tournament_ray":
        assert "reversis.commands.tournament_ray" not in loaded and "ray" not in loaded


def test_the_command_without_ray_never_imports_the_ray_backend(tmp_path: Path) -> None:
    script = (
        "import sys\nfrom reversis.cli import main\n"
        "status = main(['tournament', '--hands', '1', '--jobs', '1', '--preset', 'hartenjagen'])\n"
        "assert 'reversis.commands.tournament_ray' not in sys.modules and 'ray' not in sys.modules\n"
        "sys.exit(status)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("preset hartenjagen, 1 deals")
