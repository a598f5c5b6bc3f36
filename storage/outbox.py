"""The transactional outbox: the messages a committed change must produce, stored with it.

A change that people must see (a press, a timeout, the end of a match) writes its messages
in its own transaction — as `Outbox.statement` in the change's `MatchWrite` (one trip), or
with `Outbox.record` — so a change is never committed without them nor the reverse. After
the commit the bot delivers them and reports back with `Outbox.delivered`:

* a message edited in place (``kind = 'show'``: a table, a hand) keeps one row per chat and
  key, holding the state it should show (``version``, ``body``) and the version last
  delivered; a newer state replaces the row's body, and the row is stale while ``delivered``
  is older than ``version`` (after a restart only stale rows are sent again, issue 13). A
  final state (the match is over) removes the row once it is delivered;
* a new message (``'post'``) and a match's result with its score sheet (``'ending'``) are
  removed once delivered.

`Outbox.stale` lists what a restart must deliver, the newest matches first.

On PostgreSQL a change (under its match's lock, `storage.locks`) and the sender's delivery
marks write the rows of one match side by side; both lock the rows edited in place in the
order of their chat and key.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from storage._rows import to_text
from storage.backend import Backend
from storage.conn import Conn, Row
from storage.writes import Statement

Kind = Literal["show", "post", "ending"]
_KINDS: dict[str, Kind] = {"show": "show", "post": "post", "ending": "ending"}

_UPSERT = """
INSERT INTO outbox (chat_id, key, kind, match_id, version, delivered, body, created_at)
VALUES (?, ?, ?, ?, ?, NULL, ?, ?)
ON CONFLICT (chat_id, key) DO UPDATE SET
    kind = excluded.kind, match_id = excluded.match_id, body = excluded.body,
    version = excluded.version
WHERE excluded.version >= outbox.version
"""
_MARK = """
UPDATE outbox SET delivered = CASE WHEN version < ? THEN version ELSE ? END
WHERE chat_id = ? AND key = ? AND (delivered IS NULL OR delivered < ?)
"""
_DROP = "DELETE FROM outbox WHERE chat_id = ? AND key = ? AND version <= ?"
_STALE = """
SELECT chat_id, key, kind, match_id, version, delivered, body FROM outbox
WHERE delivered IS NULL OR delivered < version
ORDER BY coalesce(match_id, 0) DESC, kind = 'ending', kind = 'post', rowid
"""


@dataclass(frozen=True)
class Outgoing:
    """One message to store with a change: plain values only (a one-trip write's work
    function stores it)."""

    chat_id: int
    key: str
    kind: Kind
    match_id: int | None
    version: int
    body: dict[str, Any]

    def params(self, created_at: str) -> tuple[object, ...]:
        return (
            self.chat_id,
            self.key,
            self.kind,
            self.match_id,
            self.version,
            json.dumps(self.body, ensure_ascii=False, separators=(",", ":")),
            created_at,
        )


@dataclass(frozen=True)
class Delivered:
    """A message shown at ``version``; ``done`` removes its row (a post, an ending, a final
    state)."""

    chat_id: int
    key: str
    version: int
    done: bool = False


@dataclass(frozen=True)
class Stored:
    """A row that still has to be delivered."""

    chat_id: int
    key: str
    kind: Kind
    match_id: int | None
    version: int
    delivered: int | None
    body: dict[str, Any]


class Outbox:
    """Repository of the ``outbox`` table."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def now_text(self) -> str:
        """The creation time to pass to `record_rows`."""
        return to_text(self._db.now())

    def statement(self, rows: Sequence[Outgoing]) -> Statement:
        """The rows as a statement to run in a `MatchWrite` (``extra``): stored in the
        change's own trip."""
        created = self.now_text()
        return Statement(_UPSERT, tuple(row.params(created) for row in _lock_order(rows)))

    async def record(self, rows: Sequence[Outgoing]) -> None:
        """Store the messages of a change (call it inside the change's transaction)."""
        if rows:
            created = self.now_text()
            await self._db.execute_many(
                _UPSERT, [row.params(created) for row in _lock_order(rows)]
            )

    async def delivered(self, marks: Sequence[Delivered]) -> None:
        """Mark messages as shown, in one transaction (one trip)."""
        if not marks:
            return
        ordered = sorted(marks, key=lambda m: (m.chat_id, m.key))
        keep = [(m.version, m.version, m.chat_id, m.key, m.version) for m in ordered if not m.done]
        drop = [(m.chat_id, m.key, m.version) for m in ordered if m.done]

        async def mark(conn: Conn) -> None:
            await conn.execute_many(_MARK, keep)
            await conn.execute_many(_DROP, drop)

        # One one-trip write: the presses wait for the lock meanwhile.
        await self._db.write(mark)

    async def stale(self) -> list[Stored]:
        """What is not delivered yet: the newest matches first, in a chat the messages edited
        in place before the new ones, those in the order they were recorded."""
        return [_stored(row) for row in await self._db.fetch_all(_STALE)]

    async def count(self) -> int:
        """Rows not delivered yet (for the heartbeat and the tests)."""
        value = await self._db.fetch_value(
            "SELECT count(*) FROM outbox WHERE delivered IS NULL OR delivered < version"
        )
        return int(value) if isinstance(value, int) else 0


def _lock_order(rows: Sequence[Outgoing]) -> list[Outgoing]:
    """The rows of a change in the order their writes lock them: the messages edited in
    place by chat and key, as the delivery marks lock them (`Outbox.delivered`), so that a
    change and a batch of marks never wait for each other on PostgreSQL; then the new
    messages in their own order (their insertion order is the order they are sent anew
    after a restart), which no other writer touches before they are committed."""
    shows = sorted((row for row in rows if row.kind == "show"), key=lambda r: (r.chat_id, r.key))
    return [*shows, *(row for row in rows if row.kind != "show")]


def _stored(row: Row) -> Stored:
    body = json.loads(str(row["body"]))
    delivered = row["delivered"]
    return Stored(
        chat_id=int(row["chat_id"]),
        key=str(row["key"]),
        kind=_KINDS[str(row["kind"])],
        match_id=None if row["match_id"] is None else int(row["match_id"]),
        version=int(row["version"]),
        delivered=None if delivered is None else int(delivered),
        body=body if isinstance(body, dict) else {},
    )
