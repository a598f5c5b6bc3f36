"""The PostgreSQL database of the process: an asyncpg pool behind `storage.database`'s calls.

`PgDatabase.open("postgresql://user:password@host/db")` opens a pool, migrates the schema
(`storage.postgres.migrations`) and offers what the repositories use of `Database`:
``transaction()``, ``snapshot()``, ``write(work)``, ``execute``, ``execute_many``,
``fetch_one``, ``fetch_all``, ``fetch_value``, ``now()``, ``in_transaction`` and
``lock_observer``. The statements are the repositories' own (`storage.postgres.sql`).

The guarantees are SQLite's:

* ``async with db.transaction():`` runs on one pooled connection of the task; nested in the
  same task it is a savepoint. A write transaction first takes the process's write lock and
  then the database-wide advisory lock `WRITE_LOCK` (``pg_advisory_xact_lock``, released by
  the commit), so writers never interleave — between the tasks of this process and between
  processes on the same database — as with SQLite's ``BEGIN IMMEDIATE``: a transaction that
  reads, checks and writes cannot lose a race, and the version check of a press holds.
* ``await db.write(work)``: the one-trip write of `storage.conn` — the work function runs in
  a write transaction (a savepoint of the caller's), and the commit returns only once the
  server has it (``synchronous_commit`` is the server's: on by default, so a press is durable
  before anyone is told).
* ``snapshot()`` is a ``REPEATABLE READ READ ONLY`` transaction: the reads inside see one
  state. A read outside any transaction takes a pooled connection for one statement; a write
  outside one is its own write transaction.
* Refused writes come back as the storage's exceptions (`ChatBusy`, `ConstraintViolation`).

Do not spawn tasks that write from inside a transaction and wait for them (they would wait for
the lock it holds), nor keep a transaction open across the network or a search.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import asyncpg

from storage.conn import Conn, Row
from storage.errors import StorageError
from storage.postgres.migrations import migrate
from storage.postgres.schema import PG_MIGRATIONS
from storage.postgres.sql import numbered, refusals

T = TypeVar("T")
LockObserver = Callable[[float, float], None]

WRITE_LOCK = 0x7479_7379_0001
"""The advisory lock key every write transaction holds until it ends ("tysy" + 1)."""


CLOSE_WAIT = 10.0
"""Seconds `PgDatabase.close` waits for the running transactions before it cuts them."""


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Held:
    """The task's open transaction: its connection, kind and savepoint depth."""

    conn: Any  # asyncpg.Connection (asyncpg ships no types)
    mode: Literal["write", "read"]


