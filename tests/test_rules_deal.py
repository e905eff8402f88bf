"""Presets, decks, hand sizes, the deal and the opening lead (RS-*, DEAL-*, PLAY-1)."""

from __future__ import annotations

import pytest

from helpers import (
    RANKS,
    build_deal,
    completed_tricks,
    deck_from_json,
    expect_error,
    full_deck,
    hearts,
    pass_all,
    rejected,
    sort_cards,
    spec_preset,
    spec_preset_names,
    start,
)

PRESETS = spec_preset_names()

# (preset, players, packs, cards removed from the packs (one copy an entry), hand size, opening
# card), from the documents: 002/004 §Configuração (3–7 players), 000 §02 (Hartenjagen), D-1
# (opening card), D-17 (the Cancellation decks of two packs).
# An oracle for the presets the documents and decisions describe, not a list every preset must
# be in: a preset without a row is held to what its own file gives under RS-4 and RS-12
# (deck_facts), and every preset, with a row or not, to test_deck_follows_the_file.
DECKS = [
    ("hearts-4", 4, 1, [], 13, "2C"),
    ("hearts-computer", 4, 1, [], 13, "2C"),
    ("omnibus-4", 4, 1, [], 13, "2C"),
    ("hearts-3", 3, 1, ["2D"], 17, "2C"),
    ("hearts-5", 5, 1, ["2D", "2C"], 10, "3C"),
    ("hearts-6", 6, 1, ["2D", "3D", "3C", "4C"], 8, "2C"),
    ("hearts-7", 7, 1, ["2D", "3D", "3C"], 7, "2C"),
    ("hartenjagen", 4, 1, [c for c in full_deck() if RANKS.index(c[0]) < RANKS.index("7")], 8, "7C"),
    ("hartenjagen-count-down", 4, 1, [c for c in full_deck() if RANKS.index(c[0]) < RANKS.index("7")], 8, "7C"),
    # D-10: three players without 2C, and a free lead (D-9); D-11: the classic four-player deck.
    ("black-maria", 3, 1, ["2C"], 17, None),
    ("spot-hearts", 4, 1, [], 13, "2C"),
    # D-17: 102 cards less one 2C and one 2D, the other 2C leads; all 104 and a free lead (D-9);
    # 100 cards less one each of 2C 2D 3C 3D, the other 2C leads.
    ("cancellation-6", 6, 2, ["2C", "2D"], 17, "2C"),
    ("cancellation-8", 8, 2, [], 13, None),
    ("cancellation-10", 10, 2, ["2C", "2D", "3C", "3D"], 10, "2C"),
]
DOCUMENTED = {row[0]: row for row in DECKS}


def deck_facts(name: str) -> tuple[str, int, int, list[str], int, str | None]:
    """A preset's row of DECKS; for a preset without one, the same facts from its file: RS-4,
    RS-21, the cards below ``lowest_rank`` and one copy for each entry of ``removed`` are out of
    the packs; RS-12, each seat gets an equal share of the rest."""
    if name in DOCUMENTED:
        return DOCUMENTED[name]
    data = spec_preset(name)
    deck = deck_from_json(data)
    packs = data["deck"].get("packs", 1)
    return (
        name,
        data["players"],
        packs,
        _less(_packs(packs), deck),
        len(deck) // data["players"],
        data["opening_card"],
    )


def _packs(packs: int) -> list[str]:
    """``packs`` copies of each of the 52 cards, sorted with copies adjacent (CARD-2)."""
    return [card for card in full_deck() for _ in range(packs)]


def _less(cards: list[str], taken: list[str]) -> list[str]:
    """``cards`` less one copy of each card of ``taken``."""
    left = list(cards)
    for card in taken:
        left.remove(card)
    return left


FACTS = [deck_facts(name) for name in PRESETS]


def test_preset_names(engine):
    """API-2, ruleset.md §Presets: preset_names() is the sorted list of the spec's presets."""
    assert engine.preset_names() == spec_preset_names()
    # Every row of DECKS is a preset, once: a documented preset renamed or removed fails here.
    assert len(DOCUMENTED) == len(DECKS)
    assert set(DOCUMENTED) <= set(spec_preset_names())


@pytest.mark.parametrize("name", PRESETS)
def test_preset_equals_spec_file(engine, name):
    """ruleset.md §Presets, API-2: each preset equals spec/rulesets/<name>.json by value."""
    assert engine.preset(name) == engine.Ruleset.from_json(spec_preset(name))
    assert engine.Ruleset.from_json(engine.preset(name).to_json()) == engine.preset(name)


def test_unknown_preset(engine):
    """API-2, ERR-2: an unknown preset name is unknown-preset."""
    expect_error(engine, lambda: engine.preset("hearts-8"), "unknown-preset")


