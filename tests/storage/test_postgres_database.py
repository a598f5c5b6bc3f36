"""The PostgreSQL database: placeholders, refusals mapped to the storage's exceptions,
snapshots, leadership and the relay's wake-up (its locks: `tests.storage.test_postgres_locks`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage import ChatBusy, ConstraintViolation, StorageError, Store
from storage.postgres.database import PgDatabase
from storage.postgres.leader import Leadership
from storage.postgres.sql import numbered
from storage.relay import RELAY_CHANNEL
from tests.postgres import fresh_database

NOW = "2024-05-01T12:00:00.000000Z"


@pytest.fixture
async def pg() -> AsyncIterator[PgDatabase]:
    async with fresh_database() as url, await PgDatabase.open(url) as db:
        yield db


def test_placeholders_are_numbered_outside_quotes() -> None:
    assert numbered("SELECT ? , '?', \"a?\" WHERE x = ? AND y IN (?, ?)") == (
        "SELECT $1 , '?', \"a?\" WHERE x = $2 AND y IN ($3, $4)"
    )


async def test_an_unreachable_server_is_one_storage_error() -> None:
    with pytest.raises(StorageError, match=r"cannot open the database postgresql://u@127\.0\.0\.1:1"):
        await PgDatabase.open("postgresql://u:secret@127.0.0.1:1/x")


async def test_refusals_are_the_storage_exceptions(pg: PgDatabase) -> None:
    await pg.execute(
        "INSERT INTO chats (chat_id, type, created_at, updated_at) VALUES (?, 'group', ?, ?)",
        (-1, NOW, NOW),
    )
    await pg.execute(
        "INSERT INTO users (user_id, first_name, created_at, updated_at) VALUES (?, 'A', ?, ?)",
        (1, NOW, NOW),
    )
    lobby = (
        "INSERT INTO lobbies (chat_id, creator_id, game, players, rules, created_at, "
        "updated_at) VALUES (?, ?, 'thousand', 3, 'game thousand', ?, ?)"
    )
    match = (
        "INSERT INTO matches (chat_id, game, players, rules, created_at, updated_at) "
        "VALUES (?, 'thousand', 3, 'game thousand', ?, ?)"
    )
    await pg.execute(lobby, (-1, 1, NOW, NOW))
    with pytest.raises(ChatBusy):  # the unique index: one open lobby per chat
        await pg.execute(lobby, (-1, 1, NOW, NOW))
    with pytest.raises(ChatBusy):  # the trigger: no running match beside an open lobby
        await pg.execute(match, (-1, NOW, NOW))
    with pytest.raises(ConstraintViolation, match="check constraint"):
        await pg.execute("UPDATE users SET private_chat_opened = 2")
    async with pg.transaction():  # a refused savepoint leaves the transaction usable
        with pytest.raises(ConstraintViolation, match="lobby_closed"):
            async with pg.transaction():
                await pg.execute("UPDATE lobbies SET status = 'started'")
                await pg.execute("UPDATE lobbies SET status = 'open'")
        await pg.execute("UPDATE users SET first_name = 'B'")
    assert await pg.fetch_value("SELECT first_name FROM users") == "B"
    assert await pg.fetch_value("SELECT status FROM lobbies") == "open"


async def test_a_snapshot_sees_one_state(pg: PgDatabase) -> None:
    await pg.execute("CREATE TABLE t (n bigint)")
    async with pg.snapshot():
        before = await pg.fetch_value("SELECT count(*) FROM t")
        await asyncio.gather(pg.execute("INSERT INTO t VALUES (1)"))
        assert await pg.fetch_value("SELECT count(*) FROM t") == before == 0
    assert await pg.fetch_value("SELECT count(*) FROM t") == 1


def _url_of(db: PgDatabase) -> str:
    return db.url


async def test_one_process_leads_and_the_next_takes_over_when_it_dies(pg: PgDatabase) -> None:
    first = await Leadership.connect(pg.url)
    second = await Leadership.connect(pg.url)
    try:
        assert await first.try_lead()
        assert not await second.try_lead()
        waiting = asyncio.ensure_future(second.lead())
        await asyncio.sleep(0.2)
        assert not waiting.done()  # the leader is alive: the follower waits
        lost: list[bool] = []
        first.on_lost = lambda: lost.append(True)
        first._conn.terminate()  # the leader's connection dies (a kill -9)
        await asyncio.wait_for(waiting, 10)
        assert second.leading and lost == [True] and not first.leading
    finally:
        await second.close()
    third = await Leadership.connect(pg.url)
    try:
        assert await third.try_lead()  # a clean close let go of the lock
    finally:
        await third.close()


async def test_a_follower_whose_waiting_connection_breaks_waits_on_a_new_one(
    pg: PgDatabase,
) -> None:
    leader = await Leadership.connect(pg.url)
    follower = await Leadership.connect(pg.url)
    try:
        assert await leader.try_lead()
        waiting = asyncio.ensure_future(follower.lead())
        await asyncio.sleep(0.2)
        follower._conn.terminate()  # the server cut the follower's connection
        with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError)):
            await asyncio.wait_for(waiting, 10)
        await follower.reconnect()
        assert not await follower.try_lead()  # the leader still leads
        await leader.close()
        await asyncio.wait_for(follower.lead(), 10)
        assert follower.leading
        with pytest.raises(RuntimeError):
            await follower.reconnect()
    finally:
        await follower.close()


async def test_a_push_on_the_relay_wakes_the_listening_leader(pg: PgDatabase) -> None:
    store = Store(pg)
    leader = await Leadership.connect(pg.url)
    woken = asyncio.Event()
    try:
        await leader.listen(RELAY_CHANNEL, woken.set)
        await store.relay.push([{"op": "post", "n": 1}])
        await asyncio.wait_for(woken.wait(), 5)
    finally:
        await leader.close()
