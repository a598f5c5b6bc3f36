"""Marks the stored messages the outbox delivered (`storage.outbox`), a batch at a time; and
the ids of the hand messages it sent anew.

The outbox reports each delivery at once; writing each mark in a transaction of its own
would cost a commit (an fsync) per message and hold the database lock that presses wait for.
So marks are merged per message (the newest wins) and written together about once a second.
A crash before a batch is written only makes the next start redraw a message that is already
up to date (an edit that changes nothing) — except for a new message, which would appear
twice: those marks (a post, a match's result) are written at once.

A hand sent anew (a turn's ping, Telegram notifies of new messages only) gets a new message
id, which the next start edits. Under load nearly every turn is such a ping, so those ids are
batched the same way; a crash before they are written makes the next start edit the older
message, which is gone, so it sends the hand anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3

from storage import ConstraintViolation, StorageError, Store
from storage.outbox import Delivered

log = logging.getLogger(__name__)

EVERY_SECONDS = 1.0


class Ledger:
    def __init__(self, store: Store, *, every: float = EVERY_SECONDS) -> None:
        self._store = store
        self._every = every
        self._marks: dict[tuple[int, str], Delivered] = {}
        self._hands: dict[tuple[int, int], int] = {}
        self._soon = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def pending(self) -> int:
        """Marks and hand message ids not written yet."""
        return len(self._marks) + len(self._hands)

    def hand_sent(self, match_id: int, seat: int, message_id: int) -> None:
        """Note the id of a seat's hand message, sent anew."""
        self._hands[match_id, seat] = message_id
        self._start()

    def delivered(self, mark: Delivered) -> None:
        """Note that a stored message was shown (the outbox's `on_delivered`)."""
        self._note(mark)
        if self._closed:
            return
        if mark.done and not mark.key.startswith(("table:", "hand:")):
            self._soon.set()
        self._start()

    def _start(self) -> None:
        if self._closed:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="outbox ledger")

    def _note(self, mark: Delivered) -> None:
        name = (mark.chat_id, mark.key)
        known = self._marks.get(name)
        if known is None or (mark.version, mark.done) >= (known.version, known.done):
            self._marks[name] = mark

    async def _run(self) -> None:
        while (self._marks or self._hands) and not self._closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._soon.wait(), self._every)
            self._soon.clear()
            await self.flush()

    async def flush(self) -> None:
        """Write the marks and hand message ids noted so far."""
        marks, self._marks = self._marks, {}
        hands, self._hands = self._hands, {}
        try:
            await self._store.outbox.delivered(list(marks.values()))
        except (StorageError, sqlite3.Error) as error:
            log.error("%d delivery marks not written, kept for later: %s", len(marks), error)
            for mark in marks.values():
                self._note(mark)
        try:
            await self._store.matches.set_hand_message_ids(
                [(match_id, seat, message_id) for (match_id, seat), message_id in hands.items()]
            )
        except ConstraintViolation as error:
            # Not a passing fault: the same batch would fail for ever.
            log.error("%d hand message ids refused, dropped: %s", len(hands), error)
        except (StorageError, sqlite3.Error) as error:
            log.error("%d hand message ids not written, kept for later: %s", len(hands), error)
            self._hands = {**hands, **self._hands}

    async def close(self) -> None:
        """Write what is left and stop."""
        self._closed = True
        self._soon.set()
        if self._task is not None:
            await self._task
            self._task = None
        await self.flush()
