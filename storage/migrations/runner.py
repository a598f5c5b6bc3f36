"""Applying migrations: each missing script in its own ``BEGIN IMMEDIATE`` transaction
together with the ``PRAGMA user_version`` bump (see `storage.migrations`)."""

from __future__ import annotations

import contextlib
import sqlite3

import aiosqlite

from storage.errors import DatabaseTooNew, StorageError


def split_statements(script: str) -> list[str]:
    """Split an SQL script into statements (trigger bodies with inner ``;`` stay whole)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    rest = "\n".join(
        line for line in pending.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if rest:
        raise ValueError(f"incomplete SQL statement at the end of a migration: {rest[:80]!r}")
    return statements


async def user_version(conn: aiosqlite.Connection) -> int:
    """The schema version stored in the database header."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise StorageError("PRAGMA user_version returned nothing")
    value = row[0]
    if not isinstance(value, int):
        raise StorageError(f"PRAGMA user_version returned {value!r}")
    return value


async def migrate(
    conn: aiosqlite.Connection,
    path: str,
    migrations: tuple[str, ...],
) -> int:
    """Bring the database up to ``len(migrations)``; return the version it ends at.

    `conn` must be in autocommit mode (``isolation_level=None``) with no transaction open.
    Each step re-reads the version inside its write transaction, so two processes opening a
    fresh file at once apply each script exactly once.
    """
    latest = len(migrations)
    version = await user_version(conn)
    while True:
        if version > latest:
            raise DatabaseTooNew(path, version, latest)
        if version == latest:
            return version
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await user_version(conn)
            if current == version:
                for statement in split_statements(migrations[version]):
                    await conn.execute(statement)
                async with conn.execute("PRAGMA foreign_key_check") as cursor:
                    broken = await cursor.fetchall()
                if broken:
                    raise StorageError(
                        f"migration {version + 1} leaves foreign keys broken: {list(broken)[:5]}"
                    )
                # PRAGMA takes no parameters; the value is an int we computed.
                await conn.execute(f"PRAGMA user_version = {version + 1:d}")
            await conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await conn.execute("ROLLBACK")
            raise
        version = await user_version(conn)
