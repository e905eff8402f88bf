"""OBS-3 version 3: the numeric encoding of an observation, checked slot by slot against the layout.

The offsets below are worked by hand from the table of spec/records.md (OBS-3), never read from
the encoder.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from reversis.encoding import ENCODING_LENGTH, ENCODING_VERSION, LAYOUT, encode_observation
from reversis.players import RandomPlayer, act_for, observe

AT = {name: (offset, size) for name, offset, size in LAYOUT}
SPEC = Path(__file__).resolve().parent.parent / "spec"

#: OBS-3 version 3, block by block, from the table of spec/records.md.
SPEC_LAYOUT = [
    ("hand", 0, 52),
    ("played", 52, 10 * 52),
    ("trick", 572, 10 * 52),
    ("passed", 1092, 52),
    ("received", 1144, 52),
    ("voids", 1196, 10 * 4),
    ("points", 1236, 10),
    ("scores", 1246, 10),
    ("phase", 1256, 5),
    ("hearts_broken", 1261, 1),
    ("to_move", 1262, 11),
    ("pass_direction", 1273, 5),
    ("legal", 1278, 52),
    ("selected", 1330, 52),
    ("count_down", 1382, 1),
    ("held_over", 1383, 52),
]


def test_layout_is_version_3_and_1435_long() -> None:
    assert ENCODING_VERSION == 3
    offset = 0
    for _, start, size in LAYOUT:
        assert start == offset
        offset += size
    assert offset == ENCODING_LENGTH == 1435
    assert [(offset, size) for _, offset, size in LAYOUT] == [(offset, size) for _, offset, size in SPEC_LAYOUT]
    assert [name for name, _, _ in LAYOUT] == [name for name, _, _ in SPEC_LAYOUT]


def test_layout_is_the_table_of_records_md() -> None:
    """The spec's table itself, read row by row: a table edited without the code fails here."""
    text = (SPEC / "records.md").read_text(encoding="utf-8")
    section = text[text.index("**OBS-3**") :]
    rows = re.findall(r"^\| (\d+) \| ([0-9 ×]+) \|", section, flags=re.MULTILINE)
    assert rows, "no OBS-3 table found"

    def length(cell: str) -> int:
        product = 1
        for factor in cell.split("×"):
            product *= int(factor)
        return product

    assert [(int(offset), length(size)) for offset, size in rows] == [(offset, size) for _, offset, size in LAYOUT]


def test_fixed_length_for_every_preset(engine: Any) -> None:
    for name in engine.preset_names():
        game = engine.Game(engine.preset(name), seed=1)
        assert len(encode_observation(observe(game, 0))) == 1435


def _observation(players: int, **data: Any) -> Any:
    """An OBS-1 dict built by hand, as encode_observation reads it (the ruleset's players only)."""
    base: dict[str, Any] = {
        "seat": 0,
        "phase": "play",
        "hand_number": 0,
        "dealer": 0,
        "pass_direction": None,
        "to_move": None,
        "awaiting_pass": [],
        "hand": [],
        "passed": None,
        "selected": [],
        "received": None,
        "tricks": [],
        "trick": [],
        "hearts_broken": False,
        "count_down": False,
        "voids": [[] for _ in range(players)],
        "points": [0] * players,
        "scores": [0] * players,
        "legal": [],
        "moon_taker": None,
    }
    return SimpleNamespace(ruleset=SimpleNamespace(players=players), data={**base, **data})


def _trick(leader: int, plays: list[tuple[int, str]], winner: int | None, points: int) -> dict[str, Any]:
    return {
        "leader": leader,
        "cards": [{"seat": seat, "card": card} for seat, card in plays],
        "winner": winner,
        "points": points,
    }


