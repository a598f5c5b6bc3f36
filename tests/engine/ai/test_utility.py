"""The match-aware utility of a deal's end (``engine.ai.utility``): in points with the
match's terms, and in chances of the match near a Тысяча match's end."""

from __future__ import annotations

import pytest

from engine.ai.match_chances import chances, score_slope
from engine.ai.utility import (
    BOLT_STEP_COST,
    CHANCES_FROM,
    RIVALRY,
    WIN_BONUS,
    changes,
    concede_changes,
    context_of,
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

NEAR_THE_TARGET = """
game thousand-one
scores 950 0 0
dealer p3
hand p1 AS TS KS QS AH KH QH
hand p2 9S JS 9C JC QC KC 9D
hand p3 JD QD KD TD AD 9H JH
talon TH AC TC
p1 bid 40
p2 pass
p3 pass
p1 give TC p2
p1 give AC p3
p1 contract 120
"""
"""Тысяча одно: p1 at 950 declares 120; making it reaches 1001 and wins the match."""


def on_the_hundred(score: int) -> str:
    """p1 at ``score`` (the others at 0) plays the forced hundred, the barrel not in sight."""
    return (
        ON_THE_BARREL.replace("scores 880 0 0", f"scores {score} 0 0")
        + "p1 give TC p2\np1 give AC p3\np1 contract 100\n"
    )


def test_another_seats_match_win_costs_the_rivalry_share_of_a_win() -> None:
    ctx = context_of(view(replay(NEAR_THE_TARGET.splitlines()), 1))
    assert ctx.standing is None
    points, won = [140, 0, 0], [1, 0, 0]
    delta, winner = changes(ctx, points, won)
    assert winner == 0
    win = WIN_BONUS[Game.THOUSAND_ONE]
    # Each loser counts the match's end as a rival's gain: RIVALRY of its share of the win
    # (the zero-sum half of a win was measured and dropped, ``engine.ai.utility``).
    loss = win * RIVALRY / 2
    for seat, share in ((0, win), (1, -loss), (2, -loss)):
        ended = seat_utility(ctx, seat, delta, winner)
        assert ended - seat_utility(ctx, seat, delta, None) == share
    others = (delta[0] + delta[2]) / 2
    assert utility(ctx, 1, points, won) == delta[1] - RIVALRY * others - loss


def test_a_deal_that_ends_no_match_has_no_match_term() -> None:
    ctx = context_of(view(replay(NEAR_THE_TARGET.splitlines()), 1))
    points, won = [30, 60, 30], [1, 1, 1]
    delta, winner = changes(ctx, points, won)
    assert winner is None
    assert utility(ctx, 1, points, won) == delta[1] - RIVALRY * (delta[0] + delta[2]) / 2


@pytest.mark.parametrize("score", [0, 555, CHANCES_FROM[Game.THOUSAND] - 5])
def test_a_thousand_deal_far_from_the_end_is_valued_in_points(score: int) -> None:
    ctx = context_of(view(replay(on_the_hundred(score).splitlines()), 1))
    assert ctx.standing is None
    points, won = [110, 10, 0], [1, 1, 0]
    delta, _ = changes(ctx, points, won)
    # p3 took no trick: a bolt, which brings the third bolt's penalty closer.
    assert delta == [100.0, 10.0, -BOLT_STEP_COST]
    assert utility(ctx, 0, points, won) == 100 - RIVALRY * (10 - BOLT_STEP_COST) / 2


def test_a_thousand_deal_from_the_threshold_is_valued_in_chances() -> None:
    score = CHANCES_FROM[Game.THOUSAND]
    ctx = context_of(view(replay(on_the_hundred(score).splitlines()), 1))
    assert ctx.standing is not None
    before = chances(Game.THOUSAND, (score, 0, 0), (0, 0, 0), None, 0, (0, 0, 0))
    after = chances(Game.THOUSAND, (score + 100, 10, 0), (0, 0, 1), None, 0, (0, 0, 0))
    delta, _ = changes(ctx, [110, 10, 0], [1, 1, 0])
    for seat in range(3):
        slope = before[seat] * (1 - before[seat]) * score_slope(Game.THOUSAND, (score, 0, 0)[seat])
        assert delta[seat] == pytest.approx((after[seat] - before[seat]) / slope)
    # Near 700 a point is worth a little more than a point of chance at the start: the
    # declarer's 100 reads as about 100, and the bolt of the seat that took nothing costs.
    assert 90 < delta[0] < 130
    assert delta[2] < delta[1] < 0


def test_on_the_barrel_the_match_won_is_the_chance_it_adds() -> None:
    ctx = context_of(view(replay(BARREL_DECLARER.splitlines()), 1))
    standing = ctx.standing
    assert standing is not None
    assert standing.chances[0] == pytest.approx(0.96, abs=0.01)
    delta, winner = changes(ctx, [140, 0, 0], [1, 0, 0])
    assert winner == 0
    assert delta == pytest.approx(
        [(w - p) / s for w, p, s in zip((1, 0, 0), standing.chances, standing.slopes, strict=True)]
    )
    for seat in range(3):
        assert utility(ctx, seat, [140, 0, 0], [1, 0, 0]) == delta[seat]
        assert seat_utility(ctx, seat, delta, None) == delta[seat]


def test_on_the_barrel_a_fall_costs_the_barrel_player_and_helps_the_others() -> None:
    ctx = context_of(view(replay(BARREL_DECLARER.splitlines()), 1))
    made = [utility(ctx, seat, [121, 0, 0], [1, 0, 0]) for seat in range(3)]
    fell = [utility(ctx, seat, [100, 10, 10], [1, 1, 1]) for seat in range(3)]
    conceded = concede_changes(ctx)
    assert made[0] > 0 > fell[0]
    assert made[1] < 0 < fell[1] and made[2] < 0 < fell[2]
    # Conceding is a fall too: it costs about what a fall in play costs.
    assert conceded[0] == pytest.approx(fell[0], rel=0.2)
