"""The match's one entry point for change: ``apply(state, action)``, and ``legal_actions``.

Both work on the state's mutable table (``engine.table``) and hand out frozen states.
Each action kind has one verifier (``*_reason``): ``legal_actions`` lists exactly what the
verifiers accept, and ``apply`` runs the verifier of an action unless it is one of the very
objects ``legal_actions`` listed for this state (then it was verified when it was listed:
the table keeps the listed actions, which keeps those objects alive).
So a press or a script line is checked once, and a move taken from the list is not
checked again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

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
from engine.games import deck_of
from engine.games.base import submasks
from engine.rules import Game
from engine.state import MatchState, MatchValues, Phase, new_draft
from engine.table import Table, attach, peek, take, thaw
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
    redeal_seat_reason,
    redeal_time_reason,
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

_LISTED_KEPT = 256
"""How many listed actions a table keeps for ``apply`` to trust (a few listings)."""
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

_CHANGES: dict[type, Change] = {kind: change for kind, (_, change) in _KINDS.items()}


def apply(state: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """The state after ``action`` and what happened; ``IllegalAction`` if the rules forbid it."""
    table = state._table
    if table is None or table.owner is not state:
        table = take(state)
    # By identity, not equality: an equal action built elsewhere is verified. A loop of
    # ``is`` is the cheapest such test (``id`` makes an int per object, ``map`` an iterator).
    for listed in table.listed:
        if listed is action:
            break
    else:
        reason = _verify(state, action, table)
        if reason is not None:
            attach(state, table)
            raise IllegalAction(reason)
    events = _CHANGES[type(action)](table, action)
    table.listed.clear()
    after = new_draft()
    after.phase = table.phase
    after._table = table
    if type(action) is Deal:
        # A deal's first state keeps its fields, so that no state is computed from further
        # back than its deal's start.
        after._values = table.values()
        after._parent = after._action = None
    else:
        after._values = None
        after._parent = state
        after._action = action
    after.__class__ = MatchState
    table.owner = after
    return after, tuple(events)


def _derive(state: MatchState) -> MatchValues:
    """The fields of a state that ``apply`` returned: from its table while it owns it, else
    its deal replayed from the nearest earlier state that has them (each state on the way
    keeps its own)."""
    table = state._table
    if table is not None and table.owner is state:
        return table.values()
    steps = []
    known = state
    while known._values is None:
        steps.append(known)
        assert known._parent is not None  # a state without fields has a parent
        known = known._parent
    table = thaw(known)
    values = known._values
    for step in reversed(steps):
        action = step._action
        _CHANGES[type(action)](table, action)
        values = table.values()
        object.__setattr__(step, "_values", values)
    return values


MatchState._derive = staticmethod(_derive)


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
    t = state._table
    if t is None or t.owner is not state:
        if state.deal is None:
            return ()
        t = peek(state)
    # The table a state keeps is in the state's phase.
    phase = t.phase
    result: tuple[SeatAction, ...]
    if phase is _PLAY and (t.trick or t.tricks):
        turn = t.turn
        assert turn is not None  # the play phase always has a seat to play
        if seat is not None and seat != turn:
            return ()
        mask = playable(t, turn)
        result = plain_plays(turn, mask)
        if not t.trick:
            declared = declarable(t, turn, mask)
            if declared:
                result += tuple([DECLARED_PLAYS[turn, c, kind] for c, kind in declared])
    elif phase is _BIDDING:
        # Only the seat whose turn it is bids or passes.
        turn = t.turn
        result = _bidding(t, turn) if seat is None or seat == turn else ()
    elif phase is _GIVING:
        # Only the declarer acts while giving.
        declarer = t.declarer
        assert declarer is not None  # giving follows the bidding's winner
        result = _giving(t, declarer) if seat is None or seat == declarer else ()
    elif phase is _DEAL_OVER or phase is _MATCH_OVER:
        return ()
    else:
        actions: list[SeatAction] = []
        redeal_open = redeal_time_reason(t) is None
        for s in t.active if seat is None else (seat,):
            _seat_actions(t, s, actions, redeal_open)
        result = tuple(actions)
    listed = t.listed
    if len(listed) >= _LISTED_KEPT:
        listed.clear()  # a state asked again and again: older lists are verified again
    listed.extend(result)
    return result


def _bidding(t: Table, seat: int | None) -> tuple[SeatAction, ...]:
    if seat is None or seat not in t.active:
        return ()
    variant = t.variant
    values = variant.allowed_bids(t, seat)
    # The seat is the one to bid, in the bidding: what is left of ``pass_reason`` is the
    # variant's part.
    passes = variant.pass_reason(t, seat) is None
    key = (seat, values, passes)
    listed = _BID_LISTS.get(key)
    if listed is None:
        row = BIDS[seat]
        bids: list[SeatAction] = [row[v] for v in values]
        if passes:
            bids.append(PASSES[seat])
        listed = _BID_LISTS[key] = tuple(bids)
    return listed


_BID_LISTS: dict[tuple[int, Sequence[int], bool], tuple[SeatAction, ...]] = {}
_CONTRACT_LISTS: dict[tuple[int, Sequence[int]], tuple[NameContract, ...]] = {}
"""The bids and contracts of a seat by the values allowed (ranges and tuples of at most
301 values, a few hundred of them) and, for the bids, whether the seat may pass: the
listing, pass included, is one shared tuple."""


_A = TypeVar("_A", Play, Give)
SuitRows = tuple[dict[int, tuple[_A, ...]], ...]
"""One seat's actions of one kind (its plain plays, its gives to one seat) for the cards of
one suit, by suit and the suit's 9 bits of a mask: shared, immutable tuples."""


