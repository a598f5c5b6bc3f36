"""Webhook mode: POST updates to the bot's URL with the secret-token header, retrying failures.

Updates of one chat are delivered one after another (in update_id order); different chats go
in parallel over up to `max_connections` workers, like Telegram's delivery.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass

import aiohttp

from .state import now_ts
from .updates import PendingUpdate, is_allowed

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass(frozen=True)
class WebhookAttempt:
    """One POST of an update to the webhook: HTTP status, or 0 with an error text."""

    update_id: int
    status: int
    error: str | None


class WebhookDelivery:
    """Delivery state of the webhook (inactive while `url` is None)."""

    def __init__(
        self,
        on_change: Callable[[], None],
        *,
        retry_delay: float = 0.05,
        max_retry_delay: float = 1.0,
        request_timeout: float = 30.0,
    ) -> None:
        self.url: str | None = None
        self.secret_token: str | None = None
        self.max_connections = 40
        self.allowed: frozenset[str] | None = None
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self.attempts: list[WebhookAttempt] = []
        self.session: aiohttp.ClientSession | None = None
        self._on_change = on_change
        self._retry_delay = retry_delay
        self._max_retry_delay = max_retry_delay
        self._timeout = aiohttp.ClientTimeout(total=request_timeout)
        self._queues: list[asyncio.Queue[PendingUpdate]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._inflight: dict[int, PendingUpdate] = {}

    @property
    def active(self) -> bool:
        return self.url is not None

    @property
    def pending_count(self) -> int:
        return sum(q.qsize() for q in self._queues) + len(self._inflight)

    def activate(
        self,
        url: str,
        secret_token: str | None,
        max_connections: int,
        allowed: frozenset[str] | None,
        backlog: list[PendingUpdate],
    ) -> None:
        """Start delivering (or just retarget if already active) and queue `backlog`."""
        self.url, self.secret_token, self.allowed = url, secret_token, allowed
        if not self._tasks:
            self.max_connections = max(1, min(100, max_connections))
            self._queues = [asyncio.Queue() for _ in range(self.max_connections)]
            self._tasks = [
                asyncio.create_task(self._worker(i), name=f"fakebot-webhook-{i}")
                for i in range(self.max_connections)
            ]
        for update in backlog:
            self.submit(update)

    async def deactivate(self) -> list[PendingUpdate]:
        """Stop delivering; returns what was not delivered yet, in update_id order."""
        self.url = None
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        left = list(self._inflight.values())
        for queue in self._queues:
            while not queue.empty():
                left.append(queue.get_nowait())
        self._inflight.clear()
        self._queues = []
        return sorted(left, key=lambda u: u.update_id)

    def submit(self, update: PendingUpdate) -> None:
        if not is_allowed(update.kind, self.allowed):
            return
        shard = hash(update.chat_id or 0) % len(self._queues)
        self._queues[shard].put_nowait(update)

    async def _worker(self, shard: int) -> None:
        queue = self._queues[shard]
        while True:
            update = await queue.get()
            self._inflight[shard] = update
            delay = self._retry_delay
            while not await self._post(update):
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._max_retry_delay)
            del self._inflight[shard]
            self._on_change()

    async def _post(self, update: PendingUpdate) -> bool:
        assert self.session is not None, "webhook delivery needs the server to be started"
        url = self.url
        if url is None:
            return False
        headers = {"Content-Type": "application/json"}
        if self.secret_token:
            headers[SECRET_HEADER] = self.secret_token
        body = json.dumps(update.to_api(), ensure_ascii=False).encode("utf-8")
        try:
            async with self.session.post(
                url, data=body, headers=headers, timeout=self._timeout
            ) as response:
                await response.read()
                status = response.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            self._fail(update, 0, f"Connection failed: {exc!r}")
            return False
        if 200 <= status < 300:
            self.attempts.append(WebhookAttempt(update.update_id, status, None))
            return True
        self._fail(update, status, f"Wrong response from the webhook: {status}")
        return False

    def _fail(self, update: PendingUpdate, status: int, message: str) -> None:
        self.attempts.append(WebhookAttempt(update.update_id, status, message))
        self.last_error_date = now_ts()
        self.last_error_message = message
        self._on_change()
