"""`Store`: the database and its repositories in one object, as the bot uses them.

    store = await Store.open(settings.database_url or settings.database_path)
    async with store.transaction():
        version = await store.matches.append_actions(match_id, version, ["p2 bid 110"])
        await store.deadlines.clear(match_id)
        await store.deadlines.set(match_id, 2, deadline, version=version)
    ...
    await store.close()

`Store.open` takes a SQLite file's path (the default), or a PostgreSQL server's address
(``postgresql://user:password@host:5432/db``, `storage.postgres`): the same repositories run on
either.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self

from storage.backend import Backend
from storage.chats import Chats
from storage.database import Database, Synchronous, utc_now
from storage.deadlines import Deadlines
from storage.jobs import MatchJobs
from storage.kicks import KickVotes
from storage.lobbies import Lobbies
from storage.matches import Matches
from storage.outbox import Outbox
from storage.postgres.database import PgDatabase
from storage.relay import Relay
from storage.results import Results
from storage.running import RunningMatches
from storage.users import Users

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(location: str | Path) -> bool:
    """Whether `location` names a PostgreSQL server rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


class Store:
    """One database (`Backend`) plus one instance of every repository on it."""

    def __init__(self, db: Backend) -> None:
        self.db = db
        self.shared = isinstance(db, PgDatabase)
        """Whether other processes may write the same database (PostgreSQL): a match in
        memory must catch up with its log before it changes, and one process sends."""
        self.users = Users(db)
        self.chats = Chats(db)
        self.lobbies = Lobbies(db)
        self.matches = Matches(db)
        self.deadlines = Deadlines(db)
        self.results = Results(db)
        self.outbox = Outbox(db)
        self.relay = Relay(db, notify=self.shared)
        self.running = RunningMatches(db)
        self.kick_votes = KickVotes(db)
        self.jobs = MatchJobs(db, shared=self.shared)

    @classmethod
    async def open(
        cls,
        location: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = 5000,
        clock: Callable[[], datetime] = utc_now,
    ) -> Self:
        """Open and migrate the database at `location`: a PostgreSQL address
        (`PgDatabase.open`), else a SQLite file (`Database.open`, with `synchronous` and
        `busy_timeout_ms`)."""
        if is_postgres(location):
            return cls(await PgDatabase.open(str(location), clock=clock))
        db = await Database.open(
            location, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, clock=clock
        )
        return cls(db)

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """`Backend.transaction`: the repository calls inside commit or roll back together."""
        return self.db.transaction()

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
