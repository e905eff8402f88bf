"""Cards and notation (spec/cards.md, API-1)."""

from __future__ import annotations

import pytest

from helpers import RANKS, SUITS, expect_error, full_deck


def test_canonical_strings_parse_to_themselves(engine):
    """CARD-3: the canonical string is rank then suit (2C, TH, QS, AS); it reads as itself."""
    for card in full_deck():
        assert engine.parse_card(card) == card


@pytest.mark.parametrize(
    "text, expected",
    [
        ("10H", "TH"),
        ("qs", "QS"),
        ("th", "TH"),
        ("2c", "2C"),
        ("10h", "TH"),
        ("Q♠", "QS"),
        ("10♥", "TH"),
        ("A♣", "AC"),
        ("7♦", "7D"),
        ("A♧", "AC"),
        ("K♢", "KD"),
        ("J♡", "JH"),
        ("9♤", "9S"),
        ("10♣", "TC"),
        ("  AS  ", "AS"),
        ("\tjd\n", "JD"),
    ],
)
def test_aliases_parse_to_canonical(engine, text, expected):
    """CARD-4: lowercase letters, 10 for T, suit symbols (black and white forms) and surrounding
    whitespace are accepted; parse_card returns the canonical string (API-1)."""
    assert engine.parse_card(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "1H",
        "11H",
        "0H",
        "XH",
        "QX",
        "Q",
        "S",
        "10",
        "QSS",
        "Q S",
        "SQ",
        "HT",
        "Q♠♠",
        "♠Q",
        "QS,",
        "1OH",
        "JOKER",
        "QH1",
        "2",
    ],
)
def test_invalid_strings_raise_invalid_card(engine, text):
    """CARD-4, ERR-2: anything that is not a card is an invalid-card InvalidInputError."""
    expect_error(engine, lambda: engine.parse_card(text), "invalid-card")


@pytest.mark.parametrize(
    "card, expected", [("2C", 0), ("AC", 12), ("2D", 13), ("2H", 26), ("QS", 49), ("AS", 51), ("TH", 34)]
)
def test_card_id_examples(engine, card, expected):
    """CARD-2: the examples of the spec (2C 0, AC 12, 2D 13, 2H 26, QS 49, AS 51)."""
    assert engine.card_id(card) == expected


def test_card_id_formula_for_every_card(engine):
    """CARD-2: id = suit_index * 13 + rank_index with C=0 D=1 H=2 S=3 and 2→0 … A→12."""
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(RANKS):
            assert engine.card_id(rank + suit) == s * 13 + r


def test_error_classes(engine):
    """ERR-5: ReversisError is a ValueError; InvalidInputError and IllegalActionError extend it."""
    assert issubclass(engine.ReversisError, ValueError)
    assert issubclass(engine.InvalidInputError, engine.ReversisError)
    assert issubclass(engine.IllegalActionError, engine.ReversisError)
    assert not issubclass(engine.InvalidInputError, engine.IllegalActionError)
    err = expect_error(engine, lambda: engine.parse_card("ZZ"), "invalid-card")
    assert "zz" in str(err).lower(), "ERR-5: the message quotes the offending input"
