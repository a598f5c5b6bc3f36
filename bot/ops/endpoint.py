"""``GET /health`` over HTTP, for a reverse proxy in front of webhook workers (issue 17).

With ``HEALTH_PORT`` set the bot answers on that port (on ``WEBHOOK_LISTEN``) with what its
heartbeat (`bot.ops.health.Heartbeat`) found last: 200 and ``ok: <mode>, leader`` (or
``follower``) while it is healthy and fresh, 503 and the problem otherwise — no beat yet, the
last one unhealthy (Telegram or the database), or older than two heartbeat intervals (the
event loop is stuck). A proxy takes a worker out of rotation while it answers 503 or
nothing. It reads no body and writes nothing: any other path is 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from bot.ops.health import Heartbeat

log = logging.getLogger(__name__)

SLACK_SECONDS = 5.0
READ_TIMEOUT = 5.0


def verdict(heartbeat: Heartbeat, role: str, now: float | None = None) -> tuple[int, str]:
    """The HTTP status and the line to answer with."""
    beat = heartbeat.last
    if beat is None:
        return 503, "starting: no heartbeat yet"
    age = (time.time() if now is None else now) - beat.at
    if age > 2 * heartbeat.interval + SLACK_SECONDS:
        return 503, f"stuck: the last heartbeat is {age:.0f}s old"
    if not beat.ok:
        return 503, f"unhealthy: {beat.problem}"
    return 200, f"ok: {beat.mode}, {role}"


class EndpointError(Exception):
    """The health endpoint cannot listen (the port is taken)."""


class HealthEndpoint:
    """A minimal HTTP/1.1 server answering ``GET /health``."""

    def __init__(self, heartbeat: Heartbeat, role: Callable[[], str]) -> None:
        self._heartbeat = heartbeat
        self._role = role
        self._server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> None:
        """Listen; `EndpointError` if the port cannot be had."""
        try:
            self._server = await asyncio.start_server(self._answer, host, port)
        except OSError as error:
            raise EndpointError(f"cannot serve /health on {host}:{port}: {error}") from error

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(READ_TIMEOUT):
                request = await reader.readuntil(b"\r\n\r\n")
            method, _, rest = request.decode("latin-1").partition(" ")
            path = rest.split(" ", 1)[0]
            if method in ("GET", "HEAD") and path.split("?", 1)[0] == "/health":
                status, line = verdict(self._heartbeat, self._role())
            else:
                status, line = 404, "not found: GET /health"
            body = b"" if method == "HEAD" else (line + "\n").encode()
            reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}[status]
            writer.write(
                f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
            )
            await writer.drain()
        except (
            TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
            ConnectionError, UnicodeError,
        ):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
