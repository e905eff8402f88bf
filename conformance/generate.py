"""Generate the suite's bulk files from the reference engine.

    python conformance/generate.py

writes ``seeding/vectors.json`` (seed-to-hands vectors), ``generated/<preset>.json`` (one
recorded match per preset, replayed step by step with the expected legal set, trick winner and
scores), ``bench/<preset>.json`` (one full hand per preset, for ``reversis bench``) and
``perft/<preset>.json`` (perft and divide of named positions, spec/perft.md), for every
preset of ``spec/rulesets/``, and rewrites the presets table of ``spec/ruleset.md`` (§Presets,
between its two marker comments) from those files. A file of ``generated/`` or ``bench/`` whose
preset is gone is removed. ``tests/test_generate.py`` checks that the files in the repository
are what this writes.

    python conformance/generate.py --compat 1.1.0

writes the compatibility fixtures of a release, ``compat/<version>/`` (see compat/README.md),
once: the version must be the one the specification states, and an existing release folder is
never overwritten (those files are frozen). It writes nothing else.

The expected values here are what ``reversis.reference`` computed, but for the counts of
``perft/``, which the Rust engine's perft computes (so the extension must be built, with every
preset) and ``tests/test_perft.py`` counts again with the reference's. They add volume, not
authority: the hand-written cases in ``cases/`` are derived from the documents, and both
engines must agree with those and with these.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "python"))

from reversis import reference  # noqa: E402
from reversis.reference.ruleset import SPEC_VERSION  # noqa: E402

GENERATED_BY = "conformance/generate.py with the reference engine (reversis.reference)"
MATCH_SEED = 20261130
VECTOR_SEEDS = (0, 1, 42, 2**64 - 1)


def _random_action(game: reference.Game, rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal action of the seat that must act."""
    if game.phase == "pass":
        assert game.ruleset.passing is not None
        seat = game.awaiting_pass[0]
        return {
            "type": "pass",
            "seat": seat,
            "cards": sorted(rng.sample(game.hand(seat), game.ruleset.passing["size"]), key=reference.card_id),
        }
    if game.phase == "moon":
        return {"type": "moon", "seat": game.moon_taker, "choice": rng.choice(["add-to-others", "subtract-from-taker"])}
    return {"type": "play", "seat": game.to_move, "card": rng.choice(game.legal_plays())}


def _ban_decides(game: reference.Game) -> bool:
    """Whether the first-trick ban (PLAY-5) is what makes the legal set of the seat to move.

    On the hand's first trick, a seat that cannot follow the suit led and holds both a point card
    and a card of no points may play the point card without the ban and not with it; any other
    seat plays the same cards either way.
    """
    if game.phase != "play" or game.tricks_played or not game.trick or game.to_move is None:
        return False
    hand = game.hand(game.to_move)
    led = game.trick[0]["card"][-1]
    points = set(game.ruleset.point_cards)
    void = all(card[-1] != led for card in hand)
    return void and any(card in points for card in hand) and any(card not in points for card in hand)


def _breaking_decides(game: reference.Game) -> bool:
    """Whether what breaks hearts (PLAY-6) is what makes the legal set of the seat to move.

    A lead the opening card does not force, by a seat holding a heart and a non-heart, before
    any heart of the hand is played: hearts are broken there under ``none`` and not under
    ``heart``, so every value of ``hearts_breaking`` gives a legal set that another does not.
    Once a heart is played every value breaks hearts, and a seat of hearts alone (or of no
    heart) leads the same cards either way.
    """
    if game.phase != "play" or game.trick or game.to_move is None:
        return False
    if game.ruleset.opening_card is not None and not game.tricks_played:
        return False
    hearts = [card for card in game.hand(game.to_move) if card.endswith("H")]
    played = [entry["card"] for trick in game.tricks_played for entry in trick["cards"]]
    return 0 < len(hearts) < len(game.hand(game.to_move)) and not any(card.endswith("H") for card in played)


