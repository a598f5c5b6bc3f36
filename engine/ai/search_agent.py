"""The "hard" level: determinized Monte Carlo search over the rule-based policy, with exact
search of the last tricks.

Every decision is made the same way: draw deals consistent with what the seat has seen
(``engine.ai.sampling``), play each candidate out in each drawn deal, and keep the candidate with
the best mean utility of the deal's end (``engine.ai.utility``). All candidates are evaluated on
the same drawn deals, so their comparison is paired and much less noisy than the values.

- Card play (here): every legal card (and declaration) is tried in every drawn deal. The
  rest of the deal is played out by the search's playout policy (``engine.ai.aimed``: the
  rule-based policy with marriages declared in an order that keeps the lead; each seat sees
  only what it may know); with at most ``RESPOND_CARDS`` cards in hand it is searched
  instead: the seat's best response to the others playing the rule-based policy
  (``solver.respond``, whose memo serves every move and drawn deal of the play), and with
  at most ``SOLVE_CARDS`` the mean of that and the exact two-sided value
  (``solver.solve``). A drawn deal counts ``HISTORY_TRUST`` to the power
  of the others' past plays that the rule-based policy would not have made with it, so
  deals that explain the play weigh more, times how well it explains their bidding and
  contract (``engine.ai.inference``, for the decisions named by ``inferred``). A
  defender near the dump truck values the ends near it warily (``utility.wary_utility``).
  Plays within ``PLAY_MARGIN`` of the best are equally good; among them a declaration
  goes first, then the rule-based choice, then the cheapest card.
- Giving and the contract: ``engine.ai.search_talon``; bidding: ``engine.ai.search_bidding``.
  Both simulate with ``engine.ai.simulation``; the utility of a deal's end is match-aware
  (``engine.ai.utility``: the barrel, the tumbochka, bolts, the engine's own scoring). Their
  playouts model the defenders as strong players (``engine.ai.defence``: they attack the
  declarer's undeclared marriages and cash what the declarer cannot beat) for the decisions
  named by ``defended``; the card play's playouts stay with ``engine.ai.aimed``.

Determinism and the time budget. The amount of work is fixed by the budget alone: each
decision draws ``samples(kind) = BASE_SAMPLES[kind] × scale × budget / 1 s`` deals (never
fewer than ``MIN_SAMPLES``), so the same view, seed and budget always give the same action.
The bases are calibrated so that a decision takes well under its budget on one core of the
slow reference machine (``benchmarks/README.md`` records p50 and p99). The clock is only a
safety net: with ``use_clock=True`` (the default, for the table) sampling stops early when
70% of the budget is spent and the scoring of gift plans when 90% is, and a card play
stops once half its deals are drawn past ``PLAY_SOFT``, which can change the answer only on
a machine much slower or busier than the reference; tests and the benchmark use
``use_clock=False``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from engine.actions import Declaration, Play, SeatAction
from engine.ai.agent import DEFAULT_BUDGET
from engine.ai.aimed import choose_aimed
from engine.ai.defence import choose_defence
from engine.ai.playout import Policy, rollout
from engine.ai.policy import choose_play
from engine.ai.rules_agent import RulesAgent
from engine.ai.sampling import Knowledge, table_of
from engine.ai.search_bidding import choose_bid
from engine.ai.search_talon import choose_contract, choose_gift
from engine.ai.simulation import MIN_SAMPLES, Clock, Search, draws
from engine.ai.solver import Memo, respond, solve
from engine.ai.utility import context_of, wary_utility
from engine.cards import ACE, RANK_OF, TEN, THOUSAND_POINTS
from engine.history import trick_winner
from engine.rules import Game
from engine.state import Phase
from engine.table import playing
from engine.tricks import play, playable
from engine.view import SeatView

# Enum members as module constants: looking one up on its class costs ten globals.
_THOUSAND = Game.THOUSAND
_THOUSAND_ONE = Game.THOUSAND_ONE
_TUMBOCHKA = Game.TUMBOCHKA
_BIDDING = Phase.BIDDING
_CONTRACT = Phase.CONTRACT
_GIVING = Phase.GIVING
_PLAY = Phase.PLAY
_NONE = Declaration.NONE
_MARRIAGE = Declaration.MARRIAGE

BASE_SAMPLES: Final = {"play": 72, "contract": 640, "give": 48, "bid": 240}
"""Drawn deals per decision at the default budget (1 s) and ``scale`` 1: twice the first
calibration, which fell just short of +15 points per deal against the rule-based player
(``benchmarks/README.md`` has both runs); the decision times stay within their targets."""
PLAY_SOFT: Final = 0.15
"""Seconds a card play should take at the default budget (``simulation.Clock``'s soft
limit): past it, a play stops drawing deals once half of them are drawn."""
SOLVE_CARDS: Final = 3
"""With this many cards in hand or fewer, moves are valued by exact search."""
RESPOND_CARDS: Final = 6
"""With this many or fewer, by the best response to the policy (no playout). Six cards
gained over five in the development runs (``benchmarks/README.md``, issue 16, sessions 6
and 7); the solver's memo (``solver.Memo``) makes a six-card play take about twice a
five-card one instead of ten times."""
HISTORY_TRUST: Final = 0.3
"""A drawn deal's weight is this to the power of the other seats' plays that the rule-based
policy would not have made with those cards."""
PLAY_MARGIN: Final = {_THOUSAND: 1.0, _THOUSAND_ONE: 1.0, _TUMBOCHKA: 0.05}
"""Plays whose mean utility is this close to the best are taken as equally good (the
sampling's noise is larger); the choice among them is by ``_among_best``."""
WASTE_MARGIN: Final = 4.0
"""An ace or ten thrown onto an opponent's trick (``_thrown_away``), or a king or queen led
without the marriage it could declare (``led_bare``), must beat the other plays by this
much: the noise of 72 drawn deals is several points, and a strong player does not give 10
or 11 points away, or break a marriage it could show, on a coin toss."""


STRONG_DEFENCE: Final = frozenset({"bid", "give", "contract"})
"""The decisions (kinds of ``BASE_SAMPLES``) whose simulations model the defenders as
strong players (``engine.ai.defence``) instead of the playout policy."""
INFERRED: Final = frozenset({"contract", "play"})
"""The decisions whose drawn deals are weighted by what the other seats' bidding and
contract say about their hands (``engine.ai.inference``; measured against the search
player without it in ``benchmarks/README.md``, issue 16, session 10). The bidding and
the giving may be too ("bid", "give"); that measured no better there (the giving worse in
Тысяча одно)."""


class SearchAgent:
    """Determinized Monte Carlo search; ``scale`` multiplies the work per decision.
    ``defended`` names the decisions whose simulations use strong defenders
    (``STRONG_DEFENCE`` by default; the empty set is the search player of ``b3e32d7``);
    ``inferred`` those whose drawn deals are weighted by the other seats' bidding and
    contract (``INFERRED`` by default; the empty set is the search player of ``4cc9714``)."""

    name = "hard"

    def __init__(
        self,
        scale: float = 1.0,
        use_clock: bool = True,
        defended: frozenset[str] = STRONG_DEFENCE,
        inferred: frozenset[str] = INFERRED,
    ) -> None:
        self.scale = scale
        self.use_clock = use_clock
        self.defended = defended
        self.inferred = inferred
        self._fallback = RulesAgent()

    def policy(self, kind: str) -> Policy:
        """The playout policy of the simulations of decisions of ``kind``."""
        return choose_defence if kind in self.defended else choose_aimed

    def samples(self, kind: str, budget: float) -> int:
        work = BASE_SAMPLES[kind] * self.scale * budget / DEFAULT_BUDGET
        return max(MIN_SAMPLES, round(work))

    def search(self, kind: str, rng: random.Random, budget: float, clock: Clock) -> Search:
        """How a decision of ``kind`` (a key of ``BASE_SAMPLES``) searches."""
        n = self.samples(kind, budget)
        return Search(rng, n, clock, self.policy(kind), kind in self.inferred)

    def decide(self, view: SeatView, rng: random.Random, budget: float) -> SeatAction:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if not self.use_clock:
            clock = Clock(math.inf)
        elif phase is _PLAY:
            clock = Clock(budget, PLAY_SOFT * budget / DEFAULT_BUDGET)
        else:
            clock = Clock(budget)
        if phase is _BIDDING:
            return choose_bid(view, self.search("bid", rng, budget, clock))
        found: SeatAction | None = None
        if phase is _GIVING:
            found = choose_gift(view, self.search("give", rng, budget, clock))
        elif phase is _CONTRACT:
            found = choose_contract(view, self.search("contract", rng, budget, clock))
        else:
            return self._play(view, self.search("play", rng, budget, clock))
        return found if found is not None else self._fallback.decide(view, rng, budget)

    # --- card play ----------------------------------------------------------------------
    def _play(self, view: SeatView, search: Search) -> SeatAction:
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
            return wary_utility(ctx, seat, points, won)

        memo: Memo = {}
        weight_sum = 0.0
        for drawn, likely in draws(view, know, search):
            hands = drawn.hands
            weight = likely * HISTORY_TRUST ** surprises(view, know, hands)
            table = table_of(view, know, hands)
            for j, (c, kind) in enumerate(moves):
                child = table.copy()
                play(child, seat, c, kind)
                if exact:
                    value = respond(child.copy(), leaf, seat, memo) + solve(child, leaf, side)
                    totals[j] += weight * value / 2
                elif responding:
                    totals[j] += weight * respond(child, leaf, seat, memo)
                else:
                    rollout(child, search.policy)
                    totals[j] += weight * leaf(child.points, child.won)
            weight_sum += weight
        return plays[_among_best(view, plays, [t / weight_sum for t in totals], self._fallback)]


def _among_best(view: SeatView, plays: list[Play], means: list[float], fallback: RulesAgent) -> int:
    """The play to make among those within ``PLAY_MARGIN`` of the best mean: a declaration
    (a marriage, trilyazh or troyan shown costs nothing then), else the rule-based choice,
    else the cheapest card. An ace or ten that would go onto a trick an opponent is taking,
    and a king or queen led without the marriage it could declare, count ``WASTE_MARGIN``
    less: such a play is made only when the drawn deals clearly favour it, not by their
    noise (a bare queen is the cheapest card, so it would win every near tie)."""
    odd = _thrown_away(view) | led_bare(plays)
    if odd:
        means = [
            m - WASTE_MARGIN if a.card in odd and a.declaration is _NONE else m
            for a, m in zip(plays, means, strict=True)
        ]
    top = max(means)
    margin = PLAY_MARGIN[view.rules.game]
    near = [j for j, m in enumerate(means) if m >= top - margin]
    if len(near) == 1:
        return near[0]
    preferred = fallback.play(view)

    def key(j: int) -> tuple[bool, bool, int, float]:
        action = plays[j]
        declared = action.declaration is not _NONE
        return declared, action == preferred, -THOUSAND_POINTS[action.card], means[j]

    return max(near, key=key)


def _thrown_away(view: SeatView) -> frozenset[int]:
    """The aces and tens that would go onto a trick an opponent takes without beating it
    (Тысяча family): the declarer's onto a defender's, a defender's onto the declarer's.
    A defender who plays second gives the points to the partner only if the partner still
    beats the declarer's card; the drawn deals say how likely that is, and the margin asks
    them to say it clearly."""
    trick = view.trick
    if not trick or view.rules.game is _TUMBOCHKA:
        return frozenset()
    seat, declarer = view.seat, view.declarer
    if seat is None:
        return frozenset()
    trump = view.trump if view.trump is not None else -1
    winner, _ = trick_winner(trick, trump)
    if seat != declarer and winner != declarer:
        # The partner is taking it: points given to the partner are not lost.
        return frozenset()
    # A card that does not take the trick once played onto it (the engine's own rule).
    return frozenset(
        card
        for card in view.hand
        if RANK_OF[card] in (ACE, TEN) and trick_winner((*trick, (seat, card)), trump)[0] != seat
    )


def led_bare(plays: Sequence[Play]) -> frozenset[int]:
    """The kings and queens that may be led declaring their marriage (the same card is
    legal with the declaration): led without it, they break it."""
    return frozenset(a.card for a in plays if a.declaration is _MARRIAGE)


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
