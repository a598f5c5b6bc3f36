"""Durable commits without the fsync inside the write lock (issue 13).

With ``synchronous = FULL`` SQLite fsyncs the WAL inside every ``COMMIT``, so the database's
one writer waits for the disk: that fsync was nearly all of a press's time holding the
database (p50 1.0 of 1.3 ms, p99 8.9 of 11.9 ms at 100 games). Instead the connection runs
with ``synchronous = NORMAL`` — in WAL mode SQLite then syncs only around checkpoints, and a
crash of the process loses nothing, since the WAL is in the operating system's page cache —
and `WalSync` fsyncs the WAL file on a thread of its own after each commit. Whoever committed
hears back only once that fsync covering their commit has returned, so a press is still on
the disk before anyone is told, as with ``FULL``; but the writer goes on with the next
transaction meanwhile, and commits that come during one fsync share the next.

Reads wait too: a caller never sees rows that a power cut could still take back. A failed
fsync is final (the kernel may have dropped the pages it could not write): every commit not
yet synced, and every later one, fails with `StorageError`.

The same thread checkpoints the WAL into the database file, every `CHECKPOINT_COMMITS`
commits, on a connection of its own: SQLite's automatic checkpoint would run inside a
``COMMIT`` of the writer (copying pages and syncing the database file there), and the writes
run on the event loop's thread (`storage.transactions`). A ``PASSIVE`` checkpoint waits for
no one and is waited for by no one: the writer goes on appending to the WAL meanwhile, and
starts it over from the beginning once a checkpoint has copied all of it.

Private to the package: `Transactions` counts the commits and waits here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from storage.errors import StorageError

Done = Callable[[BaseException | None], None]
"""Called on the sync thread once a commit is durable (None) or cannot be (the error)."""

CHECKPOINT_COMMITS = 200
"""Commits between checkpoints: SQLite's default of 1,000 pages is about 250 presses."""


class WalSync:
    """The fsync and checkpoint thread of one database's WAL file, and how far it has synced."""

    def __init__(self, database: Path) -> None:
        self._database = database
        self._wal = database.with_name(database.name + "-wal")
        self._fd: int | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointed = 0
        self._changed = threading.Condition()
        self._committed = 0
        self._synced = 0
        self._waiting: list[tuple[int, Done]] = []
        self._error: StorageError | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="wal-fsync", daemon=True)
        self._thread.start()

    @property
    def error(self) -> StorageError | None:
        """Why the log could not be synced (then nothing more may be written), or None."""
        with self._changed:
            return self._error

    def committed(self) -> int:
        """Note a commit (any thread, right after its ``COMMIT``); its number."""
        with self._changed:
            self._committed += 1
            self._changed.notify()
            return self._committed

    def latest(self) -> int:
        """The number of the last commit so far."""
        with self._changed:
            return self._committed

    def after(self, commit: int, done: Done) -> None:
        """Call ``done`` once ``commit`` is on the disk (at once if it is already)."""
        with self._changed:
            error = self._error
            if error is None and commit > self._synced:
                self._waiting.append((commit, done))
                return
        done(error)

    async def durable(self, commit: int) -> None:
        """Wait until ``commit`` is on the disk; `StorageError` if it cannot be."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def settle(error: BaseException | None) -> None:
            loop.call_soon_threadsafe(_settle, future, error)

        self.after(commit, settle)
        await future

    def close(self) -> None:
        """Sync what is committed, stop the thread and close the file."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def _run(self) -> None:
        try:
            self._serve()
        finally:
            if self._checkpointer is not None:
                self._checkpointer.close()

    def _serve(self) -> None:
        while True:
            with self._changed:
                while self._committed == self._synced and not self._closing:
                    self._changed.wait()
                if self._committed == self._synced:
                    return
                target = self._committed
            error = self._sync()
            with self._changed:
                if error is not None and self._error is None:
                    self._error = error
                self._synced = max(self._synced, target)
                failed = self._error
                ready: list[Done] = []
                later: list[tuple[int, Done]] = []
                for commit, done in self._waiting:
                    if failed is not None or commit <= self._synced:
                        ready.append(done)
                    else:
                        later.append((commit, done))
                self._waiting = later
            for done in ready:
                # A caller's loop closed meanwhile (the process stopping): the others are
                # still told.
                with contextlib.suppress(RuntimeError):
                    done(failed)
            if failed is None and target - self._checkpointed >= CHECKPOINT_COMMITS:
                self._checkpointed = target
                self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy what the WAL holds into the database file, as far as readers allow."""
        try:
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(self._database, isolation_level=None)
            self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            # The next one tries again; meanwhile the WAL only grows. What is committed is
            # durable in the WAL already.
            return

    def _sync(self) -> StorageError | None:
        try:
            if self._fd is None or os.fstat(self._fd).st_nlink == 0:
                # Opened on first use (SQLite creates the file with the first write), and
                # again if it was deleted and made anew.
                if self._fd is not None:
                    os.close(self._fd)
                    self._fd = None
                self._fd = os.open(self._wal, os.O_RDONLY)
            os.fsync(self._fd)
        except FileNotFoundError:
            return None  # no WAL: everything committed is in the database file, synced
        except OSError as error:
            return StorageError(f"the database's log {self._wal} could not be synced: {error}")
        return None


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
