"""`Backend`: what the repositories use of a database, the same on SQLite and PostgreSQL.

`storage.database.Database` (SQLite, the default) and `storage.postgres.database.PgDatabase`
both provide it; `Store.connect` picks one by the address it is given. The repositories write
their statements once, in SQL that both read the same way, with ``?`` placeholders.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol, TypeVar

from storage.conn import Conn, Row
from storage.locks import Lock

T = TypeVar("T")
LockObserver = Callable[[float, float], None]
"""Called with (seconds waited for the write lock, seconds it was held) by each holder
(PostgreSQL, which has no one write lock: for its pooled connection, and how long its write
transaction held it)."""


class Backend(Protocol):
    """Transactions, one-trip writes and the query helpers of a database."""

    lock_observer: LockObserver | None

    def now(self) -> datetime:
        """The current time (aware, UTC) from the injected clock."""
        ...

    @property
    def in_transaction(self) -> bool:
        """Whether the current task is inside `transaction()` (or a read snapshot)."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """Statements that commit or roll back together; nested, a savepoint."""
        ...

    def snapshot(self) -> AbstractAsyncContextManager[None]:
        """A read-only transaction that sees one state; inside `transaction()` it joins it."""
        ...

    async def lock(self, *locks: Lock) -> None:
        """Hold ``locks`` until the current write transaction ends (`storage.locks`: nothing
        on SQLite, whose write transaction excludes every other writer)."""
        ...

    async def write(self, work: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """``work(conn)`` as one write transaction (a savepoint inside the caller's)."""
        ...

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each parameter row."""
        ...

    async def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        """The first row of a query (or of an ``INSERT ... RETURNING``), or None."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """All rows of a query."""
        ...

    async def fetch_value(self, sql: str, params: Sequence[object] = ()) -> object:
        """The first column of the first row (None if there is no row)."""
        ...

    async def probe_commit(self) -> None:
        """A write that changes nothing but is a real commit, synced like a press's (the
        health check: a full disk or a lock held elsewhere still answers queries)."""
        ...

    async def close(self) -> None:
        """Close the connection(s), after the running transaction."""
        ...
