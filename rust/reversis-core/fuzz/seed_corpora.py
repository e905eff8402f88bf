#!/usr/bin/env python3
"""Writes the corpora of the three fuzz targets from the named seeds, the conformance suite and the presets.

    source .venv/bin/activate               # or any environment with the `reversis` package
    python rust/reversis-core/fuzz/seed_corpora.py [--out DIR] [TARGET...]

The corpora are not committed: this script rebuilds them, and run_fuzzers.sh runs it for a
target whose corpus is missing. Files go to DIR/<target>/<sha1 of the content> (DIR is
fuzz/corpus, ignored by git, by default), the names libFuzzer itself gives, so running the
script again, or after `cargo fuzz cmin`, only adds the seeds that are missing and never
duplicates one. Nothing is deleted.

- every target: the named seeds of fuzz/seeds/<target>/, each file one input, named for what it
  exercises (`invalid-…` ones must be rejected); a `.hex` file is the input's bytes in hex, two
  digits a byte, `#` starting a comment, so that binary inputs stay readable, and `preset:NAME`
  standing for the preset's index in preset_names() as the target's two-byte choice, so that a
  seed plays the preset it names whatever presets are added beside it.
- record_bytes: every record of the suite, in JSON and MessagePack: the `record` of `record`
  cases (invalid ones too, encoded here since `dump_record` refuses them), the base64 `data` of
  `record-bytes` cases as it is, the frozen records of conformance/compat/*/records as they
  are, and the record of every `game` case (conformance/cases and conformance/generated, whose
  matches are games, not records) after replaying its steps.
- ruleset_json: every ruleset object of the suite (valid and invalid, from `ruleset` cases,
  `game` cases and records), the presets of spec/rulesets and the frozen compat rulesets.
- game_actions: byte strings laid out the way fuzz_targets/game_actions.rs reads them, that
  pick each preset (seeded and with explicit deals, at several hand numbers) and a few rulesets
  built from the bytes, then play a match of legal actions with some illegal and mangled ones
  mixed in. The script replays every step in the `reversis` package (the same Rust engine) to
  know which choices exist, so each seed plays what it was written to play.

Stdlib and the installed `reversis` package only; deterministic (fixed random seeds).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import itertools
import json
import random
import re
import struct
import sys
from pathlib import Path
from typing import Any, Iterator

try:
    import reversis
except ImportError:
    sys.exit("seed_corpora.py needs the reversis package: run it with the Python of an environment that has it")

FUZZ = Path(__file__).resolve().parent
SEEDS = FUZZ / "seeds"
ROOT = FUZZ.parents[2]
CASES = ROOT / "conformance" / "cases"
GENERATED = ROOT / "conformance" / "generated"
COMPAT = ROOT / "conformance" / "compat"
PRESETS = ROOT / "spec" / "rulesets"

TARGETS = ("record_bytes", "ruleset_json", "game_actions")


# --- MessagePack, for records that dump_record refuses (stdlib has no encoder) ---------------


def msgpack(value: Any) -> bytes:
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 0x80:
            return bytes([value])
        if -32 <= value < 0:
            return struct.pack("b", value)
        if 0 <= value:
            for tag, fmt, top in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32), (0xCF, ">Q", 1 << 64)):
                if value < top:
                    return bytes([tag]) + struct.pack(fmt, value)
            raise ValueError(f"integer {value} too large for MessagePack")
        for tag, fmt, low in ((0xD0, ">b", -(1 << 7)), (0xD1, ">h", -(1 << 15)), (0xD2, ">i", -(1 << 31)), (0xD3, ">q", -(1 << 63))):
            if value >= low:
                return bytes([tag]) + struct.pack(fmt, value)
        raise ValueError(f"integer {value} too small for MessagePack")
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        raw = value.encode("utf-8", "surrogatepass")
        n = len(raw)
        if n < 32:
            head = bytes([0xA0 | n])
        elif n < 1 << 8:
            head = b"\xd9" + struct.pack(">B", n)
        elif n < 1 << 16:
            head = b"\xda" + struct.pack(">H", n)
        else:
            head = b"\xdb" + struct.pack(">I", n)
        return head + raw
    if isinstance(value, (list, tuple)):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 else (b"\xdc" + struct.pack(">H", n) if n < 1 << 16 else b"\xdd" + struct.pack(">I", n))
        return head + b"".join(msgpack(v) for v in value)
    if isinstance(value, dict):
        n = len(value)
        head = bytes([0x80 | n]) if n < 16 else (b"\xde" + struct.pack(">H", n) if n < 1 << 16 else b"\xdf" + struct.pack(">I", n))
        return head + b"".join(msgpack(k) + msgpack(v) for k, v in value.items())
    raise TypeError(f"cannot encode {type(value).__name__}")


# --- the named seeds ---------------------------------------------------------------------------


PRESET_TOKEN = re.compile(r"preset:([a-z0-9-]+)")


def seed_bytes(path: Path) -> bytes:
    """A named seed's input: the file's bytes, or for a `.hex` file the bytes its hex digits spell.

    In a `.hex` file `preset:NAME` is the index of the preset NAME in preset_names(), written as
    the target's `below(n)` reads it (two bytes, little-endian).
    """
    if path.suffix != ".hex":
        return path.read_bytes()
    lines = path.read_text(encoding="utf-8").splitlines()
    names = reversis.preset_names()

    def preset_index(match: re.Match[str]) -> str:
        if match.group(1) not in names:
            raise ValueError(f"{path}: no preset named {match.group(1)}")
        return struct.pack("<H", names.index(match.group(1))).hex()

    digits = PRESET_TOKEN.sub(preset_index, " ".join(line.split("#", 1)[0] for line in lines))
    try:
        return bytes.fromhex(digits)
    except ValueError as error:
        raise ValueError(f"{path}: not hex bytes: {error}") from None


def named_seeds(target: str) -> Iterator[bytes]:
    for path in sorted((SEEDS / target).iterdir()):
        if path.is_file():
            yield seed_bytes(path)


# --- the suite ---------------------------------------------------------------------------------


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.json")) + sorted(GENERATED.glob("*.json"))


def cases() -> Iterator[dict[str, Any]]:
    for path in case_files():
        yield from json.loads(path.read_text(encoding="utf-8"))["cases"]


def ruleset_of(value: Any) -> Any:
    return reversis.preset(value) if isinstance(value, str) else reversis.Ruleset.from_json(value)


def run_steps(game: Any, steps: list[dict[str, Any]]) -> None:
    """Apply a case's actions, undos and action ids; the expected errors are tried and ignored."""
    for step in steps:
        try:
            if "action" in step:
                game.apply(step["action"])
            elif "action_id" in step:
                game.apply_action(step["action_id"], step.get("seat"))
            elif step.get("undo"):
                game.undo()
        except Exception:  # an expected rejection leaves the game as it was
            pass


