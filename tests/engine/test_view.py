"""``view``: a seat sees its own hand and nothing of the others', the talon only when the game
shows it (or to the seat that took it), the cards it gave or received; the public view no
hand at all. Events carry only what everyone may know."""

from __future__ import annotations

import pytest

from engine import Deal, Game, MatchState, Phase, apply, legal_actions, parse_action, view
from engine.events import CardGiven, TalonShown, TalonTaken
from tests.engine.helpers import (
    DEAL_A,
    TALON_A,
    TUMB_DEAL,
    TUMB_TALON,
    act,
    deal,
    mask,
    names,
    rules,
)
from tests.engine.test_rules_thousand_one import DEAL_4, DEAL_T1, TALON_4, TALON_T1


def _a(**options: str) -> MatchState:
    return deal(rules(**options), DEAL_A, TALON_A)


def test_each_seat_sees_its_own_hand_only() -> None:
    s = _a()
    for seat in range(3):
        v = view(s, seat)
        assert v.seat == seat
        assert names(v.hand) == sorted(DEAL_A[seat].split(), key=lambda n: mask(n))
        assert mask(" ".join(names(v.hand))) == mask(DEAL_A[seat])
        for other in range(3):
            if other != seat:
                assert not mask(" ".join(names(v.hand))) & mask(DEAL_A[other])
    assert view(s, 0).hand_sizes == (7, 7, 7)


def test_the_public_view_has_no_hand_and_no_legal_actions() -> None:
    s = _a()
    v = view(s, None)
    assert v.seat is None and v.hand == () and v.legal == ()
    assert v.talon is None
    assert v.turn == 2 and v.bids == ((1, 100),)


def test_the_legal_actions_of_a_view_are_the_seats() -> None:
    s = _a()
    for seat in range(3):
        assert view(s, seat).legal == legal_actions(s, seat)
    assert view(s, 0).legal == ()
    assert len(view(s, 2).legal) == 21  # 105..200 and pass


def test_the_talon_is_hidden_during_bidding_and_shown_after() -> None:
    s = _a()
    assert all(view(s, seat).talon is None for seat in range(3))
    s = act(s, "p3 pass", "p1 pass")
    for seat in (0, 1, 2, None):
        v = view(s, seat)
        assert v.talon is not None and mask(" ".join(names(v.talon))) == mask(TALON_A)
    assert names(view(s, 1).hand) == names(
        sorted(c for c in range(36) if mask(DEAL_A[1] + " " + TALON_A) >> c & 1)
    )


def test_hidden_talon_on_the_hundred_is_seen_by_the_declarer_only() -> None:
    s = _a(hidden_talon_on_hundred="on")
    s, events = apply(act(s, "p3 pass"), parse_action("p1 pass", 3))
    assert not any(isinstance(e, TalonShown) for e in events)
    assert TalonTaken(1) in events
    assert view(s, 1).talon is not None
    assert view(s, 0).talon is None and view(s, 2).talon is None and view(s, None).talon is None
    s = act(s, "p2 give 9H p1", "p2 give JH p3")
    assert view(s, 0).talon is None
    assert s.phase is Phase.CONTRACT


def test_hidden_talon_does_not_apply_when_another_player_bid() -> None:
    s = act(_a(hidden_talon_on_hundred="on"), "p3 bid 105", "p1 pass", "p2 bid 110", "p3 pass")
    assert s.deal is not None and s.deal.declarer == 1
    assert view(s, 0).talon is not None


def test_hidden_talon_does_not_apply_to_a_barrel_player_at_121() -> None:
    s = deal(rules(hidden_talon_on_hundred="on"), DEAL_A, TALON_A, scores=(0, 880, 0))
    s = act(s, "p3 pass", "p1 pass")
    assert s.deal is not None and s.deal.contract == 121
    assert view(s, 0).talon is not None


def test_tumbochka_shows_the_talon_to_the_declarer_only() -> None:
    s = deal(rules(Game.TUMBOCHKA), TUMB_DEAL, TUMB_TALON)
    s, events = apply(act(s, "p2 bid 4", "p3 pass"), parse_action("p1 pass", 3))
    assert not any(isinstance(e, TalonShown) for e in events)
    assert view(s, 1).talon is not None
    assert view(s, 0).talon is None and view(s, 2).talon is None and view(s, None).talon is None


def test_thousand_one_always_shows_the_talon() -> None:
    s = deal(rules(Game.THOUSAND_ONE), DEAL_T1, TALON_T1)
    s, events = apply(act(s, "p2 pass"), parse_action("p3 pass", 3))
    shown = [e for e in events if isinstance(e, TalonShown)]
    assert len(shown) == 1 and mask(" ".join(names(shown[0].cards))) == mask(TALON_T1)
    assert all(view(s, seat).talon is not None for seat in (0, 1, 2, None))


def test_gives_are_known_to_the_giver_and_the_receiver_only() -> None:
    s = act(_a(), "p3 pass", "p1 pass")
    s, events = apply(s, parse_action("p2 give 9H p1", 3))
    assert events == (CardGiven(1, 0),)
    s = act(s, "p2 give JH p3")
    nine, jack = mask("9H").bit_length() - 1, mask("JH").bit_length() - 1
    assert view(s, 1).given == ((0, nine), (2, jack))
    assert view(s, 0).received == ((1, nine),)
    assert view(s, 2).received == ((1, jack),)
    assert view(s, 0).given == () and view(s, 2).given == ()
    assert view(s, None).given == () and view(s, None).received == ()
    assert view(s, None).gives_done == ((1, 0), (1, 2))
    assert view(s, 0).hand_sizes == (8, 8, 8)


def test_the_sitting_out_dealer_sees_no_hand_and_may_do_nothing() -> None:
    s = deal(rules(Game.THOUSAND_ONE, 4), DEAL_4, TALON_4, dealer=0)
    v = view(s, 0)
    assert v.hand == () and v.legal == ()
    assert v.active == (1, 2, 3)
    assert v.hand_sizes == (0, 7, 7, 7)
    assert names(view(s, 3).hand) == names(sorted(c for c in range(36) if mask(DEAL_4[3]) >> c & 1))


@pytest.mark.parametrize("seat", [-1, 3, 7])
def test_a_seat_outside_the_table_gets_the_public_view(seat: int) -> None:
    v = view(_a(), seat)
    assert v.hand == () and v.legal == () and v.talon is None


def test_views_before_the_first_deal() -> None:
    from engine import new_match

    s = new_match(rules())
    v = view(s, 0)
    assert v.phase is Phase.DEAL_OVER
    assert v.hand == () and v.talon is None and v.legal == ()
    assert v.scores == (0, 0, 0)


def test_the_automatic_100_is_an_event() -> None:
    from engine import new_match
    from engine.events import BidMade

    s = new_match(rules())
    _, events = apply(s, _deal_a_action())
    assert BidMade(1, 100, forced=True) in events


def _deal_a_action() -> Deal:
    return Deal(0, tuple(mask(DEAL_A[seat]) for seat in range(3)), mask(TALON_A))
