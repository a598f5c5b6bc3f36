"""``WEBHOOK_URL`` makes the bot receive updates by webhook instead of polling."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, bot_process, plain
from tests.fakebot import FakeTelegramServer


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_updates_by_webhook(server: FakeTelegramServer, cast: Cast, tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/telegram"
    webhook = {
        "WEBHOOK_URL": url,
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": "s3cret",
    }
    async with bot_process(server, tmp_path / "bot.db", tmp_path / "bot.log", **webhook):
        assert server.webhook_url == url and server.webhook_secret == "s3cret"
        asked = await cast.alice.send(cast.group, "/help")
        reply = await server.wait_for_message(cast.group, after=asked, timeout=20)
        assert reply.text == plain(TR.text(LANG, "bot-help"))
        assert await server.post_to_webhook(secret_token="wrong") == 403
