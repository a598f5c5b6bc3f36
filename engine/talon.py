"""After the bidding (rules §1.4, §2, §3.1): giving a card to each opponent, naming the
contract, and the ways a deal ends before play: redeal, concession, throwing the cards.
"""

from __future__ import annotations

from engine.actions import Concede, Give, NameContract, Redeal, Throw
from engine.cards import CARD_COUNT
from engine.errors import IllegalAction, Reason
from engine.events import (
    CardGiven,
    Conceded,
    ContractNamed,
    Event,
    RedealAsked,
    RedealGround,
    Thrown,
)
from engine.games import variant_of
from engine.games.base import holds_four_nines
from engine.seats import before_first_lead
from engine.state import DealState, MatchState, Outcome, Phase


def _declarer_reason(state: MatchState, seat: int, phases: tuple[Phase, ...]) -> Reason | None:
    if state.phase is Phase.MATCH_OVER:
        return Reason.MATCH_OVER
    deal = state.deal
    if state.phase not in phases or deal is None:
        return Reason.WRONG_PHASE
    if state.phase is Phase.PLAY and not before_first_lead(deal):
        return Reason.TOO_LATE
    if seat not in deal.active:
        return Reason.NOT_PLAYING
    if seat != deal.declarer:
        return Reason.NOT_DECLARER
    return None


def give_reason(state: MatchState, action: Give) -> Reason | None:
    reason = _declarer_reason(state, action.seat, (Phase.GIVING,))
    if reason is not None:
        return reason
    deal = state.deal
    assert deal is not None
    if not 0 <= action.card < CARD_COUNT or not deal.hands[action.seat] >> action.card & 1:
        return Reason.CARD_NOT_IN_HAND
    if action.to == action.seat or action.to not in deal.active:
        return Reason.INVALID_RECIPIENT
    if any(to == action.to for _, to, _ in deal.given):
        return Reason.ALREADY_GIVEN
    return None


def apply_give(state: MatchState, action: Give) -> tuple[MatchState, list[Event]]:
    reason = give_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    deal = state.deal
    assert deal is not None
    hands = list(deal.hands)
    hands[action.seat] &= ~(1 << action.card)
    hands[action.to] |= 1 << action.card
    given = (*deal.given, (action.seat, action.to, action.card))
    deal = deal._replace(hands=tuple(hands), given=given)
    phase = Phase.CONTRACT if len(given) == len(deal.active) - 1 else Phase.GIVING
    return state._replace(phase=phase, deal=deal), [CardGiven(action.seat, action.to)]


def contract_reason(state: MatchState, action: NameContract) -> Reason | None:
    reason = _declarer_reason(state, action.seat, (Phase.CONTRACT,))
    if reason is not None:
        return reason
    deal = state.deal
    assert deal is not None
    variant = variant_of(state.rules)
    if action.value in variant.allowed_contracts(state, deal):
        return None
    return variant.contract_refusal(state, deal, action.value)


def apply_contract(state: MatchState, action: NameContract) -> tuple[MatchState, list[Event]]:
    reason = contract_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    assert state.deal is not None
    deal = state.deal._replace(contract=action.value, contract_named=True)
    return state._replace(phase=Phase.PLAY, deal=deal), [
        ContractNamed(action.seat, action.value)
    ]


def _redeal_ground(state: MatchState, deal: DealState, seat: int) -> RedealGround | None:
    hand = deal.hands[seat]
    if not variant_of(state.rules).redeal_ground(state, hand):
        return None
    return RedealGround.FOUR_NINES if holds_four_nines(hand) else RedealGround.UNDER_14_POINTS


def redeal_reason(state: MatchState, action: Redeal) -> Reason | None:
    if not variant_of(state.rules).can_redeal:
        return Reason.NOT_IN_THIS_GAME
    if not state.rules.redeal:
        return Reason.OPTION_OFF
    if state.phase is Phase.MATCH_OVER:
        return Reason.MATCH_OVER
    deal = state.deal
    if state.phase not in (Phase.CONTRACT, Phase.PLAY) or deal is None:
        return Reason.WRONG_PHASE
    if not before_first_lead(deal):
        return Reason.TOO_LATE
    if action.seat not in deal.active:
        return Reason.NOT_PLAYING
    if _redeal_ground(state, deal, action.seat) is None:
        return Reason.NO_GROUNDS_FOR_REDEAL
    return None


def apply_redeal(state: MatchState, action: Redeal) -> tuple[MatchState, list[Event]]:
    reason = redeal_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    deal = state.deal
    assert deal is not None
    ground = _redeal_ground(state, deal, action.seat)
    assert ground is not None
    deal = deal._replace(outcome=Outcome.REDEALT, turn=None)
    return state._replace(phase=Phase.DEAL_OVER, deal=deal), [RedealAsked(action.seat, ground)]


def concede_reason(state: MatchState, action: Concede) -> Reason | None:
    if not variant_of(state.rules).can_concede:
        return Reason.NOT_IN_THIS_GAME
    if not state.rules.concede:
        return Reason.OPTION_OFF
    return _declarer_reason(state, action.seat, (Phase.CONTRACT, Phase.PLAY))


def apply_concede(state: MatchState, action: Concede) -> tuple[MatchState, list[Event]]:
    reason = concede_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    deal = state.deal
    assert deal is not None
    return _end_early(state, deal, Outcome.CONCEDED, Conceded(action.seat, deal.contract))


def throw_reason(state: MatchState, action: Throw) -> Reason | None:
    if not variant_of(state.rules).can_throw:
        return Reason.NOT_IN_THIS_GAME
    return _declarer_reason(state, action.seat, (Phase.GIVING, Phase.CONTRACT, Phase.PLAY))


def apply_throw(state: MatchState, action: Throw) -> tuple[MatchState, list[Event]]:
    reason = throw_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    deal = state.deal
    assert deal is not None
    without_contract = deal.without_bid and not deal.contract_named
    event = Thrown(action.seat, deal.contract, without_contract)
    return _end_early(state, deal, Outcome.THROWN, event)


def _end_early(
    state: MatchState, deal: DealState, outcome: Outcome, event: Event
) -> tuple[MatchState, list[Event]]:
    deal = deal._replace(outcome=outcome, turn=None)
    state, events = variant_of(state.rules).score(state, deal, outcome)
    return state._replace(deal=deal), [event, *events]
