"""What a one-trip write sees of its database: `Conn`, the same on SQLite and PostgreSQL.

A change of a running match, a result, a batch of delivery marks are each written by one work
function (`storage.writes.commit_write`, `storage.results.store_result`, the outbox's marks)
inside one transaction. The function is written once, as a coroutine over `Conn`:

* on PostgreSQL (`storage.postgres.database`) it is awaited on the transaction's pooled
  connection, each statement a round trip to the server;
* on SQLite (`storage.database`) it runs on the connection's own thread, all of it in one
  trip from the event loop (issue 13): `SqliteConn`'s methods are coroutines that never
  suspend, so `run_to_end` drives the work function to its end without an event loop.

A work function therefore awaits nothing but its `Conn`'s methods. One that reads, checks
and writes what another writer may change first takes its lock (``lock``, `storage.locks`):
PostgreSQL's writers run side by side; SQLite's one writer needs none.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from storage.locks import Lock

T = TypeVar("T")
Row = dict[str, Any]
"""A result row: column name -> value as the database returned it."""


class Conn(Protocol):
    """The statements a work function may run, inside its transaction."""

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each parameter row."""
        ...

    async def rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """All rows of a query."""
        ...

    async def lock(self, *locks: Lock) -> None:
        """Hold ``locks`` until the transaction ends (`storage.locks`: in their order)."""
        ...


class SqliteConn:
    """`Conn` over the plain sqlite3 connection, on its thread: nothing here suspends."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self._conn.executemany(sql, rows)

    async def rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        cursor = self._conn.execute(sql, params)
        names = [column[0] for column in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    async def lock(self, *locks: Lock) -> None:
        """Nothing: the transaction began with ``BEGIN IMMEDIATE``, the one writer's lock."""


def run_to_end(work: Coroutine[Any, Any, T]) -> T:
    """Drive a work function over `SqliteConn` to its result, without an event loop."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("a write's work function awaited something other than its Conn")
