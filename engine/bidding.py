"""Bidding (rules §1.3, §2, §3.1): raise or pass in turn until one bidder is left, then the
talon is shown (where the game shows it) and taken by the declarer.
"""

from __future__ import annotations

from engine.actions import Bid, Pass
from engine.cards import cards_of
from engine.errors import IllegalAction, Reason
from engine.events import BidMade, DeclarerChosen, Event, Passed, TalonShown, TalonTaken
from engine.games import variant_of
from engine.seats import next_bidder
from engine.state import DealState, MatchState, Phase


def _turn_reason(state: MatchState, seat: int) -> Reason | None:
    if state.phase is Phase.MATCH_OVER:
        return Reason.MATCH_OVER
    if state.phase is not Phase.BIDDING:
        return Reason.WRONG_PHASE
    deal = state.deal
    assert deal is not None
    if seat not in deal.active:
        return Reason.NOT_PLAYING
    if seat != deal.turn:
        return Reason.NOT_YOUR_TURN
    return None


def bid_reason(state: MatchState, action: Bid) -> Reason | None:
    reason = _turn_reason(state, action.seat)
    if reason is not None:
        return reason
    deal = state.deal
    assert deal is not None
    variant = variant_of(state.rules)
    if action.value in variant.allowed_bids(state, deal, action.seat):
        return None
    return variant.bid_refusal(state, deal, action.seat, action.value)


def pass_reason(state: MatchState, action: Pass) -> Reason | None:
    reason = _turn_reason(state, action.seat)
    if reason is not None:
        return reason
    assert state.deal is not None
    return variant_of(state.rules).pass_reason(state, state.deal, action.seat)


def apply_bid(state: MatchState, action: Bid) -> tuple[MatchState, list[Event]]:
    reason = bid_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    deal = state.deal
    assert deal is not None
    deal = deal._replace(
        bid=action.value,
        bidder=action.seat,
        bids=(*deal.bids, (action.seat, action.value)),
    )
    deal = deal._replace(turn=next_bidder(deal, action.seat))
    return continue_bidding(state._replace(deal=deal), [BidMade(action.seat, action.value)])


def apply_pass(state: MatchState, action: Pass) -> tuple[MatchState, list[Event]]:
    reason = pass_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    assert state.deal is not None
    deal = _passed(state.deal, action.seat)
    return continue_bidding(state._replace(deal=deal), [Passed(action.seat)])


def _passed(deal: DealState, seat: int) -> DealState:
    deal = deal._replace(passed=deal.passed | 1 << seat, bids=(*deal.bids, (seat, None)))
    return deal._replace(turn=next_bidder(deal, seat))


def continue_bidding(state: MatchState, events: list[Event]) -> tuple[MatchState, list[Event]]:
    """Pass for those who pass automatically; close the bidding when one bidder is left."""
    deal = state.deal
    assert deal is not None
    variant = variant_of(state.rules)
    if deal.turn is None:
        assert deal.bidder is not None
        return _close(state, deal.bidder, events)
    while True:
        unpassed = [s for s in deal.active if not deal.passed >> s & 1]
        if len(unpassed) == 1:
            return _close(state._replace(deal=deal), unpassed[0], events)
        seat = deal.turn
        assert seat is not None
        if not variant.auto_passes(state, seat):
            return state._replace(deal=deal), events
        deal = _passed(deal, seat)
        events.append(Passed(seat, automatic=True))


def _close(state: MatchState, declarer: int, events: list[Event]) -> tuple[MatchState, list[Event]]:
    deal = state.deal
    assert deal is not None
    variant = variant_of(state.rules)
    contract = variant.closing_contract(state, deal, declarer)
    without_bid = deal.bidder is None
    events.append(DeclarerChosen(declarer, contract, without_bid))
    hands = list(deal.hands)
    hands[declarer] |= deal.talon
    deal = deal._replace(
        declarer=declarer,
        contract=contract,
        bid=contract,
        without_bid=without_bid,
        hands=tuple(hands),
        turn=declarer,
    )
    shown = variant.talon_shown(state, deal)
    if shown:
        events.append(TalonShown(tuple(cards_of(deal.talon))))
    events.append(TalonTaken(declarer))
    deal = deal._replace(talon_shown=shown)
    return state._replace(phase=Phase.GIVING, deal=deal), events