def rules_of(name: str, moon_hands: int, ban_decides: bool, breaking_decides: bool) -> list[str]:
    """A case's ``rules`` (conformance/README.md §House rules): the fields its answers depend on.

    The moon's scoring where a hand of it was a moon (MATCH-6: a count-down hand never is); the
    first-trick ban where it made a legal set (:func:`_ban_decides`); the deck where the preset
    strips cards, since every deal names the cards of its deck; the passing always, since the
    view after every deal shows the hand's phase and pass direction; what breaks hearts where
    it made a legal set (:func:`_breaking_decides`).
    """
    ruleset = reference.preset(name)
    rules = []
    if ruleset.moon is not None and moon_hands:
        rules.append("moon")
    if ban_decides:
        rules.append("first_trick_ban")
    if ruleset.to_json()["deck"]["removed"]:
        rules.append("deck")
    rules.append("passing")
    if breaking_decides:
        rules.append("hearts_breaking")
    return rules


def recorded_match(name: str, seed: int, hands: int | None = None, by_ids: bool = False) -> dict[str, Any]:
    """A whole match (or its first ``hands`` hands) of ``name`` as a game case with expectations.

    With ``by_ids`` every decision is applied as its action ids (ACT-2; a pass one selection at a
    time), each preceded by the acting seat and its legal ids, so that ``legal_actions`` is
    checked at every step as ``legal`` is at every play. The case's ``rules`` say which house
    rules its answers depend on (:func:`rules_of`).
    """
    ruleset = reference.preset(name)
    deals = iter(reference.deal_from_seed(ruleset, seed, deals=200))
    game = reference.Game(ruleset)
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    played_hands = 0
    moon_hands = 0
    ban_decides = breaking_decides = False
    while game.phase != "over":
        if game.phase == "deal":
            if hands is not None and played_hands == hands:
                break
            deal = {"type": "deal", "hands": next(deals)}
            steps.append({"action": deal})
            game.apply(deal)
            steps.append(
                {
                    "expect": {
                        "phase": game.phase,
                        "pass_direction": game.pass_direction,
                        "dealer": game.dealer,
                        "hands": [game.hand(s) for s in range(ruleset.players)],
                    }
                }
            )
            continue
        action = _random_action(game, rng)
        ban_decides = ban_decides or _ban_decides(game)
        breaking_decides = breaking_decides or _breaking_decides(game)
        tricks_before = len(game.tricks_played)
        hand_before = game.hand_number
        if by_ids:
            for action_id in reference.action_ids(action):
                expect: dict[str, Any] = {"to_act": game.to_act, "legal_actions": game.legal_actions()}
                if game.phase == "play":
                    expect["legal"] = game.legal_plays()
                steps.append({"expect": expect})
                game.apply_action(action_id)
                steps.append({"action_id": action_id})
        else:
            if game.phase == "play":
                steps.append({"expect": {"to_move": game.to_move, "legal": game.legal_plays()}})
            game.apply(action)
            steps.append({"action": action})
        if game.phase == "play" and len(game.tricks_played) > tricks_before:
            steps.append({"expect": {"last_trick": game.tricks_played[-1], "points": game.points}})
        if game.phase == "play" and game.trick == [] and not game.tricks_played and game.actions[-1]["type"] == "pass":
            steps.append({"expect": {"hands": [game.hand(s) for s in range(ruleset.players)]}})
        moon_hands += sum(1 for event in game.events if event["type"] == "hand" and event["moon_taker"] is not None)
        if game.hand_number != hand_before or game.phase == "over":
            played_hands += 1
            steps.append(
                {
                    "expect": {
                        "hand_scores": game.hand_scores,
                        "scores": game.scores,
                        "winners": game.winners,
                        "phase": game.phase,
                    }
                }
            )
    steps.append({"record": True})
    rules = rules_of(name, moon_hands, ban_decides, breaking_decides)
    return {**({"rules": rules} if rules else {}), "ruleset": name, "steps": steps}


