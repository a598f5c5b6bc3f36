"""The frozen state of a match and of its current deal (rules §5: every card in one place).

States are named tuples: immutable, and equal when their contents are equal (so a refused
action provably changed nothing); the engine computes on a mutable ``engine.table.Table``
and freezes it into these. Hands, the talon and sets of seats are bit masks (see ``engine.cards``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

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


class _MatchRecord(NamedTuple):
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


class MatchState(_MatchRecord):
    """The match: a frozen record. Its ``__dict__`` holds only the engine's cache of the
    mutable table it was frozen from (``engine.table``): not part of the value, not compared,
    not pickled."""

    def __reduce__(self) -> tuple[type[MatchState], tuple[Any, ...]]:
        return MatchState, tuple(self)

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
