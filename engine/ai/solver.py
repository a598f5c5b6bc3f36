"""Exact values of the last tricks of one determinized deal, two ways.

``solve``: the deal's end as a game of two sides, the declarer against the two defenders,
searched exhaustively by alpha-beta over every legal continuation (declarations included),
the root seat's side maximising and the other side minimising the root seat's utility of
the deal's end (``engine.ai.utility``). The contract's threshold is respected exactly: a declarer
does not chase points beyond the contract at the cost of making it. This is the worst case
for the root seat: every other seat plays perfectly, with every card known.

``respond``: the root seat's best response when the other seats play the rule-based
policy (``engine.ai.policy``): only the root seat's own moves branch. Against players who play
roughly like the policy this is the better guide, and it is cheap enough three tricks deeper.
Its positions are remembered (``Memo``): one card play searches the same deal's end once per
candidate move and drawn deal, and the same position comes back by other orders of the same
plays and, once the cards in which two drawn deals differ are played, in other drawn deals
(a six-card play in Тысяча meets each position about 1.5 times). An end where every hand
holds one card at most is played out, not searched.

The search player uses the mean of the two for the last three tricks and ``respond`` alone
for the three before (``engine.ai.search_agent``): the tree is small there and the playout
policy's mistakes cost the most."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.actions import Declaration
from engine.ai.policy import choose_play
from engine.cards import THOUSAND_POINTS
from engine.table import Table
from engine.tricks import moves, play

# Enum members as module constants: looking one up on its class costs ten globals.
_ACES = Declaration.ACES
_MARRIAGE = Declaration.MARRIAGE
_NONE = Declaration.NONE
_TRILYAZH = Declaration.TRILYAZH
_TROYAN = Declaration.TROYAN

_KIND_ORDER: Final = {
    _NONE: 0,
    _MARRIAGE: 1,
    _ACES: 2,
    _TROYAN: 3,
    _TRILYAZH: 4,
}
"""Declarations are searched before plain cards (a search heuristic, not a rule)."""
Leaf = Callable[[list[int], list[int]], float]
"""The root seat's utility of the deal's end, from the points and tricks won."""
Key = tuple[object, ...]


Memo = dict[Key, float]
"""What the searches of one decision share (one seat, one leaf, the deals drawn for it):
the values of the positions ``respond`` has searched, by ``_key``. The same position is
reached by other orders of the same plays, and in other drawn deals once the cards in
which they differ are played. One decision's memo must not serve another: the leaf and
the seat differ."""


def solve(table: Table, leaf: Leaf, side: frozenset[int]) -> float:
    """The value of ``table`` for the side ``side`` (which maximises), both sides playing
    perfectly with every card known."""
    return _search(table, leaf, side, -1e18, 1e18)


def respond(table: Table, leaf: Leaf, me: int, memo: Memo | None = None) -> float:
    """The value for ``me`` of playing perfectly against seats that play the rule-based
    policy (a best response to the model of the others); changes ``table``. ``memo``
    carries what the other searches of the same decision found (``Memo``)."""
    return _respond(table, leaf, me, {} if memo is None else memo)


def _respond(table: Table, leaf: Leaf, me: int, memo: Memo) -> float:
    hands = table.hands
    if _at_most_one(hands):
        return _forced(table, leaf)
    key = _key(table)
    found = memo.get(key)
    if found is not None:
        return found
    # Some hand holds two cards or more, so ``me`` plays again before the deal ends.
    seat = table.turn
    while seat != me:
        assert seat is not None
        c, kind = choose_play(table, seat)
        play(table, seat, c, kind)
        seat = table.turn
    best = -1e18
    found_moves = moves(table, me)
    last = len(found_moves) - 1
    for i, (c, kind) in enumerate(found_moves):
        # The last move may change the table itself: nothing reads it afterwards.
        child = table if i == last else table.copy()
        play(child, me, c, kind)
        value = _respond(child, leaf, me, memo)
        if value > best:
            best = value
    memo[key] = best
    return best


def _at_most_one(hands: list[int]) -> bool:
    for hand in hands:  # noqa: SIM110 (all() over a generator costs more on this hot path)
        if hand & (hand - 1):
            return False
    return True


def _forced(table: Table, leaf: Leaf) -> float:
    """The value of a deal's end where every hand holds one card at most: every play is
    forced (one card declares nothing)."""
    hands = table.hands
    seat = table.turn
    assert seat is not None
    while hands[seat]:
        play(table, seat, hands[seat].bit_length() - 1, _NONE)
        seat = table.turn
        assert seat is not None
    return leaf(table.points, table.won)


def _key(table: Table) -> Key:
    """Everything of a deal's end that the play, the policy and the leaf read: the hands,
    the played cards, the trick, the points and tricks won, the voids shown, the trump, the
    seat to play and the trilyazh in progress (the forced lead follows from it)."""
    return (
        table.played, table.turn, table.trump, table.trick, table.trilyazh,
        *table.hands, *table.points, *table.won, *table.voids,
    )


def _search(table: Table, leaf: Leaf, side: frozenset[int], alpha: float, beta: float) -> float:
    if not table.trick and not any(table.hands):
        return leaf(table.points, table.won)
    seat = table.turn
    assert seat is not None
    found = moves(table, seat)
    if len(found) > 2:
        # Strong cards first: they settle tricks early and tighten the window.
        found.sort(
            key=lambda m: -(THOUSAND_POINTS[m[0]] * 4 + m[0] % 9 + _KIND_ORDER[m[1]] * 50)
        )
    if seat in side:
        best = -1e18
        for c, kind in found:
            child = table.copy()
            play(child, seat, c, kind)
            value = _search(child, leaf, side, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best
    best = 1e18
    for c, kind in found:
        child = table.copy()
        play(child, seat, c, kind)
        value = _search(child, leaf, side, alpha, beta)
        if value < best:
            best = value
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
    return best
