"""The outbox: brings the bot's messages to their latest wanted state within Telegram's limits.

Callers say what a message should show (`show`, keyed per chat, e.g. a match's table or a
player's hand) or that a new message must appear (`post`); they never wait for Telegram. One
worker per chat delivers in order, one call at a time:

- pending states of one message coalesce: the latest wins;
- in a group the worker waits for the group's pace (a sliding window) *before* taking the
  content, so what it sends is the newest state at the moment it may send;
- a 429 (`RetryAfter`) is waited out and the then-latest state is sent;
- "message is not modified" counts as delivered; an edit of a deleted message sends a new one;
- a 403 drops the chat's pending work and tells the owner (`on_forbidden`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from telegram import Bot, InlineKeyboardMarkup, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger(__name__)

OnSent = Callable[[int], Awaitable[None]]
OnForbidden = Callable[[int], Awaitable[None]]

_NETWORK_ATTEMPTS = 3
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


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
    last: bool = False
    """The wanted content is the message's final state: forget the slot once it is shown."""

    def upcoming(self, queued: bool) -> Content | None:
        """What the message will show once the work already started or queued is done."""
        if queued and self.wanted is not None:
            return self.wanted
        return self.sending if self.sending is not None else self.shown


@dataclass(frozen=True)
class _Post:
    content: Content


@dataclass
class _Chat:
    queue: deque[str | _Post] = field(default_factory=deque)
    slots: dict[str, _Slot] = field(default_factory=dict)
    worker: asyncio.Task[None] | None = None
    idle: asyncio.Event = field(default_factory=asyncio.Event)


