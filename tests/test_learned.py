"""The learned player (spec/learned.md): the weight format, the network in Rust against the
pure-Python one, the player at a table, and the computer players of the vector environment."""

from __future__ import annotations

import json
import math
import os
import random
import stat
import struct
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import reversis
from reversis import _core
from reversis.encoding import ENCODING_LENGTH, encode_observation
from reversis.errors import InvalidInputError
from reversis.players import Observation, act_for, computer_actions, learned, observe
from reversis.players.learned import LearnedPlayer, parse_weights, read_weights, write_weights
from reversis.reference.batch import hand_generator

TIMEOUT = 300
ROOT = Path(__file__).resolve().parent.parent


def random_layers(
    rng: random.Random, hidden: list[int], activations: list[str] | None = None, outputs: int = 106
) -> list[Any]:
    """Layers of random weights from 1435 inputs through ``hidden`` to ``outputs`` (107: with a value)."""
    sizes = [ENCODING_LENGTH, *hidden, outputs]
    acts = activations or ["relu"] * len(hidden)
    layers = []
    for k in range(len(sizes) - 1):
        inputs, outputs = sizes[k], sizes[k + 1]
        scale = 1.0 / math.sqrt(inputs)
        weights = [[rng.gauss(0.0, scale) for _ in range(inputs)] for _ in range(outputs)]
        biases = [rng.gauss(0.0, 0.1) for _ in range(outputs)]
        layers.append((weights, biases, acts[k] if k < len(hidden) else "identity"))
    return layers


def network(tmp_path: Path, seed: int, hidden: list[int], activations: list[str] | None = None) -> Path:
    path = tmp_path / f"net-{seed}.rvnn"
    meta = {"preset": "hearts-computer", "encoding_version": 3, "trained_by": "tests"}
    write_weights(path, random_layers(random.Random(seed), hidden, activations), meta)
    return path


def sample_observations(preset: str, count: int, seed: int) -> list[Observation]:
    """Observations of the acting seats of games played at random: passes, plays, moon choices."""
    rng = random.Random(seed)
    out: list[Observation] = []
    game = reversis.Game(reversis.preset(preset), seed=seed)
    while len(out) < count:
        if game.phase == "over":
            game = reversis.Game(reversis.preset(preset), seed=rng.getrandbits(32))
        seat = game.to_act
        if rng.random() < 0.3:
            out.append(observe(game, seat))
        game.apply_action(rng.choice(game.legal_actions()))
    return out


def close(rust: list[float], python: list[float]) -> bool:
    scale = 1.0 + max(abs(v) for v in python)
    return all(math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-5 * scale) for a, b in zip(rust, python))


# ------------------------------------------------------------------ the pure-Python oracle


def test_the_pure_python_forward_pass_is_the_hand_computed_one(tmp_path: Path) -> None:
    # 1435 → 2 (relu) → 106: h0 = relu(x0 + 2·x1 − 1), h1 = relu(−x0 + ½); output 5 = 3·h0 − h1,
    # output 9 = h1 + ¼, every other output 0.
    first = [[0.0] * ENCODING_LENGTH for _ in range(2)]
    first[0][0], first[0][1], first[1][0] = 1.0, 2.0, -1.0
    second = [[0.0, 0.0] for _ in range(106)]
    second[5] = [3.0, -1.0]
    second[9] = [0.0, 1.0]
    biases = [0.0] * 106
    biases[9] = 0.25
    path = tmp_path / "tiny.rvnn"
    write_weights(path, [(first, [-1.0, 0.5], "relu"), (second, biases, "identity")])
    weights = read_weights(path)
    assert weights.metadata == {}
    for x0, x1, h0, h1 in [(1, 1, 2.0, 0.0), (0, 0, 0.0, 0.5), (3, -1, 0.0, 0.0), (-2, 4, 5.0, 2.5)]:
        encoding = [0] * ENCODING_LENGTH
        encoding[0], encoding[1], encoding[900] = x0, x1, 7
        expected = [0.0] * 106
        expected[5] = 3 * h0 - h1
        expected[9] = h1 + 0.25
        assert weights.logits(encoding) == expected
        assert _core.LearnedPolicy.from_file(path).logits(encoding) == expected


