"""Playing deals and matches between agents through the engine (tests, benchmark, terminal).

Every decision gets its own generator seeded from the match seed, the deal number and the
decision's index, so a match between deterministic agents replays exactly, and the same
deal played with the agents in other seats gives each decision a comparable seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.actions import Deal, SeatAction
from engine.ai.agent import Agent, interjection
from engine.match import apply
from engine.rules import Rules
from engine.state import MatchState, Phase
from engine.view import view

Decision = Callable[[MatchState, int, SeatAction, float], None]
"""Called after each decision: state before, seat, action, seconds it took."""


@dataclass
class Timing:
    """Seconds per decision, per agent name (decisions with one legal action excluded)."""

    seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.seconds.setdefault(name, []).append(seconds)


def play_deal(
    state: MatchState,
    deal: Deal,
    agents: Sequence[Agent],
    seed: str,
    budget: float,
    timing: Timing | None = None,
    on_decision: Decision | None = None,
) -> MatchState:
    """``state`` after ``deal`` is dealt and played to its end by ``agents`` (by seat)."""
    state, _ = apply(state, deal)
    step = 0
    while state.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
        turn = state.turn
        assert turn is not None
        seat, action = turn, None
        if state.phase in (Phase.CONTRACT, Phase.PLAY) and state.deal is not None:
            for other in state.deal.active:
                if other != turn:
                    action = interjection(view(state, other))
                    if action is not None:
                        seat = other
                        break
        if action is None:
            seat_view = view(state, seat)
            rng = random.Random(f"{seed}/{state.deals}/{step}")
            started = time.perf_counter()
            action = agents[seat].decide(seat_view, rng, budget)
            elapsed = time.perf_counter() - started
            if timing is not None and len(seat_view.legal) > 1:
                timing.add(agents[seat].name, elapsed)
            if action not in seat_view.legal:
                raise AssertionError(f"{agents[seat].name} chose an illegal {action!r}")
        else:
            elapsed = 0.0
        if on_decision is not None:
            on_decision(state, seat, action, elapsed)
        state, _ = apply(state, action)
        step += 1
    return state


def play_match(
    rules: Rules,
    agents: Sequence[Agent],
    seed: str,
    budget: float,
    timing: Timing | None = None,
    max_deals: int = 400,
    deal_for: Callable[[MatchState, int], Deal] | None = None,
    scores: tuple[int, ...] | None = None,
) -> MatchState:
    """A whole match (from these match ``scores``, or all 0); the deals come from
    ``deal_for(state, k)`` or are seeded by ``seed``."""
    from engine.dealing import new_match, shuffled_deal

    state = new_match(rules, scores)
    for k in range(max_deals):
        if state.phase is Phase.MATCH_OVER:
            break
        deal = deal_for(state, k) if deal_for else shuffled_deal(state, f"{seed}/deal/{k}")
        state = play_deal(state, deal, agents, f"{seed}/{k}", budget, timing)
    return state
