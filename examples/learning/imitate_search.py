r"""Behaviour cloning of the search player: a network to start the learned player from.

    python examples/learning/imitate_search.py --hands 10000 --playouts 1000 --jobs 2 \
        --data search.npz --export imitation.rvnn
    python examples/learning/imitate_search.py --data-only --hands 10000 --data search.npz
    python examples/learning/imitate_search.py --train-only --data search.npz --export imitation.rvnn

Every seat of each hand is a :class:`~reversis.players.SearchPlayer`; for each decision the
data keep the OBS-3 encoding of the acting seat, its legal ids, the id chosen and the score the
hand gave that seat in the end (what ``--value`` fits the network's value to). A pass, which
the search player returns as three cards at once, becomes three successive select decisions
(ids 52 + card) applied one at a time through ``Game.apply_action``, the ``selected`` block of
the encoding growing, exactly as ``VectorEnv`` presents a pass. For those the data also keep
the set of ids that were right (the pass's cards not yet selected), since the order of the
three is not the search's choice. Hand ``k`` of a data set is hand number ``k mod (players ×
cycle)`` of a game seeded from ``--seed`` and ``k``, so dealers and pass directions rotate, and
the data are the same whatever ``--jobs``.

The network (the MLP of ``ppo_vector.py``: 1435 raw integers, ReLU hidden layers, 106 logits)
is trained with a masked cross-entropy: minus the log of the probability, over the legal ids,
of choosing a right one. Hands are split into training and validation; each epoch prints the
validation loss and how often the network's choice (its best legal id) is a right one.

With ``--value`` the network has a value too (spec/learned.md, LRN-7): one more output fitted
to each decision's hand score by the squared error in hands' points (the largest hand score),
weighted by the option's number, and exported as a format version 2 network; each epoch then
prints the value's mean absolute error in points as well. The result is exported as ``.rvnn``
(``--export``) and as a checkpoint (``--save``), either of which
``ppo_vector.py --init`` fine-tunes, for example against the rule-based player.

A label says which card the search chose, not by how much: ``--estimates`` also records the
search's estimate of every legal card (its expected margin, :func:`record_hand`), and ``--soft
TEMPERATURE`` fits those decisions to the softmax of minus the estimates over the temperature
(points) instead, so that a near tie teaches near-equal odds and a blunder a low one; each epoch
then prints the search's regret of the network's cards (how many points of margin its choices
give up by the search's estimates). ``--init`` starts the training from a network or checkpoint.

Needs the ``learn`` extra (``torch``, ``numpy``); ``--export`` needs ``reversis.players.learned``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

import reversis
from reversis.encoding import ENCODING_VERSION, encode_observation
from reversis.players import SearchPlayer, observe

# The network, its export and the evaluation are the PPO recipe's: the two share a file format.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ppo_vector import Policy, card_points_total, evaluate, export_rvnn, init_hidden, input_scale, load_init

NUM_ACTIONS = reversis.NUM_ACTIONS
SELECT = 52
#: The observation is kept as int8 (a sixth of int32): every OBS-3 value of a hand from zero
#: totals fits, and one that does not is refused rather than wrapped.
INT8 = np.iinfo(np.int8)


def hand_seed(seed: int, hand: int) -> int:
    """The game seed of hand ``hand`` of a data set (SplitMix64's mixing, so near seeds differ)."""
    value = (seed * 0x9E3779B97F4A7C15 + hand + 1) & (2**64 - 1)
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return value ^ (value >> 31)


#: The networks followed (``--follow``), read once per process.
_FOLLOWED: dict[str, Any] = {}


def followed(path: str) -> Any:
    """The network of the ``.rvnn`` file at ``path``, evaluated in Rust, read once per process."""
    if path not in _FOLLOWED:
        _FOLLOWED[path] = reversis._core.LearnedPolicy.from_file(path)
    return _FOLLOWED[path]


def record_hand(
    ruleset: Any,
    game_seed: int,
    hand_number: int,
    playouts: int,
    follow: str | None = None,
    *,
    estimates: bool = False,
) -> dict[str, np.ndarray]:
    """One hand with a search player in every seat, a row per decision in each column.

    The game is ``Game(ruleset, seed=game_seed, hand_number=hand_number)``; the player of seat
    ``s`` is seeded with ``game_seed + s``. The columns: ``observation``, OBS-3 (int32);
    ``legal`` and ``right``, the legal ids and the search's right ids (bool, 106 each);
    ``chosen``, the id applied; ``score``, the acting seat's score for the hand (the ``hand``
    event's ``scores``).

    With ``follow`` (a ``.rvnn`` file) every decision is still labelled by the search, but the
    id applied is the network's (LRN-4): the hand goes where the network takes it, so the data
    hold the positions the network meets (DAgger's on-policy data), each with the search's answer.

    With ``estimates`` the players decide through
    :meth:`~reversis.players.search.SearchPlayer.act_reviewed` (the same choices, at about twice
    the time), and the column ``estimate`` (float16, 106 a
    row) holds, for a card decision between two or more cards, each legal card's expected
    margin (the seat's points for the hand minus the others' mean, lower is better); NaN where
    there is none (other ids, passes, a forced card).
    """
    network = followed(follow) if follow else None
    game = reversis.Game(ruleset, seed=game_seed, hand_number=hand_number)
    players = [SearchPlayer(playouts=playouts, seed=game_seed + seat) for seat in range(int(ruleset.players))]
    encodings: list[Any] = []
    legal: list[np.ndarray] = []
    chosen: list[int] = []
    right: list[np.ndarray] = []
    seats: list[int] = []
    margins: list[np.ndarray] = []
    no_estimate = np.full(NUM_ACTIONS, np.nan, dtype=np.float16)

    def search(seat: int) -> tuple[dict[str, Any], np.ndarray]:
        """The search player's action for ``seat``, and the cards' estimates where recorded."""
        observation = observe(game, seat)
        if not estimates:
            return players[seat].act(observation), no_estimate
        action, review = players[seat].act_reviewed(observation)
        row = no_estimate
        if review is not None and observation.phase == "play":
            row = no_estimate.copy()
            for estimate in review["estimates"]:
                row[reversis.action_ids(estimate["action"])[0]] = estimate["margin"]
        return action, row

    def decide(seat: int, right_ids: list[int], estimate: np.ndarray) -> int:
        """Record the decision with the search's ``right_ids`` and ``estimate``; apply the first (or the network's)."""
        encoding = encode_observation(observe(game, seat))
        encodings.append(encoding)
        legal_ids = game.legal_actions(seat)
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[legal_ids] = True
        legal.append(mask)
        targets = np.zeros(NUM_ACTIONS, dtype=bool)
        targets[right_ids] = True
        right.append(targets)
        margins.append(estimate)
        action_id = right_ids[0] if network is None else int(network.decide(encoding, legal_ids))
        chosen.append(action_id)
        seats.append(seat)
        game.apply_action(action_id, seat)
        return action_id

    while True:
        seat = game.to_act
        action, row = search(seat)
        ids = reversis.action_ids(action)
        if action["type"] == "pass":
            # One select at a time (ascending, as action_ids lists them): any card of the pass
            # not yet selected is a right choice, since the search chose the three together.
            # The pass's selects have no estimates.
            selected: list[int] = []
            for _ in ids:
                selected.append(decide(seat, [i for i in ids if i not in selected], row))
        else:
            decide(seat, ids, row)
        ended = [event for event in game.events if event["type"] == "hand"]
        if ended:
            break
    scores = np.asarray(ended[0]["scores"], dtype=np.int16)
    columns = {
        "observation": np.array(encodings, dtype=np.int32),
        "legal": np.array(legal),
        "chosen": np.array(chosen, dtype=np.int64),
        "right": np.array(right),
        "score": scores[np.array(seats, dtype=np.int64)],
    }
    if estimates:
        columns["estimate"] = np.array(margins)
    return columns


def _record(job: tuple[str, int, int, int, str | None, bool]) -> tuple[int, dict[str, np.ndarray]]:
    """Record hand ``hand`` of a data set (a worker's task); the encodings as int8."""
    name, seed, hand, playouts, follow, estimates = job
    ruleset = reversis.preset(name)
    passing = ruleset.passing
    cycle = int(ruleset.players) * (len(passing["cycle"]) if passing else 1)
    columns = record_hand(ruleset, hand_seed(seed, hand), hand % cycle, playouts, follow, estimates=estimates)
    encodings = columns["observation"]
    if encodings.min() < INT8.min or encodings.max() > INT8.max:
        raise ValueError(f"hand {hand}: an OBS-3 value outside int8 ({encodings.min()} to {encodings.max()})")
    columns["observation"] = encodings.astype(np.int8)
    return hand, columns


def generate(
    ruleset: str,
    hands: int,
    playouts: int,
    seed: int,
    jobs: int,
    *,
    follow: str | None = None,
    estimates: bool = False,
) -> dict[str, np.ndarray]:
    """Record ``hands`` hands on ``jobs`` processes, following ``follow`` if given (:func:`record_hand`).

    The columns of the data set, in hand order, ``hand`` numbering each row's hand.
    """
    tasks = [(ruleset, seed, hand, playouts, follow, estimates) for hand in range(hands)]
    started = time.perf_counter()
    results: list[Any] = []
    if jobs == 1:
        results = [_record(task) for task in tasks]
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for done, result in enumerate(pool.imap_unordered(_record, tasks, chunksize=4), start=1):
                results.append(result)
                if done % max(1, hands // 10) == 0:
                    print(f"  {done:,} of {hands:,} hands in {time.perf_counter() - started:.0f} s", flush=True)
    results.sort(key=lambda result: result[0])
    data = {"hand": np.concatenate([np.full(len(r[1]["chosen"]), r[0], dtype=np.int32) for r in results])}
    for key in results[0][1]:
        data[key] = np.concatenate([r[1][key] for r in results])
    return data


def save(path: Path, data: dict[str, np.ndarray], ruleset: str, playouts: int, seed: int) -> None:
    """Write the data set as a compressed ``.npz``, with what made it."""
    meta = {"ruleset": ruleset, "playouts": playouts, "seed": seed, "encoding_version": ENCODING_VERSION}
    np.savez_compressed(path, **data, **{f"meta_{key}": np.asarray(value) for key, value in meta.items()})


def load(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The columns and the metadata of a data set written by :func:`save`.

    :raises SystemExit: for a file of another encoding version.
    """
    with np.load(path) as archive:
        data = {key: archive[key] for key in archive.files if not key.startswith("meta_")}
        meta = {key[5:]: archive[key].item() for key in archive.files if key.startswith("meta_")}
    if meta.get("encoding_version") != ENCODING_VERSION:
        raise SystemExit(f"{path}: encoding version {meta.get('encoding_version')}, not {ENCODING_VERSION}")
    return data, meta


def join(datasets: list[tuple[dict[str, np.ndarray], dict[str, Any]]]) -> tuple[dict[str, np.ndarray], str]:
    """Data sets of :func:`load` as one, each one's hands numbered after the last one's; and their ruleset.

    :raises SystemExit: for data sets of different rulesets or columns.
    """
    rulesets = {str(meta["ruleset"]) for _, meta in datasets}
    if any("estimate" in data for data, _ in datasets):
        # Data recorded without estimates join as decisions without them (their labels alone).
        datasets = [
            ({**data, "estimate": np.full(data["legal"].shape, np.nan, dtype=np.float16)}, meta)
            if "estimate" not in data
            else (data, meta)
            for data, meta in datasets
        ]
    columns = {tuple(sorted(data)) for data, _ in datasets}
    if len(rulesets) > 1 or len(columns) > 1:
        raise SystemExit(f"the data sets differ: rulesets {sorted(rulesets)}, columns {sorted(columns)}")
    parts: dict[str, list[np.ndarray]] = {key: [] for key in datasets[0][0]}
    offset = 0
    for data, _ in datasets:
        for key, column in data.items():
            parts[key].append(column + offset if key == "hand" else column)
        offset += int(data["hand"].max()) + 1 if len(data["hand"]) else 0
    return {key: np.concatenate(columns) for key, columns in parts.items()}, rulesets.pop()


def set_loss(logits: torch.Tensor, legal: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
    """Masked cross-entropy with a set of right ids: −log P(a right id), the softmax over the legal ids."""
    legal_logits = logits.masked_fill(~legal, -1e9)
    right_logits = logits.masked_fill(~right, -1e9)
    return (torch.logsumexp(legal_logits, dim=1) - torch.logsumexp(right_logits, dim=1)).mean()


def soft_loss(logits: torch.Tensor, legal: torch.Tensor, margins: torch.Tensor, temperature: float) -> torch.Tensor:
    """Cross-entropy against the search's estimates: the target is softmax(−margin / temperature) over the legal ids.

    A card half a point worse than the best keeps e^(−0.5 / temperature) of its weight, so the
    network learns how much worse each card is, not only which the search chose.
    """
    target = torch.softmax((-margins / temperature).masked_fill(~legal, -1e9), dim=1)
    log_policy = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
    return -(target * log_policy).sum(dim=1).mean()


def hand_points(ruleset: Any) -> float:
    """The scale of a hand's scores: the points of every card, the moon's bonus where larger."""
    moon = ruleset.moon
    return max(card_points_total(ruleset), float(moon["bonus"]) if moon else 0.0)


def train(
    data: dict[str, np.ndarray],
    ruleset: Any,
    hidden: list[int],
    *,
    epochs: int,
    lr: float,
    seed: int,
    value_weight: float | None = None,
    temperature: float | None = None,
    init: Path | None = None,
) -> tuple[Policy, list[tuple[float, float]]]:
    """Fit a :class:`Policy` to the data; the validation (loss, agreement) after each epoch.

    With ``value_weight`` the policy has a value head, fitted to the data's ``score`` column by
    the squared error in units of :func:`hand_points`, weighted so against the set loss. With
    ``temperature`` the decisions that have estimates are fitted by :func:`soft_loss` instead of
    the set loss, and each epoch prints the search's regret of the network's cards too (the
    estimated margin of its card minus the best one's). ``init`` (a ``.rvnn`` network or a
    checkpoint) is where the weights start. A tenth of the hands (at least one) is held out for
    validation.

    :raises SystemExit: for ``value_weight`` and a data set without scores (recorded before they
        were kept), ``temperature`` and one without estimates, or an ``init`` of other sizes.
    """
    if value_weight is not None and "score" not in data:
        raise SystemExit("--value needs a data set with the hands' scores: record it again")
    if temperature is not None and "estimate" not in data:
        raise SystemExit("--soft needs a data set with the search's estimates: record it with --estimates")
    torch.manual_seed(seed)
    validation = _held_out(data, seed)
    training = np.flatnonzero(~validation)
    if len(training) == 0:
        raise SystemExit("too few hands to train on: give at least two")
    scale = hand_points(ruleset)
    policy = Policy(hidden, input_scale(ruleset), value=value_weight is not None, value_scale=scale)
    if init is not None:
        load_init(init, policy, None)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    observation = torch.as_tensor(data["observation"])
    legal, right = torch.as_tensor(data["legal"]), torch.as_tensor(data["right"])
    score = torch.as_tensor(data["score"].astype(np.float32)) if value_weight is not None else None
    margins = torch.as_tensor(data["estimate"].astype(np.float32)) if temperature is not None else None
    # The decisions fitted to the estimates: those that have them (card decisions of two or more cards).
    estimated = margins.isfinite().any(dim=1) if margins is not None else torch.zeros(len(legal), dtype=torch.bool)
    # soft_loss masks the illegal ids itself; their NaN must not reach its arithmetic.
    targets = margins.nan_to_num(0.0) if margins is not None else None

    def losses(rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        outputs = policy.outputs(observation[rows].float())
        logits = outputs[:, :NUM_ACTIONS]
        # Each kind of decision weighs in by its share of the rows.
        soft = estimated[rows]
        loss = logits.new_zeros(())
        if not soft.all():
            hard = rows[~soft]
            loss = loss + set_loss(logits[~soft], legal[hard], right[hard]) * float((~soft).float().mean())
        if targets is not None and temperature is not None and soft.any():
            rows_soft = rows[soft]
            soft_part = soft_loss(logits[soft], legal[rows_soft], targets[rows_soft], temperature)
            loss = loss + soft_part * float(soft.float().mean())
        if score is None or value_weight is None:
            return loss, logits, None
        error = outputs[:, NUM_ACTIONS] - score[rows]
        return loss + value_weight * ((error / scale) ** 2).mean(), logits, error

    baseline = 0.0
    if score is not None:
        # What the value has to beat: the held-out scores' distance from the training scores' mean.
        rows = np.flatnonzero(validation)
        baseline = float((score[rows] - score[training].mean()).abs().mean())
    history: list[tuple[float, float]] = []
    for epoch in range(epochs):
        policy.train()
        for batch in torch.as_tensor(training)[torch.randperm(len(training))].split(512):
            loss, _, _ = losses(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        policy.eval()
        rows = torch.as_tensor(np.flatnonzero(validation))
        with torch.no_grad():
            total, logits, error = losses(rows)
            loss = float(total)
            best = logits.masked_fill(~legal[rows], -1e9).argmax(dim=1)
            agreement = float(right[rows].gather(1, best[:, None]).float().mean())
        history.append((loss, agreement))
        regret = ""
        if margins is not None:
            soft = estimated[rows]
            row_margins = margins[rows][soft]
            chosen_margin = row_margins.gather(1, best[soft][:, None])[:, 0]
            least = row_margins.nan_to_num(float("inf")).min(dim=1).values
            regret = f", regret {float((chosen_margin - least).mean()):.3f} points a card decision"
        value = ""
        if error is not None:
            value = f", value off by {float(error.abs().mean()):.2f} points (a constant: {baseline:.2f})"
        print(
            f"epoch {epoch + 1}: validation loss {loss:.4f}, choice among the search's {agreement:.1%}{regret}{value}",
            flush=True,
        )
    return policy, history


def _held_out(data: dict[str, np.ndarray], seed: int) -> np.ndarray:
    """Whether each row's hand is among the tenth (at least one) held out for validation."""
    hands = np.unique(data["hand"])
    held_out = np.random.default_rng(seed).choice(hands, size=max(1, len(hands) // 10), replace=False)
    return np.isin(data["hand"], held_out)


def _positive(text: str) -> int:
    """A whole number of at least 1, else a usage error."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _weight(text: str) -> float:
    """A loss weight: a finite number above 0, else a usage error."""
    try:
        weight = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(weight) and weight > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: a weight is a finite number above 0")
    return weight


def _sizes(text: str) -> list[int]:
    """Hidden layer sizes, comma-separated: ``128,128``."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of sizes such as 128,128") from None
    if not sizes or any(size < 1 or size > 4096 for size in sizes) or len(sizes) > 7:
        raise argparse.ArgumentTypeError(f"{text!r}: 1 to 7 sizes, each 1 to 4096")
    return sizes


def parser() -> argparse.ArgumentParser:
    """The command line of the recipe."""
    p = argparse.ArgumentParser(description="Behaviour cloning of the search player.")
    p.add_argument("--ruleset", choices=reversis.preset_names(), default="hearts-computer", help="a preset")
    p.add_argument("--hands", type=_positive, default=2_000, help="hands to record")
    p.add_argument("--playouts", type=_positive, default=1_000, help="the search player's playouts per decision")
    p.add_argument("--jobs", type=_positive, default=1, help="processes recording hands")
    p.add_argument("--seed", type=int, default=0, help="seeds the hands, the split and the weights")
    p.add_argument(
        "--data",
        type=Path,
        action="append",
        help="the .npz data set: written when recorded; read with --train-only, where several join",
    )
    stage = p.add_mutually_exclusive_group()
    stage.add_argument("--data-only", action="store_true", help="record the data set and stop")
    stage.add_argument("--train-only", action="store_true", help="train on the --data set recorded before")
    p.add_argument("--hidden", type=_sizes, help="hidden layer sizes (default: those of --init, else 128,128)")
    p.add_argument("--epochs", type=_positive, default=10, help="passes over the training hands")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    p.add_argument("--torch-threads", type=_positive, default=1, help="threads of PyTorch")
    p.add_argument(
        "--follow",
        type=Path,
        metavar="PATH",
        help="a .rvnn network whose choices are applied while the search labels every decision (on-policy data)",
    )
    p.add_argument(
        "--value",
        type=_weight,
        nargs="?",
        const=1.0,
        metavar="WEIGHT",
        help="also fit a value head to the hands' scores, its loss weighted by WEIGHT (1 if not given)",
    )
    p.add_argument(
        "--estimates",
        action="store_true",
        help="record the search's estimate of every legal card (about twice the recording time), for --soft",
    )
    p.add_argument(
        "--soft",
        type=_weight,
        metavar="TEMPERATURE",
        help="fit card decisions to softmax(-estimate / TEMPERATURE) over the legal cards (points), not the choice",
    )
    p.add_argument("--init", type=Path, metavar="PATH", help="start from a .rvnn network or a --save checkpoint")
    p.add_argument("--eval-games", type=int, default=500, help="games of the evaluation (0: none)")
    p.add_argument("--eval-opponents", choices=("random", "rules"), default="random", help="whom to evaluate against")
    p.add_argument("--save", type=Path, help="write a checkpoint that ppo_vector.py --init takes")
    p.add_argument("--export", type=Path, help="write the network as a .rvnn file")
    return p


def main(argv: list[str] | None = None) -> int:
    """Record, train or both, as the arguments say."""
    args = parser().parse_args(argv)
    if (args.data_only or args.train_only) and args.data is None:
        raise SystemExit("--data-only and --train-only need --data PATH")
    if not args.train_only and args.data is not None and len(args.data) > 1:
        raise SystemExit("a recording writes one --data PATH; several join only with --train-only")
    torch.set_num_threads(args.torch_threads)
    if args.train_only:
        data, ruleset_name = join([load(path) for path in args.data])
    else:
        started = time.perf_counter()
        if args.follow is not None:
            try:
                followed(str(args.follow))  # a bad file is refused before any work
            except reversis.InvalidInputError as error:
                raise SystemExit(f"--follow: {error}") from None
        follow = None if args.follow is None else str(args.follow)
        data = generate(
            args.ruleset, args.hands, args.playouts, args.seed, args.jobs, follow=follow, estimates=args.estimates
        )
        ruleset_name = args.ruleset
        print(f"{len(data['chosen']):,} decisions of {args.hands:,} hands in {time.perf_counter() - started:.1f} s")
        if args.data is not None:
            save(args.data[0], data, ruleset_name, args.playouts, args.seed)
        if args.data_only:
            return 0
    ruleset = reversis.preset(ruleset_name)
    hidden = args.hidden or (init_hidden(args.init) if args.init is not None else [128, 128])
    policy, _ = train(
        data,
        ruleset,
        hidden,
        epochs=args.epochs,
        lr=args.lr,
        seed=args.seed,
        value_weight=args.value,
        temperature=args.soft,
        init=args.init,
    )
    if args.save:
        torch.save({"policy": policy.state_dict()}, args.save)
    if args.export:
        command = "examples/learning/imitate_search.py " + " ".join(sys.argv[1:])
        export_rvnn(policy, args.export, {"preset": ruleset_name, "trained_by": command})
    if args.eval_games:
        points = evaluate(policy, ruleset, opponents=args.eval_opponents, games=args.eval_games, hands=4, seed=12345)
        half = 1.96 * points.std(ddof=1) / math.sqrt(len(points))
        print(
            f"points per hand against {args.eval_opponents}: {points.mean():.3f} ± {half:.3f} ({len(points):,} deals)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
