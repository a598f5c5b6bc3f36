"""Migrations: an empty file reaches the latest schema, reopening changes nothing, a newer
database is refused, and a failing step leaves the previous version intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine import Game
from storage import LATEST_VERSION, ChatBusy, Database, DatabaseTooNew, Store
from storage.migrations import MIGRATIONS, split_statements
from storage.migrations.v1_schema import GAMES_SQL

TABLES = {
    "users",
    "chats",
    "lobbies",
    "lobby_seats",
    "matches",
    "match_seats",
    "match_log",
    "turn_deadlines",
}


def schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    conn.close()
    return [(str(t), str(n), str(s)) for t, n, s in rows]


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        value = conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()
    assert isinstance(value, int)
    return value


async def test_an_empty_database_migrates_to_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    async with await Database.open(path) as db:
        assert await db.fetch_value("PRAGMA user_version") == LATEST_VERSION
        assert await db.fetch_value("PRAGMA foreign_key_check") is None
        assert await db.fetch_value("PRAGMA integrity_check") == "ok"
    assert LATEST_VERSION == len(MIGRATIONS) >= 1
    assert {name for kind, name, _ in schema(path) if kind == "table"} >= TABLES


async def test_reopening_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "again.db"
    async with await Store.open(path) as store:
        await store.users.upsert(1, first_name="Kept")
    before = schema(path)
    async with await Store.open(path) as store:
        user = await store.users.get(1)
        assert user is not None and user.first_name == "Kept"
    assert schema(path) == before
    assert user_version(path) == LATEST_VERSION


async def test_a_newer_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.execute("CREATE TABLE from_the_future (x)")
    conn.close()
    with pytest.raises(DatabaseTooNew, match=r"schema version \d+.*upgrade the bot") as caught:
        await Database.open(path)
    assert caught.value.found == LATEST_VERSION + 1
    assert caught.value.latest == LATEST_VERSION
    assert user_version(path) == LATEST_VERSION + 1
    assert [n for _, n, _ in schema(path)] == ["from_the_future"]


async def test_missing_migrations_apply_in_order(tmp_path: Path) -> None:
    path = tmp_path / "steps.db"
    async with await Database.open(path, migrations=MIGRATIONS):
        pass
    extra = (
        "CREATE TABLE deal_results (\n"
        "    match_id INTEGER NOT NULL REFERENCES matches (match_id),\n"
        "    deal INTEGER NOT NULL,\n"
        "    PRIMARY KEY (match_id, deal)\n"
        ") STRICT;\n",
        "ALTER TABLE deal_results ADD COLUMN note TEXT;",
    )
    async with await Database.open(path, migrations=MIGRATIONS + extra) as db:
        assert await db.fetch_value("PRAGMA user_version") == LATEST_VERSION + 2
        columns = await db.fetch_all("PRAGMA table_info(deal_results)")
        assert [c["name"] for c in columns] == ["match_id", "deal", "note"]


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    broken = "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;\n"
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path, migrations=(*MIGRATIONS, broken))
    assert user_version(path) == LATEST_VERSION
    assert "half_done" not in [n for _, n, _ in schema(path)]
    async with await Database.open(path) as db:  # the released code still opens it
        assert await db.fetch_value("PRAGMA user_version") == LATEST_VERSION


def test_statements_are_split_with_trigger_bodies_whole() -> None:
    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x);\n"
        "CREATE TRIGGER tr AFTER INSERT ON t\n"
        "BEGIN SELECT 1; SELECT 2; END;\n"
        "-- trailing comment\n"
    )
    parts = split_statements(script)
    assert len(parts) == 2
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TABLE t (x)")
    assert len(split_statements(MIGRATIONS[0])) > len(TABLES)


async def test_the_schema_takes_exactly_the_engines_games(tmp_path: Path) -> None:
    """The released SQL keeps its literal game names; they must be the engine's `Game`."""
    engine_games = "(" + ", ".join(f"'{game}'" for game in Game) + ")"
    assert engine_games == GAMES_SQL
    path = tmp_path / "games.db"
    async with await Store.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(
            "INSERT INTO users (user_id, first_name, created_at, updated_at) "
            "VALUES (1, 'a', '', '')"
        )
        conn.execute(
            "INSERT INTO chats (chat_id, type, created_at, updated_at) "
            "VALUES (-1, 'group', '', '')"
        )
        for game in Game:
            conn.execute(
                "INSERT INTO lobbies (chat_id, creator_id, game, players, rules, status, "
                "created_at, updated_at) VALUES (-1, 1, ?, 3, 'x', 'cancelled', '', '')",
                (game,),
            )
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO lobbies (chat_id, creator_id, game, players, rules, status, "
                "created_at, updated_at) VALUES (-1, 1, 'poker', 3, 'x', 'cancelled', '', '')"
            )
    conn.close()


async def test_migration_5_puts_every_game_in_the_general_place(tmp_path: Path) -> None:
    """The games of a database from before the topics are in no topic (0), and one game per
    chat still holds for them."""
    path = tmp_path / "v4.db"
    now = "2024-05-01T00:00:00Z"
    async with await Database.open(path, migrations=MIGRATIONS[:4]) as db, db.transaction():
        await db.execute(
            "INSERT INTO chats (chat_id, type, created_at, updated_at) "
            "VALUES (-100, 'supergroup', ?, ?)", (now, now),
        )
        match_id = await db.fetch_value(
            "INSERT INTO matches (chat_id, game, players, rules, created_at, updated_at) "
            "VALUES (-100, 'thousand', 3, 'game thousand', ?, ?) RETURNING match_id", (now, now),
        )
        await db.execute_many(
            "INSERT INTO match_seats (match_id, seat, computer_level) VALUES (?, ?, 'easy')",
            [(match_id, seat) for seat in range(3)],
        )
    async with await Store.open(path) as store:
        match = await store.matches.running_in_chat(-100)
        assert match is not None and (match.match_id, match.topic_id) == (match_id, 0)
        with pytest.raises(ChatBusy):
            await store.db.execute(
                "INSERT INTO lobbies (chat_id, creator_id, game, players, rules, status, "
                "created_at, updated_at) VALUES (-100, NULL, 'thousand', 3, 'game thousand', "
                "'open', ?, ?)", (now, now),
            )
