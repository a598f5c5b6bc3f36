"""The "hard" level: determinized Monte Carlo search over the rule-based policy, with exact
search of the last tricks.

Every decision is made the same way: draw deals consistent with what the seat has seen
(``engine.ai.sampling``), play each candidate out in each drawn deal, and keep the candidate with
the best mean utility of the deal's end (``engine.ai.utility``). All candidates are evaluated on
the same drawn deals, so their comparison is paired and much less noisy than the values.

- Card play: every legal card (and declaration) is tried in every drawn deal. The rest of
  the deal is played out by the rule-based policy (``engine.ai.policy``, which sees only what its
  seat may know); with at most ``RESPOND_CARDS`` cards in hand it is searched instead: the
  seat's best response to the others playing the policy (``solver.respond``), and with at
  most ``SOLVE_CARDS`` the mean of that and the exact two-sided value (``solver.solve``).
  A drawn deal counts ``HISTORY_TRUST`` to the power of the others' past plays that the
  policy would not have made with it, so deals that explain the play weigh more.
- Contract (declarer, after giving): one playout per drawn deal gives the points; each
  allowed contract is scored against them, as are conceding, throwing and a redeal.
- Giving: pairs of the cheapest cards by ``evaluation.give_cost`` are the candidate gifts;
  each is played out and valued with the best contract it allows.
- Bidding: the deal is played out with this seat as declarer at the next bid (a drawn
  talon, the heuristic gift and contract); the seat bids when its simulated points make the
  bid with probability ``SEARCH_BID_CONFIDENCE`` (a normal fit). When a barrel (Тысяча) or
  tumbochka player is in the bidding, the match matters more than the points: the seat
  compares the utility of declaring with that of passing, simulating the deal with the
  seat that would declare instead.

Determinism and the time budget. The amount of work is fixed by the budget alone: each
decision draws ``samples(kind) = BASE_SAMPLES[kind] × scale × budget / 1 s`` deals (never
fewer than ``MIN_SAMPLES``), so the same view, seed and budget always give the same action.
The bases are calibrated so that a decision takes well under its budget on one core of the
slow reference machine (``benchmarks/README.md`` records p50 and p99). The clock is only a
safety net: with ``use_clock=True`` (the default, for the table) sampling stops early when
85% of the budget is spent, which can change the answer only on a machine much slower or
busier than the reference; tests and the benchmark use ``use_clock=False``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

from engine.actions import (
    Bid,
    Concede,
    Give,
    NameContract,
    Pass,
    Play,
    Redeal,
    SeatAction,
    Throw,
)
from engine.ai.agent import DEFAULT_BUDGET
from engine.ai.evaluation import SPREAD, choose_give, estimate, give_cost
from engine.ai.playout import rollout
from engine.ai.policy import choose_play
from engine.ai.rules_agent import RulesAgent, best_contract, normal_quantile
from engine.ai.sampling import Knowledge, sample, table_of
from engine.ai.solver import respond, solve
from engine.ai.utility import (
    DealContext,
    concede_changes,
    context_of,
    seat_utility,
    throw_changes,
    utility,
)
from engine.cards import cards_of, mask_of
from engine.games import variant_of
from engine.rules import Game, Rules
from engine.state import Phase
from engine.table import Table, playing
from engine.tricks import play, playable
from engine.view import SeatView

# Enum members as module constants: looking one up on its class costs ten globals.
_THOUSAND = Game.THOUSAND
_THOUSAND_ONE = Game.THOUSAND_ONE
_TUMBOCHKA = Game.TUMBOCHKA
_BIDDING = Phase.BIDDING
_CONTRACT = Phase.CONTRACT
_GIVING = Phase.GIVING

BASE_SAMPLES: Final = {"play": 72, "contract": 320, "give": 48, "bid": 240}
"""Drawn deals per decision at the default budget (1 s) and ``scale`` 1: twice the first
calibration, which fell just short of +15 points per deal against the rule-based player
(``benchmarks/README.md`` has both runs); the decision times stay within their targets."""
MIN_SAMPLES: Final = 4
GIVE_CANDIDATES: Final = 5
"""The cheapest cards considered for giving (pairs of them for the first gift)."""
SEARCH_BID_CONFIDENCE: Final = {_THOUSAND: 0.75, _THOUSAND_ONE: 0.75, _TUMBOCHKA: 0.7}
"""Bid when the simulated points make the bid this often (normal fit to the playouts)."""
SOLVE_CARDS: Final = 3
"""With this many cards in hand or fewer, moves are valued by exact search."""
RESPOND_CARDS: Final = 5
"""With this many or fewer, by the best response to the policy (no playout)."""
HISTORY_TRUST: Final = 0.3
"""A drawn deal's weight is this to the power of the other seats' plays that the rule-based
policy would not have made with those cards."""
PASS_VALUE: Final = {_THOUSAND: 20.0, _THOUSAND_ONE: 10.0, _TUMBOCHKA: 0.5}
"""A defender's mean utility in rule-based play: passing's value when nobody else could
declare."""


class SearchAgent:
    """Determinized Monte Carlo search; ``scale`` multiplies the work per decision."""

    name = "hard"

    def __init__(self, scale: float = 1.0, use_clock: bool = True) -> None:
        self.scale = scale
        self.use_clock = use_clock
        self._fallback = RulesAgent()

    def samples(self, kind: str, budget: float) -> int:
        work = BASE_SAMPLES[kind] * self.scale * budget / DEFAULT_BUDGET
        return max(MIN_SAMPLES, round(work))

    def decide(self, view: SeatView, rng: random.Random, budget: float) -> SeatAction:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        clock = _Clock(budget if self.use_clock else math.inf)
        phase = view.phase
        if phase is _BIDDING:
            return self._bid(view, rng, budget, clock)
        if phase is _GIVING:
            return self._give(view, rng, budget, clock)
        if phase is _CONTRACT:
            return self._contract(view, rng, budget, clock)
        return self._play(view, rng, budget, clock)

    # --- card play ----------------------------------------------------------------------
    def _play(self, view: SeatView, rng: random.Random, budget: float, clock: _Clock) -> SeatAction:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        seat = view.seat
        assert seat is not None and view.declarer is not None
        know = Knowledge.of(view)
        ctx = context_of(view)
        side = _side(view.active, view.declarer, seat)
        moves = [(a.card, a.declaration) for a in plays]
        totals = [0.0] * len(moves)
        cards = len(view.hand)
        exact = cards <= SOLVE_CARDS
        responding = cards <= RESPOND_CARDS

        def leaf(points: list[int], won: list[int]) -> float:
            return utility(ctx, seat, points, won)

        n = self.samples("play", budget)
        weight_sum = 0.0
        for i in range(n):
            if i >= MIN_SAMPLES and clock.out():
                break
            hands = sample(view, know, rng).hands
            weight = HISTORY_TRUST ** surprises(view, know, hands)
            table = table_of(view, know, hands)
            for j, (c, kind) in enumerate(moves):
                child = table.copy()
                play(child, seat, c, kind)
                if exact:
                    value = respond(child.copy(), leaf, seat) + solve(child, leaf, side)
                    totals[j] += weight * value / 2
                elif responding:
                    totals[j] += weight * respond(child, leaf, seat)
                else:
                    rollout(child)
                    totals[j] += weight * leaf(child.points, child.won)
            weight_sum += weight
        preferred = self._fallback.play(view)
        best = max(
            range(len(moves)),
            key=lambda j: (round(totals[j] / weight_sum, 6), plays[j] == preferred, -j),
        )
        return plays[best]

    # --- contract -----------------------------------------------------------------------
    def _contract(
        self, view: SeatView, rng: random.Random, budget: float, clock: _Clock
    ) -> SeatAction:
        seat = view.seat
        assert seat is not None and view.declarer == seat
        know = Knowledge.of(view)
        outcomes = self._playouts(view, know, rng, self.samples("contract", budget), clock)
        base = context_of(view)
        best: SeatAction | None = None
        best_value = -math.inf
        for action in view.legal:
            if isinstance(action, NameContract):
                ctx = base._replace(contract=action.value)
                value = _mean_utility(ctx, seat, outcomes)
            elif isinstance(action, Concede):
                value = seat_utility(base, seat, concede_changes(base), None)
            elif isinstance(action, Throw):
                without = view.without_bid and not view.contract_named
                value = seat_utility(base, seat, throw_changes(base, without), None)
            elif isinstance(action, Redeal):
                value = 0.0
            else:
                continue
            if value > best_value + 1e-9:
                best, best_value = action, value
        if best is None:
            return self._fallback.decide(view, rng, budget)
        return best

    def _playouts(
        self, view: SeatView, know: Knowledge, rng: random.Random, n: int, clock: _Clock
    ) -> list[tuple[list[int], list[int]]]:
        """Points and tricks of the deal played out by the policy from now, per drawn deal."""
        outcomes = []
        for i in range(n):
            if i >= MIN_SAMPLES and clock.out():
                break
            table = table_of(view, know, sample(view, know, rng).hands)
            rollout(table)
            outcomes.append((table.points, table.won))
        return outcomes

    # --- giving -------------------------------------------------------------------------
    def _give(self, view: SeatView, rng: random.Random, budget: float, clock: _Clock) -> SeatAction:
        gives = [a for a in view.legal if isinstance(a, Give)]
        seat = view.seat
        if not gives or seat is None:
            return self._fallback.decide(view, rng, budget)
        game = view.rules.game
        hand = mask_of(view.hand)
        recipients = sorted({a.to for a in gives})
        cheap = sorted(cards_of(hand), key=lambda c: (give_cost(hand, c, game), c))
        cheap = cheap[:GIVE_CANDIDATES]
        plans: list[tuple[tuple[int, int], ...]] = []
        if len(recipients) == 2:
            r1, r2 = recipients
            for i, a in enumerate(cheap):
                for b in cheap[i + 1 :]:
                    plans.append(((a, r1), (b, r2)))
                    plans.append(((b, r1), (a, r2)))
        else:
            plans = [((c, recipients[0]),) for c in cheap]
        know = Knowledge.of(view)
        ctx = context_of(view)
        results: list[list[tuple[list[int], list[int]]]] = [[] for _ in plans]
        n = self.samples("give", budget)
        for i in range(n):
            if i >= MIN_SAMPLES and clock.out():
                break
            drawn = sample(view, know, rng).hands
            for j, plan in enumerate(plans):
                hands = drawn[:]
                for c, to in plan:
                    hands[seat] &= ~(1 << c)
                    hands[to] |= 1 << c
                table = _opening_table(view, hands, seat)
                rollout(table)
                results[j].append((table.points, table.won))
        best_plan, best_value = plans[0], -math.inf
        for plan, outcomes in zip(plans, results, strict=True):
            kept = hand
            for given, _ in plan:
                kept &= ~(1 << given)
            value = max(
                _mean_utility(ctx._replace(contract=v), seat, outcomes)
                for v in contract_options(view.rules, view.bid, kept)
            )
            if value > best_value + 1e-9:
                best_plan, best_value = plan, value
        card, to = best_plan[0]
        for action in gives:
            if action.card == card and action.to == to:
                return action
        return gives[0]

    # --- bidding ------------------------------------------------------------------------
    def _bid(self, view: SeatView, rng: random.Random, budget: float, clock: _Clock) -> SeatAction:
        bids = sorted((a for a in view.legal if isinstance(a, Bid)), key=lambda a: a.value)
        passes = [a for a in view.legal if isinstance(a, Pass)]
        if not passes:
            return bids[0]
        if not bids:
            return passes[0]
        bid = bids[0].value
        n = self.samples("bid", budget)
        seat = view.seat
        perch = view.perch
        if perch is not None and (perch == seat or _still_bidding(view, perch)):
            # A barrel or tumbochka seat is in the bidding: weigh the match, not the points.
            declaring, passing = self.bidding_values(view, bid, rng, n, clock)
            return bids[0] if declaring >= passing else passes[0]
        points = self.declarer_points(view, bid, rng, n, clock)
        mean = sum(points) / len(points)
        spread = (sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1)) ** 0.5
        z = normal_quantile(SEARCH_BID_CONFIDENCE[view.rules.game])
        return bids[0] if mean - z * spread >= bid else passes[0]

    def declarer_points(
        self, view: SeatView, bid: int, rng: random.Random, n: int, clock: _Clock
    ) -> list[float]:
        """This seat's deal points as declarer at ``bid`` in each drawn deal."""
        seat = view.seat
        assert seat is not None
        know = Knowledge.of(view)
        points: list[float] = []
        for i in range(n):
            if i >= MIN_SAMPLES and clock.out():
                break
            drawn = sample(view, know, rng)
            _, taken = self._declare_and_play(view, drawn.hands, drawn.talon, seat, bid, seat)
            points.append(taken)
        return points

    def bidding_values(
        self, view: SeatView, bid: int, rng: random.Random, n: int, clock: _Clock
    ) -> tuple[float, float]:
        """The mean utility of declaring at ``bid`` and of passing, on the same drawn deals.

        Declaring: this seat takes the drawn talon, gives by ``choose_give``, names the
        contract the hand model advises, and the deal is played out. Passing: the seat that
        would then declare (the highest other bidder, else the next seat still bidding)
        does the same at the current bid, and this seat defends.
        """
        seat = view.seat
        assert seat is not None
        know = Knowledge.of(view)
        other, other_bid = _declarer_if_passing(view, seat)
        declaring = passing = 0.0
        done = 0
        for i in range(n):
            if i >= MIN_SAMPLES and clock.out():
                break
            drawn = sample(view, know, rng)
            value, _ = self._declare_and_play(view, drawn.hands, drawn.talon, seat, bid, seat)
            declaring += value
            if other is None:
                passing += PASS_VALUE[view.rules.game]
            else:
                value, _ = self._declare_and_play(
                    view, drawn.hands, drawn.talon, other, other_bid, seat
                )
                passing += value
            done += 1
        return declaring / max(1, done), passing / max(1, done)

    def _declare_and_play(
        self, view: SeatView, drawn: list[int], talon: int, declarer: int, bid: int, me: int
    ) -> tuple[float, int]:
        """``me``'s utility when ``declarer`` takes ``talon`` at ``bid`` and plays it out,
        and the declarer's deal points."""
        game = view.rules.game
        hands = drawn[:]
        hands[declarer] |= talon
        first, second = choose_give(hands[declarer], game)
        hands[declarer] &= ~(1 << first) & ~(1 << second)
        opponents = [s for s in view.active if s != declarer]
        hands[opponents[0]] |= 1 << first
        hands[opponents[1]] |= 1 << second
        on_perch = declarer == view.perch
        options = contract_options(view.rules, bid, hands[declarer])
        if on_perch:
            contract = min(options)
        else:
            contract = best_contract(list(options), estimate(hands[declarer], game), SPREAD[game])
        table = _opening_table(view, hands, declarer)
        rollout(table)
        ctx = context_of(view, declarer=declarer, contract=contract)
        return utility(ctx, me, table.points, table.won), table.points[declarer]


