"""The Python API of spec/api.md in both engines: the same surface, action ids (ACT-2, ACT-3,
API-10), events (EVT-1, EVT-2), undo (API-8), the position (API-9), equality, hashing, copies,
pickling and subclasses (API-3), and interchangeable rulesets with ``replace`` (API-2)."""

from __future__ import annotations

import copy
import inspect
import json
import pickle
import random
from typing import Any

import pytest

import reversis
from helpers import SPEC, cid, spec_error_codes
from reversis import _core, reference

# ------------------------------------------------------------------------------ the surface


def _public(obj: Any) -> set[str]:
    return {name for name in dir(obj) if not name.startswith("_")}


def _signature(obj: Any) -> list[tuple[str, Any, Any]]:
    """Parameter names, kinds and defaults: what a caller sees, without type hints or ``self``."""
    try:
        parameters = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return [("<none>", None, None)]
    return [(p.name, p.kind, p.default) for p in parameters if p.name != "self"]


def test_both_engines_export_the_same_names() -> None:
    assert set(reversis.__all__) == set(reference.__all__)


@pytest.mark.parametrize("name", sorted(reference.__all__))
def test_module_level_names_have_the_same_signatures(name: str) -> None:
    ours, theirs = getattr(reversis, name), getattr(reference, name)
    if callable(ours) and not isinstance(ours, type):
        assert _signature(ours) == _signature(theirs), name
    elif not callable(ours) and name != "ENGINE":
        assert ours == theirs, name


@pytest.mark.parametrize("cls", ["Game", "Ruleset", "VectorEnv"])
def test_classes_have_the_same_public_members_and_signatures(cls: str) -> None:
    rust, ref = getattr(reversis, cls), getattr(reference, cls)
    assert _public(rust) == _public(ref)
    for member in sorted(_public(ref)):
        rust_member, ref_member = inspect.getattr_static(rust, member), inspect.getattr_static(ref, member)
        # A read-only attribute in one engine is one in the other (PyO3 getters are data descriptors).
        assert inspect.isdatadescriptor(rust_member) == inspect.isdatadescriptor(ref_member), member
        if callable(getattr(ref, member)):
            assert _signature(getattr(rust, member)) == _signature(getattr(ref, member)), f"{cls}.{member}"
    if cls in ("Game", "VectorEnv"):
        assert _signature(rust) == _signature(ref)


@pytest.mark.parametrize("name", reversis.preset_names())
def test_every_field_reads_the_same_in_both_engines(name: str) -> None:
    """API-2: every field of RULESET_FIELDS is an attribute of a ruleset of either engine, with
    or without a getter of its own (one without is read generically in both), and the two agree;
    an optional field the ruleset leaves out reads as its default, ``None`` where it has none."""
    ours, theirs = reversis.preset(name), reference.preset(name)
    data = ours.to_json()
    for field in _core.RULESET_FIELD_TABLE:
        key = field["name"]
        if key == "spec_version":
            continue  # RS-17: not part of a ruleset's value
        assert getattr(ours, key) == getattr(theirs, key), f"{name}.{key}"
        if key not in data:
            assert getattr(ours, key) == field["default"], f"{name}.{key}"


def test_the_error_codes_are_one_list() -> None:
    """API-6: the codes the core exports, the reference's, errors.md and the suite's schema."""
    spec = tuple(spec_error_codes())
    assert spec == reversis.ERROR_CODES
    assert spec == reference.ERROR_CODES
    schema = json.loads((SPEC / "schemas" / "conformance.schema.json").read_text(encoding="utf-8"))
    assert tuple(schema["$defs"]["error"]["enum"]) == spec


# ------------------------------------------------------------------------------ action ids


