"""One change of a running match in one trip (`MatchWrite`): log lines, seats, the deadline,
a result and extra statements commit together or not at all, after the version check; the
lock it takes is reported to the observer."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

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


async def test_a_write_lets_go_of_the_lock_once_queued(sqlite_store: Store) -> None:
    """The thread runs what is queued in order: a transaction begun while a write runs
    there starts after its commit, without the lock having been held meanwhile."""
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)
    order: list[str] = []

    async def slow(conn: Conn) -> None:
        time.sleep(0.2)  # on the database's thread, not the loop's
        await conn.execute("INSERT INTO notes VALUES (?, ?)", (match_id, 1))
        order.append("written")

    db = store.db
    assert isinstance(db, Database)
    writing = asyncio.ensure_future(db.write(slow))
    await asyncio.sleep(0.05)
    assert not writing.done() and not db._lock.locked()
    async with store.db.transaction():
        order.append("begun")
        rows = await store.db.fetch_all("SELECT * FROM notes")
    await writing
    assert order == ["written", "begun"] and rows == [{"match_id": match_id, "version": 1}]


async def test_writes_waiting_for_the_thread_commit_together(sqlite_store: Store) -> None:
    """One transaction (one fsync) for the writes that queued up; one that fails is rolled
    back alone."""
    store = sqlite_store  # SQLite's lock and thread
    match_id = await _started(store)
    groups: list[tuple[float, float]] = []
    store.db.lock_observer = lambda waited, held: groups.append((waited, held))

    def note(version: int) -> Callable[[Conn], Coroutine[Any, Any, int]]:
        async def work(conn: Conn) -> int:
            if version == 2:
                raise ValueError("this one fails")
            await conn.execute("INSERT INTO notes VALUES (?, ?)", (match_id, version))
            return version

        return work

    async def slow(conn: Conn) -> None:
        time.sleep(0.2)  # on the database's thread, not the loop's

    first = asyncio.ensure_future(store.db.write(slow))
    await asyncio.sleep(0.05)  # the thread is busy: the next ones wait for it, together
    results = await asyncio.gather(
        *(store.db.write(note(v)) for v in (1, 2, 3)), return_exceptions=True
    )
    await first
    assert results[0] == 1 and isinstance(results[1], ValueError) and results[2] == 3
    rows = await store.db.fetch_all("SELECT version FROM notes ORDER BY version")
    assert rows == [{"version": 1}, {"version": 3}]
    holds = {held for _, held in groups[1:4]}
    assert len(groups) >= 4 and len(holds) == 1  # the three shared one transaction
