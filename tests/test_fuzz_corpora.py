"""The fuzz corpora, rebuilt by rust/reversis-core/fuzz/seed_corpora.py (rust/reversis-core/FUZZING.md).

The corpora are not committed: the script writes them from the named seeds of fuzz/seeds/, the
conformance suite and the presets, and run_fuzzers.sh runs it where a corpus is missing. Here it
writes them into a temporary folder once; every fuzz target must get inputs it can use, and each
named seed must do what its name says (an ``invalid-…`` one is rejected, any other accepted).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import reversis

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "rust" / "reversis-core" / "fuzz"
SCRIPT = FUZZ / "seed_corpora.py"
SEEDS = FUZZ / "seeds"
#: The fuzz crate's targets, as its manifest names them: the corpora must cover exactly these.
TARGETS = sorted(re.findall(r'^\[\[bin\]\]\nname = "(\w+)"', (FUZZ / "Cargo.toml").read_text(encoding="utf-8"), re.M))


def regenerate(out: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpora as the script writes them, into a fresh folder."""
    out = tmp_path_factory.mktemp("corpus")
    regenerate(out)
    return out


def inputs(folder: Path) -> Iterator[bytes]:
    for path in sorted(folder.iterdir()):
        yield path.read_bytes()


def hex_text(path: Path) -> str:
    """A `.hex` seed without its comments."""
    return " ".join(line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())


def seed_input(path: Path) -> bytes:
    """A named seed as the target receives it: a `.hex` file's digits as bytes, comments dropped,
    and `preset:NAME` as the preset's index in preset_names(), two bytes little-endian."""
    if path.suffix == ".hex":
        names = reversis.preset_names()
        text = re.sub(
            r"preset:([a-z0-9-]+)", lambda m: names.index(m.group(1)).to_bytes(2, "little").hex(), hex_text(path)
        )
        return bytes.fromhex(text)
    return path.read_bytes()


def named_seeds(target: str) -> list[Path]:
    return sorted((SEEDS / target).iterdir())


def test_the_fuzz_crate_has_three_targets() -> None:
    assert TARGETS == ["game_actions", "record_bytes", "ruleset_json"]
    assert sorted(p.stem for p in (FUZZ / "fuzz_targets").glob("*.rs")) == TARGETS


def test_every_target_gets_a_corpus_named_as_libfuzzer_names_its_inputs(corpora: Path) -> None:
    assert sorted(p.name for p in corpora.iterdir()) == TARGETS
    for target in TARGETS:
        files = sorted((corpora / target).iterdir())
        assert len(files) > 20, target
        for path in files:  # the empty input too: a record-bytes case of the suite
            assert path.name == hashlib.sha1(path.read_bytes()).hexdigest(), path


def test_every_named_seed_is_in_its_corpus(corpora: Path) -> None:
    assert sorted(p.name for p in SEEDS.iterdir()) == TARGETS
    for target in TARGETS:
        seeds = named_seeds(target)
        assert len(seeds) >= 3, target
        names = {p.name for p in (corpora / target).iterdir()}
        for path in seeds:
            assert hashlib.sha1(seed_input(path)).hexdigest() in names, path


def test_the_suites_files_are_in_the_corpora_as_they_are(corpora: Path) -> None:
    conformance = ROOT / "conformance"
    wanted = {
        "record_bytes": [p.read_bytes() for p in sorted(conformance.glob("compat/*/records/*"))],
        "ruleset_json": [p.read_bytes() for p in sorted((ROOT / "spec" / "rulesets").glob("*.json"))]
        + [p.read_bytes() for p in sorted(conformance.glob("compat/*/rulesets/*.json"))],
    }
    cases = json.loads((conformance / "cases" / "record-bytes.json").read_text(encoding="utf-8"))["cases"]
    wanted["record_bytes"] += [base64.b64decode(case["data"]) for case in cases]
    for target, contents in wanted.items():
        assert len(contents) > 10, target
        names = {p.name for p in (corpora / target).iterdir()}
        assert {hashlib.sha1(data).hexdigest() for data in contents} <= names, target


def test_a_second_run_adds_nothing(corpora: Path) -> None:
    before = {target: sorted(p.name for p in (corpora / target).iterdir()) for target in TARGETS}
    report = regenerate(corpora)
    assert [line.split(", ")[1].split()[0] for line in report.splitlines()] == ["0"] * len(TARGETS), report
    assert {target: sorted(p.name for p in (corpora / target).iterdir()) for target in TARGETS} == before


def record_outcome(data: bytes) -> str:
    """What fuzz_targets/record_bytes.rs asserts: the bytes replay, or are `invalid-record`."""
    try:
        record = reversis.load_record(data)
        again = reversis.load_record(reversis.dump_record(record, "msgpack"))
        assert again == record
        game = reversis.Game.from_record(record)
    except reversis.ReversisError as error:
        assert error.code == "invalid-record", error
        return "rejected"
    assert reversis.Game.from_record(game.to_record()).state() == game.state()
    return "json" if data[:1] == b"{" else "msgpack"


