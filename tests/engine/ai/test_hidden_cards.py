"""The computer players cannot see hidden cards: two states that show a seat the same view
but deal the other seats' hands (and the face-down talon) differently get the same
decision for the same seed."""

from __future__ import annotations

import random

import pytest

from engine.actions import SeatAction
from engine.ai.agent import DEFAULT_BUDGET, Agent
from engine.ai.random_agent import RandomAgent
from engine.ai.rules_agent import RulesAgent
from engine.ai.sampling import Knowledge, sample
from engine.ai.search_agent import SearchAgent
from engine.cards import SUIT_MASKS, cards_of
from engine.rules import Rules
from engine.state import MatchState, Phase
from engine.view import view
from tests.engine.ai.helpers import VARIANTS, decision_points, ids

AGENTS: list[Agent] = [RandomAgent(), RulesAgent(), SearchAgent(use_clock=False)]
"""The search agent at its full work per decision (the default budget below), so that every
part of a real decision is checked, the clock off so that the answer is the machine's
no matter how busy."""


def _swap_same_suit(state: MatchState, seat: int, rng: random.Random) -> MatchState | None:
    """The state with one card of a suit swapped between two other seats that both hold
    that suit (so every void shown and every past play stays consistent), or with a card
    swapped between an opponent and the face-down talon during the bidding."""
    deal = state.deal
    assert deal is not None
    others = [s for s in deal.active if s != seat]
    hands = list(deal.hands)
    talon = deal.talon
    if state.phase is Phase.BIDDING:
        a = rng.choice(others)
        x, y = rng.choice(cards_of(hands[a])), rng.choice(cards_of(talon))
        hands[a] ^= (1 << x) | (1 << y)
        talon ^= (1 << x) | (1 << y)
        return state._replace(deal=deal._replace(hands=tuple(hands), talon=talon))
    a, b = others
    for suit in rng.sample(range(4), 4):
        in_a = cards_of(hands[a] & SUIT_MASKS[suit])
        in_b = cards_of(hands[b] & SUIT_MASKS[suit])
        if in_a and in_b:
            x, y = rng.choice(in_a), rng.choice(in_b)
            hands[a] ^= (1 << x) | (1 << y)
            hands[b] ^= (1 << x) | (1 << y)
            return state._replace(deal=deal._replace(hands=tuple(hands)))
    return None


def _decide(agent: Agent, state: MatchState, seat: int, seed: int) -> SeatAction:
    """The agent's decision at ``state``, asked the way a table asks it: with the seat's view
    only (``state`` stays in this frame, within reach of an agent that would peek)."""
    return agent.decide(view(state, seat), random.Random(seed), DEFAULT_BUDGET)


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS, ids=ids(VARIANTS))
def test_same_view_same_decision(name: str, rules: Rules, scores: tuple[int, ...] | None) -> None:
    rng = random.Random(name)
    checked = 0
    for k, (state, seat) in enumerate(decision_points(rules, scores, seed=7, count=60)):
        seen = view(state, seat)
        know = Knowledge.of(seen)
        drawn = sample(seen, know, rng)
        assert state.deal is not None
        resampled = state._replace(
            deal=state.deal._replace(
                hands=tuple(drawn.hands),
                talon=drawn.talon if state.phase is Phase.BIDDING else state.deal.talon,
            )
        )
        swapped = _swap_same_suit(state, seat, rng)
        for other in (resampled, swapped):
            if other is None or other == state:
                continue
            assert view(other, seat) == seen
            for agent in AGENTS:
                mine = _decide(agent, state, seat, k)
                assert _decide(agent, other, seat, k) == mine, agent.name
            checked += 1
    assert checked > 30
