"""``reversis soak``: play many hands per preset through the Rust core and watch speed and memory.

Each preset plays ``--hands`` random hands with :func:`reversis.simulate`, in chunks, checking
every hand's scores add up to what the ruleset allows (the points of every card of the deck, each
copy counted, or a moon's total: :func:`allowed_sums`). A
sample of hands is also played action by action on both engines with a seeded random policy,
comparing the view after every action and the error code of a random rejected action. At each
checkpoint it prints the hands played, the throughput (hands/s) and the peak resident memory
(``resource.getrusage`` maxrss), so one can see memory stays flat as the count grows.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from .common import count, non_negative, positive, preset_name, seed

#: The largest chunk one simulate call plays (the binding's limit, ERR-6).
MAX_CHUNK = 1_000_000


def _peak_mib() -> float:
    try:
        import resource
    except ImportError:  # not on this platform
        return float("nan")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1024 * 1024)


def allowed_sums(ruleset: Any) -> set[int]:
    """Every value a hand's scores may add up to under ``ruleset`` (SCORE-1 … SCORE-3).

    Every card of the deck is captured, each copy of a two-pack deck counted (SCORE-1, D-15):
    a held-over trick goes to the winner of the next trick that is won, and the hand's last
    trick always has a winner, who takes every trick still held over (PLAY-9), so no points
    are left untaken. The sum is then the deck's points, or under a moon (SCORE-2) the cards
    worth less than zero (never touched by it, RS-14) plus the bonus to every other seat or
    minus it for the taker. A soaked hand is a match's first, never a count-down hand
    (MATCH-6, whose scores are clamped totals).
    """
    values = [ruleset.card_points.get(card, 0) for card in ruleset.deck]
    positive = sum(v for v in values if v > 0)
    negative = sum(v for v in values if v < 0)
    sums = {positive + negative}
    if ruleset.moon is not None:
        bonus = ruleset.moon["bonus"]
        scoring = ruleset.moon["scoring"]
        if scoring in ("add-to-others", "taker-choice"):
            sums.add(negative + (ruleset.players - 1) * bonus)
        if scoring in ("subtract-from-taker", "taker-choice"):
            sums.add(negative - bonus)
    return sums


def compare_hand(preset_name: str, seed: int) -> int:
    """Play one seeded hand on both engines with a seeded random policy; return actions played.

    :raises AssertionError: at the first difference between the engines.
    """
    import reversis
    from reversis import reference

    from ..conformance.engines import game_view

    rng = random.Random(seed)
    games = [engine.Game(engine.preset(preset_name), seed=seed) for engine in (reversis, reference)]
    rust, ref = games
    steps = 0
    hand = rust.hand_number
    while rust.phase != "over" and rust.hand_number == hand:
        # Now and then a random (mostly illegal) play: both engines must agree on the outcome.
        if rng.random() < 0.2:
            seat = rng.randrange(rust.ruleset.players)
            action = {"type": "play", "seat": seat, "card": rng.choice(rust.ruleset.deck)}
            outcomes = []
            for game in games:
                try:
                    game.copy().apply(action)
                    outcomes.append("accepted")
                except reversis.ReversisError as error:
                    outcomes.append(error.code)
            assert outcomes[0] == outcomes[1], f"{preset_name} seed {seed}: {action} gives {outcomes}"
        if rust.phase == "pass":
            seat = rust.to_act
            size = rust.ruleset.passing["size"]
            action = {"type": "pass", "seat": seat, "cards": rng.sample(rust.hand(seat), size)}
        elif rust.phase == "play":
            action = {"type": "play", "seat": rust.to_move, "card": rng.choice(rust.legal_plays())}
        elif rust.phase == "moon":
            choice = rng.choice(["add-to-others", "subtract-from-taker"])
            action = {"type": "moon", "seat": rust.moon_taker, "choice": choice}
        else:
            raise AssertionError(f"{preset_name} seed {seed}: unexpected phase {rust.phase}")
        for game in games:
            game.apply(action)
        steps += 1
        assert game_view(rust) == game_view(ref), f"{preset_name} seed {seed}: views differ after {action}"
    return steps


def soak(  # noqa: PLR0917 (the command's options, one for one)
    presets: list[str],
    hands: int,
    chunk: int,
    threads: int,
    sample: int,
    seed: int,
    checkpoints: int,
    out: Any = None,
) -> int:
    """Run the soak; returns the number of problems found (0 when all is well)."""
    import reversis

    out = sys.stdout if out is None else out

    problems = 0
    print(
        f"soak: {hands:,} hands per preset, chunks of {chunk:,}, {threads} thread(s), {sample} compared hands", file=out
    )
    for name in presets:
        ruleset = reversis.preset(name)
        sums = allowed_sums(ruleset)
        every = max(1, hands // max(1, checkpoints))
        done = 0
        next_report = every
        started = time.perf_counter()
        while done < hands:
            size = min(chunk, hands - done)
            result = reversis.simulate(ruleset, size, seed=(seed + done) % 2**64, threads=threads)
            rows: list[list[int]] = result.scores.tolist() if size else []  # type: ignore[assignment]
            bad = sum(1 for row in rows if sum(row) not in sums)
            if len(rows) != size or bad:
                problems += 1
                print(f"  {name}: {bad} of {size} hands have impossible score sums", file=out)
            done += size
            if done >= next_report or done == hands:
                elapsed = time.perf_counter() - started
                rate = done / elapsed if elapsed else float("inf")
                line = f"  {name:<16} {done:>12,} hands {elapsed:8.1f} s {rate:>12,.0f} hands/s"
                print(f"{line} peak {_peak_mib():8.1f} MiB", file=out, flush=True)
                next_report += every
        compared = actions = 0
        rng = random.Random(seed)
        for _ in range(sample):
            hand_seed = rng.randrange(2**64)
            try:
                actions += compare_hand(name, hand_seed)
                compared += 1
            except AssertionError as error:
                problems += 1
                print(f"  {name}: engines differ: {error}", file=out)
        print(f"  {name:<16} compared {compared} hands ({actions} actions) with the reference engine", file=out)
    print(f"soak: {'no problems' if not problems else f'{problems} problem(s)'}; peak {_peak_mib():.1f} MiB", file=out)
    return problems


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the options together (a usage error before any work), or ``None``."""
    if args.sample > args.hands:
        return f"--sample {args.sample:,} is more than --hands {args.hands:,}: a sample is some of the hands played"
    return None


