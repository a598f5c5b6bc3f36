"""`bot.ops.background.Background`: a task is kept until it ends, a failure is logged with the
task's name, `settled` waits for tasks that start tasks, `cancel` ends what is still running."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.ops.background import Background


async def test_settled_waits_for_a_task_started_by_a_task() -> None:
    background = Background()
    done: list[str] = []

    async def second() -> None:
        await asyncio.sleep(0.01)
        done.append("second")

    async def first() -> None:
        await asyncio.sleep(0.01)
        background.spawn(second(), "second")
        done.append("first")

    background.spawn(first(), "first")
    await background.settled()
    assert done == ["first", "second"]
    assert background.tasks() == []


async def test_a_failure_is_logged_with_the_task_name(caplog: pytest.LogCaptureFixture) -> None:
    background = Background()

    async def fail() -> None:
        raise RuntimeError("broken")

    with caplog.at_level(logging.ERROR, logger="bot.ops.background"):
        background.spawn(fail(), "posting the result of 7")
        await background.settled()
    [record] = caplog.records
    assert record.getMessage() == "posting the result of 7 failed"
    assert record.exc_info is not None and "broken" in str(record.exc_info[1])


async def test_cancel_ends_running_tasks() -> None:
    background = Background()
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def forever() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    background.spawn(forever(), "forever")
    await started.wait()
    await background.cancel()
    assert cancelled.is_set()
    assert background.tasks() == []
