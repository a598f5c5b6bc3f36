"""Every agent returns one of ``view.legal`` at every kind of decision, in every game, and
returns the same action for the same view and seed."""

from __future__ import annotations

import random

import pytest

from engine.ai.agent import Agent, interjection
from engine.ai.levels import AGENTS, LEVELS, get_agent, make_agent
from engine.ai.random_agent import RandomAgent
from engine.ai.rules_agent import RulesAgent
from engine.ai.search_agent import SearchAgent
from engine.rules import Rules
from engine.state import Phase
from engine.view import view
from tests.engine.ai.helpers import VARIANTS, decision_points, ids

FAST_SEARCH = SearchAgent(scale=0.1, use_clock=False)
"""The search agent with little work per decision, so that many states fit in the tests."""


def _agents() -> list[Agent]:
    return [RandomAgent(), RulesAgent(), FAST_SEARCH]


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS, ids=ids(VARIANTS))
def test_every_agent_returns_a_legal_action(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    phases = set()
    for k, (state, seat) in enumerate(decision_points(rules, scores, seed=len(name), count=150)):
        seat_view = view(state, seat)
        phases.add(seat_view.phase)
        for agent in _agents():
            action = agent.decide(seat_view, random.Random(k), 0.5)
            assert action in seat_view.legal, (agent.name, action, seat_view.legal)
        for other in state.deal.active if state.deal else ():
            extra = interjection(view(state, other))
            assert extra is None or extra in view(state, other).legal
    assert Phase.PLAY in phases
    # With barrel_bidding off a barrel deal has no bidding at all.
    assert Phase.BIDDING in phases or not rules.barrel_bidding


@pytest.mark.parametrize(("name", "rules", "scores"), VARIANTS[::2], ids=ids(VARIANTS[::2]))
def test_decisions_are_deterministic_for_a_seed(
    name: str, rules: Rules, scores: tuple[int, ...] | None
) -> None:
    for k, (state, seat) in enumerate(decision_points(rules, scores, seed=99, count=25)):
        seat_view = view(state, seat)
        for agent in _agents():
            first = agent.decide(seat_view, random.Random(f"seed-{k}"), 0.5)
            again = agent.decide(seat_view, random.Random(f"seed-{k}"), 0.5)
            assert first == again, agent.name


def test_levels() -> None:
    assert LEVELS == ("random", "easy", "hard")
    assert get_agent("easy") is AGENTS["easy"]
    assert isinstance(get_agent("hard"), SearchAgent)
    assert get_agent("hard").use_clock  # type: ignore[attr-defined]
    assert not make_agent("hard", use_clock=False).use_clock  # type: ignore[attr-defined]
    with pytest.raises(KeyError, match="levels"):
        get_agent("grandmaster")


def test_search_work_follows_the_budget() -> None:
    agent = SearchAgent()
    assert agent.samples("play", 1.0) == 2 * agent.samples("play", 0.5)
    assert agent.samples("play", 0.0) >= 1
