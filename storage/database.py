"""The one SQLite connection of the process, its settings, and the transaction helper.

`Database.open(path)` creates the parent folders, opens the file through aiosqlite (which runs
the sqlite3 connection in its own thread, so the event loop never blocks on disk), sets the
pragmas below, applies the migrations, and returns the object the whole app shares. There is
one connection per process on purpose: SQLite has one writer at a time anyway, and one
connection makes "append the action, then tell people" a strict order.
In WAL mode a transaction is committed once its commit record is in the WAL file. When that
file is fsync'ed decides what survives what:

* without an fsync after the commit a killed process (``kill -9``, a crash of Python) loses
  nothing committed, because the WAL is already in the operating system's page cache; but a
  power loss or kernel panic may roll back the last few commits;
* with one, a committed transaction survives a power loss as well.

The product promises that an action is stored before anyone is told about it and that a crash
at any moment loses no committed action; players see every committed action at once, so
losing the last ones on a power cut would show them a table that later "un-happens". The
default, ``synchronous="FULL"``, therefore syncs every commit before its caller hears back —
not inside SQLite's ``COMMIT`` (SQLite's own ``FULL``), which would keep the one writer waiting
for the disk, but on a thread of its own right after it (`storage._wal_sync`; the connection
itself runs with SQLite's ``NORMAL``, which in WAL mode never corrupts the file). The writes
that come meanwhile go on, and share the next fsync. The same thread checkpoints the WAL into
the database file on a connection of its own (SQLite's automatic checkpoints, which run inside
a ``COMMIT`` and sync the database file, are off). ``synchronous="NORMAL"`` (tests, bulk
tools) skips the fsync and keeps SQLite's own checkpoints.

The connection is opened for use from any thread (``check_same_thread=False``): the one-trip
writes run on the event loop's thread while aiosqlite's thread, which runs everything else,
is idle (`storage.transactions`).

``busy_timeout`` makes a second process on the same file (a CLI tool, a backup) wait for the
lock instead of failing at once; ``foreign_keys`` is off by default in SQLite and must be set
per connection.

The lock, transactions and one-trip writes are those of `storage.transactions`, the base
class of `Database`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

import aiosqlite

from storage._wal_sync import WalSync
from storage.conn import Conn
from storage.errors import StorageError, from_integrity_error
from storage.migrations import MIGRATIONS, migrate
from storage.transactions import LockObserver, Transactions

Synchronous = Literal["NORMAL", "FULL"]
Row = dict[str, Any]
"""A result row: column name -> value as SQLite returned it."""

MIN_SQLITE = (3, 39, 0)
"""STRICT tables need SQLite 3.37, ``IS DISTINCT FROM`` (also PostgreSQL's) 3.39."""

_SYNCHRONOUS_CODES = {"NORMAL": 1, "FULL": 2}

__all__ = ["MIN_SQLITE", "Database", "LockObserver", "Row", "Synchronous", "utc_now"]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Database(Transactions):
    """The shared connection: opening, the clock, closing, and small query helpers (the lock
    and the transactions are those of `Transactions`)."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        path: Path,
        clock: Callable[[], datetime],
        sync: WalSync | None = None,
        busy_timeout_ms: int = 0,
    ) -> None:
        """Use `Database.open`; this only wires an already configured connection."""
        super().__init__(conn, sync, busy_timeout_ms)
        self._path = path
        self._clock = clock

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
                f"{'.'.join(map(str, MIN_SQLITE))} or newer"
            )
        if synchronous not in _SYNCHRONOUS_CODES:
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        if busy_timeout_ms < 0:
            raise ValueError("busy_timeout_ms must not be negative")
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module never opens transactions behind our back;
        # every transaction is an explicit BEGIN ... COMMIT below.
        conn = await aiosqlite.connect(file, isolation_level=None, check_same_thread=False)
        try:
            conn.row_factory = sqlite3.Row
            # The timeout first: switching to WAL needs a lock another process may hold.
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
            mode = await _pragma(conn, "journal_mode = WAL")
            if str(mode).lower() != "wal":
                raise StorageError(f"cannot switch {file} to WAL (journal_mode is {mode!r})")
            # The migrations commit with SQLite's own FULL; after them every commit is synced
            # by the WalSync thread instead.
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            if await _pragma(conn, "foreign_keys") != 1:
                raise StorageError("this SQLite build cannot enforce foreign keys")
            await migrate(conn, str(file), migrations)
            await conn.execute("PRAGMA synchronous = NORMAL")
            if synchronous == "FULL":
                await conn.execute("PRAGMA wal_autocheckpoint = 0")
        except BaseException:
            await conn.close()
            raise
        sync = WalSync(file) if synchronous == "FULL" else None
        return cls(conn, file, clock, sync, busy_timeout_ms)

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
            if self._sync is not None:
                await asyncio.to_thread(self._sync.close)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def probe_commit(self) -> None:
        """A write that changes nothing but is a real commit (a WAL frame, synced like a
        press's): the schema version written back as it is."""

        async def rewrite(conn: Conn) -> None:
            rows = await conn.rows("PRAGMA user_version")
            version = int(rows[0]["user_version"])
            await conn.execute(f"PRAGMA user_version = {version:d}")

        await self.write(rewrite)

    # ---------------------------------------------------------------- queries

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        async with self._statement() as conn:
            try:
                async with conn.execute(sql, params) as cursor:
                    return cursor.rowcount
            except sqlite3.IntegrityError as exc:
                raise from_integrity_error(exc) from exc

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
        # An INSERT ... RETURNING is a query too.
        async with self._statement(wrote=not _reads_only(sql)) as conn:
            try:
                return list(await conn.execute_fetchall(sql, params))
            except sqlite3.IntegrityError as exc:
                raise from_integrity_error(exc) from exc


def _reads_only(sql: str) -> bool:
    """A statement that cannot change anything (an ``INSERT ... RETURNING`` is a query too)."""
    return sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA")


def _as_dict(row: sqlite3.Row) -> Row:
    return {key: row[key] for key in row.keys()}  # noqa: SIM118 - Row is not a Mapping


async def _pragma(conn: aiosqlite.Connection, pragma: str) -> object:
    async with conn.execute(f"PRAGMA {pragma}") as cursor:
        row = await cursor.fetchone()
    return None if row is None else row[0]
