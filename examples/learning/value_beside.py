r"""Give a network a value: a value tower fitted to recorded hands, packed beside its policy.

    python examples/learning/value_beside.py --network learned.rvnn --data search.npz \
        --hidden 64,32 --epochs 4 --export learned-with-value.rvnn

The value (spec/learned.md, LRN-7) is the acting seat's score for the hand. Fitting it on the
policy's own hidden units costs the policy (its features are for choosing cards, not for
counting the points still to come), and fitting those units anew changes its play. Here the
value gets hidden units of its own, ``--hidden`` per hidden layer of the network, fitted by the
squared error to the ``score`` column of data sets of ``imitate_search.py`` (each decision's
hand score), a tenth of the hands held out. The exported network is one MLP whose every hidden
layer is the policy's units followed by the value's, the weights between the two zero: its 106
logits are the network's to the bit, its 107th output the tower's value, so it is a format
version 2 network that plays exactly as the one it was made from.

Each epoch prints the held-out mean absolute error in points beside a constant's (the training
scores' mean); the epoch of least error is exported, and its error is measured again on the
exported network as the Rust core evaluates it (binary16 weights), by stage of the hand.

Needs the ``learn`` extra (``torch``, ``numpy``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import reversis

sys.path.insert(0, str(Path(__file__).resolve().parent))
from imitate_search import _held_out, hand_points, join, load
from ppo_vector import NUM_ACTIONS, _learned, _mlp, _positive, _sizes, input_scale, rvnn_layers

Layers = list[tuple[np.ndarray, np.ndarray, str]]


class ValueTower(nn.Module):
    """Scaled OBS-3 → ReLU MLP → the hand's score, in units of ``points`` (a hand's points)."""

    def __init__(self, hidden: list[int], scale: np.ndarray, points: float) -> None:
        super().__init__()
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        self.points = points
        self.net = _mlp([len(scale), *hidden, 1], 1.0)

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        """The value in points of each OBS-3 row."""
        return self.net(observation * self.scale).squeeze(-1) * self.points

    def layers(self) -> Layers:
        """The tower as ``.rvnn`` layers: the input scale folded into the first, the points into the last."""
        linears = [module for module in self.net if isinstance(module, nn.Linear)]
        layers: Layers = []
        for k, layer in enumerate(linears):
            weights = layer.weight.detach().double().numpy().copy()
            biases = layer.bias.detach().double().numpy().copy()
            if k == 0:
                weights *= self.scale.double().numpy()[None, :]
            last = k == len(linears) - 1
            if last:
                weights *= self.points
                biases *= self.points
            layers.append((weights, biases, "identity" if last else "relu"))
        return layers


def beside(policy: Layers, value: Layers) -> Layers:
    """One MLP computing both: each hidden layer the policy's units then the value's, none joined.

    The last layer gives the policy's outputs, then the value's one.

    :raises SystemExit: for networks of different depths or inputs, or a policy with a value already.
    """
    if len(policy) != len(value):
        raise SystemExit(f"the network has {len(policy) - 1} hidden layers, --hidden gives {len(value) - 1}")
    if policy[0][0].shape[1] != value[0][0].shape[1]:
        raise SystemExit("the network and the value take different inputs")
    if len(policy[-1][1]) != NUM_ACTIONS:
        raise SystemExit("the network has a value already")
    packed: Layers = []
    for k, ((pw, pb, activation), (vw, vb, _)) in enumerate(zip(policy, value)):
        if k == 0:
            weights = np.vstack([pw, vw])
        else:
            weights = np.block([[pw, np.zeros((pw.shape[0], vw.shape[1]))], [np.zeros((vw.shape[0], pw.shape[1])), vw]])
        packed.append((weights, np.concatenate([pb, vb]), activation))
    return packed


def fit(
    data: dict[str, np.ndarray], ruleset: Any, hidden: list[int], *, epochs: int, lr: float, seed: int
) -> tuple[ValueTower, float, float]:
    """Fit a :class:`ValueTower` to the data's scores; it at its best epoch, its held-out error and a constant's.

    :raises SystemExit: for data without scores, or too few hands to hold a tenth out.
    """
    if "score" not in data:
        raise SystemExit("the data set has no hands' scores: record it again with imitate_search.py")
    torch.manual_seed(seed)
    validation = _held_out(data, seed)
    training, held = np.flatnonzero(~validation), torch.as_tensor(np.flatnonzero(validation))
    if len(training) == 0:
        raise SystemExit("too few hands to fit on: give at least two")
    points = hand_points(ruleset)
    tower = ValueTower(hidden, input_scale(ruleset), points)
    optimizer = torch.optim.Adam(tower.parameters(), lr=lr)
    observation = torch.as_tensor(data["observation"])
    score = torch.as_tensor(data["score"].astype(np.float32))
    constant = float((score[held] - score[training].mean()).abs().mean())

    def held_out_error() -> float:
        tower.eval()
        with torch.no_grad():
            errors = [(tower(observation[rows].float()) - score[rows]).abs().sum() for rows in held.split(8192)]
        return float(sum(errors)) / len(held)

    best, best_state = held_out_error(), {key: value.clone() for key, value in tower.state_dict().items()}
    print(f"untrained: held-out value off by {best:.3f} points (a constant: {constant:.3f})", flush=True)
    for epoch in range(epochs):
        tower.train()
        for batch in torch.as_tensor(training)[torch.randperm(len(training))].split(512):
            loss = (((tower(observation[batch].float()) - score[batch]) / points) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        error = held_out_error()
        print(f"epoch {epoch + 1}: held-out value off by {error:.3f} points (a constant: {constant:.3f})", flush=True)
        if error < best:
            best, best_state = error, {key: value.clone() for key, value in tower.state_dict().items()}
    tower.load_state_dict(best_state)
    return tower, best, constant


#: The stages of a hand by the cards played so far (OBS-3's played blocks, offsets 52 to 572):
#: none (the passes and the first lead), then a third of a four-seat hand's each.
STAGES = (("no card played", 0, 1), ("1-16 cards played", 1, 17), ("17-32 played", 17, 33), ("33-51 played", 33, 52))


def exported_errors(
    path: Path, data: dict[str, np.ndarray], seed: int, rows: int
) -> list[tuple[str, int, float, float]]:
    """The value's mean absolute error, by stage of the hand, on up to ``rows`` held-out decisions.

    Each stage: its name, its decisions, the error of the network at ``path`` as Rust evaluates
    it, and the error of a constant (the training scores' mean); ``all`` comes last.
    """
    network = _learned("LearnedPolicy").from_file(path)
    validation = _held_out(data, seed)
    held = np.flatnonzero(validation)
    sample = np.random.default_rng(seed).choice(held, size=min(rows, len(held)), replace=False)
    score = data["score"].astype(np.float64)
    value = np.array([network.value(data["observation"][k].tolist()) for k in sample])
    error, constant = np.abs(value - score[sample]), np.abs(score[~validation].mean() - score[sample])
    played = data["observation"][sample, 52:572].astype(np.int64).sum(axis=1)
    stages = [(name, (played >= low) & (played < high)) for name, low, high in STAGES]
    stages.append(("all", np.ones(len(sample), dtype=bool)))
    return [(name, int(m.sum()), float(error[m].mean()), float(constant[m].mean())) for name, m in stages if m.any()]


def parser() -> argparse.ArgumentParser:
    """The command line of the recipe."""
    p = argparse.ArgumentParser(description="Fit a value beside a network's policy and export both as one network.")
    p.add_argument("--network", type=Path, required=True, help="the .rvnn network (without a value) to add a value to")
    p.add_argument(
        "--data", type=Path, action="append", required=True, help="a data set of imitate_search.py (repeat to join)"
    )
    p.add_argument("--hidden", type=_sizes, default=[64, 32], help="the value's units per hidden layer (default 64,32)")
    p.add_argument("--epochs", type=_positive, default=4, help="passes over the training hands")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    p.add_argument("--seed", type=int, default=0, help="seeds the held-out hands and the weights")
    p.add_argument("--torch-threads", type=_positive, default=1, help="threads of PyTorch")
    p.add_argument("--check-rows", type=_positive, default=20_000, help="held-out decisions to check the export on")
    p.add_argument("--export", type=Path, required=True, help="where to write the network with its value")
    return p


def main(argv: list[str] | None = None) -> int:
    """Fit the value, pack it beside the policy, export, and check the export's error."""
    args = parser().parse_args(argv)
    torch.set_num_threads(args.torch_threads)
    data, ruleset_name = join([load(path) for path in args.data])
    ruleset = reversis.preset(ruleset_name)
    source = _learned("read_weights")(args.network)
    if source.has_value:
        raise SystemExit(f"{args.network}: the network has a value already")
    if source.metadata.get("preset", ruleset_name) != ruleset_name:
        raise SystemExit(f"{args.network}: a network of {source.metadata['preset']}, the data of {ruleset_name}")
    tower, error, constant = fit(data, ruleset, args.hidden, epochs=args.epochs, lr=args.lr, seed=args.seed)
    command = "python examples/learning/value_beside.py " + " ".join(sys.argv[1:] if argv is None else argv)
    metadata = dict(source.metadata)
    trained_by = metadata.get("trained_by", [])
    metadata["trained_by"] = [*(trained_by if isinstance(trained_by, list) else [trained_by]), command]
    _learned("write_weights")(args.export, beside(rvnn_layers(args.network), tower.layers()), metadata)
    print(f"{args.export}: held-out value off by {error:.3f} points (a constant: {constant:.3f}); as exported:")
    print(f"{'stage':24} {'decisions':>9} {'value':>6} {'constant':>8}")
    for name, count, off, constant_off in exported_errors(args.export, data, args.seed, args.check_rows):
        print(f"{name:24} {count:>9,} {off:>6.2f} {constant_off:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
