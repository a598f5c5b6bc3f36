"""What one seat may know (design: Engine): its own hand, the public history of the deal,
the talon only when shown, and the cards it gave or received. The bot renders views; the
computer players decide from views; neither ever sees another seat's hand.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.actions import SeatAction
from engine.cards import cards_of
from engine.match import legal_actions
from engine.rules import Rules
from engine.state import DeclarationMade, MatchState, Outcome, Phase, Plays


class SeatView(NamedTuple):
    rules: Rules
    seat: int | None
    """``None`` for the public view (the group's table)."""
    phase: Phase
    turn: int | None
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    perch: int | None
    perch_attempts: int
    bagels: tuple[int, ...]
    deals: int
    winner: int | None
    dealer: int | None
    active: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    talon: tuple[int, ...] | None
    """The talon's cards when shown to everyone (or to the seat that took it)."""
    bids: tuple[tuple[int, int | None], ...]
    bid: int
    declarer: int | None
    contract: int
    contract_named: bool
    without_bid: bool
    given: tuple[tuple[int, int], ...]
    """Cards this seat gave: ``(to, card)``."""
    received: tuple[tuple[int, int], ...]
    """Cards this seat received: ``(from, card)``."""
    gives_done: tuple[tuple[int, int], ...]
    """Every give as ``(giver, receiver)``, public."""
    trump: int | None
    trick: Plays
    tricks: tuple[tuple[int, Plays], ...]
    won: tuple[int, ...]
    points: tuple[int, ...]
    declarations: tuple[DeclarationMade, ...]
    trilyazh: tuple[int, int, int] | None
    outcome: Outcome | None
    legal: tuple[SeatAction, ...]


def view(state: MatchState, seat: int | None) -> SeatView:
    """Everything ``seat`` may know now; ``seat=None`` gives what everyone may know."""
    deal = state.deal
    n = state.rules.players
    own = seat is not None and 0 <= seat < n
    if deal is None:
        return SeatView(
            state.rules, seat, state.phase, state.turn, state.scores, state.bolts, state.perch,
            state.perch_attempts, state.bagels, state.deals, state.winner,
            dealer=None, active=(), hand=(), hand_sizes=(0,) * n, talon=None,
            bids=(), bid=0, declarer=None, contract=0, contract_named=False,
            without_bid=False, given=(), received=(), gives_done=(), trump=None, trick=(),
            tricks=(), won=(0,) * n, points=(0,) * n, declarations=(), trilyazh=None,
            outcome=None, legal=(),
        )
    took_talon = own and seat == deal.declarer
    talon_visible = state.phase is not Phase.BIDDING and (deal.talon_shown or took_talon)
    return SeatView(
        state.rules, seat, state.phase, state.turn, state.scores, state.bolts, state.perch,
        state.perch_attempts, state.bagels, state.deals, state.winner,
        dealer=deal.dealer,
        active=deal.active,
        hand=tuple(cards_of(deal.hands[seat])) if own and seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        talon=tuple(cards_of(deal.talon)) if talon_visible else None,
        bids=deal.bids,
        bid=deal.bid,
        declarer=deal.declarer,
        contract=deal.contract,
        contract_named=deal.contract_named,
        without_bid=deal.without_bid,
        given=tuple((to, c) for giver, to, c in deal.given if giver == seat),
        received=tuple((giver, c) for giver, to, c in deal.given if to == seat),
        gives_done=tuple((giver, to) for giver, to, _ in deal.given),
        trump=deal.trump,
        trick=deal.trick,
        tricks=deal.tricks,
        won=deal.won,
        points=deal.points,
        declarations=deal.declarations,
        trilyazh=deal.trilyazh,
        outcome=deal.outcome,
        legal=legal_actions(state, seat) if own and seat is not None else (),
    )
