"""After the bidding (rules §1.4, §2, §3.1): giving a card to each opponent, naming the
contract, and the ways a deal ends before play: redeal, concession, throwing the cards.
"""

from __future__ import annotations

from engine.actions import Concede, Give, NameContract, Redeal, Throw
from engine.cards import CARD_COUNT
from engine.errors import Reason
from engine.events import (
    CARDS_GIVEN,
    CONTRACTS_NAMED,
    Conceded,
    Event,
    RedealAsked,
    RedealGround,
    Thrown,
)
from engine.seats import before_first_lead
from engine.state import Outcome, Phase
from engine.table import Table

# Enum members as module constants: looking one up on its class costs ten globals.
_NO_GROUNDS = Reason.NO_GROUNDS_FOR_REDEAL
_CONCEDED = Outcome.CONCEDED
_THROWN = Outcome.THROWN
_CONTRACT = Phase.CONTRACT
_GIVING = Phase.GIVING
_MATCH_OVER = Phase.MATCH_OVER
_PLAY = Phase.PLAY
_GIVING_ONLY = (_GIVING,)
_CONTRACT_ONLY = (_CONTRACT,)
_CONTRACT_OR_PLAY = (_CONTRACT, _PLAY)
_GIVING_TO_PLAY = (_GIVING, _CONTRACT, _PLAY)
_NOT_IN_THIS_GAME = Reason.NOT_IN_THIS_GAME


def _declarer_reason(t: Table, seat: int, phases: tuple[Phase, ...]) -> Reason | None:
    phase = t.phase
    if phase is _MATCH_OVER:
        return Reason.MATCH_OVER
    if phase not in phases or not t.has_deal:
        return Reason.WRONG_PHASE
    if phase is _PLAY and not before_first_lead(t):
        return Reason.TOO_LATE
    if seat not in t.active:
        return Reason.NOT_PLAYING
    if seat != t.declarer:
        return Reason.NOT_DECLARER
    return None


def give_reason(t: Table, action: Give) -> Reason | None:
    reason = _declarer_reason(t, action.seat, _GIVING_ONLY)
    if reason is not None:
        return reason
    if not 0 <= action.card < CARD_COUNT or not t.hands[action.seat] >> action.card & 1:
        return Reason.CARD_NOT_IN_HAND
    if action.to == action.seat or action.to not in t.active:
        return Reason.INVALID_RECIPIENT
    if any(to == action.to for _, to, _ in t.given):
        return Reason.ALREADY_GIVEN
    return None


def apply_give(t: Table, action: Give) -> list[Event]:
    t.hands[action.seat] &= ~(1 << action.card)
    t.hands[action.to] |= 1 << action.card
    t.given = (*t.given, (action.seat, action.to, action.card))
    if len(t.given) == len(t.active) - 1:
        t.phase = _CONTRACT
    return [CARDS_GIVEN[action.seat][action.to]]


def contract_reason(t: Table, action: NameContract) -> Reason | None:
    reason = _declarer_reason(t, action.seat, _CONTRACT_ONLY)
    if reason is not None:
        return reason
    variant = t.variant
    if action.value in variant.allowed_contracts(t):
        return None
    return variant.contract_refusal(t, action.value)


def apply_contract(t: Table, action: NameContract) -> list[Event]:
    t.contract = action.value
    t.contract_named = True
    t.phase = _PLAY
    return [CONTRACTS_NAMED[action.seat][action.value]]


def redeal_ground(t: Table, seat: int) -> RedealGround | None:
    """Why ``seat``'s hand allows a redeal, if it does (once per hand and deal)."""
    hand = t.hands[seat]
    grounds = t.grounds
    if hand not in grounds:
        grounds[hand] = t.variant.redeal_ground(hand)
    ground: RedealGround | None = grounds[hand]
    return ground


def redeal_reason(t: Table, action: Redeal) -> Reason | None:
    return redeal_time_reason(t) or redeal_seat_reason(t, action.seat)


def redeal_time_reason(t: Table) -> Reason | None:
    """``redeal_reason``'s part that is the same for every seat: whether a redeal may be
    asked now at all."""
    if not t.variant.can_redeal:
        return _NOT_IN_THIS_GAME
    if not t.rules.redeal:
        return Reason.OPTION_OFF
    phase = t.phase
    if phase is _MATCH_OVER:
        return Reason.MATCH_OVER
    if (phase is not _CONTRACT and phase is not _PLAY) or not t.has_deal:
        return Reason.WRONG_PHASE
    if t.trick or t.tricks:
        return Reason.TOO_LATE
    return None


def redeal_seat_reason(t: Table, seat: int) -> Reason | None:
    """``redeal_reason``'s part for ``seat``: it plays the deal and its hand has grounds."""
    if seat not in t.active:
        return Reason.NOT_PLAYING
    return _NO_GROUNDS if redeal_ground(t, seat) is None else None


def apply_redeal(t: Table, action: Redeal) -> list[Event]:
    ground = redeal_ground(t, action.seat)
    assert ground is not None
    t.outcome = Outcome.REDEALT
    t.turn = None
    t.phase = Phase.DEAL_OVER
    return [RedealAsked(action.seat, ground)]


def concede_reason(t: Table, action: Concede) -> Reason | None:
    if not t.variant.can_concede:
        return _NOT_IN_THIS_GAME
    if not t.rules.concede:
        return Reason.OPTION_OFF
    return _declarer_reason(t, action.seat, _CONTRACT_OR_PLAY)


def apply_concede(t: Table, action: Concede) -> list[Event]:
    return _end_early(t, _CONCEDED, Conceded(action.seat, t.contract))


def throw_reason(t: Table, action: Throw) -> Reason | None:
    if not t.variant.can_throw:
        return _NOT_IN_THIS_GAME
    return _declarer_reason(t, action.seat, _GIVING_TO_PLAY)


def apply_throw(t: Table, action: Throw) -> list[Event]:
    without_contract = t.without_bid and not t.contract_named
    return _end_early(t, _THROWN, Thrown(action.seat, t.contract, without_contract))


def _end_early(t: Table, outcome: Outcome, event: Event) -> list[Event]:
    t.outcome = outcome
    t.turn = None
    events = [event]
    t.variant.score(t, outcome, events)
    return events
