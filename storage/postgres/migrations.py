"""Migrating a PostgreSQL database: `PG_MIGRATIONS` applied in order, one at a time.

The version lives in the one-row table ``schema_version`` (SQLite keeps it in
``PRAGMA user_version``). Each step runs in its own transaction holding the advisory lock
`MIGRATION_LOCK`, re-reads the version under the lock, applies the script and bumps the
version: several processes opening a fresh database at once apply each script exactly once,
and one that dies half-way leaves the previous version intact (PostgreSQL's DDL is
transactional). A database migrated by newer code is refused with `DatabaseTooNew`.
"""

from __future__ import annotations

from typing import Any

from storage.errors import DatabaseTooNew, StorageError

MIGRATION_LOCK = 0x7479_7379_0000
"""The advisory lock key held while a migration step runs ("tysy" + 0)."""

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    one     boolean PRIMARY KEY DEFAULT true CHECK (one),
    version bigint  NOT NULL CHECK (version >= 0)
)
"""


async def schema_version(conn: Any) -> int:
    """The schema version of the database (0 before the first migration); the table must
    exist (`migrate` makes it first)."""
    value = await conn.fetchval("SELECT version FROM schema_version")
    if value is None:
        return 0
    if not isinstance(value, int):
        raise StorageError(f"schema_version holds {value!r}")
    return value


async def migrate(conn: Any, where: str, migrations: tuple[str, ...]) -> int:
    """Bring the database on ``conn`` (an asyncpg connection, no transaction open) up to
    ``len(migrations)``; return the version it ends at."""
    latest = len(migrations)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(_VERSION_TABLE)
    while True:
        version = await schema_version(conn)
        if version > latest:
            raise DatabaseTooNew(where, version, latest)
        if version == latest:
            return version
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            if await schema_version(conn) != version:
                continue  # another process applied this step meanwhile
            await conn.execute(migrations[version])
            await conn.execute(
                "INSERT INTO schema_version (version) VALUES ($1) "
                "ON CONFLICT (one) DO UPDATE SET version = excluded.version",
                version + 1,
            )
