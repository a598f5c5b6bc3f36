"""The match-aware utility of a deal's end (``engine.ai.utility``)."""

from __future__ import annotations

import pytest

from engine.ai.utility import (
    CLIFF_SHARE,
    RIVALRY,
    SITTING_VALUE,
    TRY_CHANCE,
    WIN_BONUS,
    changes,
    concede_changes,
    context_of,
    perch_stake,
    seat_utility,
    utility,
    wary_utility,
)
from engine.games.thousand import FALL_PENALTY
from engine.notation import replay
from engine.rules import Game, preset
from engine.view import view
from tests.engine.ai.helpers import AT_500, ON_THE_BARREL

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


@pytest.mark.parametrize(
    ("points", "wary"),
    [
        (30, False),  # far below the window: nothing near to fear
        (47, True),  # 10 points more (an ace smeared onto its trick) end on 555
        (55, False),  # on 555 itself: the fall is in the value already
        (62, True),  # 5 points fewer end on 555
        (68, False),  # rounds to 70; 10 fewer still round to 60
    ],
)
def test_a_defender_near_the_dump_truck_counts_a_share_of_the_fall(
    points: int, wary: bool
) -> None:
    state = replay(AT_500.splitlines())
    ctx = context_of(view(state, 0))
    ends, won = [points, 49, 16], [3, 4, 1]
    plain = seat_utility(ctx, 0, *changes(ctx, ends, won))
    dumped = seat_utility(ctx, 0, *changes(ctx, [55, 49, 16], won))
    expected = plain - CLIFF_SHARE * (plain - dumped) if wary else plain
    assert wary_utility(ctx, 0, ends, won) == pytest.approx(expected)
    assert utility(ctx, 0, ends, won) == plain


def test_only_defenders_within_reach_of_the_dump_truck_are_wary() -> None:
    assert context_of(view(replay(AT_500.splitlines()), 0)).wary == (True, False, True)
    far = AT_500.replace("scores 500 500 500", "scores 0 500 200")
    assert context_of(view(replay(far.splitlines()), 0)).wary == (False, False, False)


def _chance(left: int) -> float:
    """A seat's chance of the match in ``left`` tries."""
    return 1 - (1 - TRY_CHANCE) ** left


def _share(left: int) -> float:
    """A seat's chance of the match in ``left`` tries over its chance in three."""
    return _chance(left) / _chance(3)


@pytest.mark.parametrize(
    ("used", "cost", "penalty"),
    [
        # A failed try that is not the last costs the chance it took: the first little,
        # the second more (the next try is the last).
        (0, _share(3) - _share(2), 0),
        (1, _share(2) - _share(1), 0),
        # The third failure falls: the −120 of the scores and what the last try was worth.
        (2, _share(1), FALL_PENALTY),
    ],
)
def test_a_failed_try_on_the_barrel_costs_the_chance_it_took(
    used: int, cost: float, penalty: int
) -> None:
    seat_view = view(replay(BARREL_DECLARER.splitlines()), 0)._replace(perch_attempts=used)
    ctx = context_of(seat_view)
    lost = -SITTING_VALUE[Game.THOUSAND] * cost - penalty
    delta, winner = changes(ctx, [100, 10, 10], [1, 1, 1])
    assert winner is None
    assert delta[0] == pytest.approx(lost)
    # Conceding fails the try as well; only a redeal (a void deal, utility 0) keeps it.
    assert concede_changes(ctx)[0] == pytest.approx(lost)
    assert lost < 0


def test_another_seat_declaring_uses_the_barrel_players_try() -> None:
    ctx = context_of(view(replay(BARREL_DECLARER.splitlines()), 0), declarer=1, contract=120)
    delta, winner = changes(ctx, [20, 120, 0], [1, 1, 0])
    assert winner is None
    # The barrel player's points and bolts do not count; the try is used all the same.
    assert delta[0] == pytest.approx(-SITTING_VALUE[Game.THOUSAND] * (_share(3) - _share(2)))


@pytest.mark.parametrize(
    ("used", "points", "score", "lost"),
    [
        # Made, the barrel wins now: +121 and the win, less the chance of it that it cashes.
        (0, [140, 0, 0], 121, -_chance(3)),
        (2, [140, 0, 0], 121, -_chance(1)),
        # Failed: a try's part of the chance; on the last try all of it, and the −120.
        (0, [100, 10, 10], 0, -(_chance(3) - _chance(2))),
        (1, [100, 10, 10], 0, -(_chance(2) - _chance(1))),
        (2, [100, 10, 10], -FALL_PENALTY, -_chance(1)),
    ],
)
def test_on_the_barrel_its_own_choices_price_a_try_at_the_matchs_stake(
    used: int, points: list[int], score: int, lost: float
) -> None:
    seat_view = view(replay(BARREL_DECLARER.splitlines()), 0)._replace(perch_attempts=used)
    ctx = context_of(seat_view, staked=True)
    stake = perch_stake(ctx.rules)
    assert ctx.stake == stake == WIN_BONUS[Game.THOUSAND] + 121
    delta, _ = changes(ctx, points, [1, 1, 1])
    assert delta[0] == pytest.approx(score + stake * lost)


def test_another_seat_prices_the_barrel_players_try_as_before() -> None:
    # Only the seat on the barrel values its own tries at the stake: the others' rivalry
    # keeps ``SITTING_VALUE`` (counting the barrel's win as wholly their loss was measured and
    # dropped, ``engine.ai.utility``).
    state = replay(BARREL_DECLARER.splitlines())
    for seat in (1, 2):
        staked = context_of(view(state, seat), staked=True)
        assert staked.stake == 0.0
        assert changes(staked, [100, 10, 10], [1, 1, 1]) == changes(
            context_of(view(state, seat)), [100, 10, 10], [1, 1, 1]
        )


def test_only_the_barrel_prices_its_tries_at_the_stake() -> None:
    # On the tumbochka every deal uses a try whatever the seat bids (``perch_stake``).
    assert perch_stake(preset(Game.THOUSAND)) == WIN_BONUS[Game.THOUSAND] + 121
    assert perch_stake(preset(Game.TUMBOCHKA)) == 0.0
    assert perch_stake(preset(Game.THOUSAND_ONE)) == 0.0
