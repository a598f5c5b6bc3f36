"""Migration 9 (`storage.migrations.v9_shared_screens`), on SQLite and PostgreSQL: a database
of version 8 upgrades with its open lobbies on their seats screen; a lobby's open settings
screen is stored; users and chats are listed by the time they changed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from storage import LATEST_VERSION, Database, NotFound, Store, WrongStatus
from storage.migrations import MIGRATIONS
from storage.postgres.database import PgDatabase
from storage.postgres.schema import PG_MIGRATIONS
from tests.postgres import fresh_database
from tests.storage.helpers import GROUP, USERS, Clock, full_lobby

NOW = "2024-05-01T12:00:00.000000Z"


@asynccontextmanager
async def _location(kind: str, path: Path) -> AsyncIterator[str]:
    if kind == "sqlite":
        yield str(path)
        return
    async with fresh_database() as url:
        yield url


@asynccontextmanager
async def _at_version_8(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    """A database of schema version 8 holding a chat, a user and an open lobby; its
    location."""
    path = tmp_path / "v8.db"
    async with _location(kind, path) as location:
        if kind == "sqlite":
            opened: Database | PgDatabase = await Database.open(path, migrations=MIGRATIONS[:8])
        else:
            opened = await PgDatabase.open(location, migrations=PG_MIGRATIONS[:8])
        async with opened as db, db.transaction():
            await db.execute(
                "INSERT INTO chats (chat_id, type, created_at, updated_at) "
                "VALUES (?, 'supergroup', ?, ?)", (GROUP, NOW, NOW),
            )
            await db.execute(
                "INSERT INTO users (user_id, first_name, created_at, updated_at) "
                "VALUES (?, 'Ann', ?, ?)", (USERS[0], NOW, NOW),
            )
            await db.execute(
                "INSERT INTO lobbies (chat_id, creator_id, game, players, rules, created_at, "
                "updated_at) VALUES (?, ?, 'thousand', 3, 'game thousand\nplayers 3', ?, ?)",
                (GROUP, USERS[0], NOW, NOW),
            )
        yield location


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_version_8_database_upgrades_with_its_lobbies_on_their_seats(
    kind: str, tmp_path: Path
) -> None:
    async with _at_version_8(kind, tmp_path) as location, await Store.open(location) as store:
        if kind == "sqlite":
            assert await store.db.fetch_value("PRAGMA user_version") == LATEST_VERSION == 9
        else:
            version = await store.db.fetch_value("SELECT version FROM schema_version")
            assert version == LATEST_VERSION == 9
        lobby = await store.lobbies.open_in_chat(GROUP)
        assert lobby is not None and lobby.settings_open is False
        opened = await store.lobbies.set_settings_open(lobby.lobby_id, True)
        assert opened.settings_open is True
        changed = await store.users.changed_since(opened.updated_at)
        assert [user.user_id for user in changed] == []  # the user is from before


async def test_a_lobby_keeps_its_open_settings_screen_until_closed(store: Store) -> None:
    lobby_id = await full_lobby(store)
    assert (await store.lobbies.set_settings_open(lobby_id, True)).settings_open
    lobby = await store.lobbies.get(lobby_id)
    assert lobby is not None and lobby.settings_open
    assert not (await store.lobbies.set_settings_open(lobby_id, False)).settings_open
    await store.lobbies.cancel(lobby_id)
    with pytest.raises(WrongStatus):
        await store.lobbies.set_settings_open(lobby_id, True)
    with pytest.raises(NotFound):
        await store.lobbies.set_settings_open(lobby_id + 100, True)


async def test_users_and_chats_are_listed_by_the_time_they_changed(
    store: Store, clock: Clock
) -> None:
    start = clock.advance(60)
    assert await store.users.changed_since(start) == []
    assert await store.chats.changed_since(start) == []
    clock.advance(1)
    await store.users.set_language(USERS[1], "en")
    clock.advance(1)
    await store.chats.set_language(GROUP, "uk")
    await store.users.set_turn_pings(USERS[0], False)
    users = await store.users.changed_since(start)
    assert [(u.user_id, u.language, u.turn_pings) for u in users] == [
        (USERS[1], "en", True), (USERS[0], None, False)
    ]
    assert [(c.chat_id, c.language) for c in await store.chats.changed_since(start)] == [
        (GROUP, "uk")
    ]
    assert await store.users.changed_since(clock.advance(1)) == []
