"""«Тысяча» (rules §1 and fine points 1–18): the hundred, the bid cap, redeal, concession,
bolts, the golden round, the dump truck and the barrel.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Declaration
from engine.errors import Reason
from engine.events import BoltGiven, DumpTruck, Event, FallCause, Fell, Mounted
from engine.games.base import (
    BASE_CAP,
    MAX_BID,
    Variant,
    deal_scored,
    family_bid_refusal,
    family_bids,
    family_contract_refusal,
    family_contracts,
    finish,
    half_contract,
    hand_points,
    holds_four_nines,
    leading_winner,
    marriages_in,
    round_points,
)
from engine.state import DealState, MatchState, Outcome, Phase

HUNDRED = 100
BOLT_PENALTY = 120
BOLTS_PER_PENALTY = 3
FALL_PENALTY = 120
BARREL_ATTEMPTS = 3
GOLDEN_DEALS = 3
DUMP_TRUCK = 555
LOSING_SCORE = -1000
REDEAL_POINTS = 14


def barrel_contract(state: MatchState) -> int | None:
    """What the barrel player must take (121 with target 1001), or None without a barrel."""
    rules = state.rules
    return None if rules.barrel is None else rules.target - rules.barrel


class Thousand(Variant):
    declarations = frozenset({Declaration.MARRIAGE, Declaration.ACES})
    marriage_needs_trick = True
    can_redeal = True
    can_concede = True

    def open_bidding(self, state: MatchState, deal: DealState) -> DealState:
        hundred = deal.active[0]
        barrel = state.perch
        if barrel is not None and not state.rules.barrel_bidding:
            contract = barrel_contract(state)
            assert contract is not None
            return deal._replace(bid=contract, bidder=barrel, turn=None)
        return deal._replace(
            bid=HUNDRED, bidder=hundred, bids=((hundred, HUNDRED),), turn=deal.active[1]
        )

    def auto_passes(self, state: MatchState, seat: int) -> bool:
        threshold = state.rules.minus_bidding
        return threshold is not None and state.scores[seat] < threshold

    def bid_cap(self, state: MatchState, hand: int) -> int:
        if not state.rules.bid_cap_without_marriage:
            return MAX_BID
        return BASE_CAP + marriages_in(hand, state.rules.ace_marriage)

    def _bid_terms(
        self, state: MatchState, deal: DealState, seat: int
    ) -> tuple[int, int, int | None]:
        low = deal.bid + state.rules.bid_step
        exact = barrel_contract(state) if seat == state.perch else None
        return low, self.bid_cap(state, deal.hands[seat]), exact

    def allowed_bids(self, state: MatchState, deal: DealState, seat: int) -> Sequence[int]:
        return family_bids(*self._bid_terms(state, deal, seat))

    def bid_refusal(self, state: MatchState, deal: DealState, seat: int, value: int) -> Reason:
        return family_bid_refusal(value, *self._bid_terms(state, deal, seat))

    def closing_contract(self, state: MatchState, deal: DealState, declarer: int) -> int:
        exact = barrel_contract(state)
        if declarer == state.perch and exact is not None and deal.bid < exact:
            return exact
        return deal.bid

    def talon_shown(self, state: MatchState, deal: DealState) -> bool:
        won_on_hundred = deal.contract == HUNDRED and deal.declarer == deal.active[0]
        return not (state.rules.hidden_talon_on_hundred and won_on_hundred)

    def allowed_contracts(self, state: MatchState, deal: DealState) -> Sequence[int]:
        assert deal.declarer is not None
        cap = self.bid_cap(state, deal.hands[deal.declarer])
        return family_contracts(deal.bid, state.rules.bid_step, cap)

    def contract_refusal(self, state: MatchState, deal: DealState, value: int) -> Reason:
        assert deal.declarer is not None
        cap = self.bid_cap(state, deal.hands[deal.declarer])
        return family_contract_refusal(value, deal.bid, state.rules.bid_step, cap)

    def redeal_ground(self, state: MatchState, hand: int) -> bool:
        return holds_four_nines(hand) or hand_points(hand) < REDEAL_POINTS

    def score(
        self, state: MatchState, deal: DealState, outcome: Outcome
    ) -> tuple[MatchState, list[Event]]:
        return _ThousandScoring(state, deal, outcome).run()


class _ThousandScoring:
    """One deal's settlement, in the order of fine point 18: the declarer and the
    defenders, bolts, the barrel (attempts, climbers, knock-offs), the dump truck, −1000."""

    def __init__(self, state: MatchState, deal: DealState, outcome: Outcome) -> None:
        self.state = state
        self.deal = deal
        self.outcome = outcome
        self.rules = state.rules
        golden = self.rules.golden_round and state.deals <= GOLDEN_DEALS
        self.mult = 2 if golden else 1
        self.events: list[Event] = []
        self.scores = list(state.scores)
        self.bolts = list(state.bolts)
        self.barrel = state.perch
        self.attempts = state.perch_attempts
        self.fallen: set[int] = set()
        self.winner: int | None = None
        declarer = deal.declarer
        assert declarer is not None
        self.declarer = declarer
        self.made = outcome is Outcome.PLAYED and deal.points[declarer] >= deal.contract

    def run(self) -> tuple[MatchState, list[Event]]:
        deal, rules = self.deal, self.rules
        declarer, made = self.declarer, self.made
        before = tuple(self.scores)
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
        scores = tuple(self.scores)
        self.events.insert(0, deal_scored(deal, made, before, scores))
        state = self.state._replace(
            phase=Phase.DEAL_OVER,
            scores=scores,
            bolts=tuple(self.bolts),
            perch=self.barrel,
            perch_attempts=self.attempts if self.barrel is not None else 0,
        )
        winner = self.winner
        if winner is None and min(scores) <= LOSING_SCORE:
            winner = leading_winner(state, deal)
        if winner is not None:
            state = finish(state, winner, self.events)
        return state, self.events

    def _change(self, seat: int, amount: int) -> None:
        self.scores[seat] += amount * self.mult

    def _barrel_declares(self, declarer: int, made: bool) -> None:
        """§1.7: the defenders stand still; the barrel player wins, falls or uses an attempt."""
        exact = barrel_contract(self.state)
        assert exact is not None
        contract = self.deal.contract
        if made:
            self._change(declarer, contract)
            self.winner = declarer
        elif contract > exact:
            self._change(declarer, -contract)
            self._fall(declarer, FallCause.RAISED_AND_FAILED, penalty=False)
        else:
            self._use_attempt(declarer)

    def _others_declare(self, declarer: int, made: bool) -> None:
        deal, rules = self.deal, self.rules
        contract = deal.contract
        defenders = [s for s in deal.active if s != declarer]
        if self.outcome is Outcome.CONCEDED:
            if rules.concede_penalty:
                self._change(declarer, -contract)
            else:
                self._bolt(declarer)
            for seat in defenders:
                if seat != self.barrel:
                    self._change(seat, half_contract(contract))
        else:
            self._change(declarer, contract if made else -contract)
            for seat in defenders:
                if seat != self.barrel:
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
        rules, deal, declarer = self.rules, self.deal, self.declarer
        if self.winner is not None:
            return
        if rules.barrel is None:
            if max(self.scores) >= rules.target:
                probe = self.state._replace(scores=tuple(self.scores))
                self.winner = leading_winner(probe, deal)
            return
        if self.made and self.scores[declarer] >= rules.target:
            self.winner = declarer
        climbers = [
            s for s in deal.active
            if s != self.state.perch and s != self.winner and self.scores[s] >= rules.barrel
        ]
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
