"""The outbox: brings the bot's messages to their latest wanted state within Telegram's limits.

Callers say what a message should show (`show`, keyed per chat, e.g. a match's table or a
player's hand) or that a new message must appear (`post`); they never wait for Telegram. One
worker per chat delivers in order, one call at a time:

- pending states of one message coalesce: the latest wins;
- every call first gets a place from the `Pacer` (Telegram's limits: about 20 messages and
  edits a minute in a group, about 30 a second over all chats), and only then takes the
  content, so what it sends is the newest state at the moment it may send;
- when the bot has more to send than the limits let through, the places go first to the
  messages that give someone buttons to press (`Urgency.ACT`), then to everything else;
  a private message whose text alone changed (the state of a deal while it is someone else's
  turn) is `Urgency.LAZY`: it waits a moment, so that the player's next turn, which redraws it
  anyway, usually makes the edit unnecessary;
- new messages go before the edits queued ahead of them, and a group keeps `GROUP_RESERVE`
  places of its window for them: a command's reply never waits behind table refreshes;
- a message may be sent anew at the bottom of its chat (`renew`; the old one is deleted):
  Telegram notifies of new messages, never of edits;
- a 429 (`RetryAfter`) is waited out and the then-latest state is sent; a network error (a
  5xx, a timeout, a refused connection, a lost answer) is retried with a growing pause
  (`BACKOFF_MAX` at most) until the newest state is delivered: no restart needed;
- a send whose answer was lost may have arrived: before sending it again, the outbox looks
  for it (`Outbox._probe`), so that it does not appear twice;
- "message is not modified" counts as delivered; an edit of a deleted message sends a new one;
- a 403 drops the chat's pending work and tells the owner (`on_forbidden`); other final
  errors drop the one message with a log line.

Messages stored in the database outbox (`storage.outbox`: a ``version`` or ``key`` given) are
reported to `Outbox.on_delivered` once shown or given up on; what is still queued when the
bot stops stays stored and is delivered at the next start (`bot.match.recovery`).

The `Pacer` is also the application's PTB rate limiter (`build_application`), so a call made
outside the outbox counts against the same limits; the outbox's own calls are not counted
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import warnings
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from enum import IntEnum
from typing import Any, Protocol

import httpx
from telegram import Bot, InlineKeyboardMarkup, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

from storage.outbox import Delivered

log = logging.getLogger(__name__)

OnSent = Callable[[int], Awaitable[None]]
OnForbidden = Callable[[int], Awaitable[None]]
OnDelivered = Callable[[Delivered], None]

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 5.0
"""Seconds between attempts after network errors: doubling from the first to the most, so
that the newest state arrives a few seconds after Telegram is back, however long it was gone."""
PROBE_LIMIT = 20
"""Message ids looked at for a send whose answer was lost."""
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
LAZY_SECONDS = 4.0
"""How long a `Urgency.LAZY` edit waits for a newer state before it is sent (a watcher's hand
usually changes again within a press or two, which are about 2 s apart; issue 13)."""
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


# ---------------------------------------------------------------- the pacer


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

    async def _enter_group(self, key: int | str, fresh: bool = False) -> _Group:
        assert self._group_rate is not None
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = _Group(
                self._group_rate, self._group_window, self._group_burst, self._group_reserve
            )
        loop = asyncio.get_running_loop()
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


# ---------------------------------------------------------------- the outbox


@dataclass(frozen=True)
class Content:
    """What a message shows: HTML text and its inline keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None


@dataclass
class _Slot:
    message_id: int | None
    on_sent: OnSent | None
    wanted: Content | None = None
    sending: Content | None = None
    shown: Content | None = None
    wanted_version: int | None = None
    """The version of the stored change ``wanted`` shows (None: not stored, nothing to mark)."""
    sending_version: int | None = None
    last: bool = False
    """The wanted content is the message's final state: forget the slot once it is shown."""
    urgency: Urgency = Urgency.NORMAL
    due: float = 0.0
    """When the wanted content may be sent at the earliest (a lazy edit waits)."""
    renew: bool = False
    """Send the wanted content as a new message and delete the old one (it notifies)."""
    uncertain: Content | None = None
    """A send of this content got no answer: it may have arrived (see `Outbox._probe`)."""

    def upcoming(self, queued: bool) -> Content | None:
        """What the message will show once the work already started or queued is done."""
        if queued and self.wanted is not None:
            return self.wanted
        return self.sending if self.sending is not None else self.shown


