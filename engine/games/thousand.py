"""«Тысяча» (rules §1 and fine points 1–18): the hundred, the bid cap, redeal, concession,
bolts, the golden round, the dump truck and the barrel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Declaration
from engine.cards import ACE, TEN, bit, card, card_points
from engine.errors import Reason, StartError
from engine.events import BoltGiven, DumpTruck, Event, FallCause, Fell, Mounted, RedealGround
from engine.games.base import (
    BASE_CAP,
    MAX_BID,
    Variant,
    deal_scored,
    family_bid_refusal,
    family_bids,
    finish,
    half_contract,
    holds_four_nines,
    leading_winner,
    marriages_in,
    round_points,
)
from engine.rules import Rules
from engine.state import Outcome, Phase

if TYPE_CHECKING:
    from engine.table import Table

# Enum members as module constants: looking one up on its class costs ten globals.
_PLAYED = Outcome.PLAYED
_CONCEDED = Outcome.CONCEDED
_DEAL_OVER = Phase.DEAL_OVER

HUNDRED = 100
BOLT_PENALTY = 120
BOLTS_PER_PENALTY = 3
FALL_PENALTY = 120
BARREL_ATTEMPTS = 3
GOLDEN_DEALS = 3
DUMP_TRUCK = 555
LOSING_SCORE = -1000
REDEAL_POINTS = 14
_ACES_AND_TENS = sum(bit(card(rank, suit)) for rank in (ACE, TEN) for suit in range(4))
"""Two of these cards are 20 points or more: no hand holding two is under ``REDEAL_POINTS``."""


def barrel_contract(rules: Rules) -> int | None:
    """What the barrel player must take (121 with target 1001), or None without a barrel."""
    return None if rules.barrel is None else rules.target - rules.barrel


class Thousand(Variant):
    opening_bid = HUNDRED
    declarations = frozenset({Declaration.MARRIAGE, Declaration.ACES})
    marriage_needs_trick = True
    can_redeal = True
    can_concede = True
    has_bolts = True
    perch_name = "barrel"

    def starting_perch(self, rules: Rules, scores: tuple[int, ...]) -> int | None:
        """A score of exactly the barrel's (880) seats that player with no attempt used."""
        if any(s <= LOSING_SCORE for s in scores):
            raise StartError("a score of -1000 or less has already ended the match")
        if any(s >= rules.target for s in scores):
            raise StartError("a score at the target has already ended the match")
        if rules.barrel is None:
            return None
        if any(s > rules.barrel for s in scores):
            raise StartError("nobody can be above the barrel")
        seated = [i for i, s in enumerate(scores) if s == rules.barrel]
        if len(seated) > 1:
            raise StartError("two players cannot be seated at once")
        return seated[0] if seated else None

    def open_bidding(self, t: Table) -> None:
        hundred = t.active[0]
        barrel = t.perch
        if barrel is not None and not t.rules.barrel_bidding:
            contract = barrel_contract(t.rules)
            assert contract is not None
            t.bid, t.bidder, t.turn = contract, barrel, None
            return
        t.bid, t.bidder, t.bids, t.turn = HUNDRED, hundred, ((hundred, HUNDRED),), t.active[1]

    def auto_passes(self, t: Table, seat: int) -> bool:
        threshold = t.rules.minus_bidding
        return threshold is not None and t.scores[seat] < threshold

    def caps_by_marriages(self, rules: Rules) -> bool:
        return rules.bid_cap_without_marriage

    def hand_cap(self, rules: Rules, hand: int) -> int:
        if not rules.bid_cap_without_marriage:
            return MAX_BID
        return BASE_CAP + marriages_in(hand, rules.ace_marriage)

    def contract_step(self, rules: Rules) -> int:
        return rules.bid_step

    def _bid_terms(self, t: Table, seat: int) -> tuple[int, int, int | None]:
        low = t.bid + t.rules.bid_step
        exact = barrel_contract(t.rules) if seat == t.perch else None
        return low, self.bid_cap(t, t.hands[seat]), exact

    def allowed_bids(self, t: Table, seat: int) -> Sequence[int]:
        return family_bids(*self._bid_terms(t, seat))

    def bid_refusal(self, t: Table, seat: int, value: int) -> Reason:
        return family_bid_refusal(value, *self._bid_terms(t, seat))

    def closing_contract(self, t: Table, declarer: int) -> int:
        exact = barrel_contract(t.rules)
        if declarer == t.perch and exact is not None and t.bid < exact:
            return exact
        return t.bid

    def talon_shown(self, t: Table) -> bool:
        won_on_hundred = t.contract == HUNDRED and t.declarer == t.active[0]
        return not (t.rules.hidden_talon_on_hundred and won_on_hundred)

    def redeal_ground(self, hand: int) -> RedealGround | None:
        if holds_four_nines(hand):
            return RedealGround.FOUR_NINES
        # Counting the points (four table lookups) only for a hand with fewer than two aces
        # and tens, about one in seven: every seat's hand is checked once a deal.
        if (hand & _ACES_AND_TENS).bit_count() < 2 and card_points(hand) < REDEAL_POINTS:
            return RedealGround.UNDER_14_POINTS
        return None

    def score(self, t: Table, outcome: Outcome, events: list[Event]) -> None:
        _ThousandScoring(t, outcome, events).run()


