"""The getUpdates queue: increasing update ids, offset confirmation, allowed_updates, long polling.

Semantics follow the Bot API: an update stays until a getUpdates call passes an offset above its
id; a negative offset keeps only the last -offset updates; `allowed_updates` is remembered
between calls and `[]` restores the default (everything but chat_member and reactions).  A new
getUpdates call releases a still-waiting older one: with an empty result by default (the older
client is usually a cancelled poll of a stopping bot), or with 409 Conflict as Telegram answers
when `conflict_on_parallel_polls` is set.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import GETUPDATES_CONFLICT, ApiError

JSON = dict[str, Any]

DEFAULT_EXCLUDED = frozenset({"chat_member", "message_reaction", "message_reaction_count"})

_NEW = "new"
_TERMINATED = "terminated"
_CLOSED = "closed"


@dataclass(frozen=True)
class PendingUpdate:
    """One update: `{"update_id": id, kind: payload}` on the wire."""

    update_id: int
    kind: str
    payload: JSON
    chat_id: int | None

    def to_api(self) -> JSON:
        return {"update_id": self.update_id, self.kind: self.payload}


def is_allowed(kind: str, allowed: frozenset[str] | None) -> bool:
    """Whether `kind` passes an allowed_updates filter (None = Telegram's default)."""
    return kind not in DEFAULT_EXCLUDED if allowed is None else kind in allowed


def parse_allowed(value: Any) -> frozenset[str] | None:
    """allowed_updates parameter → filter; [] means the default (None)."""
    if not isinstance(value, list) or not value:
        return None
    return frozenset(str(v) for v in value)


class UpdateStore:
    """Updates waiting for getUpdates, and the long polls waiting for updates."""

    def __init__(
        self,
        first_update_id: int = 1,
        on_poll: Callable[[], None] | None = None,
        conflict_on_parallel_polls: bool = False,
    ) -> None:
        self.conflict_on_parallel_polls = conflict_on_parallel_polls
        self._on_poll = on_poll  # called when a long poll starts waiting
        self._next_id = first_update_id
        self._pending: deque[PendingUpdate] = deque()
        self.allowed: frozenset[str] | None = None
        self._polls: set[asyncio.Future[str]] = set()
        self._closed = False
        self.polls_waiting = 0
        self.fetched_upto = 0  # highest update_id a getUpdates call has returned

    def make(self, kind: str, payload: JSON, chat_id: int | None) -> PendingUpdate:
        update = PendingUpdate(self._next_id, kind, payload, chat_id)
        self._next_id += 1
        return update

    @property
    def pending_count(self) -> int:
        return len(self._pending)

    @property
    def unfetched_count(self) -> int:
        """Updates no getUpdates call has returned yet."""
        return sum(
            1 for u in self._pending
            if u.update_id > self.fetched_upto and is_allowed(u.kind, self.allowed)
        )

    def pending(self) -> list[PendingUpdate]:
        return list(self._pending)

    def push(self, update: PendingUpdate) -> None:
        self._pending.append(update)
        self._wake(_NEW)

    def requeue(self, updates: Iterable[PendingUpdate]) -> None:
        """Put undelivered updates (e.g. from a removed webhook) back in id order."""
        merged = sorted([*self._pending, *updates], key=lambda u: u.update_id)
        self._pending = deque(merged)
        if merged:
            self._wake(_NEW)

    def drain(self) -> list[PendingUpdate]:
        taken = list(self._pending)
        self._pending.clear()
        return taken

    def close(self) -> None:
        """Release every long poll with an empty result (server shutdown)."""
        self._closed = True
        self._wake(_CLOSED)

    def terminate_polls(self) -> None:
        """End waiting long polls with 409 (used when a webhook gets set)."""
        self._wake(_TERMINATED)

    def _wake(self, why: str) -> None:
        polls, self._polls = self._polls, set()
        for fut in polls:
            if not fut.done():
                fut.set_result(why)

    def _confirm(self, offset: int | None) -> None:
        if offset is None:
            return
        if offset < 0:
            while len(self._pending) > -offset:
                self._pending.popleft()
            return
        while self._pending and self._pending[0].update_id < offset:
            self._pending.popleft()

    def _collect(self, limit: int) -> list[PendingUpdate]:
        """Up to `limit` deliverable updates; filtered-out ones met on the way are forgotten."""
        out: list[PendingUpdate] = []
        scanned = 0  # update_id of the last update looked at
        dropped = False
        for update in self._pending:
            if len(out) >= limit:
                break
            scanned = update.update_id
            if is_allowed(update.kind, self.allowed):
                out.append(update)
            else:
                dropped = True
        if dropped:
            self._pending = deque(
                u for u in self._pending
                if u.update_id > scanned or is_allowed(u.kind, self.allowed)
            )
        return out

    def _fetched(self, result: list[PendingUpdate]) -> list[PendingUpdate]:
        if result:
            self.fetched_upto = max(self.fetched_upto, result[-1].update_id)
        return result

    async def get(
        self, *, offset: int | None, limit: int, timeout: float, allowed_updates: Any
    ) -> list[PendingUpdate]:
        """One getUpdates call; waits up to `timeout` seconds for something to arrive."""
        self._wake(_TERMINATED if self.conflict_on_parallel_polls else _CLOSED)
        if allowed_updates is not None:
            self.allowed = parse_allowed(allowed_updates)
        self._confirm(offset)
        result = self._collect(limit)
        if result or timeout <= 0 or self._closed:
            return self._fetched(result)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            fut: asyncio.Future[str] = loop.create_future()
            self._polls.add(fut)
            self.polls_waiting += 1
            if self._on_poll is not None:
                self._on_poll()
            try:
                await asyncio.wait((fut,), timeout=remaining)
            finally:
                self.polls_waiting -= 1
                self._polls.discard(fut)
            why = fut.result() if fut.done() else None
            if why == _TERMINATED:
                raise ApiError(409, GETUPDATES_CONFLICT)
            if why == _CLOSED:
                return []  # released (shutdown or superseded by a newer poll)
            result = self._collect(limit)
            if result:
                return self._fetched(result)
