"""Trick play (rules §1.5, §2, §3.2): follow suit, else trump, else anything; no duty to beat;
the highest trump wins, else the highest card of the suit led; off-suit discards lose."""

from __future__ import annotations

import pytest

from engine import Game, MatchState, Play, Reason, legal_actions
from engine.cards import card_name, cards_of, parse_card, parse_suit
from engine.tricks import replies
from tests.engine.helpers import act, deal, mask, refusal, rules
from tests.engine.test_rules_thousand_one import DEAL_T1, TALON_T1

R = Reason


def position_x() -> MatchState:
    """Тысяча одно: p2 declares ♥ with the king (trump ♥) and p3 wins with the ace.

    Then p3 (to lead) holds TH QC JC TD KD QD JD, p1 holds JH AS TS KS QS JS 9S and
    p2 holds QH AC TC KC 9C AD 9D.
    """
    s = deal(rules(Game.THOUSAND_ONE), DEAL_T1, TALON_T1)
    s = act(
        s,
        "p2 bid 40",
        "p3 pass",
        "p1 pass",
        "p2 give 9S p1",
        "p2 give JD p3",
        "p2 play KH marriage",
    )
    assert refusal(s, "p3 play QC") is R.MUST_FOLLOW_SUIT
    s = act(s, "p3 play AH")
    assert refusal(s, "p1 play AS") is R.MUST_FOLLOW_SUIT
    s = act(s, "p1 play 9H")
    d = s.deal
    assert d is not None
    assert d.tricks[-1][0] == 2 and d.turn == 2 and d.trump == 3
    return s


def _playable(s: MatchState) -> list[str]:
    return [card_name(a.card) for a in legal_actions(s) if isinstance(a, Play)]


@pytest.mark.parametrize(
    ("lead", "seat", "playable"),
    [
        # p1 void in clubs holds the trump JH: must trump
        ("p3 play QC", "p1", ["JH"]),
        # p1 void in diamonds: must trump
        ("p3 play TD", "p1", ["JH"]),
        # trump led: follow with trump
        ("p3 play TH", "p1", ["JH"]),
    ],
)
def test_void_in_the_suit_led_a_trump_is_due(lead: str, seat: str, playable: list[str]) -> None:
    s = act(position_x(), lead)
    assert _playable(s) == playable


@pytest.mark.parametrize(
    ("hand", "led", "trump", "allowed"),
    [
        ("AS 9S KH", "TS", "-", "9S AS"),  # the suit led
        ("AS 9S KH", "TS", "H", "9S AS"),  # the suit led before a trump
        ("QD KH 9H", "TS", "H", "9H KH"),  # void: a trump
        ("QD 9C", "TS", "H", "9C QD"),  # void, no trump held: anything
        ("QD 9C", "TS", "-", "9C QD"),  # void, no trump suit: anything
        ("AH 9S", "TH", "H", "AH"),  # a trump led: a trump
    ],
)
def test_the_cards_that_may_go_onto_a_lead(hand: str, led: str, trump: str, allowed: str) -> None:
    """``tricks.replies``, the one statement of the duty, which ``playable`` and the
    computer players' defence model both ask."""
    held = mask(hand)
    suit = -1 if trump == "-" else parse_suit(trump)
    found = replies(held, parse_card(led), suit)
    assert [card_name(c) for c in cards_of(found)] == allowed.split()


def test_following_suit_comes_before_trumping() -> None:
    s = act(position_x(), "p3 play QC", "p1 play JH")
    assert _playable(s) == ["9C", "KC", "TC", "AC"]
    assert refusal(s, "p2 play QH") is R.MUST_FOLLOW_SUIT
    assert refusal(s, "p2 play 9D") is R.MUST_FOLLOW_SUIT


def test_a_void_player_with_trumps_refused_a_discard() -> None:
    s = act(position_x(), "p3 play QC")
    assert refusal(s, "p1 play AS") is R.MUST_TRUMP
    assert refusal(s, "p1 play JH marriage") is R.NOT_ON_LEAD


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        # a trump beats the ace of the suit led
        (("p3 play QC", "p1 play JH", "p2 play AC"), 0),
        (("p3 play TD", "p1 play JH", "p2 play AD"), 0),
        # trump led, the highest trump wins (T over J and Q)
        (("p3 play TH", "p1 play JH", "p2 play QH"), 2),
        # no duty to beat: following low is allowed and loses
        (("p3 play KD", "p1 play JH", "p2 play 9D"), 0),
    ],
)
def test_trick_winners(plays: tuple[str, ...], winner: int) -> None:
    s = act(position_x(), *plays)
    d = s.deal
    assert d is not None
    assert d.tricks[-1][0] == winner
    assert d.turn == winner


@pytest.mark.parametrize(
    ("p2_card", "winner"),
    [("9C", 2), ("AC", 1)],
)
def test_an_off_suit_discard_loses_even_an_ace(p2_card: str, winner: int) -> None:
    # p1 spends its only trump, then is void in clubs and trumps: it discards the ace of spades
    s = act(position_x(), "p3 play TH", "p1 play JH", "p2 play QH", "p3 play QC")
    assert _playable(s) == ["9S", "JS", "QS", "KS", "TS", "AS"]
    s = act(s, "p1 play AS", f"p2 play {p2_card}")
    d = s.deal
    assert d is not None
    assert d.tricks[-1][0] == winner


def test_without_a_trump_a_void_player_plays_anything() -> None:
    s = deal(rules(Game.THOUSAND_ONE), DEAL_T1, TALON_T1)
    s = act(s, "p2 bid 40", "p3 pass", "p1 pass", "p2 give 9S p1", "p2 give JD p3", "p2 play AC")
    assert s.deal is not None and s.deal.trump is None
    # p3 follows clubs; p1 is void in clubs and there is no trump: any card
    assert _playable(s) == ["JC", "QC"]
    s = act(s, "p3 play JC")
    assert len(_playable(s)) == 8
    s = act(s, "p1 play AS")
    assert s.deal is not None and s.deal.tricks[-1][0] == 1


def test_a_later_marriage_replaces_the_trump() -> None:
    s = act(position_x(), "p3 play QC", "p1 play JH", "p2 play 9C", "p1 play KS marriage")
    d = s.deal
    assert d is not None
    assert d.trump == 0
    assert d.points == (2 + 3 + 40, 100, 15)


def test_leading_k_or_q_without_declaring_is_allowed() -> None:
    s = act(position_x(), "p3 play QC", "p1 play JH", "p2 play 9C", "p1 play QS")
    d = s.deal
    assert d is not None
    assert d.trump == 3
    assert d.points == (5, 100, 15)


def test_the_declarer_leads_the_first_trick_and_turns_go_clockwise() -> None:
    s = deal(rules(Game.THOUSAND_ONE), DEAL_T1, TALON_T1)
    s = act(s, "p2 pass", "p3 bid 40", "p1 pass", "p3 give 9S p1", "p3 give 9D p2")
    assert s.turn == 2
    assert refusal(s, "p1 play AS") is R.NOT_YOUR_TURN
    s = act(s, "p3 play QC")
    assert s.turn == 0
    s = act(s, "p1 play AS")
    assert s.turn == 1