def game_of_case(case: dict[str, Any]) -> Any | None:
    start = case.get("start") or {}
    try:
        game = reversis.Game(
            ruleset_of(case["ruleset"]),
            start.get("seed"),
            hand_number=start.get("hand_number") or 0,
            scores=start.get("scores"),
        )
    except Exception:
        return None
    run_steps(game, case.get("steps", []))
    return game


def encodings(record: Any) -> list[bytes]:
    """A record as JSON and MessagePack: dump_record's bytes when it takes it, else our own."""
    out = []
    for fmt in ("json", "msgpack"):
        try:
            out.append(bytes(reversis.dump_record(record, fmt)))
        except Exception:
            pass
    if len(out) < 2:  # an invalid record: encode it as it stands
        out.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass"))
        try:
            out.append(msgpack(record))
        except (TypeError, ValueError):
            pass
    return out


def record_seeds() -> Iterator[bytes]:
    for case in cases():
        kind = case["kind"]
        if kind == "record":
            yield from encodings(case["record"])
            try:
                game = reversis.Game.from_record(case["record"])
            except Exception:
                continue
            run_steps(game, case.get("steps", []))
            yield from encodings(game.to_record())
        elif kind == "record-bytes":
            raw = base64.b64decode(case["data"])
            yield raw
            try:
                yield from encodings(reversis.load_record(raw))
            except Exception:
                pass
        elif kind == "game":
            game = game_of_case(case)
            if game is not None:
                yield from encodings(game.to_record())
    for path in sorted(COMPAT.glob("*/records/*")):
        raw = path.read_bytes()
        yield raw
        try:
            yield from encodings(reversis.load_record(raw))
        except Exception:
            pass