def test_a_ten_seat_two_pack_observation_slot_by_slot() -> None:
    """Seat 3 of 10 observes: relative seat k is seat (3 + k) mod 10, so seat 2 is 9, seat 0 is 7.

    Card ids (CARD-2): 2C 0, 3C 1, AC 12, 2D 13, 7D 18, AH 38, QS 49.
    """
    held_over = _trick(3, [(3, "AC"), (4, "AC"), (5, "2D"), (6, "2D"), (7, "7D")], None, 0)
    obs = _observation(
        10,
        seat=3,
        hand=["2C", "2C", "QS"],
        passed=["QS", "QS", "2D"],
        received=["3C"],
        selected=[],
        tricks=[held_over],
        trick=[{"seat": 1, "card": "AH"}, {"seat": 2, "card": "AH"}],
        hearts_broken=True,
        count_down=True,
        to_move=4,
        pass_direction="right",
        voids=[["C", "H"]] + [[] for _ in range(9)],
        points=[0, 0, 5, 0, 0, 0, 0, 0, 0, 0],
        scores=[0, 0, 0, 0, 0, -7, 0, 0, 0, 0],
        legal=["2C"],
    )
    code = list(encode_observation(obs))
    assert len(code) == 1435
    expected = {
        0: 2,  # hand: two copies of 2C
        49: 1,  # hand: QS
        # played: the held-over trick, seat 3 (rel 0) AC, seat 4 (rel 1) AC, seat 5 (rel 2) 2D,
        # seat 6 (rel 3) 2D, seat 7 (rel 4) 7D; the trick in progress, seat 1 (rel 8) and seat 2
        # (rel 9) AH.
        52 + 0 * 52 + 12: 1,
        52 + 1 * 52 + 12: 1,
        52 + 2 * 52 + 13: 1,
        52 + 3 * 52 + 13: 1,
        52 + 4 * 52 + 18: 1,
        52 + 8 * 52 + 38: 1,
        52 + 9 * 52 + 38: 1,
        572 + 8 * 52 + 38: 1,  # trick in progress
        572 + 9 * 52 + 38: 1,
        1092 + 49: 2,  # passed: both QS
        1092 + 13: 1,  # passed: 2D
        1144 + 1: 1,  # received: 3C
        1196 + 7 * 4 + 0: 1,  # seat 0 (rel 7) void in clubs
        1196 + 7 * 4 + 2: 1,  # and in hearts
        1236 + 9: 5,  # points of seat 2 (rel 9)
        1246 + 2: -7,  # total of seat 5 (rel 2)
        1256 + 2: 1,  # phase play
        1261: 1,  # hearts broken
        1262 + 1: 1,  # to move: seat 4, rel 1
        1273 + 1: 1,  # pass direction right
        1278 + 0: 1,  # legal: 2C
        1382: 1,  # a count-down hand
        1383 + 12: 2,  # held over, not captured: both AC
        1383 + 13: 2,  # both 2D
        1383 + 18: 1,  # 7D
    }
    assert {i: v for i, v in enumerate(code) if v} == expected


def test_a_captured_held_over_trick_leaves_the_held_over_block() -> None:
    """TRICK-1, PLAY-9: a won trick captures every held-over trick before it; only those after
    the last won trick are still held over."""
    first = _trick(0, [(0, "AC"), (1, "AC"), (2, "KD")], None, 0)
    won = _trick(0, [(0, "2S"), (1, "3S"), (2, "4S")], 2, 0)
    later = _trick(2, [(2, "KC"), (0, "KC"), (1, "3D")], None, 0)
    start, size = AT["held_over"]
    block = encode_observation(_observation(3, tricks=[first, won, later]))[start : start + size]
    assert {i: v for i, v in enumerate(block) if v} == {11: 2, 14: 1}  # KC twice, 3D
    block = encode_observation(_observation(3, tricks=[first, won]))[start : start + size]
    assert not any(block)
    block = encode_observation(_observation(3, tricks=[first]))[start : start + size]
    assert {i: v for i, v in enumerate(block) if v} == {12: 2, 24: 1}  # AC twice, KD


def test_to_move_none_and_no_pass_direction_take_the_last_slots() -> None:
    code = encode_observation(_observation(10, seat=9, phase="deal"))
    assert list(code[1262:1273]) == [0] * 10 + [1]
    assert list(code[1273:1278]) == [0, 0, 0, 0, 1]
    assert list(code[1256:1261]) == [1, 0, 0, 0, 0]
    assert code[1382] == 0


