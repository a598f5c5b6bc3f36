"""Background tasks that a part of the bot starts and owns: each is kept until it ends, its
failure is logged (not lost with an unobserved task), and its owner can wait for all of them
(tests, shutting down) or cancel them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger(__name__)


class Background:
    """The running tasks of one owner."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` as a task named ``name`` (the name goes into its failure's log line)."""
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", task.get_name(), exc_info=task.exception())

    def tasks(self) -> list[asyncio.Task[None]]:
        """The tasks running now."""
        return list(self._tasks)

    async def settled(self) -> None:
        """Wait until no task is left (a task may start the next)."""
        while self._tasks:
            await asyncio.gather(*self.tasks(), return_exceptions=True)

    async def cancel(self) -> None:
        """Cancel every task and wait for them to end."""
        tasks = self.tasks()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