def test_action_ids_follow_act_2(engine) -> None:
    assert engine.NUM_ACTIONS == 106
    assert engine.action_ids({"type": "play", "seat": 2, "card": "qs"}) == [cid("QS")]
    assert engine.action_ids({"type": "pass", "seat": 1, "cards": ["QS", "2C", "AH"]}) == [52, 52 + 38, 52 + 49]
    assert engine.action_ids({"type": "moon", "seat": 0, "choice": "add-to-others"}) == [104]
    assert engine.action_ids({"type": "moon", "seat": 0, "choice": "subtract-from-taker"}) == [105]
    assert engine.action_from_ids([49], 3) == {"type": "play", "seat": 3, "card": "QS"}
    assert engine.action_from_ids([52 + 49, 52], 1) == {"type": "pass", "seat": 1, "cards": ["2C", "QS"]}
    # Both copies of a card of two packs (RS-21): the id twice, as action_ids gives it.
    assert engine.action_from_ids([53, 52 + 49, 53], 1) == {"type": "pass", "seat": 1, "cards": ["3C", "3C", "QS"]}
    assert engine.action_from_ids([105], 2) == {"type": "moon", "seat": 2, "choice": "subtract-from-taker"}
    assert [engine.action_label(i) for i in (0, 49, 52 + 12, 104, 105)] == [
        "play 2C",
        "play QS",
        "pass AC",
        "moon add-to-others",
        "moon subtract-from-taker",
    ]


@pytest.mark.parametrize(
    "bad",
    [
        lambda e: e.action_ids({"type": "deal", "hands": [[], [], [], []]}),
        lambda e: e.action_from_ids([], 0),
        lambda e: e.action_from_ids([0, 1], 0),
        lambda e: e.action_from_ids([52, 52, 52], 0),
        lambda e: e.action_from_ids([52, 104], 0),
        lambda e: e.action_from_ids([106], 0),
        lambda e: e.action_from_ids([True], 0),
        lambda e: e.action_label(-1),
        lambda e: e.action_label(106),
        lambda e: e.action_label("0"),
    ],
)
def test_action_id_conversions_reject_what_is_not_an_action(engine, bad) -> None:
    with pytest.raises(engine.InvalidInputError) as caught:
        bad(engine)
    assert caught.value.code == "invalid-action"


def test_legal_actions_agree_with_legal_plays_hands_and_masks(engine) -> None:
    rng = random.Random(5)
    for name in engine.preset_names():
        game = engine.Game(engine.preset(name), seed=rng.randrange(1 << 64))
        while game.phase != "over" and len(game.hand_scores) < 2:
            actor = game.to_act
            ids = game.legal_actions()
            assert game.legal_mask() == sum(1 << i for i in ids)
            assert ids == sorted(ids) and ids
            if game.phase == "play":
                assert ids == [engine.card_id(c) for c in game.legal_plays()]
                assert actor == game.to_move
            elif game.phase == "pass":
                assert actor == min(game.awaiting_pass)
                # ACT-3: every card held more times than it is selected (two packs: a card may be held twice).
                unselected = list(game.hand(actor))
                for card in game.selected(actor):
                    unselected.remove(card)
                assert ids == sorted({52 + engine.card_id(c) for c in unselected})
                for seat in range(game.ruleset.players):
                    if seat not in game.awaiting_pass:
                        assert game.legal_actions(seat) == [] and game.legal_mask(seat) == 0
            else:
                assert ids == [104, 105] and actor == game.moon_taker
            game.apply_action(rng.choice(ids))


def test_a_pass_selected_card_by_card_is_the_same_as_pass_cards(engine) -> None:
    by_ids = engine.Game(engine.preset("hearts-4"), seed=11)
    by_cards = engine.Game(engine.preset("hearts-4"), seed=11)
    for seat in range(4):
        cards = by_cards.hand(seat)[-3:]
        by_cards.pass_cards(cards, seat)
        for card in reversed(cards):
            by_ids.apply_action(52 + engine.card_id(card), seat)
    assert by_ids == by_cards
    assert by_ids.actions == by_cards.actions
    assert by_ids.to_record() == by_cards.to_record()


# ------------------------------------------------------------------------------ events


def _random_match(engine, name: str, seed: int, hands: int = 3):
    """Yield the game after each accepted action of a random match, until ``hands`` hands."""
    rng = random.Random(seed)
    game = engine.Game(engine.preset(name), seed=seed)
    while game.phase != "over" and len(game.hand_scores) < hands:
        game.apply_action(rng.choice(game.legal_actions()))
        yield game