def _run(args: argparse.Namespace) -> int:
    import os

    import reversis

    names = args.preset or reversis.preset_names()
    unknown = [name for name in names if name not in reversis.preset_names()]
    if unknown:
        print(f"reversis soak: error: unknown preset(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    threads = args.threads or min(8, os.cpu_count() or 1)
    problems = soak(names, args.hands, args.chunk, threads, args.sample, args.seed, args.checkpoints)
    return 1 if problems else 0


def register(commands: Any) -> None:
    """Add ``soak`` to the ``reversis`` command."""
    parser = commands.add_parser(
        "soak",
        help="play many hands per preset through the Rust core, reporting speed and memory",
        description="Play --hands random hands per preset through the Rust core in chunks, check every "
        "hand's score total, compare a sample of hands action by action with the reference engine, and "
        "report hands/s and peak memory at checkpoints.",
    )
    parser.add_argument("--hands", type=positive, default=1_000_000, help="hands per preset (default 1,000,000)")
    parser.add_argument("--preset", action="append", type=preset_name, help="a preset (repeatable; default all)")
    parser.add_argument("--chunk", type=count(1, MAX_CHUNK, "--chunk"), default=100_000, help="hands per simulate call")
    parser.add_argument(
        "--threads", type=count(0, 1024, "--threads"), default=0, help="threads per simulate call (default: cores, ≤ 8)"
    )
    parser.add_argument(
        "--sample", type=non_negative, default=20, help="hands per preset compared with the reference (≤ --hands)"
    )
    parser.add_argument("--seed", type=seed, default=1, help="the first seed, 0 to 2**64-1")
    parser.add_argument("--checkpoints", type=positive, default=10, help="progress lines per preset")
    parser.set_defaults(run=_run, check=_check, parser=parser)
