"""What happened: the events ``apply`` returns, as codes and numbers for the bot and stats.

Events carry only what every seat may know: a given card is not in ``CardGiven``; a talon
that is not shown is not in ``TalonTaken``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.actions import Declaration


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

_new = object.__new__
_set_trick_seat = TrickWon.__dict__["seat"].__set__
_set_trick_cards = TrickWon.__dict__["cards"].__set__
_set_trick_points = TrickWon.__dict__["points"].__set__


def trick_won(seat: int, cards: tuple[int, ...], points: int) -> TrickWon:
    """``TrickWon(seat, cards, points)``, made by its slots: a frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` per field) costs three times as much, once
    per trick. ``deal_started``, ``talon_shown_event``, ``declarer_chosen`` and
    ``deal_scored_event`` are made alike, once per deal."""
    event: TrickWon = _new(TrickWon)
    _set_trick_seat(event, seat)
    _set_trick_cards(event, cards)
    _set_trick_points(event, points)
    return event


_set_started_number = DealStarted.__dict__["number"].__set__
_set_started_dealer = DealStarted.__dict__["dealer"].__set__
_set_started_active = DealStarted.__dict__["active"].__set__


def deal_started(number: int, dealer: int, active: tuple[int, ...]) -> DealStarted:
    event: DealStarted = _new(DealStarted)
    _set_started_number(event, number)
    _set_started_dealer(event, dealer)
    _set_started_active(event, active)
    return event


_set_shown_cards = TalonShown.__dict__["cards"].__set__


def talon_shown_event(cards: tuple[int, ...]) -> TalonShown:
    event: TalonShown = _new(TalonShown)
    _set_shown_cards(event, cards)
    return event


_set_chosen_seat = DeclarerChosen.__dict__["seat"].__set__
_set_chosen_bid = DeclarerChosen.__dict__["bid"].__set__
_set_chosen_without_bid = DeclarerChosen.__dict__["without_bid"].__set__


def declarer_chosen(seat: int, bid: int, without_bid: bool) -> DeclarerChosen:
    event: DeclarerChosen = _new(DeclarerChosen)
    _set_chosen_seat(event, seat)
    _set_chosen_bid(event, bid)
    _set_chosen_without_bid(event, without_bid)
    return event


_set_scored = tuple(
    DealScored.__dict__[name].__set__
    for name in ("declarer", "contract", "made", "points", "changes", "scores")
)


def deal_scored_event(
    declarer: int | None,
    contract: int,
    made: bool,
    points: tuple[int, ...],
    changes: tuple[int, ...],
    scores: tuple[int, ...],
) -> DealScored:
    event: DealScored = _new(DealScored)
    set_declarer, set_contract, set_made, set_points, set_changes, set_scores = _set_scored
    set_declarer(event, declarer)
    set_contract(event, contract)
    set_made(event, made)
    set_points(event, points)
    set_changes(event, changes)
    set_scores(event, scores)
    return event
