"""OpenSpiel's hearts harness (conformance/implementations/openspiel/driver.py) through the driver protocol.

The driver runs under the test interpreter, which has OpenSpiel through the ``openspiel`` extra,
from a directory outside the checkout and with ``reversis`` made unimportable: the harness
reads the presets from spec/rulesets/ by its own path and asks nothing of reversis. Every
expected value comes from the rules of spec/ (cited per test) or, for what OpenSpiel does
otherwise, from OpenSpiel's hearts.cc, never from the harness's output. The hands are written
out in full so that each expectation can be checked by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

try:
    import pyspiel  # noqa: F401
except ImportError:
    if os.environ.get("REVERSIS_REQUIRE_OPENSPIEL") == "1":  # .ci/run installs the extra: never skip there
        raise
    pytest.skip("OpenSpiel is not installed (pip install '.[openspiel]')", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "conformance" / "implementations" / "openspiel" / "driver.py"
RULESETS = ROOT / "spec" / "rulesets"
# ``sys.modules["reversis"] = None`` makes every ``import reversis`` fail.
DRIVER_CODE = f"""
import runpy, sys
sys.modules["reversis"] = None
runpy.run_path({str(HARNESS)!r}, run_name="__main__")
"""
CLAIMED = ["hearts-4", "hearts-computer", "omnibus-4"]
#: hearts.cc's ComputeScore: the taker's points less 26, every other seat's plus 26.
OPENSPIEL_MOON = {"scoring": "add-to-others", "bonus": 26}

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def cid(card: str) -> int:
    """CARD-2."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def cards(text: str) -> list[str]:
    """A sorted hand from a space-separated string (CARD-2)."""
    return sorted(text.split(), key=cid)


