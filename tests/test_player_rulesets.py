"""A player that cannot play a ruleset is refused when the command starts, as a usage error, before any deal.

The built-in players play every preset (or will), so the mechanism is tested with test doubles:
one that says so itself (``cannot_play``), one that refuses the ruleset only when asked to play
(as a player on the Rust core's sampler does with what the sampler does not support).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis.cli import main
from reversis.commands.tournament import cli as tournament_cli
from reversis.commands.tournament.players import PLAYER_CLASSES
from reversis.errors import InvalidInputError
from reversis.players import RuleBasedPlayer, why_cannot_play


class FourSeatsOnly(RuleBasedPlayer):
    """Says it plays only four-seat tables."""

    def cannot_play(self, ruleset: Any) -> str | None:
        return None if ruleset.players == 4 else f"it plays four seats, not {ruleset.players}"


class RefusesWhenPlaying(RuleBasedPlayer):
    """Plays a pass of any ruleset, but refuses to choose a card at a table of other than four seats."""

    def act(self, observation: Any) -> dict[str, Any]:
        if observation.phase == "play" and observation.ruleset.players != 4:
            raise InvalidInputError("invalid-ruleset", f"invalid ruleset: {observation.ruleset.players} seats")
        return super().act(observation)


@pytest.fixture
def doubles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setitem(PLAYER_CLASSES, "fouronly", (__name__, "FourSeatsOnly"))
    monkeypatch.setitem(PLAYER_CLASSES, "refuser", (__name__, "RefusesWhenPlaying"))
    return ["fouronly", "refuser"]


def test_the_question_is_answered_by_the_class_or_by_asking() -> None:
    four, three = reversis.preset("hearts-4"), reversis.preset("hearts-3")
    assert why_cannot_play(FourSeatsOnly(), four) is None
    assert why_cannot_play(FourSeatsOnly(), three) == "it plays four seats, not 3"
    assert why_cannot_play(RefusesWhenPlaying(), four) is None
    assert why_cannot_play(RefusesWhenPlaying(), three) == "invalid ruleset: 3 seats"
    assert why_cannot_play(RuleBasedPlayer(), three) is None


@pytest.mark.parametrize("player", ["fouronly", "refuser"])
def test_a_tournament_refuses_a_player_before_any_deal(
    doubles: list[str], player: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []
    monkeypatch.setattr(tournament_cli, "run_tournament", lambda *a, **k: played.append(1))
    status = main(["tournament", "--players", f"{player},rules", "--preset", "hearts-3", "--hands", "2", "--jobs", "1"])
    err = capsys.readouterr().err
    assert status == 2, err
    assert f"player '{player}' cannot play hearts-3" in err
    assert not played


def test_a_tournament_of_players_that_can_play_runs(doubles: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--players", "fouronly,refuser", "--preset", "hearts-4", "--hands", "1", "--jobs", "1"]
    status = main(["tournament", *args])
    assert status == 0, capsys.readouterr().err


class _Refusing(RuleBasedPlayer):
    def __init__(self, **options: Any) -> None:
        super().__init__()

    def cannot_play(self, ruleset: Any) -> str | None:
        return None if ruleset.players == 4 else "a test player of four seats"


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status = main(["play", "--plain", "--engine", "reference", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def refusing_montecarlo(monkeypatch: pytest.MonkeyPatch) -> None:
    import reversis.players.montecarlo

    monkeypatch.setattr(reversis.players.montecarlo, "MonteCarloPlayer", _Refusing)


def test_play_refuses_a_new_match_its_opponents_cannot_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], refusing_montecarlo: None
) -> None:
    save = tmp_path / "save.json"
    args = ["--save", str(save), "--preset", "hearts-3", "--opponents", "montecarlo"]
    status, out, err = _play(monkeypatch, capsys, *args)
    assert status == 2, err
    assert "montecarlo" in err and "hearts-3" in err and "--opponents rules" in err
    assert "seed" not in out  # nothing was dealt
    assert not save.exists()


def test_play_refuses_a_resumed_save_and_says_how_to_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], refusing_montecarlo: None
) -> None:
    save = tmp_path / "save.json"
    status, _, err = _play(monkeypatch, capsys, "--save", str(save), "--preset", "hearts-3", "--opponents", "random")
    assert status == 0, err
    (tmp_path / "save.json.settings").write_text(json.dumps({"opponents": "montecarlo", "rollouts": 4}))
    before = save.read_bytes()
    for _ in range(2):  # and every later run, until the person chooses
        status, _, err = _play(monkeypatch, capsys, "--save", str(save))
        assert status == 2, err
        assert "montecarlo" in err and "hearts-3" in err
        assert f"--save {save} --opponents rules" in err and "--new" in err
        assert save.read_bytes() == before
    status, out, err = _play(monkeypatch, capsys, "--save", str(save), "--opponents", "rules")
    assert status == 0, err
    assert "resumed" in out
