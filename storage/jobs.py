"""Match jobs: which bot process runs a running match's next step that nobody presses — its
turn timer or its computer's move — when several processes share a PostgreSQL database
(issue 17).

A match whose next step is automatic has one row: the process (``worker``) that holds the job
and how long its lease lasts. The process that commits a change holds the job that change
makes (`hold`, a statement in the change's own write: `storage.writes.MatchWrite.extra`) and
renews the leases of all its jobs every few seconds (`renew`); a process that dies (even
``kill -9``) stops renewing, and once a lease has lapsed any other process claims the job
(`claim`: ``FOR UPDATE SKIP LOCKED``, so two claimers never take the same row) and sets the
match going. A process that stops cleanly lets go of its jobs at once (`release`, which
notifies `JOBS_CHANNEL`). The match's version decides what is still to do: a job that is
run twice (a lease renewed too late) makes its move once, the other one is a version
conflict.

Leases are stored as UTC text. On PostgreSQL they are the server's clock
(``clock_timestamp()``), in every statement that sets or compares one, so the processes'
clocks need not agree; on SQLite (one process, which needs none of this and never writes
here in the bot) they are the store's clock. `MatchJobs.shift` moves the server's clock
forward for the tests, as their injected clock moves SQLite's.
"""

from __future__ import annotations

from datetime import timedelta

from storage._rows import to_text
from storage.backend import Backend
from storage.conn import Conn
from storage.writes import Statement

JOBS_CHANNEL = "tysyacha_jobs"
"""The notification channel on which a process that lets go of jobs tells the others."""
LAPSED = "1970-01-01T00:00:00.000000Z"
"""The lease of a job that nobody holds (released, or from before the upgrade)."""

_HOLD = (
    "INSERT INTO match_jobs (match_id, version, worker, lease_until) VALUES (?, ?, ?, {until}) "
    "ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, "
    "worker = excluded.worker, lease_until = excluded.lease_until"
)
_DROP = "DELETE FROM match_jobs WHERE match_id = ?"
_SERVER_TIME = (
    "to_char((clock_timestamp() + make_interval(secs => ?)) AT TIME ZONE 'UTC', "
    "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
)
"""PostgreSQL: the server's clock plus a number of seconds, as the stored UTC text."""


class MatchJobs:
    """Repository of the ``match_jobs`` table."""

    def __init__(self, db: Backend, *, shared: bool) -> None:
        """``shared``: PostgreSQL, whose claims lock the rows they take (``FOR UPDATE SKIP
        LOCKED``) and whose releases notify; SQLite's write transaction is the lock."""
        self._db = db
        self._shared = shared
        self.shift = 0.0
        """Seconds added to PostgreSQL's clock (the tests move time forward with it)."""

    def _at(self, seconds: float) -> tuple[str, object]:
        """A time ``seconds`` from now: the SQL for it and its parameter."""
        if self._shared:
            return _SERVER_TIME, float(seconds + self.shift)
        return "?", to_text(self._db.now() + timedelta(seconds=seconds))

    def hold(self, match_id: int, version: int, worker: str, seconds: float) -> Statement:
        """The statement (for a change's write) by which ``worker`` holds the match's job at
        ``version`` for ``seconds``."""
        until, value = self._at(seconds)
        return Statement(_HOLD.format(until=until), ((match_id, version, worker, value),))

    def drop(self, match_id: int) -> Statement:
        """The statement (for a change's write) that removes the match's job: its next step
        waits for a press."""
        return Statement(_DROP, ((match_id,),))

    async def renew(self, worker: str, seconds: float) -> int:
        """Extend the leases of all the worker's jobs to ``seconds`` from now; how many."""
        until, value = self._at(seconds)
        return await self._db.execute(
            f"UPDATE match_jobs SET lease_until = {until} WHERE worker = ?", (value, worker)
        )

    async def lapsed(self) -> bool:
        """Whether any job's lease has run out (a read; `claim` is the write)."""
        now, value = self._at(0)
        found = await self._db.fetch_value(
            f"SELECT 1 FROM match_jobs WHERE lease_until < {now} LIMIT 1", (value,)
        )
        return found is not None

    async def claim(self, worker: str, seconds: float, limit: int) -> list[int]:
        """Take up to ``limit`` jobs whose lease has run out, the longest lapsed first, for
        ``worker`` for ``seconds``; their matches' ids."""
        now, now_value = self._at(0)
        until, until_value = self._at(seconds)
        locking = " FOR UPDATE SKIP LOCKED" if self._shared else ""

        async def work(conn: Conn) -> list[int]:
            rows = await conn.rows(
                f"SELECT match_id FROM match_jobs WHERE lease_until < {now} "
                f"ORDER BY lease_until, match_id LIMIT ?{locking}",
                (now_value, limit),
            )
            taken = [int(row["match_id"]) for row in rows]
            await conn.execute_many(
                f"UPDATE match_jobs SET worker = ?, lease_until = {until} WHERE match_id = ?",
                [(worker, until_value, match_id) for match_id in taken],
            )
            return taken

        return await self._db.write(work)

    async def lapse(self, match_id: int, worker: str) -> None:
        """Let go of one job of the worker at once (it could not set the match going: another
        claim tries again)."""
        await self._db.execute(
            "UPDATE match_jobs SET worker = '', lease_until = ? WHERE match_id = ? AND worker = ?",
            (LAPSED, match_id, worker),
        )

    async def release(self, worker: str) -> int:
        """Let go of the worker's jobs (it stops): their leases lapse now, and the other
        processes are told; how many."""
        shared = self._shared

        async def work(conn: Conn) -> int:
            count = await conn.execute(
                "UPDATE match_jobs SET worker = '', lease_until = ? WHERE worker = ?",
                (LAPSED, worker),
            )
            if count and shared:
                await conn.execute("SELECT pg_notify(?, '')", (JOBS_CHANNEL,))
            return count

        return await self._db.write(work)

    async def holder(self, match_id: int) -> str | None:
        """The worker that holds the match's job (None: it has none)."""
        value = await self._db.fetch_value(
            "SELECT worker FROM match_jobs WHERE match_id = ?", (match_id,)
        )
        return value if isinstance(value, str) else None
