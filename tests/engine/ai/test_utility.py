"""The match-aware utility of a deal's end (``engine.ai.utility``)."""

from __future__ import annotations

import pytest

from engine.ai.match_chances import chances
from engine.ai.utility import (
    RIVALRY,
    WIN_BONUS,
    changes,
    context_of,
    match_loss,
    seat_utility,
    utility,
)
from engine.notation import replay
from engine.rules import Game
from engine.view import view
from tests.engine.ai.helpers import ON_THE_BARREL

BARREL_DECLARER = ON_THE_BARREL + """p1 give TC p2
p1 give AC p3
p1 contract 121
"""
"""p1 on the barrel declares 121 with two marriages: making it wins the match."""


def test_another_seats_match_win_costs_each_loser_its_own_chance() -> None:
    state = replay(BARREL_DECLARER.splitlines())
    ctx = context_of(view(state, 1))
    assert ctx.chances == chances(
        state.rules, state.scores, state.bolts, state.perch, state.perch_attempts,
        state.bagels, 2,
    )
    points, won = [140, 0, 0], [1, 0, 0]
    delta, winner = changes(ctx, points, won)
    assert winner == 0
    win = WIN_BONUS[Game.THOUSAND]
    for seat in (1, 2):
        p = ctx.chances[seat]
        # A win would add 1 − p of the match for ``win``; losing it takes p.
        loss = win * p / (1 - p)
        assert 0 < loss < win * RIVALRY / 2, "far behind the barrel, less than a flat share"
        ended = seat_utility(ctx, seat, delta, winner)
        assert ended - seat_utility(ctx, seat, delta, None) == pytest.approx(-loss)
    assert seat_utility(ctx, 0, delta, winner) - seat_utility(ctx, 0, delta, None) == win
    others = (delta[0] + delta[2]) / 2
    assert utility(ctx, 1, points, won) == pytest.approx(
        delta[1] - RIVALRY * others - match_loss(win, ctx.chances[1])
    )


@pytest.mark.parametrize(
    ("chance", "loss"), [(0.0, 0.0), (0.2, 100.0), (1 / 3, 200.0), (0.5, 400.0), (0.9, 400.0)]
)
def test_the_match_loss_grows_with_the_chance_up_to_a_win(chance: float, loss: float) -> None:
    assert match_loss(400.0, chance) == pytest.approx(loss)


def test_a_deal_that_ends_no_match_has_no_match_term() -> None:
    state = replay(BARREL_DECLARER.splitlines())
    ctx = context_of(view(state, 1))
    points, won = [100, 10, 10], [1, 1, 1]
    delta, winner = changes(ctx, points, won)
    assert winner is None
    assert utility(ctx, 1, points, won) == delta[1] - RIVALRY * (delta[0] + delta[2]) / 2
