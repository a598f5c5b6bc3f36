"""``GET /health`` (`bot.ops.endpoint`): 200 while the heartbeat is healthy and fresh, 503 with
the reason otherwise, 404 elsewhere; a port that is taken is one clear error."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from bot.ops.endpoint import EndpointError, HealthEndpoint, verdict
from bot.ops.health import Heartbeat


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    answer = (await reader.read()).decode()
    writer.close()
    head, _, body = answer.partition("\r\n\r\n")
    return int(head.split(" ")[1]), body.strip()


async def test_health_follows_the_heartbeat(tmp_path: Path) -> None:
    problem: list[str | None] = [None]

    async def probe() -> tuple[str | None, dict[str, Any]]:
        return problem[0], {}

    heartbeat = Heartbeat(tmp_path / "beat", 30, "webhook", probe)
    endpoint = HealthEndpoint(heartbeat, lambda: "follower")
    port = _port()
    await endpoint.start("127.0.0.1", port)
    try:
        assert await _get(port, "/health") == (503, "starting: no heartbeat yet")
        await heartbeat.beat()
        assert await _get(port, "/health") == (200, "ok: webhook, follower")
        problem[0] = "the database cannot commit"
        await heartbeat.beat()
        assert await _get(port, "/health") == (503, "unhealthy: the database cannot commit")
        assert (await _get(port, "/other"))[0] == 404
        with pytest.raises(EndpointError, match="cannot serve /health"):
            await HealthEndpoint(heartbeat, lambda: "leader").start("127.0.0.1", port)
    finally:
        await endpoint.close()
    problem[0] = None
    await heartbeat.beat()
    stuck = time.time() + 2 * heartbeat.interval + 10
    assert verdict(heartbeat, "leader", now=stuck)[0] == 503
