"""The frozen state of a match and of its current deal (rules §5: every card in one place).

States are named tuples: immutable, cheap to copy with ``_replace`` on the hot path of a
deal, and equal when their contents are equal (so a refused action provably changed
nothing). Hands, the talon and sets of seats are bit masks (see ``engine.cards``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from engine.actions import Declaration
from engine.rules import Rules


class Phase(StrEnum):
    DEAL_OVER = "deal-over"
    BIDDING = "bidding"
    GIVING = "giving"
    CONTRACT = "contract"
    PLAY = "play"
    MATCH_OVER = "match-over"


class Outcome(StrEnum):
    """How a deal ended before scoring."""

    PLAYED = "played"
    CONCEDED = "conceded"
    THROWN = "thrown"
    REDEALT = "redealt"


Plays = tuple[tuple[int, int], ...]
"""The cards of a trick in the order played: ``(seat, card)`` pairs."""


class DeclarationMade(NamedTuple):
    seat: int
    kind: Declaration
    suit: int
    value: int


class DealState(NamedTuple):
    dealer: int
    active: tuple[int, ...]
    hands: tuple[int, ...]
    talon: int
    talon_shown: bool
    bids: tuple[tuple[int, int | None], ...]
    """Public bidding history: ``(seat, value)``, ``None`` for a pass."""
    bid: int
    bidder: int | None
    passed: int
    declarer: int | None
    contract: int
    contract_named: bool
    without_bid: bool
    given: tuple[tuple[int, int, int], ...]
    """``(giver, receiver, card)``: known to those two seats only."""
    turn: int | None
    trump: int | None
    trick: Plays
    tricks: tuple[tuple[int, Plays], ...]
    """Completed tricks, public: ``(winner, plays)``."""
    won: tuple[int, ...]
    points: tuple[int, ...]
    declarations: tuple[DeclarationMade, ...]
    trilyazh: tuple[int, int, int] | None
    """``(seat, suit, stage)``: stage 1, 2, 3 while the J, Q, K trick is due or on the table."""
    outcome: Outcome | None


class MatchState(NamedTuple):
    rules: Rules
    phase: Phase
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    perch: int | None
    """The seat on the barrel (Тысяча) or on the tumbochka (Тумбочка)."""
    perch_attempts: int
    falls: tuple[int, ...]
    bagels: tuple[int, ...]
    deals: int
    """Deals dealt so far, redeals included (the golden round counts them)."""
    deal: DealState | None
    winner: int | None

    @property
    def turn(self) -> int | None:
        if self.deal is None or self.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            return None
        return self.deal.turn

    @property
    def next_dealer(self) -> int | None:
        """The seat that must deal next, or ``None`` before the first deal (any seat)."""
        if self.deal is None:
            return None
        return (self.deal.dealer + 1) % self.rules.players


_Record = TypeVar("_Record", DealState, MatchState)
_FIELD_INDEX: dict[type, dict[str, int]] = {
    cls: {name: i for i, name in enumerate(cls._fields)} for cls in (DealState, MatchState)
}


def evolve(record: _Record, **changes: Any) -> _Record:
    """``record._replace(**changes)`` at about half the cost, for the hot path of play."""
    values = list(record)
    index = _FIELD_INDEX[type(record)]
    for name, value in changes.items():
        values[index[name]] = value
    return tuple.__new__(type(record), values)
