"""Differential test: the Rust core and the reference engine, action by action.

Seeded random matches for every preset run on both engines side by side. After every action
both must show the same view (legal set, trick, tricks and their winners, points, totals) and the
same observation for every seat; random illegal actions must be rejected by both with the same
error code, changing nothing.

The CI run is small. A much larger one:

    REVERSIS_DIFF_MATCHES=100 python -m pytest tests/test_differential.py
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

import reversis
from reversis import reference
from reversis.conformance.engines import game_view

MATCHES = int(os.environ.get("REVERSIS_DIFF_MATCHES", "1"))
PRESETS = reference.preset_names()


def _outcome(game: Any, action: dict[str, Any]) -> str | None:
    try:
        game.apply(action)
    except reversis.ReversisError as error:
        return error.code
    return None


def _random_action(game: Any, rng: random.Random) -> dict[str, Any]:
    """A legal action of the seat that must act."""
    ruleset = game.ruleset
    if game.phase == "pass":
        seat = rng.choice(game.awaiting_pass)
        return {"type": "pass", "seat": seat, "cards": rng.sample(game.hand(seat), ruleset.passing["size"])}
    if game.phase == "moon":
        return {"type": "moon", "seat": game.moon_taker, "choice": rng.choice(["add-to-others", "subtract-from-taker"])}
    return {"type": "play", "seat": game.to_move, "card": rng.choice(game.legal_plays())}


def _probe(game: Any, rng: random.Random) -> dict[str, Any]:
    """A random, usually illegal, action: any type, any seat, any cards of the deck."""
    deck = game.ruleset.deck
    seat = rng.randrange(game.ruleset.players + 1)  # one past the last seat now and then
    kind = rng.choice(["play", "play", "pass", "moon", "deal"])
    if kind == "play":
        return {"type": "play", "seat": seat, "card": rng.choice([*deck, "2C", "XX"])}
    if kind == "pass":
        return {"type": "pass", "seat": seat, "cards": rng.sample(deck, rng.choice([1, 3, 3, 4]))}
    if kind == "moon":
        return {"type": "moon", "seat": seat, "choice": rng.choice(["add-to-others", "subtract-from-taker", "keep"])}
    return {"type": "deal", "hands": [deck[i :: game.ruleset.players] for i in range(game.ruleset.players)]}


def _same(rust: Any, ref: Any, where: str, seats: range | list[int]) -> None:
    assert game_view(rust) == game_view(ref), where
    for seat in seats:
        assert rust.observation(seat) == ref.observation(seat), f"{where}: observation of seat {seat}"


@pytest.mark.parametrize("name", PRESETS)
def test_engines_agree_action_by_action(name: str) -> None:
    for match in range(MATCHES):
        seed = 1000 * PRESETS.index(name) + match
        rng = random.Random(seed)
        rust = reversis.Game(reversis.preset(name), seed=seed)
        ref = reference.Game(reference.preset(name), seed=seed)
        steps = 0
        while ref.phase != "over":
            where = f"{name} seed {seed} step {steps}"
            # Every seat's observation once a trick, one seat's in between, to keep the run short.
            everyone = not ref.trick
            _same(rust, ref, where, range(ref.ruleset.players) if everyone else [steps % ref.ruleset.players])
            if rng.random() < 0.3:
                probe = _probe(ref, rng)
                before = ref.state()
                rust_before = rust.state()
                outcome = _outcome(ref, probe)
                assert _outcome(rust, probe) == outcome, f"{where}: {probe}"
                if outcome is not None:
                    assert ref.state() == before and rust.state() == rust_before, f"{where}: {probe}"
                continue
            action = _random_action(ref, rng)
            assert _outcome(ref, action) is None
            assert _outcome(rust, action) is None, f"{where}: {action}"
            steps += 1
        _same(rust, ref, f"{name} seed {seed} at the end", range(ref.ruleset.players))
        assert rust.actions == ref.actions
        assert rust.winners == ref.winners
        record = rust.to_record()
        assert record == ref.to_record()
        assert game_view(reference.Game.from_record(record)) == game_view(reversis.Game.from_record(record))
