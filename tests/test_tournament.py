"""``reversis tournament``: duplicate seating, statistics, parallel runs and the command."""

from __future__ import annotations

import io
import itertools
import json
import math
from pathlib import Path

import pytest

import reversis
from reversis.cli import main
from reversis.commands import tournament
from reversis.commands.tournament import (
    TournamentError,
    deal_seed,
    interval,
    run_tournament,
    seatings,
    t_quantile,
)

RULESET = reversis.preset("hearts-computer")


def _numbers(result: tournament.TournamentResult) -> dict:
    data = result.to_json()
    for stat in data["stats"]:
        del stat["median_decision_seconds"]  # wall-clock time differs from run to run
    return data


def test_seatings_put_every_type_at_every_seat() -> None:
    for names, seats in [(["random", "rules"], 4), (["a", "b", "c"], 4), (["a", "b", "c"], 3), (["a", "b"], 7)]:
        chosen = seatings(names, seats)
        assert len({tuple(s) for s in chosen}) == len(chosen), "a seating played twice"
        for seat in range(seats):
            counts = {name: sum(s[seat] == name for s in chosen) for name in names}
            assert min(counts.values()) > 0, (names, seats, counts)
            if len(chosen) > seats or seats % len(names) == 0:  # every assignment, or whole rotations
                assert len(set(counts.values())) == 1, (names, seats, counts)
        assert all(set(s) == set(names) for s in chosen)
    with pytest.raises(TournamentError):
        seatings(["a", "b", "c", "d"], 3)


def test_two_programs_at_four_seats_play_the_fourteen_mixed_seatings() -> None:
    # As the published duplicate evaluations of Hearts programs: every seating but the two that
    # seat one program alone, each once.
    chosen = seatings(["a", "b"], 4)
    assert len(chosen) == 2**4 - 2
    assert ["a", "a", "a", "a"] not in chosen and ["b", "b", "b", "b"] not in chosen


def test_too_many_assignments_fall_back_to_distinct_rotations() -> None:
    # Two types at seven seats have 126 mixed seatings: the 7 rotations, none twice.
    chosen = seatings(["a", "b"], 7)
    assert len(chosen) == 7 and len({tuple(s) for s in chosen}) == 7
    assert seatings(["a", "b", "c", "d"], 4) == [list(p) for p in itertools.permutations("abcd")]


def test_deal_seeds_differ_and_are_stable() -> None:
    seeds = {deal_seed(1, i) for i in range(100)}
    assert len(seeds) == 100
    assert deal_seed(1, 5) == deal_seed(1, 5)
    assert all(0 <= s < 2**64 for s in seeds)


def test_interval_formula() -> None:
    mean, low, high = interval([1.0, 2.0, 3.0, 4.0])
    half = 3.182446305284263 * math.sqrt(5 / 3) / 2  # t(0.975, 3); sd of 1..4 with n − 1 is sqrt(5/3)
    assert mean == 2.5
    assert low == pytest.approx(2.5 - half)
    assert high == pytest.approx(2.5 + half)
    # No interval from a single value.
    mean, low, high = interval([3.0])
    assert mean == 3.0 and math.isnan(low) and math.isnan(high)


def test_t_quantiles() -> None:
    # Student's t, 0.975 quantile (any statistics table).
    table = {1: 12.7062, 2: 4.3027, 3: 3.1824, 5: 2.5706, 10: 2.2281, 30: 2.0423, 120: 1.9799, 5000: 1.9604}
    for df, value in table.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-4)
    assert t_quantile(0.975, 10**9) == pytest.approx(1.959964, abs=1e-6)


def test_jobs_do_not_change_the_numbers() -> None:
    rules = reversis.preset("hartenjagen")
    one = run_tournament(["random", "rules"], ruleset=rules, hands=6, seed=3, jobs=1, keep_deals=True)
    two = run_tournament(["random", "rules"], ruleset=rules, hands=6, seed=3, jobs=2, chunk=1, keep_deals=True)
    assert _numbers(one) == _numbers(two)
    other = run_tournament(["random", "rules"], ruleset=rules, hands=6, seed=4, jobs=1, keep_deals=True)
    assert _numbers(other) != _numbers(one)


def test_every_player_plays_every_seat_with_every_deal() -> None:
    result = run_tournament(["random", "rules"], ruleset=reversis.preset("hearts-3"), hands=3, seed=1, keep_deals=True)
    for deal in result.deals:
        assert len(deal.seatings) == len(seatings(["random", "rules"], 3))
        for seat in range(3):
            assert {s[seat] for s in deal.seatings} == {"random", "rules"}
        # the same deal in every rotation: hand points sum to 26 (a moon: 52 or −26)
        assert all(sum(scores) in (26, 52, -26) for scores in deal.scores)


def test_statistics_are_consistent() -> None:
    result = run_tournament(["random", "rules"], ruleset=RULESET, hands=8, seed=2)
    total = 0.0
    for stat in result.stats:
        assert stat.hands == 8 * len(seatings(["random", "rules"], 4))
        assert stat.low <= stat.mean <= stat.high
        assert stat.median_decision_seconds > 0
        total += stat.mean
    # each mean is a mean of one seat's hand points, 0 to 26 (a moon: 26 more, or -26)
    assert 0 < total <= 78
    (pair,) = result.pairs
    assert (pair.first, pair.second, pair.deals) == ("random", "rules", 8)
    assert pair.low <= pair.mean_difference <= pair.high
    assert pair.mean_difference == pytest.approx(result.stat("random").mean - result.stat("rules").mean)


