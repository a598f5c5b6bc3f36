"""What every decision of the search player (``engine.ai.search_agent``) shares: the clock
that bounds it, its settings (``Search``) and the weighted deals it draws (each weighted by
how well it explains the others' bidding, ``engine.ai.inference``, when the agent asks),
playouts of a deal from a seat's view by a playout policy (the search's
``engine.ai.aimed``, or ``engine.ai.defence`` with strong defenders), the deal's opening
table for simulating a declarer, the mean utility of a set of playout ends, and the
contracts worth valuing.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from engine.ai.inference import evidence_of, likelihood
from engine.ai.playout import Policy, rollout
from engine.ai.sampling import Deal, Knowledge, sample, table_of
from engine.ai.utility import DealContext, changes, utility
from engine.games import variant_of
from engine.rules import Game, Rules
from engine.table import Table, playing
from engine.view import SeatView

MIN_SAMPLES: Final = 4
"""A decision draws at least this many deals, whatever the clock says."""
SHORTLIST: Final = 6
"""Contracts valued by the full utility: the best by the made-or-failed count, the lowest,
and the lowest that wins the match when made."""
Outcome = tuple[list[int], list[int]]
"""A playout's end: the points and the tricks won per seat."""


class Clock:
    """The safety net: ``out`` stops the sampling at 70% of the budget, ``over`` the
    scoring of what was sampled at 90%, so the whole decision stays within it.

    ``soft`` (seconds) is the time a decision should take: past it, ``out(done, planned)``
    stops the sampling once half of the planned deals are drawn. Card play uses it, so that
    on a busy core (a third of it) a typical play still answers in about ``soft``; an idle
    reference machine draws every deal well within it."""

    def __init__(self, budget: float, soft: float = math.inf) -> None:
        now = time.perf_counter()
        self.sampling = now + budget * 0.7
        self.deadline = now + budget * 0.9
        self.soft = now + min(soft, budget * 0.7)

    def out(self, done: int = 0, planned: int = 0) -> bool:
        now = time.perf_counter()
        if now > self.sampling:
            return True
        return 0 < planned <= 2 * done and now > self.soft

    def over(self) -> bool:
        return time.perf_counter() > self.deadline


class Search(NamedTuple):
    """How one decision searches: its random source, how many deals it draws, the clock
    that bounds it, the policy its simulations play by, and whether its drawn deals weigh
    by how well they explain the others' bidding and contract (``engine.ai.inference``)."""

    rng: random.Random
    n: int
    clock: Clock
    policy: Policy
    inferred: bool


def draws(view: SeatView, know: Knowledge, search: Search) -> Iterator[tuple[Deal, float]]:
    """Up to ``search.n`` deals drawn for ``view`` and each one's weight (1.0 unless the
    search is ``inferred`` and something is read); the clock stops the drawing early, never
    before ``MIN_SAMPLES``."""
    evidence = evidence_of(view, know.played_by) if search.inferred else None
    n, clock, rng = search.n, search.clock, search.rng
    for i in range(n):
        if i >= MIN_SAMPLES and clock.out(i, n):
            return
        drawn = sample(view, know, rng)
        yield drawn, likelihood(evidence, drawn.hands)


def playouts(
    view: SeatView, know: Knowledge, search: Search
) -> tuple[list[Outcome], list[float]]:
    """Points and tricks of the deal played out from now by the search's policy, per drawn
    deal, and each drawn deal's weight."""
    outcomes = []
    weights = []
    for drawn, weight in draws(view, know, search):
        weights.append(weight)
        table = table_of(view, know, drawn.hands)
        rollout(table, search.policy)
        outcomes.append((table.points, table.won))
    return outcomes, weights


def opening_table(view: SeatView, hands: list[int], declarer: int) -> Table:
    """The first trick about to be led by the declarer, with these hands."""
    return playing(
        view.rules,
        view.active,
        hands,
        declarer=declarer,
        contract=view.contract,
        turn=declarer,
    )


def mean_utility(
    ctx: DealContext, seat: int, outcomes: list[Outcome], weights: list[float]
) -> float:
    """The mean utility of the playout ends, each weighted by its drawn deal's weight
    (weights of 1.0 give exactly the plain mean)."""
    if not outcomes:
        return 0.0
    total = sum(
        weight * utility(ctx, seat, p, w) for (p, w), weight in zip(outcomes, weights, strict=True)
    )
    return total / sum(weights)


def contract_options(rules: Rules, bid: int, hand: int) -> Sequence[int]:
    """The contracts a declarer holding ``hand`` (after giving) may name over ``bid``."""
    variant = variant_of(rules)
    return variant.contracts_over(rules, bid, variant.hand_cap(rules, hand))


def worth_naming(
    ctx: DealContext, view: SeatView, options: Sequence[int], outcomes: list[Outcome]
) -> list[int]:
    """The contracts worth valuing: on the barrel (Тысяча) only the barrel contract (a raise
    risks the match for a settlement's points); otherwise none above the most points any
    playout took (each of those fails every time, worse the higher), but the lowest; of
    those the ``SHORTLIST`` best by the count of playouts that make them, and the lowest
    that wins the match when made (``_winning``)."""
    low = min(options)
    if view.perch == view.seat and view.rules.game is Game.THOUSAND and view.rules.barrel:
        return [low]
    seat = view.seat
    assert seat is not None
    taken = sorted(points[seat] for points, _ in outcomes)
    top = taken[-1] if taken else low
    worth = [v for v in options if v <= top] or [low]
    if len(worth) <= SHORTLIST:
        return worth
    # A contract's score is +c when made and −c when not: c·(made − failed) ranks them as
    # the utility does (the defenders' points do not depend on the contract), at the cost
    # of counting. Of contracts made by the same playouts the highest is the better; only
    # the best few of those get the full (match-aware) valuation.
    n = len(taken)
    highest: dict[int, int] = {}
    for v in worth:
        highest[n - bisect_left(taken, v)] = v
    ranked = sorted(highest.items(), key=lambda mv: (-mv[1] * (2 * mv[0] - n), mv[1]))
    shortlist = {low, *(v for _, v in ranked[:SHORTLIST])}
    winning = _winning(ctx, seat, worth, max(outcomes, key=lambda o: o[0][seat]))
    return sorted(shortlist if winning is None else {*shortlist, winning})


def _winning(ctx: DealContext, seat: int, worth: Sequence[int], best: Outcome) -> int | None:
    """The lowest of the contracts ``worth`` with which ``seat``, making it, wins the match
    (from below the barrel, a declarer who reaches the target wins outright): a gain the
    count does not rank. Made in the playout ``best`` (the one in which ``seat`` took the
    most points), by the engine's own scoring; a higher contract wins if a lower one does."""
    points, won = best
    if changes(ctx._replace(contract=max(worth)), points, won)[1] != seat:
        return None
    return next(
        v for v in sorted(worth) if changes(ctx._replace(contract=v), points, won)[1] == seat
    )
