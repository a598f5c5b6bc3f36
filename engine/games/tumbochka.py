"""«Тумбочка» (rules §3 and fine points 23–30): the 6–K deck, the forced opening 4, tricks
as points, troyan and trilyazh, and the tumbochka with its falls and golden bagels.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Declaration
from engine.cards import EIGHT, JACK, KING, QUEEN, SEVEN, SIX, TUMBOCHKA_DECK, bit, card
from engine.cards import suit_of as _suit_of
from engine.errors import Reason
from engine.events import Event, FallCause, Fell, GoldenBagel, Mounted
from engine.games.base import Variant, deal_scored, finish
from engine.state import DealState, MatchState, Outcome, Phase

OPENING_BID = 4
MAX_BID = 14
SITTER_MIN_BID = 7
TUMBOCHKA = 20
ATTEMPTS = 3
FIRST_FALL_SCORE = 10
TRILYAZH_BONUS = 3
TROYAN_MASKS = tuple(
    bit(card(SIX, s)) | bit(card(SEVEN, s)) | bit(card(EIGHT, s)) for s in range(4)
)
TRILYAZH_MASKS = tuple(
    bit(card(JACK, s)) | bit(card(QUEEN, s)) | bit(card(KING, s)) for s in range(4)
)


class Tumbochka(Variant):
    deck = TUMBOCHKA_DECK
    max_bid = MAX_BID
    declarations = frozenset({Declaration.TROYAN, Declaration.TRILYAZH})

    def allowed_bids(self, state: MatchState, deal: DealState, seat: int) -> Sequence[int]:
        sitter = state.perch
        if not deal.bid and seat != sitter:
            return (OPENING_BID,)
        low = max(deal.bid + 1, SITTER_MIN_BID if seat == sitter else OPENING_BID)
        high = MAX_BID
        if sitter is not None and seat != sitter and state.scores[seat] < 1:
            high = SITTER_MIN_BID - 1
        return range(low, high + 1)

    def bid_refusal(self, state: MatchState, deal: DealState, seat: int, value: int) -> Reason:
        sitter = state.perch
        if value > MAX_BID:
            return Reason.BID_OVER_MAXIMUM
        if not deal.bid and seat != sitter:
            return Reason.OPENING_BID_EXACT
        if seat == sitter and value < SITTER_MIN_BID:
            return Reason.BELOW_TUMBOCHKA_MINIMUM
        if value <= deal.bid:
            return Reason.BID_TOO_LOW
        return Reason.SCORE_TOO_LOW_TO_BID

    def pass_reason(self, state: MatchState, deal: DealState, seat: int) -> Reason | None:
        if not deal.bid and seat != state.perch:
            return Reason.MUST_OPEN
        return None

    def talon_shown(self, state: MatchState, deal: DealState) -> bool:
        return False

    def allowed_contracts(self, state: MatchState, deal: DealState) -> Sequence[int]:
        return range(deal.bid, MAX_BID + 1)

    def contract_refusal(self, state: MatchState, deal: DealState, value: int) -> Reason:
        if value < deal.bid:
            return Reason.CONTRACT_BELOW_BID
        return Reason.CONTRACT_OVER_MAXIMUM

    def trick_points(self, plays_mask: int) -> int:
        return 1

    def declarable(
        self, state: MatchState, deal: DealState, seat: int
    ) -> tuple[tuple[int, Declaration], ...]:
        hand = deal.hands[seat]
        found = [
            (card(SIX, suit), Declaration.TROYAN)
            for suit, mask in enumerate(TROYAN_MASKS)
            if hand & mask == mask
        ]
        found += [
            (card(JACK, suit), Declaration.TRILYAZH)
            for suit, mask in enumerate(TRILYAZH_MASKS)
            if hand & mask == mask
        ]
        return tuple(found)

    def declaration_refusal(
        self, state: MatchState, deal: DealState, seat: int, c: int, kind: Declaration
    ) -> Reason:
        hand = deal.hands[seat]
        suit = _suit_of(c)
        if kind is Declaration.TROYAN:
            if hand & TROYAN_MASKS[suit] != TROYAN_MASKS[suit]:
                return Reason.NO_TROYAN
            return Reason.TROYAN_LEADS_SIX
        if kind is Declaration.TRILYAZH:
            if hand & TRILYAZH_MASKS[suit] != TRILYAZH_MASKS[suit]:
                return Reason.NO_TRILYAZH
            return Reason.TRILYAZH_LEADS_JACK
        return Reason.NOT_IN_THIS_GAME

    def score(
        self, state: MatchState, deal: DealState, outcome: Outcome
    ) -> tuple[MatchState, list[Event]]:
        return _TumbochkaScoring(state, deal).run()


class _TumbochkaScoring:
    """§3.3–3.4: contract and tricks, then the sitter's win or attempt, then climbers."""

    def __init__(self, state: MatchState, deal: DealState) -> None:
        self.state = state
        self.deal = deal
        self.scores = list(state.scores)
        self.falls = list(state.falls)
        self.bagels = list(state.bagels)
        self.sitter = state.perch
        self.attempts = state.perch_attempts
        self.fallen: set[int] = set()
        self.events: list[Event] = []
        self.winner: int | None = None

    def run(self) -> tuple[MatchState, list[Event]]:
        deal = self.deal
        declarer = deal.declarer
        assert declarer is not None
        made = deal.points[declarer] >= deal.contract
        before = tuple(self.scores)
        changes = [0] * len(self.scores)
        changes[declarer] = deal.contract if made else -deal.contract
        for seat in deal.active:
            if seat != declarer:
                changes[seat] = deal.points[seat]
        sitter = self.sitter
        for seat, change in enumerate(changes):
            if seat != sitter:
                self.scores[seat] += change
        if sitter is not None:
            self.attempts += 1
            if declarer == sitter and made:
                self.winner = sitter
        self._settle()
        scores = tuple(self.scores)
        self.events.insert(0, deal_scored(deal, made, before, scores))
        state = self.state._replace(
            phase=Phase.DEAL_OVER,
            scores=scores,
            perch=self.sitter,
            perch_attempts=self.attempts if self.sitter is not None else 0,
            falls=tuple(self.falls),
            bagels=tuple(self.bagels),
        )
        if self.winner is not None:
            state = finish(state, self.winner, self.events)
        return state, self.events

    def _settle(self) -> None:
        earlier = self.state.perch
        climbers = [
            s for s in self.deal.active if s != earlier and self.scores[s] >= TUMBOCHKA
        ]
        if self.winner is not None:
            for seat in climbers:
                self.scores[seat] = TUMBOCHKA
            return
        if len(climbers) == 1:
            (climber,) = climbers
            self.scores[climber] = TUMBOCHKA
            self.events.append(Mounted(climber))
            if earlier is not None:
                self._fall(earlier, FallCause.KNOCKED_OFF)
            self.sitter = climber
            self.attempts = 0
            if self.bagels[climber]:
                self.winner = climber
        elif climbers:
            for seat in climbers:
                self.scores[seat] = TUMBOCHKA
                self.events.append(Mounted(seat))
                self._fall(seat, FallCause.CLIMBED_TOGETHER)
            if earlier is not None:
                self._fall(earlier, FallCause.KNOCKED_OFF)
            self.sitter = None
        elif earlier is not None and self.attempts >= ATTEMPTS:
            self._fall(earlier, FallCause.ATTEMPTS)
            self.sitter = None

    def _fall(self, seat: int, cause: FallCause) -> None:
        if seat in self.fallen:
            return
        self.fallen.add(seat)
        self.falls[seat] += 1
        if self.falls[seat] == 1:
            self.scores[seat] = FIRST_FALL_SCORE
        else:
            self.scores[seat] = 0
            if not self.bagels[seat]:
                self.bagels[seat] = 1
                self.events.append(GoldenBagel(seat))
        self.events.append(Fell(seat, cause, self.scores[seat]))
