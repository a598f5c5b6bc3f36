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

from engine.ai.policy import choose_play
from engine.ai.simulator import POINTS, Sim

Leaf = Callable[[list[int], list[int]], float]
"""The root seat's utility of the deal's end, from the points and tricks won."""


def solve(sim: Sim, leaf: Leaf, side: frozenset[int]) -> float:
    """The value of ``sim`` for the side ``side`` (which maximises), both sides playing
    perfectly with every card known."""
    return _search(sim, leaf, side, -1e18, 1e18)


def respond(sim: Sim, leaf: Leaf, me: int) -> float:
    """The value for ``me`` of playing perfectly against seats that play the rule-based
    policy (a best response to the model of the others)."""
    while True:
        if not sim.trick and not any(sim.hands):
            return leaf(sim.points, sim.won)
        seat = sim.turn
        if seat == me:
            break
        c, kind = choose_play(sim, seat)
        sim.play(seat, c, kind)
    moves = sim.moves(me)
    best = -1e18
    for c, kind in moves:
        child = sim.copy()
        child.play(me, c, kind)
        value = respond(child, leaf, me)
        if value > best:
            best = value
    return best


def _search(sim: Sim, leaf: Leaf, side: frozenset[int], alpha: float, beta: float) -> float:
    if not sim.trick and not any(sim.hands):
        return leaf(sim.points, sim.won)
    seat = sim.turn
    moves = sim.moves(seat)
    if len(moves) > 2:
        # Strong cards first: they settle tricks early and tighten the window.
        moves.sort(key=lambda m: -(POINTS[m[0]] * 4 + m[0] % 9 + m[1] * 50))
    if seat in side:
        best = -1e18
        for c, kind in moves:
            child = sim.copy()
            child.play(seat, c, kind)
            value = _search(child, leaf, side, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best
    best = 1e18
    for c, kind in moves:
        child = sim.copy()
        child.play(seat, c, kind)
        value = _search(child, leaf, side, alpha, beta)
        if value < best:
            best = value
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
    return best