@dataclass(eq=False)
class _Post:
    content: Content
    key: str | None = None
    """The stored row of this message (None: not stored)."""
    version: int = 0
    uncertain: Content | None = None


@dataclass
class _Chat:
    queue: deque[str | _Post] = field(default_factory=deque)
    slots: dict[str, _Slot] = field(default_factory=dict)
    worker: asyncio.Task[None] | None = None
    idle: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ticket: Ticket | None = None
    resume_at: float = 0.0
    """After a 429 or a network error: no call before this moment."""
    failures: int = 0
    floor: int = 0
    """The newest id of a message known in the chat (0: none): a lost send, if it arrived,
    has a greater one."""

    def saw(self, message_id: int) -> None:
        self.floor = max(self.floor, message_id)


class _Uncertain(Protocol):
    uncertain: Content | None


class Outbox:
    """Per-chat ordered, coalescing, paced delivery of sends and edits."""

    def __init__(
        self,
        bot: Bot,
        *,
        group_rate: int,
        group_window: float = 60.0,
        overall_rate: float | None = None,
        on_forbidden: OnForbidden | None = None,
        on_delivered: OnDelivered | None = None,
        lazy_seconds: float = LAZY_SECONDS,
    ) -> None:
        """Pacing comes from the bot's `Pacer` if it has one (the application's); otherwise
        the outbox paces by itself with these limits (``overall_rate`` None: none)."""
        self._bot = bot
        limiter = getattr(bot, "rate_limiter", None)
        self.pacer = (
            limiter
            if isinstance(limiter, Pacer)
            else Pacer(overall_rate=overall_rate, group_rate=group_rate, group_window=group_window)
        )
        self.on_forbidden = on_forbidden
        self.on_delivered = on_delivered
        """Told of every stored message (a ``version`` or ``key`` was given) once it is shown
        or given up on (a final error), so that its row can be marked."""
        self._lazy_seconds = lazy_seconds
        self._chats: dict[int, _Chat] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._workers = 0
        """Chats with a worker running (the outbox is idle at 0)."""
        self._flushing = 0
        self._closed = False

    @property
    def queued(self) -> int:
        """Messages and edits waiting to be delivered (for the heartbeat)."""
        return sum(len(c.queue) for c in self._chats.values())

    def show(
        self,
        chat_id: int,
        key: str,
        content: Content,
        *,
        message_id: int | None = None,
        on_sent: OnSent | None = None,
        last: bool = False,
        renew: bool = False,
        version: int | None = None,
    ) -> None:
        """Make the message `key` of the chat show `content` (sending it if it has no id yet).

        `message_id` and `on_sent` matter the first time a key is shown: the stored id of the
        message to edit, and what to call with the id of a newly sent one. `last` says the
        message will not change again (its game is over), so the outbox can forget it.
        `renew` sends it as a new message at the bottom of the chat — Telegram notifies of
        new messages, never of edits — and deletes the old one.
        `version`: the content is stored in the database outbox as the row `key` at this
        version, to be marked once it is shown (`on_delivered`).
        """
        chat = self._chats.setdefault(chat_id, _Chat())
        slot = chat.slots.get(key)
        if slot is None:
            slot = chat.slots[key] = _Slot(message_id, on_sent)
        elif slot.message_id is None and message_id is not None:
            slot.message_id = message_id
        if message_id is not None:
            chat.saw(message_id)
        if on_sent is not None:
            slot.on_sent = on_sent
        slot.last = last
        slot.renew = slot.renew or (renew and slot.message_id is not None)
        queued = key in chat.queue
        if content == slot.upcoming(queued) and not slot.renew:
            if version is not None:
                self._shows_already(chat_id, chat, key, slot, queued, version)
            return
        urgency = self._urgency(chat_id, slot, content)
        now = asyncio.get_running_loop().time()
        due = now + self._lazy_seconds if urgency is Urgency.LAZY else now
        if queued and slot.wanted is not None:
            # Still waiting: the newer state keeps the place in the queue and the earlier
            # moment, so a message that keeps changing is not put off for ever.
            urgency, due = min(urgency, slot.urgency), min(due, slot.due)
        slot.wanted, slot.urgency, slot.due = content, urgency, due
        if version is not None or not queued:
            # A redraw that is not stored (a turn timer's) shows the stored state too: the
            # stored version waiting is marked when it goes.
            slot.wanted_version = version
        if not queued:
            chat.queue.append(key)
        if chat.ticket is not None:
            self.pacer.raise_urgency(chat.ticket, urgency)
        chat.changed.set()
        self._wake(chat_id, chat)

    def renew(self, chat_id: int, key: str) -> None:
        """Send the message `key` anew, showing what it shows or is about to, after everything
        queued for the chat, and delete the old one: it becomes the chat's newest message."""
        chat = self._chats.get(chat_id)
        slot = chat.slots.get(key) if chat is not None else None
        if chat is None or slot is None or slot.message_id is None:
            return
        queued = key in chat.queue
        content = slot.upcoming(queued)
        if content is None:
            return
        if queued:
            chat.queue.remove(key)
        slot.wanted, slot.renew = content, True
        slot.urgency, slot.due = Urgency.NORMAL, asyncio.get_running_loop().time()
        chat.queue.append(key)
        chat.changed.set()
        self._wake(chat_id, chat)

    def shown(self, chat_id: int, key: str) -> Content | None:
        """What the message `key` of the chat was last seen to show (delivered), if known."""
        chat = self._chats.get(chat_id)
        slot = chat.slots.get(key) if chat is not None else None
        return None if slot is None else slot.shown

    def _shows_already(
        self, chat_id: int, chat: _Chat, key: str, slot: _Slot, queued: bool, version: int
    ) -> None:
        """A stored state equal to what the message shows, or is about to: mark it with
        that delivery."""
        if queued and slot.wanted is not None:
            slot.wanted_version = _newer(slot.wanted_version, version)
        elif slot.sending is not None:
            slot.sending_version = _newer(slot.sending_version, version)
        else:
            self._mark(Delivered(chat_id, key, version, done=slot.last))
            if slot.last:
                chat.slots.pop(key, None)

    def post(
        self, chat_id: int, content: Content, *, key: str | None = None, version: int = 0
    ) -> None:
        """Send a new message after everything already queued for the chat (`key`: its row
        in the database outbox, removed once it is sent)."""
        chat = self._chats.setdefault(chat_id, _Chat())
        chat.queue.append(_Post(content, key, version))
        if chat.ticket is not None:
            self.pacer.raise_urgency(chat.ticket, Urgency.NORMAL)
        chat.changed.set()
        self._wake(chat_id, chat)

    def saw(self, chat_id: int, message_id: int) -> None:
        """A message with this id exists in the chat (any sender's: an update showed it). Ids
        in a chat only grow, so a send made after this that got no answer, if it arrived, has
        a greater id: where `_probe` looks for it."""
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = _Chat()
            chat.idle.set()
        chat.saw(message_id)

    def forget(self, chat_id: int, key: str) -> None:
        """Stop tracking a message (another key took it over); pending content is dropped."""
        chat = self._chats.get(chat_id)
        if chat is None:
            return
        chat.slots.pop(key, None)
        with contextlib.suppress(ValueError):
            chat.queue.remove(key)

    async def idle(self, chat_ids: Iterable[int] | None = None) -> None:
        """Deliver at once what waits for a newer state, then wait until nothing is queued
        or being delivered (for these chats only, if given)."""
        self._flushing += 1
        try:
            for waiting in self._chats.values():
                waiting.changed.set()
            if chat_ids is None:
                await self._idle.wait()
                return
            for chat_id in chat_ids:
                chat = self._chats.get(chat_id)
                if chat is not None and chat.worker is not None:
                    await chat.idle.wait()
        finally:
            self._flushing -= 1

    async def close(self) -> None:
        """Stop delivering: what is still queued is dropped here (the database outbox keeps
        the stored messages for the next start)."""
        self._closed = True
        workers = [c.worker for c in self._chats.values() if c.worker is not None]
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._chats.clear()
        self._idle.set()

    # ---------------------------------------------------------------- delivery

    @staticmethod
    def _urgency(chat_id: int, slot: _Slot, content: Content) -> Urgency:
        if chat_id < 0:
            return Urgency.NORMAL
        if content.markup is not None and content.markup.inline_keyboard:
            return Urgency.ACT
        shown = slot.sending if slot.sending is not None else slot.shown
        if shown is None or (shown.markup is not None and shown.markup.inline_keyboard):
            # A message to send anew, or one whose buttons must go: not lazy.
            return Urgency.NORMAL
        return Urgency.LAZY

    def _head(self, chat: _Chat) -> tuple[Urgency, float]:
        """The chat's urgency (its most urgent item) and when its first item may go."""
        urgency, due = Urgency.LAZY, math.inf
        for item in chat.queue:
            if isinstance(item, _Post):
                urgency, due = min(urgency, Urgency.NORMAL), 0.0
                continue
            slot = chat.slots.get(item)
            if slot is None or slot.wanted is None:
                due = 0.0  # nothing to wait for: let the worker drop it
                continue
            urgency, due = min(urgency, slot.urgency), min(due, slot.due)
        if self._flushing:
            due = 0.0
        return urgency, due

    @staticmethod
    def _new_messages_first(chat: _Chat) -> None:
        """A new message (a command's reply, a deal result) goes before the edits queued
        ahead of it: they only bring shown messages up to date, and a later edit would show
        the same. (A message to send anew keeps its place: it must come after them.)"""
        for index, item in enumerate(chat.queue):
            if isinstance(item, _Post):
                if index:
                    del chat.queue[index]
                    chat.queue.appendleft(item)
                return
            slot = chat.slots.get(item)
            if slot is not None and (slot.renew or slot.message_id is None):
                return

    @staticmethod
    def _sends_next(chat: _Chat) -> bool:
        if not chat.queue:
            return False
        item = chat.queue[0]
        if isinstance(item, _Post):
            return True
        slot = chat.slots.get(item)
        return slot is not None and (slot.renew or slot.message_id is None)

    def _wake(self, chat_id: int, chat: _Chat) -> None:
        if self._closed:
            return
        if chat.worker is None or chat.worker.done():
            self._idle.clear()
            chat.idle.clear()
            self._workers += 1
            chat.worker = asyncio.create_task(self._work(chat_id, chat), name=f"outbox {chat_id}")

    async def _work(self, chat_id: int, chat: _Chat) -> None:
        loop = asyncio.get_running_loop()
        try:
            while chat.queue:
                urgency, due = self._head(chat)
                wait = max(due, chat.resume_at) - loop.time()
                if wait > 0:
                    chat.changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(chat.changed.wait(), wait)
                    continue
                self._new_messages_first(chat)
                chat.ticket = Ticket(urgency, fresh=self._sends_next(chat))
                try:
                    async with self.pacer.slot(chat_id, chat.ticket) as permit:
                        chat.ticket = None
                        permit.used = await self._deliver_next(chat_id, chat)
                finally:
                    chat.ticket = None
        except Forbidden as error:
            self._give_up(chat_id, chat)
            log.warning("outbox chat=%s forbidden: %s", chat_id, error.message)
            if self.on_forbidden is not None:
                await self._quietly(self.on_forbidden(chat_id))
        finally:
            chat.worker = None
            self._workers -= 1
            if chat.queue and not self._closed:
                self._wake(chat_id, chat)
            else:
                chat.idle.set()
                if not chat.queue and not chat.slots:
                    self._chats.pop(chat_id, None)
                if self._workers == 0:
                    self._idle.set()

    def _give_up(self, chat_id: int, chat: _Chat) -> None:
        """Drop the chat's pending work (Telegram refuses it for good); its stored messages
        count as delivered, or every start would try them again."""
        for item in chat.queue:
            if isinstance(item, _Post):
                if item.key is not None:
                    self._mark(Delivered(chat_id, item.key, item.version, done=True))
                continue
            slot = chat.slots.get(item)
            if slot is not None and slot.wanted_version is not None:
                self._mark(Delivered(chat_id, item, slot.wanted_version, done=True))
        chat.queue.clear()
        for slot in chat.slots.values():
            slot.wanted, slot.wanted_version = None, None

    async def _deliver_next(self, chat_id: int, chat: _Chat) -> bool:
        """Deliver the chat's first item; False if no call was made."""
        if not chat.queue:
            return False
        item = chat.queue.popleft()
        if isinstance(item, _Post):
            try:
                await self._attempt(chat_id, chat, lambda: self._send_post(chat_id, chat, item))
            except _PutBack:
                chat.queue.appendleft(item)
                return True
            if item.key is not None:
                self._mark(Delivered(chat_id, item.key, item.version, done=True))
            return True
        slot = chat.slots.get(item)
        if slot is None or slot.wanted is None:
            return False
        content, slot.wanted = slot.wanted, None
        renew, slot.renew = slot.renew, False
        slot.sending, slot.sending_version = content, slot.wanted_version
        slot.wanted_version = None
        try:
            await self._attempt(
                chat_id, chat, lambda: self._put(chat_id, chat, slot, content, renew)
            )
        except _PutBack:
            # Newer content, if any came while we waited, wins over what failed to go out.
            slot.renew = slot.renew or renew
            if slot.wanted is None:
                slot.wanted, slot.wanted_version = content, slot.sending_version
                slot.due = 0.0
            if item not in chat.queue:
                chat.queue.appendleft(item)
            return True
        finally:
            slot.sending = None
        version, slot.sending_version = slot.sending_version, None
        slot.shown = content
        done = slot.last and slot.wanted is None
        if version is not None:
            self._mark(Delivered(chat_id, item, version, done=done))
        if done:
            chat.slots.pop(item, None)
        return True

    async def _put(
        self, chat_id: int, chat: _Chat, slot: _Slot, content: Content, renew: bool = False
    ) -> None:
        if renew and slot.message_id is not None:
            old = slot.message_id
            message = await self._send(chat_id, chat, content, slot)
            await self._sent(slot, message.message_id)
            await self._drop(chat_id, old)
            return
        if slot.message_id is None and slot.uncertain is not None:
            found = await self._probe(chat_id, chat, slot.uncertain)
            slot.uncertain = None
            if found is not None:
                await self._sent(slot, found)
        if slot.message_id is not None:
            try:
                await self._bot.edit_message_text(
                    content.text,
                    chat_id=chat_id,
                    message_id=slot.message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=content.markup,
                    link_preview_options=_NO_PREVIEW,
                )
                chat.saw(slot.message_id)
                return
            except BadRequest as error:
                text = error.message.lower()
                if "not modified" in text:
                    return
                if "not found" not in text and "can't be edited" not in text:
                    raise
                log.info(
                    "outbox chat=%s message=%s is gone, sending anew", chat_id, slot.message_id
                )
        message = await self._send(chat_id, chat, content, slot)
        await self._sent(slot, message.message_id)

    async def _sent(self, slot: _Slot, message_id: int) -> None:
        slot.message_id = message_id
        if slot.on_sent is not None:
            await self._quietly(slot.on_sent(message_id))

    async def _drop(self, chat_id: int, message_id: int) -> None:
        """Delete a message its newer copy replaced; one too old to delete is emptied."""
        try:
            await self._bot.delete_message(chat_id, message_id)
        except TelegramError as error:
            log.info("outbox chat=%s message=%s not deleted: %s", chat_id, message_id, error)
            with contextlib.suppress(TelegramError):
                await self._bot.edit_message_text("⬇", chat_id=chat_id, message_id=message_id)

    async def _send_post(self, chat_id: int, chat: _Chat, post: _Post) -> None:
        if post.uncertain is not None:
            found = await self._probe(chat_id, chat, post.uncertain)
            post.uncertain = None
            if found is not None:
                return
        await self._send(chat_id, chat, post.content, post)

    async def _send(
        self, chat_id: int, chat: _Chat, content: Content, intent: _Uncertain
    ) -> Message:
        """Send a new message; if no answer says whether it arrived, ``intent`` remembers
        it, so that the next attempt looks for it first instead of sending it twice."""
        try:
            message = await self._bot.send_message(
                chat_id,
                content.text,
                parse_mode=ParseMode.HTML,
                reply_markup=content.markup,
                link_preview_options=_NO_PREVIEW,
            )
        except NetworkError as error:
            if _unanswered(error):
                intent.uncertain = content
            raise
        chat.saw(message.message_id)
        return message

    async def _probe(self, chat_id: int, chat: _Chat, content: Content) -> int | None:
        """The id of a message with exactly ``content`` sent by a call that got no answer,
        or None if it did not arrive.

        The Bot API cannot list a chat's messages, but ids in a chat only grow: the lost
        message, if any, is among the few ids after the newest one of ours (`_Chat.floor`).
        Editing one of them to ``content`` answers "not modified" only for that message; a
        person's message "can't be edited", a picture has "no text", and "not found" means
        the chat has no message with that id yet, so the send did not arrive.
        """
        if not chat.floor:
            # Without a known id the candidates could be old messages of ours, which an
            # edit would overwrite: sending again (maybe twice) is the lesser harm.
            log.warning("outbox chat=%s: a send got no answer; sending it again", chat_id)
            return None
        for message_id in range(chat.floor + 1, chat.floor + 1 + PROBE_LIMIT):
            try:
                await self._bot.edit_message_text(
                    content.text,
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=content.markup,
                    link_preview_options=_NO_PREVIEW,
                )
            except BadRequest as error:
                text = error.message.lower()
                if "not modified" in text:
                    log.info("outbox chat=%s: the lost send arrived as %s", chat_id, message_id)
                    chat.saw(message_id)
                    return message_id
                if "not found" in text:
                    return None
                continue
            # A message of ours sent outside the outbox now shows the lost one: rare (every
            # text goes through here), logged, and the lost message is not sent twice.
            log.warning("outbox chat=%s: a probe overwrote message %s", chat_id, message_id)
            chat.saw(message_id)
            return message_id
        return None

    async def _attempt(
        self, chat_id: int, chat: _Chat, call: Callable[[], Awaitable[object]]
    ) -> None:
        """Make one delivery call. A 429 or a network error (5xx, timeout, no connection, no
        answer) raises `_PutBack` with the chat paused (for the 429's ``retry_after``; after
        network errors for a moment that grows up to `BACKOFF_MAX`), so the item is tried
        again — with the newest state by then — for as long as it takes; a 403 goes up to the
        worker; any other error is final: the item is dropped with a log line."""
        loop = asyncio.get_running_loop()
        try:
            await call()
        except RetryAfter as error:
            delay = _seconds(error)
            log.warning("outbox 429: waiting %.1fs", delay)
            chat.resume_at = loop.time() + delay
            raise _PutBack from error
        except BadRequest as error:
            log.error("outbox chat=%s dropped a message: %s", chat_id, error.message)
        except Forbidden:
            raise
        except NetworkError as error:
            chat.failures += 1
            delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (chat.failures - 1))
            log.warning("outbox chat=%s: %s; again in %.1fs", chat_id, error, delay)
            chat.resume_at = loop.time() + delay
            raise _PutBack from error
        except TelegramError as error:
            log.error("outbox chat=%s dropped a message: %s", chat_id, error)
        chat.failures = 0

    def _mark(self, delivered: Delivered) -> None:
        if self.on_delivered is not None:
            self.on_delivered(delivered)

    @staticmethod
    async def _quietly(callback: Awaitable[None]) -> None:
        try:
            await callback
        except Exception:
            log.exception("outbox callback failed")


class _PutBack(Exception):
    """The item must be delivered again (after a 429 or a network error)."""


def _newer(version: int | None, other: int) -> int:
    return other if version is None else max(version, other)


def _unanswered(error: NetworkError) -> bool:
    """Whether the request may have reached Telegram although no answer came (a read or
    write timeout, a connection lost mid-call), as opposed to one that surely did not (no
    connection could be made) or that Telegram answered (a 5xx)."""
    cause = error.__cause__
    if not isinstance(cause, httpx.HTTPError):
        return False
    return not isinstance(cause, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout)


def _seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():
        # PTB 22 warns that the int form is deprecated; both forms are handled here.
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
