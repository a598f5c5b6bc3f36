"""Exact values of the last tricks of one determinized deal, two ways.

``solve``: the deal's end as a game of two sides, the declarer against the two defenders,
searched exhaustively by alpha-beta over every legal continuation (declarations included),
the root seat's side maximising and the other side minimising the root seat's utility of
the deal's end (``engine.ai.utility``). The contract's threshold is respected exactly: a declarer
does not chase points beyond the contract at the cost of making it. This is the worst case
for the root seat: every other seat plays perfectly, with every card known.

``respond``: the root seat's best response when the other seats play the rule-based
policy (``engine.ai.policy``): only the root seat's own moves branch. Against players who play
roughly like the policy this is the better guide, and it is cheap enough one trick deeper.

The search player uses the mean of the two for the last three tricks and ``respond`` alone
for the two before (``engine.ai.search_agent``): the tree is small there and the playout policy's
mistakes cost the most.
"""

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


def solve(table: Table, leaf: Leaf, side: frozenset[int]) -> float:
    """The value of ``table`` for the side ``side`` (which maximises), both sides playing
    perfectly with every card known."""
    return _search(table, leaf, side, -1e18, 1e18)


def respond(table: Table, leaf: Leaf, me: int) -> float:
    """The value for ``me`` of playing perfectly against seats that play the rule-based
    policy (a best response to the model of the others)."""
    while True:
        if not table.trick and not any(table.hands):
            return leaf(table.points, table.won)
        seat = table.turn
        assert seat is not None
        if seat == me:
            break
        c, kind = choose_play(table, seat)
        play(table, seat, c, kind)
    best = -1e18
    for c, kind in moves(table, me):
        child = table.copy()
        play(child, me, c, kind)
        value = respond(child, leaf, me)
        if value > best:
            best = value
    return best


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
