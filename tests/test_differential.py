"""Differential test: the Rust core and the reference engine, action by action.

Random matches for every preset run on both engines side by side, seeded and dealt by hand.
Every action goes in through a randomly chosen entry point (``apply``, the convenience methods,
the integer action ids, a pass selected card by card), and now and then the last action is
taken back with ``undo`` and made again. After every step both engines must give the same
position (``state()``, whose layout API-9 fixes), view, events, last hand, legal action ids and
observations; random illegal actions and ids must be rejected by both with the same code,
changing nothing.

The CI run is small. A much larger one:

    REVERSIS_DIFF_MATCHES=100 python -m pytest tests/test_differential.py
"""

from __future__ import annotations

import os
import random
from typing import Any, Callable

import pytest

import reversis
from reversis import reference
from reversis.conformance.engines import game_view

MATCHES = int(os.environ.get("REVERSIS_DIFF_MATCHES", "1"))
PRESETS = reference.preset_names()
MOON_CHOICES = ["add-to-others", "subtract-from-taker"]


def _outcome(call: Callable[[], Any]) -> str | None:
    try:
        call()
    except reversis.ReversisError as error:
        return error.code
    return None


def _entry_points(game: Any, rng: random.Random) -> list[Callable[[Any], None]]:
    """One legal action of the acting seat, as calls that make it through each entry point."""
    ruleset = game.ruleset
    if game.phase == "deal":
        hands = reference.deal_from_seed(game.ruleset, rng.getrandbits(64))[0]
        return [lambda g: g.deal(hands), lambda g: g.apply({"type": "deal", "hands": hands})]
    if game.phase == "pass":
        seat = rng.choice(game.awaiting_pass)
        chosen = set(game.selected(seat))
        unchosen = [c for c in game.hand(seat) if c not in chosen]
        card = rng.choice(unchosen)
        cards = rng.sample(game.hand(seat), ruleset.passing["size"])
        return [
            lambda g: g.pass_cards(cards, seat),
            lambda g: g.apply({"type": "pass", "seat": seat, "cards": cards}),
            lambda g: g.apply_action(52 + reversis.card_id(card), seat),
            lambda g: g.apply_action(52 + reversis.card_id(card), seat),
        ]
    if game.phase == "moon":
        choice = rng.choice(MOON_CHOICES)
        taker = game.moon_taker
        return [
            lambda g: g.choose_moon(choice),
            lambda g: g.apply({"type": "moon", "seat": taker, "choice": choice}),
            lambda g: g.apply_action(104 + MOON_CHOICES.index(choice)),
        ]
    card = rng.choice(game.legal_plays())
    seat = game.to_move
    return [
        lambda g: g.play(card),
        lambda g: g.play(card, seat),
        lambda g: g.apply({"type": "play", "seat": seat, "card": card}),
        lambda g: g.apply_action(reversis.card_id(card)),
        lambda g: g.apply_action(reversis.card_id(card), seat),
    ]


def _probe(game: Any, rng: random.Random) -> Callable[[Any], None]:
    """A random, usually illegal, action or action id: any type, any seat, any cards of the deck."""
    deck = game.ruleset.deck
    seat = rng.randrange(game.ruleset.players + 1)  # one past the last seat now and then
    kind = rng.choice(["play", "play", "pass", "moon", "deal", "id", "id", "convenience"])
    if kind == "play":
        action = {"type": "play", "seat": seat, "card": rng.choice([*deck, "2C", "XX"])}
    elif kind == "pass":
        action = {"type": "pass", "seat": seat, "cards": rng.sample(deck, rng.choice([1, 3, 3, 4]))}
    elif kind == "moon":
        action = {"type": "moon", "seat": seat, "choice": rng.choice([*MOON_CHOICES, "keep"])}
    elif kind == "deal":
        action = {"type": "deal", "hands": [deck[i :: game.ruleset.players] for i in range(game.ruleset.players)]}
    elif kind == "id":
        action_id = rng.choice([rng.randrange(-1, 107), rng.randrange(52, 104)])
        chosen_seat = rng.choice([None, seat])
        return lambda g: g.apply_action(action_id, chosen_seat)
    else:
        card = rng.choice(deck)
        choice = rng.choice([*MOON_CHOICES, "keep"])
        return rng.choice(
            [
                lambda g: g.play(card),
                lambda g: g.pass_cards([card], seat),
                lambda g: g.choose_moon(choice),
                lambda g: g.deal(),
                lambda g: g.legal_actions(seat),
            ]
        )
    return lambda g: g.apply(action)


def _same(rust: Any, ref: Any, where: str, seats: range | list[int]) -> None:
    assert rust.state() == ref.state(), where
    assert game_view(rust) == game_view(ref), where
    assert rust.hand_scores == ref.hand_scores, where
    assert rust.legal_mask() == ref.legal_mask(), where
    for seat in seats:
        assert rust.observation(seat) == ref.observation(seat), f"{where}: observation of seat {seat}"
        assert rust.legal_actions(seat) == ref.legal_actions(seat), f"{where}: legal actions of seat {seat}"


def _play_match(name: str, seed: int | None, rng: random.Random) -> None:
    rust = reversis.Game(reversis.preset(name), seed=seed)
    ref = reference.Game(reference.preset(name), seed=seed)
    steps = 0
    while ref.phase != "over" and steps < 400:
        where = f"{name} seed {seed} step {steps}"
        everyone = not ref.trick
        _same(rust, ref, where, range(ref.ruleset.players) if everyone else [steps % ref.ruleset.players])
        roll = rng.random()
        if roll < 0.25:
            probe = _probe(ref, rng)
            before, rust_before = ref.state(), rust.state()
            outcome = _outcome(lambda: probe(ref))
            assert _outcome(lambda: probe(rust)) == outcome, where
            if outcome is not None:
                assert ref.state() == before and rust.state() == rust_before, where
            continue
        if roll < 0.3:
            outcome = _outcome(ref.undo)
            assert _outcome(rust.undo) == outcome, f"{where}: undo"
            continue
        entry = rng.choice(_entry_points(ref, rng))
        assert _outcome(lambda: entry(ref)) is None, where
        assert _outcome(lambda: entry(rust)) is None, where
        steps += 1
    _same(rust, ref, f"{name} seed {seed} at the end", range(ref.ruleset.players))
    assert rust.actions == ref.actions
    assert rust.winners == ref.winners
    record = rust.to_record()
    assert record == ref.to_record()
    assert reference.Game.from_record(record).state() == reversis.Game.from_record(record).state()


@pytest.mark.parametrize("name", PRESETS)
def test_engines_agree_action_by_action_seeded(name: str) -> None:
    for match in range(MATCHES):
        seed = 1000 * PRESETS.index(name) + match
        _play_match(name, seed, random.Random(seed))


@pytest.mark.parametrize("name", PRESETS)
def test_engines_agree_action_by_action_dealt_by_hand(name: str) -> None:
    for match in range(MATCHES):
        seed = 5000 + 1000 * PRESETS.index(name) + match
        _play_match(name, None, random.Random(seed))
