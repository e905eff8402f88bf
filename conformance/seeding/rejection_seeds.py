"""Seeds whose draws fall in SEED-2's rejected zone, and the vectors built from them.

    python conformance/seeding/rejection_seeds.py           # check seeding/rejection.json
    python conformance/seeding/rejection_seeds.py --write   # (re)write it

SEED-2 draws ``x`` until ``x >= t``, ``t = 2^64 mod n``. The zone ``0 <= x < t`` is tiny (``t`` is
16 for ``n = 52``, 1 for ``n = 51``, 0 for ``n = 32``), so random seeds never reach it and a
plain ``x mod n`` passes every ordinary vector. This script constructs seeds that do reach it:

1. SplitMix64's output step (SEED-1) is a bijection of 64-bit integers: each xor-shift
   ``z ^ (z >> k)`` is undone by repeating it until the shifted part is used up, and each
   multiplication by an odd constant is undone by multiplying by its inverse modulo 2^64.
   So for any wanted draw ``x`` there is exactly one generator state that outputs it.
2. The state before draw ``k`` (counting from 1) is ``seed + k * 0x9E3779B97F4A7C15``, so
   ``seed = unmix(x) - k * 0x9E3779B97F4A7C15 (mod 2^64)`` makes draw ``k`` equal ``x``.
3. Fisher-Yates (SEED-3) calls ``below(len)``, ``below(len - 1)``, ... in turn; while no draw has
   been rejected, draw ``k`` is the one ``below(len - k + 1)`` makes. Choosing ``k`` and ``x < t``
   for that ``n`` gives a seed whose ``k``-th draw is rejected.

The expected deals are computed three ways and must agree: by the independent implementation
of SEED-1 ... SEED-5 below (nothing but this file and the preset files), and, when the
``reversis`` package is importable, by both of its engines (``reversis`` and
``reversis.reference``). The script also checks that each vector tells SEED-2 apart from
``x mod n`` (and from ``x > t``, for the boundary vectors): a generator without the
rejection step fails it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RULESETS = HERE.parents[1] / "spec" / "rulesets"
OUTPUT = HERE / "rejection.json"

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
M1, M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
SUITS, RANKS = "CDHS", "23456789TJQKA"


def mix(z: int) -> int:
    """SEED-1's output step: a generator state to its draw."""
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def _unshift(y: int, k: int) -> int:
    """The ``x`` with ``x ^ (x >> k) == y``."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def unmix(x: int) -> int:
    """The generator state whose draw is ``x`` (the inverse of :func:`mix`)."""
    z = _unshift(x, 31)
    z = (z * pow(M2, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(M1, -1, 1 << 64)) & MASK
    return _unshift(z, 30)


def seed_with_draw(k: int, x: int) -> int:
    """The seed whose ``k``-th draw (from 1) is ``x``."""
    return (unmix(x) - k * GAMMA) & MASK


def draws(seed: int, count: int) -> list[int]:
    """The first ``count`` draws of SEED-1."""
    out, state = [], seed
    for _ in range(count):
        state = (state + GAMMA) & MASK
        out.append(mix(state))
    return out


def threshold(n: int) -> int:
    """SEED-2's ``t``: draws below it are rejected."""
    return (1 << 64) % n


def deck(name: str) -> list[str]:
    """The deck of a preset in sorted order (RS-4, CARD-2), read from its spec file."""
    data = json.loads((RULESETS / f"{name}.json").read_text(encoding="utf-8"))
    low, removed = RANKS.index(data["deck"]["lowest_rank"]), set(data["deck"]["removed"])
    return [r + s for s in SUITS for r in RANKS[low:] if r + s not in removed]


def _removed(name: str) -> list[str]:
    """The cards a preset strips from its deck (RS-4), read from its spec file."""
    return list(json.loads((RULESETS / f"{name}.json").read_text(encoding="utf-8"))["deck"]["removed"])


def players(name: str) -> int:
    """The number of seats of a preset."""
    return int(json.loads((RULESETS / f"{name}.json").read_text(encoding="utf-8"))["players"])


#: Wrong readings of SEED-2 that the vectors must catch: no rejection at all, rejecting ``x <= t``,
#: and ``t`` computed as ``(2^64 - 1) mod n``.
WRONG_RULES = ("modulo", "above", "max")


def deal_by_spec(name: str, seed: int, count: int, hand_number: int = 0, rule: str = "seed-2") -> list[Any]:
    """SEED-2 ... SEED-5 written out; ``rule`` names SEED-2 or one of :data:`WRONG_RULES`."""
    state = [seed]

    def draw() -> int:
        state[0] = (state[0] + GAMMA) & MASK
        return mix(state[0])

    def below(n: int) -> int:
        t = MASK % n if rule == "max" else threshold(n)
        while True:
            x = draw()
            if rule == "modulo" or (rule == "above" and x > t) or (rule in ("seed-2", "max") and x >= t):
                return x % n

    n = players(name)
    order = {card: i for i, card in enumerate(r + s for s in SUITS for r in RANKS)}
    out = []
    for k in range(count):
        cards = deck(name)
        for i in range(len(cards) - 1, 0, -1):
            j = below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        dealer = (hand_number + k) % n
        hands: list[list[str]] = [[] for _ in range(n)]
        for position, card in enumerate(cards):
            hands[(dealer + 1 + position) % n].append(card)
        out.append([sorted(hand, key=order.__getitem__) for hand in hands])
    return out