def _suit_rows(actions: Sequence[_A]) -> SuitRows[_A]:
    """``actions`` (by card) for every part of a suit that a hand of any game may hold, made
    at import so that a deal never misses one (a miss costs an exception and four tuples);
    any other part is filled as first asked (``_fill_rows``)."""
    rows: SuitRows[_A] = tuple({} for _ in range(4))
    for chunk in _GAME_CHUNKS:
        for suit, row in enumerate(rows):
            row[chunk] = tuple([actions[c] for c in cards_of(chunk << 9 * suit)])
    return rows


def _fill_rows(rows: SuitRows[_A], actions: Sequence[_A], mask: int) -> None:
    """Make the rows' tuples for the four parts of ``mask``."""
    for suit, row in enumerate(rows):
        chunk = mask >> 9 * suit & 511
        row[chunk] = tuple([actions[c] for c in cards_of(chunk << 9 * suit)])


# A game's deck holds the same ranks in every suit: its lowest suit's 9 bits.
_GAME_CHUNKS = sorted(
    {sub for suit in {deck_of(game) & 511 for game in Game} for sub in submasks(suit)}
)
_SUIT_PLAYS = tuple(_suit_rows(plays) for plays in PLAIN_PLAYS)
_SUIT_GIVES = tuple(tuple(_suit_rows(to) for to in gives) for gives in GIVES)
"""The plain plays by seat, and the gives by giver and recipient, as ``SuitRows`` (9,600
tuples, about 5 ms at import; the gives' comprehension cost about 2 % of a deal)."""


def plain_plays(seat: int, mask: int) -> tuple[Play, ...]:
    """The plain plays of the cards in ``mask`` by ``seat``, from the lowest id: the suits'
    tuples joined (shared, immutable objects)."""
    rows = _SUIT_PLAYS[seat]
    try:
        return (
            rows[0][mask & 511]
            + rows[1][mask >> 9 & 511]
            + rows[2][mask >> 18 & 511]
            + rows[3][mask >> 27]
        )
    except KeyError:
        _fill_rows(rows, PLAIN_PLAYS[seat], mask)
        return plain_plays(seat, mask)


def _giving(t: Table, declarer: int) -> tuple[SeatAction, ...]:
    """The declarer's gives, and throwing the cards where the game allows it."""
    gives: tuple[SeatAction, ...] = _gives(t, declarer)
    throw = EARLY_ENDS[declarer][1]
    if throw_reason(t, throw) is None:
        return (*gives, throw)
    return gives


def _seat_actions(t: Table, seat: int, out: list[SeatAction], redeal_open: bool) -> None:
    """What ``seat`` may do while naming the contract or before the first lead
    (``redeal_open``: ``redeal_time_reason`` allows a redeal now)."""
    phase = t.phase
    declarer = seat == t.declarer
    concede, throw, redeal = EARLY_ENDS[seat]
    if declarer:
        if phase is _CONTRACT:
            values = t.variant.allowed_contracts(t)
            key = (seat, values)
            named = _CONTRACT_LISTS.get(key)
            if named is None:
                row = CONTRACTS[seat]
                named = _CONTRACT_LISTS[key] = tuple([row[v] for v in values])
            out.extend(named)
        if seat == t.turn:
            _plays(t, seat, out)
        if concede_reason(t, concede) is None:
            out.append(concede)
        if throw_reason(t, throw) is None:
            out.append(throw)
    elif seat == t.turn:
        _plays(t, seat, out)
    if redeal_open and redeal_seat_reason(t, seat) is None:
        out.append(redeal)


def _gives(t: Table, seat: int) -> tuple[Give, ...]:
    """The declarer's gives: each card of the hand to each opponent not given one yet
    (opponents clockwise, cards from the lowest id)."""
    taken = 0
    for _, to, _ in t.given:
        taken |= 1 << to
    hand = t.hands[seat]
    rows = _SUIT_GIVES[seat]
    gives: tuple[Give, ...] = ()
    for to in t.active:
        if to != seat and not taken >> to & 1:
            # The suits' tuples joined, as ``plain_plays`` joins them (a hand is always of
            # its game's deck: no miss).
            by_suit = rows[to]
            gives += (
                by_suit[0][hand & 511]
                + by_suit[1][hand >> 9 & 511]
                + by_suit[2][hand >> 18 & 511]
                + by_suit[3][hand >> 27]
            )
    return gives


def _plays(t: Table, seat: int, out: list[SeatAction]) -> None:
    mask = playable(t, seat)
    out.extend(plain_plays(seat, mask))
    if not t.trick:
        declared = declarable(t, seat, mask)
        if declared:  # a comprehension costs a frame, and there is seldom a declaration
            out.extend([DECLARED_PLAYS[seat, c, kind] for c, kind in declared])
