"""A running match in memory: its stored row, its replayed state and version, and its lock.

Every change of a match happens under its lock, and the state here is only ever replaced by
the state whose log lines were just committed, so it always equals a replay of the log.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from bot.telegram.callbacks import MAIN, Menu
from engine import MatchState
from engine.events import Event
from storage import Deadline, Match


@dataclass
class LiveMatch:
    row: Match
    state: MatchState
    version: int
    seed: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    unreachable: set[int] = field(default_factory=set)
    """Users the bot could not write to privately (403): the table shows them a link."""
    deadline: Deadline | None = None
    """The turn timer running for the human to act, if the match has one."""
    pressed_at: dict[int, float] = field(default_factory=dict)
    """User → when they last pressed a button of this match (monotonic seconds)."""
    started_at: float = field(default_factory=time.monotonic)
    deal_turns: set[int] = field(default_factory=set)
    """Users who have had a turn in the current deal."""
    dealt_by: int | None = None
    """The user whose press dealt the current deal (None: a computer or a timeout)."""
    seat_notes: dict[int, str] = field(default_factory=dict)
    """Seat → what the bot did for its absent player (``timed-out``, ``replaced``), shown in
    their hand until they press again."""
    recap: tuple[int, MatchState, tuple[Event, ...]] | None = None
    """The version of the deal just dealt, and the state and events that ended the deal
    before it: the hands tell the deal until the new deal's first action."""
    recent: list[str] = field(default_factory=list)
    """The table's "just now" lines (HTML) of this deal, kept across states the group never
    saw (`bot.match.drawing.unseen`)."""
    solo_note: str | None = None
    """A /solo match's "just now" lines, shown in its hand (it has no table message)."""
    menus: dict[int, tuple[int, Menu, float]] = field(default_factory=dict)
    """Seat → the part of its keyboard its player opened: at which version, and when."""

    def menu_of(self, seat: int) -> Menu:
        """The part of the seat's keyboard to show: what its player opened at this version."""
        opened = self.menus.get(seat)
        return opened[1] if opened is not None and opened[0] == self.version else MAIN

    def open_menu(self, seat: int, menu: Menu) -> None:
        self.menus[seat] = (self.version, menu, time.monotonic())

    def confirmed(self, seat: int, action: object, within: float) -> bool:
        """Whether the seat's player was asked about ``action`` at this version less than
        ``within`` seconds ago (so this press is the second one)."""
        opened = self.menus.get(seat)
        return (
            opened is not None
            and opened[0] == self.version
            and opened[1].confirm == action
            and time.monotonic() - opened[2] <= within
        )

    @property
    def match_id(self) -> int:
        return self.row.match_id

    @property
    def chat_id(self) -> int:
        return self.row.chat_id

    @property
    def topic_id(self) -> int:
        """The forum topic of the match's group it is played in (0: none)."""
        return self.row.topic_id

    @property
    def user_ids(self) -> tuple[int | None, ...]:
        return tuple(seat.user_id for seat in self.row.seats)

    def seat_of(self, user_id: int) -> int | None:
        return self.row.seat_of(user_id)

    def idle_for(self, user_id: int) -> float:
        """Seconds since the user last pressed a button of this match (or it started)."""
        return time.monotonic() - self.pressed_at.get(user_id, self.started_at)
