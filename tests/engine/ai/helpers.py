"""Random decision points of all three games, for the computer players' tests."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

from engine.actions import Bid, Concede, Pass, Redeal, SeatAction, Throw
from engine.ai.agent import Agent
from engine.ai.arena import play_deal
from engine.dealing import new_match, random_deal, shuffled_deal
from engine.match import apply, legal_actions
from engine.rules import Game, Rules, preset
from engine.state import MatchState, Phase

THREE_MARRIAGES_DEAL = """
game thousand
dealer p3
hand p1 9S QS KS AS QD KD QH
hand p2 JS TS JC QC KC TC AC
hand p3 9D JD TD AD 9H JH TH
talon 9C KH AH
"""
"""The three-marriage deal before its bidding."""
THREE_MARRIAGES = THREE_MARRIAGES_DEAL + """p2 pass
p3 pass
"""
"""The play-quality position after the bidding: p1 takes the talon and holds 9S QS KS AS 9C
QD KD QH KH AH, three marriages (220) with the two nines free."""
ON_THE_BARREL = """
game thousand
scores 880 0 0
dealer p3
hand p1 AS TS KS QS AH KH QH
hand p2 9S JS 9C JC QC KC 9D
hand p3 JD QD KD TD AD 9H JH
talon TH AC TC
p2 pass
p3 pass
"""
"""p1 sits on the barrel (880), both others pass: it takes the talon and holds ♠A 10 K Q and
♥A 10 K Q, two marriages, with ♣A 10 and ♥10 from the talon."""
TWO_MARRIAGES_OVER_THE_HUNDRED = """
game thousand
dealer p1
hand p1 QS KS TC JD QH KH TH
hand p2 JS 9C QC KC 9D KD JH
hand p3 9S TS AS AC TD 9H AH
talon JC QD AD
p3 pass
"""
"""p1 to bid with ♥K Q 10 and ♠K Q (140 in marriages), p2 on the hundred, p3 passed."""

AT_500 = """
game thousand
scores 500 500 500
dealer p1
hand p1 9S TS 9C KC JD QD TH
hand p2 QS AS AC 9D KD AD 9H
hand p3 KS JC QC TD JH QH AH
talon JS TC KH
p3 pass
p1 pass
p2 give 9D p1
p2 give 9H p3
p2 contract 100
"""
"""Everyone at 500: p2 declares 100; a defender whose points round to 55 lands on the dump
truck (555, reset to 0)."""

VARIANTS: list[tuple[str, Rules, tuple[int, ...] | None]] = [
    ("thousand", preset(Game.THOUSAND), None),
    ("thousand-barrel", preset(Game.THOUSAND), (880, 300, -200)),
    (
        "thousand-options",
        dataclasses.replace(
            preset(Game.THOUSAND),
            ace_marriage=True,
            hidden_talon_on_hundred=True,
            concede_penalty=False,
            barrel_bidding=False,
            bid_step=10,
        ),
        (880, 0, 40),
    ),
    ("thousand-one", preset(Game.THOUSAND_ONE), None),
    ("thousand-one-4", preset(Game.THOUSAND_ONE, 4), None),
    ("tumbochka", preset(Game.TUMBOCHKA), None),
    ("tumbochka-sitter", preset(Game.TUMBOCHKA), (5, 20, 0)),
]


def _random_action(legal: tuple[SeatAction, ...], rng: random.Random) -> SeatAction:
    """A random action that lets deals reach every phase: mostly passes and low bids,
    rarely an early end."""
    common = [a for a in legal if not isinstance(a, (Concede, Throw, Redeal))]
    if not common or rng.random() < 0.03:
        return rng.choice(legal)
    bids = [a for a in common if isinstance(a, Bid)]
    passes = [a for a in common if isinstance(a, Pass)]
    if bids and passes:
        return passes[0] if rng.random() < 0.6 else min(bids, key=lambda a: a.value)
    return rng.choice(common)


def decision_points(
    rules: Rules, scores: tuple[int, ...] | None, seed: int, count: int
) -> Iterator[tuple[MatchState, int]]:
    """``count`` states with the seat to act, drawn from random play of random deals."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = new_match(rules, scores)
        state, _ = apply(state, random_deal(state, rng))
        while state.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER) and made < count:
            seat = state.turn
            assert seat is not None
            legal = legal_actions(state, seat)
            if rng.random() < 0.35:
                yield state, seat
                made += 1
            state, _ = apply(state, _random_action(legal, rng))


def duplicate_difference(
    rules: Rules, a: Agent, b: Agent, deals: int, seed: str, budget: float = 1.0
) -> list[float]:
    """Per deal: the mean over the playing seats of A's score minus B's in that seat."""
    out = []
    n = rules.players
    for k in range(deals):
        start = new_match(rules)
        deal = shuffled_deal(start, f"{seed}/{k}", dealer=k % n)
        base = play_deal(start, deal, [b] * n, f"{seed}/{k}", budget)
        assert base.deal is not None
        diffs = []
        for seat in base.deal.active:
            agents = [b] * n
            agents[seat] = a
            end = play_deal(start, deal, agents, f"{seed}/{k}", budget)
            diffs.append(end.scores[seat] - base.scores[seat])
        out.append(sum(diffs) / len(diffs))
    return out


def ids(items: list[Any]) -> list[str]:
    return [item[0] for item in items]
