"""The PostgreSQL database of the process: an asyncpg pool behind `storage.database`'s calls.

`PgDatabase.open("postgresql://user:password@host/db")` opens a pool, migrates the schema
(`storage.postgres.migrations`) and offers what the repositories use of `Database`:
``transaction()``, ``snapshot()``, ``write(work)``, ``execute``, ``execute_many``,
``fetch_one``, ``fetch_all``, ``fetch_value``, ``now()``, ``in_transaction`` and
``lock_observer``. The statements are the repositories' own (`storage.postgres.sql`).

The guarantees are SQLite's, without its one writer at a time:

* ``async with db.transaction():`` runs on one pooled connection of the task; nested in the
  same task it is a savepoint. Write transactions of different tasks and processes run side
  by side (READ COMMITTED): one that reads, checks and writes what another may change takes
  its lock first (``lock``, `storage.locks`: the match of a press, the chat of a lobby, the
  players of a finished match), so the version check of a press holds and no race loses an
  update, while writers of different matches never wait for each other. The locks are
  PostgreSQL's transaction-level advisory locks, released by the commit or the rollback (a
  savepoint rolled back releases those taken inside it), taken in one order so that no two
  transactions wait for each other; a lock of a lower space than one held is refused.
* ``await db.write(work)``: the one-trip write of `storage.conn` — the work function runs in
  a write transaction (a savepoint of the caller's), and the commit returns only once the
  server has it (``synchronous_commit`` is the server's: on by default, so a press is durable
  before anyone is told).
* ``snapshot()`` is a ``REPEATABLE READ READ ONLY`` transaction: the reads inside see one
  state. A read outside any transaction takes a pooled connection for one statement; a write
  outside one is its own write transaction.
* Refused writes come back as the storage's exceptions (`ChatBusy`, `ConstraintViolation`).

``lock_observer`` hears, for each write transaction, how long it waited for its pooled
connection and how long it held it (a transaction waiting for a lock holds its connection).

Do not keep a transaction open across the network or a search: it holds a connection of the
pool and its locks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import asyncpg

from storage.conn import Conn, Row
from storage.errors import StorageError
from storage.locks import Lock
from storage.postgres.migrations import migrate
from storage.postgres.schema import PG_MIGRATIONS
from storage.postgres.sql import numbered, refusals

T = TypeVar("T")
LockObserver = Callable[[float, float], None]

CLOSE_WAIT = 10.0
"""Seconds `PgDatabase.close` waits for the running transactions before it cuts them."""


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Held:
    """The task's open transaction: its connection, kind and the advisory locks it holds."""

    conn: Any  # asyncpg.Connection (asyncpg ships no types)
    mode: Literal["write", "read"]
    locks: set[Lock] = field(default_factory=set)

    async def lock(self, locks: tuple[Lock, ...]) -> None:
        """Take those of ``locks`` not held yet, in their order (`storage.locks`)."""
        if self.mode != "write":
            raise RuntimeError("locks are taken inside a write transaction")
        wanted = sorted(set(locks) - self.locks)
        if not wanted:
            return
        top = max(self.locks, default=None)
        if top is not None and wanted[0].space < top.space:
            raise RuntimeError(
                f"lock {wanted[0]} after {top}: a transaction takes its locks in one order"
            )
        for lock in wanted:
            await self.conn.execute(
                "SELECT pg_advisory_xact_lock($1, $2)", lock.class_id, lock.key
            )
            self.locks.add(lock)

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        """A savepoint of the transaction; rolled back, it releases the locks taken inside."""
        before = set(self.locks)
        try:
            with refusals():
                async with self.conn.transaction():
                    yield
        except BaseException:
            self.locks = before
            raise


class PgConn:
    """`storage.conn.Conn` over an asyncpg connection inside its transaction."""

    def __init__(self, held: _Held) -> None:
        self._held = held
        self._conn = held.conn

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

    async def lock(self, *locks: Lock) -> None:
        await self._held.lock(locks)


class PgDatabase:
    """The pool, transactions and their locks, and the query helpers of `Database`."""

    def __init__(self, pool: Any, url: str, clock: Callable[[], datetime]) -> None:
        """Use `PgDatabase.open`."""
        self._pool = pool
        self._url = url
        self._clock = clock
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
        """Close the pool: after the running transactions, waiting at most ``wait`` seconds
        for them, then cutting the connections (the server rolls back what is open)."""
        if self._closed:
            return
        if self._current() is not None:
            raise RuntimeError("close() inside a transaction would wait for itself")
        self._closed = True
        try:
            async with asyncio.timeout(wait):
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
            async with held.savepoint():
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

    async def lock(self, *locks: Lock) -> None:
        """Hold ``locks`` until the current write transaction ends (`storage.locks`)."""
        held = self._current()
        if held is None:
            raise RuntimeError("locks are taken inside a write transaction")
        await held.lock(locks)

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Any]:
        """A pooled connection in a write transaction, timed for the observer; committed
        when the block ends, rolled back if it raises."""
        self._check_open()
        asked = time.perf_counter()
        async with self._pool.acquire() as conn:
            got = time.perf_counter()
            try:
                with refusals():
                    async with conn.transaction():
                        yield conn
            finally:
                observer = self.lock_observer
                if observer is not None:
                    observer(got - asked, time.perf_counter() - got)

    @asynccontextmanager
    async def _holding(self, conn: Any, mode: Literal["write", "read"]) -> AsyncIterator[_Held]:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("the database is used from a task")
        held = _Held(conn, mode)
        self._held[task] = held
        try:
            yield held
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
            async with held.savepoint():
                return await work(PgConn(held))
        async with self._writing() as conn, self._holding(conn, "write") as opened:
            return await work(PgConn(opened))

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
            return await PgConn(held).rows(sql, params)
        self._check_open()
        async with self._pool.acquire() as conn:
            return await PgConn(_Held(conn, "read")).rows(sql, params)

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