def generated_files() -> dict[str, dict[str, Any]]:
    """The ``generated/`` files: one recorded whole match per preset."""
    files = {}
    for name in reference.preset_names():
        case = recorded_match(name, MATCH_SEED)
        by_ids = recorded_match(name, MATCH_SEED + 2, by_ids=True)
        files[f"generated/{name}.json"] = {
            "area": "generated",
            "description": f"a recorded whole {name} match, every step checked",
            "generated_by": GENERATED_BY,
            "cases": [
                {
                    "id": f"generated/{name}-match",
                    "description": f"{name}: a whole random match from seed {MATCH_SEED} replays exactly",
                    "source": ["D-7", "REC-2", "PLAY-8", "SCORE-1", "MATCH-2"],
                    "kind": "game",
                    **case,
                },
                {
                    "id": f"generated/{name}-match-by-ids",
                    "description": f"{name}: a whole random match from seed {MATCH_SEED + 2} by action ids, "
                    "the legal ids checked at every step",
                    "source": ["D-7", "ACT-2", "ACT-3", "PLAY-8", "REC-2"],
                    "kind": "game",
                    **by_ids,
                },
            ],
        }
    return files


def bench_files() -> dict[str, dict[str, Any]]:
    """The ``bench/`` files: one full hand per preset, actions only."""
    files = {}
    for name in reference.preset_names():
        case = recorded_match(name, MATCH_SEED + 1, hands=1)
        steps = [step for step in case["steps"] if "action" in step]
        files[f"bench/{name}.json"] = {
            "area": "bench",
            "description": f"one full {name} hand, for timing",
            "generated_by": GENERATED_BY,
            "benchmark": True,
            "cases": [
                {
                    "id": f"bench/{name}-hand",
                    "description": f"{name}: one full hand",
                    "source": ["D-7", "PLAY-8"],
                    "kind": "game",
                    "benchmark": True,
                    "ruleset": name,
                    "steps": steps,
                }
            ],
        }
    return files


def vector_file() -> dict[str, Any]:
    """The ``seeding/vectors.json`` file."""
    cases: list[dict[str, Any]] = []
    for seed in VECTOR_SEEDS:
        cases.append(
            {
                "id": f"seeding/draws-seed-{seed}",
                "description": f"the first eight SplitMix64 draws from seed {seed}",
                "source": ["D-7", "SEED-1"],
                "kind": "seed",
                "seed": seed,
                "draws": [f"0x{draw:016X}" for draw in reference.seed_draws(seed, 8)],
            }
        )
    for name in reference.preset_names():
        ruleset = reference.preset(name)
        for seed, hand_number in ((0, 0), (42, 0), (2**64 - 1, ruleset.players + 1)):
            cases.append(
                {
                    "id": f"seeding/{name}-seed-{seed}-hand-{hand_number}",
                    "description": f"{name}: the first two deals of seed {seed} from hand {hand_number}",
                    "source": ["D-7", "SEED-2", "SEED-3", "SEED-4", "SEED-5", "001_8139d5a4893f2ae5.txt ¶12"],
                    "kind": "seed",
                    # A seeded deal shuffles the deck's cards (SEED-3): which ones is the strip's.
                    **({"rules": ["deck"]} if ruleset.to_json()["deck"]["removed"] else {}),
                    "seed": seed,
                    "ruleset": name,
                    "hand_number": hand_number,
                    "deals": reference.deal_from_seed(ruleset, seed, 2, hand_number),
                }
            )
    return {
        "area": "seeding",
        "description": "seed-to-hands vectors (SEED-1 to SEED-5): the one place where a generator is what is tested",
        "generated_by": GENERATED_BY,
        "cases": cases,
    }


# --- perft/<preset>.json: perft and divide of named positions (spec/perft.md) ----------------------

#: The seed that names the positions of the perft cases.
PERFT_SEED = 1
PERFT_GENERATED_BY = (
    "conformance/generate.py: positions from the reference engine (reversis.reference), counts from the Rust "
    "engine (reversis.Game.perft and divide); tests/test_perft.py counts them again with the reference's perft"
)
#: The most requests the runner may make to walk a case through new_game, apply, view and undo
#: (about 0.2 ms each through a Python driver): a walkable case stays under about 0.1 s.
WALK_REQUESTS = 400
#: The deepest a case goes, in decisions.
MAX_CASE_DEPTH = 6
#: The most sets of cards a hand may have to pass for a case of two passes.
PASS_SETS = 300


