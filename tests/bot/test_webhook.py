"""``WEBHOOK_URL`` makes the bot receive updates by webhook instead of polling: a deal is
played through it, requests without the right secret token are refused and never handled,
and the heartbeat of ``python -m bot.ops.health`` follows the webhook. Without ``WEBHOOK_SECRET``
the bot makes a secret up and registers it: there is no webhook without one."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
from pathlib import Path

from bot.ops.health import check
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, bot_process, plain
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer

FORGED_USER = 666  # the sender of the update that `post_to_webhook` forges


def _known(database: Path, user_id: int) -> bool:
    """Whether the bot stored the user (it stores the sender of every update it handles)."""
    with contextlib.closing(sqlite3.connect(database, timeout=5)) as db:
        row = db.execute("SELECT 1 FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return row is not None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_a_deal_by_webhook_and_the_secret_token_is_checked(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/telegram"
    webhook = {
        "WEBHOOK_URL": url,
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": "s3cret",
        "HEARTBEAT_SECONDS": "0.2",
    }
    database = tmp_path / "bot.db"
    async with bot_process(server, database, tmp_path / "bot.log", **webhook):
        assert server.webhook_url == url and server.webhook_secret == "s3cret"
        asked = await cast.alice.send(cast.group, "/help")
        reply = await server.wait_for_message(cast.group, after=asked, timeout=20)
        assert reply.text == plain(TR.text(LANG, "bot-help"))

        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        assert await driver.play(thousand(), stop=lambda d: d.deal_number() >= 2) is None
        title = plain(TR.text(LANG, "result-title", number=1))
        await server.wait_for_message(cast.group, after=lobby, contains=title, timeout=20)
        assert driver.presses >= 3

        assert await server.post_to_webhook(secret_token="wrong") == 403
        assert await server.post_to_webhook(secret_token=None) == 403
        await asyncio.sleep(0.5)
        assert not _known(database, FORGED_USER)
        # The same update with the right token is handled: its sender is stored.
        assert await server.post_to_webhook(secret_token="s3cret") == 200
        await server.wait_for(lambda: _known(database, FORGED_USER), what="the forged user")

        async def healthy() -> str:
            while not (verdict := check(database, 120)).healthy:
                await asyncio.sleep(0.05)
            return verdict.line

        assert (await asyncio.wait_for(healthy(), 10)).startswith("ok: webhook, ")


async def test_without_a_secret_setting_the_webhook_still_has_one(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    port = _free_port()
    webhook = {
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram",
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": "",
    }
    database = tmp_path / "bot.db"
    async with bot_process(server, database, tmp_path / "bot.log", **webhook):
        secret = server.webhook_secret
        assert secret is not None and len(secret) >= 32
        # Telegram's own deliveries carry the secret and are handled.
        asked = await cast.alice.send(cast.group, "/help")
        await server.wait_for_message(cast.group, after=asked, timeout=20)
        assert await server.post_to_webhook(secret_token=None) == 403
        assert await server.post_to_webhook(secret_token="wrong") == 403
        assert await server.post_to_webhook(secret_token=secret[:-1]) == 403
        await asyncio.sleep(0.5)
        assert not _known(database, FORGED_USER)
    async with bot_process(server, tmp_path / "again.db", tmp_path / "again.log", **webhook):
        # The first run's webhook is still registered (it was killed): wait for the new one.
        await server.wait_for(lambda: server.webhook_secret != secret, what="a new secret")
        assert server.webhook_secret is not None