def test_slots_after_a_few_plays(engine: Any) -> None:
    # hearts-4 hand 3 holds: no passing. Seat 2 is the observer.
    ruleset = engine.preset("hearts-4")
    game = engine.Game(ruleset, seed=7, hand_number=3)
    players = [RandomPlayer(s) for s in range(4)]
    for _ in range(6):  # one whole trick and two cards of the next
        act_for(game, players)
    obs = observe(game, 2)
    code = encode_observation(obs)

    def block(name: str) -> list[int]:
        start, size = AT[name]
        return list(code[start : start + size])

    assert [i for i, v in enumerate(block("hand")) if v] == [engine.card_id(c) for c in obs.hand]
    played = block("played")
    trick = block("trick")
    for done in obs["tricks"]:
        for p in done["cards"]:
            assert played[((p["seat"] - 2) % 4) * 52 + engine.card_id(p["card"])] == 1
    assert sum(played) == 6
    assert sum(trick) == 2
    for p in obs["trick"]:
        assert trick[((p["seat"] - 2) % 4) * 52 + engine.card_id(p["card"])] == 1
    assert block("phase") == [0, 0, 1, 0, 0]
    assert block("pass_direction") == [0, 0, 0, 1, 0]
    assert block("to_move") == [1 if k == (game.to_move - 2) % 4 else 0 for k in range(11)]
    assert block("points") == [obs["points"][(2 + k) % 4] if k < 4 else 0 for k in range(10)]
    legal = block("legal")
    assert sum(legal) == (len(game.legal_plays()) if game.to_move == 2 else 0)
    assert block("passed") == [0] * 52 and block("received") == [0] * 52
    assert block("count_down") == [0] and block("held_over") == [0] * 52


def test_no_seat_to_move_and_passing(engine: Any) -> None:
    game = engine.Game(engine.preset("hearts-4"), seed=7)  # hand 0 passes left
    code = encode_observation(observe(game, 1))
    start, _ = AT["to_move"]
    assert list(code[start : start + 11]) == [0] * 10 + [1]
    start, _ = AT["pass_direction"]
    assert list(code[start : start + 5]) == [1, 0, 0, 0, 0]
    start, _ = AT["phase"]
    assert list(code[start : start + 5]) == [0, 1, 0, 0, 0]


def test_selected_block_follows_each_selection(engine: Any) -> None:
    # hearts-4 hand 0 passes left, one card at a time (ACT-2): each selection shows in the block.
    game = engine.Game(engine.preset("hearts-4"), seed=3)
    start, size = AT["selected"]
    chosen = game.hand(0)[:2]
    for k, card in enumerate(chosen, start=1):
        game.apply_action(52 + engine.card_id(card), 0)
        block = list(encode_observation(observe(game, 0))[start : start + size])
        assert sum(block) == k
        assert all(block[engine.card_id(c)] == 1 for c in chosen[:k])
        # Another seat's observation does not show seat 0's selection.
        assert sum(encode_observation(observe(game, 1))[start : start + size]) == 0


@pytest.mark.parametrize("name", ["cancellation-6", "cancellation-10"])
def test_two_copies_count_two_in_the_hand_and_selected_blocks(engine: Any, name: str) -> None:
    """OBS-3: a card block counts copies. A seat holding both copies of a card selects both."""
    ruleset = engine.preset(name)
    for seed in range(200):
        game = engine.Game(ruleset, seed=seed)
        seat = game.to_act
        hand = game.hand(seat)
        twice = sorted({card for card in hand if hand.count(card) == 2}, key=engine.card_id)
        if twice:
            break
    else:
        pytest.fail("no seed of 200 gives the first seat to pass a card twice")
    card = twice[0]
    hand_at, _ = AT["hand"]
    selected_at, _ = AT["selected"]
    assert encode_observation(observe(game, seat))[hand_at + engine.card_id(card)] == 2
    game.apply_action(52 + engine.card_id(card), seat)
    assert encode_observation(observe(game, seat))[selected_at + engine.card_id(card)] == 1
    game.apply_action(52 + engine.card_id(card), seat)
    assert encode_observation(observe(game, seat))[selected_at + engine.card_id(card)] == 2
