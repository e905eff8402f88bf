"""The OpenSpiel adapter (reversis.adapters.openspiel) driven through the driver protocol.

Every expected value comes from the rules of spec/ (cited per test), never from the adapter's
output. The hands are written out in full so that each expectation can be checked by hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")

PACKAGE_ROOT = Path(__file__).resolve().parent.parent / "python"

# Run the adapter from this checkout; the shim stands in for the package while its compiled
# extension is not built (the adapter needs nothing from it).
DRIVER_CODE = f"""
import sys, types
try:
    import reversis
except ImportError:
    pkg = types.ModuleType("reversis")
    pkg.__path__ = [{str(PACKAGE_ROOT / "reversis")!r}]
    sys.modules["reversis"] = pkg
from reversis.adapters.openspiel import main
main()
"""

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def cid(card: str) -> int:
    """CARD-2."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def cards(text: str) -> list[str]:
    """A sorted hand from a space-separated string (CARD-2)."""
    return sorted(text.split(), key=cid)


class Driver:
    """The adapter as a subprocess, one JSON request per line (DRV-1)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", DRIVER_CODE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.next_id = 0

    def call(self, cmd: str, **args: Any) -> dict[str, Any]:
        self.next_id += 1
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"id": self.next_id, "cmd": cmd, **args}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        assert answer["id"] == self.next_id
        return answer

    def ok(self, cmd: str, **args: Any) -> dict[str, Any]:
        answer = self.call(cmd, **args)
        assert answer["ok"], answer
        return answer

    def close(self) -> None:
        self.call("quit")
        self.process.wait(timeout=10)


@pytest.fixture
def driver() -> Any:
    process = Driver()
    yield process
    process.close()


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
    capabilities = driver.ok("hello")["capabilities"]
    assert capabilities["players"] == [4]
    assert capabilities["presets"] == ["hearts-4", "hearts-computer", "omnibus-4"]
    assert capabilities["custom_rulesets"] is False
    assert capabilities["observations"] is False
    assert capabilities["error_codes"] is False
    assert set(capabilities["kinds"]) == {"card", "game", "perft"}
    assert not capabilities.get("perft", False)


def test_presets_equal_the_spec_files(driver: Driver) -> None:
    spec = Path(__file__).resolve().parent.parent / "spec" / "rulesets"
    for name in ("hearts-4", "hearts-computer", "omnibus-4"):
        answer = driver.ok("ruleset", ruleset=name)
        assert answer["ruleset"] == json.loads((spec / f"{name}.json").read_text(encoding="utf-8"))
        assert answer["hand_size"] == 13


def test_card_notation(driver: Driver) -> None:
    # CARD-4: lowercase, 10 for T, suit symbols, surrounding whitespace.
    assert driver.ok("parse_card", text=" 10♥ ")["card"] == "TH"
    assert driver.ok("parse_card", text="qs")["card"] == "QS"
    assert driver.ok("parse_card", text="A♧")["card"] == "AC"
    assert driver.call("parse_card", text="1C")["error"] == "invalid-card"


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
    rejected_unchanged(driver, game, {"type": "pass", "seat": 2, "cards": ["7H", "8H", "2C"]})
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


def play_moon_hand(driver: Driver, ruleset: str) -> int:
    game = driver.ok("new_game", ruleset=ruleset, hand_number=3)["game"]
    driver.ok("apply", game=game, action={"type": "deal", "hands": MOON_DEAL})
    for seat, card in ((1, "2C"), (2, "9S"), (3, "AD"), (0, "AC")):
        assert play(driver, game, seat, card)["ok"]
    leads = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]
    for index, lead in enumerate(leads):
        assert play(driver, game, 0, lead)["ok"]
        for seat in (1, 2, 3):
            assert play(driver, game, seat, MOON_DISCARDS[seat][index])["ok"]
    for seat, card in ((0, "QS"), (1, "TS"), (2, "2S"), (3, "2D")):
        assert play(driver, game, seat, card)["ok"]
    return game


def test_moon_add_to_others_and_no_second_hand(driver: Driver) -> None:
    game = play_moon_hand(driver, "hearts-computer")
    state = view(driver, game)
    assert all(trick["winner"] == 0 for trick in state["tricks"])
    assert state["points"] == [26, 0, 0, 0]  # SCORE-1: 13 hearts and QS
    # SCORE-2 add-to-others 26; MATCH-2: no total reaches 100, so hand 4 waits for its deal.
    assert state["hand_scores"] == [[0, 26, 26, 26]]
    assert state["scores"] == [0, 26, 26, 26]
    assert (state["phase"], state["hand_number"], state["dealer"], state["pass_direction"]) == ("deal", 4, 0, "left")
    # The adapter models one hand (OpenSpiel's state is one hand): a second deal is unsupported.
    answer = driver.call("apply", game=game, action={"type": "deal", "hands": DEAL})
    assert (answer["ok"], answer["error"]) == (False, "unsupported")


def test_taker_choice_moon_is_unsupported(driver: Driver) -> None:
    game = play_moon_hand(driver, "hearts-4")
    state = view(driver, game)
    # SCORE-3: under taker-choice the taker must choose; OpenSpiel cannot offer the choice.
    assert (state["phase"], state["moon_taker"], state["to_move"]) == ("moon", 0, 0)
    assert state["hand_scores"] == []
    not_taker = driver.call("apply", game=game, action={"type": "moon", "seat": 1, "choice": "add-to-others"})
    assert not not_taker["ok"] and not_taker["error"] != "unsupported"
    answer = driver.call("apply", game=game, action={"type": "moon", "seat": 0, "choice": "subtract-from-taker"})
    assert (answer["ok"], answer["error"]) == (False, "unsupported")


def test_unsupported_setups(driver: Driver) -> None:
    assert driver.call("new_game", ruleset="hearts-4", seed=7)["error"] == "unsupported"
    assert driver.call("new_game", ruleset="hearts-4", scores=[10, 0, 0, 0])["error"] == "unsupported"
    assert driver.call("new_game", ruleset="hartenjagen")["error"] == "unsupported"
    # Every preset the adapter does not claim is known, and unsupported; another name is unknown.
    presets = {path.stem for path in (PACKAGE_ROOT.parent / "spec" / "rulesets").glob("*.json")}
    for name in sorted(presets - {"hearts-4", "hearts-computer", "omnibus-4"}):
        assert driver.call("new_game", ruleset=name)["error"] == "unsupported", name
    assert driver.call("new_game", ruleset="hearts-8")["error"] == "unknown-preset"
    assert driver.ok("new_game", ruleset="hearts-4", scores=[0, 0, 0, 0])["game"]


def test_record_replays(driver: Driver) -> None:
    game = driver.ok("new_game", ruleset="omnibus-4", hand_number=1)["game"]
    driver.ok("apply", game=game, action={"type": "deal", "hands": DEAL})
    driver.ok("apply", game=game, action={"type": "pass", "seat": 3, "cards": ["JD", "QS", "AS"]})
    record = driver.ok("record", game=game)["record"]
    assert record["actions"][1] == {"type": "pass", "seat": 3, "cards": ["JD", "QS", "AS"]}
    copy = driver.ok("load_record", record=record)["game"]
    assert view(driver, copy) == view(driver, game)
    # PASS-1: hand 1 passes right; REC-2: the replay is mid-pass, seat 3's cards already gone.
    assert view(driver, copy)["pass_direction"] == "right"
    assert view(driver, copy)["awaiting_pass"] == [0, 1, 2]
