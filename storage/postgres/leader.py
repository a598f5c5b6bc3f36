"""Leadership among the bot processes of one PostgreSQL database (issue 17).

Several processes of one bot token may share a database (webhook workers behind a reverse
proxy). Exactly one of them — the leader — sends to Telegram and registers the webhook;
the leader is whoever holds the session advisory lock `LEADER_LOCK`, on a connection of its
own (`Leadership`). The others wait for the lock (``lead``); the
server releases it the moment the leader's connection ends — a clean stop, a crash, a
``kill -9`` — and one of the waiting processes gets it.

The same connection listens for the relay's notifications (`storage.relay.RELAY_CHANNEL`).
If it breaks while leading, the process can no longer know that it is the only sender:
``on_lost`` is called (the bot stops, to be restarted as a follower).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Self

import asyncpg

from storage.errors import StorageError
from storage.postgres.database import safe_url

log = logging.getLogger(__name__)

LEADER_LOCK = 0x7479_7379_0002
"""The advisory lock the leader of a database holds for as long as it leads ("tysy" + 2)."""


class Leadership:
    """A connection that holds `LEADER_LOCK`, or waits for it."""

    def __init__(self, conn: Any, url: str) -> None:
        """Use `Leadership.connect`."""
        self._conn = conn
        self._url = url
        self.leading = False
        self.on_lost: Callable[[], None] | None = None
        conn.add_termination_listener(self._terminated)

    @classmethod
    async def connect(cls, url: str) -> Self:
        try:
            conn = await asyncpg.connect(url)
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            raise StorageError(f"cannot open the database {safe_url(url)}: {error}") from error
        return cls(conn, url)

    async def reconnect(self) -> None:
        """A new connection in place of a broken one (a follower's, which held no lock);
        `StorageError` if the server cannot be reached."""
        if self.leading:
            raise RuntimeError("a leader's lost connection is lost leadership: stop instead")
        self._conn.remove_termination_listener(self._terminated)
        self._conn.terminate()
        try:
            self._conn = await asyncpg.connect(self._url)
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            where = safe_url(self._url)
            raise StorageError(f"cannot open the database {where}: {error}") from error
        self._conn.add_termination_listener(self._terminated)

    async def try_lead(self) -> bool:
        """Take the lock if nobody holds it; whether this process leads now."""
        if not self.leading:
            self.leading = bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)",
                                                          LEADER_LOCK))
        return self.leading

    async def lead(self) -> None:
        """Wait until this process holds the lock (the leader before it is gone)."""
        if not self.leading:
            await self._conn.execute("SELECT pg_advisory_lock($1)", LEADER_LOCK)
            self.leading = True

    async def listen(self, channel: str, woken: Callable[[], None]) -> None:
        """Call ``woken`` at each notification on ``channel``."""
        await self._conn.add_listener(channel, lambda *_: woken())

    def _terminated(self, _conn: Any) -> None:
        if self.leading:
            log.error("the leader's connection to %s is gone", safe_url(self._url))
            self.leading = False
            if self.on_lost is not None:
                self.on_lost()

    async def close(self) -> None:
        """Let go of the lock (closing the connection releases it)."""
        self.leading = False
        self._conn.remove_termination_listener(self._terminated)
        await self._conn.close()
