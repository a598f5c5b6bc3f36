"""Commits synced off the database thread (`storage._wal_sync`): nobody hears of a commit, or
reads it, before the WAL's fsync that covers it has returned; a failed fsync fails that
commit and refuses every later write."""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage import Database, StorageError, _wal_sync
from storage.conn import Conn


class _Disk:
    """``os.fsync`` of the sync thread, held until released (or failing)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.fail = False
        self.calls = 0

    def fsync(self, fd: int) -> None:
        self.calls += 1
        self.entered.set()
        self.release.wait(10)
        if self.fail:
            raise OSError(errno.EIO, "Input/output error")


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Disk]:
    held = _Disk()
    monkeypatch.setattr(os, "fsync", held.fsync)
    yield held
    held.release.set()


async def _table(db: Database) -> None:
    await db.execute("CREATE TABLE t (n INTEGER)")


async def _insert(db: Database, n: int) -> None:
    async def work(conn: Conn) -> None:
        await conn.execute("INSERT INTO t (n) VALUES (?)", (n,))

    await db.write(work)


def _stored(path: Path) -> list[int]:
    """The rows as another connection sees them (what is in the file, synced or not)."""
    with sqlite3.connect(path) as other:
        return [int(n) for (n,) in other.execute("SELECT n FROM t ORDER BY n")]


async def test_a_write_is_answered_only_after_its_fsync(tmp_path: Path, disk: _Disk) -> None:
    disk.release.set()
    async with await Database.open(tmp_path / "w.db") as db:
        await _table(db)
        disk.release.clear()
        disk.entered.clear()
        write = asyncio.create_task(_insert(db, 1))
        assert await asyncio.to_thread(disk.entered.wait, 10)
        # The row is committed (another connection sees it), but not yet on the disk.
        assert _stored(db.path) == [1]
        await asyncio.sleep(0.05)
        assert not write.done()
        read = asyncio.create_task(db.fetch_value("SELECT count(*) FROM t"))
        await asyncio.sleep(0.05)
        assert not read.done()  # a reader does not see it before the disk has it either
        disk.release.set()
        await write
        assert await read == 1


async def test_a_failed_fsync_fails_the_write_and_every_later_one(
    tmp_path: Path, disk: _Disk
) -> None:
    disk.release.set()
    async with await Database.open(tmp_path / "f.db") as db:
        await _table(db)
        disk.fail = True
        with pytest.raises(StorageError, match="could not be synced"):
            await _insert(db, 1)
        with pytest.raises(StorageError, match="could not be synced"):
            await _insert(db, 2)
        with pytest.raises(StorageError, match="could not be synced"):
            await db.fetch_value("SELECT 1")
    assert _stored(tmp_path / "f.db") == [1]  # the second write was never made


async def test_commits_that_wait_share_one_fsync(tmp_path: Path, disk: _Disk) -> None:
    disk.release.set()
    async with await Database.open(tmp_path / "s.db") as db:
        await _table(db)
        disk.release.clear()
        disk.entered.clear()
        first = asyncio.create_task(_insert(db, 1))
        assert await asyncio.to_thread(disk.entered.wait, 10)
        calls = disk.calls
        later = [asyncio.create_task(_insert(db, n)) for n in range(2, 7)]
        await asyncio.sleep(0.1)  # they commit meanwhile, all behind the held fsync
        disk.release.set()
        await asyncio.gather(first, *later)
        assert disk.calls - calls <= 2
        assert _stored(db.path) == [1, 2, 3, 4, 5, 6]


async def test_normal_does_not_sync(tmp_path: Path, disk: _Disk) -> None:
    async with await Database.open(tmp_path / "n.db", synchronous="NORMAL") as db:
        await _table(db)
        await _insert(db, 1)
    assert disk.calls == 0 and _stored(tmp_path / "n.db") == [1]


async def test_the_sync_thread_checkpoints_not_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's own checkpoints (inside a COMMIT) are off; the sync thread's keep the WAL
    short: without them it would hold every commit of the run."""
    monkeypatch.setattr(_wal_sync, "CHECKPOINT_COMMITS", 10)
    async with await Database.open(tmp_path / "c.db") as db:
        assert await db.fetch_value("PRAGMA wal_autocheckpoint") == 0
        await db.execute("CREATE TABLE t (n INTEGER, pad BLOB)")

        async def write(n: int) -> None:
            async def work(conn: Conn) -> None:
                await conn.execute("INSERT INTO t VALUES (?, zeroblob(3000))", (n,))

            await db.write(work)

        for n in range(200):
            await write(n)
            # A pause, as between presses: the WAL starts over once a checkpoint copied it all.
            await asyncio.sleep(0.005)
        page = int(str(await db.fetch_value("PRAGMA page_size")))
        wal = (tmp_path / "c.db-wal").stat().st_size
        assert wal < 200 * page, wal  # 200 commits of about 3 pages each without checkpoints
        assert await db.fetch_value("SELECT count(*) FROM t") == 200
