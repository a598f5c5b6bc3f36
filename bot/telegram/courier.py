"""One delivery to Telegram: a message sent, edited, sent anew or probed for, with the
answer's errors sorted out (design: Within Telegram's limits).

- a 429 (`RetryAfter`) is waited out and the then-latest state is sent; a network error (a
  5xx, a timeout, a refused connection, a lost answer) is retried with a growing pause
  (`BACKOFF_MAX` at most) until the newest state is delivered: no restart needed;
- a send whose answer was lost may have arrived: before sending it again, the courier looks
  for it (`Courier.probe`), so that it does not appear twice;
- "message is not modified" counts as delivered; an edit of a deleted message sends a new one;
- a 403 goes up to the outbox, which drops the chat's pending work; other final errors drop
  the one message with a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import Awaitable, Callable
from datetime import timedelta

import httpx
from telegram import Bot, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

from bot.telegram.queue import ChatQueue, Content, Post, Slot, Uncertain
from storage.outbox import Delivered

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 5.0
"""Seconds between attempts after network errors: doubling from the first to the most, so
that the newest state arrives a few seconds after Telegram is back, however long it was gone."""
PROBE_LIMIT = 20
"""Message ids looked at for a send whose answer was lost."""
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


class Courier:
    """Delivers the first item of a chat's queue; ``mark`` is told of every stored message
    it delivered."""

    def __init__(self, bot: Bot, mark: Callable[[Delivered], None]) -> None:
        self._bot = bot
        self._mark = mark

    async def deliver_next(self, chat_id: int, chat: ChatQueue) -> bool:
        """Deliver the chat's first item; False if no call was made. Raises `Forbidden`
        (the chat refuses the bot): the outbox gives the chat up."""
        if not chat.queue:
            return False
        item = chat.queue.popleft()
        if isinstance(item, Post):
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
        self, chat_id: int, chat: ChatQueue, slot: Slot, content: Content, renew: bool = False
    ) -> None:
        if renew and slot.message_id is not None:
            old = slot.message_id
            message = await self._send(chat_id, chat, content, slot)
            await self._sent(slot, message.message_id)
            await self._drop(chat_id, old)
            return
        if slot.message_id is None and slot.uncertain is not None:
            found = await self.probe(chat_id, chat, slot.uncertain)
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

    async def _sent(self, slot: Slot, message_id: int) -> None:
        slot.message_id = message_id
        if slot.on_sent is not None:
            await quietly(slot.on_sent(message_id))

    async def _drop(self, chat_id: int, message_id: int) -> None:
        """Delete a message its newer copy replaced; one too old to delete is emptied."""
        try:
            await self._bot.delete_message(chat_id, message_id)
        except TelegramError as error:
            log.info("outbox chat=%s message=%s not deleted: %s", chat_id, message_id, error)
            with contextlib.suppress(TelegramError):
                await self._bot.edit_message_text("⬇", chat_id=chat_id, message_id=message_id)

    async def _send_post(self, chat_id: int, chat: ChatQueue, post: Post) -> None:
        if post.uncertain is not None:
            found = await self.probe(chat_id, chat, post.uncertain)
            post.uncertain = None
            if found is not None:
                return
        await self._send(chat_id, chat, post.content, post)

    async def _send(
        self, chat_id: int, chat: ChatQueue, content: Content, intent: Uncertain
    ) -> Message:
        """Send a new message; if no answer says whether it arrived, ``intent`` remembers
        it, so that the next attempt looks for it first instead of sending it twice."""
        try:
            message = await self._bot.send_message(
                chat_id,
                content.text,
                message_thread_id=content.topic or None,
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

    async def probe(self, chat_id: int, chat: ChatQueue, content: Content) -> int | None:
        """The id of a message with exactly ``content`` sent by a call that got no answer,
        or None if it did not arrive.

        The Bot API cannot list a chat's messages, but ids in a chat only grow: the lost
        message, if any, is among the few ids after the newest one of ours (`ChatQueue.floor`).
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
        self, chat_id: int, chat: ChatQueue, call: Callable[[], Awaitable[object]]
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


async def quietly(callback: Awaitable[None]) -> None:
    """Await a caller's callback; its failure is logged, never the outbox's."""
    try:
        await callback
    except Exception:
        log.exception("outbox callback failed")


class _PutBack(Exception):
    """The item must be delivered again (after a 429 or a network error)."""


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
