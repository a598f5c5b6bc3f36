"""The values of match results, statistics and ratings (`storage.results` stores and reads them).

Written by the bot when a match ends: `MatchResult` (places, final scores, settlement and
per-seat `Counters`) and one `Rating` per player. Read back: `PlayerStats` (a player's totals
per game), `LeaderboardEntry`, `HistoryEntry` (with `HistorySeat`s) and `Page`.

A player is a human (`PlayerRef.human(user_id)`) or a computer player of some level
(`PlayerRef.computer("strong")`): computer players are rated and counted too, and flagged.
A human whose seat was taken over by a computer player during the match stays that human.
The text form ``u:101`` / ``c:strong`` (`PlayerRef.key`) is the key of the tables.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Generic, Literal, Self, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict

from engine import Game
from storage.models import GAMES

ResultStatus = Literal["finished", "abandoned"]
MAX_PLAYERS = 4
T = TypeVar("T")


@dataclass(frozen=True, slots=True, order=True)
class PlayerRef:
    """A human (``user_id``) or a computer player (``computer_level``): exactly one is set."""

    user_id: int | None = None
    computer_level: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.computer_level is None):
            raise ValueError("a player is either a user or a computer level")
        if self.user_id is not None and (
            isinstance(self.user_id, bool) or not isinstance(self.user_id, int)
        ):
            raise ValueError(f"not a user id: {self.user_id!r}")
        if self.computer_level is not None and not (
            isinstance(self.computer_level, str) and 1 <= len(self.computer_level) <= 32
        ):
            raise ValueError(f"not a computer level: {self.computer_level!r}")

    @classmethod
    def human(cls, user_id: int) -> Self:
        return cls(user_id=user_id)

    @classmethod
    def computer(cls, level: str) -> Self:
        return cls(computer_level=level)

    @classmethod
    def parse(cls, key: str) -> Self:
        """The player of a key ``u:101`` / ``c:strong`` (`ValueError` otherwise)."""
        kind, _, rest = key.partition(":")
        if kind == "u":
            try:
                return cls(user_id=int(rest))
            except ValueError:
                raise ValueError(f"not a player key: {key!r}") from None
        if kind == "c":
            return cls(computer_level=rest)
        raise ValueError(f"not a player key: {key!r}")

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def key(self) -> str:
        """The stored key: ``u:<user id>`` or ``c:<level>``."""
        return f"u:{self.user_id}" if self.user_id is not None else f"c:{self.computer_level}"


@dataclass(frozen=True, slots=True)
class Counters:
    """What a player did in a match (or, summed, in all their matches of a game).

    ``contracts`` = times declarer with a contract (a deal thrown before naming a contract
    and a redealt deal do not count); ``contracts_made + contracts_failed == contracts``, a
    concession or a throw is a failed contract; ``contract_points`` sums their sizes.
    ``perch_*`` is the barrel in Тысяча and the tumbochka in Тумбочка: climbed on / won from
    it / fell off (knocked off, climbed together, out of attempts, raised and failed).
    """

    deals: int = 0
    contracts: int = 0
    contracts_made: int = 0
    contracts_failed: int = 0
    contract_points: int = 0
    marriages_spades: int = 0
    marriages_clubs: int = 0
    marriages_diamonds: int = 0
    marriages_hearts: int = 0
    ace_marriages: int = 0
    troyans: int = 0
    trilyazhes: int = 0
    bolts: int = 0
    bolt_penalties: int = 0
    perch_mounted: int = 0
    perch_made: int = 0
    perch_fallen: int = 0
    golden_bagels: int = 0
    dump_trucks: int = 0
    concessions: int = 0
    throws: int = 0
    redeals: int = 0

    def __post_init__(self) -> None:
        for name in COUNTER_NAMES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"counter {name} must be a non-negative integer, not {value!r}")

    def __add__(self, other: Counters) -> Counters:
        return Counters(**{n: getattr(self, n) + getattr(other, n) for n in COUNTER_NAMES})

    def plus(self, **changes: int) -> Counters:
        """These counters with ``changes`` added (``plus(bolts=1)``)."""
        return dataclasses.replace(
            self, **{name: getattr(self, name) + value for name, value in changes.items()}
        )

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COUNTER_NAMES}

    @property
    def marriages(self) -> tuple[int, int, int, int]:
        """Marriages declared by suit: ♠ ♣ ♦ ♥."""
        return (
            self.marriages_spades,
            self.marriages_clubs,
            self.marriages_diamonds,
            self.marriages_hearts,
        )

    @property
    def average_contract(self) -> float | None:
        return self.contract_points / self.contracts if self.contracts else None


COUNTER_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Counters))
"""The counters in the order of the ``player_stats`` columns."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResult:
    """What `Results.record_match` stores about an ended match.

    ``finished`` with a ``winner`` (then ``settlement`` is set and the match is rated), or
    abandoned (stopped): ``winner`` and ``settlement`` are None, and the match counts for
    nothing but the history. ``places``: 1 = the winner, the others by final score, ties by
    seat order (an abandoned match: all by score). ``version`` is the number of log lines
    the result was computed from; it must be the match's version when it is stored.
    """

    match_id: int
    game: Game
    players: tuple[PlayerRef, ...]
    version: int
    winner: int | None
    scores: tuple[int, ...]
    places: tuple[int, ...]
    settlement: tuple[int, ...] | None
    deals: int
    counters: tuple[Counters, ...] = field(default=())

    def __post_init__(self) -> None:
        n = len(self.players)
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}")
        if not 3 <= n <= MAX_PLAYERS:
            raise ValueError(f"a match has 3 or 4 players, not {n}")
        if not self.counters:
            object.__setattr__(self, "counters", (Counters(),) * n)
        for name in ("scores", "places", "counters"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} must have one entry per seat ({n})")
        if sorted(self.places) != list(range(1, n + 1)):
            raise ValueError(f"places {self.places} are not 1..{n}")
        if self.winner is not None:
            if not 0 <= self.winner < n or self.places[self.winner] != 1:
                raise ValueError("the winner must be a seat with place 1")
            if self.settlement is None or len(self.settlement) != n:
                raise ValueError("a finished match has a settlement per seat")
        elif self.settlement is not None:
            raise ValueError("an abandoned match has no settlement")
        if self.deals < 0 or self.version < 0:
            raise ValueError("deals and version are not negative")

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def status(self) -> ResultStatus:
        return "finished" if self.winner is not None else "abandoned"


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rating(_Row):
    """A player's OpenSkill rating in one game: ``mu``, ``sigma`` and the rated matches."""

    player: PlayerRef
    game: Game
    mu: float
    sigma: float
    matches: int