@pytest.mark.parametrize("name", ["hearts-4", "hartenjagen", "hearts-6", "omnibus-4"])
def test_events_agree_with_the_tricks_and_the_scores(engine, name: str) -> None:
    tricks: list[dict[str, Any]] = []
    hands_seen = 0
    for game in _random_match(engine, name, seed=21):
        for event in game.events:
            if event["type"] == "trick":
                tricks.append({key: event[key] for key in ("leader", "cards", "winner", "points")})
                if game.tricks_played:
                    assert tricks[-1] == game.tricks_played[-1]
            elif event["type"] == "hand":
                hands_seen += 1
                last = game.last_hand
                assert last["tricks"] == tricks and len(tricks) == game.ruleset.hand_size
                assert event["scores"] == game.hand_scores[-1] == last["scores"]
                assert event["points"] == last["points"]
                assert sum(event["points"]) == sum(t["points"] for t in tricks)
                assert event["hand_number"] == last["hand_number"]
                tricks = []
            elif event["type"] == "deal":
                assert event["hand_number"] == game.hand_number and event["dealer"] == game.dealer
    assert hands_seen == 3


# ------------------------------------------------------------------------------ undo


def _history(game) -> tuple[Any, ...]:
    return (game.state(), list(game.actions), game.hand_scores, game.last_hand)


@pytest.mark.parametrize("seeded", [True, False])
def test_undoing_every_action_gives_back_every_earlier_position(engine, seeded: bool) -> None:
    rng = random.Random(3)
    ruleset = engine.preset("hearts-4").replace(target=40)
    game = engine.Game(ruleset, seed=8 if seeded else None)
    start = copy.deepcopy(_history(game))
    seen = [start]
    while game.phase != "over":
        if game.phase == "deal":
            game.deal(engine.deal_from_seed(ruleset, rng.randrange(1 << 64))[0])
        else:
            game.apply_action(rng.choice(game.legal_actions()))
        seen.append(copy.deepcopy(_history(game)))
    assert len(game.hand_scores) >= 2
    for expected in reversed(seen[:-1]):
        game.undo()
        assert _history(game) == expected
        assert game.events == []
    with pytest.raises(engine.IllegalActionError) as caught:
        game.undo()
    assert caught.value.code == "nothing-to-undo"
    assert _history(game) == start


def test_a_replayed_game_undoes_like_the_original(engine) -> None:
    original = engine.Game(engine.preset("hartenjagen"), seed=4)
    rng = random.Random(4)
    while len(original.hand_scores) < 2:
        original.play(rng.choice(original.legal_plays()))
    replayed = engine.Game.from_record(original.to_record())
    while True:
        assert replayed == original and replayed.actions == original.actions
        outcome = [None, None]
        for index, game in enumerate((original, replayed)):
            try:
                game.undo()
            except engine.IllegalActionError as error:
                outcome[index] = error.code
        assert outcome[0] == outcome[1]
        if outcome[0] is not None:
            break
    assert len(original.actions) == 1  # back to the first deal, made by the seed


# ------------------------------------------------------------------------------ equality, copies, pickling


def test_games_are_equal_exactly_when_their_positions_are(engine) -> None:
    a = engine.Game(engine.preset("hearts-4"), seed=2)
    b = engine.Game(engine.preset("hearts-4"), seed=2)
    assert a == b and hash(a) == hash(b) and a.state() == b.state()
    a.apply_action(a.legal_actions()[0])
    assert a != b and a.state() != b.state()
    b.apply_action(b.legal_actions()[0])
    assert a == b and hash(a) == hash(b)
    assert a != engine.Game(engine.preset("hearts-4"), seed=3)
    assert a != "a game" and a != a.state()
    assert len({a, b}) == 1


def test_the_state_is_the_position_without_history(engine) -> None:
    game = engine.Game(engine.preset("hearts-4"), seed=9)
    keys = {
        "ruleset", "seed", "seed_deals", "phase", "hand_number", "to_move", "moon_taker", "winners", "hands",
        "selected", "passed", "received", "trick", "tricks", "hearts_broken", "count_down", "voids", "points",
        "scores",
    }  # fmt: skip
    assert set(game.state()) == keys
    assert game.state()["seed_deals"] == 1 and game.state()["ruleset"] == game.ruleset.to_json()


