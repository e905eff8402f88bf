"""``reversis tournament --matches``: whole matches in every seating, match-win rates with ties shared."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import math
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis.cli import main
from reversis.commands.tournament import (
    MatchPairStats,
    MatchResult,
    MatchStats,
    format_table,
    run_tournament,
    seatings,
    t_quantile,
)
from reversis.commands.tournament.stats import MatchTally

#: Matches to 30 instead of 100: a few hands each, so a test plays whole matches in seconds.
SHORT = reversis.preset("hearts-computer").replace(target=30, name="hearts-30")


def _short_file(tmp_path: Path) -> Path:
    path = tmp_path / "short.json"
    path.write_text(json.dumps(SHORT.to_json()))
    return path


def test_win_shares_split_ties_and_are_clustered_by_sequence() -> None:
    # Worked by hand. Sequence 0, seating a b a b: seat 0 (a) wins alone; seating b a b a: seats
    # 0, 1, 2 tie (b, a, b: 1/3 each). a's four seat-matches: 1, 0, 1/3, 0 -> 1/3; b's: 0, 0,
    # 1/3, 1/3 -> 1/6. Sequence 1, seating a b a b: seats 1 and 3 (both b) tie, 1/2 each;
    # seating b a b a: seat 3 (a) alone. a: 0, 0, 0, 1 -> 1/4; b: 1/2, 1/2, 0, 0 -> 1/4.
    table = [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    tally = MatchTally(["a", "b"])
    tally.add(
        MatchResult(
            0,
            table,
            [[[10, 0, 6, 10], [0, 26, 0, 0]], [[5, 5, 5, 11]]],
            [[10, 26, 6, 10], [5, 5, 5, 11]],
            [[0], [0, 1, 2]],
        )
    )
    tally.add(MatchResult(1, table, [[[1, 2, 3, 4]], [[1, 2, 3, 4]]], [[1, 2, 3, 4]] * 2, [[1, 3], [3]]))
    result = tally.result(SHORT, 0, None, [])
    a, b = result.stat("a"), result.stat("b")
    assert isinstance(a, MatchStats) and isinstance(b, MatchStats)
    assert (a.matches, b.matches, a.deals) == (8, 8, 2)
    assert a.win_rate == pytest.approx(7 / 24) and b.win_rate == pytest.approx(5 / 24)
    # Two sequences: half-width t(0.975, 1) * sd / sqrt 2, sd = |1/3 - 1/4| / sqrt 2.
    half = 12.706204736 * (1 / 12) / 2
    assert (a.win_low, a.win_high) == (pytest.approx(7 / 24 - half), pytest.approx(7 / 24 + half))
    assert a.expected_win_rate == 0.25
    # Points per hand over every hand of a's matches: sequence 0, 32 points in 6 seat-hands; sequence 1, 10 in 4.
    assert a.hands == 10 and a.mean == pytest.approx((32 / 6 + 10 / 4) / 2)
    assert b.mean == pytest.approx((46 / 6 + 10 / 4) / 2)
    (pair,) = result.pairs
    assert pair.deals == 2
    assert isinstance(pair, MatchPairStats)
    assert pair.win_rate_difference == pytest.approx(1 / 12)  # (1/6 + 0) / 2


def test_rules_wins_more_matches_than_random_and_every_match_is_played_out() -> None:
    result = run_tournament(["random", "rules"], ruleset=SHORT, matches=3, seed=4, jobs=1, keep_deals=True)
    random_stats, rules_stats = result.stats
    assert isinstance(random_stats, MatchStats) and isinstance(rules_stats, MatchStats)
    assert rules_stats.win_rate > random_stats.win_rate
    assert rules_stats.mean < random_stats.mean
    rounds = len(seatings(["random", "rules"], 4))
    assert random_stats.matches == rules_stats.matches == 3 * rounds * 2
    # Every seating's match has exactly one win to share: the rates, weighted by seat-matches, add up to one a seating.
    shares = random_stats.win_rate * random_stats.matches + rules_stats.win_rate * rules_stats.matches
    assert shares == pytest.approx(3 * rounds)
    for match in result.deals:
        assert len(match.seatings) == rounds
        for scores, totals, winners in zip(match.scores, match.totals, match.winners):
            assert [sum(hand[seat] for hand in scores) for seat in range(4)] == totals
            assert max(totals) >= 30  # played to the target
            assert max((max(running) for running in _running(scores)[:-1]), default=0) < 30  # not before
            assert winners == [seat for seat in range(4) if totals[seat] == min(totals)]


def _running(scores: list[list[int]]) -> list[list[int]]:
    """The totals after each hand."""
    totals, out = [0, 0, 0, 0], []
    for hand in scores:
        totals = [t + s for t, s in zip(totals, hand)]
        out.append(totals)
    return out


def _numbers(result: Any) -> dict[str, Any]:
    data = result.to_json()
    for stat in data["stats"]:
        del stat["median_decision_seconds"]
    return data


def test_jobs_do_not_change_the_matches() -> None:
    one = run_tournament(["random", "rules"], ruleset=SHORT, matches=3, seed=8, jobs=1, keep_deals=True)
    two = run_tournament(["random", "rules"], ruleset=SHORT, matches=3, seed=8, jobs=2, chunk=1, keep_deals=True)
    assert _numbers(one) == _numbers(two)
    other = run_tournament(["random", "rules"], ruleset=SHORT, matches=3, seed=9, jobs=1, keep_deals=True)
    assert _numbers(other) != _numbers(one)


def test_each_hand_is_dealt_the_same_cards_in_every_seating(monkeypatch: pytest.MonkeyPatch) -> None:
    games: list[dict[int, list[list[str]]]] = []

    class Recording(reversis.Game):
        """Notes every seat's cards at the first action of each hand (before any pass or play)."""

        def apply(self, action: dict[str, Any]) -> None:
            dealt = self.__dict__.setdefault("dealt", {})
            if not dealt:
                games.append(dealt)
            if self.hand_number not in dealt:
                dealt[self.hand_number] = [sorted(self.hand(seat)) for seat in range(4)]
            super().apply(action)

    monkeypatch.setattr(reversis, "Game", Recording)
    result = run_tournament(["random", "rules"], ruleset=SHORT, matches=1, seed=2, jobs=1, keep_deals=True)
    (match,) = result.deals
    assert len(games) == len(match.seatings)
    assert [len(dealt) for dealt in games] == [len(scores) for scores in match.scores]
    assert len({len(dealt) for dealt in games}) > 1  # the seatings' matches differ, their deals do not
    for hand in range(max(len(dealt) for dealt in games)):
        cards = [dealt[hand] for dealt in games if hand in dealt]
        assert all(one == cards[0] for one in cards), f"hand {hand} dealt differently in two seatings"
    assert games[0][0] != games[0][1]