class PgConn:
    """`storage.conn.Conn` over an asyncpg connection inside its transaction."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        with refusals():
            status = await self._conn.execute(numbered(sql), *params)
        return _rowcount(status)

    async def execute_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        with refusals():
            await self._conn.executemany(numbered(sql), batch)

    async def rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        with refusals():
            records = await self._conn.fetch(numbered(sql), *params)
        return [dict(record) for record in records]


class PgDatabase:
    """The pool, the write lock, transactions, and the query helpers of `Database`."""

    def __init__(self, pool: Any, url: str, clock: Callable[[], datetime]) -> None:
        """Use `PgDatabase.open`."""
        self._pool = pool
        self._url = url
        self._clock = clock
        self._lock = asyncio.Lock()
        self._held: dict[asyncio.Task[Any], _Held] = {}
        self._closed = False
        self.lock_observer: LockObserver | None = None

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Callable[[], datetime] = utc_now,
        migrations: tuple[str, ...] = PG_MIGRATIONS,
        pool_size: int = 10,
    ) -> Self:
        """Connect to ``url`` (``postgresql://...``) and migrate it to the latest schema.

        Raises `DatabaseTooNew` if newer code migrated it, `StorageError` if it cannot be
        reached. ``migrations`` exists for the migration tests. Other processes may open the
        same database (`storage.postgres.leader` says which of them sends).
        """
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        except (TimeoutError, OSError, asyncpg.PostgresError) as error:
            raise StorageError(f"cannot open the database {safe_url(url)}: {error}") from error
        try:
            async with pool.acquire() as conn:
                await migrate(conn, safe_url(url), migrations)
        except asyncpg.PostgresError as error:
            await pool.close()
            raise StorageError(f"cannot migrate the database {safe_url(url)}: {error}") from error
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, clock)

    @property
    def url(self) -> str:
        """The database's address, without its password."""
        return safe_url(self._url)

    def now(self) -> datetime:
        """The current time (aware, UTC) from the injected clock."""
        moment = self._clock()
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise ValueError("the clock must return an aware datetime")
        return moment.astimezone(UTC)

    async def close(self, *, wait: float = CLOSE_WAIT) -> None:
        """Close the pool: after the running write transaction, waiting at most ``wait``
        seconds for it, then cutting the connections (the server rolls back what is open)."""
        if self._closed:
            return
        if self._current() is not None:
            raise RuntimeError("close() inside a transaction would wait for itself")
        self._closed = True
        try:
            async with asyncio.timeout(wait), self._lock:
                await self._pool.close()
        except TimeoutError:
            self._pool.terminate()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ---------------------------------------------------------------- transactions

    def _current(self) -> _Held | None:
        task = asyncio.current_task()
        return None if task is None else self._held.get(task)

    @property
    def in_transaction(self) -> bool:
        """Whether the current task is inside `transaction()` (or a read snapshot)."""
        return self._current() is not None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Statements that commit or roll back together; nested, a savepoint."""
        held = self._current()
        if held is not None:
            if held.mode != "write":
                raise RuntimeError("cannot start a write transaction inside a read snapshot")
            with refusals():
                async with held.conn.transaction():
                    yield
            return
        async with self._writing() as conn, self._holding(conn, "write"):
            yield

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """A read-only transaction that sees one state; inside `transaction()` it joins it."""
        if self._current() is not None:
            yield
            return
        self._check_open()
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
            self._holding(conn, "read"),
        ):
            yield

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Any]:
        """A connection in a write transaction that holds both write locks, timed for the
        observer; committed when the block ends, rolled back if it raises."""
        asked = time.perf_counter()
        async with self._lock:
            self._check_open()
            got = time.perf_counter()
            try:
                async with self._pool.acquire() as conn:
                    with refusals():
                        async with conn.transaction():
                            await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                            yield conn
            finally:
                observer = self.lock_observer
                if observer is not None:
                    observer(got - asked, time.perf_counter() - got)

    @asynccontextmanager
    async def _holding(self, conn: Any, mode: Literal["write", "read"]) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("the database is used from a task")
        self._held[task] = _Held(conn, mode)
        try:
            yield
        finally:
            del self._held[task]

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the database is closed")

    # ---------------------------------------------------------------- one-trip writes

    async def write(self, work: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """Run ``await work(conn)`` as one write transaction (a savepoint inside the caller's)."""
        held = self._current()
        if held is not None:
            if held.mode != "write":
                raise RuntimeError("cannot write inside a read snapshot")
            with refusals():
                async with held.conn.transaction():
                    return await work(PgConn(held.conn))
        async with self._writing() as conn, self._holding(conn, "write"):
            return await work(PgConn(conn))

    async def probe_commit(self) -> None:
        """A write that changes nothing but is a real commit (a WAL record the server syncs
        like a press's): the schema version written back as it is."""
        await self.execute("UPDATE schema_version SET version = version")

    # ---------------------------------------------------------------- queries

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        return await self.write(lambda conn: conn.execute(sql, params))

    async def execute_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each parameter row."""
        batch = [tuple(row) for row in rows]
        await self.write(lambda conn: conn.execute_many(sql, batch))

    async def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """All rows of a query."""
        held = self._current()
        if held is not None:
            return await PgConn(held.conn).rows(sql, params)
        self._check_open()
        async with self._pool.acquire() as conn:
            return await PgConn(conn).rows(sql, params)

    async def fetch_value(self, sql: str, params: Sequence[object] = ()) -> object:
        """The first column of the first row (None if there is no row)."""
        rows = await self.fetch_all(sql, params)
        return next(iter(rows[0].values())) if rows and rows[0] else None


def _rowcount(status: object) -> int:
    """The row count of a command tag (``UPDATE 3``, ``INSERT 0 1``); 0 for other commands."""
    last = str(status).rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def safe_url(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{head}://{user}@{host}"


async def schema_problem(url: str, *, timeout: float = 5.0) -> str | None:
    """Why the database at ``url`` cannot serve the bot (unreachable, no schema), or None:
    for the health check, which runs in another process and writes nothing."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout)
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        return f"the database {safe_url(url)} cannot be reached: {error}"
    try:
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        version = await conn.fetchval("SELECT version FROM schema_version") if exists else None
    except asyncpg.PostgresError as error:
        return f"the database {safe_url(url)} cannot be read: {error}"
    finally:
        await conn.close()
    if not version:
        return f"the database {safe_url(url)} has no schema"
    return None
