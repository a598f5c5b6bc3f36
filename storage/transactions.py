"""The lock and the transactions of the one shared connection (`storage.database`).

Because every coroutine of the app shares that connection, statements of different tasks must
not mix inside one transaction. `Transactions` (the base of `Database`) therefore owns an
`asyncio.Lock`:

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

A read or an INSERT is one trip to the connection's thread (the rows or the rowid come back
with it), another write two (the statement, then closing its cursor): every trip waits for a
turn of the event loop to resume the caller, and under load those turns were most of the time
a transaction held the lock (issue 13: a press made about 18 trips). So the hot writes do not
use the helpers: ``await db.write(work)`` runs ``BEGIN IMMEDIATE``, ``work(conn)`` and
``COMMIT`` back to back on the event loop's own thread, under the lock, awaiting nothing —
the lock is held for SQLite's own time (about a millisecond for a press), with no hand-over
of the GIL to the database thread and back after each statement, which was the tail of the
hold at 500 games (issue 13, session 6: of the holds of 8 ms and more, the BEGIN was 18 %, the
work 50 % and the COMMIT 32 %; the collector overlapped 3 of 132). The connection is idle on
its thread meanwhile: every use of it is under the lock and awaited to its end (a holder that
leaves the lock by an exception first waits until the thread is idle). What costs a wait on
the disk stays off the loop: the fsync runs after the ``COMMIT`` on a thread of its own, and
the WAL's checkpoints on that thread's own connection (`storage._wal_sync`); every caller of
the database — a write, a transaction, a read — hears back only once what it wrote or read is
on the disk. If another process holds the database's write lock, the ``BEGIN`` does not wait
on the loop: the write goes to the connection's thread, which waits ``busy_timeout`` for it.

Inside the caller's `transaction()` a write is a savepoint of it. `work` is a coroutine
function over `storage.conn.Conn` (the same work functions run on PostgreSQL); here it gets a
`SqliteConn` and is driven to its end at once (`storage.conn.run_to_end`), so it must await
nothing but its `Conn`.

Every holder of the lock reports how long it waited for it and how long it held it to
``db.lock_observer`` if one is set (the bot puts both on the log line of the update; the load
benchmark reads them there).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, Literal, TypeVar

import aiosqlite

from storage._wal_sync import WalSync
from storage.conn import Conn, SqliteConn, run_to_end
from storage.errors import StorageError, from_integrity_error
from storage.locks import Lock

T = TypeVar("T")
LockObserver = Callable[[float, float], None]
"""Called with (seconds waited for the lock, seconds it was held) by each holder."""


class Transactions:
    """The connection's lock: transactions, read snapshots and one-trip writes of its tasks."""

    def __init__(
        self, conn: aiosqlite.Connection, sync: WalSync | None = None, busy_timeout_ms: int = 0
    ) -> None:
        self._conn = conn
        self._sync = sync
        self._busy_timeout_ms = busy_timeout_ms
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._mode: Literal["write", "read"] | None = None
        self._savepoints = 0
        self._closed = False
        self.lock_observer: LockObserver | None = None

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

    async def lock(self, *locks: Lock) -> None:
        """Nothing to take (PostgreSQL's per-match and per-chat locks, `storage.locks`): the
        write transaction holds SQLite's one write lock; it must be open."""
        if not self._owned() or self._mode != "write":
            raise RuntimeError("locks are taken inside a write transaction")

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
                await self._durable(wrote=mode == "write")
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
        if self._sync is not None and self._sync.error is not None:
            raise self._sync.error

    async def _durable(self, *, wrote: bool) -> None:
        """Wait until what was committed so far (with ``wrote``: by this caller just now) is
        on the disk, when commits are synced off the database thread (`storage._wal_sync`)."""
        sync = self._sync
        if sync is not None:
            await sync.durable(sync.committed() if wrote else sync.latest())

    @asynccontextmanager
    async def _statement(self, *, wrote: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for one statement: at once inside our transaction, else after the
        lock, and then until it (``wrote``: it committed on its own) or what it read is on
        the disk."""
        if self._owned():
            yield self._conn
            return
        async with self._held():
            self._check_open()
            yield self._conn
        await self._durable(wrote=wrote)

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[None]:
        """The lock, timed for `lock_observer`."""
        asked = time.perf_counter()
        async with self._lock:
            got = time.perf_counter()
            try:
                yield
            except BaseException:
                # A holder cancelled while its statement runs on the connection's thread must
                # not let the next holder use the connection on the loop's thread meanwhile.
                await self._thread_idle()
                raise
            finally:
                observer = self.lock_observer
                if observer is not None:
                    observer(got - asked, time.perf_counter() - got)

    async def _thread_idle(self) -> None:
        """Until what is queued on the connection's thread so far has run."""
        with contextlib.suppress(Exception):
            await asyncio.shield(self._trip(_nothing))

    # ---------------------------------------------------------------- one-trip writes

    async def write(self, work: Callable[[Conn], Coroutine[Any, Any, T]]) -> T:
        """Run ``work(conn)`` as one transaction, at once on the loop's thread under the lock.

        ``BEGIN IMMEDIATE``, `work`, ``COMMIT`` (``ROLLBACK`` if it raises) run back to back;
        the caller hears back once the commit is on the disk. Inside the caller's
        `transaction()` it becomes a savepoint of it instead, rolled back alone if `work`
        raises. Integrity errors come back as the storage's errors. `work` awaits only its
        `Conn` and must not use this object.
        """
        run = functools.partial(_run_on, work)
        raw: sqlite3.Connection = self._conn._conn
        if self._owned():
            if self._mode != "write":
                raise RuntimeError("cannot write inside a read snapshot")
            self._savepoints += 1
            try:
                return _mapped(functools.partial(_in_savepoint, run, self._savepoints), raw)
            finally:
                self._savepoints -= 1
        async with self._held():
            self._check_open()
            if not self._began_at_once(raw):
                result = await self._trip(functools.partial(_in_transaction, run, begun=False))
            else:
                result = _mapped(functools.partial(_in_transaction, run, begun=True), raw)
        await self._durable(wrote=True)
        return result

    def _began_at_once(self, raw: sqlite3.Connection) -> bool:
        """``BEGIN IMMEDIATE`` on the loop's thread if no other process holds the write lock
        (then False: waiting for it is the connection thread's job, not the loop's)."""
        raw.execute("PRAGMA busy_timeout = 0")
        try:
            raw.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                raise
            return False
        finally:
            raw.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
        return True

    async def _trip(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(conn)`` on the connection's thread."""
        # aiosqlite has no public call for "run this function on your thread"; `_execute`
        # is what its own methods use (stable since 0.17).
        raw: sqlite3.Connection = self._conn._conn
        run: Callable[..., Awaitable[T]] = self._conn._execute  # untyped in aiosqlite
        try:
            result = await run(work, raw)
        except sqlite3.IntegrityError as exc:
            raise from_integrity_error(exc) from exc
        return result


def _nothing(conn: sqlite3.Connection) -> None:
    """A trip that only waits for the thread's turn."""


def _mapped(work: Callable[[sqlite3.Connection], T], conn: sqlite3.Connection) -> T:
    try:
        return work(conn)
    except sqlite3.IntegrityError as exc:
        raise from_integrity_error(exc) from exc


def _run_on(work: Callable[[Conn], Coroutine[Any, Any, T]], conn: sqlite3.Connection) -> T:
    return run_to_end(work(SqliteConn(conn)))


def _in_transaction(
    work: Callable[[sqlite3.Connection], T], conn: sqlite3.Connection, *, begun: bool
) -> T:
    """``work`` between ``BEGIN IMMEDIATE`` (unless ``begun`` already) and ``COMMIT``; rolled
    back if it or the ``COMMIT`` raises (harmlessly failing if SQLite gave the transaction up
    itself, on a full disk or an I/O error)."""
    if not begun:
        conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    return result


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
