"""The review of a hand and the hint of the web table (web/review.js) in headless Chromium.

A review replays the page's save (REC-1) to each of seat 0's decisions of a finished hand and
asks the worker about seat 0's observation there; the tests check the decisions and the
observations sent against the Python engine replaying the same record, and that the hint is off
until asked for and then marks a legal card: the search's choice. Skipped as the other browser
tests are (``tests/webpage.py``).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import reversis
from reversis.players import Observation
from reversis.players.search import evaluate_decision
from webpage import WEB, Table, severe_violations

DECISIONS = ("pass", "play", "moon")

# Copies every evaluation request the page posts to a worker, as the worker receives it.
INTERCEPT = """
window.evaluations = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (data, ...rest) {
  if (data && data.type === "evaluate") window.evaluations.push(structuredClone(data));
  return post.call(this, data, ...rest);
};
"""


def review_playouts() -> int:
    """The playouts review.js asks for."""
    match = re.search(r"REVIEW_PLAYOUTS = (\d+);", (WEB / "review.js").read_text())
    assert match
    return int(match.group(1))


def finish_hand(table: Table, hand: int) -> None:
    """Play seat 0's decisions (first cards) until hand ``hand`` is scored."""
    while True:
        table.wait_idle()
        game = table.game()
        if len(game.hand_scores) > hand:
            return
        if game.phase == "pass" and 0 in game.awaiting_pass:
            table.pass_first()
        elif game.phase == "play" and game.to_move == 0:
            table.play_first_legal()
        elif game.phase == "moon" and game.moon_taker == 0:
            table.driver.find_element("css selector", "#prompt-actions button").click()
        else:
            time.sleep(0.05)


def seat_zero_decisions(record: dict[str, Any], hand: int) -> list[tuple[int, str, dict[str, Any]]]:
    """Seat 0's decisions of hand ``hand`` by the Python engine: the index of each in the record,
    its phase and seat 0's observation on the record replayed up to just before it."""
    out = []
    for index, action in enumerate(record["actions"]):
        if action.get("seat") != 0 or action["type"] not in DECISIONS:
            continue
        game = reversis.Game.from_record({**record, "actions": record["actions"][:index]})
        if game.hand_number == hand:
            out.append((index, game.phase, json.loads(json.dumps(game.observation(0)))))
    return out


def cards_in(value: Any) -> set[str]:
    """Every string in a JSON value that names a card."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if isinstance(value, str) and re.fullmatch(r"[2-9TJQKA][CDHS]", value):
        return {value}
    return set()


def test_a_review_lists_seat_zeros_decisions_from_what_it_saw(table: Table) -> None:
    table.deal(seed=4242)
    finish_hand(table, 0)
    table.driver.execute_script(INTERCEPT)
    table.driver.find_element("css selector", '#review-hands button[data-review-hand="0"]').click()
    table.wait(
        lambda d: d.execute_script("return document.getElementById('review-result').dataset.state") != "running",
        timeout=120,
        message="the review did not finish",
    )
    assert table.driver.execute_script("return document.getElementById('review-result').dataset.state") == "done"
    assert table.data("review") == "done"
    # axe-core on the table with its review open: no serious or critical violation.
    assert severe_violations(table.driver) == []
    record = reversis.load_record(table.save()["record"].encode())
    expected = seat_zero_decisions(record, 0)
    # A hand of hearts-computer: a pass (hand 0 passes left) and 13 cards.
    assert [phase for _, phase, _ in expected] == ["pass"] + ["play"] * 13
    rows = table.driver.find_elements("css selector", "#review-result tbody tr")
    assert [(int(r.get_attribute("data-index")), r.get_attribute("data-phase")) for r in rows] == [
        (index, phase) for index, phase, _ in expected
    ]
    marks = [row.find_element("css selector", "td").text for row in rows]
    for row, mark in zip(rows, marks):
        differs = row.get_attribute("data-differs") == "true"
        other = row.get_attribute("data-action") != row.get_attribute("data-choice")
        # Marked different only where the choice differs; a different choice of the same
        # estimated points is marked as good as the search's.
        assert mark == ("≠" if differs else "≈" if other else "="), (mark, differs, other)
        if other and not differs:
            cells = row.find_elements("css selector", "td")
            assert cells[2].text == cells[4].text
    sent = table.driver.execute_script("return window.evaluations")
    assert len(sent) == len(expected)
    for message, (index, _, observation) in zip(sent, expected):
        assert set(message) == {"type", "id", "ruleset", "observation", "seed", "playouts", "action"}
        # Exactly seat 0's observation where the replay stopped, and its own action there.
        assert message["observation"] == observation
        assert message["action"] == record["actions"][index]
        # No card seat 0 could not see: its hand then, the cards played in the hand so far, and
        # the cards it passed.
        before = reversis.Game.from_record({**record, "actions": record["actions"][:index]})
        start = next(i for i in range(index, -1, -1) if record["actions"][i]["type"] == "deal" or i == 0)
        played = {a["card"] for a in record["actions"][start:index] if a["type"] == "play"}
        passed = set(record["actions"][index]["cards"]) if message["action"]["type"] == "pass" else set()
        passed |= set(observation["passed"] or [])
        seen = set(before.hand(0)) | played | passed
        assert cards_in(message["observation"]) <= seen
        assert cards_in(message["action"]) <= seen


def test_the_hint_is_off_by_default_and_marks_the_searchs_legal_card(table: Table) -> None:
    table.deal(seed=777)
    table.wait_idle()
    game = table.game()
    if game.phase == "pass":
        table.pass_first()
    table.wait(lambda d: table.my_turn(), message="never seat 0's turn")
    assert not table.driver.find_element("id", "hint-setting").is_selected()
    assert not table.driver.find_element("id", "hint-area").is_displayed()
    assert table.driver.find_elements("id", "hint") == []
    # Turned on, the setting shows the button during the turn, and is kept.
    table.driver.find_element("id", "hint-setting").click()
    table.wait(lambda d: d.find_element("id", "hint-area").is_displayed(), message="no hint button")
    assert table.driver.execute_script("return localStorage.getItem('reversis.hint')") == "on"
    table.driver.execute_script(INTERCEPT)
    table.driver.find_element("id", "hint").click()
    marked = table.wait(
        lambda d: d.find_elements("css selector", "#hand button.card.hint"), timeout=60, message="no card marked"
    )
    assert len(marked) == 1
    card = marked[0].get_attribute("data-card")
    game = table.game()
    assert card in game.legal_plays() and card in table.enabled()
    # The search's choice for seat 0's observation, and that observation only.
    sent = table.driver.execute_script("return window.evaluations")
    assert len(sent) == 1
    observation = json.loads(json.dumps(game.observation(0)))
    assert sent[0]["observation"] == observation
    review = evaluate_decision(Observation(game.ruleset, observation), playouts=review_playouts(), seed=sent[0]["seed"])
    assert review["choice"]["card"] == card
    # Playing takes the mark away with the turn.
    table.play_first_legal()
    assert table.driver.find_elements("css selector", "#hand button.card.hint") == []