#: (preset, k, x, what): draw ``k`` of the seed is ``x``; its below(n) has n = len(deck) - k + 1.
TARGETS = [
    ("hearts-4", 1, 15, "the first draw, 15, is just under t = 16 for n = 52 and is rejected"),
    ("hearts-4", 1, 0, "the first draw, 0, is rejected for n = 52"),
    ("hearts-4", 1, 16, "the first draw, 16, equals t for n = 52 and is kept"),
    ("hearts-4", 5, 7, "the fifth draw, 7, is under t = 16 for n = 48 and is rejected"),
    ("hartenjagen", 2, 15, "the second draw, 15, is under t = 16 for n = 31 and is rejected (n = 32 has t = 0)"),
    ("hartenjagen", 1, 0, "the first draw, 0, is kept: n = 32 is a power of two, so t = 0"),
    ("hearts-3", 1, 0, "the first draw, 0, is the one value rejected for n = 51 (t = 1)"),
    ("hearts-7", 1, 1, "the first draw, 1, is under t = 2 for n = 49 and is rejected"),
]


def vectors() -> list[dict[str, Any]]:
    """The cases of ``rejection.json``, checked against SEED-2's wrong variants."""
    cases: list[dict[str, Any]] = []
    seeds_with_draws = set()
    for name, k, x, what in TARGETS:
        seed = seed_with_draw(k, x)
        n = len(deck(name)) - k + 1
        got = draws(seed, k + 1)
        assert got[k - 1] == x, (name, k, x)
        assert all(d >= threshold(len(deck(name)) - i) for i, d in enumerate(got[: k - 1])), (
            "an earlier draw is rejected"
        )
        rejected = x < threshold(n)
        expected = deal_by_spec(name, seed, 2)
        caught = [wrong for wrong in WRONG_RULES if deal_by_spec(name, seed, 2, rule=wrong) != expected]
        assert caught, (name, k, x, "no wrong reading of SEED-2 fails this vector")
        assert ("modulo" in caught) == rejected, (name, k, x)
        if seed not in seeds_with_draws:
            seeds_with_draws.add(seed)
            cases.append(
                {
                    "id": f"seeding/draws-seed-{seed}",
                    "description": f"seed {seed}: draw {k} is {x}, constructed by inverting the output step",
                    "source": ["D-7", "SEED-1", "SEED-2"],
                    "kind": "seed",
                    "seed": seed,
                    "draws": [f"0x{d:016X}" for d in got],
                }
            )
        cases.append(
            {
                "id": f"seeding/{name}-draw-{k}-is-{x}",
                "description": f"{name}: seed {seed}: {what}",
                "source": ["D-7", "SEED-2", "SEED-3", "SEED-4", "SEED-5"],
                "kind": "seed",
                # The deal shuffles the deck's cards (SEED-3): which ones a stripped deck holds is the strip's.
                **({"rules": ["deck"]} if _removed(name) else {}),
                "seed": seed,
                "ruleset": name,
                "hand_number": 0,
                "deals": expected,
            }
        )
    return cases


def check_engines(cases: list[dict[str, Any]]) -> str:
    """Compare the vectors with both engines of the ``reversis`` package, if it is importable."""
    sys.path.insert(0, str(HERE.parents[1] / "python"))
    try:
        import reversis
        from reversis import reference
    except ImportError as error:  # pragma: no cover - a checkout without the built extension
        return f"engines not checked ({error})"
    for case in cases:
        if "draws" in case:
            want = [int(d, 16) for d in case["draws"]]
            for engine in (reversis, reference):
                assert engine.seed_draws(case["seed"], len(want)) == want, (engine.ENGINE, case["description"])
            continue
        for engine in (reversis, reference):
            got = engine.deal_from_seed(engine.preset(case["ruleset"]), case["seed"], len(case["deals"]))
            assert got == case["deals"], (engine.ENGINE, case["description"])
    return "both engines agree"


def document() -> dict[str, Any]:
    """The whole ``rejection.json`` file."""
    return {
        "area": "seeding",
        "description": "seeds whose draws fall in SEED-2's rejected zone, so that x mod n without rejection fails",
        "generated_by": "conformance/seeding/rejection_seeds.py (inverts SEED-1's output step), "
        "checked equal on reversis and reversis.reference",
        "cases": vectors(),
    }


def _dumps(content: dict[str, Any]) -> str:
    """The file's text: one case a line."""
    head = {key: value for key, value in content.items() if key != "cases"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "cases": [']
    cases = [json.dumps(case, ensure_ascii=False, separators=(", ", ": ")) for case in content["cases"]]
    lines.append(",\n".join(cases))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Check (default) or ``--write`` ``rejection.json``."""
    content = document()
    engines = check_engines(content["cases"])
    text = _dumps(content)
    if "--write" in argv:
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.name}: {len(content['cases'])} cases; {engines}")
        return 0
    if not OUTPUT.exists() or json.loads(OUTPUT.read_text(encoding="utf-8")) != content:
        print(f"{OUTPUT.name} differs from what this script derives; run it with --write")
        return 1
    print(f"{OUTPUT.name} is up to date: {len(content['cases'])} cases; {engines}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
