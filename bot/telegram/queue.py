"""What the outbox holds per chat: the messages it keeps up to date (`Slot`, keyed), the new
messages to send (`Post`), the chat's queue of both (`ChatQueue`), and the rules of which goes
first (`urgency_of`, `head`, `new_messages_first`) and how a refused chat is given up (`give_up`);
and the newest match version each message was asked to show (`Newest`), to drop stale states.

A message's content is `Content`: HTML text and its inline keyboard.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from telegram import InlineKeyboardMarkup

from bot.telegram.pacer import Ticket, Urgency
from storage.outbox import Delivered

OnSent = Callable[[int], Awaitable[None]]

log = logging.getLogger(__name__)

NEWEST_MEMORY = 16384
"""Messages whose newest match version `Newest` remembers."""


@dataclass(frozen=True)
class Content:
    """What a message shows: HTML text and its inline keyboard; and the forum topic a new
    message goes to (its ``message_thread_id``; 0: none, the chat itself or General)."""

    text: str
    markup: InlineKeyboardMarkup | None = None
    topic: int = 0


@dataclass
class Slot:
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
    """A send of this content got no answer: it may have arrived (see `Courier.probe`)."""

    def upcoming(self, queued: bool) -> Content | None:
        """What the message will show once the work already started or queued is done."""
        if queued and self.wanted is not None:
            return self.wanted
        return self.sending if self.sending is not None else self.shown


@dataclass(eq=False)
class Post:
    content: Content
    key: str | None = None
    """The stored row of this message (None: not stored)."""
    version: int = 0
    uncertain: Content | None = None


@dataclass
class ChatQueue:
    queue: deque[str | Post] = field(default_factory=deque)
    slots: dict[str, Slot] = field(default_factory=dict)
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


class Uncertain(Protocol):
    uncertain: Content | None


def urgency_of(chat_id: int, slot: Slot, content: Content) -> Urgency:
    if chat_id < 0:
        return Urgency.NORMAL
    if content.markup is not None and content.markup.inline_keyboard:
        return Urgency.ACT
    shown = slot.sending if slot.sending is not None else slot.shown
    if shown is None or (shown.markup is not None and shown.markup.inline_keyboard):
        # A message to send anew, or one whose buttons must go: not lazy.
        return Urgency.NORMAL
    return Urgency.LAZY


def head(chat: ChatQueue, flushing: bool) -> tuple[Urgency, float]:
    """The chat's urgency (its most urgent item) and when its first item may go."""
    urgency, due = Urgency.LAZY, math.inf
    for item in chat.queue:
        if isinstance(item, Post):
            urgency, due = min(urgency, Urgency.NORMAL), 0.0
            continue
        slot = chat.slots.get(item)
        if slot is None or slot.wanted is None:
            due = 0.0  # nothing to wait for: let the worker drop it
            continue
        urgency, due = min(urgency, slot.urgency), min(due, slot.due)
    if flushing:
        due = 0.0
    return urgency, due


def new_messages_first(chat: ChatQueue) -> None:
    """A new message (a command's reply, a deal result) goes before the edits queued
    ahead of it: they only bring shown messages up to date, and a later edit would show
    the same. (A message to send anew keeps its place: it must come after them.)"""
    for index, item in enumerate(chat.queue):
        if isinstance(item, Post):
            if index:
                del chat.queue[index]
                chat.queue.appendleft(item)
            return
        slot = chat.slots.get(item)
        if slot is not None and (slot.renew or slot.message_id is None):
            return


def sends_next(chat: ChatQueue) -> bool:
    """Whether the chat's first item is a new message (a send, not an edit)."""
    if not chat.queue:
        return False
    item = chat.queue[0]
    if isinstance(item, Post):
        return True
    slot = chat.slots.get(item)
    return slot is not None and (slot.renew or slot.message_id is None)


def newer(version: int | None, other: int) -> int:
    return other if version is None else max(version, other)


def give_up(chat_id: int, chat: ChatQueue, mark: Callable[[Delivered], None]) -> None:
    """Drop the chat's pending work (Telegram refuses it for good); its stored messages
    count as delivered, or every start would try them again."""
    for item in chat.queue:
        if isinstance(item, Post):
            if item.key is not None:
                mark(Delivered(chat_id, item.key, item.version, done=True))
            continue
        slot = chat.slots.get(item)
        if slot is not None and slot.wanted_version is not None:
            mark(Delivered(chat_id, item, slot.wanted_version, done=True))
    chat.queue.clear()
    for slot in chat.slots.values():
        slot.wanted, slot.wanted_version = None, None


class Newest:
    """Per message (chat and key), the newest match version it was asked to show: a state
    older than that is stale. Two processes of one database hand the sending one their states
    through the relay (`bot.telegram.relay`), and those may arrive out of order."""

    def __init__(self) -> None:
        self._versions: OrderedDict[tuple[int, str], int] = OrderedDict()

    def stale(self, chat_id: int, key: str, version: int | None) -> bool:
        """Whether ``version`` (None: not a match's state) is older than the newest the
        message was asked to show; if not, it is the newest now."""
        if version is None:
            return False
        place = (chat_id, key)
        known = self._versions.get(place)
        if known is not None and version < known:
            log.info("a stale state (version %s) of %s in chat %s dropped", version, key, chat_id)
            return True
        self._versions[place] = version
        self._versions.move_to_end(place)
        if len(self._versions) > NEWEST_MEMORY:
            self._versions.popitem(last=False)
        return False