class PlayerStats(_Row):
    """A player's totals in one game over their finished matches."""

    player: PlayerRef
    game: Game
    matches: int
    wins: int
    places: tuple[int, int, int, int]
    """How often the player finished 1st, 2nd, 3rd, 4th."""
    score_sum: int
    settlement_sum: int
    seconds_played: int
    counters: Counters
    rating: Rating | None

    @property
    def average_score(self) -> float | None:
        return self.score_sum / self.matches if self.matches else None

    @property
    def average_place(self) -> float | None:
        total = sum(self.places)
        if not total:
            return None
        return sum(place * n for place, n in enumerate(self.places, start=1)) / total


class LeaderboardEntry(_Row):
    """A row of a chat's leaderboard: the global rating, matches and wins in this chat."""

    position: int
    player: PlayerRef
    name: str | None
    """The user's first name (None for a computer player)."""
    username: str | None
    matches: int
    wins: int
    rating: Rating


class HistorySeat(_Row):
    """A seat of a match in the history; result fields are None when nothing was recorded."""

    seat: int
    player: PlayerRef
    name: str | None
    username: str | None
    score: int | None
    place: int | None
    settlement: int | None
    rating_after: Rating | None
    """The player's rating right after this match (None if it was not rated)."""


class HistoryEntry(_Row):
    """An ended match: when, what, who, and its result if one was recorded."""

    match_id: int
    chat_id: int
    game: Game
    status: ResultStatus
    winner: int | None
    started_at: AwareDatetime
    finished_at: AwareDatetime
    recorded: bool
    """False for a match that ended without a result (before results existed, or a broken
    log): it shows in the history without scores."""
    deals: int | None
    duration_seconds: int | None
    seats: tuple[HistorySeat, ...]

    def seat_of(self, player: PlayerRef) -> HistorySeat | None:
        return next((s for s in self.seats if s.player == player), None)


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a longer list: ``items`` from ``offset``; ``total`` items in all."""

    items: tuple[T, ...]
    total: int
    offset: int
    limit: int
