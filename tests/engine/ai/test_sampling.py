"""Determinizations agree with everything the seat has seen: the same view, and every
card played so far legal with the hands they imply (voids, trumps, declarations)."""

from __future__ import annotations

import random

import pytest

from engine.actions import Play
from engine.ai.sampling import Knowledge, sample, sim_of
from engine.ai.simulator import KIND_OF, Sim
from engine.rules import Rules
from engine.state import MatchState, Phase
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
    sim = Sim(
        Sim.rules_game(seen.rules),
        seen.active,
        start,
        declarer=seen.declarer,
        contract=seen.contract,
        turn=seen.declarer,
        ace_marriage=seen.rules.ace_marriage,
    )
    for s, c, kind in know.history:
        if s != sim.turn or (c, kind) not in sim.moves(s):
            return False
        sim.play(s, c, kind)
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
def test_simulator_follows_the_engine(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    """The fast model of the play offers exactly the engine's legal plays."""
    for state, seat in decision_points(rules, scores, seed=5, count=150):
        if state.phase is not Phase.PLAY:
            continue
        seen = view(state, seat)
        assert state.deal is not None
        sim = sim_of(seen, Knowledge.of(seen), list(state.deal.hands))
        engine_moves = {(a.card, KIND_OF[a.declaration]) for a in seen.legal if isinstance(a, Play)}
        assert set(sim.moves(seat)) == engine_moves
        assert sim.trump == (state.deal.trump if state.deal.trump is not None else -1)
        assert sim.remaining() == sum(state.deal.hands)
