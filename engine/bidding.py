"""Bidding (rules §1.3, §2, §3.1): raise or pass in turn until one bidder is left, then the
talon is shown (where the game shows it) and taken by the declarer.
"""

from __future__ import annotations

from engine.actions import Bid, Pass
from engine.cards import cards_of
from engine.errors import Reason
from engine.events import (
    AUTO_PASSES,
    BIDS_MADE,
    PASSES,
    TALONS_TAKEN,
    Event,
    declarer_chosen,
    talon_shown_event,
)
from engine.seats import next_bidder
from engine.state import Phase
from engine.table import Table

# Enum members as module constants: looking one up on its class costs ten globals.
_BIDDING = Phase.BIDDING
_GIVING = Phase.GIVING
_MATCH_OVER = Phase.MATCH_OVER


def _turn_reason(t: Table, seat: int) -> Reason | None:
    if t.phase is _MATCH_OVER:
        return Reason.MATCH_OVER
    if t.phase is not _BIDDING:
        return Reason.WRONG_PHASE
    if seat not in t.active:
        return Reason.NOT_PLAYING
    if seat != t.turn:
        return Reason.NOT_YOUR_TURN
    return None


def bid_reason(t: Table, action: Bid) -> Reason | None:
    reason = _turn_reason(t, action.seat)
    if reason is not None:
        return reason
    variant = t.variant
    if action.value in variant.allowed_bids(t, action.seat):
        return None
    return variant.bid_refusal(t, action.seat, action.value)


def pass_reason(t: Table, action: Pass) -> Reason | None:
    reason = _turn_reason(t, action.seat)
    if reason is not None:
        return reason
    return t.variant.pass_reason(t, action.seat)


def apply_bid(t: Table, action: Bid) -> list[Event]:
    seat, value = action.seat, action.value
    t.bid = value
    t.bidder = seat
    t.bids += ((seat, value),)
    t.turn = next_bidder(t, seat)
    events: list[Event] = [BIDS_MADE[seat][value]]
    continue_bidding(t, events)
    return events


def apply_pass(t: Table, action: Pass) -> list[Event]:
    _passed(t, action.seat)
    events: list[Event] = [PASSES[action.seat]]
    continue_bidding(t, events)
    return events


def _passed(t: Table, seat: int) -> None:
    t.passed |= 1 << seat
    t.bids += ((seat, None),)
    t.turn = next_bidder(t, seat)


def continue_bidding(t: Table, events: list[Event]) -> None:
    """Pass for those who pass automatically; close the bidding when one bidder is left."""
    if t.turn is None:
        assert t.bidder is not None
        _close(t, t.bidder, events)
        return
    variant = t.variant
    playing = len(t.active)
    while True:
        passed = t.passed
        if playing - passed.bit_count() == 1:
            # The one seat that has not passed (a loop: a generator costs a frame).
            for s in t.active:
                if not passed >> s & 1:
                    _close(t, s, events)
                    return
        seat = t.turn
        assert seat is not None
        if not variant.auto_passes(t, seat):
            return
        _passed(t, seat)
        events.append(AUTO_PASSES[seat])


def _close(t: Table, declarer: int, events: list[Event]) -> None:
    variant = t.variant
    contract = variant.closing_contract(t, declarer)
    without_bid = t.bidder is None
    events.append(declarer_chosen(declarer, contract, without_bid))
    t.hands[declarer] |= t.talon
    t.declarer = declarer
    t.contract = contract
    t.bid = contract
    t.without_bid = without_bid
    t.turn = declarer
    shown = variant.talon_shown(t)
    if shown:
        events.append(talon_shown_event(tuple(cards_of(t.talon))))
    events.append(TALONS_TAKEN[declarer])
    t.talon_shown = shown
    t.phase = _GIVING
