"""«Тысяча одно» (rules §2 and fine points 19–22): bids from 40, the both-pass choice,
throwing the cards, marriages from the first lead, the sitting-out fourth player, 1001.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Declaration
from engine.errors import Reason
from engine.events import DealScored, Event
from engine.games.base import (
    BASE_CAP,
    MARRIAGE_MASKS,
    MARRIAGE_VALUES,
    Variant,
    family_bid_refusal,
    family_bids,
    finish,
    leading_winner,
    marriages_in,
    round_points,
)
from engine.state import DealState, MatchState, Outcome, Phase

MIN_BID = 40
THROW_BONUS = 50
TARGET = 1001


class ThousandOne(Variant):
    declarations = frozenset({Declaration.MARRIAGE, Declaration.ACES})
    marriage_needs_trick = False
    can_throw = True

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """With four players the dealer sits the deal out."""
        return super().active_seats(players, dealer)[:3]

    def bid_cap(self, state: MatchState, hand: int) -> int:
        return BASE_CAP + marriages_in(hand, state.rules.ace_marriage)

    def allowed_bids(self, state: MatchState, deal: DealState, seat: int) -> Sequence[int]:
        low = deal.bid + 5 if deal.bid else MIN_BID
        return family_bids(low, self.bid_cap(state, deal.hands[seat]))

    def bid_refusal(self, state: MatchState, deal: DealState, seat: int, value: int) -> Reason:
        low = deal.bid + 5 if deal.bid else MIN_BID
        return family_bid_refusal(value, low, self.bid_cap(state, deal.hands[seat]))

    def closing_contract(self, state: MatchState, deal: DealState, declarer: int) -> int:
        return deal.bid or MIN_BID

    def score(
        self, state: MatchState, deal: DealState, outcome: Outcome
    ) -> tuple[MatchState, list[Event]]:
        declarer = deal.declarer
        assert declarer is not None
        changes = [0] * state.rules.players
        made = outcome is Outcome.PLAYED and deal.points[declarer] >= deal.contract
        if outcome is Outcome.THROWN:
            if deal.without_bid and not deal.contract_named:
                for seat in deal.active:
                    if seat != declarer:
                        changes[seat] = THROW_BONUS
            else:
                changes[declarer] = -deal.contract
        else:
            changes[declarer] = deal.contract if made else -deal.contract
            for seat in deal.active:
                if seat != declarer:
                    changes[seat] = round_points(deal.points[seat], state.rules.rounding)
            if deal.dealer not in deal.active:
                changes[deal.dealer] = _talon_marriage(deal.talon)
        scores = tuple(s + c for s, c in zip(state.scores, changes, strict=True))
        events: list[Event] = [
            DealScored(declarer, deal.contract, made, deal.points, tuple(changes), scores)
        ]
        state = state._replace(phase=Phase.DEAL_OVER, scores=scores)
        if max(scores) >= TARGET:
            state = finish(state, leading_winner(state, deal), events)
        return state, events


def _talon_marriage(talon: int) -> int:
    """What the sitting-out dealer scores: a marriage lying in the talon (§2, fine point 22)."""
    for mask, value in zip(MARRIAGE_MASKS, MARRIAGE_VALUES, strict=True):
        if talon & mask == mask:
            return value
    return 0
