"""Random matches of every game and many table conventions, for the renderer and codec tests.

Each sample starts some matches near the barrel or the tumbochka so that seats on them,
falls, bolts, golden bagels and match ends show up within a few hundred actions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from engine import (
    Bid,
    Game,
    MatchState,
    Pass,
    Phase,
    Redeal,
    Rules,
    SeatAction,
    apply,
    legal_actions,
    new_match,
    random_deal,
)
from engine.events import Event

NAMES = ("Анна", "Bob <b>&", "Вера", "Гнат")


class Sample(NamedTuple):
    state: MatchState
    events: tuple[Event, ...]


CONFIGS: tuple[tuple[Rules, tuple[int, ...] | None], ...] = (
    (Rules(game=Game.THOUSAND), None),
    (Rules(game=Game.THOUSAND), (870, 860, -990)),
    (
        Rules(
            game=Game.THOUSAND, ace_marriage=True, golden_round=True, minus_bidding=0,
            hidden_talon_on_hundred=True, barrel_bidding=False, concede_penalty=False,
            bid_step=10, rounding=10,
        ),
        (545, -40, 870),
    ),
    (Rules(game=Game.THOUSAND, bid_cap_without_marriage=False, barrel=None, target=1000),
     (900, 0, 0)),
    (Rules(game=Game.THOUSAND_ONE, players=3), None),
    (Rules(game=Game.THOUSAND_ONE, players=4, ace_marriage=True, rounding=None),
     (950, 900, 0, -30)),
    (Rules(game=Game.TUMBOCHKA), None),
    (Rules(game=Game.TUMBOCHKA), (19, 17, 0)),
)


def play(rules: Rules, scores: tuple[int, ...] | None, seed: int, steps: int) -> Iterator[Sample]:
    """``steps`` random actions (deals included), starting a new match when one ends."""
    rng = random.Random(seed)
    state = new_match(rules, scores)
    for _ in range(steps):
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rules, scores)
        if state.phase is Phase.DEAL_OVER:
            state, events = apply(state, random_deal(state, rng))
        else:
            state, events = apply(state, _choose(state, rng))
        yield Sample(state, events)


def _choose(state: MatchState, rng: random.Random) -> SeatAction:
    """A random legal action, biased like a cautious player: pass often, bid low, take a
    redeal when offered, so that deals end in every possible way."""
    actions = legal_actions(state)
    passes = [a for a in actions if isinstance(a, Pass)]
    bids = sorted((a for a in actions if isinstance(a, Bid)), key=lambda a: a.value)
    if passes and (not bids or rng.random() < 0.55):
        return passes[0]
    if bids:
        return rng.choice(bids[:3])
    redeals = [a for a in actions if isinstance(a, Redeal)]
    if redeals and rng.random() < 0.5:
        return redeals[0]
    return rng.choice(actions)


@cache
def samples(steps: int = 250, seeds: int = 2) -> tuple[Sample, ...]:
    """Every state reached by ``seeds`` random runs of each configuration."""
    out: list[Sample] = []
    for index, (rules, scores) in enumerate(CONFIGS):
        for seed in range(seeds):
            out += play(rules, scores, seed * 100 + index, steps)
    return tuple(out)


def names_for(state: MatchState) -> tuple[str, ...]:
    return NAMES[: state.rules.players]