def test_rules_beats_random() -> None:
    result = run_tournament(["random", "rules"], ruleset=RULESET, hands=40, seed=5)
    (pair,) = result.pairs
    assert pair.low > 0  # random takes more points than the rule-based player


def test_unknown_and_unavailable_players(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TournamentError, match="unknown player"):
        run_tournament(["random", "nobody"], ruleset=RULESET, hands=1)
    monkeypatch.setitem(tournament.PLAYER_CLASSES, "ghost", ("reversis.players.no_such_module", "Ghost"))
    with pytest.raises(TournamentError, match="not available"):
        run_tournament(["random", "ghost"], ruleset=RULESET, hands=1)
    with pytest.raises(TournamentError):
        run_tournament(["random", "random"], ruleset=RULESET, hands=1)


def test_progress_bar() -> None:
    stream = io.StringIO()
    run_tournament(["random", "rules"], ruleset=reversis.preset("hartenjagen"), hands=2, seed=1, progress=stream)
    text = stream.getvalue()
    assert "\r" in text
    assert "2/2 deals" in text


def test_command_prints_the_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    status = main(
        ["tournament", "--players", "random,rules", "--preset", "hartenjagen", "--hands", "3", "--seed", "9"]
        + ["--jobs", "1", "--json", str(out)]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "mean pts/hand" in captured.out
    assert "95% interval" in captured.out
    assert "random - rules" in captured.out
    assert "deals" not in captured.err  # no progress bar where standard error is not a terminal
    data = json.loads(out.read_text())
    assert data["deal_count"] == 3 and data["seating_count"] == len(seatings(["random", "rules"], 4))
    assert [s["name"] for s in data["stats"]] == ["random", "rules"]
    assert len(data["deals"]) == 3 and "hands" not in data


def test_command_reports_a_missing_player(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(tournament.PLAYER_CLASSES, "ghost", ("reversis.players.no_such_module", "Ghost"))
    status = main(["tournament", "--players", "random,ghost", "--hands", "1", "--jobs", "1"])
    assert status == 2
    assert "'ghost' is not available" in capsys.readouterr().err


def test_help_says_the_unit_is_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    assert "HAND" in capsys.readouterr().out


def test_intervals_treat_a_deals_rotations_as_one_cluster() -> None:
    result = run_tournament(["random", "rules"], ruleset=RULESET, hands=10, seed=7, keep_deals=True)
    for stat in result.stats:
        per_deal = []
        for deal in result.deals:
            hands = [
                sum(s for name, s in zip(seating, scores) if name == stat.name) / seating.count(stat.name)
                for seating, scores in zip(deal.seatings, deal.scores)
            ]
            per_deal.append(sum(hands) / len(hands))
        mean = sum(per_deal) / len(per_deal)
        sd = math.sqrt(sum((v - mean) ** 2 for v in per_deal) / (len(per_deal) - 1))
        half = t_quantile(0.975, len(per_deal) - 1) * sd / math.sqrt(len(per_deal))
        assert stat.deals == 10 and stat.hands == 10 * len(seatings(["random", "rules"], 4))
        assert stat.mean == pytest.approx(mean)
        assert (stat.low, stat.high) == (pytest.approx(mean - half), pytest.approx(mean + half))


def test_correlated_rotations_do_not_narrow_the_interval() -> None:
    # Every rotation of a deal scores the same: four hands per deal carry one deal's information.
    from reversis.commands.tournament import DealResult
    from reversis.commands.tournament.stats import Tally

    tally = Tally(["a", "b"])
    for index, points in enumerate([0, 26, 4, 13, 9, 2]):
        seatings = [["a", "b", "a", "b"], ["b", "a", "b", "a"]] * 2
        scores = [[points, 0, points, 0] if s[0] == "a" else [0, points, 0, points] for s in seatings]
        tally.add(DealResult(index, seatings, scores))
    result = tally.result(RULESET, 0, None, [])
    a = result.stat("a")
    mean, low, high = interval([0.0, 26.0, 4.0, 13.0, 9.0, 2.0])
    assert (a.mean, a.low, a.high) == (pytest.approx(mean), pytest.approx(low), pytest.approx(high))


def test_one_deal_gives_no_interval(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = run_tournament(["random", "rules"], ruleset=reversis.preset("hartenjagen"), hands=1, seed=1)
    assert all(math.isnan(s.low) and math.isnan(s.high) for s in result.stats)
    assert all(math.isnan(p.low) for p in result.pairs)
    table = tournament.format_table(result)
    assert "n/a (1 deal)" in table and "No intervals from a single deal" in table
    out = tmp_path / "one.json"
    assert main(["tournament", "--hands", "1", "--jobs", "1", "--preset", "hartenjagen", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["stats"][0]["low"] is None and data["pairs"][0]["high"] is None
    assert "n/a (1 deal)" in capsys.readouterr().out