def test_record_bytes_inputs_replay_or_are_invalid_records(corpora: Path) -> None:
    outcomes = {record_outcome(data) for data in inputs(corpora / "record_bytes")}
    assert outcomes == {"json", "msgpack", "rejected"}


def ruleset_outcome(data: bytes) -> reversis.Ruleset | None:
    """What fuzz_targets/ruleset_json.rs asserts: UTF-8 text that is a ruleset, or `invalid-ruleset`."""
    try:
        return reversis.Ruleset.from_json(data.decode("utf-8"))
    except reversis.ReversisError as error:
        assert error.code == "invalid-ruleset", error
        return None


def test_ruleset_json_inputs_are_rulesets_or_invalid_and_hold_every_preset(corpora: Path) -> None:
    parsed = [ruleset_outcome(data) for data in inputs(corpora / "ruleset_json")]
    assert None in parsed
    valid = [ruleset.to_json() for ruleset in parsed if ruleset is not None]
    for name in reversis.preset_names():
        assert reversis.preset(name).to_json() in valid, name


@pytest.mark.parametrize(("target", "outcome"), [("record_bytes", record_outcome), ("ruleset_json", ruleset_outcome)])
def test_named_seeds_are_rejected_exactly_when_named_invalid(target: str, outcome: Callable[[bytes], object]) -> None:
    for path in named_seeds(target):
        result = outcome(seed_input(path))
        rejected = result is None or result == "rejected"
        assert rejected == path.name.startswith("invalid-"), path.name


# --- game_actions: the header of fuzz_targets/game_actions.rs, read as the target reads it ----------

CARDS = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]


class Reader:
    """The target's `Bytes`: one byte at a time (0 past the end); `below(n)` two bytes LE, mod n."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def next(self) -> int:
        byte = self.data[self.at] if self.at < len(self.data) else 0
        self.at += 1
        return byte

    def below(self, n: int) -> int:
        return 0 if n == 0 else (self.next() | self.next() << 8) % n


def built_ruleset(r: Reader) -> dict[str, object]:
    players = 3 + r.below(5)
    lowest = ["2", "5", "7"][r.below(3)]
    deck = [card for card in CARDS if "23456789TJQKA".index(card[0]) >= "23456789TJQKA".index(lowest)]
    start = r.below(len(deck))
    removed: list[str] = []
    while (len(deck) - len(removed)) % players:
        removed.append(deck[(start + len(removed)) % len(deck)])
    passing = None
    if r.next() % 3:
        cycle = [["left", "right", "across", "hold"][r.below(4)] for _ in range(1 + r.below(4))]
        passing = {"cycle": cycle, "size": r.below(5)}
    points = {}
    for _ in range(r.below(8)):
        value = r.next()
        points[deck[r.below(len(deck))]] = value - 256 if value > 127 else value
    kind = r.next() % 4
    moon = None
    if kind:
        moon = {"scoring": ["add-to-others", "subtract-from-taker", "taker-choice"][kind - 1], "bonus": 1 + r.below(30)}
    opening = deck[r.below(len(deck))] if r.next() % 2 else None
    breaking = ["none", "heart", "heart-or-QS"][r.below(3)]
    return {
        "name": "fuzz",
        "players": players,
        "deck": {"lowest_rank": lowest, "removed": sorted(removed)},
        "passing": passing,
        "opening_card": opening,
        "first_trick_ban": r.next() % 2 == 0,
        "hearts_breaking": breaking,
        "card_points": points,
        "moon": moon,
        "target": 1 + r.below(60),
    }


def game_actions_start(data: bytes) -> tuple[str, reversis.Game]:
    """The ruleset the input picks (a preset's name, or "built") and the game the target starts."""
    r = Reader(data)
    if r.next() % 2 == 0:
        names = reversis.preset_names()
        kind, ruleset = "preset", reversis.preset(names[r.below(len(names))])
    else:
        # A built ruleset the core rejects makes the target return at once: a wasted input.
        kind, ruleset = "built", reversis.Ruleset.from_json(built_ruleset(r))
    seed = None
    if r.next() % 2:
        low = [r.next() for _ in range(4)]
        seed = int.from_bytes(bytes([*low, 0, 0, 0, r.next()]), "little")
    game = reversis.Game(ruleset, seed, hand_number=r.below(10))
    assert r.at < len(data), "no byte left for a step"
    return (ruleset.name if kind == "preset" else kind), game


def test_game_actions_inputs_start_a_game_under_every_preset_and_built_rulesets(corpora: Path) -> None:
    picked = {game_actions_start(data)[0] for data in inputs(corpora / "game_actions")}
    assert picked == {*reversis.preset_names(), "built"}


def test_named_game_actions_seeds_start_the_game_their_names_give() -> None:
    for path in named_seeds("game_actions"):
        assert path.suffix == ".hex", path.name
        picked, game = game_actions_start(seed_input(path))
        assert path.name.startswith(f"{picked}-"), path.name
        # A preset is named, never given by its index, which moves when a preset is added.
        assert (picked != "built") == (f"preset:{picked}" in hex_text(path)), path.name
        players = re.search(r"-(\d)-players-", path.name)
        if players:
            assert game.ruleset.players == int(players.group(1)), path.name
