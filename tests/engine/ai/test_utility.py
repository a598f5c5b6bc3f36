"""The match-aware utility of a deal's end (``engine.ai.utility``)."""

from __future__ import annotations

from engine.ai.utility import RIVALRY, WIN_BONUS, changes, context_of, seat_utility, utility
from engine.notation import replay
from engine.rules import Game
from engine.view import view
from tests.engine.ai.helpers import ON_THE_BARREL

BARREL_DECLARER = ON_THE_BARREL + """p1 give TC p2
p1 give AC p3
p1 contract 121
"""
"""p1 on the barrel declares 121 with two marriages: making it wins the match."""


def test_another_seats_match_win_costs_the_rivalry_share_of_a_win() -> None:
    state = replay(BARREL_DECLARER.splitlines())
    ctx = context_of(view(state, 1))
    points, won = [140, 0, 0], [1, 0, 0]
    delta, winner = changes(ctx, points, won)
    assert winner == 0
    win = WIN_BONUS[Game.THOUSAND]
    # Each loser counts the match's end as a rival's gain: RIVALRY of its share of the win
    # (the zero-sum half of a win was measured and dropped, ``engine.ai.utility``).
    loss = win * RIVALRY / 2
    for seat, share in ((0, win), (1, -loss), (2, -loss)):
        ended = seat_utility(ctx, seat, delta, winner)
        assert ended - seat_utility(ctx, seat, delta, None) == share
    others = (delta[0] + delta[2]) / 2
    assert utility(ctx, 1, points, won) == delta[1] - RIVALRY * others - loss


def test_a_deal_that_ends_no_match_has_no_match_term() -> None:
    state = replay(BARREL_DECLARER.splitlines())
    ctx = context_of(view(state, 1))
    points, won = [100, 10, 10], [1, 1, 1]
    delta, winner = changes(ctx, points, won)
    assert winner is None
    assert utility(ctx, 1, points, won) == delta[1] - RIVALRY * (delta[0] + delta[2]) / 2
