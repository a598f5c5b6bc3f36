"""PostgreSQL migrations: the same numbered steps reach the same schema as SQLite's; several
processes migrating at once apply each step once; a newer database is refused; a failing step
leaves the previous version."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from storage import LATEST_VERSION, Database, DatabaseTooNew, StorageError
from storage.migrations import MIGRATIONS
from storage.postgres.database import PgDatabase
from storage.postgres.schema import PG_MIGRATIONS
from tests.postgres import fresh_database

PG_ONLY = {("outbox", "rowid")}
"""SQLite's implicit rowid of the outbox is a real column on PostgreSQL."""


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def pg_columns(url: str) -> dict[str, list[str]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> 'schema_version' "
            "ORDER BY table_name, ordinal_position"
        )
    finally:
        await conn.close()
    columns: dict[str, list[str]] = {}
    for row in rows:
        if (row["table_name"], row["column_name"]) not in PG_ONLY:
            columns.setdefault(row["table_name"], []).append(row["column_name"])
    return columns


def sqlite_columns(path: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(path)
    try:
        tables = [t for (t,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )]
        return {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    finally:
        conn.close()


async def pg_version(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        value = await conn.fetchval("SELECT version FROM schema_version")
    finally:
        await conn.close()
    assert isinstance(value, int)
    return value


def test_each_sqlite_migration_has_its_postgresql_twin() -> None:
    assert len(PG_MIGRATIONS) == len(MIGRATIONS) == LATEST_VERSION


async def test_postgresql_reaches_the_schema_of_sqlite(pg_url: str, tmp_path: Path) -> None:
    path = tmp_path / "same.db"
    async with await Database.open(path):
        pass
    async with await PgDatabase.open(pg_url):
        pass
    assert await pg_version(pg_url) == LATEST_VERSION
    assert await pg_columns(pg_url) == sqlite_columns(path)


async def test_processes_migrating_at_once_apply_each_step_once(pg_url: str) -> None:
    # Each open is a pool of its own, as another process's would be; a step applied twice
    # would fail on its CREATE TABLE.
    opened = await asyncio.gather(*(PgDatabase.open(pg_url) for _ in range(4)))
    for db in opened:
        await db.close()
    assert await pg_version(pg_url) == LATEST_VERSION
    async with await PgDatabase.open(pg_url) as db:  # reopening changes nothing
        assert await db.fetch_value("SELECT version FROM schema_version") == LATEST_VERSION


async def test_a_newer_postgresql_database_is_refused(pg_url: str) -> None:
    async with await PgDatabase.open(pg_url, migrations=(*PG_MIGRATIONS, "CREATE TABLE x ()")):
        pass
    with pytest.raises(DatabaseTooNew, match="upgrade the bot") as caught:
        await PgDatabase.open(pg_url)
    assert (caught.value.found, caught.value.latest) == (LATEST_VERSION + 1, LATEST_VERSION)


async def test_a_failing_postgresql_step_leaves_the_previous_version(pg_url: str) -> None:
    broken = "CREATE TABLE half_done (x bigint); THIS IS NOT SQL;"
    with pytest.raises(StorageError, match=r"cannot migrate the database .*syntax error"):
        await PgDatabase.open(pg_url, migrations=(*PG_MIGRATIONS, broken))
    assert await pg_version(pg_url) == LATEST_VERSION
    assert "half_done" not in await pg_columns(pg_url)
