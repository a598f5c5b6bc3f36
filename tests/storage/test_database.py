"""The connection: pragmas, the transaction helper, and how concurrent tasks are kept apart."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest

from engine import Game
from storage import Database, NewSeat, StorageError, Store, VersionConflict
from tests.storage.helpers import GROUP, RULES_3, USERS, Clock, full_lobby


def inside(store: Store) -> bool:
    return store.db.in_transaction


async def test_open_creates_the_folders_and_sets_the_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "bot.db"
    async with await Database.open(path, busy_timeout_ms=1234) as db:
        assert path.exists()
        assert db.path == path
        assert await db.fetch_value("PRAGMA journal_mode") == "wal"
        # SQLite's NORMAL: the commits are synced by the WalSync thread (test_wal_sync).
        assert await db.fetch_value("PRAGMA synchronous") == 1
        assert await db.fetch_value("PRAGMA foreign_keys") == 1
        assert await db.fetch_value("PRAGMA busy_timeout") == 1234


async def test_synchronous_normal_can_be_chosen(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "n.db", synchronous="NORMAL") as db:
        assert await db.fetch_value("PRAGMA synchronous") == 1


async def test_bad_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        await Database.open(tmp_path / "x.db", synchronous="OFF")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="busy_timeout"):
        await Database.open(tmp_path / "x.db", busy_timeout_ms=-1)


async def test_the_clock_must_be_aware(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "c.db", clock=datetime.now) as db:
        with pytest.raises(ValueError, match="aware"):
            db.now()


async def test_a_closed_database_refuses_work(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "closed.db")
    await db.close()
    await db.close()  # closing twice is fine
    with pytest.raises(StorageError, match="closed"):
        await db.fetch_value("SELECT 1")


async def test_a_transaction_commits_every_call_in_it(store: Store) -> None:
    async with store.transaction():
        assert inside(store)
        lobby = await store.lobbies.create(
            GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
        )
        await store.lobbies.sit_user(lobby.lobby_id, USERS[0])
        await store.users.set_language(USERS[0], "en")
    assert not inside(store)
    stored = await store.lobbies.get(lobby.lobby_id)
    assert stored is not None and stored.seat_of(USERS[0]) == 0
    user = await store.users.get(USERS[0])
    assert user is not None and user.language == "en"


async def test_a_transaction_that_raises_rolls_everything_back(store: Store) -> None:
    lobby_id = await full_lobby(store)
    before_user = await store.users.get(USERS[0])
    with pytest.raises(RuntimeError, match="boom"):
        async with store.transaction():
            match = await store.matches.create_from_lobby(lobby_id)
            await store.matches.append_actions(match.match_id, 0, ["dealer p1", "shuffle 7"])
            await store.users.set_language(USERS[0], "uk")
            await store.chats.set_language(GROUP, "en")
            raise RuntimeError("boom")
    lobby = await store.lobbies.get(lobby_id)
    assert lobby is not None and lobby.status == "open"
    assert await store.matches.list_unfinished() == []
    assert await store.db.fetch_value("SELECT count(*) FROM match_log") == 0
    assert await store.db.fetch_value("SELECT count(*) FROM matches") == 0
    assert await store.users.get(USERS[0]) == before_user
    chat = await store.chats.get(GROUP)
    assert chat is not None and chat.language is None


async def test_a_failing_repository_call_inside_a_transaction_rolls_it_back(
    store: Store,
) -> None:
    lobby_id = await full_lobby(store)
    with pytest.raises(VersionConflict):
        async with store.transaction():
            match = await store.matches.create_from_lobby(lobby_id)
            await store.matches.append_actions(match.match_id, 5, ["p1 pass"])
    assert await store.matches.running_in_chat(GROUP) is None


async def test_a_nested_transaction_is_a_savepoint(store: Store) -> None:
    async with store.transaction():
        await store.users.set_language(USERS[0], "en")
        with pytest.raises(KeyError):
            async with store.transaction():
                await store.users.set_language(USERS[1], "en")
                raise KeyError("inner")
        async with store.transaction():
            await store.users.set_language(USERS[2], "uk")
    languages = [(await store.users.get(u)) for u in USERS[:3]]
    assert [u.language if u else "?" for u in languages] == ["en", None, "uk"]


async def test_another_task_never_sees_an_uncommitted_transaction(store: Store) -> None:
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with store.transaction():
                await store.users.upsert(999, first_name="Ghost")
                inside.set()
                await release.wait()
                raise RuntimeError("rolled back")

    async def reader() -> object:
        await inside.wait()
        return await store.users.get(999)

    writing = asyncio.create_task(writer())
    reading = asyncio.create_task(reader())
    await inside.wait()
    # SQLite's reader waits for the transaction to end; PostgreSQL's reads the committed state.
    await asyncio.sleep(0.05)
    release.set()
    await writing
    assert await reading is None


async def test_concurrent_appenders_never_interleave(store: Store) -> None:
    match = await store.matches.create(
        GROUP,
        game=Game.THOUSAND,
        players=3,
        rules=RULES_3,
        seats=[NewSeat.human(USERS[0]), NewSeat.human(USERS[1]), NewSeat.computer("easy")],
    )
    conflicts = 0

    async def player(name: str) -> None:
        nonlocal conflicts
        for n in range(10):
            current = await store.matches.get(match.match_id)
            assert current is not None
            await asyncio.sleep(0)
            try:
                await store.matches.append_actions(
                    match.match_id, current.version, [f"# {name} {n} a", f"# {name} {n} b"]
                )
            except VersionConflict:
                conflicts += 1

    await asyncio.gather(*(player(name) for name in "xyz"))
    log = await store.matches.read_log(match.match_id)
    final = await store.matches.get(match.match_id)
    assert final is not None and final.version == len(log) == 2 * (30 - conflicts)
    # Every append's two lines are adjacent: no other writer got in between.
    for first, second in zip(log[::2], log[1::2], strict=True):
        assert first[:-1] == second[:-1] and (first[-1], second[-1]) == ("a", "b")
    assert conflicts > 0


async def test_a_cancelled_transaction_is_rolled_back(store: Store) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with store.transaction():
            await store.users.set_language(USERS[0], "en")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    user = await store.users.get(USERS[0])
    assert user is not None and user.language is None
    async with store.transaction():  # the lock and the connection are free again
        await store.users.set_language(USERS[0], "uk")


async def test_timestamps_come_from_the_clock(store: Store, clock: Clock) -> None:
    clock.advance(3600)
    user = await store.users.set_language(USERS[0], "en")
    assert user.updated_at == clock.now
    assert user.created_at < user.updated_at


async def test_a_refused_call_inside_a_transaction_leaves_no_trace(store: Store) -> None:
    lobby_id = await full_lobby(store)
    async with store.transaction():
        match = await store.matches.create_from_lobby(lobby_id)
        with pytest.raises(VersionConflict):
            await store.matches.append_actions(match.match_id, 3, ["p1 pass"])
        version = await store.matches.append_actions(match.match_id, 0, ["dealer p1"])
    assert version == 1
    assert await store.matches.read_log(match.match_id) == ["dealer p1"]


async def test_close_inside_a_transaction_is_an_error(store: Store) -> None:
    async with store.transaction():
        with pytest.raises(RuntimeError, match="close"):
            await store.close()