class _Clock:
    """The safety net: has most of the budget been spent?"""

    def __init__(self, budget: float) -> None:
        self.deadline = time.perf_counter() + budget * 0.85

    def out(self) -> bool:
        return time.perf_counter() > self.deadline


def surprises(view: SeatView, know: Knowledge, hands: list[int]) -> int:
    """How many of the other seats' past plays the rule-based policy would not have made,
    had the cards been dealt as ``hands`` (the deal's play replayed from its first lead)."""
    me, declarer = view.seat, view.declarer
    assert declarer is not None
    start = hands[:]
    for s in view.active:
        start[s] |= know.played_by[s]
    table = playing(
        view.rules,
        view.active,
        start,
        declarer=declarer,
        contract=view.contract,
        turn=declarer,
    )
    count = 0
    for s, c, kind in know.history:
        if s != me:
            legal = playable(table, s)
            if legal & (legal - 1) and choose_play(table, s) != (c, kind):
                count += 1
        play(table, s, c, kind)
    return count


def _side(active: Sequence[int], declarer: int, seat: int) -> frozenset[int]:
    if seat == declarer:
        return frozenset({seat})
    return frozenset(s for s in active if s != declarer)


def _mean_utility(
    ctx: DealContext, seat: int, outcomes: list[tuple[list[int], list[int]]]
) -> float:
    if not outcomes:
        return 0.0
    return sum(utility(ctx, seat, p, w) for p, w in outcomes) / len(outcomes)


def _opening_table(view: SeatView, hands: list[int], declarer: int) -> Table:
    """The first trick about to be led by the declarer, with these hands."""
    return playing(
        view.rules,
        view.active,
        hands,
        declarer=declarer,
        contract=view.contract,
        turn=declarer,
    )


def contract_options(rules: Rules, bid: int, hand: int) -> Sequence[int]:
    """The contracts a declarer holding ``hand`` (after giving) may name over ``bid``."""
    variant = variant_of(rules)
    return variant.contracts_over(rules, bid, variant.hand_cap(rules, hand))


def _still_bidding(view: SeatView, seat: int) -> bool:
    return all(not (s == seat and v is None) for s, v in view.bids)


def _declarer_if_passing(view: SeatView, seat: int) -> tuple[int | None, int]:
    """Who would declare, and at what bid, if ``seat`` passed now."""
    for s, v in reversed(view.bids):
        if v is not None and s != seat:
            return s, view.bid
    passed = {s for s, v in view.bids if v is None}
    opening = variant_of(view.rules).opening_bid
    active = view.active
    start = active.index(seat)
    for step in range(1, len(active)):
        s = active[(start + step) % len(active)]
        if s not in passed:
            return s, max(view.bid, opening)
    return None, view.bid
