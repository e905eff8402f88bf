"""Seeded, saved matches (001 ¶12): saves resume exactly, in either engine, as JSON or MessagePack."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import reversis
import reversis.reference
from reversis.players import RandomPlayer, act_for
from reversis.table import default_save_path, load_game, new_seed, record_format, save_game, start_match

ENGINES = {"rust": reversis, "reference": reversis.reference}
FORMATS = ["json", "msgpack"]
SUFFIX = {"json": "save.json", "msgpack": "save.msgpack"}


def _advance(game: Any, steps: int, seed: int = 5) -> None:
    players = [RandomPlayer(seed + seat) for seat in range(game.ruleset.players)]
    for _ in range(steps):
        act_for(game, players)


def _mid_pass(engine: ModuleType) -> Any:
    game = start_match(engine.preset("hearts-computer"), seed=11, engine=engine)
    _advance(game, 2)
    assert game.phase == "pass" and len(game.awaiting_pass) == 2
    return game


def _mid_trick(engine: ModuleType, preset: str = "hearts-computer") -> Any:
    game = start_match(engine.preset(preset), seed=12, engine=engine)
    players = [RandomPlayer(seat) for seat in range(game.ruleset.players)]
    while not (game.phase == "play" and len(game.tricks_played) == 3 and len(game.trick) == 2):
        act_for(game, players)
    return game


def _views(game: Any) -> list[dict[str, Any]]:
    return [game.observation(seat) for seat in range(game.ruleset.players)]


def _continue(game: Any, steps: int = 40) -> list[dict[str, Any]]:
    """Play on with seeded random players, returning every action taken."""
    players = [RandomPlayer(100 + seat) for seat in range(game.ruleset.players)]
    actions = []
    for _ in range(steps):
        if game.phase == "over":
            break
        actions.append(act_for(game, players))
    return actions


@pytest.mark.parametrize("where", ["pass", "trick"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_save_resume_round_trip(engine: ModuleType, tmp_path: Path, where: str, fmt: str) -> None:
    game = _mid_pass(engine) if where == "pass" else _mid_trick(engine)
    path = tmp_path / SUFFIX[fmt]
    save_game(game, path, engine=engine)
    resumed = load_game(path, engine=engine)
    assert resumed.state() == game.state()
    assert resumed.seed == game.seed
    assert _continue(resumed) == _continue(game)
    assert resumed.state() == game.state()


@pytest.mark.parametrize("fmt", FORMATS)
def test_format_follows_suffix(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / SUFFIX[fmt]
    save_game(_mid_trick(reversis), path)
    first = path.read_bytes()[:1]
    assert (first == b"{") == (fmt == "json")
    assert record_format(path) == fmt


def test_explicit_format_overrides_suffix(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    save_game(_mid_trick(reversis), path, "msgpack")
    assert path.read_bytes()[:1] != b"{"
    assert load_game(path).phase == "play"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("where", ["pass", "trick"])
@pytest.mark.parametrize(("source", "target"), [("rust", "reference"), ("reference", "rust")])
def test_cross_engine_resume(tmp_path: Path, source: str, target: str, where: str, fmt: str) -> None:
    origin = ENGINES[source]
    game = _mid_pass(origin) if where == "pass" else _mid_trick(origin)
    path = tmp_path / SUFFIX[fmt]
    save_game(game, path, engine=origin)
    resumed = load_game(path, engine=ENGINES[target])
    assert resumed.ruleset.to_json() == game.ruleset.to_json()
    assert _views(resumed) == _views(game)
    assert resumed.to_record() == game.to_record()
    # Play on identically in both: same actions, same views, across a hand boundary.
    assert _continue(resumed, 120) == _continue(game, 120)
    assert _views(resumed) == _views(game)
    assert resumed.to_record() == game.to_record()


def test_cross_engine_moon_choice_preset(tmp_path: Path) -> None:
    game = _mid_trick(reversis, "hearts-4")
    path = tmp_path / "save.msgpack"
    save_game(game, path)
    resumed = load_game(path, engine=reversis.reference)
    assert _continue(resumed, 300) == _continue(game, 300)
    assert _views(resumed) == _views(game)


def test_same_seed_deals_same_hands_in_both_engines() -> None:
    for preset in ("hearts-computer", "hartenjagen", "hearts-5"):
        rust = start_match(reversis.preset(preset), seed=2024)
        ref = start_match(reversis.reference.preset(preset), seed=2024, engine=reversis.reference)
        again = start_match(reversis.preset(preset), seed=2024)
        players = range(rust.ruleset.players)
        assert [rust.hand(s) for s in players] == [ref.hand(s) for s in players] == [again.hand(s) for s in players]


def test_new_match_draws_fresh_seed() -> None:
    seeds = {start_match(reversis.preset("hearts-computer")).seed for _ in range(5)}
    assert len(seeds) == 5
    assert all(0 <= seed < 2**64 for seed in seeds)
    assert 0 <= new_seed() < 2**64


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deep" / "dir" / "save.json"
    game = _mid_trick(reversis)
    # A directory is the person's to make: a save into a missing one fails and makes none.
    with pytest.raises(FileNotFoundError):
        save_game(game, path)
    assert not (tmp_path / "deep").exists()
    path.parent.mkdir(parents=True)
    save_game(game, path)
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    _continue(game, 3)
    with pytest.raises(OSError, match="disk full"):
        save_game(game, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["save.json"]


def test_corrupt_save_is_invalid_record(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    path.write_bytes(b'{"format": "reversis-record"')
    with pytest.raises(reversis.InvalidInputError) as caught:
        load_game(path)
    assert caught.value.code == "invalid-record"


def test_default_save_path_honours_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_save_path() == tmp_path / "reversis" / "save.json"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_save_path() == tmp_path / ".local" / "share" / "reversis" / "save.json"
