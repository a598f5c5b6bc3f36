"""A broken row is reported as `CorruptRow` naming the table and the key, never as a bare
KeyError or a pydantic error. The rows are broken behind the schema's back, as a bad restore
or a hand edit would."""

from __future__ import annotations

import pytest

from storage import CorruptRow, Store
from tests.storage.helpers import GROUP, USERS, full_lobby


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    """The rows are broken with SQLite's pragmas: on SQLite only (the reading is shared)."""
    return sqlite_store


async def break_schema(store: Store, *statements: str) -> None:
    """Run statements with CHECK constraints off (and triggers dropped by the caller)."""
    await store.db.execute("PRAGMA ignore_check_constraints = ON")
    try:
        for statement in statements:
            await store.db.execute(statement)
    finally:
        await store.db.execute("PRAGMA ignore_check_constraints = OFF")


async def test_an_unknown_match_status(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await break_schema(
        store,
        "DROP TRIGGER matches_status_forward",
        f"UPDATE matches SET status = 'paused' WHERE match_id = {match.match_id}",
    )
    with pytest.raises(CorruptRow, match=r"matches.*status") as caught:
        await store.matches.get(match.match_id)
    assert (caught.value.table, caught.value.key) == ("matches", match.match_id)
    with pytest.raises(CorruptRow, match="unknown status 'paused'"):
        await store.matches.append_actions(match.match_id, 0, ["p1 pass"])


async def test_an_unknown_lobby_status_and_bad_flags(store: Store) -> None:
    lobby_id = await full_lobby(store)
    await break_schema(
        store, f"UPDATE lobbies SET status = 'weird' WHERE lobby_id = {lobby_id}"
    )
    with pytest.raises(CorruptRow, match="lobbies"):
        await store.lobbies.get(lobby_id)
    await break_schema(
        store, f"UPDATE users SET private_chat_opened = 7 WHERE user_id = {USERS[0]}"
    )
    with pytest.raises(CorruptRow, match=r"users.*private_chat_opened"):
        await store.users.get(USERS[0])
    await break_schema(store, f"UPDATE chats SET type = 'forum' WHERE chat_id = {GROUP}")
    with pytest.raises(CorruptRow, match="chats"):
        await store.chats.get(GROUP)


async def test_a_log_with_missing_lines(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.matches.append_actions(match.match_id, 0, ["a 1", "a 2", "a 3"])
    await break_schema(
        store,
        "DROP TRIGGER match_log_no_delete",
        f"DELETE FROM match_log WHERE match_id = {match.match_id} AND seq = 2",
    )
    with pytest.raises(CorruptRow, match=r"version 3 but its log holds 2 lines; missing seq \[2\]"):
        await store.matches.read_log(match.match_id)


async def test_a_log_that_is_missing_entirely(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.matches.append_actions(match.match_id, 0, ["a 1", "a 2"])
    await break_schema(
        store,
        "DROP TRIGGER match_log_no_delete",
        f"DELETE FROM match_log WHERE match_id = {match.match_id}",
    )
    with pytest.raises(CorruptRow, match="version 2 but its log holds 0 lines"):
        await store.matches.read_log(match.match_id)


async def test_a_match_with_a_missing_seat(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.db.execute("PRAGMA foreign_keys = OFF")
    await store.db.execute(
        f"DELETE FROM match_seats WHERE match_id = {match.match_id} AND seat = 1"
    )
    await store.db.execute("PRAGMA foreign_keys = ON")
    with pytest.raises(CorruptRow, match=r"seats \[0, 2\]"):
        await store.matches.get(match.match_id)
    with pytest.raises(CorruptRow):
        await store.matches.list_unfinished()


async def test_a_broken_timestamp(store: Store) -> None:
    await store.db.execute(
        f"UPDATE users SET updated_at = 'yesterday' WHERE user_id = {USERS[1]}"
    )
    with pytest.raises(CorruptRow, match="updated_at"):
        await store.users.get(USERS[1])
