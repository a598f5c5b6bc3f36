"""One change of a running match in one trip (`MatchWrite`): log lines, seats, the deadline,
a result and extra statements commit together or not at all, after the version check; the
lock it takes is reported to the observer."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from datetime import timedelta

import asyncpg
import pytest

from engine import Game
from storage import (
    Database,
    MatchResult,
    MatchWrite,
    NotFound,
    PlayerRef,
    ResultWrite,
    Statement,
    Store,
    TurnDeadline,
    VersionConflict,
    WrongStatus,
)
from storage.conn import Conn
from tests.storage.helpers import USERS, Clock, full_lobby
from tests.storage.test_matches import DEAL

NOTES = Statement("CREATE TABLE IF NOT EXISTS notes (match_id INTEGER, version INTEGER)")


async def _started(store: Store) -> int:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.matches.append_actions(match.match_id, 0, DEAL)
    await store.db.execute(NOTES.sql)
    return match.match_id


async def test_lines_seats_deadline_and_extra_rows_commit_together(
    store: Store, clock: Clock
) -> None:
    match_id = await _started(store)
    soon = clock.now + timedelta(seconds=60)
    await store.deadlines.set(match_id, 0, soon, version=5)
    await store.deadlines.set(match_id, 2, soon, version=5)
    row = await store.matches.get(match_id)
    assert row is not None
    bob = row.seats[1].model_copy(
        update={"consecutive_timeouts": 3, "replaced_by_computer": True, "computer_level": "easy"}
    )
    write = MatchWrite(
        match_id,
        5,
        ("p2 pass", "p3 pass"),
        seats=(bob,),
        deadline=TurnDeadline(1, soon),
        extra=(Statement("INSERT INTO notes VALUES (?, ?)", ((match_id, 7),)),),
    )
    assert write.new_version == 7
    assert await store.matches.commit(write) == 7
    assert (await store.matches.read_log(match_id))[-2:] == ["p2 pass", "p3 pass"]
    stored = await store.matches.get(match_id)
    assert stored is not None and stored.version == 7
    seat = stored.seats[1]
    assert (seat.consecutive_timeouts, seat.replaced_by_computer, seat.computer_level) == (
        3, True, "easy",
    )
    assert [(d.seat, d.version) for d in await store.deadlines.for_match(match_id)] == [(1, 7)]
    assert await store.db.fetch_all("SELECT * FROM notes") == [{"match_id": 1, "version": 7}]

    # Nobody's turn is timed now: every deadline goes; None leaves them alone.
    await store.matches.commit(MatchWrite(match_id, 7, deadline=TurnDeadline(None, soon)))
    assert await store.deadlines.for_match(match_id) == []
    await store.deadlines.set(match_id, 0, soon, version=7)
    await store.matches.commit(MatchWrite(match_id, 7, ("p1 pass",)))
    assert [d.seat for d in await store.deadlines.for_match(match_id)] == [0]


async def test_a_failing_part_takes_the_whole_write_back(store: Store, clock: Clock) -> None:
    match_id = await _started(store)
    soon = clock.now + timedelta(seconds=60)
    broken = Statement("INSERT INTO no_such_table VALUES (?)", ((1,),))
    with pytest.raises((sqlite3.OperationalError, asyncpg.PostgresError)):
        await store.matches.commit(
            MatchWrite(match_id, 5, ("p2 pass",), deadline=TurnDeadline(1, soon), extra=(broken,))
        )
    assert await store.matches.read_log(match_id) == DEAL
    assert await store.deadlines.for_match(match_id) == []
    row = await store.matches.get(match_id)
    assert row is not None
    ghost = row.seats[2].model_copy(update={"seat": 3})
    with pytest.raises(NotFound):
        await store.matches.commit(MatchWrite(match_id, 5, ("p2 pass",), seats=(ghost,)))
    assert await store.matches.read_log(match_id) == DEAL


async def test_the_version_check_comes_first(store: Store) -> None:
    match_id = await _started(store)
    extra = (Statement("INSERT INTO notes VALUES (?, ?)", ((match_id, 1),)),)
    with pytest.raises(VersionConflict):
        await store.matches.commit(MatchWrite(match_id, 4, ("p2 pass",), extra=extra))
    with pytest.raises(NotFound):
        await store.matches.commit(MatchWrite(999, 0, ("p2 pass",)))
    assert await store.db.fetch_value("SELECT count(*) FROM notes") == 0
    with pytest.raises(ValueError):
        MatchWrite(match_id, -1)
    with pytest.raises(ValueError):
        MatchWrite(match_id, 5, ("p2\npass",))


async def test_a_result_ends_the_match_in_the_same_write(store: Store) -> None:
    match_id = await _started(store)
    players = (PlayerRef.human(USERS[0]), PlayerRef.human(USERS[1]), PlayerRef.computer("strong"))
    result = MatchResult(
        match_id=match_id, game=Game.THOUSAND, players=players, version=6, winner=None,
        scores=(10, 20, 0), places=(2, 1, 3), settlement=None, deals=1,
    )
    seen: list[object] = []

    def rate(current: object) -> tuple[()]:
        seen.append(current)  # an abandoned match is not rated: never called
        return ()

    await store.matches.commit(
        MatchWrite(match_id, 5, ("p2 pass",), result=ResultWrite(result, rate))
    )
    row = await store.matches.get(match_id)
    assert row is not None and row.status == "abandoned" and seen == []
    entry = await store.results.result_of(match_id)
    assert entry is not None and entry.recorded
    with pytest.raises(WrongStatus):
        await store.matches.commit(MatchWrite(match_id, 6, ("p3 pass",)))


async def test_the_lock_reports_its_wait_and_hold(sqlite_store: Store) -> None:
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)
    times: list[tuple[float, float]] = []
    store.db.lock_observer = lambda waited, held: times.append((waited, held))
    await store.matches.commit(MatchWrite(match_id, 5, ("p2 pass",)))
    await store.matches.get(match_id)
    assert len(times) == 2 and all(w >= 0 and h > 0 for w, h in times)


async def test_a_write_runs_at_once_on_the_loop_thread(sqlite_store: Store) -> None:
    """BEGIN, the work and COMMIT run back to back on the loop's thread (no hand-over to the
    database thread per statement, issue 13), committed when the caller hears back."""
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)
    threads: list[threading.Thread] = []

    async def work(conn: Conn) -> int:
        threads.append(threading.current_thread())
        await conn.execute("INSERT INTO notes VALUES (?, ?)", (match_id, 1))
        return 1

    assert await store.db.write(work) == 1
    assert threads == [threading.main_thread()]
    db = store.db
    assert isinstance(db, Database)
    with sqlite3.connect(db.path) as other:
        assert other.execute("SELECT count(*) FROM notes").fetchone() == (1,)


async def test_a_lone_write_that_fails_leaves_nothing_of_itself(sqlite_store: Store) -> None:
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)

    async def half(conn: Conn) -> None:
        await conn.execute("INSERT INTO notes VALUES (?, ?)", (match_id, 1))
        raise ValueError("after the first row")

    with pytest.raises(ValueError, match="first row"):
        await store.db.write(half)
    assert not store.db.in_transaction
    assert await store.db.fetch_value("SELECT count(*) FROM notes") == 0
    await store.matches.commit(MatchWrite(match_id, 5, ("p2 pass",)))  # the next one works
    assert await store.db.fetch_value("SELECT version FROM matches") == 6


class _Gaps:
    """The longest stretch the event loop went without running this ticker (seconds)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    def stop(self) -> None:
        self._task.cancel()


