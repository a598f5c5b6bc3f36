"""Start-up as an operator meets it: what cannot work ends in one clear line and a non-zero
exit (Telegram out of reach, a database that cannot be opened or written), and what is
cosmetic does not stop the bot (a 429 on setMyCommands)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import Store
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, bot_environment, plain, running_bot
from tests.fakebot import FakeTelegramServer

FAILS_WITHIN = 15.0
"""Seconds a start that cannot work may take to end (PTB's connect timeout is 5 s)."""


async def _failed_start(tmp_path: Path, **environment: str) -> list[str]:
    """Run ``python -m bot`` until it exits; its output lines (it must fail, in time)."""
    env = {
        **bot_environment(),
        "TELEGRAM_BOT_TOKEN": "123:abc",
        "DATABASE_PATH": str(tmp_path / "bot.db"),
        **environment,
    }
    began = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), FAILS_WITHIN)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert time.monotonic() - began < FAILS_WITHIN
    assert process.returncode not in (0, None)
    return output.decode().strip().splitlines()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port  # nobody listens on it once the probe is closed


async def test_telegram_out_of_reach_is_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    lines = await _failed_start(tmp_path, TELEGRAM_API_URL=url)
    assert len(lines) == 1 and "cannot reach Telegram" in lines[0] and url in lines[0], lines


async def test_a_database_that_cannot_be_opened_is_one_line(
    server: FakeTelegramServer, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database's folder should be")
    database = blocker / "bot.db"
    lines = await _failed_start(
        tmp_path, TELEGRAM_API_URL=server.root, DATABASE_PATH=str(database)
    )
    assert len(lines) == 1 and "cannot open the database" in lines[0], lines
    assert str(database) in lines[0]


async def test_a_database_that_opens_but_cannot_be_written_is_one_line(
    server: FakeTelegramServer, tmp_path: Path
) -> None:
    """An immutable file (as a file the bot's user may only read): SQLite opens it read-only
    and answers queries, so only a write at start tells."""
    database = tmp_path / "bot.db"
    async with await Store.open(database):
        pass
    frozen = subprocess.run(["chattr", "+i", str(database)], capture_output=True, check=False)
    if frozen.returncode != 0:
        pytest.skip(f"cannot make the file immutable: {frozen.stderr.decode().strip()}")
    try:
        lines = await _failed_start(
            tmp_path, TELEGRAM_API_URL=server.root, DATABASE_PATH=str(database)
        )
    finally:
        subprocess.run(["chattr", "-i", str(database)], check=False)
    assert len(lines) == 1 and "cannot open the database" in lines[0], lines
    assert "readonly" in lines[0], lines


async def test_a_429_on_set_my_commands_does_not_stop_the_start(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    server.inject_429(calls=3, retry_after=30, methods=["setMyCommands"])
    async with running_bot(server, tmp_path / "bot.db"):
        asked = await cast.alice.send(cast.group, "/help")
        reply = await server.wait_for_message(cast.group, after=asked)
        assert reply.text == plain(TR.text(LANG, "bot-help"))
    refused = [c for c in server.world.calls if c.method == "setMyCommands" and c.status == 429]
    assert refused, "the storm did not hit setMyCommands"
