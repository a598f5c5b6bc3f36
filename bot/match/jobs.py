"""Which bot process runs a match's turn timer and its computer moves when several share one
PostgreSQL database (issue 17), and how another takes over when that process dies.

Every process runs the timers and computer moves of the matches it changes, as a single
process does (`bot.match.autoplay`): the job is the changer's. What it holds is stored as the
match's job (`storage.jobs`), in the write of the change itself (`Jobs.statement`). In each
process `JobRunner`:

* renews the leases of its jobs every `RENEW_SECONDS` (a lease lasts `LEASE_SECONDS`);
* every `CLAIM_SECONDS`, or at once when another process lets go of its jobs (a clean stop
  notifies `storage.jobs.JOBS_CHANNEL`), claims the jobs whose lease has lapsed — their
  process died, ``kill -9`` included — and sets their matches going (`Games.nudge`: the
  match catches up with its log, its timer is armed from the stored deadline, an overdue one
  fires at once, and a computer to act thinks);
* at a clean stop, after the match service stopped its timers and moves, lets go of them.

A process whose copy of a match fell behind (another process changed the match since) drops
the copy and its timer: the job is the other's. A job that runs twice (a renewal came too
late) still moves once: the version check of the commit refuses the second move.

On SQLite (one process) none of this runs: the timers and moves are the process's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable

from bot.match.live import LiveMatch
from bot.ops.background import Background
from engine import Phase
from storage import StorageError
from storage.jobs import JOBS_CHANNEL, MatchJobs
from storage.postgres.listener import Listener
from storage.writes import Statement

log = logging.getLogger(__name__)

LEASE_SECONDS = 6.0
"""How long a job stays its process's without a renewal: a dead process's jobs are taken
over this long after its last renewal at the latest (plus a claim's period)."""
RENEW_SECONDS = 2.0
"""How often a process renews its leases (three chances before one lapses)."""
CLAIM_SECONDS = 1.0
"""How often a process looks for lapsed jobs (a notification wakes it at once)."""
CLAIM_LIMIT = 50
"""Jobs claimed in one transaction; more are claimed right after."""


def worker_name() -> str:
    """This process's name in the jobs it holds: host, pid and a random part (a pid may be
    reused after a restart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def automatic(live: LiveMatch) -> bool:
    """Whether the match's next step may come without a press: a human's turn timer runs,
    or a computer plays a seat (as `Autoplay.next` arms and moves them)."""
    if live.state.phase is Phase.MATCH_OVER:
        return False
    timed = live.deadline is not None and live.row.turn_seconds is not None
    return timed or any(place.played_by_computer for place in live.row.seats)


class Jobs:
    """The job statements of this process's changes."""

    def __init__(self, jobs: MatchJobs, worker: str) -> None:
        self.worker = worker
        self._jobs = jobs

    def statement(self, before: LiveMatch | None, after: LiveMatch) -> Statement | None:
        """For the write that leaves the match as ``after`` (from ``before``; None: a new
        match): this process holds its job, or the match has none (its next step waits for a
        press). None when neither state needs one: the match has no job row to drop (a
        change that left it without a job dropped it), so a press between humans without a
        timer writes nothing here."""
        if automatic(after):
            return self._jobs.hold(after.match_id, after.version, self.worker, LEASE_SECONDS)
        if before is not None and automatic(before):
            return self._jobs.drop(after.match_id)
        return None


class JobRunner:
    """Renews this process's leases, claims lapsed jobs, lets go of its jobs at the end."""

    def __init__(
        self, jobs: MatchJobs, worker: str, adopt: Callable[[int], Awaitable[None]]
    ) -> None:
        """Use `JobRunner.start`. ``adopt`` sets a claimed match going (`Games.nudge`)."""
        self._jobs = jobs
        self._worker = worker
        self._adopt = adopt
        self._wake = asyncio.Event()
        self._listener: Listener | None = None
        self._background = Background()

    @classmethod
    async def start(
        cls, jobs: MatchJobs, worker: str, adopt: Callable[[int], Awaitable[None]], url: str
    ) -> JobRunner:
        """Listen for released jobs on ``url`` and start renewing and claiming."""
        runner = cls(jobs, worker, adopt)
        runner._listener = await Listener.connect(url, JOBS_CHANNEL, runner._wake.set)
        runner._background.spawn(runner._renew(), "renewing the job leases")
        runner._background.spawn(runner._claim(), "claiming lapsed jobs")
        return runner

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._jobs.renew(self._worker, LEASE_SECONDS)
            except Exception:
                log.exception("the job leases cannot be renewed")

    async def _claim(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), CLAIM_SECONDS)
            self._wake.clear()
            await self._listen_again()
            try:
                if not await self._jobs.lapsed():
                    continue
                taken = await self._jobs.claim(self._worker, LEASE_SECONDS, CLAIM_LIMIT)
            except Exception:
                log.exception("the lapsed jobs cannot be claimed")
                continue
            if taken:
                log.info("took over the jobs of matches %s", taken)
            for match_id in taken:
                try:
                    await self._adopt(match_id)
                except Exception:
                    log.exception("match %s could not be set going; its job lapses", match_id)
                    with contextlib.suppress(Exception):
                        await self._jobs.lapse(match_id, self._worker)
            if len(taken) >= CLAIM_LIMIT:
                self._wake.set()

    async def _listen_again(self) -> None:
        """A listener whose connection broke listens anew (the claims poll meanwhile)."""
        listener = self._listener
        if listener is not None and not listener.alive:
            try:
                await listener.reconnect()
            except StorageError as error:
                log.warning("%s", error)

    async def close(self) -> None:
        """Stop renewing and claiming, and let go of this process's jobs (call it once the
        match service stopped its timers and moves): the others take them at once."""
        await self._background.cancel()
        try:
            released = await self._jobs.release(self._worker)
        except Exception:
            log.exception("the jobs could not be let go of: they lapse in %s s", LEASE_SECONDS)
        else:
            if released:
                log.info("let go of %d match jobs", released)
        if self._listener is not None:
            await self._listener.close()
