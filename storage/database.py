"""The one SQLite connection of the process, its settings, and the transaction helper.

`Database.open(path)` creates the parent folders, opens the file through aiosqlite (which runs
the sqlite3 connection in its own thread, so the event loop never blocks on disk), sets the
pragmas below, applies the migrations, and returns the object the whole app shares. There is
one connection per process on purpose: SQLite has one writer at a time anyway, and one
connection makes "append the action, then tell people" a strict order.

Because every coroutine of the app shares that connection, statements of different tasks must
not mix inside one transaction. `Database` therefore owns an `asyncio.Lock`:

* ``async with db.transaction():`` takes the lock, runs ``BEGIN IMMEDIATE`` (the write lock is
  taken up front, so the transaction can never fail half-way with SQLITE_BUSY), and ends with
  ``COMMIT`` — or ``ROLLBACK`` if the block raises (including cancellation). Repository calls
  inside the block join it, so several calls are atomic together. A nested
  ``transaction()`` in the same task becomes a ``SAVEPOINT``: if the inner block raises, only
  its work is undone.
* A repository call outside any transaction takes the lock for its own statements (and runs
  them in its own transaction when it has several), so it never lands inside another task's
  open transaction nor reads that transaction's uncommitted rows.
* Do not spawn tasks that use the database from inside a transaction and wait for them: they
  would wait for the lock the transaction holds. Do not keep a transaction open while waiting
  on the network or a computer player's search.

Durability. The journal is a write-ahead log (WAL): readers never block the writer, and a
transaction is committed once its commit record is in the WAL file. ``synchronous`` decides
when that file is fsync'ed:

* ``NORMAL`` syncs only at checkpoints. A killed process (``kill -9``, a crash of Python) loses
  nothing committed, because the WAL is already in the operating system's page cache; but a
  power loss or kernel panic may roll back the last few commits.
* ``FULL`` (our default) also syncs the WAL at every commit, so a committed transaction
  survives a power loss as well.

The product promises that an action is stored before anyone is told about it and that a crash
at any moment loses no committed action; players see every committed action at once, so
losing the last ones on a power cut would show them a table that later "un-happens". We
therefore pick ``FULL``: it costs one fsync per committed action, and the bot commits at most
as fast as Telegram lets it show the results (about 22 actions a second over all games, under
its limit of 30 messages a second). Measured with the load benchmark at 100 games
(``benchmarks/README.md``), the fsync adds about 0.5 ms to a commit's median and 5 ms to its
99th percentile, and runs with ``NORMAL`` answered the players' presses no faster beyond the
noise of the machine's load. ``NORMAL`` remains available for tests or bulk tools via
``Database.open(..., synchronous="NORMAL")``.

A read or an INSERT is one trip to the connection's thread (the rows or the rowid come back
with it), another write two (the statement, then closing its cursor): every trip waits for a
turn of the event loop to resume the caller, and under load those turns were most of the time
a transaction held the lock (issue 13: a press made about 18 trips). So the hot writes do not
use the helpers: ``await db.write(work)`` runs a synchronous ``work(conn)`` on the
connection's thread between ``BEGIN IMMEDIATE`` and ``COMMIT`` in *one* trip (inside the
caller's transaction, as a savepoint), and the lock is held for SQLite's own time plus one
turn of the loop. `work` gets the plain `sqlite3.Connection`; it must not await anything nor
touch the event loop, and it runs on another thread (give it plain values, not live objects
that the loop changes meanwhile).

A one-trip write does not even keep the lock while it runs: it queues its work on the thread
under the lock and lets go, since the thread runs what is queued in order; writes that come
while the thread is busy commit together, one fsync for all (`storage._commits`). Every holder of
the lock reports how long it waited for it and how long it held it to ``db.lock_observer``
if one is set — for a one-trip write, how long it waited until its ``BEGIN`` ran on the
thread and how long the thread was in its transaction (the bot puts both on the log line of
the update; the load benchmark reads them there).

``busy_timeout`` makes a second process on the same file (a CLI tool, a backup) wait for the
lock instead of failing at once; ``foreign_keys`` is off by default in SQLite and must be set
per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import aiosqlite

from storage._commits import GroupCommit, Pending
from storage.errors import StorageError, from_integrity_error
from storage.migrations import MIGRATIONS, migrate

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]
LockObserver = Callable[[float, float], None]
"""Called with (seconds waited for the lock, seconds it was held) by each holder."""
Row = dict[str, Any]
"""A result row: column name -> value as SQLite returned it."""

MIN_SQLITE = (3, 37, 0)
"""STRICT tables need SQLite 3.37."""

_SYNCHRONOUS_CODES = {"NORMAL": 1, "FULL": 2}


def utc_now() -> datetime:
    return datetime.now(UTC)


class Database:
    """The shared connection: settings, the lock, transactions, and small query helpers."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        clock: Callable[[], datetime],
    ) -> None:
        """Use `Database.open`; this only wires an already configured connection."""
        self._conn = conn
        self._path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._mode: Literal["write", "read"] | None = None
        self._savepoints = 0
        self._closed = False
        self.lock_observer: LockObserver | None = None
        self._commits = GroupCommit()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 5000,
        clock: Callable[[], datetime] = utc_now,
        migrations: tuple[str, ...] = MIGRATIONS,
    ) -> Self:
        """Open (creating if needed) the database at `path` and migrate it to the latest schema.

        Raises `DatabaseTooNew` if the file was migrated by newer code. `clock` returns the
        current time as an aware datetime (tests inject a fixed one). `migrations` exists for
        the migration tests; the app never passes it.
        """
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StorageError(
                f"SQLite {sqlite3.sqlite_version} is too old: the storage needs "
                f"{'.'.join(map(str, MIN_SQLITE))} or newer (STRICT tables)"
            )
        if synchronous not in _SYNCHRONOUS_CODES:
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        if busy_timeout_ms < 0:
            raise ValueError("busy_timeout_ms must not be negative")
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module never opens transactions behind our back;
        # every transaction is an explicit BEGIN ... COMMIT below.
        conn = await aiosqlite.connect(file, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # The timeout first: switching to WAL needs a lock another process may hold.
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
            mode = await _pragma(conn, "journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise StorageError(f"cannot switch {file} to WAL (journal_mode is {mode!r})")
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if await _pragma(conn, "foreign_keys") != 1:
                raise StorageError("this SQLite build cannot enforce foreign keys")
            await migrate(conn, str(file), migrations)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, file, clock)

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    def now(self) -> datetime:
        """The current time (aware, UTC) from the injected clock."""
        moment = self._clock()
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise ValueError("the clock must return an aware datetime")
        return moment.astimezone(UTC)

    async def close(self) -> None:
        """Close the connection (waits for a running transaction to finish first)."""
        if self._closed:
            return
        if self._owned():
            raise RuntimeError("close() inside a transaction would wait for itself")
        async with self._lock:
            self._closed = True
            with contextlib.suppress(sqlite3.Error):
                await self._conn.execute("PRAGMA optimize")
            await self._conn.close()

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

    def _owned(self) -> bool:
        task = asyncio.current_task()
        return task is not None and self._owner is task

    @property
    def in_transaction(self) -> bool:
        """Whether the current task is inside `transaction()` (or a read snapshot)."""
        return self._owned() and self._mode is not None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Group statements atomically: ``BEGIN IMMEDIATE`` ... ``COMMIT`` or ``ROLLBACK``.

        Nested in the same task, it is a ``SAVEPOINT`` that is rolled back alone if its block
        raises. Other tasks wait until the outermost block ends.
        """
        if self._owned():
            if self._mode != "write":
                raise RuntimeError("cannot start a write transaction inside a read snapshot")
            self._savepoints += 1
            name = f"sp_{self._savepoints}"
            await self._raw(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                # If SQLite already aborted the whole transaction (disk full, I/O error) the
                # savepoint is gone; keep the original exception, the outer block rolls back.
                with contextlib.suppress(sqlite3.Error):
                    await self._raw(f"ROLLBACK TO {name}")
                    await self._raw(f"RELEASE {name}")
                raise
            else:
                await self._raw(f"RELEASE {name}")
            finally:
                self._savepoints -= 1
            return
        async with self._outermost("write", "BEGIN IMMEDIATE"):
            yield

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """A read-only transaction: the statements inside see one consistent state.

        Inside `transaction()` it simply joins it. Repositories use it for reads of several
        statements (a match and its seats); do not write inside it.
        """
        if self._owned():
            yield
            return
        async with self._outermost("read", "BEGIN DEFERRED"):
            yield

    @asynccontextmanager
    async def _outermost(self, mode: Literal["write", "read"], begin: str) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("the database is used from asyncio tasks only")
        async with self._held():
            self._check_open()
            self._owner = task
            self._mode = mode
            try:
                await self._raw(begin)
                try:
                    yield
                except BaseException:
                    await self._rollback_quietly()
                    raise
                try:
                    await self._raw("COMMIT")
                except BaseException:
                    # A failed (or cancelled) COMMIT: make sure no transaction stays open.
                    # If the COMMIT did go through, the ROLLBACK fails harmlessly.
                    await self._rollback_quietly()
                    raise
            finally:
                self._owner = None
                self._mode = None

    async def _rollback_quietly(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            await self._conn.execute("ROLLBACK")

    async def _raw(self, sql: str) -> None:
        await self._conn.execute(sql)

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the database is closed")

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for one statement: at once inside our transaction, else after the lock."""
        if self._owned():
            yield self._conn
            return
        async with self._held():
            self._check_open()
            yield self._conn

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[None]:
        """The lock, timed for `lock_observer`."""
        asked = time.perf_counter()
        async with self._lock:
            got = time.perf_counter()
            try:
                yield
            finally:
                observer = self.lock_observer
                if observer is not None:
                    observer(got - asked, time.perf_counter() - got)

    # ---------------------------------------------------------------- one-trip writes

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(conn)`` as one transaction in one trip to the database thread.

        ``BEGIN IMMEDIATE``, `work`, ``COMMIT`` (``ROLLBACK`` if it raises) run back to back
        on the connection's thread. Inside the caller's `transaction()` it becomes a
        savepoint of it instead, rolled back alone if `work` raises. Integrity errors come
        back as the storage's errors. `work` is synchronous and must not use this object.
        """
        if self._owned():
            if self._mode != "write":
                raise RuntimeError("cannot write inside a read snapshot")
            self._savepoints += 1
            try:
                return await self._trip(functools.partial(_in_savepoint, work, self._savepoints))
            finally:
                self._savepoints -= 1
        asked = time.perf_counter()
        pending = Pending(work, asyncio.get_running_loop().create_future())
        async with self._lock:
            self._check_open()
            if self._commits.add(pending):
                self._enqueue(self._commits.run)
        # The thread runs what is queued in order, so whoever takes the lock next runs after
        # this write's group: the lock is not held while it commits, nor while the loop gets
        # round to resuming us (issue 13). For the observer, the write holds the database
        # from its group's BEGIN to its COMMIT, and waited for it until then.
        try:
            result: T = await pending.future
        except sqlite3.IntegrityError as exc:
            raise from_integrity_error(exc) from exc
        finally:
            observer = self.lock_observer
            if observer is not None and pending.ended:
                observer(pending.started - asked, pending.ended - pending.started)
        return result

    def _enqueue(self, job: Callable[[sqlite3.Connection], None]) -> None:
        """Queue ``job(conn)`` on the connection's thread now, before anything queued later.

        aiosqlite's own calls queue only once awaited, which would keep the lock for a turn
        of the loop; its queue and its protocol (a future, here none, and a function) are
        those of the pinned 0.22.
        """
        raw: sqlite3.Connection = self._conn._conn
        self._conn._tx.put_nowait((None, functools.partial(job, raw)))

    async def _trip(self, work: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite has no public call for "run this function on your thread"; `_execute`
        # is what its own methods use (stable since 0.17).
        raw: sqlite3.Connection = self._conn._conn
        run: Callable[..., Awaitable[T]] = self._conn._execute  # untyped in aiosqlite
        try:
            result = await run(work, raw)
        except sqlite3.IntegrityError as exc:
            raise from_integrity_error(exc) from exc
        return result

    # ---------------------------------------------------------------- queries

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        async with self._statement() as conn:
            try:
                async with conn.execute(sql, params) as cursor:
                    return cursor.rowcount
            except sqlite3.IntegrityError as exc:
                raise from_integrity_error(exc) from exc

    async def insert(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one INSERT; return the rowid of the new row."""
        async with self._statement() as conn:
            try:
                row = await conn.execute_insert(sql, params)
            except sqlite3.IntegrityError as exc:
                raise from_integrity_error(exc) from exc
        if row is None:
            raise StorageError("the INSERT returned no rowid")
        return int(row[0])

    async def execute_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each parameter row."""
        async with self._statement() as conn:
            try:
                async with conn.executemany(sql, rows):
                    pass
            except sqlite3.IntegrityError as exc:
                raise from_integrity_error(exc) from exc

    async def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        """The first row of a query (which should return few rows: all are read), or None."""
        rows = await self._rows(sql, params)
        return _as_dict(rows[0]) if rows else None

    async def fetch_all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """All rows of a query."""
        return [_as_dict(row) for row in await self._rows(sql, params)]

    async def fetch_value(self, sql: str, params: Sequence[object] = ()) -> object:
        """The first column of the first row (None if there is no row)."""
        rows = await self._rows(sql, params)
        return rows[0][0] if rows else None

    async def _rows(self, sql: str, params: Sequence[object]) -> list[sqlite3.Row]:
        # One trip to the connection's thread, not three (execute, fetch, close).
        async with self._statement() as conn:
            return list(await conn.execute_fetchall(sql, params))


def _in_savepoint(
    work: Callable[[sqlite3.Connection], T], depth: int, conn: sqlite3.Connection
) -> T:
    name = f"sp_{depth}"
    conn.execute(f"SAVEPOINT {name}")
    try:
        result = work(conn)
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")
    return result


def rows_of(conn: sqlite3.Connection, sql: str, params: Sequence[object] = ()) -> list[Row]:
    """All rows of a query, as dicts, inside a `Database.write` work function."""
    return [_as_dict(row) for row in conn.execute(sql, params).fetchall()]


def _as_dict(row: sqlite3.Row) -> Row:
    return {key: row[key] for key in row.keys()}  # noqa: SIM118 - Row is not a Mapping


async def _pragma(conn: aiosqlite.Connection, pragma: str) -> object:
    async with conn.execute(f"PRAGMA {pragma}") as cursor:
        row = await cursor.fetchone()
    return None if row is None else row[0]