def ruleset_seeds() -> Iterator[bytes]:
    def text(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")

    for case in cases():
        if "ruleset" in case and not isinstance(case["ruleset"], str):
            yield text(case["ruleset"])
        record = case.get("record")
        if isinstance(record, dict) and "ruleset" in record:
            yield text(record["ruleset"])
        if "canonical" in case:
            yield text(case["canonical"])
    for path in sorted(PRESETS.glob("*.json")) + sorted(COMPAT.glob("*/rulesets/*.json")):
        yield path.read_bytes()
        yield text(json.loads(path.read_text(encoding="utf-8")))
    for name in reversis.preset_names():
        yield text(reversis.preset(name).to_json())


# --- game_actions: the byte layout of fuzz_targets/game_actions.rs --------------------------

CARDS = [r + s for s in "CDHS" for r in "23456789TJQKA"] + ["XX"]
CYCLES = ["left", "right", "across", "hold"]
MOONS = ["add-to-others", "subtract-from-taker", "taker-choice"]
BREAKING = ["none", "heart", "heart-or-QS"]
JUNK: list[Any] = [None, -1, 2**64 - 1, 1.5, "ZZ", [], {}, True, "2C", ["2C", "2C", "3C"]]
MANGLED_KEYS = ["type", "seat", "card", "cards", "hands", "choice", "extra"]


class Writer:
    """Writes the bytes that make the target's `Bytes` reader return the chosen values."""

    def __init__(self) -> None:
        self.data = bytearray()

    def next(self, value: int) -> int:
        self.data.append(value & 0xFF)
        return value & 0xFF

    def below(self, n: int, index: int) -> int:
        """`Bytes::below(n)`: two little-endian bytes, taken modulo n; nothing when n is 0."""
        if n == 0:
            return 0
        assert 0 <= index < n <= 0x10000
        self.data += struct.pack("<H", index)
        return index


def built_ruleset(w: Writer, rng: random.Random, **want: Any) -> dict[str, Any]:
    """`built_ruleset`: writes the choices (those in `want`, else random) and returns the JSON."""

    players = 3 + w.below(5, want["players"] - 3 if "players" in want else rng.randrange(5))
    lowest = ["2", "5", "7"][w.below(3, ["2", "5", "7"].index(want["lowest"]) if "lowest" in want else rng.randrange(3))]
    low_index = [c[0] for c in CARDS].index(lowest)
    deck = [c for c in CARDS[:52] if CARDS.index(c) % 13 >= low_index]

    def removed_from(start: int) -> list[str]:
        removed: list[str] = []
        while (len(deck) - len(removed)) % players != 0:
            removed.append(deck[(start + len(removed)) % len(deck)])
        return sorted(removed)  # Rust's sort_unstable on &str: byte order, as Python's

    # The target names point cards and the opening card from the whole deck, removed cards
    # too (which makes the ruleset invalid and the input useless): start the removal where it
    # spares the cards asked for.
    keep = {card for card, _ in want.get("points", [])} | {want.get("opening")}
    starts = [s for s in range(len(deck)) if not keep & set(removed_from(s))]
    removed = removed_from(w.below(len(deck), rng.choice(starts)))
    left = [c for c in deck if c not in removed]
    passing: Any
    cycle_choice = want.get("cycle", "random")
    if cycle_choice is None:
        w.next(0)
        passing = None
    else:
        w.next(1)
        cycle = cycle_choice if cycle_choice != "random" else [rng.choice(CYCLES) for _ in range(1 + rng.randrange(4))]
        w.below(4, len(cycle) - 1)
        for c in cycle:
            w.below(4, CYCLES.index(c))
        size = w.below(5, want.get("size", 1 + rng.randrange(4)))
        passing = {"cycle": cycle, "size": size}
    points: dict[str, int] = {}
    wanted_points = want.get("points", None)
    if wanted_points is None:
        wanted_points = [(rng.choice(left), rng.randrange(-128, 128)) for _ in range(rng.randrange(8))]
    w.below(8, len(wanted_points))
    for card, value in wanted_points:
        value = struct.unpack("b", bytes([w.next(value & 0xFF)]))[0]
        points[deck[w.below(len(deck), deck.index(card))]] = value
    moon_choice = want.get("moon", rng.choice([None] + MOONS))
    if moon_choice is None:
        w.next(0)
        moon = None
    else:
        w.next(1 + MOONS.index(moon_choice))
        moon = {"scoring": moon_choice, "bonus": 1 + w.below(30, want.get("bonus", 1 + rng.randrange(30)) - 1)}
    opening_choice = want.get("opening", rng.choice([None, rng.choice(left)]))
    if opening_choice is None or opening_choice not in deck:
        w.next(0)
        opening = None
    else:
        w.next(1)
        opening = deck[w.below(len(deck), deck.index(opening_choice))]
    breaking = BREAKING[w.below(3, BREAKING.index(want["breaking"]) if "breaking" in want else rng.randrange(3))]
    ban = w.next(0 if want.get("ban", rng.random() < 0.5) else 1) % 2 == 0
    target = 1 + w.below(60, want.get("target", 1 + rng.randrange(60)) - 1)
    return {
        "name": "fuzz",
        "players": players,
        "deck": {"lowest_rank": lowest, "removed": removed},
        "passing": passing,
        "opening_card": opening,
        "first_trick_ban": ban,
        "hearts_breaking": breaking,
        "card_points": points,
        "moon": moon,
        "target": target,
    }


def legal_action(game: Any, w: Writer, rng: random.Random) -> dict[str, Any] | None:
    phase = game.phase
    if phase == "pass":
        awaiting = game.awaiting_pass
        seat = awaiting[w.below(len(awaiting), rng.randrange(len(awaiting)))]
        passing = game.ruleset.passing
        if passing is None:
            return None
        hand = list(game.hand(seat))
        cards = []
        for _ in range(passing["size"]):
            cards.append(hand.pop(w.below(len(hand), rng.randrange(len(hand)) if hand else 0)))
        return {"type": "pass", "seat": seat, "cards": cards}
    if phase == "play":
        legal = list(game.legal_plays())
        card = legal[w.below(len(legal), rng.randrange(len(legal)))]
        if game.to_move is None:
            return None
        return {"type": "play", "seat": game.to_move, "card": card}
    if phase == "moon":
        choice = ["add-to-others", "subtract-from-taker"][w.below(2, rng.randrange(2))]
        if game.moon_taker is None:
            return None
        return {"type": "moon", "seat": game.moon_taker, "choice": choice}
    if phase == "deal":
        deck = list(game.ruleset.deck)
        n = game.ruleset.players
        hands: list[list[str]] = [[] for _ in range(n)]
        seat = 0
        while deck:
            hands[seat % n].append(deck.pop(w.below(len(deck), rng.randrange(len(deck)))))
            seat += 1
        return {"type": "deal", "hands": hands}
    return None


def mangle(action: dict[str, Any], w: Writer, rng: random.Random) -> dict[str, Any]:
    key = MANGLED_KEYS[w.below(len(MANGLED_KEYS), rng.randrange(len(MANGLED_KEYS)))]
    action = dict(action)
    if w.next(rng.randrange(256)) % 4 == 0:
        action.pop(key, None)
    else:
        action[key] = JUNK[w.below(len(JUNK), rng.randrange(len(JUNK)))]
    return action


def game_input(
    rng: random.Random,
    preset_index: int | None = None,
    custom: dict[str, Any] | None = None,
    seed: int | None = None,
    hand_number: int = 0,
    steps: int = 2000,
    noise: float = 0.05,
) -> bytes:
    """One game_actions input; `noise` is the share of illegal (op 5, 7) and mangled (op 6) steps."""
    w = Writer()
    if preset_index is not None:
        w.next(0)
        names = reversis.preset_names()
        ruleset = reversis.preset(names[w.below(len(names), preset_index)])
    else:
        w.next(1)
        ruleset = reversis.Ruleset.from_json(built_ruleset(w, rng, **(custom or {})))
    if seed is None:
        w.next(0)
    else:
        assert seed & ~(0xFFFFFFFF | (0xFF << 56)) == 0, "the target reads bytes 0-3 and 7 of a seed"
        w.next(1)
        for shift in (0, 8, 16, 24, 56):
            w.next(seed >> shift)
    game = reversis.Game(ruleset, seed, hand_number=w.below(10, hand_number))
    for _ in range(steps):
        if game.phase == "over":
            break
        roll = rng.random()
        if roll >= noise:
            w.next(rng.randrange(5))  # ops 0-4: a legal action
            action = legal_action(game, w, rng) or {"type": "play", "seat": 0, "card": "2C"}
        elif roll < noise / 3:
            w.next(5)
            action = {"type": "play", "seat": w.below(8, rng.randrange(8)), "card": CARDS[w.below(53, rng.randrange(53))]}
        elif roll < 2 * noise / 3:
            w.next(6)
            base = legal_action(game, w, rng) or {"type": "moon", "seat": 0, "choice": "x"}
            action = mangle(base, w, rng)
        else:
            w.next(7)
            seat = w.below(8, rng.randrange(8))
            action = {"type": "pass", "seat": seat, "cards": [CARDS[w.below(53, rng.randrange(53))] for _ in range(w.below(5, rng.randrange(5)))]}
        try:
            game.apply(action)
        except Exception:
            pass
    return bytes(w.data)


CUSTOM: list[dict[str, Any]] = [
    {"players": 3, "lowest": "2", "cycle": ["left", "right", "hold"], "size": 3, "points": [("QS", 13), ("AH", 1), ("KH", 1)], "moon": "add-to-others", "bonus": 15, "target": 50},
    {"players": 4, "lowest": "7", "cycle": None, "points": [("QS", 5)], "moon": None, "breaking": "none", "opening": "7C", "target": 30},
    {"players": 5, "lowest": "2", "cycle": ["left", "right", "hold"], "size": 2, "points": [("QS", 13), ("2H", 1), ("TH", 1), ("JH", 1)], "moon": "taker-choice", "bonus": 16, "breaking": "heart-or-QS", "target": 40},
    {"players": 6, "lowest": "5", "cycle": ["hold", "left"], "size": 1, "points": [("QS", 13), ("JD", -10)], "moon": "subtract-from-taker", "bonus": 10, "target": 20},
    {"players": 7, "lowest": "2", "cycle": ["right", "left"], "size": 1, "points": [("KH", 2), ("QH", 3)], "moon": "taker-choice", "breaking": "heart", "ban": True, "target": 25},
    {"players": 4, "lowest": "2", "cycle": ["left", "right", "across", "hold"], "size": 3, "points": [("QS", 13), ("JD", -10), ("TC", 1)], "moon": "taker-choice", "bonus": 26, "opening": "2C", "ban": True, "breaking": "heart-or-QS", "target": 60},
    {"players": 4, "lowest": "5", "cycle": ["right"], "size": 4, "points": [("AH", -128), ("KS", 127)], "moon": "add-to-others", "target": 15},
    {"players": 3, "lowest": "7", "cycle": None, "points": [("7H", -5)], "moon": None, "opening": "AS", "breaking": "heart", "target": 10},
]


def game_seeds() -> Iterator[bytes]:
    rng = random.Random(20261201)
    for index, _ in enumerate(reversis.preset_names()):
        yield game_input(rng, preset_index=index, seed=index + 1)  # a whole match, seeded
        yield game_input(rng, preset_index=index, seed=0xFFFFFFFF | (0xFF << 56), hand_number=3, noise=0.2)
        yield game_input(rng, preset_index=index, seed=None, steps=150)  # explicit deals
        yield game_input(rng, preset_index=index, seed=7, hand_number=rng.randrange(10), steps=60, noise=0.0)
    for custom in CUSTOM:
        yield game_input(rng, custom=custom, seed=rng.randrange(1 << 32))
        yield game_input(rng, custom=custom, seed=None, steps=120, noise=0.1)
    for _ in range(8):  # random built rulesets, short games
        try:
            yield game_input(rng, custom={}, seed=rng.randrange(1 << 32), steps=200, noise=0.1)
        except reversis.ReversisError:  # the bytes built a ruleset the target would skip
            continue


# --- main ----------------------------------------------------------------------------------------


def write(out: Path, target: str, seeds: Iterator[bytes]) -> tuple[int, int, int]:
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    seen: set[str] = set()
    added = 0
    size = 0
    for data in seeds:
        name = hashlib.sha1(data).hexdigest()
        if name in seen:
            continue
        seen.add(name)
        size += len(data)
        path = folder / name
        if not path.exists():
            path.write_bytes(data)
            added += 1
    return len(seen), added, size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=FUZZ / "corpus", help="corpus root (default: fuzz/corpus)")
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"some of {', '.join(TARGETS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = set(args.targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown target(s): {', '.join(sorted(unknown))}")
    makers = {"record_bytes": record_seeds, "ruleset_json": ruleset_seeds, "game_actions": game_seeds}
    for target in args.targets or TARGETS:
        seeds, added, size = write(args.out, target, itertools.chain(named_seeds(target), makers[target]()))
        print(f"{target}: {seeds} seeds ({size} bytes), {added} new in {args.out / target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