def _walk_requests(name: str, start: dict[str, Any], steps: list[dict[str, Any]], decisions: int) -> int:
    """About the requests the runner makes to walk ``decisions`` deep from the position (conformance/perft.py).

    Every position above the last level is viewed, and every one below the first stepped into
    and back out of (``apply``, ``undo``): three requests for each, counted with the Rust
    engine's perft; the last level is counted from its parent's view.
    """
    import reversis

    game = reversis.Game(reversis.preset(name), **start)
    for step in steps:
        game.apply(step["action"])
    return 3 * sum(game.perft(depth) for depth in range(decisions))


def _phases(game: reference.Game, depth: int, unit: str) -> list[str]:
    """The phases in which the sequences perft counts make decisions (PERFT-2, PERFT-3)."""
    from reversis.reference.perft import decisions

    seen: set[str] = set()

    def visit(left: int) -> None:
        choices = decisions(game)
        if left == 0 or not choices:
            return
        seen.add(game.phase)
        if left == 1 and unit == "decisions":
            return  # every decision here ends a sequence: nothing below is counted
        for _, action in choices:
            completes = action["type"] == "play" and len(game.trick) == game.ruleset.players - 1
            game.apply(action)
            visit(left - 1 if unit == "decisions" else left - completes)
            game.undo()

    visit(depth)
    return [phase for phase in ("pass", "play", "moon") if phase in seen]


def _perft_case(name: str, short: str, description: str, source: list[str], **position: Any) -> dict[str, Any]:
    """One perft case: ``position`` holds its ``start``, ``steps``, ``depth`` and ``unit``.

    With ``written_deal``, the seeded start becomes an unseeded one whose first step deals the
    seed's hands (DEAL-3, SEED-5): the same position within the hand, open to an
    implementation that deals only what it is given.
    """
    import reversis

    start, steps, depth, unit = position["start"], position["steps"], position["depth"], position["unit"]
    if position.get("written_deal"):
        hand = start["hand_number"]
        (hands,) = reference.deal_from_seed(reference.preset(name), start["seed"], 1, hand)
        start, steps = {"hand_number": hand}, [{"action": {"type": "deal", "hands": hands}}, *steps]
    counted = reversis.Game(reversis.preset(name), **start)
    played = reference.Game(reference.preset(name), **start)
    for step in steps:
        counted.apply(step["action"])
        played.apply(step["action"])
    return {
        "id": f"perft/{name}-{short}",
        "description": description,
        "source": source,
        "kind": "perft",
        "ruleset": name,
        "start": start,
        "steps": steps,
        "depth": depth,
        "unit": unit,
        "phases": _phases(played, depth, unit),
        "count": counted.perft(depth, unit),
        "divide": counted.divide(depth, unit),
    }


def _deepest_walkable(name: str, start: dict[str, Any], steps: list[dict[str, Any]], most: int) -> int:
    """The deepest depth up to ``most`` whose walk stays within :data:`WALK_REQUESTS` (at least 1)."""
    depth = 1
    while depth < most and _walk_requests(name, start, steps, depth + 1) <= WALK_REQUESTS:
        depth += 1
    return depth


