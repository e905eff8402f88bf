"""Helpers for the rules tests.

Everything here is written from the documents and ``spec/``, never from an engine: an
independent card model (CARD-1, CARD-2), deal builders (DEAL-1), an independent trick and
score tracker (PLAY-7, SCORE-1 … SCORE-4), and an independent implementation of the seeded
deal (SEED-1 … SEED-5). Functions that touch a game take the engine module of the ``engine``
fixture or a game built from it, and use only the API of ``spec/api.md``. The one exception is
:func:`require_learn`, which says how the tests of the ``learn`` extra skip.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import random
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import pytest

SPEC = Path(__file__).resolve().parent.parent / "spec"

RANKS = "23456789TJQKA"  # CARD-1, low to high
SUITS = "CDHS"  # CARD-2 suit order


def spec_error_codes() -> dict[str, str]:
    """Every code of spec/errors.md, in the order of its tables, mapped to ``"ERR-2"`` (input)
    or ``"ERR-3"`` (illegal action): read from the spec, never from an engine."""
    codes: dict[str, str] = {}
    table = None
    for line in (SPEC / "errors.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("**ERR-"):
            table = line[2:7]
        elif table in ("ERR-2", "ERR-3") and line.startswith("| `"):
            codes[line.split("`")[1]] = table
    return codes


INPUT_CODES = {code for code, table in spec_error_codes().items() if table == "ERR-2"}

LEFT_RIGHT_ACROSS_HOLD = ["left", "right", "across", "hold"]
DIRECTION_OFFSET = {"left": 1, "right": -1, "across": 2}  # SEAT-1, D-3

MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------- cards


def cid(card: str) -> int:
    """CARD-2: suit_index * 13 + rank_index, for a canonical card string."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=cid)


def full_deck() -> list[str]:
    """The 52 canonical cards in sorted order (CARD-2)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def hearts(lowest: str = "2") -> list[str]:
    return [rank + "H" for rank in RANKS[RANKS.index(lowest) :]]


def spec_preset(name: str) -> dict[str, Any]:
    """The preset file ``spec/rulesets/<name>.json``."""
    return json.loads((SPEC / "rulesets" / f"{name}.json").read_text(encoding="utf-8"))


def spec_preset_names() -> list[str]:
    return sorted(p.stem for p in (SPEC / "rulesets").glob("*.json"))


def deck_from_json(data: dict[str, Any]) -> list[str]:
    """RS-4, RS-21: ``packs`` copies (default 1) of every card of rank at least ``lowest_rank``,
    less one copy for each entry of ``removed``, sorted with copies adjacent (CARD-2)."""
    lowest = RANKS.index(data["deck"]["lowest_rank"])
    packs = data["deck"].get("packs", 1)
    removed = list(data["deck"]["removed"])
    deck = []
    for card in full_deck():
        if RANKS.index(card[0]) >= lowest:
            deck += [card] * (packs - removed.count(card))
    return deck


# --------------------------------------------------------------------------- fixed deals
# Partial deals for ``build_deal``; the cards not named are filled in sorted order.

# Hearts-4 hand 3 (hold): play starts at once. Trick 1 is 2C 3C 4C 5C (seat 3 wins), then
# seat 3 leads 2S and seat 1 must drop its only spade, QS, under seat 0's AS.
#   seat 0: 2C AS 2H 6C 7C 8C 9C TC JC QC KC AC 2D
#   seat 1: 3C QS 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
#   seat 2: 4C 3S AD 4H 5H 6H 7H 8H 9H TH JH QH KH
#   seat 3: 5C 2S 3H AH 4S 5S 6S 7S 8S 9S TS JS KS
BREAKING = {0: ["2C", "AS", "2H"], 1: ["3C", "QS"], 2: ["4C", "3S"], 3: ["5C", "2S", "3H"]}

# 000_8342d744d0b6b53c.txt §06 with A, B, C, D = seats 0, 1, 2, 3.
SECTION_06 = {
    0: ["7C", "KC", "AD", "AH", "7H", "8H", "9H", "7S"],
    1: ["9C", "TC", "JC", "9D", "TH", "JH", "QH", "KH"],
    2: ["7D", "TD", "JD", "KD", "QS", "8S", "9S", "TS"],
    3: ["8C", "QC", "AC", "8D", "QD", "JS", "KS", "AS"],
}

# Seat 0 captures all 8 hearts, Q♠ and J♣ but loses the first trick to seat 1.
PIT = {
    0: ["7C", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    1: ["7H", "AC", "TC", "QC", "KC", "7D", "8D", "9D"],
    2: ["9C", "QS", "TD", "JD", "QD", "KD", "AD", "7S"],
    3: ["8C", "JC", "8S", "9S", "TS", "JS", "KS", "AS"],
}

# Seat 0 shoots the moon: it loses trick 1 (seat 3 takes it, with JD discarded by seat 2),
# wins trick 2 with AD, then leads hearts, holding nothing else, and takes every heart and Q♠.
MOON = {0: ["3C", "AD"] + [r + "H" for r in "456789TJQKA"], 1: ["2C", "2H"], 2: ["3H", "JD"], 3: ["KC", "QS", "2D"]}


# --------------------------------------------------------------------------- rulesets


def ruleset(engine, name: str, **changes: Any):
    """A preset, or a custom ruleset made from a preset's JSON with some fields replaced."""
    if not changes:
        return engine.preset(name)
    data = copy.deepcopy(spec_preset(name))
    data["name"] = f"{name}-custom"
    data.update(changes)
    return engine.Ruleset.from_json(data)


