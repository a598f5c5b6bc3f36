"""Group commit of the one-trip writes (`Database.write`, issue 13).

A commit's fsync takes a few milliseconds, far more than SQLite's own work for a press.
Writes that arrive while the database thread is busy therefore wait in `GroupCommit` and are
committed together by one job on the thread: one ``BEGIN IMMEDIATE``, each write in a
savepoint of its own (a write that raises is rolled back alone and gets its exception), one
``COMMIT`` — one fsync for all of them. Every write is committed before its
caller hears back, as before; a failed ``COMMIT`` fails every write of the group. With a
`WalSync` the fsync runs on its thread after the ``COMMIT`` and the callers hear back once
it returned (`storage._wal_sync`), while this thread goes on with the next group.

Private to the package: `Database` queues the jobs on aiosqlite's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from storage._wal_sync import WalSync


@dataclass
class Pending:
    """One write waiting for its group: its work, its caller's future, and (once done) when
    its group's transaction began and ended on the thread (``time.perf_counter``)."""

    work: Callable[[sqlite3.Connection], Any]
    future: asyncio.Future[Any]
    started: float = 0.0
    ended: float = 0.0
    outcome: tuple[bool, Any] = field(default=(False, None))


class GroupCommit:
    """The writes waiting for the next group, and whether a job to commit them is queued."""

    def __init__(self, sync: WalSync | None = None) -> None:
        self._sync = sync
        self._guard = threading.Lock()
        self._waiting: list[Pending] = []
        self._queued = False

    def add(self, pending: Pending) -> bool:
        """Add a write to the next group; True if a job must be queued on the thread for it
        (none is queued yet, or the queued one has already taken its group)."""
        with self._guard:
            self._waiting.append(pending)
            if self._queued:
                return False
            self._queued = True
            return True

    def run(self, conn: sqlite3.Connection) -> None:
        """The job on the thread: commit every write waiting now, as one transaction."""
        with self._guard:
            group, self._waiting = self._waiting, []
            self._queued = False
        if group:
            _commit(conn, group, self._sync)


def _commit(conn: sqlite3.Connection, group: list[Pending], sync: WalSync | None) -> None:
    started = time.perf_counter()
    if sync is not None and sync.error is not None:
        # What is committed now could not be made durable: write nothing more.
        _finish(group, started, started, sync.error)
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
    except BaseException as error:  # every caller gets it
        _finish(group, started, time.perf_counter(), error)
        return
    broken: BaseException | None = None
    for number, pending in enumerate(group):
        if broken is not None:
            pending.outcome = (False, broken)
            continue
        pending.outcome = _one(conn, pending, f"write_{number}")
        if not conn.in_transaction:
            # SQLite gave up the whole transaction (an I/O error, a full disk): nothing of
            # the group is stored.
            broken = pending.outcome[1]
    if broken is None:
        try:
            conn.execute("COMMIT")
        except BaseException as error:
            broken = error
    if broken is not None:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
    ended = time.perf_counter()
    if broken is not None or sync is None:
        _finish(group, started, ended, broken)
        return
    sync.after(sync.committed(), lambda error: _finish(group, started, ended, error))


def _one(conn: sqlite3.Connection, pending: Pending, savepoint: str) -> tuple[bool, Any]:
    try:
        conn.execute(f"SAVEPOINT {savepoint}")
        result = pending.work(conn)
        conn.execute(f"RELEASE {savepoint}")
    except BaseException as error:  # the caller gets it
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"ROLLBACK TO {savepoint}")
            conn.execute(f"RELEASE {savepoint}")
        return (False, error)
    return (True, result)


def _finish(
    group: list[Pending], started: float, ended: float, broken: BaseException | None
) -> None:
    for pending in group:
        pending.started, pending.ended = started, ended
        if broken is not None and (pending.outcome[0] or pending.outcome[1] is None):
            pending.outcome = (False, broken)  # nothing of the group was stored
        future = pending.future
        future.get_loop().call_soon_threadsafe(_settle, future, pending.outcome)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():  # the caller was cancelled; the write stands or fell all the same
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