def perft_cases(name: str) -> list[dict[str, Any]]:
    """The perft cases of one preset: its first lead, a trick, the end of a hand, and its passes.

    Each position is named by :data:`PERFT_SEED`, a hand number and the random actions (seeded
    by the preset's name) that reach it. The cases in phase ``play`` are as deep as a walk of
    :data:`WALK_REQUESTS` allows; those that pass need the driver's ``perft`` command.
    """
    ruleset = reference.preset(name)
    n = ruleset.players
    rng = random.Random(f"perft {name}")
    cases = []

    def advance(game: reference.Game, steps: list[dict[str, Any]], until: Any) -> None:
        while not until(game):
            action = _random_action(game, rng)
            game.apply(action)
            steps.append({"action": action})

    # A hand that holds, where there is one in the first cycle; else hand 0 with its passes made.
    hand = next((h for h in range(4) if reference.Game(ruleset, PERFT_SEED, hand_number=h).phase == "play"), 0)
    start = {"seed": PERFT_SEED, "hand_number": hand}
    game = reference.Game(ruleset, PERFT_SEED, hand_number=hand)
    steps: list[dict[str, Any]] = []
    advance(game, steps, lambda g: g.phase == "play")
    depth = _deepest_walkable(name, start, steps, MAX_CASE_DEPTH)
    lead = f"{name}: {depth} decisions from the first lead of the deal of seed {PERFT_SEED} to hand {hand}"
    source = ["PERFT-1", "PERFT-2", "PERFT-4", "PLAY-1", "PLAY-8", "D-19"]
    cases.append(
        _perft_case(
            name, "lead", lead, source, start=start, steps=list(steps), depth=depth, unit="decisions", written_deal=True
        )
    )
    # The second trick, from as early a card of it as a walk of the trick allows: one trick is as
    # many decisions as the trick has cards to come.
    advance(game, steps, lambda g: len(g.tricks_played) == 1)
    advance(game, steps, lambda g: _walk_requests(name, start, steps, n - len(g.trick)) <= WALK_REQUESTS)
    trick = f"{name}: the rest of the second trick, {len(game.trick)} of its cards played, in tricks"
    source = ["PERFT-1", "PERFT-3", "PERFT-4", "PLAY-4", "PLAY-7", "D-19"]
    cases.append(
        _perft_case(
            name, "trick", trick, source, start=start, steps=list(steps), depth=1, unit="tricks", written_deal=True
        )
    )
    # The rest of the hand from within its last two tricks, and the first decision of the next
    # hand, dealt from the seed: as much of the two tricks as a walk allows.
    advance(game, steps, lambda g: len(g.tricks_played) == ruleset.hand_size - 2 and not g.trick)

    def to_come(game: reference.Game) -> int:
        return (ruleset.hand_size - len(game.tricks_played)) * n - len(game.trick) + 1

    advance(game, steps, lambda g: _walk_requests(name, start, steps, to_come(g)) <= WALK_REQUESTS)
    which = "second-to-last" if len(game.tricks_played) == ruleset.hand_size - 2 else "last"
    end = f"{name}: hand {hand} from {len(game.trick)} cards into its {which} trick, and the next hand's first decision"
    source = ["PERFT-1", "PERFT-2", "PERFT-4", "SCORE-2", "DEAL-3", "MATCH-2", "D-19"]
    depth = to_come(game)
    cases.append(_perft_case(name, "end", end, source, start=start, steps=list(steps), depth=depth, unit="decisions"))
    if reference.Game(ruleset, PERFT_SEED).phase == "pass":
        assert ruleset.passing is not None
        zero = {"seed": PERFT_SEED, "hand_number": 0}
        # Two passes where a hand has a few hundred sets to pass, else one (the reference
        # engine counts every set of the second pass once for each of the first).
        size = ruleset.passing["size"]
        sets = math.comb(ruleset.hand_size, size)
        depth = 2 if sets <= PASS_SETS else 1
        which = "two passes" if depth == 2 else "pass"
        passes = f"{name}: the first {which} of seed {PERFT_SEED}'s hand 0, {sets} sets of {size} cards"
        source = ["PERFT-1", "PERFT-2", "PERFT-4", "PASS-2", "D-19"]
        cases.append(
            _perft_case(
                name, "pass", passes, source, start=zero, steps=[], depth=depth, unit="decisions", written_deal=True
            )
        )
        game = reference.Game(ruleset, PERFT_SEED)
        steps = []
        advance(game, steps, lambda g: len(g.awaiting_pass) == 1)
        exchange = f"{name}: the last pass of hand 0, the exchange and the first lead"
        source = ["PERFT-1", "PERFT-2", "PERFT-4", "PASS-3", "PLAY-1", "D-19"]
        cases.append(
            _perft_case(
                name,
                "exchange",
                exchange,
                source,
                start=zero,
                steps=steps,
                depth=2,
                unit="decisions",
                written_deal=True,
            )
        )
    return cases


