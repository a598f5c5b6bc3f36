"""Turn timers (design: Turns and time): the in-memory half of a stored turn deadline.

The deadline itself is stored with the action that passed the turn (``storage.deadlines``), so
it survives a restart; here it is armed as a job of PTB's ``JobQueue``, one per match. When
it fires, the game service checks the match is still at the version the deadline was armed
for — a move made meanwhile makes it stale — and lets a computer player move for the seat.
After a restart the stored deadlines are armed again; an overdue one fires at once. Among
several processes of one database, the process that holds the match's job runs its timer
(`bot.match.jobs`).

A message cannot count down by itself (an edit a second would spend Telegram's limits), so
the table and the hand show the seconds left when they are drawn, and are drawn again every
``REFRESH_SECONDS`` of a turn nobody moves in (a group's 20 edits a minute allow it: one
table edit per 15 s of waiting), and when ``REMIND_SECONDS`` are left of a longer turn: the
player sees the time run short.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from telegram.ext import CallbackContext, ExtBot, Job, JobQueue

from storage import Deadline

log = logging.getLogger(__name__)

TURN_CHOICES = (30, 60, 120, 300, None)
"""The turn timers a lobby's settings offer, in the order the button cycles them (None =
off). The operator's default (``TURN_SECONDS``) joins them when it is not one of them."""

REMIND_SECONDS = 10
"""The table is redrawn when this many seconds are left of a turn..."""
REMIND_AFTER = 20
"""... of at least this many seconds."""
REFRESH_SECONDS = 15
"""A turn's timer is redrawn this often while nobody moves."""

Fire = Callable[[Deadline], Awaitable[None]]
AnyJobQueue = JobQueue[CallbackContext[ExtBot[None], Any, Any, Any]]


def turn_choices(default: int | None) -> tuple[int | None, ...]:
    """The lobby's timer choices: ``TURN_CHOICES`` with the default in its place."""
    if default in TURN_CHOICES:
        return TURN_CHOICES
    return (*sorted({*(t for t in TURN_CHOICES if t is not None), default}), None)


def deadline_after(seconds: int) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


def seconds_left(deadline: datetime, now: datetime | None = None) -> int:
    return max(0, round((deadline - (now or datetime.now(UTC))).total_seconds()))


def reminders(deadline: datetime, turn_seconds: int, now: datetime) -> list[datetime]:
    """When a turn of ``turn_seconds`` ending at ``deadline`` is redrawn: ``REMIND_SECONDS``
    before its end (a turn of at least ``REMIND_AFTER``), and every ``REFRESH_SECONDS`` from
    its start; the moments still ahead, the last-seconds one first."""
    if turn_seconds < REMIND_AFTER:
        return []
    moments = [deadline - timedelta(seconds=REMIND_SECONDS)]
    start = deadline - timedelta(seconds=turn_seconds)
    step = REFRESH_SECONDS
    while step + REMIND_SECONDS < turn_seconds - REMIND_SECONDS / 2:
        moments.append(start + timedelta(seconds=step))
        step += REFRESH_SECONDS
    return [m for m in moments if m > now]


class TurnTimers:
    """Per match, one job at the deadline (``fire``) and, for a long turn, one a little before
    it (``remind``); arming a match's deadline replaces its previous jobs."""

    def __init__(self, job_queue: AnyJobQueue | None, fire: Fire, remind: Fire) -> None:
        self._queue = job_queue
        self._calls = {"turn": fire, "turn-reminder": remind}
        self._jobs: dict[tuple[int, str], Job[Any]] = {}

    def arm(self, deadline: Deadline, turn_seconds: int) -> None:
        self.cancel(deadline.match_id)
        queue = self._queue
        if queue is None:
            log.warning("no job queue: the turn timer of match %s is not armed", deadline.match_id)
            return
        now = datetime.now(UTC)
        self._schedule(queue, "turn", max(deadline.deadline, now), deadline)
        for index, remind_at in enumerate(reminders(deadline.deadline, turn_seconds, now)):
            self._schedule(queue, f"turn-reminder{index or ''}", remind_at, deadline)

    def cancel(self, match_id: int) -> None:
        for kind in [k for m, k in self._jobs if m == match_id]:
            job = self._jobs.pop((match_id, kind), None)
            if job is not None and not job.removed:
                # The scheduler forgets a job that ran or that it dropped when it stopped.
                with contextlib.suppress(LookupError):
                    job.schedule_removal()

    def close(self) -> None:
        for match_id, _ in list(self._jobs):
            self.cancel(match_id)

    def _schedule(self, queue: AnyJobQueue, kind: str, when: datetime, deadline: Deadline) -> None:
        self._jobs[deadline.match_id, kind] = queue.run_once(
            self._run,
            when=when,
            data=(kind, deadline),
            name=f"{kind}:{deadline.match_id}",
            # APScheduler drops a job that starts over a second late; a busy loop (a restart
            # replaying matches, a long collection) must delay a turn's end, never cancel it.
            job_kwargs={"misfire_grace_time": None},
        )

    async def _run(self, context: CallbackContext[ExtBot[None], Any, Any, Any]) -> None:
        job = context.job
        if job is None or not isinstance(job.data, tuple):
            return
        kind: str
        deadline: Deadline
        kind, deadline = job.data
        if self._jobs.get((deadline.match_id, kind)) is job:
            del self._jobs[deadline.match_id, kind]
        await self._calls["turn" if kind == "turn" else "turn-reminder"](deadline)
