"""The running matches in memory, and the background work on them (computers' moves, loads,
announcements), so that shutting down and tests can wait for it (`Running.settled`).

A match's result is announced from here (`announce`): whatever ended it, once the match's
lock is released, in the background — one path for every ending.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.match.live import LiveMatch
from bot.ops.background import Background
from bot.records.ending import Ending
from storage import Match

Announce = Callable[[Ending], Awaitable[None]]
Load = Callable[[int], Awaitable[LiveMatch | None]]
"""Loads a running match into memory by its id (`bot.match.loading.Loader.load`)."""


class Running:
    """The matches in memory by id, those a restart has not loaded yet, and the tasks."""

    def __init__(self, announce: Announce) -> None:
        self.live: dict[int, LiveMatch] = {}
        self.unloaded: dict[int, Match] = {}
        """Running matches of the database not in memory yet (after a restart)."""
        self.loads: dict[int, asyncio.Future[LiveMatch | None]] = {}
        self._background = Background()
        self._announce = announce

    def in_chat(self, chat_id: int, topic_id: int = 0) -> LiveMatch | None:
        return next(
            (m for m in self.live.values() if (m.chat_id, m.topic_id) == (chat_id, topic_id)),
            None,
        )

    def in_group(self, chat_id: int) -> list[LiveMatch]:
        return [m for m in self.live.values() if m.chat_id == chat_id]

    def of_user(self, user_id: int) -> list[LiveMatch]:
        return [m for m in self.live.values() if m.seat_of(user_id) is not None]

    def current(self, live: LiveMatch) -> bool:
        """Whether ``live`` is still the running match's copy in memory (not ended, nor
        dropped after a conflict)."""
        return self.live.get(live.match_id) is live

    def announce(self, ending: Ending) -> None:
        """Post a match's result in the background (call it outside the match's lock)."""
        self.spawn(self._announce(ending), f"ending {ending.summary.match_id}")

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` in the background (a computer's move, a load, an announcement)."""
        self._background.spawn(work, name)

    async def settled(self) -> None:
        """Wait until no background work is left (each move may start the next)."""
        await self._background.settled()

    async def cancel(self) -> None:
        """Cancel the background work and the loads (shutting down)."""
        running: list[asyncio.Future[Any]] = [*self._background.tasks(), *self.loads.values()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
