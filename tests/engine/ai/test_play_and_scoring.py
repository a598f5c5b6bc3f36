"""Whole deals: the fast model scores like the engine, and the players' strength is
ordered (a statistical check with fixed seeds and a wide margin)."""

from __future__ import annotations

import random
import statistics

import pytest

from engine.actions import Play
from engine.ai.agent import Agent
from engine.ai.arena import play_deal, play_match
from engine.ai.random_agent import RandomAgent
from engine.ai.rules_agent import RulesAgent
from engine.ai.sampling import Knowledge, own_table, table_of
from engine.ai.utility import changes, context_of
from engine.dealing import new_match, shuffled_deal
from engine.events import DealScored
from engine.match import apply
from engine.outcomes import settle
from engine.rules import Game, preset
from engine.state import MatchState, Outcome, Phase
from engine.tricks import moves, play
from engine.view import view
from tests.engine.ai.helpers import duplicate_difference

GAMES = [(Game.THOUSAND, 3), (Game.THOUSAND_ONE, 3), (Game.THOUSAND_ONE, 4), (Game.TUMBOCHKA, 3)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_model_plays_and_scores_like_the_engine(game: Game, players: int) -> None:
    """Deals played out through the engine by the rule-based player: the playouts' table,
    started at the first lead with the true hands, ends with the match's points; the deal
    scored from the declarer's view (``engine.outcomes``) changes the scores as the match
    did, and so does the utility when no bolt is given (it adds a bolt's future cost)."""
    rules = preset(game, players)
    agent = RulesAgent()
    compared = 0
    for k in range(40):
        state = new_match(rules)
        state, _ = apply(state, shuffled_deal(state, f"model/{k}", dealer=k % players))
        sim = None
        first: MatchState | None = None
        scored: DealScored | None = None
        while state.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            seat = state.turn
            assert seat is not None
            seen = view(state, seat)
            action = agent.decide(seen, random.Random(k), 1.0)
            if isinstance(action, Play):
                if sim is None:
                    assert state.deal is not None
                    first = state
                    sim = table_of(seen, Knowledge.of(seen), list(state.deal.hands))
                assert (action.card, action.declaration) in moves(sim, seat)
                play(sim, seat, action.card, action.declaration)
                assert state.deal is not None
                assert own_table(seen, Knowledge.of(seen)).hands[seat] == state.deal.hands[seat]
            state, events = apply(state, action)
            scored = next((e for e in events if isinstance(e, DealScored)), scored)
        if sim is None or first is None or first.deal is None or scored is None:
            continue
        assert sim.points == list(scored.points)
        ctx = context_of(view(first, first.deal.declarer or 0))
        settled = settle(ctx.table, Outcome.PLAYED, ctx.contract, sim.points, sim.won)
        assert settled.changes == scored.changes
        delta, _ = changes(ctx, sim.points, sim.won)
        if all(sim.won[s] for s in first.deal.active) or game is not Game.THOUSAND:
            assert [round(d) for d in delta] == list(scored.changes)
        compared += 1
    assert compared > 30


def test_rule_based_beats_random_in_duplicate_deals() -> None:
    """Over 60 fixed deals the rule-based player scores far more than the random one in the
    same seats; the margin is several times the interval, so the check cannot flake."""
    for game in (Game.THOUSAND, Game.TUMBOCHKA):
        diffs = duplicate_difference(preset(game), RulesAgent(), RandomAgent(), 60, "dup")
        mean = statistics.mean(diffs)
        error = statistics.stdev(diffs) / len(diffs) ** 0.5
        assert mean > 3 * error > 0, (game, mean, error)


def test_rule_based_wins_matches_against_random() -> None:
    wins = 0
    for m in range(6):
        agents: list[Agent] = [RandomAgent(), RandomAgent(), RandomAgent()]
        agents[m % 3] = RulesAgent()
        end = play_match(preset(Game.THOUSAND), agents, f"match/{m}", 1.0)
        wins += end.winner == m % 3
    assert wins == 6


def test_arena_replays_a_deal_exactly() -> None:
    rules = preset(Game.THOUSAND_ONE, 4)
    start = new_match(rules)
    deal = shuffled_deal(start, "replay", dealer=2)
    agents: list[Agent] = [RulesAgent(), RandomAgent(), RulesAgent(), RandomAgent()]
    assert play_deal(start, deal, agents, "x", 1.0) == play_deal(start, deal, agents, "x", 1.0)
