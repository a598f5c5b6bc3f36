"""«Тумбочка» (rules §3 and fine points 23–30): the 6–K deck, the forced opening 4, tricks
as points, troyan and trilyazh, and the tumbochka with its falls and golden bagels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Declaration
from engine.cards import (
    CARD_COUNT,
    EIGHT,
    JACK,
    KING,
    QUEEN,
    SEVEN,
    SIX,
    TUMBOCHKA_DECK,
    bit,
    card,
    cards_of,
)
from engine.cards import suit_of as _suit_of
from engine.errors import Reason, StartError
from engine.events import (
    Event,
    FallCause,
    Fell,
    GoldenBagel,
    Mounted,
    TrilyazhBroken,
    TrilyazhCompleted,
)
from engine.games.base import Events, Leads, Variant, deal_scored, finish, submasks
from engine.rules import Rules
from engine.state import Outcome, Phase

if TYPE_CHECKING:
    from engine.table import Table

# Enum members as module constants: looking one up on its class costs ten globals.
_MUST_OPEN = Reason.MUST_OPEN
_DEAL_OVER = Phase.DEAL_OVER

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
TRILYAZH_RANKS = (JACK, QUEEN, KING)
"""The trilyazh's cards in the order its declarer must lead them (stages 1, 2, 3)."""


_SIXES = sum(bit(card(SIX, s)) for s in range(4))
_JACKS = sum(bit(card(JACK, s)) for s in range(4))


def _runs(hand: int) -> int:
    """The 6s and Js of ``hand`` that start three cards in a row it holds (6 7 8, J Q K):
    one bit per troyan and trilyazh, the key of ``_LEADS``."""
    return hand & hand >> 1 & hand >> 2 & (_SIXES | _JACKS)


_LEADS: dict[int, Leads] = {
    key: tuple(
        [(card(SIX, suit), Declaration.TROYAN) for suit in range(4) if key >> card(SIX, suit) & 1]
        + [
            (card(JACK, suit), Declaration.TRILYAZH)
            for suit in range(4)
            if key >> card(JACK, suit) & 1
        ]
    )
    for key in submasks(_SIXES | _JACKS)
}
"""The declarable leads by ``_runs(hand)``: troyans (led with the 6), then trilyazhes (led
with the J), by suit."""