@pytest.mark.parametrize("name, players, packs, removed, hand_size, opening", FACTS)
def test_deck_and_hand_size(engine, name, players, packs, removed, hand_size, opening):
    """002_a19656d00d6dcc0e.txt §Configuração, 000_8342d744d0b6b53c.txt §02, RS-4, RS-12:
    4p 52/13, 3p without 2D 17 each, 5p without 2D 2C 10 each, 6p without 2D 3D 3C 4C 8 each,
    7p without 2D 3D 3C 7 each, Hartenjagen 7–A 32 cards 8 each; opening card per D-1; D-17,
    RS-21, CARD-2: the Cancellation decks list both copies of a card, adjacent."""
    rs = engine.preset(name)
    expected = _less(_packs(packs), removed)
    assert rs.players == players
    assert list(rs.deck) == expected
    assert rs.hand_size == hand_size
    assert len(expected) == players * hand_size
    assert rs.to_json()["opening_card"] == opening
    assert opening is None or opening in expected


@pytest.mark.parametrize("name", PRESETS)
def test_deck_follows_the_file(engine, name):
    """RS-4, RS-6, RS-12 for every preset, documented or not: the deck is every card of rank at
    least ``lowest_rank`` less ``removed``, it divides evenly among the players, and the opening
    card is one of its cards or null (the free lead of D-9)."""
    data = spec_preset(name)
    rs = engine.preset(name)
    assert list(rs.deck) == deck_from_json(data)
    assert rs.players == data["players"]
    assert len(rs.deck) == rs.players * rs.hand_size
    assert data["opening_card"] is None or data["opening_card"] in rs.deck


@pytest.mark.parametrize("name", PRESETS)
def test_ruleset_attributes_are_the_fields(engine, name):
    """API-2 (every field as an attribute; cards are canonical strings): the attributes carry the
    values of spec/rulesets/<name>.json."""
    rs = engine.preset(name)
    data = spec_preset(name)
    assert rs.name == data["name"]
    assert rs.players == data["players"]
    assert rs.first_trick_ban == data["first_trick_ban"]
    assert rs.hearts_breaking == data["hearts_breaking"]
    assert rs.target == data["target"]
    assert dict(rs.card_points) == data["card_points"]
    assert rs.opening_card == data["opening_card"], "opening_card is a canonical card string"


@pytest.mark.parametrize(
    "name, expected",
    [
        ("hearts-4", hearts() + ["QS"]),
        ("hearts-computer", hearts() + ["QS"]),
        ("omnibus-4", hearts() + ["QS"]),
        ("hartenjagen", ["JC"] + hearts("7") + ["QS"]),
    ],
)
def test_point_cards(engine, name, expected):
    """RS-9, RS-14, D-8: point cards are those worth more than 0; the Omnibus JD (−10) is not one;
    Hartenjagen's are the 8 hearts, Q♠ and J♣ (000_8342d744d0b6b53c.txt §04)."""
    assert list(engine.preset(name).point_cards) == sort_cards(expected)


@pytest.mark.parametrize("name, players, packs, removed, hand_size, opening", FACTS)
def test_seeded_deal_gives_whole_deck(engine, name, players, packs, removed, hand_size, opening):
    """DEAL-1, DEAL-3: a seeded game deals hand_size sorted cards to each seat, disjoint, the
    whole deck."""
    game = engine.Game(engine.preset(name), seed=12345)
    hands = [game.hand(s) for s in range(players)]
    assert all(len(h) == hand_size for h in hands)
    assert all(h == sort_cards(h) for h in hands), "CARD-2: hands are reported sorted"
    assert sort_cards(c for h in hands for c in h) == _less(_packs(packs), removed)