def as_ruleset(engine, rs):
    return engine.preset(rs) if isinstance(rs, str) else rs


# --------------------------------------------------------------------------- deals


def build_deal(data: dict[str, Any], fixed: dict[int, list[str]] | None = None) -> list[list[str]]:
    """A whole deal (DEAL-1): the seats in ``fixed`` get those cards first; every seat is then
    filled, seat 0 first, with the remaining cards of the deck in sorted order (with two packs,
    the copies not fixed)."""
    fixed = fixed or {}
    deck = deck_from_json(data)
    players = data["players"]
    size = len(deck) // players
    named = [c for cards in fixed.values() for c in cards]
    rest = list(deck)  # a multiset with two packs (RS-21): a fixed card takes one copy
    for card in named:
        assert card in rest, "helper misuse: a fixed card is not in the deck (or fixed too often)"
        rest.remove(card)
    hands = []
    for seat in range(players):
        hand = list(fixed.get(seat, []))
        need = size - len(hand)
        assert need >= 0, "helper misuse: too many fixed cards for one seat"
        hand += rest[:need]
        rest = rest[need:]
        hands.append(hand)
    assert not rest
    return hands


def start(
    engine, rs, fixed: dict[int, list[str]] | None = None, *, hand_number: int = 0, scores: list[int] | None = None
):
    """An unseeded game dealt by hand with ``build_deal``."""
    rs = as_ruleset(engine, rs)
    game = engine.Game(rs, hand_number=hand_number, scores=scores)
    assert game.phase == "deal"
    game.deal(build_deal(rs.to_json(), fixed))
    return game


# --------------------------------------------------------------------------- errors


def snapshot(game) -> dict[str, Any]:
    players = game.ruleset.players
    return copy.deepcopy(
        {
            "state": game.state(),
            "hands": [game.hand(s) for s in range(players)],
            "phase": game.phase,
            "to_move": game.to_move,
            "awaiting_pass": list(game.awaiting_pass),
            "trick": [(x["seat"], x["card"]) for x in game.trick],
            "points": list(game.points),
            "scores": list(game.scores),
            "hand_scores": [list(x) for x in game.hand_scores],
            "hearts_broken": game.hearts_broken,
            "legal": game.legal_plays(),
            "actions": list(game.actions),
        }
    )


def check_error(engine, err: BaseException, code: str) -> None:
    """ERR-5: a ReversisError (a ValueError) with ``.code``; input or illegal-action class."""
    assert isinstance(err, ValueError)
    assert isinstance(err, engine.ReversisError)
    assert err.code == code, f"expected {code!r}, got {err.code!r}: {err}"
    if code in INPUT_CODES:
        assert isinstance(err, engine.InvalidInputError)
        assert not isinstance(err, engine.IllegalActionError)
    else:
        assert isinstance(err, engine.IllegalActionError)
        assert not isinstance(err, engine.InvalidInputError)


def expect_error(engine, fn: Callable[[], Any], code: str) -> BaseException:
    with pytest.raises(engine.ReversisError) as info:
        fn()
    check_error(engine, info.value, code)
    return info.value


def rejected(engine, game, fn: Callable[[], Any], code: str) -> BaseException:
    """ERR-1: ``fn`` raises ``code`` and the game is exactly as it was before."""
    before = snapshot(game)
    err = expect_error(engine, fn, code)
    assert snapshot(game) == before, "a rejected action changed the game (ERR-1)"
    return err


# --------------------------------------------------------------------------- play and scoring


def completed_tricks(game) -> int:
    """API-3 ``tricks_played`` ("completed tricks this hand"): read as a count, or as the list of
    completed tricks, which the wording also allows."""
    value = game.tricks_played
    return value if isinstance(value, int) else len(value)


def trick_winner(trick: list[tuple[int, str]]) -> int:
    """PLAY-7: the highest card of the suit led wins."""
    led = trick[0][1][1]
    return max((sc for sc in trick if sc[1][1] == led), key=lambda sc: RANKS.index(sc[1][0]))[0]


def values(data: dict[str, Any]) -> dict[str, int]:
    return dict(data["card_points"])


