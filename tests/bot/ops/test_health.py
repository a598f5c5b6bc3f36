"""What an operator relies on: ``python -m bot.ops.health`` (the running bot's heartbeat next to
its database, and the check a container's HEALTHCHECK runs from another process), unhealthy
while the database cannot commit; SIGTERM stops the bot even on a read-only disk; and the
fields a failed update is logged with."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from telegram import Update

from bot.app import WatchedRequest, polling_problem
from bot.ops.health import Beat, Heartbeat, check, heartbeat_path, write_beat
from bot.ops.logs import describe
from storage import Store
from tests.bot.conftest import Cast, small_disk
from tests.bot.harness import bot_process, running_bot
from tests.fakebot import FakeTelegramServer

MAX_AGE = 120.0
STOPS_WITHIN = 15.0
"""Seconds a SIGTERMed bot may take to stop (Docker waits 10 s, compose 20 s)."""


async def _health(database: Path, *args: str) -> tuple[int, str]:
    """``python -m bot.ops.health`` as the HEALTHCHECK runs it: exit code and output."""
    env = {**os.environ, "DATABASE_PATH": str(database)}
    env.pop("TELEGRAM_BOT_TOKEN", None)  # the check needs no token
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.ops.health", *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, output.decode()


async def _database(path: Path) -> Path:
    async with await Store.open(path):
        pass
    return path


def _beat(age: float = 0.0, *, ok: bool = True, problem: str | None = None) -> Beat:
    return Beat(time.time() - age, 4242, "polling", ok, problem, {"queued": 0})


async def test_a_running_bot_is_healthy_and_a_stopped_one_is_not(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    async with running_bot(server, database, heartbeat_seconds=0.2):
        await cast.alice.send(cast.group, "/help")

        async def healthy() -> None:
            while not check(database, MAX_AGE).healthy:
                await asyncio.sleep(0.05)

        await asyncio.wait_for(healthy(), 10)
        code, output = await _health(database)
        assert code == 0, output
        assert output.startswith("ok: polling, heartbeat ") and output.count("\n") == 1
        beat = Beat.loads(heartbeat_path(database).read_text())
        assert beat.ok and beat.pid == os.getpid() and beat.details["queued"] == 0
        assert beat.details["updates"] >= 1
    assert not heartbeat_path(database).exists()  # removed on shutdown
    code, output = await _health(database)
    assert code == 1
    assert output.startswith("unhealthy: no heartbeat at ") and output.count("\n") == 1


async def test_a_stale_heartbeat_is_unhealthy(tmp_path: Path) -> None:
    database = await _database(tmp_path / "bot.db")
    write_beat(heartbeat_path(database), _beat(age=500))
    verdict = check(database, MAX_AGE)
    assert not verdict.healthy
    assert "500s old (limit 120s)" in verdict.line
    assert check(database, 600).healthy
    code, output = await _health(database, "--max-age", "600")
    assert code == 0, output


async def test_the_bot_s_own_problem_is_the_reason(tmp_path: Path) -> None:
    database = await _database(tmp_path / "bot.db")
    problem = "Telegram has not answered getUpdates for 95s (last error: timed out)"
    write_beat(heartbeat_path(database), _beat(ok=False, problem=problem))
    code, output = await _health(database)
    assert code == 1
    assert output == f"unhealthy: polling: {problem}\n"


async def test_the_database_must_open(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    write_beat(heartbeat_path(database), _beat())
    assert "does not exist" in check(database, MAX_AGE).line
    database.write_bytes(b"this is not a database" * 100)
    verdict = check(database, MAX_AGE)
    assert not verdict.healthy and "cannot be read" in verdict.line
    database.unlink()
    sqlite3.connect(database).close()  # a database without the bot's schema
    assert "has no schema" in check(database, MAX_AGE).line
    database.unlink()
    await _database(database)
    assert check(database, MAX_AGE).healthy


async def test_an_unreadable_heartbeat_is_unhealthy(tmp_path: Path) -> None:
    database = await _database(tmp_path / "bot.db")
    heartbeat_path(database).write_text("{half")
    verdict = check(database, MAX_AGE)
    assert not verdict.healthy and "cannot be read" in verdict.line


def test_polling_is_unhealthy_when_telegram_stops_answering() -> None:
    polls = WatchedRequest()
    assert polling_problem(polls, 10) == "Telegram has not answered getUpdates yet"
    polls.answered_at = time.monotonic()
    assert polling_problem(polls, 10) is None
    polls.answered_at = time.monotonic() - 95
    polls.last_error = "Timed out"
    problem = polling_problem(polls, 10)
    assert problem is not None
    assert problem.startswith("Telegram has not answered getUpdates for 9")
    assert problem.endswith("(last error: Timed out)")


async def test_a_failing_probe_is_a_problem_and_the_beat_goes_on(tmp_path: Path) -> None:
    path = heartbeat_path(tmp_path / "bot.db")
    calls = 0

    async def probe() -> tuple[str | None, dict[str, object]]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("boom")
        return None, {"queued": 3}

    heartbeat = Heartbeat(path, 0.05, "polling", probe)
    write_beat(path, _beat(age=1))  # left by an earlier run: removed at start
    heartbeat.start()
    assert not path.exists() or Beat.loads(path.read_text()).pid == os.getpid()
    for _ in range(200):
        if calls >= 3:
            break
        await asyncio.sleep(0.01)
    latest = heartbeat.last
    assert latest is not None and latest.ok and latest.details == {"queued": 3}
    await heartbeat.stop()
    assert not path.exists()
    failed = await Heartbeat(path, 1, "polling", _raising).beat()
    assert not failed.ok and failed.problem == "the health probe failed: RuntimeError('boom')"


async def _raising() -> tuple[str | None, dict[str, object]]:
    raise RuntimeError("boom")


@pytest.mark.parametrize("name", ["tysyacha.db", "data.sqlite"])
def test_the_heartbeat_lies_next_to_the_database(name: str, tmp_path: Path) -> None:
    assert heartbeat_path(tmp_path / name) == tmp_path / f"{name}.heartbeat"


# ---------------------------------------------------------------- what the logs say


def test_a_failed_update_is_described_by_its_fields() -> None:
    update = Update.de_json(
        {
            "update_id": 77,
            "callback_query": {
                "id": "1", "chat_instance": "5", "data": "a:3:9:1p",
                "from": {"id": 101, "is_bot": False, "first_name": "Алиса"},
                "message": {"message_id": 4, "date": 0, "chat": {"id": 101, "type": "private"}},
            },
        },
        None,
    )
    assert describe(update) == "update_id=77 kind=callback_query chat=101 user=101 data=a:3:9:1p"
    message = Update.de_json(
        {
            "update_id": 78,
            "message": {
                "message_id": 5, "date": 0, "text": "/new tumbochka",
                "chat": {"id": -100, "type": "supergroup", "title": "Четверг"},
                "from": {"id": 102, "is_bot": False, "first_name": "Борис"},
            },
        },
        None,
    )
    assert describe(message) == "update_id=78 kind=message chat=-100 user=102 text='/new tumbochka'"
    assert describe("job") == "update='job'"


async def test_health_is_unhealthy_while_the_database_cannot_commit(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """Another process holds the database's write lock (a stuck tool, a backup): queries still
    answer, but nothing commits, so every press would fail."""
    database = tmp_path / "bot.db"
    async with running_bot(server, database, heartbeat_seconds=0.2):

        async def until(healthy: bool) -> str:
            while (verdict := check(database, MAX_AGE)).healthy != healthy:
                await asyncio.sleep(0.05)
            return verdict.line

        await asyncio.wait_for(until(True), 10)
        # In a thread: the bot's transactions need the event loop to finish.
        holder = sqlite3.connect(
            database, timeout=10, isolation_level=None, check_same_thread=False
        )
        try:
            await asyncio.to_thread(holder.execute, "BEGIN IMMEDIATE")
            line = await asyncio.wait_for(until(False), 20)
            assert "commit" in line, line  # cannot commit, or not within the probe's time
            await asyncio.to_thread(holder.execute, "ROLLBACK")
            await asyncio.wait_for(until(True), 20)
        finally:
            holder.close()


async def test_sigterm_stops_the_bot_on_a_full_disk_that_refuses_the_heartbeat(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """The disk is full and the heartbeat cannot be removed (a folder took its place, as a
    read-only disk refuses the removal): a real SIGTERM still stops the bot in time."""
    with small_disk(tmp_path / "disk") as disk:
        database = disk / "bot.db"
        beat = heartbeat_path(database)
        async with bot_process(
            server, database, tmp_path / "bot.log", HEARTBEAT_SECONDS="0.2"
        ) as bot:
            await server.wait_for(beat.exists, what="a first heartbeat")
            beat.unlink()
            (beat / "in-the-way").mkdir(parents=True)
            with contextlib.suppress(OSError), (disk / "filler").open("wb") as filler:
                while True:
                    filler.write(b"\0" * 65536)
            bot.send_signal(signal.SIGTERM)
            await asyncio.wait_for(bot.wait(), STOPS_WITHIN)
        log = (tmp_path / "bot.log").read_text()
        assert "cannot remove the heartbeat" in log, log