def test_copies_are_independent_and_keep_the_undo_history(engine) -> None:
    game = engine.Game(engine.preset("hearts-computer"), seed=6)
    for _ in range(7):
        game.apply_action(game.legal_actions()[-1])
    for twin in (game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin == game and twin is not game and type(twin) is type(game)
        assert twin.actions == game.actions and twin.hand_scores == game.hand_scores
        twin.undo()
        assert twin != game
        twin.apply_action(twin.legal_actions()[-1])
        assert twin == game


def test_a_pending_selection_survives_pickling(engine) -> None:
    game = engine.Game(engine.preset("hearts-4"), seed=12)
    game.apply_action(game.legal_actions(2)[0], 2)
    game.apply_action(game.legal_actions(0)[1], 0)
    back = pickle.loads(pickle.dumps(game))
    assert back == game and back.selected(2) == game.selected(2) and len(back.selected(0)) == 1
    back.undo()
    assert back.selected(0) == [] and back.selected(2) == game.selected(2)


class RustTable(reversis.Game):
    """A subclass of the Rust engine's game, at module level so that pickle can find it."""


class ReferenceTable(reference.Game):
    """A subclass of the reference engine's game."""


def test_a_subclass_keeps_its_class(engine) -> None:
    Table = RustTable if engine is reversis else ReferenceTable
    game = Table(engine.preset("hartenjagen"), seed=1)
    game.play(game.legal_plays()[0])
    for twin in (game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert type(twin) is Table and twin == game
    replayed = Table.from_record(game.to_record())
    assert type(replayed) is Table and replayed == game


def test_actions_is_a_snapshot(engine) -> None:
    game = engine.Game(engine.preset("hartenjagen"), seed=1)
    game.play(game.legal_plays()[0])
    seen = game.actions
    as_list = [dict(action) for action in seen]
    assert len(seen) == 2 and seen == as_list and seen[-1] == as_list[-1] and seen[:1] == as_list[:1]
    assert list(seen) == as_list and as_list == list(seen)
    seen[0]["type"] = "changed"
    assert game.actions[0]["type"] == "deal"
    game.play(game.legal_plays()[0])
    game.undo()
    game.undo()
    game.play(game.legal_plays()[-1])
    assert len(seen) == 2 and list(seen) == as_list
    with pytest.raises(IndexError):
        seen[2]


# ------------------------------------------------------------------------------ rulesets


@pytest.mark.parametrize("name", reference.preset_names())
def test_the_engines_rulesets_are_interchangeable(name: str) -> None:
    rust, ref = reversis.preset(name), reference.preset(name)
    assert rust == ref and ref == rust and hash(rust) == hash(ref)
    assert len({rust, ref}) == 1
    assert reversis.Game(ref, seed=1).ruleset == rust
    assert type(reversis.Game(ref, seed=1).ruleset) is reversis.Ruleset
    assert type(reference.Game(rust, seed=1).ruleset) is reference.Ruleset
    assert reversis.Game(ref, seed=1).state() == reference.Game(rust, seed=1).state()
    assert pickle.loads(pickle.dumps(rust)) == rust and pickle.loads(pickle.dumps(ref)) == ref
    assert type(pickle.loads(pickle.dumps(rust))) is reversis.Ruleset


def test_replace_turns_on_the_optional_rules(engine) -> None:
    """The presets that differ from hearts-4 by one rule are hearts-4 with that rule replaced."""
    base = engine.preset("hearts-4")
    omnibus = engine.preset("omnibus-4")
    assert (
        base.replace(card_points={"JD": -10}, name=omnibus.name, title=omnibus.title, sources=omnibus.sources)
        == omnibus
    )
    computer = engine.preset("hearts-computer")
    assert (
        base.replace(
            hearts_breaking="heart",
            moon_scoring="add-to-others",
            name=computer.name,
            title=computer.title,
            sources=computer.sources,
        )
        == computer
    )
    free = base.replace(opening_card=None)
    assert free.opening_card is None and free.name == "hearts-4-custom" and free.title == f"{base.title} (custom)"
    assert base.opening_card == "2C"
    no_queen = base.replace(card_points={"QS": 0})
    assert "QS" not in no_queen.card_points and no_queen.point_cards == [f"{r}H" for r in "23456789TJQKA"]
    assert base.replace(pass_size=2).passing == {"cycle": ["left", "right", "across", "hold"], "size": 2}
    jagen = engine.preset("hartenjagen")
    assert jagen.replace(pass_cycle=["left"], pass_size=1).passing == {"cycle": ["left"], "size": 1}
    assert jagen.replace(lowest_rank="8", opening_card="8C", card_points={"7H": 0}).deck[0] == "8C"


@pytest.mark.parametrize(
    "changes",
    [
        {"colour": "red"},
        {"players": 9},
        {"pass_size": 0},
        {"moon_bonus": 10, "moon": None},
        {"card_points": {"XX": 1}},
        {"card_points": "QS"},
        {"target": True},
    ],
)
def test_replace_rejects_what_is_not_a_valid_ruleset(engine, changes: dict[str, Any]) -> None:
    with pytest.raises(engine.InvalidInputError) as caught:
        engine.preset("hearts-4").replace(**changes)
    assert caught.value.code == "invalid-ruleset"


def test_replace_needs_both_parts_of_a_missing_nested_field(engine) -> None:
    jagen = engine.preset("hartenjagen")  # no passing
    with pytest.raises(engine.InvalidInputError):
        jagen.replace(pass_size=2)
    without_moon = engine.preset("hearts-4").replace(moon=None)
    with pytest.raises(engine.InvalidInputError):
        without_moon.replace(moon_scoring="add-to-others")
    assert without_moon.replace(moon_scoring="add-to-others", moon_bonus=26).moon == {
        "scoring": "add-to-others",
        "bonus": 26,
    }


def test_rulesets_are_immutable(engine) -> None:
    ruleset = engine.preset("hearts-4")
    for name in ("players", "name", "card_points", "unknown"):
        with pytest.raises(AttributeError):
            setattr(ruleset, name, 9)
    with pytest.raises(AttributeError):
        del ruleset.players
    ruleset.card_points["QS"] = 0
    assert ruleset.card_points["QS"] == 13 and ruleset.players == 4


# ------------------------------------------------------------------------------ parity


def test_engines_agree_on_edge_inputs(engine) -> None:
    """Places where the two engines once differed (API-3, API-4, ERR-6)."""
    title = dict(engine.preset("hearts-4").to_json(), title="\ud800")
    with pytest.raises(engine.InvalidInputError) as caught:
        engine.Ruleset.from_json(title)
    assert caught.value.code == "invalid-ruleset"
    with pytest.raises(engine.InvalidInputError) as caught:
        engine.Game(engine.preset("hearts-4"), 1, hand_number=None)
    assert caught.value.code == "invalid-setup"
    game = engine.Game(engine.preset("hartenjagen"), seed=5)
    game.play(game.legal_plays()[0])
    record = game.to_record()
    with pytest.raises(engine.InvalidInputError) as caught:
        engine.dump_record(record, None)
    assert caught.value.code == "invalid-record"
    as_tuples = dict(record, actions=tuple(record["actions"]))
    assert engine.Game.from_record(as_tuples) == game
    assert engine.load_record(engine.dump_record(as_tuples)) == record
    assert engine.load_record(engine.dump_record(record, "msgpack")) == record


@pytest.mark.parametrize("module", [reversis, reference], ids=["rust", "reference"])
def test_numpy_integers_are_integer_arguments(module: Any) -> None:
    np = pytest.importorskip("numpy")
    ruleset = module.preset("hearts-4")
    game = module.Game(ruleset, seed=np.uint64(3), hand_number=np.int64(3))
    assert game == module.Game(ruleset, seed=3, hand_number=3)
    first = game.legal_actions()[0]
    twin = game.copy()
    game.apply_action(np.int16(first), np.int32(game.to_act))
    twin.apply_action(first)
    assert game == twin
    assert game.hand(np.int8(1)) == game.hand(1)
    assert module.action_label(np.int64(5)) == module.action_label(5)
    assert module.action_from_ids([np.int64(5)], np.uint8(2)) == module.action_from_ids([5], 2)
    assert module.deal_from_seed(ruleset, np.uint32(1), np.int64(2)) == module.deal_from_seed(ruleset, 1, 2)
    assert module.seed_draws(np.int64(2), np.int64(3)) == module.seed_draws(2, 3)
    # Booleans and floats stay rejected, NumPy's too, and the game is unchanged.
    for bad in (True, np.bool_(True), 2.0, np.float64(2), "2"):
        with pytest.raises(module.InvalidInputError) as caught:
            game.apply_action(bad)
        assert caught.value.code == "invalid-action"
        assert game == twin
