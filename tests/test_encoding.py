"""OBS-3: the numeric encoding of an observation, checked slot by slot against the layout."""

from __future__ import annotations

import reversis
from reversis.encoding import ENCODING_LENGTH, ENCODING_VERSION, LAYOUT, encode_observation
from reversis.players import RandomPlayer, act_for, observe

AT = {name: (offset, size) for name, offset, size in LAYOUT}


def test_layout_is_contiguous_and_1049_long() -> None:
    assert ENCODING_VERSION == 2
    offset = 0
    for _, start, size in LAYOUT:
        assert start == offset
        offset += size
    assert offset == ENCODING_LENGTH == 1049
    assert LAYOUT[-1] == ("selected", 997, 52)


def test_fixed_length_for_every_preset() -> None:
    for name in reversis.preset_names():
        game = reversis.Game(reversis.preset(name), seed=1)
        assert len(encode_observation(observe(game, 0))) == 1049


def test_slots_after_a_few_plays() -> None:
    # hearts-4 hand 3 holds: no passing. Seat 2 is the observer.
    ruleset = reversis.preset("hearts-4")
    game = reversis.Game(ruleset, seed=7, hand_number=3)
    players = [RandomPlayer(s) for s in range(4)]
    for _ in range(6):  # one whole trick and two cards of the next
        act_for(game, players)
    obs = observe(game, 2)
    code = encode_observation(obs)

    def block(name: str) -> list[int]:
        start, size = AT[name]
        return list(code[start : start + size])

    assert [i for i, v in enumerate(block("hand")) if v] == [reversis.card_id(c) for c in obs.hand]
    played = block("played")
    trick = block("trick")
    for done in obs["tricks"]:
        for p in done["cards"]:
            assert played[((p["seat"] - 2) % 4) * 52 + reversis.card_id(p["card"])] == 1
    assert sum(played) == 6
    assert sum(trick) == 2
    for p in obs["trick"]:
        assert trick[((p["seat"] - 2) % 4) * 52 + reversis.card_id(p["card"])] == 1
    assert block("phase") == [0, 0, 1, 0, 0]
    assert block("pass_direction") == [0, 0, 0, 1, 0]
    assert block("to_move") == [1 if k == (game.to_move - 2) % 4 else 0 for k in range(8)]
    assert block("points") == [obs["points"][(2 + k) % 4] if k < 4 else 0 for k in range(7)]
    legal = block("legal")
    assert sum(legal) == (len(game.legal_plays()) if game.to_move == 2 else 0)
    assert block("passed") == [0] * 52 and block("received") == [0] * 52


def test_no_seat_to_move_and_passing() -> None:
    game = reversis.Game(reversis.preset("hearts-4"), seed=7)  # hand 0 passes left
    code = encode_observation(observe(game, 1))
    start, _ = AT["to_move"]
    assert list(code[start : start + 8]) == [0] * 7 + [1]
    start, _ = AT["pass_direction"]
    assert list(code[start : start + 5]) == [1, 0, 0, 0, 0]
    start, _ = AT["phase"]
    assert list(code[start : start + 5]) == [0, 1, 0, 0, 0]


def test_selected_block_follows_each_selection() -> None:
    # hearts-4 hand 0 passes left, one card at a time (ACT-2): each selection shows in the block.
    game = reversis.Game(reversis.preset("hearts-4"), seed=3)
    start, size = AT["selected"]
    chosen = game.hand(0)[:2]
    for k, card in enumerate(chosen, start=1):
        game.apply_action(52 + reversis.card_id(card), 0)
        block = list(encode_observation(observe(game, 0))[start : start + size])
        assert sum(block) == k
        assert all(block[reversis.card_id(c)] == 1 for c in chosen[:k])
        # Another seat's observation does not show seat 0's selection.
        assert sum(encode_observation(observe(game, 1))[start : start + size]) == 0
