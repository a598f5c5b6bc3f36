"""The match's one entry point for change: ``apply(state, action)``, and ``legal_actions``.

Both work on the state's mutable table (``engine.table``) and hand out frozen states.
Each action kind has one verifier (``*_reason``): ``legal_actions`` lists exactly what the
verifiers accept, and ``apply`` runs the verifier of an action unless it is one of the very
objects ``legal_actions`` listed for this state (then it was verified when it was listed:
the table keeps the listed tuples, which keeps those objects alive).
So a press or a script line is checked once, and a move taken from the list is not
checked again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from engine.actions import (
    BIDS,
    CONTRACTS,
    DECLARED_PLAYS,
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
from engine.bidding import apply_bid, apply_pass, bid_reason, pass_reason
from engine.cards import cards_of
from engine.dealing import apply_deal, deal_reason
from engine.errors import IllegalAction, Reason
from engine.events import Event
from engine.seats import before_first_lead
from engine.state import MatchState, Phase
from engine.table import Table, attach, peek, take
from engine.talon import (
    apply_concede,
    apply_contract,
    apply_give,
    apply_redeal,
    apply_throw,
    concede_reason,
    contract_reason,
    give_reason,
    redeal_reason,
    throw_reason,
)
from engine.tricks import apply_play, declarable, play_reason, playable

# Enum members as module constants: looking one up on its class costs ten globals.
_BIDDING = Phase.BIDDING
_CONTRACT = Phase.CONTRACT
_DEAL_OVER = Phase.DEAL_OVER
_GIVING = Phase.GIVING
_MATCH_OVER = Phase.MATCH_OVER
_PLAY = Phase.PLAY

_LISTED_KEPT = 16
Verifier = Callable[[Table, Any], Reason | None]
Change = Callable[[Table, Any], list[Event]]
_KINDS: dict[type, tuple[Verifier, Change]] = {
    Deal: (deal_reason, apply_deal),
    Bid: (bid_reason, apply_bid),
    Pass: (pass_reason, apply_pass),
    Give: (give_reason, apply_give),
    NameContract: (contract_reason, apply_contract),
    Redeal: (redeal_reason, apply_redeal),
    Concede: (concede_reason, apply_concede),
    Throw: (throw_reason, apply_throw),
    Play: (play_reason, apply_play),
}


def apply(state: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """The state after ``action`` and what happened; ``IllegalAction`` if the rules forbid it."""
    table = state.__dict__.pop("table", None) or take(state)
    if not _listed(table, action):
        reason = _verify(state, action, table)
        if reason is not None:
            attach(state, table)
            raise IllegalAction(reason)
    events = _KINDS[type(action)][1](table, action)
    return table.freeze(), tuple(events)


def _verify(state: MatchState, action: Action, table: Table) -> Reason | None:
    """Why the rules refuse ``action`` now, if they do: its kind's one verifier."""
    kind = _KINDS.get(type(action))
    if kind is None:
        attach(state, table)
        raise TypeError(f"not an action: {action!r}")
    if not isinstance(action, Deal) and not 0 <= action.seat < state.rules.players:
        return Reason.NO_SUCH_SEAT
    return kind[0](table, action)


def legal_actions(state: MatchState, seat: int | None = None) -> tuple[SeatAction, ...]:
    """Every action a seat (or, without ``seat``, any seat) may take now.

    Empty when nobody must act: between deals (the next ``Deal`` comes from the dealer's
    shuffle, see ``engine.dealing``) and after the match.
    """
    phase = state.phase
    if state.deal is None or phase is _DEAL_OVER or phase is _MATCH_OVER:
        return ()
    t = state.__dict__.get("table") or peek(state)
    turn = t.turn
    result: tuple[SeatAction, ...]
    if phase is _PLAY and turn is not None and (t.trick or t.tricks):
        if seat is not None and seat != turn:
            return ()
        if t.trick:
            # Following: no declaration is possible, and the same cards come up again.
            result = plain_plays(turn, playable(t, turn))
        else:
            actions: list[SeatAction] = list(plain_plays(turn, playable(t, turn)))
            actions += [DECLARED_PLAYS[turn, c, kind] for c, kind in declarable(t, turn)]
            result = tuple(actions)
    elif phase is _BIDDING:
        # Only the seat whose turn it is bids or passes.
        result = _bidding(t, turn) if seat is None or seat == turn else ()
    else:
        actions = []
        for s in t.active if seat is None else (seat,):
            _seat_actions(t, s, actions)
        result = tuple(actions)
    listed = t.listed
    if len(listed) >= _LISTED_KEPT:
        listed.clear()  # a state asked again and again: older lists are verified again
    listed.append(result)
    return result


def _listed(t: Table, action: Action) -> bool:
    """Whether ``action`` is one of the very objects ``legal_actions`` listed on ``t``."""
    key = id(action)
    for listed in t.listed:  # noqa: SIM110 (a generator costs more on this hot path)
        if key in map(id, listed):
            return True
    return False


def _bidding(t: Table, seat: int | None) -> tuple[SeatAction, ...]:
    if seat is None or seat not in t.active:
        return ()
    bids = BIDS[seat]
    actions: list[SeatAction] = [bids[v] for v in t.variant.allowed_bids(t, seat)]
    if pass_reason(t, PASSES[seat]) is None:
        actions.append(PASSES[seat])
    return tuple(actions)


@lru_cache(maxsize=1 << 16)
def plain_plays(seat: int, mask: int) -> tuple[Play, ...]:
    """The plain plays of the cards in ``mask`` by ``seat`` (shared, immutable objects)."""
    plays = PLAIN_PLAYS[seat]
    return tuple([plays[c] for c in cards_of(mask)])


def _seat_actions(t: Table, seat: int, out: list[SeatAction]) -> None:
    phase = t.phase
    declarer = seat == t.declarer
    if phase is _GIVING and declarer:
        recipients = [
            s for s in t.active if s != seat and all(to != s for _, to, _ in t.given)
        ]
        cards = cards_of(t.hands[seat])
        for to in recipients:
            gives = GIVES[seat][to]
            out.extend([gives[c] for c in cards])
    if phase is _CONTRACT and declarer:
        contracts = CONTRACTS[seat]
        out.extend([contracts[v] for v in t.variant.allowed_contracts(t)])
    if seat == t.turn and (phase is _CONTRACT or phase is _PLAY):
        _plays(t, seat, out)
    concede, throw, redeal = EARLY_ENDS[seat]
    if declarer and concede_reason(t, concede) is None:
        out.append(concede)
    if declarer and throw_reason(t, throw) is None:
        out.append(throw)
    if phase is not _GIVING and before_first_lead(t) and redeal_reason(t, redeal) is None:
        out.append(redeal)


def _plays(t: Table, seat: int, out: list[SeatAction]) -> None:
    out.extend(plain_plays(seat, playable(t, seat)))
    if not t.trick:
        out.extend([DECLARED_PLAYS[seat, c, kind] for c, kind in declarable(t, seat)])
