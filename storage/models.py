"""The rows the repositories return: frozen pydantic models, one per stored thing.

They are plain data, read back from SQLite and validated on the way (an unknown status, a
naive timestamp or a seat list with a hole is a `CorruptRow`, raised by the repositories).
Seats are 0-based (seat 0 is ``p1`` of the notation); timestamps are aware UTC datetimes.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, model_validator

from engine import Game

GAMES: tuple[Game, ...] = tuple(Game)
"""The games in the engine's order (the notation's ``game`` line names them; the schema's
checks of migration 1 hold the same names)."""

ChatType = Literal["private", "group", "supergroup", "channel"]
LobbyStatus = Literal["open", "started", "cancelled"]
MatchStatus = Literal["running", "finished", "abandoned"]


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class User(_Row):
    """A Telegram user who talked to the bot."""

    user_id: int
    first_name: str
    username: str | None
    language: str | None
    """Chosen with /lang; None = not chosen (use `telegram_language` or the default)."""
    telegram_language: str | None
    """The language_code Telegram reports for the user."""
    private_chat_opened: bool
    """The user has started the private chat, so the bot can send them their hand."""
    turn_pings: bool = True
    """A new message tells them it is their turn (switched with /notify)."""
    created_at: AwareDatetime
    updated_at: AwareDatetime


class Chat(_Row):
    """A chat the bot is used in."""

    chat_id: int
    type: ChatType
    title: str | None
    language: str | None
    """Chosen with /lang in the chat; None = not chosen."""
    created_at: AwareDatetime
    updated_at: AwareDatetime


class LobbySeat(_Row):
    """A filled seat of a lobby: a user, or a computer player (user_id None)."""

    seat: int
    user_id: int | None
    computer_level: str | None

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @model_validator(mode="after")
    def _one_occupant(self) -> Self:
        if (self.user_id is None) == (self.computer_level is None):
            raise ValueError("a seat holds either a user or a computer level")
        return self


class Lobby(_Row):
    """A lobby gathering players in a group chat, with its filled seats (ordered by seat)."""

    lobby_id: int
    chat_id: int
    topic_id: int = 0
    """The forum topic the lobby is in (its ``message_thread_id``); 0: no topic."""
    creator_id: int
    message_id: int | None
    game: Game
    players: int
    rules: str
    """The notation's header lines of the chosen rules."""
    turn_seconds: int | None
    """The turn timer; None = off."""
    status: LobbyStatus
    created_at: AwareDatetime
    updated_at: AwareDatetime
    seats: tuple[LobbySeat, ...]
    settings_open: bool = False
    """The lobby's message shows its creator's settings screen, not the seats."""

    @model_validator(mode="after")
    def _seats_in_table(self) -> Self:
        numbers = [s.seat for s in self.seats]
        if numbers != sorted(set(numbers)) or any(not 0 <= n < self.players for n in numbers):
            raise ValueError(f"seats {numbers} do not fit a table of {self.players}")
        return self

    @property
    def free_seats(self) -> tuple[int, ...]:
        taken = {s.seat for s in self.seats}
        return tuple(n for n in range(self.players) if n not in taken)

    @property
    def is_full(self) -> bool:
        return len(self.seats) == self.players

    def seat_of(self, user_id: int) -> int | None:
        """The seat the user sits at, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


class MatchSeat(_Row):
    """A seat of a match."""

    seat: int
    user_id: int | None
    """The human of this seat (kept when a computer takes over); None = a computer seat."""
    computer_level: str | None
    """The computer player of a computer seat, or the one playing for an absent human."""
    replaced_by_computer: bool
    hand_message_id: int | None
    """The private message holding this player's hand, edited in place."""
    consecutive_timeouts: int

    @property
    def is_computer(self) -> bool:
        """A computer seat from the start."""
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        """A computer decides for this seat now (a computer seat or a replaced human)."""
        return self.user_id is None or self.replaced_by_computer


class Match(_Row):
    """A match, with its seats (all of them, ordered by seat)."""

    match_id: int
    chat_id: int
    topic_id: int = 0
    """The forum topic the match is played in; 0: no topic (a plain group, General, private)."""
    lobby_id: int | None
    game: Game
    players: int
    rules: str
    """The notation's header lines."""
    turn_seconds: int | None
    status: MatchStatus
    version: int
    """The number of lines in the log; bumped by every append; carried in callback data."""
    table_message_id: int | None
    winner_seat: int | None
    created_at: AwareDatetime
    updated_at: AwareDatetime
    finished_at: AwareDatetime | None
    seats: tuple[MatchSeat, ...]

    @model_validator(mode="after")
    def _all_seats(self) -> Self:
        numbers = [s.seat for s in self.seats]
        if numbers != list(range(self.players)):
            raise ValueError(f"seats {numbers} are not the seats 0..{self.players - 1}")
        return self

    def seat_of(self, user_id: int) -> int | None:
        """The seat of the user in this match, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


class Deadline(_Row):
    """A pending turn deadline: `seat` must act by `deadline` (armed at match `version`)."""

    match_id: int
    seat: int
    deadline: AwareDatetime
    version: int


class NewSeat(_Row):
    """A seat for `Matches.create`: a user or a computer player."""

    user_id: int | None = None
    computer_level: str | None = None

    @model_validator(mode="after")
    def _one_occupant(self) -> Self:
        if (self.user_id is None) == (self.computer_level is None):
            raise ValueError("a seat holds either a user or a computer level")
        return self

    @classmethod
    def human(cls, user_id: int) -> NewSeat:
        return cls(user_id=user_id)

    @classmethod
    def computer(cls, level: str) -> NewSeat:
        return cls(computer_level=level)