def test_written_values_are_read_back_rounded_to_half_precision(tmp_path: Path) -> None:
    layers = random_layers(random.Random(3), [4])
    layers[0][0][0][:3] = [1 / 3, 65504.0, -(2.0**-24)]
    path = tmp_path / "n.rvnn"
    write_weights(path, layers, {"note": "é"})
    weights = read_weights(path)
    assert weights.metadata == {"note": "é"}
    for (w, b, a), (rw, rb, ra) in zip(layers, weights.layers):
        assert ra == a
        assert rb == [struct.unpack("<e", struct.pack("<e", v))[0] for v in b]
        assert rw == [[struct.unpack("<e", struct.pack("<e", v))[0] for v in row] for row in w]
    assert weights.layers[0][0][0][:3] == [0.333251953125, 65504.0, -(2.0**-24)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.rvnn"]  # no temporary file left


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_a_written_file_is_shared_as_the_umask_says_and_replaces_through_symlinks(tmp_path: Path) -> None:
    layers = random_layers(random.Random(2), [])
    old = os.umask(0o027)
    try:
        write_weights(tmp_path / "new.rvnn", layers)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.rvnn").stat().st_mode) == 0o640
    kept = tmp_path / "kept.rvnn"
    kept.write_bytes(b"old")
    kept.chmod(0o604)
    link = tmp_path / "link.rvnn"
    link.symlink_to(kept)
    write_weights(link, layers)
    assert link.is_symlink() and stat.S_IMODE(kept.stat().st_mode) == 0o604
    assert kept.read_bytes() == (tmp_path / "new.rvnn").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.rvnn", "link.rvnn", "new.rvnn"]


def test_numpy_arrays_are_written_as_their_lists(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    layers = random_layers(random.Random(5), [3])
    write_weights(tmp_path / "a.rvnn", layers)
    as_arrays = [(np.array(w, dtype=np.float32), np.array(b), a) for w, b, a in layers]
    write_weights(tmp_path / "b.rvnn", as_arrays)
    assert (tmp_path / "a.rvnn").read_bytes() == (tmp_path / "b.rvnn").read_bytes()


# ------------------------------------------------------------------ Rust against Python


@pytest.mark.parametrize(
    ("hidden", "activations"),
    [([], None), ([48], None), ([40, 24], ["relu", "identity"]), ([16, 16, 16], None)],
)
def test_rust_logits_equal_the_pure_python_forward_pass(
    tmp_path: Path, hidden: list[int], activations: list[str] | None
) -> None:
    path = network(tmp_path, len(hidden), hidden, activations)
    weights = read_weights(path)
    policy = _core.LearnedPolicy.from_file(path)
    assert policy.layers == [(len(w[0]), len(w), a) for w, _, a in weights.layers]
    assert policy.metadata == weights.metadata
    for preset in ["hearts-computer", "omnibus-4", "black-maria"]:
        for observation in sample_observations(preset, 12, seed=len(hidden)):
            encoding = encode_observation(observation)
            python = weights.logits(encoding)
            rust = policy.logits(encoding)
            assert len(rust) == 106 and close(rust, python), (preset, observation.phase)
            assert policy.logits(list(encoding)) == rust  # a list of ints reads the same


def test_a_network_with_a_value_is_version_2_and_both_readers_give_its_value(tmp_path: Path) -> None:
    # The value is output 106 (LRN-7): here −2·h0 + h1 + 3, beside the logits of the same layers.
    first = [[0.0] * ENCODING_LENGTH for _ in range(2)]
    first[0][0], first[1][1] = 1.0, 1.0
    second = [[0.0, 0.0] for _ in range(107)]
    second[4] = [1.0, 0.0]
    second[106] = [-2.0, 1.0]
    biases = [0.0] * 107
    biases[106] = 3.0
    path = tmp_path / "valued.rvnn"
    write_weights(path, [(first, [0.0, 0.0], "relu"), (second, biases, "identity")])
    assert path.read_bytes()[4:6] == struct.pack("<H", 2)
    weights = read_weights(path)
    policy = _core.LearnedPolicy.from_file(path)
    assert weights.has_value and policy.has_value
    for x0, x1 in [(0, 0), (2, 5), (-1, 1)]:
        encoding = [0] * ENCODING_LENGTH
        encoding[0], encoding[1] = x0, x1
        expected = -2.0 * max(0, x0) + max(0, x1) + 3.0
        assert weights.value(encoding) == expected == policy.value(encoding)
        logits = weights.logits(encoding)
        assert len(logits) == 106 and logits[4] == max(0, x0) and policy.logits(encoding) == logits
    # A network without one stays version 1, and has no value.
    plain = network(tmp_path, 1, [8])
    assert plain.read_bytes()[4:6] == struct.pack("<H", 1)
    assert read_weights(plain).value([0] * ENCODING_LENGTH) is None
    assert _core.LearnedPolicy.from_file(plain).value([0] * ENCODING_LENGTH) is None
    assert not _core.LearnedPolicy.from_file(plain).has_value
    with pytest.raises(InvalidInputError, match="1435 values"):
        policy.value([0] * 10)


def test_rust_values_and_decisions_equal_the_pure_python_ones(tmp_path: Path) -> None:
    path = tmp_path / "valued.rvnn"
    write_weights(path, random_layers(random.Random(11), [24], outputs=107))
    weights = read_weights(path)
    policy = _core.LearnedPolicy.from_file(path)
    player = LearnedPlayer(weights=path)
    for observation in sample_observations("hearts-computer", 20, seed=11):
        encoding = encode_observation(observation)
        assert close([policy.value(encoding)], [weights.value(encoding)])
        assert close(policy.logits(encoding), weights.logits(encoding))
        if observation.phase == "play":
            legal = [_core.card_id(card) for card in observation.legal]
            assert policy.decide(encoding, legal) == weights.decide(encoding, legal)
            assert player.act(observation)["card"] in observation.legal


def test_decide_is_the_best_legal_logit_with_ties_to_the_lowest_id(tmp_path: Path) -> None:
    policy = _core.LearnedPolicy.from_file(network(tmp_path, 8, [32]))
    for observation in sample_observations("hearts-computer", 30, seed=8):
        encoding = encode_observation(observation)
        logits = policy.logits(encoding)
        legal = sorted(random.Random(len(observation.hand)).sample(range(106), 7))
        best = max(logits[i] for i in legal)
        assert policy.decide(encoding, legal) == min(i for i in legal if logits[i] == best)
    # Every weight and bias zero: every logit ties, and the lowest legal id wins.
    zero = [([[0.0] * ENCODING_LENGTH for _ in range(106)], [0.0] * 106, "identity")]
    write_weights(tmp_path / "zero.rvnn", zero)
    flat = _core.LearnedPolicy.from_file(tmp_path / "zero.rvnn")
    assert flat.decide([1] * ENCODING_LENGTH, [80, 17, 104]) == 17


def test_batch_decisions_equal_row_by_row_decisions(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    policy = _core.LearnedPolicy.from_file(network(tmp_path, 9, [24]))
    env = reversis.VectorEnv(reversis.preset("hearts-computer"), num_envs=48, seed=2, threads=2)
    observation, mask = np.asarray(env.observation), np.asarray(env.legal_action_mask)
    for step in range(120):
        batch = policy.decide_batch(env.observation, env.legal_action_mask)
        rows = [policy.decide(observation[i], np.flatnonzero(mask[i]).tolist()) for i in range(48)]
        assert batch == rows
        assert policy.decide_batch(observation, mask.astype(np.uint8), threads=3) == rows
        if step % 10 == 0:
            # One hand from zero totals: every value of the encoding fits in a byte.
            assert observation.min() >= 0 and observation.max() <= 255
            assert policy.decide_batch(observation.astype(np.uint8), mask) == rows
        assert all(mask[i, a] for i, a in enumerate(batch))
        env.step(computer_actions(env, "random", step))


# ------------------------------------------------------------------ broken files


def _tiny_file() -> bytes:
    meta = json.dumps({"encoding_version": 3}).encode()
    head = b"RVNN" + struct.pack("<HHI", 1, 1, len(meta)) + meta + struct.pack("<IIB3x", ENCODING_LENGTH, 106, 0)
    return head + bytes(2 * (106 * ENCODING_LENGTH + 106))


def _with_header(values: bool = True, **changes: Any) -> bytes:
    """A file of the given header fields, with the values its layers need (or none)."""
    fields = {"magic": b"RVNN", "version": 1, "count": 1, "meta": b"", "layers": [(ENCODING_LENGTH, 106, 0, b"\0\0\0")]}
    fields.update(changes)
    out = (
        fields["magic"] + struct.pack("<HHI", fields["version"], fields["count"], len(fields["meta"])) + fields["meta"]
    )
    count = 0
    for inputs, outputs, code, reserved in fields["layers"]:
        out += struct.pack("<IIB", inputs, outputs, code) + reserved
        count += outputs * inputs + outputs
    return out + bytes(2 * count if values else 0)


def _set_half(data: bytes, at: int, bits: int) -> bytes:
    return data[:at] + struct.pack("<H", bits) + data[at + 2 :]


GOOD = _tiny_file()
VALUES_AT = len(GOOD) - 2 * (106 * ENCODING_LENGTH + 106)
BROKEN = {
    "empty": (b"", "truncated file"),
    "cut in the header": (GOOD[:9], "truncated file"),
    "cut in the metadata": (GOOD[:14], "truncated file"),
    "cut in a layer header": (GOOD[: VALUES_AT - 3], "truncated file"),
    "cut in the values": (GOOD[:-1], "truncated file"),
    "bad magic": (b"RVNM" + GOOD[4:], "bad magic"),
    "version 3": (_with_header(version=3), "unsupported version 3"),
    "version 0": (_with_header(version=0), "unsupported version 0"),
    "version 2 of 106 outputs": (_with_header(version=2), "a version 2 network gives 107"),
    "version 1 of 107 outputs": (
        _with_header(layers=[(ENCODING_LENGTH, 107, 0, b"\0\0\0")]),
        "a version 1 network gives 106",
    ),
    "no layers": (_with_header(count=0, layers=[]), "number of layers"),
    "nine layers": (_with_header(count=9), "number of layers"),
    "metadata too long": (GOOD[:8] + struct.pack("<I", 65537) + GOOD[12:], "metadata length"),
    "metadata not UTF-8": (_with_header(meta=b'{"a": "\xff"}'), "not UTF-8"),
    "metadata not JSON": (_with_header(meta=b"{"), "not JSON"),
    "metadata not an object": (_with_header(meta=b"[3]"), "JSON object"),
    "encoding version 2": (_with_header(meta=b'{"encoding_version": 2}'), "encoding_version"),
    "unknown activation": (_with_header(layers=[(ENCODING_LENGTH, 106, 2, b"\0\0\0")]), "unknown activation 2"),
    "reserved bytes": (_with_header(layers=[(ENCODING_LENGTH, 106, 0, b"\0\1\0")]), "three bytes"),
    "first layer size": (_with_header(layers=[(1049, 106, 0, b"\0\0\0")]), "size mismatch: layer 0"),
    "last layer size": (_with_header(layers=[(ENCODING_LENGTH, 105, 0, b"\0\0\0")]), "size mismatch: the last layer"),
    "chain": (
        _with_header(count=2, layers=[(ENCODING_LENGTH, 8, 1, b"\0\0\0"), (9, 106, 0, b"\0\0\0")]),
        "size mismatch: layer 1",
    ),
    "width": (
        _with_header(False, count=2, layers=[(ENCODING_LENGTH, 4097, 1, b"\0\0\0"), (4097, 106, 0, b"\0\0\0")]),
        "outputs must be 1 to 4096",
    ),
    "last activation": (_with_header(layers=[(ENCODING_LENGTH, 106, 1, b"\0\0\0")]), "must be identity"),
    "trailing bytes": (GOOD + b"\0\0\0", "trailing bytes: 3 bytes"),
    "infinite weight": (_set_half(GOOD, VALUES_AT, 0x7C00), "non-finite value"),
    "NaN weight": (_set_half(GOOD, VALUES_AT + 2 * 5000, 0x7E00), "non-finite value"),
    "infinite bias": (_set_half(GOOD, len(GOOD) - 2, 0xFC00), "non-finite value"),
}


def test_the_good_file_reads_in_both_readers() -> None:
    assert parse_weights(GOOD).metadata == {"encoding_version": 3}
    assert _core.LearnedPolicy(GOOD).metadata == {"encoding_version": 3}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_file_is_refused_by_both_readers_naming_its_problem(case: str, tmp_path: Path) -> None:
    data, problem = BROKEN[case]
    path = tmp_path / "broken.rvnn"
    path.write_bytes(data)
    for read in (parse_weights, _core.LearnedPolicy, lambda _: _core.LearnedPolicy.from_file(path)):
        with pytest.raises(InvalidInputError) as caught:
            read(data)
        assert caught.value.code == "invalid-setup"
        assert problem in str(caught.value), (read, str(caught.value))
    with pytest.raises(InvalidInputError) as caught:
        LearnedPlayer(weights=path)
    assert problem in str(caught.value)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda ls: ls[0][0][2].__setitem__(5, math.inf), "non-finite value"),
        (lambda ls: ls[1][1].__setitem__(0, math.nan), "non-finite value"),
        (lambda ls: ls[0][0][0].__setitem__(0, 1e6), "beyond binary16"),
        (lambda ls: ls[1][0][7].pop(), "different lengths"),
        (lambda ls: ls[1][0].pop(), "size mismatch: layer 1"),
        (lambda ls: ls[0][1].pop(), "size mismatch: layer 0"),
        (lambda ls: ls.__setitem__(1, (ls[1][0], ls[1][1], "relu")), "must be identity"),
        (lambda ls: ls.__setitem__(0, (ls[0][0], ls[0][1], "tanh")), "'identity' or 'relu'"),
        (lambda ls: ls.__setitem__(0, ([row[:-1] for row in ls[0][0]], ls[0][1], "relu")), "size mismatch: layer 0"),
        (lambda ls: ls.clear(), "number of layers"),
    ],
)
def test_write_refuses_what_the_format_cannot_hold_and_writes_nothing(
    tmp_path: Path, change: Any, problem: str
) -> None:
    layers = random_layers(random.Random(1), [4])
    change(layers)
    with pytest.raises(InvalidInputError) as caught:
        write_weights(tmp_path / "n.rvnn", layers)
    assert caught.value.code == "invalid-setup" and problem in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_write_refuses_metadata_of_another_encoding_or_not_json(tmp_path: Path) -> None:
    layers = random_layers(random.Random(1), [])
    for metadata, problem in [({"encoding_version": 2}, "encoding_version"), ({"x": math.nan}, "not JSON data")]:
        with pytest.raises(InvalidInputError, match=problem):
            write_weights(tmp_path / "n.rvnn", layers, metadata)
    assert list(tmp_path.iterdir()) == []


