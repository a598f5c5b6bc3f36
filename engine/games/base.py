"""The interface every game implements, with the defaults shared by the Тысяча family.

The phase machinery (bidding, giving, play) is common; a ``Variant`` answers the questions
where the games differ: which bids are allowed, whether the talon is shown, what a lead may
declare, how tricks count, and how a deal is scored and a match ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Declaration
from engine.cards import (
    ACE,
    KING,
    NINE,
    QUEEN,
    THOUSAND_DECK,
    THOUSAND_POINTS,
    bit,
    card,
    cards_of,
    rank_of,
    suit_of,
)
from engine.errors import Reason
from engine.events import DealScored, Event, MatchOver
from engine.state import DealState, MatchState, Outcome, Phase

MARRIAGE_VALUES = (40, 60, 80, 100)
"""♠ ♣ ♦ ♥ (rules §1.1)."""
ACE_MARRIAGE_VALUE = 200
MAX_BID = 300
BASE_CAP = 120
FOUR_ACES = sum(bit(card(ACE, s)) for s in range(4))
FOUR_NINES = sum(bit(card(NINE, s)) for s in range(4))
MARRIAGE_MASKS = tuple(bit(card(KING, s)) | bit(card(QUEEN, s)) for s in range(4))


def marriages_in(hand: int, ace_marriage: bool) -> int:
    """The value of the marriages (and the ace marriage, when on) that ``hand`` holds."""
    total = 0
    for mask, value in zip(MARRIAGE_MASKS, MARRIAGE_VALUES, strict=True):
        if hand & mask == mask:
            total += value
    if ace_marriage and hand & FOUR_ACES == FOUR_ACES:
        total += ACE_MARRIAGE_VALUE
    return total


def round_points(points: int, rounding: int | None) -> int:
    """A defender's points rounded as §1.6 and fine point 12 say (halves round up)."""
    if rounding is None:
        return points
    return (points + rounding // 2) // rounding * rounding


def half_contract(contract: int) -> int:
    """Half the contract rounded up to a multiple of 5 (the concession, §1.4)."""
    return -(-contract // 10) * 5


def family_bids(low: int, cap: int, exact: int | None = None) -> Sequence[int]:
    """Тысяча-family bids: multiples of 5 from ``low`` up to the cap and 300; ``exact`` (the
    barrel contract) is allowed too when it is at least ``low``, and the cap never forbids it.
    """
    top = min(cap, MAX_BID)
    values = range(low + -low % 5, top + 1, 5)
    if exact is None:
        return values
    above = [v for v in values if v > exact]
    return [exact, *above] if exact >= low else above


def family_bid_refusal(value: int, low: int, cap: int, exact: int | None = None) -> Reason:
    if value > MAX_BID:
        return Reason.BID_OVER_MAXIMUM
    if exact is not None and value < exact:
        return Reason.BELOW_BARREL
    if value % 5 and value != exact:
        return Reason.BID_NOT_MULTIPLE
    if value < low:
        return Reason.BID_TOO_LOW
    return Reason.BID_OVER_CAP


def family_contracts(bid: int, step: int, cap: int) -> Sequence[int]:
    """Naming the contract: the bid itself, or a multiple of 5 ≥ bid + step within the cap
    and 300 (fine points 2, 3)."""
    low = bid + step
    return [bid, *range(low + -low % 5, min(cap, MAX_BID) + 1, 5)]


def family_contract_refusal(value: int, bid: int, step: int, cap: int) -> Reason:
    if value < bid + step:
        return Reason.CONTRACT_BELOW_BID
    if value > MAX_BID:
        return Reason.CONTRACT_OVER_MAXIMUM
    if value % 5:
        return Reason.CONTRACT_NOT_MULTIPLE
    return Reason.CONTRACT_OVER_CAP


def leading_winner(state: MatchState, deal: DealState) -> int:
    """The highest score wins; ties go to the deal's declarer, else clockwise (fine point 13)."""
    scores = state.scores
    best = max(scores[s] for s in range(len(scores)))
    if deal.declarer is not None and scores[deal.declarer] == best:
        return deal.declarer
    players = len(scores)
    for step in range(1, players + 1):
        seat = (deal.dealer + step) % players
        if scores[seat] == best:
            return seat
    raise AssertionError("no seat holds the highest score")


def deal_scored(
    deal: DealState, made: bool, before: tuple[int, ...], after: tuple[int, ...]
) -> DealScored:
    """The ``DealScored`` event of a deal that moved the scores from ``before`` to ``after``."""
    assert deal.declarer is not None
    changes = tuple(a - b for a, b in zip(after, before, strict=True))
    return DealScored(deal.declarer, deal.contract, made, deal.points, changes, after)


def settlement(scores: tuple[int, ...], winner: int) -> tuple[int, ...]:
    """Each loser pays the winner the difference of their scores (§1.7)."""
    paid = [scores[s] - scores[winner] for s in range(len(scores))]
    paid[winner] = -sum(paid)
    return tuple(paid)


def finish(state: MatchState, winner: int, events: list[Event]) -> MatchState:
    events.append(MatchOver(winner, state.scores, settlement(state.scores, winner)))
    # Notation: once the match is over nobody sits on the barrel or the tumbochka.
    return state._replace(phase=Phase.MATCH_OVER, winner=winner, perch=None, perch_attempts=0)


class Variant:
    """One game's answers to the questions where the games differ."""

    deck: int = THOUSAND_DECK
    max_bid: int = MAX_BID
    declarations: frozenset[Declaration] = frozenset({Declaration.MARRIAGE, Declaration.ACES})
    marriage_needs_trick: bool = False
    can_redeal: bool = False
    can_concede: bool = False
    can_throw: bool = False

    # --- the deal -------------------------------------------------------------------------
    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """The seats that play the deal, clockwise from the seat after the dealer."""
        return tuple((dealer + i) % players for i in range(1, players + 1))

    def open_bidding(self, state: MatchState, deal: DealState) -> DealState:
        """The deal as bidding starts: who bids first and any forced bid."""
        return deal._replace(turn=deal.active[0])

    # --- bidding --------------------------------------------------------------------------
    def auto_passes(self, state: MatchState, seat: int) -> bool:
        return False

    def allowed_bids(self, state: MatchState, deal: DealState, seat: int) -> Sequence[int]:
        """Every bid ``seat`` may make now: the one source of truth for bids."""
        raise NotImplementedError

    def bid_refusal(self, state: MatchState, deal: DealState, seat: int, value: int) -> Reason:
        """Why ``value`` (not among ``allowed_bids``) is refused."""
        raise NotImplementedError

    def pass_reason(self, state: MatchState, deal: DealState, seat: int) -> Reason | None:
        return None

    def closing_contract(self, state: MatchState, deal: DealState, declarer: int) -> int:
        """The contract when bidding ends with ``declarer`` holding the last bid."""
        return deal.bid

    def talon_shown(self, state: MatchState, deal: DealState) -> bool:
        return True

    # --- contract -------------------------------------------------------------------------
    def bid_cap(self, state: MatchState, hand: int) -> int:
        return MAX_BID

    def allowed_contracts(self, state: MatchState, deal: DealState) -> Sequence[int]:
        """The bid itself, or a multiple of 5 ≥ bid + 5 within the cap (Тысяча family)."""
        assert deal.declarer is not None
        cap = self.bid_cap(state, deal.hands[deal.declarer])
        return family_contracts(deal.bid, 5, cap)

    def contract_refusal(self, state: MatchState, deal: DealState, value: int) -> Reason:
        assert deal.declarer is not None
        cap = self.bid_cap(state, deal.hands[deal.declarer])
        return family_contract_refusal(value, deal.bid, 5, cap)

    def redeal_ground(self, state: MatchState, hand: int) -> bool:
        return False

    # --- play -----------------------------------------------------------------------------
    def trick_points(self, plays_mask: int) -> int:
        return sum(THOUSAND_POINTS[c] for c in cards_of(plays_mask))

    def declarable(
        self, state: MatchState, deal: DealState, seat: int
    ) -> tuple[tuple[int, Declaration], ...]:
        """The leads ``seat`` may make with a declaration: ``(card, kind)`` pairs."""
        if self.marriage_needs_trick and not deal.won[seat]:
            return ()
        hand = deal.hands[seat]
        found = [
            (c, Declaration.MARRIAGE)
            for mask in MARRIAGE_MASKS
            if hand & mask == mask
            for c in cards_of(mask)
        ]
        if state.rules.ace_marriage and hand & FOUR_ACES == FOUR_ACES:
            found += [(c, Declaration.ACES) for c in cards_of(FOUR_ACES)]
        return tuple(found)

    def declaration_refusal(
        self, state: MatchState, deal: DealState, seat: int, c: int, kind: Declaration
    ) -> Reason:
        """Why leading ``c`` with ``kind`` (not among ``declarable``) is refused."""
        if kind not in self.declarations:
            return Reason.NOT_IN_THIS_GAME
        hand = deal.hands[seat]
        if kind is Declaration.ACES:
            if not state.rules.ace_marriage:
                return Reason.OPTION_OFF
            if rank_of(c) != ACE or hand & FOUR_ACES != FOUR_ACES:
                return Reason.NO_FOUR_ACES
        else:
            mask = MARRIAGE_MASKS[suit_of(c)]
            if rank_of(c) not in (KING, QUEEN) or hand & mask != mask:
                return Reason.NO_MARRIAGE
        return Reason.MARRIAGE_NEEDS_TRICK

    def declaration_value(self, kind: Declaration, suit: int) -> int:
        if kind is Declaration.MARRIAGE:
            return MARRIAGE_VALUES[suit]
        if kind is Declaration.ACES:
            return ACE_MARRIAGE_VALUE
        return 0

    # --- scoring --------------------------------------------------------------------------
    def score(
        self, state: MatchState, deal: DealState, outcome: Outcome
    ) -> tuple[MatchState, list[Event]]:
        """Score the finished deal and settle the match (phase ``deal-over`` or over)."""
        raise NotImplementedError


def hand_points(hand: int) -> int:
    return sum(THOUSAND_POINTS[c] for c in cards_of(hand))


def holds_four_nines(hand: int) -> bool:
    return hand & FOUR_NINES == FOUR_NINES