def perft_files() -> dict[str, dict[str, Any]]:
    """The ``perft/`` files: the perft cases of every preset."""
    return {
        f"perft/{name}.json": {
            "area": "perft",
            "description": f"perft and divide of named {name} positions (spec/perft.md)",
            "generated_by": PERFT_GENERATED_BY,
            "cases": perft_cases(name),
        }
        for name in reference.preset_names()
    }


COMPAT_DESCRIPTION = (
    "the outcome of each frozen record of records/: replayed from its ruleset and actions alone, it ends in "
    "this phase, hand, totals, per-hand scores and winners; its deals are those deal_from_seed(ruleset, "
    "deal_seed) gives from hand 0 (SEED-5)"
)


def _record_text(record: dict[str, Any]) -> str:
    """A record as JSON text (REC-1) laid out for reading: one line per key and per action."""
    lines = []
    for key, value in record.items():
        if key == "actions":
            items = [f"    {json.dumps(action, ensure_ascii=False)}" for action in value]
            lines.append('  "actions": [\n' + ",\n".join(items) + "\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _expected_text(version: str, expected: dict[str, dict[str, Any]]) -> str:
    """``expected.json``: one line per field of each record's outcome."""
    entries = []
    for name, fields in expected.items():
        body = ",\n".join(f"      {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in fields.items())
        entries.append(f"    {json.dumps(name)}: {{\n{body}\n    }}")
    return (
        "{\n"
        f'  "spec_version": {json.dumps(version)},\n'
        f'  "description": {json.dumps(COMPAT_DESCRIPTION)},\n'
        '  "records": {\n' + ",\n".join(entries) + "\n  }\n}\n"
    )


def compat_record(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first match of ``generated/<name>.json`` as a record (REC-1, seed null), and its outcome.

    The match is replayed in the reference engine from its ruleset and actions alone; its final
    expectations in the generated file and its seeded deals (SEED-5) are checked on the way.
    """
    source = f"generated/{name}.json"
    case = json.loads((HERE / source).read_text(encoding="utf-8"))["cases"][0]
    assert case["ruleset"] == name and str(MATCH_SEED) in case["description"], source
    game = reference.Game(reference.preset(name))
    for step in case["steps"]:
        if "action" in step:
            game.apply(step["action"])
    assert game.phase == "over", f"{source}: the match does not end"
    last = next(step["expect"] for step in reversed(case["steps"]) if "scores" in step.get("expect", {}))
    assert (last["scores"], last["hand_scores"], last["winners"]) == (game.scores, game.hand_scores, game.winners)
    record = game.to_record()
    assert record["seed"] is None
    deals = [action["hands"] for action in record["actions"] if action["type"] == "deal"]
    assert reference.deal_from_seed(game.ruleset, MATCH_SEED, len(deals)) == deals, source
    outcome = {
        "record": f"records/{name}.json",
        "from": f"conformance/{source}",
        "deal_seed": MATCH_SEED,
        "actions": len(record["actions"]),
        "hands": len(game.hand_scores),
        "phase": game.phase,
        "hand_number": game.hand_number,
        "scores": game.scores,
        "hand_scores": game.hand_scores,
        "winners": game.winners,
    }
    return record, outcome


def compat_files(version: str, names: list[str]) -> dict[str, bytes]:
    """The files of ``compat/<version>/`` for the presets ``names``, by path inside that folder."""
    files: dict[str, bytes] = {}
    expected: dict[str, dict[str, Any]] = {}
    for name in sorted(names):
        files[f"rulesets/{name}.json"] = (ROOT / "spec" / "rulesets" / f"{name}.json").read_bytes()
        record, expected[name] = compat_record(name)
        text = _record_text(record)
        assert reference.load_record(text.encode()) == record
        files[f"records/{name}.json"] = text.encode()
        files[f"records/{name}.msgpack"] = reference.dump_record(record, "msgpack")
    files["expected.json"] = _expected_text(version, expected).encode()
    sums = "".join(f"{hashlib.sha256(files[path]).hexdigest()}  {path}\n" for path in sorted(files))
    files["SHA256SUMS"] = sums.encode()
    return files


def write_compat(version: str) -> None:
    """Write ``compat/<version>/`` for every preset, once (compat/README.md)."""
    if version != SPEC_VERSION:
        sys.exit(f"the specification is at {SPEC_VERSION}; only its own fixtures can be written, not {version}")
    folder = HERE / "compat" / version
    if folder.exists():
        sys.exit(f"{folder.relative_to(HERE)} exists: compatibility fixtures are frozen and never regenerated")
    files = compat_files(version, reference.preset_names())
    for relative, data in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote compat/{version}/{relative} ({len(data)} bytes)")


# --- the presets table of spec/ruleset.md §Presets ------------------------------------------------

RULESET_MD = ROOT / "spec" / "ruleset.md"
PRESETS = ROOT / "spec" / "rulesets"
TABLE_START = "<!-- presets table: written by conformance/generate.py from spec/rulesets/ -->"
TABLE_END = "<!-- end of the presets table -->"
TABLE_HEAD = (
    "| name | players | deck | passing | opening | first-trick ban | breaking | points | moon | target |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
)
RANKS = "23456789TJQKA"
DIRECTIONS = {"left": "L", "right": "R", "across": "A", "hold": "hold"}


def _number(value: int) -> str:
    """An integer as the table writes it, with a minus sign (U+2212) below zero."""
    return f"\u2212{-value}" if value < 0 else str(value)


def _deck_cell(deck: dict[str, Any], cancellation: dict[str, str] | None = None) -> str:
    """RS-4: ``52``, or ``7–A (32)`` from a higher lowest rank; then ``− 2D 3D …`` for the removed cards.

    The removed cards are listed as 002 §Configuração removes them: diamonds, then clubs (then
    hearts, spades), each suit from its lowest rank. Two packs (RS-21) write ``2 × 52``, and
    cancellation (RS-22) follows as ``; cancelling, last trick: leader``.
    """
    lowest = deck["lowest_rank"]
    cell = "52" if lowest == "2" else f"{lowest}\u2013A ({4 * (13 - RANKS.index(lowest))})"
    if deck.get("packs", 1) == 2:
        cell = f"2 \u00d7 {cell}"
    if deck["removed"]:
        removed = sorted(deck["removed"], key=lambda card: ("DCHS".index(card[1]), RANKS.index(card[0])))
        cell += " \u2212 " + " ".join(removed)
    if cancellation is not None:
        cell += f"; cancelling, last trick: {cancellation['last_trick']}"
    return cell


def _points_cell(data: dict[str, Any]) -> str:
    """RS-9: the hearts of the deck as one entry where they follow a rule, then the other cards.

    ``H 1`` where every heart of the deck is worth the same; ``H 2…14 by rank`` where each is worth
    its rank (2 to 14 for the ace); otherwise each heart on its own. The other cards follow in
    the order of the file's ``card_points``.
    """
    points = data["card_points"]
    lowest = RANKS.index(data["deck"]["lowest_rank"])
    packs = data["deck"].get("packs", 1)
    hearts = [rank + "H" for rank in RANKS[lowest:] if data["deck"]["removed"].count(rank + "H") < packs]
    values = [points.get(card) for card in hearts]
    parts = []
    grouped = bool(hearts) and None not in values
    if grouped and len(set(values)) == 1:
        parts.append(f"H {_number(values[0])}")
    elif grouped and values == [RANKS.index(card[0]) + 2 for card in hearts]:
        parts.append(f"H {values[0]}\u2026{values[-1]} by rank")
    else:
        grouped = False
    parts += [f"{card} {_number(value)}" for card, value in points.items() if not (grouped and card in hearts)]
    return ", ".join(parts) or "none"


def _moon_cell(moon: dict[str, Any] | None, sun: dict[str, Any] | None) -> str:
    """RS-10, RS-24, RS-23: ``taker-choice 26``, ``, needs every scoring card``, ``; sun … 52``."""
    cell = "none" if moon is None else f"{moon['scoring']} {moon['bonus']}"
    if moon is not None and moon.get("needs", "point-cards") != "point-cards":
        cell += ", needs every scoring card"
    if sun is not None:
        cell += f"; sun {sun['scoring']} {sun['bonus']}"
    return cell


def _target_cell(data: dict[str, Any]) -> str:
    """RS-11, RS-20, RS-25, RS-26: ``100``, ``50, then count-down``, ``none, 6 deals``."""
    cell = "none" if data["target"] is None else str(data["target"])
    if data.get("count_down", False):
        end = data.get("count_down_end", "stop-at-zero")
        cell += ", then count-down" + ("" if end == "stop-at-zero" else f" ({end})")
    if data.get("deals") is not None:
        cell += f", {data['deals']} deals"
    return cell


def preset_row(data: dict[str, Any]) -> str:
    """One row of the presets table, every cell from the preset's JSON."""
    passing = data["passing"]
    moon = data["moon"]
    cells = [
        f"`{data['name']}`",
        str(data["players"]),
        _deck_cell(data["deck"], data.get("cancellation")),
        "none" if passing is None else " ".join(DIRECTIONS[d] for d in passing["cycle"]) + f", {passing['size']}",
        data["opening_card"] or "free (D-9)",
        "yes" if data["first_trick_ban"] else "no",
        data["hearts_breaking"],
        _points_cell(data),
        _moon_cell(moon, data.get("sun")),
        _target_cell(data),
    ]
    return "| " + " | ".join(cells) + " |\n"


def presets_table() -> str:
    """The presets table: its head and one row per file of spec/rulesets/, by name."""
    paths = sorted(PRESETS.glob("*.json"), key=lambda path: path.stem)
    rows = [preset_row(json.loads(path.read_text(encoding="utf-8"))) for path in paths]
    return TABLE_HEAD + "".join(rows)


def ruleset_md(text: str) -> str:
    """The text of spec/ruleset.md with the presets table between its markers written anew."""
    start, end = text.find(TABLE_START), text.find(TABLE_END)
    if start < 0 or end < start or text.count(TABLE_START) != 1 or text.count(TABLE_END) != 1:
        raise ValueError(f"{RULESET_MD.name} must hold the lines {TABLE_START} and {TABLE_END} once each, in order")
    return text[: start + len(TABLE_START)] + "\n\n" + presets_table() + "\n" + text[end:]


def _json_text(content: dict[str, Any]) -> str:
    return json.dumps(content, ensure_ascii=False, separators=(",", ":")) + "\n"


def outputs() -> dict[Path, str]:
    """Every file the plain command writes, by path, with the text it writes there."""
    files = {**generated_files(), **bench_files(), **perft_files(), "seeding/vectors.json": vector_file()}
    texts = {HERE / relative: _json_text(content) for relative, content in files.items()}
    texts[RULESET_MD] = ruleset_md(RULESET_MD.read_text(encoding="utf-8"))
    return texts


def main(argv: list[str] | None = None) -> None:
    """Write every generated file, or with ``--compat`` one release's compatibility fixtures."""
    parser = argparse.ArgumentParser(description="Generate the suite's bulk files from the reference engine.")
    parser.add_argument(
        "--compat",
        metavar="VERSION",
        help="write compat/VERSION/ (the version the spec states) and nothing else; refused if it exists",
    )
    args = parser.parse_args(argv)
    if args.compat is not None:
        write_compat(args.compat)
        return
    files = outputs()
    for path, text in files.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT).as_posix()} ({path.stat().st_size} bytes)")
    # generated/ and bench/ hold one file per preset and nothing else: a removed preset's go.
    for folder in (HERE / "generated", HERE / "bench", HERE / "perft"):
        for path in sorted(folder.glob("*.json")):
            if path not in files:
                path.unlink()
                print(f"removed {path.relative_to(ROOT).as_posix()} (no such preset)")


if __name__ == "__main__":
    main()