def test_policy_arguments_are_checked(tmp_path: Path) -> None:
    policy = _core.LearnedPolicy.from_file(network(tmp_path, 4, []))
    encoding = [0] * ENCODING_LENGTH
    for bad in ([0] * 10, "x" * ENCODING_LENGTH, [math.nan] * ENCODING_LENGTH, None):
        with pytest.raises(InvalidInputError) as caught:
            policy.logits(bad)
        assert caught.value.code == "invalid-setup"
    for legal in ([], [106], [-1], "ab", [True]):
        with pytest.raises(InvalidInputError) as caught:
            policy.decide(encoding, legal)
        assert caught.value.code == "invalid-action"
    with pytest.raises(InvalidInputError, match="row 1"):
        policy.decide_batch(encoding * 2, bytes([1] * 106 + [0] * 106))
    with pytest.raises(InvalidInputError, match="rows"):
        policy.decide_batch(encoding * 2, bytes(106))
    with pytest.raises(InvalidInputError, match="threads"):
        policy.decide_batch(encoding, bytes([1] * 106), threads=0)
    with pytest.raises(InvalidInputError, match="bytes of a weight file"):
        _core.LearnedPolicy("RVNN")
    with pytest.raises(InvalidInputError, match="cannot read"):
        _core.LearnedPolicy.from_file(tmp_path / "missing.rvnn")


