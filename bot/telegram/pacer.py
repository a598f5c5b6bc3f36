"""The pacer: every call to Telegram waits for a place within its limits (design: Within
Telegram's limits).

About 20 messages and edits a minute in a group (a burst of `GROUP_BURST`, then spread
evenly, with `GROUP_RESERVE` places kept for new messages) and about 30 a second over all
chats. When more waits than the limits let through, the places go by `Urgency`: first the
messages that give someone buttons to press, then group tables and new messages, then
text-only refreshes of other players' hands, by the shares of `_WEIGHTS`.

The `Pacer` is the application's PTB rate limiter (`build_application`), so a call made
outside the outbox counts against the same limits; the outbox's own calls (made inside
`Pacer.slot`) are not counted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from telegram.ext import BaseRateLimiter

GROUP_BURST = 4
"""A group may get this many calls at once; beyond that they are spread evenly over its
window (20 a minute: one every 3 s), so that a table keeps moving instead of using its 20
edits in the first seconds of a minute and then standing still."""
GROUP_RESERVE = 4
"""Places of a group's window that edits never take: a new message (a command's reply, a
deal result) finds one at once instead of queueing behind the table's refreshes. New
messages are not spread out either."""


class Urgency(IntEnum):
    """Which calls go first when there are more than the limits let through."""

    ACT = 0
    """Buttons someone has to press now: the game waits for this message."""
    NORMAL = 1
    """New messages, messages in groups, buttons that must disappear."""
    LAZY = 2
    """A private message catching up with a state that asks nothing of its reader."""


_WEIGHTS = {Urgency.ACT: 20.0, Urgency.NORMAL: 3.0, Urgency.LAZY: 1.0}
"""Shares of the overall rate when every kind is waiting: the games move on first, the
groups' tables and new messages are never starved. With more to send than the overall limit
lets through, every place is used, so the sends per press are about the overall rate over
the presses a second, which the keyboards' share bounds: 10 parts in 14 gave 1.45 sends per
press at 100 games, 20 in 24 aims at 1.2 (benchmarks/README.md; issue 13)."""

_COUNTED_PREFIXES = ("send", "edit", "copymessage", "forwardmessage")
_UNCOUNTED = frozenset({"sendchataction"})

_held: ContextVar[bool] = ContextVar("pacer_place_held", default=False)


def _counted(endpoint: str) -> bool:
    name = endpoint.lower()
    return name.startswith(_COUNTED_PREFIXES) and name not in _UNCOUNTED


def _group_key(chat_id: object) -> int | str | None:
    """The key of a group's (or channel's) limit; None for a private chat."""
    if isinstance(chat_id, str):
        with contextlib.suppress(ValueError):
            chat_id = int(chat_id)
    if isinstance(chat_id, int):
        return chat_id if chat_id < 0 else None
    return chat_id if isinstance(chat_id, str) else None


class _Window:
    """A sliding window like Telegram's: a call counts from the moment it is let through
    until ``period`` after it is done (Telegram counted it somewhere in between), so the
    calls in any ``period`` never exceed ``rate``, however long each one takes."""

    def __init__(self, rate: int, period: float) -> None:
        self.rate = rate
        self.period = period
        self.running = 0
        self.done: deque[float] = deque()

    def delay(self, now: float, reserve: int = 0) -> float | None:
        """0 if a call may start now, else the seconds until one may (None: when a running
        call is done); ``reserve`` places are left for other calls."""
        while self.done and self.done[0] <= now - self.period:
            self.done.popleft()
        used = self.running + len(self.done)
        limit = max(1, self.rate - reserve)
        if used < limit:
            return 0.0
        over = used - limit  # the calls that must leave the window first
        if over < len(self.done):
            return self.done[over] + self.period - now
        return None

    def finish(self, now: float, used: bool) -> None:
        self.running -= 1
        if used:
            self.done.append(now)

    @property
    def empty(self) -> bool:
        return self.running == 0 and not self.done


class _Group:
    """A group's limit: its sliding window, and an even spread beyond a small burst."""

    def __init__(self, rate: int, period: float, burst: int, reserve: int = 0) -> None:
        self.window = _Window(rate, period)
        self.spacing = period / rate
        self.burst = max(1, min(burst, rate))
        self.tokens = float(self.burst)
        self.stamp = 0.0
        self.reserve = min(reserve, rate // 4)

    def delay(self, now: float, fresh: bool = False) -> float | None:
        """When a call may start; a ``fresh`` one (a new message) may use the reserved
        places and need not wait for its even spread."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) / self.spacing)
        self.stamp = now
        window = self.window.delay(now, 0 if fresh else self.reserve)
        if window is None:
            return None
        bucket = 0.0 if self.tokens >= 1 or fresh else (1 - self.tokens) * self.spacing
        return max(window, bucket)

    def take(self) -> None:
        self.tokens -= 1
        self.window.running += 1


@dataclass(eq=False)
class Ticket:
    """A place asked for in the overall queue; its urgency may rise while it waits."""

    urgency: Urgency
    future: asyncio.Future[None] | None = None
    fresh: bool = False
    """The call sends a new message (it may use a group's reserved places)."""


@dataclass
class Permit:
    """A place granted: set ``used = False`` if no call was made with it after all."""

    used: bool = True


class Pacer(BaseRateLimiter[int]):
    """Telegram's limits for every call that sends or edits a message: per group and overall.

    `slot` holds a place while the caller makes its call (the outbox asks for the place
    before it picks the content); PTB calls `process_request` for every request of the bot,
    and a send or edit made without a place gets one there (``rate_limit_args`` may give its
    `Urgency`). ``answerCallbackQuery``, reads and polling are not limited here, as Telegram
    does not count them with messages.
    """

    def __init__(
        self,
        *,
        overall_rate: float | None = 30.0,
        overall_window: float = 1.0,
        group_rate: int | None = 20,
        group_window: float = 60.0,
        group_burst: int = GROUP_BURST,
        group_reserve: int = GROUP_RESERVE,
    ) -> None:
        self._overall: _Window | None = None
        if overall_rate is not None:
            # ``overall_rate`` calls a second, counted over ``overall_window`` seconds.
            calls = overall_rate * overall_window
            if calls >= 1:
                self._overall = _Window(math.floor(calls), overall_window)
            else:
                self._overall = _Window(1, 1.0 / overall_rate)
        self._group_rate = group_rate
        self._group_window = group_window
        self._group_burst = group_burst
        self._group_reserve = group_reserve
        self._groups: dict[int | str, _Group] = {}
        self._waiting: dict[Urgency, dict[Ticket, None]] = {u: {} for u in Urgency}
        self._virtual = dict.fromkeys(Urgency, 0.0)
        self._now_virtual = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.granted = 0
        """Places granted so far (for tests and the heartbeat)."""
        self._inherited: float | None = None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    @property
    def waiting(self) -> int:
        """Calls waiting for a place in the overall limit."""
        return sum(len(queue) for queue in self._waiting.values())

    # ------------------------------------------------------------ PTB's interface

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        if _held.get() or not _counted(endpoint):
            return await callback(*args, **kwargs)
        urgency = Urgency(rate_limit_args) if rate_limit_args in set(Urgency) else Urgency.NORMAL
        fresh = endpoint.lower().startswith(("send", "copymessage", "forwardmessage"))
        async with self.slot(data.get("chat_id"), Ticket(urgency, fresh=fresh)):
            return await callback(*args, **kwargs)

    # ------------------------------------------------------------ places

    @asynccontextmanager
    async def slot(self, chat_id: object, ticket: Ticket) -> AsyncIterator[Permit]:
        """Wait for a place for one call to ``chat_id`` and hold it during the block."""
        permit = Permit()
        if _held.get():
            yield permit
            return
        loop = asyncio.get_running_loop()
        key = _group_key(chat_id) if self._group_rate is not None else None
        group = await self._enter_group(key, ticket.fresh) if key is not None else None
        try:
            await self._enter_overall(ticket)
        except BaseException:
            if group is not None:
                group.window.finish(loop.time(), used=False)
            raise
        token = _held.set(True)
        try:
            yield permit
        finally:
            _held.reset(token)
            now = loop.time()
            if group is not None:
                group.window.finish(now, permit.used)
            if self._overall is not None:
                self._overall.finish(now, permit.used)
                self._kick()

    def raise_urgency(self, ticket: Ticket, urgency: Urgency) -> None:
        """Move a waiting ticket up (a newer state of its message is more urgent)."""
        if urgency >= ticket.urgency:
            return
        queue = self._waiting[ticket.urgency]
        if ticket in queue:
            del queue[ticket]
            ticket.urgency = urgency
            self._enqueue(ticket)
            self._kick()
        else:
            ticket.urgency = urgency

    def inherit(self) -> None:
        """Take over from a sender that stopped just now without saying what it sent (a
        leader of several processes that died, issue 17): every window is taken as that
        sender's pacing may have left it — the overall one full, each group's full of calls
        spread as this pacer spreads them, its burst the last."""
        now = asyncio.get_running_loop().time()
        self._inherited = now
        if self._overall is not None:
            self._overall.done.extend([now] * self._overall.rate)

    def _new_group(self, now: float) -> _Group:
        assert self._group_rate is not None
        group = _Group(
            self._group_rate, self._group_window, self._group_burst, self._group_reserve
        )
        since = self._inherited
        if since is not None and now - since < self._group_window:
            rate, burst, spacing = self._group_rate, group.burst, group.spacing
            spread = [since - k * spacing for k in range(rate - burst, 0, -1)]
            group.window.done.extend([*spread, *[since] * burst])
            group.tokens, group.stamp = 0.0, since
        return group

    async def _enter_group(self, key: int | str, fresh: bool = False) -> _Group:
        assert self._group_rate is not None
        loop = asyncio.get_running_loop()
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = self._new_group(loop.time())
        while True:
            delay = group.delay(loop.time(), fresh)
            if delay == 0:
                group.take()
                return group
            # None: every place is taken by calls still running; look again shortly.
            await asyncio.sleep(delay if delay is not None else 0.05)

    async def _enter_overall(self, ticket: Ticket) -> None:
        window = self._overall
        if window is None:
            return
        loop = asyncio.get_running_loop()
        if not self.waiting and window.delay(loop.time()) == 0:
            window.running += 1
            self.granted += 1
            return
        ticket.future = loop.create_future()
        self._enqueue(ticket)
        self._kick()
        try:
            await ticket.future
        except asyncio.CancelledError:
            queue = self._waiting[ticket.urgency]
            if ticket in queue:
                del queue[ticket]
            elif ticket.future.done() and not ticket.future.cancelled():
                window.finish(loop.time(), used=False)  # granted, but nobody came for it
                self._kick()
            raise
        finally:
            ticket.future = None

    def _enqueue(self, ticket: Ticket) -> None:
        queue = self._waiting[ticket.urgency]
        if not queue:
            # A kind that was not waiting does not bank the turns it did not use.
            self._virtual[ticket.urgency] = max(self._virtual[ticket.urgency], self._now_virtual)
        queue[ticket] = None

    def _kick(self) -> None:
        """Grant places to waiting tickets while the overall window has room."""
        window = self._overall
        if window is None:
            return
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self.waiting:
            delay = window.delay(loop.time())
            if delay is None:
                return  # a call that is done will kick again
            if delay > 0:
                self._timer = loop.call_at(loop.time() + delay, self._kick)
                return
            urgency = min(
                (u for u in Urgency if self._waiting[u]), key=lambda u: (self._virtual[u], u)
            )
            queue = self._waiting[urgency]
            ticket = next(iter(queue))
            del queue[ticket]
            if ticket.future is None or ticket.future.done():
                continue  # its caller was cancelled while it waited
            self._now_virtual = self._virtual[urgency]
            self._virtual[urgency] += 1 / _WEIGHTS[urgency]
            window.running += 1
            self.granted += 1
            ticket.future.set_result(None)