class Outbox:
    """Per-chat ordered, coalescing, paced delivery of sends and edits."""

    def __init__(
        self,
        bot: Bot,
        *,
        group_rate: int,
        group_window: float = 60.0,
        on_forbidden: OnForbidden | None = None,
    ) -> None:
        self._bot = bot
        self._group_rate = group_rate
        self._group_window = group_window
        self.on_forbidden = on_forbidden
        self._chats: dict[int, _Chat] = {}
        self._sent: dict[int, deque[float]] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._closed = False

    def show(
        self,
        chat_id: int,
        key: str,
        content: Content,
        *,
        message_id: int | None = None,
        on_sent: OnSent | None = None,
        last: bool = False,
    ) -> None:
        """Make the message `key` of the chat show `content` (sending it if it has no id yet).

        `message_id` and `on_sent` matter the first time a key is shown: the stored id of the
        message to edit, and what to call with the id of a newly sent one. `last` says the
        message will not change again (its game is over), so the outbox can forget it.
        """
        chat = self._chats.setdefault(chat_id, _Chat())
        slot = chat.slots.get(key)
        if slot is None:
            slot = chat.slots[key] = _Slot(message_id, on_sent)
        elif slot.message_id is None and message_id is not None:
            slot.message_id = message_id
        if on_sent is not None:
            slot.on_sent = on_sent
        slot.last = last
        queued = key in chat.queue
        if content == slot.upcoming(queued):
            return
        slot.wanted = content
        if not queued:
            chat.queue.append(key)
        self._wake(chat_id, chat)

    def post(self, chat_id: int, content: Content) -> None:
        """Send a new message after everything already queued for the chat."""
        chat = self._chats.setdefault(chat_id, _Chat())
        chat.queue.append(_Post(content))
        self._wake(chat_id, chat)

    def forget(self, chat_id: int, key: str) -> None:
        """Stop tracking a message (another key took it over); pending content is dropped."""
        chat = self._chats.get(chat_id)
        if chat is None:
            return
        chat.slots.pop(key, None)
        with contextlib.suppress(ValueError):
            chat.queue.remove(key)

    async def idle(self, chat_ids: Iterable[int] | None = None) -> None:
        """Wait until nothing is queued or being delivered (for these chats only, if given)."""
        if chat_ids is None:
            await self._idle.wait()
            return
        for chat_id in chat_ids:
            chat = self._chats.get(chat_id)
            if chat is not None and chat.worker is not None:
                await chat.idle.wait()

    async def close(self) -> None:
        self._closed = True
        workers = [c.worker for c in self._chats.values() if c.worker is not None]
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._chats.clear()
        self._idle.set()

    # ---------------------------------------------------------------- delivery

    def _wake(self, chat_id: int, chat: _Chat) -> None:
        if self._closed:
            return
        if chat.worker is None or chat.worker.done():
            self._idle.clear()
            chat.idle.clear()
            chat.worker = asyncio.create_task(self._work(chat_id, chat), name=f"outbox {chat_id}")

    async def _work(self, chat_id: int, chat: _Chat) -> None:
        try:
            while chat.queue:
                if chat_id < 0:
                    await self._pace(chat_id)
                if not chat.queue:
                    break
                item = chat.queue.popleft()
                try:
                    if isinstance(item, _Post):
                        await self._deliver_post(chat_id, chat, item)
                    else:
                        await self._deliver_slot(chat_id, chat, item)
                finally:
                    if chat_id < 0:
                        # Counted when the call is done: Telegram counted it at some moment
                        # before that, so the window never underestimates.
                        self._sent[chat_id].append(asyncio.get_running_loop().time())
        except Forbidden as error:
            chat.queue.clear()
            for slot in chat.slots.values():
                slot.wanted = None
            log.warning("outbox chat=%s forbidden: %s", chat_id, error.message)
            if self.on_forbidden is not None:
                await self._quietly(self.on_forbidden(chat_id))
        finally:
            chat.worker = None
            if chat.queue:
                self._wake(chat_id, chat)
            else:
                chat.idle.set()
                if all(c.worker is None for c in self._chats.values()):
                    self._idle.set()

    async def _deliver_post(self, chat_id: int, chat: _Chat, post: _Post) -> None:
        try:
            await self._retrying(lambda: self._send(chat_id, post.content))
        except _PutBack:
            chat.queue.appendleft(post)

    async def _deliver_slot(self, chat_id: int, chat: _Chat, key: str) -> None:
        slot = chat.slots.get(key)
        if slot is None or slot.wanted is None:
            return
        content, slot.wanted = slot.wanted, None
        slot.sending = content
        try:
            await self._retrying(lambda: self._put(chat_id, slot, content))
        except _PutBack:
            # Newer content, if any came while we waited, wins over what failed to go out.
            if slot.wanted is None:
                slot.wanted = content
            if key not in chat.queue:
                chat.queue.appendleft(key)
            return
        finally:
            slot.sending = None
        slot.shown = content
        if slot.last and slot.wanted is None:
            del chat.slots[key]

    async def _put(self, chat_id: int, slot: _Slot, content: Content) -> None:
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
                return
            except BadRequest as error:
                text = error.message.lower()
                if "not modified" in text:
                    return
                if "not found" not in text and "can't be edited" not in text:
                    raise
                log.info("outbox chat=%s message=%s is gone, sending anew", chat_id,
                         slot.message_id)
        message = await self._send(chat_id, content)
        slot.message_id = message.message_id
        if slot.on_sent is not None:
            await self._quietly(slot.on_sent(message.message_id))

    async def _send(self, chat_id: int, content: Content) -> Message:
        return await self._bot.send_message(
            chat_id,
            content.text,
            parse_mode=ParseMode.HTML,
            reply_markup=content.markup,
            link_preview_options=_NO_PREVIEW,
        )

    async def _retrying(self, call: Callable[[], Awaitable[object]]) -> None:
        """Run one delivery. A network error is retried in place; a 429 is waited out and
        raises `_PutBack` (the caller then sends the latest content); a 403 goes up to the
        worker; anything else is logged and the delivery dropped."""
        for attempt in range(1, _NETWORK_ATTEMPTS + 1):
            try:
                await call()
                return
            except RetryAfter as error:
                delay = _seconds(error)
                log.warning("outbox 429: waiting %.1fs", delay)
                await asyncio.sleep(delay)
                raise _PutBack from error
            except BadRequest as error:
                log.error("outbox dropped a message: %s", error.message)
                return
            except Forbidden:
                raise
            except NetworkError as error:
                if attempt == _NETWORK_ATTEMPTS:
                    log.error("outbox gave up after %d network errors: %s", attempt, error)
                    return
                await asyncio.sleep(attempt)
            except TelegramError as error:
                log.error("outbox dropped a message: %s", error)
                return

    async def _pace(self, chat_id: int) -> None:
        """Wait until one more call keeps the group within `group_rate` per `group_window`.

        A sliding window, like Telegram's: a leaky bucket would allow a burst and then a
        steady flow that together exceed the limit.
        """
        loop = asyncio.get_running_loop()
        sent = self._sent.setdefault(chat_id, deque())
        while True:
            now = loop.time()
            while sent and sent[0] <= now - self._group_window:
                sent.popleft()
            if len(sent) < self._group_rate:
                return
            await asyncio.sleep(sent[0] + self._group_window - now)

    @staticmethod
    async def _quietly(callback: Awaitable[None]) -> None:
        try:
            await callback
        except Exception:
            log.exception("outbox callback failed")


class _PutBack(Exception):
    """The item must be delivered again (after a 429)."""


def _seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():
        # PTB 22 warns that the int form is deprecated; both forms are handled here.
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
