"""The endgame solver against plain searches: on the last tricks of random deals of every
variant, ``respond`` with one memo shared by every move and drawn deal of a decision (as the
search player uses it) gives exactly the value of a plain recursive best response, and
``solve`` (alpha-beta) exactly that of a plain minimax without pruning."""

from __future__ import annotations

import random

import pytest

from engine.ai.policy import choose_play
from engine.ai.sampling import Knowledge, sample, table_of
from engine.ai.search_agent import _side
from engine.ai.solver import Leaf, Memo, _key, respond, solve
from engine.ai.utility import DealContext, context_of, utility
from engine.rules import Rules
from engine.state import MatchState, Phase
from engine.table import Table
from engine.tricks import moves, play
from engine.view import SeatView, view
from tests.engine.ai.helpers import VARIANTS, decision_points, ids

POSITIONS = 12
DRAWN = 6
"""Deals drawn per position (they share the position's memo)."""


def _plain_respond(table: Table, leaf: Leaf, me: int) -> float:
    """The best response searched without a memo: every continuation played out."""
    if not table.trick and not any(table.hands):
        return leaf(table.points, table.won)
    seat = table.turn
    assert seat is not None
    if seat != me:
        c, kind = choose_play(table, seat)
        play(table, seat, c, kind)
        return _plain_respond(table, leaf, me)
    best = -1e18
    for c, kind in moves(table, me):
        child = table.copy()
        play(child, me, c, kind)
        best = max(best, _plain_respond(child, leaf, me))
    return best


def _minimax(table: Table, leaf: Leaf, side: frozenset[int]) -> float:
    """The two-sided value searched without pruning."""
    if not table.trick and not any(table.hands):
        return leaf(table.points, table.won)
    seat = table.turn
    assert seat is not None
    values = []
    for c, kind in moves(table, seat):
        child = table.copy()
        play(child, seat, c, kind)
        values.append(_minimax(child, leaf, side))
    return max(values) if seat in side else min(values)


def _endgames(
    rules: Rules, scores: tuple[int, ...] | None, cards: int, count: int
) -> list[SeatView]:
    """Views of the seat to play with at most ``cards`` cards in hand, from random play."""
    found: list[SeatView] = []
    state: MatchState
    for state, seat in decision_points(rules, scores, 16, 4000):
        if state.phase is Phase.PLAY and state.turn == seat:
            seen = view(state, seat)
            if 2 <= len(seen.hand) <= cards and len(found) < count:
                found.append(seen)
        if len(found) == count:
            break
    assert len(found) == count
    return found


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS, ids=ids(VARIANTS))
def test_respond_with_a_shared_memo_equals_the_plain_best_response(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    rng = random.Random(name)
    for seen in _endgames(rules, scores, 5, POSITIONS):
        seat = seen.seat
        assert seat is not None
        ctx = context_of(seen)

        def leaf(
            points: list[int], won: list[int], seat: int = seat, ctx: DealContext = ctx
        ) -> float:
            # The utility, and the tricks won by each seat weighed apart (a deal's end that
            # differs only in who took a trick without points must not pass for another).
            return utility(ctx, seat, points, won) + sum(w * (s + 2) for s, w in enumerate(won))

        know = Knowledge.of(seen)
        memo: Memo = {}
        for _ in range(DRAWN):
            table = table_of(seen, know, sample(seen, know, rng).hands)
            for c, kind in moves(table, seat):
                child = table.copy()
                play(child, seat, c, kind)
                expected = _plain_respond(child.copy(), leaf, seat)
                assert respond(child, leaf, seat, memo) == expected, (name, seen.hand, c)


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS, ids=ids(VARIANTS))
def test_solve_equals_plain_minimax(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    rng = random.Random(name)
    for seen in _endgames(rules, scores, 3, 6):
        seat, declarer = seen.seat, seen.declarer
        assert seat is not None and declarer is not None
        ctx = context_of(seen)

        def leaf(
            points: list[int], won: list[int], seat: int = seat, ctx: DealContext = ctx
        ) -> float:
            return utility(ctx, seat, points, won)

        side = _side(seen.active, declarer, seat)
        know = Knowledge.of(seen)
        table = table_of(seen, know, sample(seen, know, rng).hands)
        assert solve(table.copy(), leaf, side) == _minimax(table, leaf, side), (name, seen.hand)


def test_positions_that_differ_in_what_the_play_reads_are_not_merged() -> None:
    # What a random endgame rarely shows apart: the voids, the trump, the tricks won.
    seen = _endgames(VARIANTS[0][1], None, 5, 1)[0]
    know = Knowledge.of(seen)
    table = table_of(seen, know, sample(seen, know, random.Random(0)).hands)
    def flip_void(t: Table) -> None:
        t.voids[0] ^= 1

    def other_trump(t: Table) -> None:
        t.trump = (t.trump + 2) % 4

    def one_more_trick(t: Table) -> None:
        t.won[1] += 1

    def one_more_point(t: Table) -> None:
        t.points[2] += 1

    def a_trilyazh(t: Table) -> None:
        t.trilyazh = (0, 0, 1)

    changes = [flip_void, other_trump, one_more_trick, one_more_point, a_trilyazh]
    for change in changes:
        other = table.copy()
        change(other)
        assert _key(other) != _key(table)
