"""The "easy" level: a rule-based player for all three games, fast and without search.

- Bidding: the hand is valued by ``engine.ai.evaluation`` (sure winners, marriages, trump length,
  voids; the talon expectation over talons drawn from the unseen cards). The player bids
  while the next bid is at most the value it makes with probability ``BID_CONFIDENCE``
  (a normal model around the estimate with the fit's spread). Match awareness: on the
  barrel (Тысяча) the barrel contract costs nothing to try, so it is always bid; against a
  barrel or tumbochka player the player bids more boldly to keep them from the talon; on
  the tumbochka any contract is free to try, so the sitter always bids.
- Giving: ``evaluation.choose_give`` (low cards of short suits; never half a marriage).
- Contract: the contract maximising ``c·(2·P(points ≥ c) − 1)``; a redeal when the hand
  cannot make the bid; throwing (Тысяча одно) or conceding (Тысяча, only when it costs no
  points) when the contract is nearly hopeless.
- Play: ``engine.ai.policy.choose_play`` on the seat's own knowledge (card counting, voids).
"""

from __future__ import annotations

import math
import random
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
from engine.ai.evaluation import SPREAD, bid_value, choose_give, estimate
from engine.ai.policy import choose_play
from engine.ai.sampling import Knowledge, own_table
from engine.cards import mask_of
from engine.games import deck_of
from engine.rules import Game
from engine.state import Phase
from engine.view import SeatView

BID_CONFIDENCE: Final = {Game.THOUSAND: 0.8, Game.THOUSAND_ONE: 0.8, Game.TUMBOCHKA: 0.7}
"""Bid a value only if the hand makes it at least this often (by the model); tuned by
duplicate deals against other values (more eager bidding loses points)."""
BOLD_AGAINST_PERCH: Final = 25.0
"""Extra points a player risks to keep a barrel player from the talon (Тысяча)."""
THROW_BELOW: Final = 0.2
"""Throw the cards (Тысяча одно) when the contract is made less often than this."""
CONCEDE_BELOW: Final = 0.25
TUMBOCHKA_SITTER_MIN: Final = 7


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def make_probability(mean: float, spread: float, contract: float) -> float:
    """P(points ≥ contract) when the points are about normal around ``mean``."""
    return normal_cdf((mean - contract + 0.5) / max(spread, 1e-6))


def best_contract(options: list[int], mean: float, spread: float) -> int:
    """The contract with the best expected score ``c·(2p − 1)`` (ties: the lowest)."""
    best, best_value = options[0], -math.inf
    for c in sorted(options):
        value = c * (2 * make_probability(mean, spread, c) - 1)
        if value > best_value + 1e-9:
            best, best_value = c, value
    return best


class RulesAgent:
    name = "easy"

    def decide(self, view: SeatView, rng: random.Random, budget: float) -> SeatAction:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.BIDDING:
            return self.bid(view, rng)
        if phase is Phase.GIVING:
            return self.give(view)
        if phase is Phase.CONTRACT:
            return self.contract(view)
        return self.play(view)

    # --- bidding ------------------------------------------------------------------------
    def bid(self, view: SeatView, rng: random.Random) -> SeatAction:
        bids = sorted((a for a in view.legal if isinstance(a, Bid)), key=lambda a: a.value)
        passes = [a for a in view.legal if isinstance(a, Pass)]
        if not bids:
            return passes[0]
        if not passes:
            return bids[0]
        limit = self.bid_limit(view, rng)
        return bids[0] if bids[0].value <= limit else passes[0]

    def bid_limit(self, view: SeatView, rng: random.Random) -> float:
        """The highest bid this hand is worth now."""
        game = view.rules.game
        seat = view.seat
        assert seat is not None
        hand = mask_of(view.hand)
        mean, spread = bid_value(hand, deck_of(game) & ~hand, game, rng)
        quantile = normal_quantile(BID_CONFIDENCE[game])
        limit = mean - quantile * spread
        perch = view.perch
        if game == Game.THOUSAND:
            barrel = view.rules.barrel
            if perch == seat and barrel is not None:
                exact = view.rules.target - barrel
                return max(limit, float(exact))
            if perch is not None and perch != seat and _still_bidding(view, perch):
                limit += BOLD_AGAINST_PERCH
        elif game == Game.TUMBOCHKA:
            if perch == seat:
                # The sitter's score cannot move: every contract is a free try.
                return max(limit, mean + 2 * spread, float(TUMBOCHKA_SITTER_MIN))
            if perch is not None and _still_bidding(view, perch):
                limit += 1.0
        return limit

    # --- giving -------------------------------------------------------------------------
    def give(self, view: SeatView) -> SeatAction:
        game = view.rules.game
        gives = [a for a in view.legal if isinstance(a, Give)]
        if not gives:
            return self._early_end(view) or view.legal[0]
        first, _ = choose_give(mask_of(view.hand), game)
        to = min(a.to for a in gives)
        for a in gives:
            if a.card == first and a.to == to:
                return a
        return gives[0]

    # --- contract -----------------------------------------------------------------------
    def contract(self, view: SeatView) -> SeatAction:
        game = view.rules.game
        hand = mask_of(view.hand)
        mean, spread = estimate(hand, game), SPREAD[game]
        named = [a.value for a in view.legal if isinstance(a, NameContract)]
        p_bid = make_probability(mean, spread, view.bid)
        ending = self._end_instead(view, p_bid)
        if ending is not None:
            return ending
        if not named:
            return self.play(view)
        seat = view.seat
        if view.perch == seat and (game == Game.TUMBOCHKA or view.rules.barrel is not None):
            value = min(named)
        else:
            value = best_contract(named, mean, spread)
        for a in view.legal:
            if isinstance(a, NameContract) and a.value == value:
                return a
        raise AssertionError("the chosen contract is among the legal ones")

    def _end_instead(self, view: SeatView, p_bid: float) -> SeatAction | None:
        """A redeal, throw or concession when the bid is (nearly) hopeless."""
        for a in view.legal:
            if isinstance(a, Redeal) and p_bid < 0.5:
                return a
        game = view.rules.game
        for a in view.legal:
            if isinstance(a, Throw) and game == Game.THOUSAND_ONE and p_bid < THROW_BELOW:
                return a
            if (
                isinstance(a, Concede)
                and not view.rules.concede_penalty
                and p_bid < CONCEDE_BELOW
                and view.perch != view.seat
            ):
                return a
        return None

    def _early_end(self, view: SeatView) -> SeatAction | None:
        for a in view.legal:
            if isinstance(a, (Throw, Concede, Redeal)):
                return a
        return None

    # --- play ---------------------------------------------------------------------------
    def play(self, view: SeatView) -> SeatAction:
        seat = view.seat
        assert seat is not None
        know = Knowledge.of(view)
        table = own_table(view, know)
        card, kind = choose_play(table, seat)
        target = kind
        for a in view.legal:
            if isinstance(a, Play) and a.card == card and a.declaration == target:
                return a
        plays = [a for a in view.legal if isinstance(a, Play)]
        return plays[0] if plays else view.legal[0]


def _still_bidding(view: SeatView, seat: int) -> bool:
    return all(not (s == seat and v is None) for s, v in view.bids)


def normal_quantile(p: float) -> float:
    """The standard normal quantile by bisection (called rarely, with fixed ``p``)."""
    lo, hi = -8.0, 8.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if normal_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
