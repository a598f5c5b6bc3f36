"""The outbox: brings the bot's messages to their latest wanted state within Telegram's limits.

Callers say what a message should show (`show`, keyed per chat, e.g. a match's table or a
player's hand) or that a new message must appear (`post`); they never wait for Telegram. One
worker per chat delivers in order, one call at a time (`bot.telegram.queue` holds what waits,
`bot.telegram.courier` makes each call):

- pending states of one message coalesce: the latest wins — by the version of the match a
  state shows, where it is given: a state older than one the message was already asked to
  show is stale and dropped (several processes of one database hand the one that sends their
  states through the database, `bot.telegram.relay`, and those of two processes may arrive
  out of order);
- every call first gets a place from the `Pacer` (`bot.telegram.pacer`: Telegram's limits),
  and only then takes the content, so what it sends is the newest state at the moment it may
  send;
- when the bot has more to send than the limits let through, the places go first to the
  messages that give someone buttons to press (`Urgency.ACT`), then to everything else;
  a private message whose text alone changed (the state of a deal while it is someone else's
  turn) is `Urgency.LAZY`: it waits a moment, so that the player's next turn, which redraws it
  anyway, usually makes the edit unnecessary;
- new messages go before the edits queued ahead of them, and a group keeps `GROUP_RESERVE`
  places of its window for them: a command's reply never waits behind table refreshes;
- a message may be sent anew at the bottom of its chat (`renew`; the old one is deleted):
  Telegram notifies of new messages, never of edits;
- a 429 is waited out, a network error retried, a lost send looked for before it is sent
  again (`bot.telegram.courier`); a 403 drops the chat's pending work and tells the owner
  (`on_forbidden`).

Messages stored in the database outbox (`storage.outbox`: a ``version`` or ``key`` given) are
reported to `Outbox.on_delivered` once shown or given up on; what is still queued when the
bot stops stays stored and is delivered at the next start (`bot.match.recovery`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable

from telegram import Bot
from telegram.error import Forbidden

from bot.telegram.courier import Courier, quietly
from bot.telegram.pacer import Pacer, Ticket, Urgency
from bot.telegram.queue import (
    ChatQueue,
    Content,
    Newest,
    OnSent,
    Post,
    Slot,
    give_up,
    head,
    new_messages_first,
    newer,
    sends_next,
    urgency_of,
)
from storage.outbox import Delivered

__all__ = ["Content", "OnSent", "Outbox"]

log = logging.getLogger(__name__)

OnForbidden = Callable[[int], Awaitable[None]]
OnDelivered = Callable[[Delivered], None]

LAZY_SECONDS = 4.0
"""How long a `Urgency.LAZY` edit waits for a newer state before it is sent (a watcher's hand
usually changes again within a press or two, which are about 2 s apart; issue 13)."""


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
        self._chats: dict[int, ChatQueue] = {}
        self._newest = Newest()
        self._idle = asyncio.Event()
        self._idle.set()
        self._workers = 0
        """Chats with a worker running (the outbox is idle at 0)."""
        self._flushing = 0
        self._closed = False
        self._courier = Courier(bot, self._mark)

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
        version: int | None = None, state: int | None = None,
    ) -> None:
        """Make the message `key` of the chat show `content` (sending it if it has no id yet).

        `message_id` and `on_sent` matter the first time a key is shown: the stored id of the
        message to edit, and what to call with the id of a newly sent one. `last` says the
        message will not change again (its game is over), so the outbox can forget it.
        `renew` sends it anew at the bottom of the chat and deletes the old one (it notifies).
        `version`: stored as the database outbox's row `key` at it, marked once shown
        (`on_delivered`); `state` (or else `version`): the match version shown (`Newest`).
        """
        if self._newest.stale(chat_id, key, version if state is None else state):
            return
        chat = self._chats.setdefault(chat_id, ChatQueue())
        slot = chat.slots.get(key)
        if slot is None:
            slot = chat.slots[key] = Slot(message_id, on_sent)
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
        urgency = urgency_of(chat_id, slot, content)
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
        self, chat_id: int, chat: ChatQueue, key: str, slot: Slot, queued: bool, version: int
    ) -> None:
        """A stored state equal to what the message shows, or is about to: mark it with
        that delivery."""
        if queued and slot.wanted is not None:
            slot.wanted_version = newer(slot.wanted_version, version)
        elif slot.sending is not None:
            slot.sending_version = newer(slot.sending_version, version)
        else:
            self._mark(Delivered(chat_id, key, version, done=slot.last))
            if slot.last:
                chat.slots.pop(key, None)

    def post(
        self, chat_id: int, content: Content, *, key: str | None = None, version: int = 0
    ) -> None:
        """Send a new message after everything already queued for the chat (`key`: its row
        in the database outbox, removed once it is sent)."""
        chat = self._chats.setdefault(chat_id, ChatQueue())
        chat.queue.append(Post(content, key, version))
        if chat.ticket is not None:
            self.pacer.raise_urgency(chat.ticket, Urgency.NORMAL)
        chat.changed.set()
        self._wake(chat_id, chat)

    def saw(self, chat_id: int, message_id: int) -> None:
        """A message with this id exists in the chat (any sender's: an update showed it). Ids
        in a chat only grow, so a send made after this that got no answer, if it arrived, has
        a greater id: where `Courier.probe` looks for it."""
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = ChatQueue()
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

    # ---------------------------------------------------------------- the workers

    def _wake(self, chat_id: int, chat: ChatQueue) -> None:
        if self._closed:
            return
        if chat.worker is None or chat.worker.done():
            self._idle.clear()
            chat.idle.clear()
            self._workers += 1
            chat.worker = asyncio.create_task(self._work(chat_id, chat), name=f"outbox {chat_id}")

    async def _work(self, chat_id: int, chat: ChatQueue) -> None:
        loop = asyncio.get_running_loop()
        try:
            while chat.queue:
                urgency, due = head(chat, self._flushing > 0)
                wait = max(due, chat.resume_at) - loop.time()
                if wait > 0:
                    chat.changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(chat.changed.wait(), wait)
                    continue
                new_messages_first(chat)
                chat.ticket = Ticket(urgency, fresh=sends_next(chat))
                try:
                    async with self.pacer.slot(chat_id, chat.ticket) as permit:
                        chat.ticket = None
                        permit.used = await self._courier.deliver_next(chat_id, chat)
                finally:
                    chat.ticket = None
        except Forbidden as error:
            give_up(chat_id, chat, self._mark)
            log.warning("outbox chat=%s forbidden: %s", chat_id, error.message)
            if self.on_forbidden is not None:
                await quietly(self.on_forbidden(chat_id))
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

    def _mark(self, delivered: Delivered) -> None:
        if self.on_delivered is not None:
            self.on_delivered(delivered)