class Driver:
    """The harness as a subprocess, one JSON request per line (DRV-1)."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", DRIVER_CODE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.next_id = 0

    def send(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, f"the harness ended (status {self.process.wait(timeout=10)})"
        return dict(json.loads(answer))

    def call(self, cmd: str, **args: Any) -> dict[str, Any]:
        self.next_id += 1
        answer = self.send(json.dumps({"id": self.next_id, "cmd": cmd, **args}))
        assert answer["id"] == self.next_id
        return answer

    def ok(self, cmd: str, **args: Any) -> dict[str, Any]:
        answer = self.call(cmd, **args)
        assert answer["ok"], answer
        return answer

    def error(self, cmd: str, **args: Any) -> str:
        answer = self.call(cmd, **args)
        assert not answer["ok"], f"{cmd} {args} was accepted"
        return str(answer["error"])

    def close(self) -> None:
        self.call("quit")
        assert self.process.wait(timeout=10) == 0


@pytest.fixture
def driver(tmp_path: Path) -> Any:
    process = Driver(tmp_path)
    yield process
    process.close()


def spec_preset(name: str) -> dict[str, Any]:
    return dict(json.loads((RULESETS / f"{name}.json").read_text(encoding="utf-8")))


# Hand for hearts-4, written by suit blocks so every card is easy to find:
#   clubs 2-5 seat 0, 6-8 seat 1, 9-A seat 2; diamonds 2-4 / 5-8 / 9,T / J-A (seat 3);
#   hearts 2,3 / 4-6 / 7-9 / T-A; spades 2-5 / 6-8 / 9,T / J-A.
DEAL = [
    cards("2C 3C 4C 5C 2D 3D 4D 2H 3H 2S 3S 4S 5S"),
    cards("6C 7C 8C 5D 6D 7D 8D 4H 5H 6H 6S 7S 8S"),
    cards("9C TC JC QC KC AC 9D TD 7H 8H 9H 9S TS"),
    cards("JD QD KD AD TH JH QH KH AH JS QS KS AS"),
]


def play(driver: Driver, game: int, seat: int, card: str) -> dict[str, Any]:
    return driver.call("apply", game=game, action={"type": "play", "seat": seat, "card": card})


def view(driver: Driver, game: int) -> dict[str, Any]:
    return driver.ok("view", game=game)["view"]


def rejected_unchanged(driver: Driver, game: int, action: dict[str, Any]) -> str:
    """The action is rejected and the state is what it was (ERR-1); returns the error code."""
    before = driver.ok("state", game=game)["state"]
    answer = driver.call("apply", game=game, action=action)
    assert not answer["ok"], f"{action} was accepted"
    assert driver.ok("state", game=game)["state"] == before
    return answer["error"]


def test_hello_claims_only_what_openspiel_expresses(driver: Driver) -> None:
    hello = driver.ok("hello")
    assert hello["protocol"] == 1
    capabilities = hello["capabilities"]
    assert capabilities["players"] == [4]
    assert capabilities["presets"] == CLAIMED
    assert capabilities["custom_rulesets"] is False
    # OpenSpiel reads no card text: no "card"; its perft cases the runner walks through its game.
    assert capabilities["kinds"] == ["game", "perft"]
    assert capabilities["observations"] is False
    assert capabilities["observation_tensor"] is False
    assert capabilities["action_ids"] is False
    assert capabilities["error_codes"] is False
    # hearts-4 and omnibus-4 are taker-choice (their files); hearts-computer is OpenSpiel's moon already.
    assert capabilities["variants"] == {"hearts-4": {"moon": OPENSPIEL_MOON}, "omnibus-4": {"moon": OPENSPIEL_MOON}}


def test_records_carry_the_presets_as_played(driver: Driver) -> None:
    """REC-1: the whole ruleset, that of spec/rulesets/ but for the moon OpenSpiel plays."""
    for name in CLAIMED:
        game = driver.ok("new_game", ruleset=name)["game"]
        record = driver.ok("record", game=game)["record"]
        assert record["ruleset"] == {**spec_preset(name), "moon": OPENSPIEL_MOON}, name
        assert (record["seed"], record["start"], record["actions"]) == (None, {"hand_number": 0, "scores": [0] * 4}, [])
    assert spec_preset("hearts-computer")["moon"] == OPENSPIEL_MOON


def test_card_text_is_read_in_actions_but_not_claimed(driver: Driver) -> None:
    assert driver.error("parse_card", text="QS") == "unsupported"
    game = driver.ok("new_game", ruleset="hearts-4", hand_number=3)["game"]
    # CARD-4: any case, 10 for T, suit symbols, JSON whitespace around; the record is canonical (CARD-3).
    written = [
        [card.lower().replace("t", "10") for card in DEAL[0]],
        DEAL[1],
        DEAL[2],
        [f" {c[0]}♠" if c[1] == "S" else c for c in DEAL[3]],
    ]
    driver.ok("apply", game=game, action={"type": "deal", "hands": written})
    assert view(driver, game)["hands"] == DEAL
    assert play(driver, game, 0, "2♧")["ok"]
    assert driver.ok("record", game=game)["record"]["actions"][1] == {"type": "play", "seat": 0, "card": "2C"}
    # CARD-6: no other whitespace, no rank 1, nothing but a string.
    for text in ("\u00a06C", "1C", "6 C", 6, None):
        assert rejected_unchanged(driver, game, {"type": "play", "seat": 1, "card": text}) == "invalid-card"


def test_first_tricks_without_passing(driver: Driver) -> None:
    game = driver.ok("new_game", ruleset="hearts-4", hand_number=3)["game"]
    # PASS-1: hand 3 of L R A hold does not pass; DEAL-2: dealer 3 mod 4.
    start = view(driver, game)
    assert start["phase"] == "deal"
    assert (start["dealer"], start["pass_direction"]) == (3, "hold")
    driver.ok("apply", game=game, action={"type": "deal", "hands": DEAL})
    after_deal = view(driver, game)
    assert after_deal["hands"] == DEAL
    # PLAY-1: the holder of 2C (seat 0) leads it.
    assert (after_deal["phase"], after_deal["to_move"], after_deal["legal"]) == ("play", 0, ["2C"])
    rejected_unchanged(driver, game, {"type": "play", "seat": 0, "card": "3C"})
    assert play(driver, game, 0, "2C")["ok"]
    # PLAY-4: seat 1 holds clubs and must follow.
    assert view(driver, game)["legal"] == ["6C", "7C", "8C"]
    rejected_unchanged(driver, game, {"type": "play", "seat": 1, "card": "5D"})
    # PLAY-3: only the seat to move plays.
    rejected_unchanged(driver, game, {"type": "play", "seat": 2, "card": "9C"})
    assert play(driver, game, 1, "8C")["ok"]
    assert play(driver, game, 2, "AC")["ok"]
    # PLAY-5: seat 3 is void in clubs and may not discard hearts or QS on the first trick.
    assert view(driver, game)["legal"] == ["JD", "QD", "KD", "AD", "JS", "KS", "AS"]
    rejected_unchanged(driver, game, {"type": "play", "seat": 3, "card": "QS"})
    rejected_unchanged(driver, game, {"type": "play", "seat": 3, "card": "TH"})
    assert play(driver, game, 3, "AD")["ok"]
    first = {
        "leader": 0,
        "cards": [
            {"seat": 0, "card": "2C"},
            {"seat": 1, "card": "8C"},
            {"seat": 2, "card": "AC"},
            {"seat": 3, "card": "AD"},
        ],
        "winner": 2,  # PLAY-7: AC is the highest club; AD is off suit
        "points": 0,
    }
    state = view(driver, game)
    assert state["tricks"] == [first] and state["last_trick"] == first
    assert (state["to_move"], state["trick"], state["hearts_broken"]) == (2, [], False)
    # PLAY-6: seat 2 may not lead a heart while it holds other suits.
    assert state["legal"] == ["9C", "TC", "JC", "QC", "KC", "9D", "TD", "9S", "TS"]
    rejected_unchanged(driver, game, {"type": "play", "seat": 2, "card": "7H"})
    for seat, card in ((2, "TS"), (3, "QS"), (0, "5S"), (1, "8S")):
        assert play(driver, game, seat, card)["ok"]
    state = view(driver, game)
    # PLAY-7: QS beats TS, 8S, 5S; SCORE-1: 13 points; RS-8 heart-or-QS: QS breaks hearts.
    assert state["last_trick"]["winner"] == 3 and state["last_trick"]["points"] == 13
    assert state["points"] == [0, 0, 0, 13]
    assert state["hearts_broken"] is True
    assert state["legal"] == cards("JD QD KD TH JH QH KH AH JS KS AS")


def test_queen_does_not_break_hearts_under_hearts_computer(driver: Driver) -> None:
    game = driver.ok("new_game", ruleset="hearts-computer", hand_number=3)["game"]
    driver.ok("apply", game=game, action={"type": "deal", "hands": DEAL})
    for seat, card in ((0, "2C"), (1, "8C"), (2, "AC"), (3, "AD"), (2, "TS"), (3, "QS"), (0, "5S"), (1, "8S")):
        assert play(driver, game, seat, card)["ok"]
    state = view(driver, game)
    # RS-8 `heart`: only a heart breaks hearts, so seat 3 may not lead one yet (PLAY-6).
    assert state["hearts_broken"] is False
    assert state["legal"] == cards("JD QD KD JS KS AS")


def test_passing_left_in_any_seat_order(driver: Driver) -> None:
    game = driver.ok("new_game", ruleset="hearts-4", hand_number=0)["game"]
    driver.ok("apply", game=game, action={"type": "deal", "hands": DEAL})
    state = view(driver, game)
    assert (state["phase"], state["pass_direction"], state["awaiting_pass"]) == ("pass", "left", [0, 1, 2, 3])
    passes = {0: ["2C", "3C", "4C"], 1: ["6C", "7C", "8C"], 2: ["7H", "8H", "9H"], 3: ["QS", "KS", "AS"]}
    # PASS-2: the wrong size, a card not held.
    rejected_unchanged(driver, game, {"type": "pass", "seat": 2, "cards": ["7H", "8H"]})
    # OpenSpiel asks seat 0 first; seat 2's pass waits, but whether OpenSpiel takes it is asked at once.
    assert rejected_unchanged(driver, game, {"type": "pass", "seat": 2, "cards": ["7H", "8H", "2C"]}) == "card-not-held"
    assert (
        rejected_unchanged(driver, game, {"type": "pass", "seat": 3, "cards": ["QS", "q♠", "AS"]}) == "duplicate-card"
    )
    driver.ok("apply", game=game, action={"type": "pass", "seat": 2, "cards": passes[2]})
    state = view(driver, game)
    # PASS-3: the cards leave seat 2 at once; nobody receives yet.
    assert state["hands"][2] == cards("9C TC JC QC KC AC 9D TD 9S TS")
    assert state["hands"][3] == DEAL[3]
    assert state["awaiting_pass"] == [0, 1, 3]
    rejected_unchanged(driver, game, {"type": "pass", "seat": 2, "cards": ["9C", "TC", "JC"]})  # already passed
    for seat in (3, 0):
        driver.ok("apply", game=game, action={"type": "pass", "seat": seat, "cards": passes[seat]})
    assert view(driver, game)["awaiting_pass"] == [1]
    driver.ok("apply", game=game, action={"type": "pass", "seat": 1, "cards": passes[1]})
    state = view(driver, game)
    # SEAT-1: left of seat s is s+1; seat s's cards go to s+1.
    for seat in range(4):
        kept = [card for card in DEAL[seat] if card not in passes[seat]]
        assert state["hands"][seat] == sorted(kept + passes[(seat - 1) % 4], key=cid)
    # PLAY-1: seat 1 received 2C and leads it.
    assert (state["phase"], state["to_move"], state["legal"], state["awaiting_pass"]) == ("play", 1, ["2C"], [])


# A moon for seat 0: it holds every club but 2C, plus QS; the others discard their hearts on
# its club tricks and keep a low spade (or a diamond) for the last trick, which QS wins.
MOON_DEAL = [
    cards("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC QS"),
    cards("2C 7H 8H 9H TH JH QH KH AH TS JS KS AS"),
    cards("2H 3H 4H 5H 6H 2S 3S 4S 5S 6S 7S 8S 9S"),
    cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
]
MOON_DISCARDS = {
    1: ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "AS", "KS", "JS"],
    2: ["6H", "5H", "4H", "3H", "2H", "8S", "7S", "6S", "5S", "4S", "3S"],
    3: cards("3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
}


LAST_TRICK = ((0, "QS"), (1, "TS"), (2, "2S"), (3, "2D"))


def play_moon_tricks(driver: Driver, ruleset: str, hand_number: int = 3) -> int:
    """Every trick of the moon hand but the last (hand 3 and its like hold: PASS-1)."""
    game = driver.ok("new_game", ruleset=ruleset, hand_number=hand_number)["game"]
    driver.ok("apply", game=game, action={"type": "deal", "hands": MOON_DEAL})
    for seat, card in ((1, "2C"), (2, "9S"), (3, "AD"), (0, "AC")):
        assert play(driver, game, seat, card)["ok"]
    leads = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]
    for index, lead in enumerate(leads):
        assert play(driver, game, 0, lead)["ok"]
        for seat in (1, 2, 3):
            assert play(driver, game, seat, MOON_DISCARDS[seat][index])["ok"]
    return game


def play_last_trick(driver: Driver, game: int) -> dict[str, Any]:
    for seat, card in LAST_TRICK:
        assert play(driver, game, seat, card)["ok"]
    return view(driver, game)


def test_moon_add_to_others_and_no_second_hand(driver: Driver) -> None:
    game = play_moon_tricks(driver, "hearts-computer")
    state = view(driver, game)
    # PLAY-7: AC wins the first trick, then every club led is the highest of its trick.
    assert [trick["winner"] for trick in state["tricks"]] == [0] * 12
    # SCORE-1: seat 1 discards hearts on the first eight club tricks, seat 2 on the first five.
    assert [trick["points"] for trick in state["tricks"]] == [0] + [2] * 5 + [1] * 3 + [0] * 3
    assert state["points"] == [13, 0, 0, 0]
    assert (state["to_move"], state["legal"]) == (0, ["QS"])
    state = play_last_trick(driver, game)
    # SCORE-2 add-to-others 26 (the taker took all 26); MATCH-2: no total reaches 100, so hand 4
    # waits for its deal, its view that of DRV-6's column deal.
    assert state["hand_scores"] == [[0, 26, 26, 26]]
    assert state["scores"] == [0, 26, 26, 26]
    assert (state["phase"], state["hand_number"], state["dealer"], state["pass_direction"]) == ("deal", 4, 0, "left")
    assert (state["tricks"], state["last_trick"], state["points"], state["hands"]) == ([], None, [0] * 4, [[]] * 4)
    assert (state["moon_taker"], state["to_move"], state["hearts_broken"]) == (None, None, False)
    # An OpenSpiel hearts state is one hand: a second deal is unsupported, and changes nothing.
    before = driver.ok("state", game=game)["state"]
    assert driver.error("apply", game=game, action={"type": "deal", "hands": DEAL}) == "unsupported"
    assert driver.ok("state", game=game)["state"] == before


def test_taker_choice_moon_is_played_as_openspiels(driver: Driver) -> None:
    game = play_moon_tricks(driver, "hearts-4")
    state = play_last_trick(driver, game)
    # hearts-4 lets the taker choose (SCORE-3); OpenSpiel scores add-to-others at once, as hello's
    # variants say: no phase moon, and no moon action in any phase.
    assert (state["phase"], state["moon_taker"], state["hand_scores"]) == ("deal", None, [[0, 26, 26, 26]])
    for choice in ("add-to-others", "subtract-from-taker"):
        error = rejected_unchanged(driver, game, {"type": "moon", "seat": 0, "choice": choice})
        assert error not in ("unsupported", "invalid-action")


def test_omnibus_moon_leaves_jd_with_its_taker(driver: Driver) -> None:
    game = play_moon_tricks(driver, "omnibus-4")
    state = view(driver, game)
    # RS-9: JD is -10 under omnibus-4; seat 3 discards it on the ninth club trick.
    assert state["tricks"][9]["cards"][3] == {"seat": 3, "card": "JD"}
    assert state["tricks"][9]["points"] == -10
    assert state["points"] == [3, 0, 0, 0]
    state = play_last_trick(driver, game)
    # SCORE-2 add-to-others: the taker's positive 26 becomes 0, every other seat gets 26; D-8: the
    # taker keeps JD's -10.
    assert state["hand_scores"] == [[-10, 26, 26, 26]]


def test_the_hand_number_wraps_after_the_last(driver: Driver) -> None:
    # ERR-6: hand numbers are 0 … 2⁶⁴−1 and wrap; 2⁶⁴−1 mod 4 is 3, a hand that holds (PASS-1).
    game = play_moon_tricks(driver, "hearts-computer", hand_number=2**64 - 1)
    state = play_last_trick(driver, game)
    assert (state["hand_number"], state["dealer"], state["pass_direction"]) == (0, 0, "left")


def test_setups(driver: Driver) -> None:
    # What OpenSpiel cannot express: a seed, starting totals, a preset it does not play.
    assert driver.error("new_game", ruleset="hearts-4", seed=7) == "unsupported"
    assert driver.error("new_game", ruleset="hearts-4", scores=[10, 0, 0, 0]) == "unsupported"
    claimed = set(CLAIMED)
    for name in sorted({path.stem for path in RULESETS.glob("*.json")} - claimed):
        assert driver.error("new_game", ruleset=name) == "unsupported", name
    # A whole ruleset: the preset as played, not its own moon, not any other.
    assert driver.ok("new_game", ruleset={**spec_preset("hearts-4"), "moon": OPENSPIEL_MOON})["game"]
    assert driver.error("new_game", ruleset=spec_preset("hearts-4")) == "unsupported"
    assert driver.ok("new_game", ruleset=spec_preset("hearts-computer"))["game"]
    # API-3, ERR-6: values that are not valid come first, whatever is claimed.
    assert driver.error("new_game", ruleset="hearts-8") == "unknown-preset"
    assert driver.error("new_game", ruleset=7) == "invalid-ruleset"
    assert driver.error("new_game", ruleset="hearts-4", seed=-1) == "invalid-setup"
    assert driver.error("new_game", ruleset="hartenjagen", hand_number=2**64) == "invalid-setup"
    assert driver.error("new_game", ruleset="hearts-4", scores=[0, 0, 0]) == "invalid-setup"
    assert driver.error("new_game", ruleset="hearts-4", hand_number=True) == "invalid-setup"
    # DRV-3: null is the default.
    game = driver.ok("new_game", ruleset="hearts-4", seed=None, hand_number=None, scores=[0, 0, 0, 0])["game"]
    assert (view(driver, game)["hand_number"], view(driver, game)["pass_direction"]) == (0, "left")


def test_requests_it_cannot_read(driver: Driver) -> None:
    # DRV-1: an unknown command, unknown arguments, a game it does not hold, a line that is no object.
    assert driver.error("apply_action", game=1, action=0) == "invalid-request"
    assert driver.error("new_game", ruleset="hearts-4", colour="red") == "invalid-request"
    assert driver.error("view", game=1) == "invalid-request"
    game = driver.ok("new_game", ruleset="hearts-4")["game"]
    assert driver.error("view", game=True) == "invalid-request"
    driver.ok("drop", game=game)
    assert driver.error("view", game=game) == "invalid-request"
    assert driver.send("[1, 2]") == {
        "id": None,
        "ok": False,
        "error": "invalid-request",
        "message": "a request is a JSON object",
    }
    assert driver.send("{not json")["id"] is None
    # What it understands but does not claim is unsupported.
    for cmd, args in (("ruleset", {"ruleset": "hearts-4"}), ("seed_draws", {"seed": 1, "count": 2})):
        assert driver.error(cmd, **args) == "unsupported"


def test_record_replays(driver: Driver) -> None:
    game = driver.ok("new_game", ruleset="omnibus-4", hand_number=1)["game"]
    driver.ok("apply", game=game, action={"type": "deal", "hands": DEAL})
    driver.ok("apply", game=game, action={"type": "pass", "seat": 3, "cards": ["JD", "QS", "AS"]})
    record = driver.ok("record", game=game)["record"]
    assert record["actions"][1] == {"type": "pass", "seat": 3, "cards": ["JD", "QS", "AS"]}
    assert record["ruleset"] == {**spec_preset("omnibus-4"), "moon": OPENSPIEL_MOON}
    copy = driver.ok("load_record", record=record)["game"]
    assert view(driver, copy) == view(driver, game)
    # PASS-1: hand 1 passes right; REC-2: the replay is mid-pass, seat 3's cards already gone.
    assert view(driver, copy)["pass_direction"] == "right"
    assert view(driver, copy)["awaiting_pass"] == [0, 1, 2]