def test_the_command_plays_matches_and_writes_their_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, rows = tmp_path / "m.json", tmp_path / "m.csv"
    arguments = ["tournament", "--players", "random,rules", "--ruleset", str(_short_file(tmp_path)), "--matches", "2"]
    status = main([*arguments, "--jobs", "1", "--seed", "5", "--json", str(report), "--csv", str(rows)])
    assert status == 0
    out = capsys.readouterr().out
    assert "2 matches to 30 x 14 seatings" in out and "win rate" in out and "equal" in out
    data = json.loads(report.read_text())
    assert data["unit"] == "match" and data["match_count"] == 2 and data["match_end"] == "to 30"
    assert "deals" not in data and len(data["matches"]) == 2
    first = data["matches"][0]
    assert len(first["winners"]) == len(first["totals"]) == len(first["scores"]) == 14
    for totals, winners in zip(first["totals"], first["winners"]):
        assert winners == [seat for seat, total in enumerate(totals) if total == min(totals)]
    assert {"win_rate", "win_low", "win_high", "matches", "expected_win_rate"} <= set(data["stats"][0])
    table = list(csv.DictReader(io.StringIO(rows.read_text())))
    assert len(table) == 2 * 14 * 4
    assert sum(float(row["win_share"]) for row in table) == pytest.approx(2 * 14)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--hands", "3", "--matches", "3"], "not allowed with argument"),
        (["--matches", "0"], "--matches"),
    ],
)
def test_matches_usage_errors(extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--players", "random,rules", "--jobs", "1", *extra])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_the_progress_bar_counts_matches() -> None:
    stream = io.StringIO()
    run_tournament(["random", "rules"], ruleset=SHORT, matches=2, seed=1, progress=stream)
    assert "2/2 matches" in stream.getvalue()


def test_help_says_what_the_units_are(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "HAND" in text and "MATCH" in text and "--matches" in text


def test_one_match_sequence_gives_no_interval() -> None:
    result = run_tournament(["random", "rules"], ruleset=SHORT, matches=1, seed=1)
    stat = result.stats[0]
    assert isinstance(stat, MatchStats) and math.isnan(stat.win_low) and math.isnan(stat.low)
    assert "n/a (1 match)" in format_table(result)


def test_the_chart_draws_win_rates(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from reversis.commands.tournament import write_chart

    result = run_tournament(["random", "rules"], ruleset=SHORT, matches=2, seed=1)
    write_chart(result, tmp_path / "m.svg")
    text = (tmp_path / "m.svg").read_text()
    assert "match-win rate" in text and "2 matches to 30" in text


def test_t_quantile_used_above() -> None:
    # The half-width above takes t(0.975, 1) from any table of Student's t.
    assert t_quantile(0.975, 1) == pytest.approx(12.706204736)


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
def test_ray_plays_the_same_matches(tmp_path: Path) -> None:
    common = ["--players", "random,rules", "--ruleset", str(_short_file(tmp_path)), "--matches", "3", "--seed", "6"]
    command = [sys.executable, "-m", "reversis.cli", "tournament", "--no-progress", *common, "--jobs", "2"]
    ray_run = [*command, "--ray", "--json", str(tmp_path / "ray.json")]
    proc = subprocess.run(ray_run, check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert main(["tournament", *common, "--jobs", "1", "--json", str(tmp_path / "local.json")]) == 0
    remote = json.loads((tmp_path / "ray.json").read_text())
    local = json.loads((tmp_path / "local.json").read_text())
    assert len(remote["matches"]) == 3 and remote["matches"] == local["matches"]
    for data in (remote, local):
        for stat in data["stats"]:
            del stat["median_decision_seconds"]
    assert remote == local


#: A protocol bot that plays the lowest legal id and crashes at its second decision in each process.
CRASHING_BOT = r"""
import json, sys

acts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "crasher", "protocol_version": 1}), flush=True)
    elif message["type"] == "act":
        acts += 1
        if acts == 2:
            sys.exit(3)
        print(json.dumps({"id": message["id"], "action": min(message["legal_actions"])}), flush=True)
    elif message["type"] == "quit":
        break
"""


def test_a_bot_that_forfeits_every_hand_still_plays_whole_matches(tmp_path: Path) -> None:
    script = tmp_path / "crasher.py"
    script.write_text(CRASHING_BOT)
    bot = f"cmd:{shlex.join([sys.executable, str(script)])}"
    result = run_tournament(["rules", bot], ruleset=SHORT, matches=1, seed=3, jobs=1, keep_deals=True)
    (match,) = result.deals
    crasher = result.stat("crasher")
    # Restarted for every hand, it faults in every one; the fallback plays the lowest legal id, as it did.
    assert crasher.forfeits == crasher.hands == len(match.forfeits) > 0
    assert {f["hand"] for f in match.forfeits} == set(range(max(len(hands) for hands in match.scores)))
    lowest = run_tournament(["rules", "lowest"], ruleset=SHORT, matches=1, seed=3, jobs=1, keep_deals=True)
    assert match.totals == lowest.deals[0].totals and match.winners == lowest.deals[0].winners
    table = format_table(result)
    assert f"{crasher.forfeits} forfeited hands in 1 of 1 matches" in table
    assert "match 0 seating 0 hand 0 seat" in table


def test_a_protocol_bot_plays_matches_as_the_player_it_wraps(tmp_path: Path) -> None:
    from test_player_protocol import RANDOM_BOT

    script = tmp_path / "bot.py"
    script.write_text(RANDOM_BOT)
    bot = f"cmd:{shlex.join([sys.executable, str(script)])}"
    by_bot = run_tournament(["rules", bot], ruleset=SHORT, matches=2, seed=3, jobs=1, keep_deals=True)
    by_player = run_tournament(["rules", "random"], ruleset=SHORT, matches=2, seed=3, jobs=1, keep_deals=True)
    assert by_bot.players == ["rules", "random-bot"] and by_bot.forfeited_deals == 0
    assert [(m.scores, m.winners) for m in by_bot.deals] == [(m.scores, m.winners) for m in by_player.deals]