async def test_a_write_waits_off_the_loop_for_another_process(sqlite_store: Store) -> None:
    """Another connection (a tool, another process) holds the write lock: the write waits
    for it on the database thread, with busy_timeout, while the loop goes on."""
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)
    db = store.db
    assert isinstance(db, Database)
    other = sqlite3.connect(db.path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    gaps = _Gaps()

    async def work(conn: Conn) -> None:
        await conn.execute("INSERT INTO notes VALUES (?, ?)", (match_id, 1))

    writing = asyncio.ensure_future(store.db.write(work))
    await asyncio.sleep(0.3)
    assert not writing.done()
    other.execute("COMMIT")
    await writing
    gaps.stop()
    other.close()
    assert gaps.longest < 0.15
    assert await store.db.fetch_value("PRAGMA busy_timeout") == 5000
    assert await store.db.fetch_value("SELECT count(*) FROM notes") == 1


SLOW = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) "
    "SELECT count(*) FROM c"
)


async def test_a_write_after_a_cancelled_read_waits_for_the_thread(sqlite_store: Store) -> None:
    """A read cancelled while its statement runs on the database thread keeps the lock until
    the thread is done with it: the next write does not block the loop on the connection."""
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)
    gaps = _Gaps()
    reading = asyncio.ensure_future(store.db.fetch_value(SLOW))
    await asyncio.sleep(0.05)
    reading.cancel()

    async def work(conn: Conn) -> None:
        await conn.execute("INSERT INTO notes VALUES (?, ?)", (match_id, 1))

    started = time.perf_counter()
    await store.db.write(work)
    waited = time.perf_counter() - started
    gaps.stop()
    with pytest.raises(asyncio.CancelledError):
        await reading
    assert waited > 0.1 and gaps.longest < 0.1
    assert await store.db.fetch_value("SELECT count(*) FROM notes") == 1