# A preset without an opening card (black-maria) has a free lead (D-9, D-10), which the
# opening-lead cases of conformance/ cover.
@pytest.mark.parametrize("name, players, packs, removed, hand_size, opening", [row for row in FACTS if row[5]])
def test_holder_of_opening_card_leads_it(engine, name, players, packs, removed, hand_size, opening):
    """PLAY-1, D-1, 002_a19656d00d6dcc0e.txt §Truques, 000_8342d744d0b6b53c.txt §02: after the
    pass the holder of the opening card (2C; 3C for 5 players; 7C in Hartenjagen) leads it;
    any other lead is must-lead-opening-card, any other seat is wrong-seat."""
    rs = engine.preset(name)
    fixed = {2: [opening]}
    game = start(engine, rs, fixed, hand_number=0)
    # RS-5: hand 0 passes in the cycle's first direction (left in the presets that pass), so seat
    # 2's opening card moves on that many seats; without passing, or on hold, it stays.
    passing = spec_preset(name)["passing"]
    first = passing["cycle"][0] if passing else "hold"
    moves = {"left": 1, "right": players - 1, "across": players // 2, "hold": 0}[first]
    if game.phase == "pass":
        # seat 2 passes the opening card on, so the holder changes.
        pass_all(
            game,
            lambda hand, size: (
                sort_cards([opening] + [c for c in hand if c != opening][: size - 1])
                if opening in hand
                else hand[:size]
            ),
        )
    assert game.phase == "play"
    holder = next(s for s in range(players) if opening in game.hand(s))
    assert holder == (2 + moves) % players
    assert game.to_move == holder
    assert game.legal_plays() == [opening]
    assert list(game.trick) == [] and completed_tricks(game) == 0
    other = next(c for c in game.hand(holder) if c != opening)
    rejected(engine, game, lambda: game.play(other), "must-lead-opening-card")
    not_holder = (holder + 1) % players
    rejected(engine, game, lambda: game.play(game.hand(not_holder)[0], seat=not_holder), "wrong-seat")
    game.play(opening)
    assert [(x["seat"], x["card"]) for x in game.trick] == [(holder, opening)]
    assert game.to_move == (holder + 1) % players


def test_opening_card_lead_ignores_the_dealer(engine):
    """PLAY-1, D-1, 000_8342d744d0b6b53c.txt §02: in Hartenjagen the holder of 7C leads whatever
    the dealer (the free lead left of the dealer is only an option, D-9)."""
    for hand_number in range(4):
        for holder in range(4):
            game = start(engine, "hartenjagen", {holder: ["7C"]}, hand_number=hand_number)
            assert game.dealer == hand_number
            assert game.to_move == holder
            assert game.legal_plays() == ["7C"]


def test_card_not_held_precedes_opening_card(engine):
    """PLAY-8, ERR-4: leading a card the leader does not hold is card-not-held, not
    must-lead-opening-card."""
    game = start(engine, "hearts-4", {0: ["2C"], 1: ["AS"]}, hand_number=3)
    assert "3C" in game.hand(0) and "AS" in game.hand(1)
    rejected(engine, game, lambda: game.play("AS"), "card-not-held")
    rejected(engine, game, lambda: game.play("3C"), "must-lead-opening-card")


@pytest.mark.parametrize("name", PRESETS)
def test_dealer_is_hand_number_mod_players(engine, name):
    """DEAL-2, RS-12, 000_8342d744d0b6b53c.txt §02: the dealer of hand h is seat h mod n and
    rotates to the left."""
    rs = engine.preset(name)
    for h in range(15):
        game = engine.Game(rs, hand_number=h)
        assert game.hand_number == h
        assert game.dealer == h % rs.players


def test_invalid_deals(engine):
    """DEAL-1, ERR-2: a wrong number of hands, a wrong hand size, a duplicate card or a card not
    in the deck is invalid-deal, and the game is unchanged (ERR-1)."""
    rs = engine.preset("hearts-3")
    good = build_deal(rs.to_json())
    game = engine.Game(rs)
    bad_count = good[:2]
    bad_size = [good[0][:-1], good[1], good[2] + [good[0][-1]]]
    duplicate = [good[0][:-1] + [good[1][0]], good[1], good[2]]
    not_in_deck = [good[0][:-1] + ["2D"], good[1], good[2]]  # 2D is removed for 3 players
    for hands in (bad_count, bad_size, duplicate, not_in_deck):
        rejected(engine, game, lambda: game.deal(hands), "invalid-deal")
    assert game.phase == "deal"
    game.deal(good)
    assert game.phase == "pass"


def test_deal_accepts_card_aliases(engine):
    """ACT-1, CARD-4: cards in actions may use any accepted form; the game holds canonical cards."""
    rs = engine.preset("hartenjagen")
    hands = build_deal(rs.to_json())
    written = [[c.replace("T", "10").lower() for c in hand] for hand in hands]
    game = engine.Game(rs)
    game.deal(written)
    assert [game.hand(s) for s in range(4)] == [sort_cards(h) for h in hands]


def test_unseeded_deal_without_hands_is_no_seed(engine):
    """DEAL-3, ERR-2: an unseeded game cannot deal from a seed (no-seed)."""
    game = engine.Game(engine.preset("hearts-4"))
    assert game.phase == "deal" and game.seed is None
    rejected(engine, game, lambda: game.deal(), "no-seed")


def test_deal_without_hands_checks_the_phase_first(engine):
    """ERR-4: ``deal()`` reports the phase (wrong-phase, moon-choice-pending, match-over) before
    no-seed, seeded or not; a seeded game is never in phase deal (DEAL-3)."""
    seeded = engine.Game(engine.preset("hearts-4"), seed=1)
    rejected(engine, seeded, lambda: seeded.deal(), "wrong-phase")
    unseeded = engine.Game(engine.preset("hartenjagen"))
    unseeded.deal(engine.deal_from_seed(unseeded.ruleset, 1)[0])
    rejected(engine, unseeded, lambda: unseeded.deal(), "wrong-phase")
    over = engine.Game(engine.preset("hartenjagen").replace(target=1))
    over.deal(engine.deal_from_seed(over.ruleset, 2)[0])
    while over.phase == "play":
        over.play(over.legal_plays()[0])
    assert over.phase == "over"
    rejected(engine, over, lambda: over.deal(), "match-over")