# ------------------------------------------------------------------ the player


class Recorder:
    """A policy that records what it is asked."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.asked: list[tuple[list[int], list[int]]] = []

    def decide(self, encoding: Any, legal: list[int]) -> int:
        self.asked.append((list(encoding), list(legal)))
        choice: int = self.policy.decide(encoding, legal)
        return choice


@pytest.mark.parametrize("preset", ["hearts-computer", "black-maria", "cancellation-6"])
def test_a_pass_is_chosen_one_selection_at_a_time_as_the_vector_environment_shows_it(
    tmp_path: Path, preset: str
) -> None:
    player = LearnedPlayer(weights=network(tmp_path, 6, [16]))
    ruleset = reversis.preset(preset)
    checked = 0
    for seed in range(6):
        game = reversis.Game(ruleset, seed=seed)
        while game.phase == "pass":
            seat = game.to_act
            recorder = Recorder(player.policy)
            player.policy = recorder  # type: ignore[assignment]
            action = player.act(observe(game, seat))
            player.policy = recorder.policy
            assert action["type"] == "pass" and action["seat"] == seat
            assert len(recorder.asked) == ruleset.passing["size"]
            # Each selection made with apply_action, as in the vector environment: the network
            # saw exactly each successive observation, and chose among its legal ids.
            for card, (encoding, legal) in zip(action["cards"], recorder.asked):
                assert encoding == list(encode_observation(observe(game, seat)))
                assert legal == game.legal_actions()
                game.apply_action(52 + _core.card_id(card))
                checked += 1
    assert checked >= 36


def test_the_player_plays_its_networks_choice_among_legal_cards_and_moon_choices(tmp_path: Path) -> None:
    path = network(tmp_path, 7, [24])
    player, policy = LearnedPlayer(weights=path), _core.LearnedPolicy.from_file(path)
    assert player.metadata["preset"] == "hearts-computer"
    moons = 0
    for observation in sample_observations("hearts-4", 300, seed=7):
        if observation.phase == "pass":
            continue
        action = player.act(observation)
        encoding = encode_observation(observation)
        if observation.phase == "moon":
            moons += 1
            assert (
                action["choice"]
                == {104: "add-to-others", 105: "subtract-from-taker"}[policy.decide(encoding, [104, 105])]
            )
            continue
        ids = sorted(_core.card_id(c) for c in observation.legal)
        assert action == {"type": "play", "seat": observation.seat, "card": _card(policy.decide(encoding, ids))}
        assert action["card"] in observation.legal


def _card(card_id: int) -> str:
    return "23456789TJQKA"[card_id % 13] + "CDHS"[card_id // 13]


def test_the_player_finishes_whole_hands_of_one_pack_and_two_pack_rulesets(tmp_path: Path) -> None:
    player = LearnedPlayer(weights=network(tmp_path, 2, [8]))
    for name in ["hearts-computer", "cancellation-6", "cancellation-8", "cancellation-10", "hartenjagen", "hearts-7"]:
        ruleset = reversis.preset(name)
        game = reversis.Game(ruleset, seed=4)
        while game.last_hand is None:
            act_for(game, [player] * ruleset.players)
        assert sum(game.last_hand["scores"]) != 0


def test_the_players_value_is_its_networks_and_the_shipped_one_tracks_the_points_taken(tmp_path: Path) -> None:
    observations = sample_observations("hearts-computer", 400, seed=12)
    assert LearnedPlayer(weights=network(tmp_path, 3, [8])).value(observations[0]) is None
    shipped = LearnedPlayer()
    pure = read_weights(learned.SHIPPED_WEIGHTS)
    assert pure.has_value
    for observation in observations[:2]:  # the pure-Python pass over a million weights is slow
        assert close([shipped.value(observation)], [pure.value(encode_observation(observation))])
    # Late in a hand of random play, the points a seat has taken are most of what it will score:
    # the value follows them.
    late = [o for o in observations if o.phase == "play" and sum(len(t["cards"]) for t in o["tricks"]) >= 28]
    assert len(late) >= 40
    taken = [float(o["points"][o.seat]) for o in late]
    values = [shipped.value(o) for o in late]
    assert correlation(taken, values) > 0.5, correlation(taken, values)


def correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's correlation (``statistics.correlation`` is 3.10's)."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def test_the_shipped_network_missing_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "SHIPPED_WEIGHTS", tmp_path / "learned-hearts-computer.rvnn")
    with pytest.raises(InvalidInputError) as caught:
        LearnedPlayer()
    assert caught.value.code == "invalid-setup"
    assert "not installed" in str(caught.value) and "weights=PATH" in str(caught.value)
    write_weights(learned.SHIPPED_WEIGHTS, random_layers(random.Random(1), []))
    assert LearnedPlayer().weights == learned.SHIPPED_WEIGHTS


def test_the_shipped_network_is_looked_for_inside_the_package() -> None:
    assert learned.SHIPPED_WEIGHTS.parent == Path(reversis.__file__).parent / "players"
    assert learned.SHIPPED_WEIGHTS.name == "learned-hearts-computer.rvnn"


# ------------------------------------------------------------------ the tournament


def _tournament(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversis", "tournament", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        check=False,
    )


def test_a_tournament_seats_a_learned_player_from_a_path_with_colons(tmp_path: Path) -> None:
    folder = tmp_path / "runs:v2"
    folder.mkdir()
    path = network(folder, 11, [32])
    name = f"learned:weights={path}"
    report = tmp_path / "report.json"
    done = _tournament(
        ["--players", f"{name},random", "--hands", "2", "--jobs", "1", "--preset", "hearts-computer"]
        + ["--json", str(report)],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(report.read_text())
    stats = {s["name"]: s for s in data["stats"]}
    assert set(stats) == {name, "random"}
    assert data["deal_count"] == 2
    assert stats[name]["hands"] == stats["random"]["hands"] > 0
    assert stats[name]["forfeits"] == 0 and data["forfeited_deals"] == 0


@pytest.mark.parametrize(
    ("players", "says"),
    [
        ("learned:weights=/nonexistent/net.rvnn,random", "cannot read the weight file"),
        ("learned:weights=,random", "the path is empty"),
        ("rules:weights=net.rvnn,random", "takes no option 'weights'"),
        ("search:playouts=many,random", "KEY=NUMBER"),
    ],
)
def test_a_bad_learned_player_is_a_usage_error_before_any_deal(tmp_path: Path, players: str, says: str) -> None:
    done = _tournament(["--players", players, "--hands", "1", "--jobs", "1"], tmp_path)
    assert done.returncode == 2
    assert says in done.stderr, done.stderr


def test_a_broken_network_file_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.rvnn"
    path.write_bytes(GOOD[:-1])
    done = _tournament(["--players", f"learned:weights={path},random", "--hands", "1", "--jobs", "1"], tmp_path)
    assert done.returncode == 2 and "truncated file" in done.stderr, done.stderr


# ------------------------------------------------------------------ computer players of the vector environment


def _legal(mask_row: Any) -> list[int]:
    return [i for i, b in enumerate(mask_row) if b]


@pytest.mark.parametrize("preset", ["hearts-computer", "omnibus-4", "hearts-3"])
def test_computer_actions_are_legal_and_the_rules_ones_are_the_policys_from_the_observation(preset: str) -> None:
    ruleset = reversis.preset(preset)
    env = reversis.VectorEnv(ruleset, num_envs=12, seed=5, threads=2, episode="match", history=True)
    phases: Counter[str] = Counter()
    for step in range(150):
        masks = env.legal_action_mask.tolist()
        rules = computer_actions(env, "rules", step)
        random_ids = computer_actions(env, "random", step)
        assert rules == computer_actions(env, "rules", step)
        for i in range(env.num_envs):
            legal = _legal(masks[i])
            assert rules[i] in legal and random_ids[i] in legal
            # The random choice: the generator of hand i of a batch seeded with the step's seed.
            assert random_ids[i] == legal[hand_generator(step, i).below(len(legal))]
            game = env.game(i)
            seat = game.to_act
            whole = _core.search_policy(ruleset, game.observation(seat), hand_generator(step, i).state)
            chosen = [52 + _core.card_id(c) for c in game.selected(seat)] if game.phase == "pass" else []
            assert rules[i] == next(a for a in whole if a not in chosen), (step, i)
            phases[game.phase] += 1
        env.step(random_ids if step % 2 else rules)
    assert phases["pass"] > 100 and phases["play"] > 1000


def test_computer_actions_are_reproducible_and_the_random_ones_uniform() -> None:
    env = reversis.VectorEnv(reversis.preset("hearts-4"), num_envs=2, seed=9)
    legal = _legal(env.legal_action_mask.tolist()[0])
    counts = Counter(computer_actions(env, "random", seed)[0] for seed in range(2600))
    assert set(counts) == set(legal) and len(legal) == 13
    assert all(140 <= n <= 260 for n in counts.values()), counts  # 200 each, sd 14
    assert computer_actions(env, "random", 1) == computer_actions(env, "random", 1)


def test_computer_actions_arguments_are_checked() -> None:
    env = reversis.VectorEnv(reversis.preset("hearts-4"), num_envs=2, seed=9)
    for player in ["search", 3, None]:
        with pytest.raises(InvalidInputError) as caught:
            computer_actions(env, player, 0)  # type: ignore[arg-type]
        assert caught.value.code == "invalid-setup"
    with pytest.raises(InvalidInputError):
        computer_actions(env, "rules", -1)
    with pytest.raises(InvalidInputError, match="Rust engine"):
        computer_actions(reversis.reference.VectorEnv(reversis.preset("hearts-4"), 2, 9), "rules", 0)
    two_packs = reversis.VectorEnv(reversis.preset("cancellation-6"), num_envs=2, seed=9)
    for player in ["rules", "random"]:
        ids = computer_actions(two_packs, player, 0)
        masks = two_packs.legal_action_mask.tolist()
        assert len(ids) == 2 and all(masks[i][a] for i, a in enumerate(ids))


def test_the_javascript_fixtures_are_the_shipped_players_decisions() -> None:
    # js/test/learned.test.mjs holds the JavaScript package's learned player to these decisions
    # and values, written by tests/learned_fixtures.py with the pure-Python forward pass; the Rust
    # network of the Python package must make them too, or the fixtures are stale.
    fixtures = json.loads((ROOT / "js" / "test" / "fixtures" / "learned-decisions.json").read_text(encoding="utf-8"))
    player = LearnedPlayer()
    phases = Counter(case["observation"]["phase"] for case in fixtures["cases"])
    assert phases["pass"] >= 3 and phases["play"] >= 6 and phases["moon"] >= 1, phases
    assert any(
        case["ruleset"] == "cancellation-6" and case["observation"]["phase"] == "pass" for case in fixtures["cases"]
    )
    for case in fixtures["cases"]:
        observation = Observation(reversis.preset(case["ruleset"]), case["observation"])
        assert player.act(observation) == case["action"], case["ruleset"]
        assert player.value(observation) == pytest.approx(case["value"], rel=1e-3, abs=1e-3), case["ruleset"]
