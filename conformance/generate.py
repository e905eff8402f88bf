"""Generate the suite's bulk files from the reference engine.

    python conformance/generate.py

writes ``seeding/vectors.json`` (seed-to-hands vectors), ``generated/<preset>.json`` (one
recorded match per preset, replayed step by step with the expected legal set, trick winner and
scores) and ``bench/<preset>.json`` (one full hand per preset, for ``reversis bench``).

The expected values here are what ``reversis.reference`` computed. They add volume, not
authority: the hand-written cases in ``cases/`` are derived from the documents, and both
engines must agree with those and with these.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))

from reversis import reference  # noqa: E402

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


def recorded_match(name: str, seed: int, hands: int | None = None, by_ids: bool = False) -> dict[str, Any]:
    """A whole match (or its first ``hands`` hands) of ``name`` as a game case with expectations.

    With ``by_ids`` every decision is applied as its action ids (ACT-2; a pass one selection at a
    time), each preceded by the acting seat and its legal ids, so that ``legal_actions`` is
    checked at every step as ``legal`` is at every play.
    """
    ruleset = reference.preset(name)
    deals = iter(reference.deal_from_seed(ruleset, seed, deals=200))
    game = reference.Game(ruleset)
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    played_hands = 0
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
    return {"ruleset": name, "steps": steps}


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
                    "description": f"{name}: a whole random match from seed {MATCH_SEED} replays exactly",
                    "source": ["D-7", "REC-2", "PLAY-8", "SCORE-1", "MATCH-2"],
                    "kind": "game",
                    **case,
                },
                {
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
                    "description": f"{name}: the first two deals of seed {seed} from hand {hand_number}",
                    "source": ["D-7", "SEED-2", "SEED-3", "SEED-4", "SEED-5", "001_8139d5a4893f2ae5.txt ¶12"],
                    "kind": "seed",
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


def main() -> None:
    """Write every generated file."""
    files = {**generated_files(), **bench_files(), "seeding/vectors.json": vector_file()}
    for relative, content in files.items():
        path = HERE / relative
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(content, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {relative} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
