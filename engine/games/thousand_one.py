"""«Тысяча одно» (rules §2 and fine points 19–22): bids from 40, the both-pass choice,
throwing the cards, marriages from the first lead, the sitting-out fourth player, 1001.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import TYPE_CHECKING

from engine.actions import Declaration
from engine.errors import Reason, StartError
from engine.events import Event, deal_scored_event
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
from engine.rules import Rules
from engine.state import Outcome, Phase

if TYPE_CHECKING:
    from engine.table import Table

# Enum members as module constants: looking one up on its class costs ten globals.
_PLAYED = Outcome.PLAYED
_THROWN = Outcome.THROWN
_DEAL_OVER = Phase.DEAL_OVER

MIN_BID = 40
THROW_BONUS = 50
TARGET = 1001


class ThousandOne(Variant):
    opening_bid = MIN_BID
    declarations = frozenset({Declaration.MARRIAGE, Declaration.ACES})
    marriage_needs_trick = False
    can_throw = True

    def starting_perch(self, rules: Rules, scores: tuple[int, ...]) -> int | None:
        if any(s >= TARGET for s in scores):
            raise StartError("a score of 1001 has already ended the match")
        return None

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """With four players the dealer sits the deal out."""
        return super().active_seats(players, dealer)[:3]

    def caps_by_marriages(self, rules: Rules) -> bool:
        return True

    def hand_cap(self, rules: Rules, hand: int) -> int:
        return BASE_CAP + marriages_in(hand, rules.ace_marriage)

    def allowed_bids(self, t: Table, seat: int) -> Sequence[int]:
        low = t.bid + 5 if t.bid else MIN_BID
        return family_bids(low, self.bid_cap(t, t.hands[seat]))

    def bid_refusal(self, t: Table, seat: int, value: int) -> Reason:
        low = t.bid + 5 if t.bid else MIN_BID
        return family_bid_refusal(value, low, self.bid_cap(t, t.hands[seat]))

    def closing_contract(self, t: Table, declarer: int) -> int:
        return t.bid or MIN_BID

    def score(self, t: Table, outcome: Outcome, events: list[Event]) -> None:
        declarer = t.declarer
        assert declarer is not None
        changes = [0] * t.rules.players
        made = outcome is _PLAYED and t.points[declarer] >= t.contract
        if outcome is _THROWN:
            if t.without_bid and not t.contract_named:
                for seat in t.active:
                    if seat != declarer:
                        changes[seat] = THROW_BONUS
            else:
                changes[declarer] = -t.contract
        else:
            changes[declarer] = t.contract if made else -t.contract
            for seat in t.active:
                if seat != declarer:
                    changes[seat] = round_points(t.points[seat], t.rules.rounding)
            if t.dealer not in t.active:
                changes[t.dealer] = _talon_marriage(t.talon)
        t.scores = tuple(map(add, t.scores, changes))
        events.append(
            deal_scored_event(
                declarer, t.contract, made, tuple(t.points), tuple(changes), t.scores
            )
        )
        t.phase = _DEAL_OVER
        if max(t.scores) >= TARGET:
            finish(t, leading_winner(t), events)


def _talon_marriage(talon: int) -> int:
    """What the sitting-out dealer scores: a marriage lying in the talon (§2, fine point 22)."""
    for suit, mask in enumerate(MARRIAGE_MASKS):
        if talon & mask == mask:
            return MARRIAGE_VALUES[suit]
    return 0
