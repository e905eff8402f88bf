"""A quick run of ``reversis soak`` with a small hand count."""

from __future__ import annotations

import io

import pytest

from reversis.cli import main

pytest.importorskip("reversis._core")


def test_soak_plays_compares_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "soak",
            "--hands",
            "2500",
            "--chunk",
            "1000",
            "--sample",
            "2",
            "--preset",
            "hearts-4",
            "--preset",
            "omnibus-4",
            "--checkpoints",
            "2",
            "--threads",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "hands/s" in out and "MiB" in out
    assert "hearts-4" in out and "omnibus-4" in out
    assert "compared 2 hands" in out
    assert "no problems" in out


def test_soak_rejects_an_unknown_preset(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["soak", "--hands", "10", "--sample", "1", "--preset", "nope"])
    assert stopped.value.code == 2  # a usage error, before any hand is played
    assert "no preset named 'nope'" in capsys.readouterr().err


def test_soak_finds_impossible_sums() -> None:
    from reversis.commands import soak

    out = io.StringIO()
    import reversis

    assert soak.allowed_sums(reversis.preset("hearts-4")) == {26, 78, -26}
    assert soak.soak(["hartenjagen"], 300, 100, 1, 1, 5, 1, out=out) == 0, out.getvalue()


@pytest.mark.parametrize("name", ["cancellation-6", "cancellation-8", "cancellation-10"])
def test_two_pack_hands_count_each_copy_of_a_card(name: str) -> None:
    import reversis
    from reversis.commands import soak

    ruleset = reversis.preset(name)
    # Two packs of H 1 and QS 13 (spec/ruleset.md, the presets table): 2 × 26 on the table,
    # the moon's bonus of 52 to each other seat or off the taker.
    assert soak.allowed_sums(ruleset) == {52, (ruleset.players - 1) * 52, -52}
    out = io.StringIO()
    assert soak.soak([name], 400, 200, 1, 1, 5, 1, out=out) == 0, out.getvalue()
