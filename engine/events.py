"""What happened: the events ``apply`` returns, as codes and numbers for the bot and stats.

Events carry only what every seat may know: a given card is not in ``CardGiven``; a talon
that is not shown is not in ``TalonTaken``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from engine.actions import Declaration
from engine.drafts import draft_class


class FallCause(StrEnum):
    """Why a player left the barrel or the tumbochka."""

    ATTEMPTS = "attempts"
    RAISED_AND_FAILED = "raised-and-failed"
    KNOCKED_OFF = "knocked-off"
    CLIMBED_TOGETHER = "climbed-together"


class RedealGround(StrEnum):
    FOUR_NINES = "four-nines"
    UNDER_14_POINTS = "under-14-points"


@dataclass(frozen=True, slots=True)
class DealStarted:
    number: int
    dealer: int
    active: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    value: int
    forced: bool = False


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    automatic: bool = False


@dataclass(frozen=True, slots=True)
class DeclarerChosen:
    seat: int
    bid: int
    without_bid: bool


@dataclass(frozen=True, slots=True)
class TalonShown:
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TalonTaken:
    seat: int


@dataclass(frozen=True, slots=True)
class CardGiven:
    seat: int
    to: int


@dataclass(frozen=True, slots=True)
class ContractNamed:
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class RedealAsked:
    seat: int
    ground: RedealGround


@dataclass(frozen=True, slots=True)
class Conceded:
    seat: int
    contract: int


@dataclass(frozen=True, slots=True)
class Thrown:
    seat: int
    contract: int
    without_contract: bool


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Declared:
    seat: int
    kind: Declaration
    suit: int
    value: int


@dataclass(frozen=True, slots=True)
class TrumpChanged:
    suit: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    cards: tuple[int, ...]
    points: int


@dataclass(frozen=True, slots=True)
class TrilyazhCompleted:
    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class TrilyazhBroken:
    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class DealScored:
    """The deal's outcome: points taken, score changes, and the scores after them."""

    declarer: int | None
    contract: int
    made: bool
    points: tuple[int, ...]
    changes: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoltGiven:
    seat: int
    bolts: int
    penalty: int


@dataclass(frozen=True, slots=True)
class Mounted:
    """A player climbed onto the barrel (Тысяча) or sat on the tumbochka."""

    seat: int


@dataclass(frozen=True, slots=True)
class Fell:
    seat: int
    cause: FallCause
    score: int


@dataclass(frozen=True, slots=True)
class GoldenBagel:
    seat: int


@dataclass(frozen=True, slots=True)
class DumpTruck:
    seat: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    winner: int
    scores: tuple[int, ...]
    settlement: tuple[int, ...]


Event = (
    DealStarted | BidMade | Passed | DeclarerChosen | TalonShown | TalonTaken | CardGiven
    | ContractNamed | RedealAsked | Conceded | Thrown | CardPlayed | Declared | TrumpChanged
    | TrickWon | TrilyazhCompleted | TrilyazhBroken | DealScored | BoltGiven | Mounted | Fell
    | GoldenBagel | DumpTruck | MatchOver
)


# Events are immutable: the frequent ones are shared objects, by seat (and value or card).
BIDS_MADE: tuple[tuple[BidMade, ...], ...] = tuple(
    tuple(BidMade(seat, v) for v in range(301)) for seat in range(4)
)
PASSES: tuple[Passed, ...] = tuple(Passed(seat) for seat in range(4))
AUTO_PASSES: tuple[Passed, ...] = tuple(Passed(seat, automatic=True) for seat in range(4))
CARDS_GIVEN: tuple[tuple[CardGiven, ...], ...] = tuple(
    tuple(CardGiven(seat, to) for to in range(4)) for seat in range(4)
)
CONTRACTS_NAMED: tuple[tuple[ContractNamed, ...], ...] = tuple(
    tuple(ContractNamed(seat, v) for v in range(301)) for seat in range(4)
)
TALONS_TAKEN: tuple[TalonTaken, ...] = tuple(TalonTaken(seat) for seat in range(4))
CARDS_PLAYED: tuple[tuple[CardPlayed, ...], ...] = tuple(
    tuple(CardPlayed(seat, c) for c in range(36)) for seat in range(4)
)
FORCED_BIDS: tuple[tuple[BidMade, ...], ...] = tuple(
    tuple(BidMade(seat, v, forced=True) for v in range(301)) for seat in range(4)
)

_TrickWonDraft = draft_class(TrickWon)
_DealStartedDraft = draft_class(DealStarted)
_TalonShownDraft = draft_class(TalonShown)
_DeclarerChosenDraft = draft_class(DeclarerChosen)
_DealScoredDraft = draft_class(DealScored)


def trick_won(seat: int, cards: tuple[int, ...], points: int) -> TrickWon:
    """``TrickWon(seat, cards, points)``, made from a draft (``engine.drafts``): once per
    trick. ``deal_started``, ``talon_shown_event``, ``declarer_chosen`` and
    ``deal_scored_event`` are made alike, once per deal."""
    event = _TrickWonDraft()
    event.seat = seat
    event.cards = cards
    event.points = points
    event.__class__ = TrickWon
    return cast(TrickWon, event)


def deal_started(number: int, dealer: int, active: tuple[int, ...]) -> DealStarted:
    event = _DealStartedDraft()
    event.number = number
    event.dealer = dealer
    event.active = active
    event.__class__ = DealStarted
    return cast(DealStarted, event)


def talon_shown_event(cards: tuple[int, ...]) -> TalonShown:
    event = _TalonShownDraft()
    event.cards = cards
    event.__class__ = TalonShown
    return cast(TalonShown, event)


def declarer_chosen(seat: int, bid: int, without_bid: bool) -> DeclarerChosen:
    event = _DeclarerChosenDraft()
    event.seat = seat
    event.bid = bid
    event.without_bid = without_bid
    event.__class__ = DeclarerChosen
    return cast(DeclarerChosen, event)


def deal_scored_event(
    declarer: int | None,
    contract: int,
    made: bool,
    points: tuple[int, ...],
    changes: tuple[int, ...],
    scores: tuple[int, ...],
) -> DealScored:
    event = _DealScoredDraft()
    event.declarer = declarer
    event.contract = contract
    event.made = made
    event.points = points
    event.changes = changes
    event.scores = scores
    event.__class__ = DealScored
    return cast(DealScored, event)
