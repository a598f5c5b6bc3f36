"""The match's one entry point for change: ``apply(state, action)``, and ``legal_actions``.

Each action kind has one verifier (``*_reason``) that both ``apply`` and ``legal_actions``
use, so the buttons a seat is shown and the moves the engine accepts cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import (
    BIDS,
    CONTRACTS,
    EARLY_ENDS,
    GIVES,
    PASSES,
    PLAIN_PLAYS,
    Action,
    Bid,
    Concede,
    Deal,
    Give,
    NameContract,
    Pass,
    Play,
    Redeal,
    SeatAction,
    Throw,
)
from engine.bidding import apply_bid, apply_pass, pass_reason
from engine.cards import cards_of
from engine.dealing import apply_deal
from engine.errors import IllegalAction, Reason
from engine.events import Event
from engine.games import variant_of
from engine.seats import before_first_lead
from engine.state import MatchState, Phase
from engine.talon import (
    apply_concede,
    apply_contract,
    apply_give,
    apply_redeal,
    apply_throw,
    concede_reason,
    redeal_reason,
    throw_reason,
)
from engine.tricks import apply_play, playable

_APPLY: dict[type, Callable[[MatchState, Any], tuple[MatchState, list[Event]]]] = {
    Deal: apply_deal,
    Bid: apply_bid,
    Pass: apply_pass,
    Give: apply_give,
    NameContract: apply_contract,
    Redeal: apply_redeal,
    Concede: apply_concede,
    Throw: apply_throw,
    Play: apply_play,
}


def apply(state: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """The state after ``action`` and what happened; ``IllegalAction`` if the rules forbid it."""
    handler = _APPLY.get(type(action))
    if handler is None:
        raise TypeError(f"not an action: {action!r}")
    if not isinstance(action, Deal) and not 0 <= action.seat < state.rules.players:
        raise IllegalAction(Reason.NO_SUCH_SEAT)
    new_state, events = handler(state, action)
    return new_state, tuple(events)


def legal_actions(state: MatchState, seat: int | None = None) -> tuple[SeatAction, ...]:
    """Every action a seat (or, without ``seat``, any seat) may take now.

    Empty when nobody must act: between deals (the next ``Deal`` comes from the dealer's
    shuffle, see ``engine.dealing``) and after the match.
    """
    deal = state.deal
    phase = state.phase
    if deal is None or phase is Phase.DEAL_OVER or phase is Phase.MATCH_OVER:
        return ()
    actions: list[SeatAction] = []
    turn = deal.turn
    if phase is Phase.PLAY and not before_first_lead(deal) and turn is not None:
        if seat is None or seat == turn:
            _plays(state, turn, actions)
        return tuple(actions)
    seats = deal.active if seat is None else (seat,)
    for s in seats:
        _seat_actions(state, s, actions)
    return tuple(actions)


def _seat_actions(state: MatchState, seat: int, out: list[SeatAction]) -> None:
    deal = state.deal
    assert deal is not None
    phase = state.phase
    if phase is Phase.BIDDING:
        if seat == deal.turn:
            variant = variant_of(state.rules)
            bids = BIDS[seat]
            out.extend([bids[v] for v in variant.allowed_bids(state, deal, seat)])
            if pass_reason(state, PASSES[seat]) is None:
                out.append(PASSES[seat])
        return
    if phase is Phase.GIVING and seat == deal.declarer:
        recipients = [
            s for s in deal.active
            if s != seat and all(to != s for _, to, _ in deal.given)
        ]
        cards = cards_of(deal.hands[seat])
        for to in recipients:
            gives = GIVES[seat][to]
            out.extend([gives[c] for c in cards])
    if phase is Phase.CONTRACT and seat == deal.declarer:
        variant = variant_of(state.rules)
        contracts = CONTRACTS[seat]
        out.extend([contracts[v] for v in variant.allowed_contracts(state, deal)])
    if seat == deal.turn and phase in (Phase.CONTRACT, Phase.PLAY):
        _plays(state, seat, out)
    for action in EARLY_ENDS[seat]:
        if _early_end_reason(state, action) is None:
            out.append(action)


def _early_end_reason(state: MatchState, action: Concede | Throw | Redeal) -> Reason | None:
    if isinstance(action, Concede):
        return concede_reason(state, action)
    if isinstance(action, Throw):
        return throw_reason(state, action)
    return redeal_reason(state, action)


def _plays(state: MatchState, seat: int, out: list[SeatAction]) -> None:
    deal = state.deal
    assert deal is not None
    mask = playable(deal, seat)
    plays = PLAIN_PLAYS[seat]
    out.extend([plays[c] for c in cards_of(mask)])
    if deal.trick:
        return
    declarable = variant_of(state.rules).declarable(state, deal, seat)
    out.extend(Play(seat, c, kind) for c, kind in declarable if mask >> c & 1)
