"""``reversis ladder``: every player against a reference, one table best first."""

from __future__ import annotations

import json
import math
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

import reversis
from reversis.cli import main
from reversis.commands.ladder import format_ladder, run_ladder
from reversis.commands.tournament import TournamentError, run_tournament
from test_player_protocol import RANDOM_BOT

RULESET = reversis.preset("hartenjagen")
#: Matches to 30: a few hands each.
SHORT = reversis.preset("hearts-computer").replace(target=30, name="hearts-30")


def test_the_ladder_is_best_first_with_the_reference_at_zero() -> None:
    ladder = run_ladder(["random", "rules", "lowest"], "rules", ruleset=RULESET, hands=6, seed=3)
    assert ladder.rows[0].name == "rules"
    reference = ladder.rows[0]
    assert reference.reference and reference.difference == 0.0 and math.isnan(reference.low)
    differences = [row.difference for row in ladder.rows]
    assert differences == sorted(differences)
    # Each rung is the paired difference of its own two-type tournament on the same seed.
    alone = run_tournament(["random", "rules"], ruleset=RULESET, hands=6, seed=3)
    (pair,) = alone.pairs
    row = next(row for row in ladder.rows if row.name == "random")
    assert (row.difference, row.low, row.high, row.deals) == (pair.mean_difference, pair.low, pair.high, 6)
    # Measured against random instead, rules is above its reference, below zero.
    flipped = run_ladder(["random", "rules"], "random", ruleset=RULESET, hands=6, seed=3)
    assert [row.name for row in flipped.rows] == ["rules", "random"]
    assert flipped.rows[0].difference < 0 < pair.mean_difference
    table = format_ladder(ladder)
    assert table.splitlines()[2].startswith("rules") and "reference" in table.splitlines()[2]


def test_matches_give_win_rates_against_the_reference() -> None:
    ladder = run_ladder(["random", "rules"], "rules", ruleset=SHORT, hands=4, matches=2, seed=1)
    rules, random_row = ladder.rows
    assert rules.reference and math.isnan(rules.win_rate) and rules.matches == 2
    assert random_row.matches == 2 and random_row.expected_win_rate == 0.25
    assert 0 <= random_row.win_rate < 0.25  # random wins fewer matches than its equal share
    assert "win rate" in format_ladder(ladder) and "2 matches to 30" in format_ladder(ladder)


@pytest.mark.parametrize(
    ("players", "reference", "message"),
    [
        ("random,lowest", "rules", "the reference 'rules' is not among the players"),
        ("rules,random,rules", "rules", "rules is named more than once"),
        ("rules", "rules", "at least one player besides the reference"),
    ],
)
def test_usage_errors(players: str, reference: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["ladder", "--players", players, "--reference", reference, "--hands", "1", "--jobs", "1"])
    assert status == 2
    assert message in capsys.readouterr().err
    with pytest.raises(TournamentError, match=message.split("'", maxsplit=1)[0]):
        run_ladder(players.split(","), reference, ruleset=RULESET, hands=1)


def test_a_protocol_bot_takes_a_rung(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "bot.py"
    script.write_text(textwrap.dedent(RANDOM_BOT))
    bot = f"cmd:{shlex.join([sys.executable, str(script)])}"
    report = tmp_path / "ladder.json"
    status = main(
        ["ladder", "--players", f"rules,{bot},random", "--preset", "hartenjagen", "--hands", "2", "--jobs", "1"]
        + ["--seed", "4", "--json", str(report)]
    )
    assert status == 0
    assert "random-bot" in capsys.readouterr().out
    data = json.loads(report.read_text())
    assert data["reference"] == "rules" and data["commands"] == {"random-bot": bot}
    rows = {row["name"]: row for row in data["rows"]}
    # The bot plays as the player it wraps, seeded as the table says: the same rung as random's.
    assert rows["random-bot"]["difference"] == rows["random"]["difference"]
    assert rows["random-bot"]["player"] == bot and rows["rules"]["difference"] == 0
    assert rows["rules"]["low"] is None and rows["random"]["win_rate"] is None


def test_help_says_what_to_raise(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["ladder", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "raise --hands" in text and "--matches" in text and "--reference" in text