class _ThousandScoring:
    """One deal's settlement, in the order of fine point 18: the declarer and the
    defenders, bolts, the barrel (attempts, climbers, knock-offs), the dump truck, −1000."""

    def __init__(self, t: Table, outcome: Outcome, events: list[Event]) -> None:
        self.table = t
        self.outcome = outcome
        self.rules = t.rules
        golden = self.rules.golden_round and t.deals <= GOLDEN_DEALS
        self.mult = 2 if golden else 1
        self.events = events
        self.start = len(events)
        self.scores = list(t.scores)
        self.bolts = list(t.bolts)
        self.barrel = t.perch
        self.attempts = t.perch_attempts
        self.fallen: set[int] = set()
        self.winner: int | None = None
        declarer = t.declarer
        assert declarer is not None
        self.declarer = declarer
        self.made = outcome is _PLAYED and t.points[declarer] >= t.contract

    def run(self) -> None:
        t, rules = self.table, self.rules
        declarer, made = self.declarer, self.made
        before = t.scores
        if declarer == self.barrel:
            self._barrel_declares(declarer, made)
        else:
            self._others_declare(declarer, made)
        self._settle_barrel()
        if rules.dump_truck:
            for seat, score in enumerate(self.scores):
                if abs(score) == DUMP_TRUCK:
                    self.scores[seat] = 0
                    self.events.append(DumpTruck(seat))
        t.scores = tuple(self.scores)
        self.events.insert(self.start, deal_scored(t, made, before))
        t.phase = _DEAL_OVER
        t.bolts = tuple(self.bolts)
        t.perch = self.barrel
        t.perch_attempts = self.attempts if self.barrel is not None else 0
        winner = self.winner
        if winner is None and min(t.scores) <= LOSING_SCORE:
            winner = leading_winner(t)
        if winner is not None:
            finish(t, winner, self.events)

    def _change(self, seat: int, amount: int) -> None:
        self.scores[seat] += amount * self.mult

    def _barrel_declares(self, declarer: int, made: bool) -> None:
        """§1.7: the defenders stand still; the barrel player wins, falls or uses an attempt."""
        exact = barrel_contract(self.rules)
        assert exact is not None
        contract = self.table.contract
        if made:
            self._change(declarer, contract)
            self.winner = declarer
        elif contract > exact:
            self._change(declarer, -contract)
            self._fall(declarer, FallCause.RAISED_AND_FAILED, penalty=False)
        else:
            self._use_attempt(declarer)

    def _others_declare(self, declarer: int, made: bool) -> None:
        deal, rules = self.table, self.rules
        contract = deal.contract
        barrel = self.barrel
        if self.outcome is _CONCEDED:
            if rules.concede_penalty:
                self._change(declarer, -contract)
            else:
                self._bolt(declarer)
            for seat in deal.active:
                if seat != declarer and seat != barrel:
                    self._change(seat, half_contract(contract))
        else:
            self._change(declarer, contract if made else -contract)
            for seat in deal.active:
                if seat != declarer and seat != barrel:
                    self._change(seat, round_points(deal.points[seat], rules.rounding))
            for seat in deal.active:
                if not deal.won[seat] and seat != self.barrel:
                    self._bolt(seat)
        if self.barrel is not None:
            self._use_attempt(self.barrel)

    def _bolt(self, seat: int) -> None:
        if not self.rules.bolts:
            return
        self.bolts[seat] += 1
        penalty = 0
        if self.bolts[seat] == BOLTS_PER_PENALTY:
            self.bolts[seat] = 0
            penalty = BOLT_PENALTY * self.mult
            self.scores[seat] -= penalty
        self.events.append(BoltGiven(seat, self.bolts[seat], penalty))

    def _use_attempt(self, seat: int) -> None:
        self.attempts += 1
        if self.attempts >= BARREL_ATTEMPTS:
            self._fall(seat, FallCause.ATTEMPTS, penalty=True)

    def _fall(self, seat: int, cause: FallCause, *, penalty: bool) -> None:
        if seat in self.fallen:
            return
        self.fallen.add(seat)
        if penalty:
            self._change(seat, -FALL_PENALTY)
        if seat == self.barrel:
            self.barrel = None
            self.attempts = 0
        self.events.append(Fell(seat, cause, self.scores[seat]))

    def _settle_barrel(self) -> None:
        """Outright wins, climbing onto the barrel, knock-offs (§1.7, fine points 8, 9, 17)."""
        rules, deal, declarer = self.rules, self.table, self.declarer
        if self.winner is not None:
            return
        if rules.barrel is None:
            if max(self.scores) >= rules.target:
                self.winner = leading_winner(self.table, tuple(self.scores))
            return
        if self.made and self.scores[declarer] >= rules.target:
            self.winner = declarer
        climbers: list[int] = []
        # A loop, not a comprehension (a frame), once per deal.
        for s in deal.active:
            if s != self.table.perch and s != self.winner and self.scores[s] >= rules.barrel:
                climbers.append(s)
        if self.winner is not None:
            for seat in climbers:
                self.scores[seat] = rules.barrel
            return
        if len(climbers) == 1:
            (climber,) = climbers
            self.scores[climber] = rules.barrel
            sitting = self.barrel
            self.events.append(Mounted(climber))
            if sitting is not None:
                self._fall(sitting, FallCause.KNOCKED_OFF, penalty=True)
            self.barrel = climber
            self.attempts = 0
        elif climbers:
            sitting = self.barrel
            for seat in climbers:
                self.scores[seat] = rules.barrel
                self.events.append(Mounted(seat))
                self._fall(seat, FallCause.CLIMBED_TOGETHER, penalty=True)
            if sitting is not None:
                self._fall(sitting, FallCause.KNOCKED_OFF, penalty=True)
            self.barrel = None
            self.attempts = 0
