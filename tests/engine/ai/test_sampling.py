"""Determinizations agree with everything the seat has seen: the same view, and every
card played so far legal with the hands they imply (voids, trumps, declarations)."""

from __future__ import annotations

import random

import pytest

from engine.actions import Play
from engine.ai.sampling import Knowledge, sample, table_of
from engine.rules import Rules
from engine.state import MatchState, Phase
from engine.table import playing
from engine.tricks import moves, play
from engine.view import view
from tests.engine.ai.helpers import VARIANTS, decision_points, ids


def _history_is_legal(state: MatchState, seat: int, hands: list[int]) -> bool:
    """Replay the deal's plays from its first lead with the drawn hands."""
    seen = view(state, seat)
    know = Knowledge.of(seen)
    assert seen.declarer is not None
    start = hands[:]
    for s in seen.active:
        start[s] |= know.played_by[s]
    table = playing(
        seen.rules,
        seen.active,
        start,
        declarer=seen.declarer,
        contract=seen.contract,
        turn=seen.declarer,
    )
    for s, c, kind in know.history:
        if s != table.turn or (c, kind) not in moves(table, s):
            return False
        play(table, s, c, kind)
    return True


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS, ids=ids(VARIANTS))
def test_samples_are_consistent_with_the_view(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    rng = random.Random(3)
    replayed = 0
    for state, seat in decision_points(rules, scores, seed=11, count=80):
        seen = view(state, seat)
        know = Knowledge.of(seen)
        assert state.deal is not None
        for _ in range(3):
            drawn = sample(seen, know, rng)
            assert drawn.hands[seat] == state.deal.hands[seat]
            talon = drawn.talon if state.phase is Phase.BIDDING else state.deal.talon
            other = state._replace(deal=state.deal._replace(hands=tuple(drawn.hands), talon=talon))
            assert view(other, seat) == seen
            if state.phase is Phase.PLAY and (state.deal.tricks or state.deal.trick):
                assert _history_is_legal(state, seat, drawn.hands)
                replayed += 1
    assert replayed > 30


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS, ids=ids(VARIANTS))
def test_a_table_built_from_a_view_plays_like_the_match(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    """The playouts' table, built from a seat's view and the true hands, offers exactly
    the match's legal plays, with the trump, the played cards and the voids of the match."""
    for state, seat in decision_points(rules, scores, seed=5, count=150):
        if state.phase is not Phase.PLAY:
            continue
        seen = view(state, seat)
        assert state.deal is not None
        know = Knowledge.of(seen)
        table = table_of(seen, know, list(state.deal.hands))
        legal = {(a.card, a.declaration) for a in seen.legal if isinstance(a, Play)}
        assert set(moves(table, seat)) == legal
        assert table.trump == (state.deal.trump if state.deal.trump is not None else -1)
        assert table.deck & ~table.played == sum(state.deal.hands)
        assert tuple(table.voids) == know.voids
