"""A reverse proxy in front of several webhook workers of one bot token (issue 17), for the
tests and the load benchmark: each update goes to the next worker in turn, so the presses of
one match alternate between the processes; a worker that does not answer (killed) is
skipped, as a proxy's health check would."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import AsyncIterator, Callable

import aiohttp
from aiohttp import web


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def listening(
    port: int, *, seconds: float = 30, alive: Callable[[], bool] = lambda: True
) -> bool:
    """Whether a worker serves ``port`` within ``seconds`` (False at once once not alive)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and alive():
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return True
        await asyncio.sleep(0.1)
    return False


class RoundRobin:
    """The proxy: ``running`` serves it and gives the webhook URL the bot registers."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        """The workers' ports, in turn (a test may narrow them to one)."""
        self.port = free_port()
        self.served: list[int] = []
        """The worker port each update went to, in order."""
        self._next = 0
        self._session: aiohttp.ClientSession | None = None

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        assert self._session is not None
        for _ in range(len(self.ports)):
            port = self.ports[self._next % len(self.ports)]
            self._next += 1
            url = f"http://127.0.0.1:{port}{request.path}"
            try:
                async with self._session.post(url, data=body, headers=request.headers) as resp:
                    self.served.append(port)
                    return web.Response(status=resp.status, body=await resp.read())
            except aiohttp.ClientConnectionError:
                continue
        return web.Response(status=502)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[str]:
        app = web.Application()
        app.router.add_post("/{path:.*}", self._forward)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port)
        await site.start()
        # A pooled connection to a killed worker fails at once: the next worker is tried.
        self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        try:
            yield f"http://127.0.0.1:{self.port}/hook"
        finally:
            await self._session.close()
            self._session = None
            await runner.cleanup()
