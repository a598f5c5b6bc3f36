"""Cards (rules §1.1, §3.1; notation «Cards»): tokens, names, decks and card points."""

from __future__ import annotations

import pytest

from engine.cards import (
    THOUSAND_DECK,
    TUMBOCHKA_DECK,
    card_name,
    card_points,
    cards_of,
    parse_card,
    parse_suit,
)

ALL_NAMES = [r + s for s in "SCDH" for r in "6789JQKTA"]


@pytest.mark.parametrize(
    ("token", "name"),
    [
        ("AS", "AS"),
        ("TS", "TS"),
        ("10S", "TS"),
        ("10h", "TH"),
        ("ts", "TS"),
        ("9d", "9D"),
        ("6C", "6C"),
        ("QH", "QH"),
        ("K♠", "KS"),
        ("J♣", "JC"),
        ("A♦", "AD"),
        ("10♥", "TH"),
        ("7♥", "7H"),
        (" 8C ", "8C"),
    ],
)
def test_parse_card_accepts_the_notation(token: str, name: str) -> None:
    assert card_name(parse_card(token)) == name


@pytest.mark.parametrize(
    "token",
    ["", "A", "S", "1S", "0S", "11S", "100S", "5S", "AX", "ASS", "TT", "10", "A♤", "ZZ", "A S"],
)
def test_parse_card_refuses_bad_tokens(token: str) -> None:
    with pytest.raises(ValueError):
        parse_card(token)


def test_every_card_name_round_trips() -> None:
    ids = [parse_card(n) for n in ALL_NAMES]
    assert len(set(ids)) == 36
    assert sorted(ids) == list(range(36))
    assert [card_name(i) for i in ids] == ALL_NAMES


def test_ids_are_suit_times_nine_plus_rank() -> None:
    assert parse_card("6S") == 0
    assert parse_card("AS") == 8
    assert parse_card("6C") == 9
    assert parse_card("9D") == 21
    assert parse_card("AH") == 35


@pytest.mark.parametrize(
    ("token", "suit"),
    [
        ("S", 0),
        ("C", 1),
        ("D", 2),
        ("H", 3),
        ("s", 0),
        ("h", 3),
        ("♠", 0),
        ("♣", 1),
        ("♦", 2),
        ("♥", 3),
    ],
)
def test_parse_suit(token: str, suit: int) -> None:
    assert parse_suit(token) == suit


@pytest.mark.parametrize(
    "token",
    [
        "X",
        "SC",
        "T",
        "♤",
        "",
        "♠♣",
        "♦♥",
    ],
)
def test_parse_suit_refuses(token: str) -> None:
    with pytest.raises(ValueError):
        parse_suit(token)


def test_thousand_deck_is_nine_to_ace() -> None:
    names = [card_name(c) for c in cards_of(THOUSAND_DECK)]
    assert names == [r + s for s in "SCDH" for r in "9JQKTA"]


def test_tumbochka_deck_is_six_to_king_without_nine_ten_ace() -> None:
    names = [card_name(c) for c in cards_of(TUMBOCHKA_DECK)]
    assert names == [r + s for s in "SCDH" for r in "678JQK"]


@pytest.mark.parametrize(
    ("token", "points"),
    [("9S", 0), ("JC", 2), ("QD", 3), ("KH", 4), ("TS", 10), ("AC", 11)],
)
def test_card_points(token: str, points: int) -> None:
    assert card_points(1 << parse_card(token)) == points


def test_the_thousand_deck_holds_120_points() -> None:
    assert card_points(THOUSAND_DECK) == 120


def test_cards_of_lists_from_the_lowest_id() -> None:
    m = (1 << parse_card("AH")) | (1 << parse_card("9S")) | (1 << parse_card("KD"))
    assert [card_name(c) for c in cards_of(m)] == ["9S", "KD", "AH"]
