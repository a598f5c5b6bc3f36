"""What a seat (or the dealer's shuffle) can do: the actions of the match notation.

Seats count from 0 (``p1`` is seat 0). Every action but ``Deal`` names its seat, so one
verifier per action kind can check that the seat may act.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from engine.drafts import draft_class


class Declaration(StrEnum):
    """What a lead may declare (rules §1.5, §2, §3.2)."""

    NONE = ""
    MARRIAGE = "marriage"
    ACES = "aces"
    TROYAN = "troyan"
    TRILYAZH = "trilyazh"


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of a new deal: a hand mask per seat (0 for a sitting-out dealer)."""

    dealer: int
    hands: tuple[int, ...]
    talon: int


_DealDraft = draft_class(Deal)


def new_deal(dealer: int, hands: tuple[int, ...], talon: int) -> Deal:
    """``Deal(dealer, hands, talon)``, made from a draft (``engine.drafts``), once per deal."""
    deal = _DealDraft()
    deal.dealer = dealer
    deal.hands = hands
    deal.talon = talon
    deal.__class__ = Deal
    return cast(Deal, deal)


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int


@dataclass(frozen=True, slots=True)
class Give:
    seat: int
    card: int
    to: int


@dataclass(frozen=True, slots=True)
class NameContract:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Redeal:
    seat: int


@dataclass(frozen=True, slots=True)
class Concede:
    seat: int


@dataclass(frozen=True, slots=True)
class Throw:
    seat: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: int
    declaration: Declaration = Declaration.NONE


# Actions are immutable, so legal-move generation hands out shared objects instead of
# building new ones: by seat, then by card or value.
PLAIN_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, c) for c in range(36)) for seat in range(4)
)
DECLARED_PLAYS: dict[tuple[int, int, Declaration], Play] = {
    (seat, c, kind): Play(seat, c, kind)
    for seat in range(4)
    for c in range(36)
    for kind in Declaration
    if kind
}
BIDS: tuple[tuple[Bid, ...], ...] = tuple(
    tuple(Bid(seat, v) for v in range(301)) for seat in range(4)
)
CONTRACTS: tuple[tuple[NameContract, ...], ...] = tuple(
    tuple(NameContract(seat, v) for v in range(301)) for seat in range(4)
)
PASSES = tuple(Pass(seat) for seat in range(4))
EARLY_ENDS = tuple((Concede(seat), Throw(seat), Redeal(seat)) for seat in range(4))
GIVES: tuple[tuple[tuple[Give, ...], ...], ...] = tuple(
    tuple(tuple(Give(seat, c, to) for c in range(36)) for to in range(4)) for seat in range(4)
)

SeatAction = Bid | Pass | Give | NameContract | Redeal | Concede | Throw | Play
Action = Deal | SeatAction
