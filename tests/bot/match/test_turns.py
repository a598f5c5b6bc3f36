"""Turn timers (`bot.match.turns`) against a recording job queue: one deadline job per match, a
reminder before the end of long turns, re-arming replaces, cancelling removes."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from telegram.ext import ApplicationBuilder

from bot.match.turns import (
    REMIND_SECONDS,
    TURN_CHOICES,
    AnyJobQueue,
    TurnTimers,
    seconds_left,
    turn_choices,
)
from storage import Deadline


@dataclass
class FakeJob:
    callback: Any
    when: datetime
    data: Any
    name: str
    removed: bool = False

    def schedule_removal(self) -> None:
        self.removed = True


@dataclass
class FakeContext:
    job: FakeJob


@dataclass
class FakeQueue:
    jobs: list[FakeJob] = field(default_factory=list)

    def run_once(
        self, callback: Any, when: datetime, data: Any, name: str, job_kwargs: Any = None
    ) -> FakeJob:
        job = FakeJob(callback, when, data, name)
        self.jobs.append(job)
        return job

    def live(self) -> list[FakeJob]:
        return [j for j in self.jobs if not j.removed]


def _deadline(match_id: int, seconds: float, version: int = 5) -> Deadline:
    at = datetime.now(UTC) + timedelta(seconds=seconds)
    return Deadline(match_id=match_id, seat=1, deadline=at, version=version)


def _timers(queue: FakeQueue, fired: list[Deadline], reminded: list[Deadline]) -> TurnTimers:
    async def fire(deadline: Deadline) -> None:
        fired.append(deadline)

    async def remind(deadline: Deadline) -> None:
        reminded.append(deadline)

    return TurnTimers(cast(AnyJobQueue, queue), fire, remind)


async def test_a_long_turn_gets_a_reminder_and_its_deadline() -> None:
    queue, fired, reminded = FakeQueue(), list[Deadline](), list[Deadline]()
    timers = _timers(queue, fired, reminded)
    deadline = _deadline(1, 60)
    timers.arm(deadline, 60)
    names = sorted(j.name for j in queue.live())
    assert names == ["turn-reminder1:1", "turn-reminder2:1", "turn-reminder:1", "turn:1"]
    reminder = next(j for j in queue.jobs if j.name == "turn-reminder:1")
    assert reminder.when == deadline.deadline - timedelta(seconds=REMIND_SECONDS)
    # The timer is redrawn every 15 s of the turn, and 10 s before its end.
    start = deadline.deadline - timedelta(seconds=60)
    refreshes = sorted(j.when - start for j in queue.live() if j.name.startswith("turn-r"))
    assert refreshes == [timedelta(seconds=s) for s in (15, 30, 50)]
    for job in queue.live():
        await job.callback(FakeContext(job))
    assert fired == [deadline] and reminded == [deadline] * 3


async def test_a_short_turn_has_no_reminder_and_an_overdue_one_fires_now() -> None:
    queue = FakeQueue()
    timers = _timers(queue, [], [])
    timers.arm(_deadline(1, 10), 10)
    assert [j.name for j in queue.live()] == ["turn:1"]
    overdue = _deadline(2, -30)
    timers.arm(overdue, 60)
    job = queue.live()[-1]
    assert job.name == "turn:2" and job.when >= overdue.deadline + timedelta(seconds=29)


async def test_arming_again_replaces_and_cancel_removes() -> None:
    queue = FakeQueue()
    timers = _timers(queue, [], [])
    timers.arm(_deadline(1, 60, version=5), 60)
    timers.arm(_deadline(1, 60, version=6), 60)
    assert {j.data[1].version for j in queue.live()} == {6}
    timers.arm(_deadline(2, 60), 60)
    timers.cancel(1)
    assert {j.data[1].match_id for j in queue.live()} == {2}
    timers.close()
    assert queue.live() == []


def test_the_lobby_timer_choices_include_the_operators_default() -> None:
    assert turn_choices(60) == TURN_CHOICES
    assert turn_choices(None) == TURN_CHOICES
    assert turn_choices(45) == (30, 45, 60, 120, 300, None)
    assert turn_choices(1) == (1, 30, 60, 120, 300, None)


def test_seconds_left_never_goes_below_zero() -> None:
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    assert seconds_left(now - timedelta(seconds=5), now) == 0
    assert seconds_left(now + timedelta(seconds=29.6), now) == 30


async def test_a_deadline_that_comes_while_the_loop_is_busy_still_fires() -> None:
    """APScheduler drops a job that runs more than its grace time late (1 s by default): a
    busy event loop (a restart replaying matches, a GC pause) must not lose a turn timer."""
    application = ApplicationBuilder().token("1:test").updater(None).build()
    queue = application.job_queue
    assert queue is not None
    fired: list[Deadline] = []

    async def fire(deadline: Deadline) -> None:
        fired.append(deadline)

    async def remind(deadline: Deadline) -> None:
        raise AssertionError("a 1 s turn has no reminder")

    await queue.start()
    try:
        timers = TurnTimers(queue, fire, remind)
        deadline = _deadline(7, 0.1)
        timers.arm(deadline, 1)
        time.sleep(1.6)  # the loop is blocked past the deadline and the default grace time
        for _ in range(50):
            if fired:
                break
            await asyncio.sleep(0.05)
    finally:
        await queue.stop()
    assert fired == [deadline]