class Tumbochka(Variant):
    deck = TUMBOCHKA_DECK
    deck_cards = tuple(cards_of(TUMBOCHKA_DECK))
    opening_bid = OPENING_BID
    card_values = (0,) * CARD_COUNT
    trick_value = 1
    """Tricks are the points (§3.3)."""
    declarations = frozenset({Declaration.TROYAN, Declaration.TRILYAZH})
    has_after_trick = True
    perch_name = "tumbochka"

    def starting_perch(self, rules: Rules, scores: tuple[int, ...]) -> int | None:
        """A score of exactly 20 seats that player on the tumbochka with no attempt used."""
        if any(s > TUMBOCHKA for s in scores):
            raise StartError("nobody can be above the tumbochka")
        seated = [i for i, s in enumerate(scores) if s == TUMBOCHKA]
        if len(seated) > 1:
            raise StartError("two players cannot be seated at once")
        return seated[0] if seated else None

    def allowed_bids(self, t: Table, seat: int) -> Sequence[int]:
        sitter = t.perch
        if not t.bid and seat != sitter:
            return (OPENING_BID,)
        low = t.bid + 1
        floor = SITTER_MIN_BID if seat == sitter else OPENING_BID
        if low < floor:  # not ``max``: a builtin's call, every listing
            low = floor
        high = MAX_BID
        if sitter is not None and seat != sitter and t.scores[seat] < 1:
            high = SITTER_MIN_BID - 1
        return range(low, high + 1)

    def bid_refusal(self, t: Table, seat: int, value: int) -> Reason:
        sitter = t.perch
        if value > MAX_BID:
            return Reason.BID_OVER_MAXIMUM
        if not t.bid and seat != sitter:
            return Reason.OPENING_BID_EXACT
        if seat == sitter and value < SITTER_MIN_BID:
            return Reason.BELOW_TUMBOCHKA_MINIMUM
        if value <= t.bid:
            return Reason.BID_TOO_LOW
        return Reason.SCORE_TOO_LOW_TO_BID

    def pass_reason(self, t: Table, seat: int) -> Reason | None:
        if not t.bid and seat != t.perch:
            return _MUST_OPEN
        return None

    def talon_shown(self, t: Table) -> bool:
        return False

    def allowed_contracts(self, t: Table) -> Sequence[int]:
        return range(t.bid, MAX_BID + 1)

    def contracts_over(self, rules: Rules, bid: int, cap: int) -> Sequence[int]:
        return range(bid, MAX_BID + 1)

    def contract_refusal(self, t: Table, value: int) -> Reason:
        if value < t.bid:
            return Reason.CONTRACT_BELOW_BID
        return Reason.CONTRACT_OVER_MAXIMUM

    def declarable(self, t: Table, seat: int) -> Leads:
        """Troyans (led with the 6), then trilyazhes (led with the J), by suit."""
        return _LEADS[_runs(t.hands[seat])]

    def declaration_refusal(self, t: Table, seat: int, c: int, kind: Declaration) -> Reason:
        hand = t.hands[seat]
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

    def makes_trump(self, kind: Declaration) -> bool:
        return kind is Declaration.TROYAN

    def declaration_cards(self, kind: Declaration, suit: int) -> int:
        return TROYAN_MASKS[suit] if kind is Declaration.TROYAN else TRILYAZH_MASKS[suit]

    def declaration_leads(self, kind: Declaration, suit: int) -> int:
        """A troyan is led with its 6, a trilyazh with its J."""
        return bit(card(SIX if kind is Declaration.TROYAN else JACK, suit))

    def declared(self, t: Table, seat: int, suit: int, kind: Declaration, events: Events) -> None:
        """A troyan makes its suit trump; a trilyazh binds its declarer's next leads."""
        super().declared(t, seat, suit, kind, events)
        if kind is Declaration.TRILYAZH:
            t.trilyazh = (seat, suit, 1)
            t.forced = self.forced_lead(t)

    def forced_lead(self, t: Table) -> tuple[int, int] | None:
        """While its declarer keeps the lead, the trilyazh's Q and then K must be led."""
        tri = t.trilyazh
        if tri is None:
            return None
        seat, suit, stage = tri
        return seat, bit(card(TRILYAZH_RANKS[stage - 1], suit))

    def after_trick(self, t: Table, winner: int, events: Events) -> None:
        """The trilyazh's stage machine: broken when its declarer loses a trick, worth
        ``TRILYAZH_BONUS`` when the K trick is taken too (§3.2)."""
        tri = t.trilyazh
        if tri is None:
            return
        holder, suit, stage = tri
        if winner != holder:
            if events is not None:
                events.append(TrilyazhBroken(holder, suit))
            t.trilyazh = None
        elif stage == len(TRILYAZH_RANKS):
            t.points[holder] += TRILYAZH_BONUS
            if events is not None:
                events.append(TrilyazhCompleted(holder, suit))
            t.trilyazh = None
        else:
            t.trilyazh = (holder, suit, stage + 1)
        t.forced = self.forced_lead(t)

    def score(self, t: Table, outcome: Outcome, events: list[Event]) -> None:
        _TumbochkaScoring(t, events).run()


class _TumbochkaScoring:
    """§3.3–3.4: contract and tricks, then the sitter's win or attempt, then climbers."""

    def __init__(self, t: Table, events: list[Event]) -> None:
        self.table = t
        self.scores = list(t.scores)
        self.falls = list(t.falls)
        self.bagels = list(t.bagels)
        self.sitter = t.perch
        self.attempts = t.perch_attempts
        self.fallen: set[int] = set()
        self.events = events
        self.start = len(events)
        self.winner: int | None = None

    def run(self) -> None:
        t = self.table
        declarer = t.declarer
        assert declarer is not None
        made = t.points[declarer] >= t.contract
        before = t.scores
        changes = [0] * len(self.scores)
        changes[declarer] = t.contract if made else -t.contract
        for seat in t.active:
            if seat != declarer:
                changes[seat] = t.points[seat]
        sitter = self.sitter
        for seat, change in enumerate(changes):
            if seat != sitter:
                self.scores[seat] += change
        if sitter is not None:
            self.attempts += 1
            if declarer == sitter and made:
                self.winner = sitter
        self._settle()
        t.scores = tuple(self.scores)
        self.events.insert(self.start, deal_scored(t, made, before))
        t.phase = _DEAL_OVER
        t.perch = self.sitter
        t.perch_attempts = self.attempts if self.sitter is not None else 0
        t.falls = tuple(self.falls)
        t.bagels = tuple(self.bagels)
        if self.winner is not None:
            finish(t, self.winner, self.events)

    def _settle(self) -> None:
        earlier = self.table.perch
        climbers: list[int] = []
        # A loop, not a comprehension (a frame), once per deal.
        for s in self.table.active:
            if s != earlier and self.scores[s] >= TUMBOCHKA:
                climbers.append(s)
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
