"""The relay: what the bot processes of one database that do not send hand the one that does.

Several processes of one bot token share a PostgreSQL database (issue 17); exactly one of
them talks to Telegram for sends and edits (the leader, `storage.postgres.leader`), so that
Telegram's per-token limits hold however many there are. The others (followers) write each
call of their outbox here, in order (`push`); the leader takes them in the same order
(`take`, which deletes what it returns in the same transaction), woken by a notification on
`RELAY_CHANNEL` (PostgreSQL's ``NOTIFY``, sent at the commit) or its own short poll.

A body is a plain JSON object; its meaning is the bot's (`bot.telegram.relay`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage._rows import to_text
from storage.backend import Backend
from storage.conn import Conn

RELAY_CHANNEL = "tysyacha_relay"
"""The notification channel the leader listens on for new relay rows."""
TAKE_LIMIT = 500


class Relay:
    """Repository of the ``relay`` table."""

    def __init__(self, db: Backend, *, notify: bool) -> None:
        """``notify``: tell the listeners at each push (PostgreSQL's ``pg_notify``)."""
        self._db = db
        self._notify = notify

    async def push(self, bodies: Sequence[dict[str, Any]]) -> None:
        """Store the calls, in this order, in one transaction, and wake the leader."""
        if not bodies:
            return
        stamp = to_text(self._db.now())
        rows = [(json.dumps(body, ensure_ascii=False, separators=(",", ":")), stamp)
                for body in bodies]
        notify = self._notify

        async def work(conn: Conn) -> None:
            await conn.execute_many("INSERT INTO relay (body, created_at) VALUES (?, ?)", rows)
            if notify:
                await conn.execute("SELECT pg_notify(?, '')", (RELAY_CHANNEL,))

        await self._db.write(work)

    async def take(self, limit: int = TAKE_LIMIT) -> list[dict[str, Any]]:
        """The oldest calls (at most ``limit``), oldest first, deleted as they are returned: a
        leader that dies after this loses them (the stored messages among them are still in
        the outbox, `storage.outbox`, for the next leader)."""

        async def work(conn: Conn) -> list[dict[str, Any]]:
            rows = await conn.rows("SELECT id, body FROM relay ORDER BY id LIMIT ?", (limit,))
            await conn.execute_many("DELETE FROM relay WHERE id = ?", [(r["id"],) for r in rows])
            return rows

        found = []
        for row in await self._db.write(work):
            body = json.loads(str(row["body"]))
            if isinstance(body, dict):
                found.append(body)
        return found

    async def count(self) -> int:
        """Calls waiting (for the heartbeat and the tests)."""
        value = await self._db.fetch_value("SELECT count(*) FROM relay")
        return int(value) if isinstance(value, int) else 0
