"""The interface every game implements, with the defaults shared by the Тысяча family
(rules §1.1 marriage values, §1.3 bids in fives up to the cap, §1.4 contracts, §1.6
rounding, §1.7 settlement).

The phase machinery (bidding, giving, play: ``engine.bidding``, ``engine.talon``,
``engine.tricks``) is common and reads a mutable ``engine.table.Table``; a ``Variant`` owns
its game's numbers (deck, hand and talon size) and answers where the games differ: which
bids are allowed, whether the talon is shown, what a lead may declare and what a
declaration or a taken trick does, how tricks count, how a deal is scored and a match ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import sub
from typing import TYPE_CHECKING

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
from engine.events import (
    DealScored,
    Event,
    MatchOver,
    RedealGround,
    TrumpChanged,
    deal_scored_event,
)
from engine.rules import Rules
from engine.state import Outcome, Phase

if TYPE_CHECKING:
    from engine.table import Table

MARRIAGE_VALUES = (40, 60, 80, 100)
"""♠ ♣ ♦ ♥ (rules §1.1)."""
ACE_MARRIAGE_VALUE = 200
MAX_BID = 300
BASE_CAP = 120
FOUR_ACES = sum(bit(card(ACE, s)) for s in range(4))
FOUR_NINES = sum(bit(card(NINE, s)) for s in range(4))
MARRIAGE_MASKS = tuple(bit(card(KING, s)) | bit(card(QUEEN, s)) for s in range(4))
_QUEENS = sum(bit(card(QUEEN, s)) for s in range(4))


def submasks(mask: int) -> list[int]:
    """Every subset of the bits of ``mask`` (for the tables built from them)."""
    found = [0]
    for b in cards_of(mask):
        found += [sub | 1 << b for sub in found]
    return found


def married(hand: int) -> int:
    """The queens of ``hand`` whose king it holds too: one bit per marriage, the key of the
    marriage tables (a suit's K is the card after its Q)."""
    return hand & hand >> 1 & _QUEENS


_MARRIED_VALUES = {
    key: sum(v for v, mask in zip(MARRIAGE_VALUES, MARRIAGE_MASKS, strict=True) if key & mask)
    for key in submasks(_QUEENS)
}
"""The marriages' value by ``married(hand)``."""


def marriages_in(hand: int, ace_marriage: bool) -> int:
    """The value of the marriages (and the ace marriage, when on) that ``hand`` holds."""
    total = _MARRIED_VALUES[married(hand)]
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
    top = cap if cap < MAX_BID else MAX_BID  # not ``min``: a builtin's call, every listing
    values = range(low + -low % 5, top + 1, 5)
    if exact is None:
        return values
    above = tuple([v for v in values if v > exact])
    return (exact, *above) if exact >= low else above


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


@cache
def family_contracts(bid: int, step: int, cap: int) -> Sequence[int]:
    """Naming the contract: the bid itself, or a multiple of 5 ≥ bid + step within the cap
    and 300 (fine points 2, 3)."""
    low = bid + step
    return (bid, *range(low + -low % 5, min(cap, MAX_BID) + 1, 5))


def family_contract_refusal(value: int, bid: int, step: int, cap: int) -> Reason:
    if value < bid + step:
        return Reason.CONTRACT_BELOW_BID
    if value > MAX_BID:
        return Reason.CONTRACT_OVER_MAXIMUM
    if value % 5:
        return Reason.CONTRACT_NOT_MULTIPLE
    return Reason.CONTRACT_OVER_CAP


def leading_winner(t: Table, scores: tuple[int, ...] | None = None) -> int:
    """The highest of ``scores`` (the table's by default) wins; ties go to the deal's
    declarer, else clockwise from the dealer (fine point 13)."""
    if scores is None:
        scores = t.scores
    best = max(scores)
    if t.declarer is not None and scores[t.declarer] == best:
        return t.declarer
    players = len(scores)
    for step in range(1, players + 1):
        seat = (t.dealer + step) % players
        if scores[seat] == best:
            return seat
    raise AssertionError("no seat holds the highest score")


def deal_scored(t: Table, made: bool, before: tuple[int, ...]) -> DealScored:
    """The ``DealScored`` event of the deal that moved the scores from ``before``."""
    assert t.declarer is not None
    after = t.scores
    changes = tuple(map(sub, after, before))
    return deal_scored_event(t.declarer, t.contract, made, tuple(t.points), changes, after)


def settlement(scores: tuple[int, ...], winner: int) -> tuple[int, ...]:
    """Each loser pays the winner the difference of their scores (§1.7)."""
    paid = [scores[s] - scores[winner] for s in range(len(scores))]
    paid[winner] = -sum(paid)
    return tuple(paid)


def finish(t: Table, winner: int, events: list[Event]) -> None:
    events.append(MatchOver(winner, t.scores, settlement(t.scores, winner)))
    t.phase = Phase.MATCH_OVER
    t.winner = winner
    # Notation: once the match is over nobody sits on the barrel or the tumbochka.
    t.perch = None
    t.perch_attempts = 0


class Variant:
    """One game's numbers and answers where the games differ; every hook reads the table."""

    deck: int = THOUSAND_DECK
    deck_cards: tuple[int, ...] = tuple(cards_of(THOUSAND_DECK))
    """The deck in its canonical order (suits S C D H, weak to strong): what is shuffled."""
    hand_size: int = 7
    talon_size: int = 3
    opening_bid: int = 0
    """The lowest bid that can open the bidding."""
    card_values: tuple[int, ...] = THOUSAND_POINTS
    """What each card is worth in a trick (rules §1.1: A 11, T 10, K 4, Q 3, J 2, 9 0)."""
    trick_value: int = 0
    """What a trick is worth beyond its cards."""
    declarations: frozenset[Declaration] = frozenset({Declaration.MARRIAGE, Declaration.ACES})
    marriage_needs_trick: bool = False
    can_redeal: bool = False
    can_concede: bool = False
    can_throw: bool = False
    has_bolts: bool = False
    perch_name: str | None = None
    """What the seat a high score sits on is called in the notation (``expect barrel``)."""
    has_after_trick: bool = False
    """Whether ``after_trick`` does anything (play skips the call otherwise)."""

    # --- the match ------------------------------------------------------------------------
    def starting_perch(self, rules: Rules, scores: tuple[int, ...]) -> int | None:
        """The seat on the barrel or tumbochka for starting ``scores`` (``StartError`` for
        scores no match can be in)."""
        return None

    # --- the deal -------------------------------------------------------------------------
    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """The seats that play the deal, clockwise from the seat after the dealer."""
        if 0 <= dealer < players < len(_CLOCKWISE):
            return _CLOCKWISE[players][dealer]
        return tuple((dealer + i) % players for i in range(1, players + 1))

    def open_bidding(self, t: Table) -> None:
        """Bidding starts: who bids first and any forced bid."""
        t.turn = t.active[0]

    # --- bidding --------------------------------------------------------------------------
    def auto_passes(self, t: Table, seat: int) -> bool:
        return False

    def allowed_bids(self, t: Table, seat: int) -> Sequence[int]:
        """Every bid ``seat`` may make now: the one source of truth for bids."""
        raise NotImplementedError

    def bid_refusal(self, t: Table, seat: int, value: int) -> Reason:
        """Why ``value`` (not among ``allowed_bids``) is refused."""
        raise NotImplementedError

    def pass_reason(self, t: Table, seat: int) -> Reason | None:
        return None

    def closing_contract(self, t: Table, declarer: int) -> int:
        """The contract when bidding ends with ``declarer`` holding the last bid."""
        return t.bid

    def talon_shown(self, t: Table) -> bool:
        return True

    # --- contract -------------------------------------------------------------------------
    def bid_cap(self, t: Table, hand: int) -> int:
        """The highest bid or contract ``hand`` allows (computed once per hand and deal)."""
        cap = t.caps.get(hand)
        if cap is None:
            cap = t.caps[hand] = self.hand_cap(t.rules, hand)
        return cap

    def hand_cap(self, rules: Rules, hand: int) -> int:
        return MAX_BID

    def bid_proves(self, rules: Rules, value: int) -> int:
        """The marriages (their value) a bid of ``value`` shows its bidder holds: the bid
        cap (§1.3, §2) allows bids over 120 only with them."""
        if not self.caps_by_marriages(rules) or value <= BASE_CAP or value % 5:
            return 0
        return value - BASE_CAP

    def caps_by_marriages(self, rules: Rules) -> bool:
        return False

    def contract_step(self, rules: Rules) -> int:
        return 5

    def allowed_contracts(self, t: Table) -> Sequence[int]:
        """The bid itself, or a multiple of 5 ≥ bid + step within the cap (Тысяча family)."""
        assert t.declarer is not None
        return self.contracts_over(t.rules, t.bid, self.bid_cap(t, t.hands[t.declarer]))

    def contracts_over(self, rules: Rules, bid: int, cap: int) -> Sequence[int]:
        """The contracts a declarer whose hand allows ``cap`` may name over ``bid``."""
        return family_contracts(bid, self.contract_step(rules), cap)

    def contract_refusal(self, t: Table, value: int) -> Reason:
        assert t.declarer is not None
        cap = self.bid_cap(t, t.hands[t.declarer])
        return family_contract_refusal(value, t.bid, self.contract_step(t.rules), cap)

    def redeal_ground(self, hand: int) -> RedealGround | None:
        return None

    # --- play -----------------------------------------------------------------------------
    def declarable(self, t: Table, seat: int) -> Leads:
        """The leads ``seat`` may make with a declaration: ``(card, kind)`` pairs (the
        marriages by suit, each led by Q or K, then the ace marriage by any ace)."""
        if self.marriage_needs_trick and not t.won[seat]:
            return ()
        hand = t.hands[seat]
        key = married(hand)
        if t.rules.ace_marriage and hand & FOUR_ACES == FOUR_ACES:
            key |= FOUR_ACES
        return _FAMILY_LEADS[key]

    def declaration_refusal(self, t: Table, seat: int, c: int, kind: Declaration) -> Reason:
        """Why leading ``c`` with ``kind`` (not among ``declarable``) is refused."""
        if kind not in self.declarations:
            return Reason.NOT_IN_THIS_GAME
        hand = t.hands[seat]
        if kind is Declaration.ACES:
            if not t.rules.ace_marriage:
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

    def makes_trump(self, kind: Declaration) -> bool:
        """Whether declaring ``kind`` makes its suit trump (the marriage, §1.5)."""
        return kind is Declaration.MARRIAGE

    def declaration_cards(self, kind: Declaration, suit: int) -> int:
        """The cards a declaration of ``kind`` in ``suit`` shows its declarer held."""
        return FOUR_ACES if kind is Declaration.ACES else MARRIAGE_MASKS[suit]

    def declaration_leads(self, kind: Declaration, suit: int) -> int:
        """The cards that may lead a declaration of ``kind`` in ``suit``."""
        return self.declaration_cards(kind, suit)

    def declared(self, t: Table, seat: int, suit: int, kind: Declaration, events: Events) -> None:
        """What a declaration does beyond its value: a marriage makes its suit trump."""
        if self.makes_trump(kind):
            t.trump = suit
            if events is not None:
                events.append(TrumpChanged(suit))

    def forced_lead(self, t: Table) -> tuple[int, int] | None:
        """``(seat, mask)``: a seat whose next lead must be one of ``mask`` (the trilyazh)."""
        return None

    def after_trick(self, t: Table, winner: int, events: Events) -> None:
        """What a taken trick does beyond its points (the trilyazh's stages)."""

    # --- scoring --------------------------------------------------------------------------
    def score(self, t: Table, outcome: Outcome, events: list[Event]) -> None:
        """Score the finished deal and settle the match (phase ``deal-over`` or over)."""
        raise NotImplementedError


_CLOCKWISE = tuple(
    tuple(tuple((dealer + i) % players for i in range(1, players + 1)) for dealer in range(players))
    for players in range(5)
)
"""Every seat clockwise from the one after ``dealer``, by ``[players][dealer]``."""

Events = list[Event] | None
"""Where play records what happened; ``None`` in the computer players' playouts."""

Leads = tuple[tuple[int, Declaration], ...]
"""Leads with a declaration: ``(card, kind)`` pairs, in the variant's order."""

_FAMILY_LEADS: dict[int, Leads] = {
    key | aces: tuple(
        [
            (c, Declaration.MARRIAGE)
            for suit, mask in enumerate(MARRIAGE_MASKS)
            if key >> card(QUEEN, suit) & 1
            for c in cards_of(mask)
        ]
        + [(c, Declaration.ACES) for c in cards_of(aces)]
    )
    for key in submasks(_QUEENS)
    for aces in (0, FOUR_ACES)
}
"""The Тысяча family's declarable leads by ``married(hand)``, with ``FOUR_ACES`` added when
the ace marriage may be declared."""


def holds_four_nines(hand: int) -> bool:
    return hand & FOUR_NINES == FOUR_NINES