def expected_hand_scores(
    data: dict[str, Any], captured: list[list[str]], choice: str | None = None
) -> tuple[list[int], int | None]:
    """SCORE-1 … SCORE-3 computed independently from the captured cards of each seat."""
    vals = values(data)
    players = data["players"]
    pos = [sum(vals.get(c, 0) for c in cap if vals.get(c, 0) > 0) for cap in captured]
    neg = [sum(vals.get(c, 0) for c in cap if vals.get(c, 0) < 0) for cap in captured]
    point_cards = {c for c, v in vals.items() if v > 0}
    moon = data["moon"]
    if moon and point_cards:
        takers = [s for s in range(players) if point_cards <= set(captured[s])]
        if takers:
            taker = takers[0]
            scoring = moon["scoring"] if moon["scoring"] != "taker-choice" else choice
            bonus = moon["bonus"]
            if scoring == "add-to-others":
                return [neg[s] + (0 if s == taker else bonus) for s in range(players)], taker
            assert scoring == "subtract-from-taker"
            return [neg[s] + (-bonus if s == taker else 0) for s in range(players)], taker
    return [pos[s] + neg[s] for s in range(players)], None


class HandTracker:
    """Plays cards into a game while following the hand independently (PLAY-3, PLAY-7,
    SCORE-1): after every trick the engine's leader and points must match."""

    def __init__(self, game) -> None:
        self.game = game
        self.data = game.ruleset.to_json()
        self.players = self.data["players"]
        self.vals = values(self.data)
        self.captured: list[list[str]] = [[] for _ in range(self.players)]
        self.current: list[tuple[int, str]] = []
        self.tricks: list[tuple[list[tuple[int, str]], int]] = []
        self.hand_size = len(deck_from_json(self.data)) // self.players

    def raw_points(self) -> list[int]:
        return [sum(self.vals.get(c, 0) for c in cap) for cap in self.captured]

    def play(self, card: str) -> None:
        game = self.game
        seat = game.to_move
        assert card in game.legal_plays()
        game.play(card)
        self.current.append((seat, card))
        if len(self.current) == self.players:
            winner = trick_winner(self.current)
            self.captured[winner] += [c for _, c in self.current]
            self.tricks.append((self.current, winner))
            self.current = []
            if len(self.tricks) < self.hand_size:
                assert game.to_move == winner, "the trick winner leads next (PLAY-7)"
                assert list(game.points) == self.raw_points(), "trick points (SCORE-1)"
                assert completed_tricks(game) == len(self.tricks)
        else:
            assert game.to_move == (seat + 1) % self.players, "play proceeds clockwise (PLAY-3)"

    def play_all(self, cards: Iterable[str]) -> None:
        for card in cards:
            self.play(card)

    def finish(self, pick: Callable[[list[str]], str] = lambda legal: legal[0]) -> None:
        while len(self.tricks) < self.hand_size:
            self.play(pick(self.game.legal_plays()))


def pass_all(game, pick: Callable[[list[str], int], list[str]] | None = None) -> dict[int, list[str]]:
    """Every seat that must pass passes ``pick(hand, size)`` (default: its first cards)."""
    size = game.ruleset.to_json()["passing"]["size"]
    passed = {}
    for seat in list(game.awaiting_pass):
        hand = game.hand(seat)
        cards = pick(hand, size) if pick else hand[:size]
        game.pass_cards(cards, seat)
        passed[seat] = cards
    return passed


# --------------------------------------------------------------------------- seeding


class SplitMix64:
    """SEED-1, written from spec/seeding.md."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """SEED-2: rejection sampling with t = 2^64 mod n."""
        assert 1 <= n < 2**32
        t = ((1 << 64) - n) % n
        while True:
            x = self.next()
            if x >= t:
                return x % n


def seeded_deals(data: dict[str, Any], seed: int, deals: int = 1, hand_number: int = 0) -> list[list[list[str]]]:
    """SEED-3 … SEED-5: the first ``deals`` deals of a game seeded with ``seed``."""
    rng = SplitMix64(seed)
    players = data["players"]
    out = []
    for k in range(deals):
        cards = deck_from_json(data)  # sorted order (CARD-2)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        dealer = (hand_number + k) % players
        hands: list[list[str]] = [[] for _ in range(players)]
        for pos, card in enumerate(cards):
            hands[(dealer + 1 + pos) % players].append(card)
        out.append([sort_cards(h) for h in hands])
    return out


def random_picker(rng: random.Random):
    return lambda legal: rng.choice(legal)


# --------------------------------------------------------------------------- optional extras


def require_learn(*modules: str) -> list[ModuleType]:
    """Import ``modules`` of the ``learn`` extra (torch, sb3_contrib, torchrl, …), or skip the test.

    With ``REVERSIS_REQUIRE_LEARN=1`` (as ``.ci/run`` sets it) a missing module fails the test
    instead, so that the learning recipes are never skipped where the extra is meant to be.
    """
    loaded = []
    for name in modules:
        try:
            loaded.append(importlib.import_module(name))
        except ImportError as error:
            why = f"{name} cannot be imported ({error}); pip install '.[learn]' installs it"
            if os.environ.get("REVERSIS_REQUIRE_LEARN") == "1":
                pytest.fail(f"{why} (REVERSIS_REQUIRE_LEARN=1)")
            pytest.skip(why)
    return loaded
