"""What a seat (or the dealer's shuffle) can do: the actions of the match notation.

Seats count from 0 (``p1`` is seat 0). Every action but ``Deal`` names its seat, so one
verifier per action kind can check that the seat may act.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


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


PLAIN_PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, c) for c in range(36)) for seat in range(4)
)
"""Shared ``Play`` objects without a declaration, by seat and card (actions are immutable,
so legal-move generation hands out these instead of building new ones)."""

SeatAction = Bid | Pass | Give | NameContract | Redeal | Concede | Throw | Play
Action = Deal | SeatAction
