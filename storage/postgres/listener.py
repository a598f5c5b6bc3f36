"""A connection of its own that listens for a PostgreSQL notification channel (``LISTEN``).

A pooled connection cannot listen (it goes back to the pool), and the leadership's connection
of a waiting follower is busy waiting for its lock (the server delivers a notification to a
session only between its transactions), so whoever must be woken by a channel — a process
told that another let go of its match jobs (`storage.jobs`) — listens on a connection of its
own. Notifications are a wake-up, never the only way: a listener that lost its connection
(``alive`` False) is reconnected by its owner, which polls meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Self

import asyncpg

from storage.errors import StorageError
from storage.postgres.database import safe_url

log = logging.getLogger(__name__)


class Listener:
    """Calls ``woken`` at every notification on ``channel``."""

    def __init__(self, url: str, channel: str, woken: Callable[[], None]) -> None:
        """Use `Listener.connect`."""
        self._url = url
        self._channel = channel
        self._woken = woken
        self._conn: Any = None

    @classmethod
    async def connect(cls, url: str, channel: str, woken: Callable[[], None]) -> Self:
        """Listen on a new connection; `StorageError` if the server cannot be reached."""
        listener = cls(url, channel, woken)
        await listener.reconnect()
        return listener

    @property
    def alive(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    async def reconnect(self) -> None:
        """Listen on a new connection in place of a lost one."""
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
        conn = None
        try:
            conn = await asyncpg.connect(self._url)
            await conn.add_listener(self._channel, self._notified)
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            if conn is not None:
                conn.terminate()
            where = safe_url(self._url)
            raise StorageError(f"cannot listen on the database {where}: {error}") from error
        self._conn = conn

    def _notified(self, *_: object) -> None:
        self._woken()

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()
