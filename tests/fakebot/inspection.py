"""Test-side reading of the fake server's state, and waiting helpers that need no sleeps.

Mixed into `FakeTelegramServer`.  Waiters re-check their condition whenever the relevant chat
changes (see `ChangeNotifier`) and fail with an AssertionError that shows the recent texts.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .notify import ANY
from .people import SimChat, SimUser
from .ratelimit import Served429
from .state import (
    CallbackAnswer,
    CallbackQueryRecord,
    ChatState,
    ChatStats,
    SimMessage,
    UploadedFile,
)
from .updates import PendingUpdate
from .world import ApiCall, World

T = TypeVar("T")
JSON = dict[str, Any]
ChatRef = SimChat | SimUser | int


class Inspection:
    """Read-only views and waits over a `World`."""

    world: World

    def _state(self, chat: ChatRef) -> ChatState:
        if isinstance(chat, SimChat):
            return chat.state
        if isinstance(chat, SimUser):
            return self.world.private_chat(chat.state)
        return self.world.chat(chat)

    # -- messages ----------------------------------------------------------------------------

    def messages(self, chat: ChatRef, *, from_bot: bool | None = None,
                 include_deleted: bool = False) -> list[SimMessage]:
        """Messages of `chat` in order (both senders unless `from_bot` says which)."""
        return SimChat(self.world, self._state(chat)).messages(
            from_bot=from_bot, include_deleted=include_deleted
        )

    def last_message(self, chat: ChatRef, *, from_bot: bool | None = True) -> SimMessage | None:
        """The newest non-deleted message — by default the bot's; from_bot=None: anyone's."""
        return SimChat(self.world, self._state(chat)).last_message(from_bot=from_bot)

    def message(self, chat: ChatRef, message_id: int) -> SimMessage:
        return self._state(chat).messages[message_id]

    def texts_shown(self, chat: ChatRef | None = None, *, from_bot: bool | None = None
                    ) -> list[str]:
        """Every text ever visible in `chat` (or in all chats): sends and each edited version."""
        chats = self.world.chats.values() if chat is None else [self._state(chat)]
        return [
            s.text for c in chats for s in c.shown if from_bot is None or s.from_bot == from_bot
        ]

    def chat_stats(self, chat: ChatRef) -> ChatStats:
        """sends / edits / deletes / actions / rejected_429 of the bot in `chat`."""
        return self._state(chat).stats

    def chat_actions(self, chat: ChatRef) -> list[str]:
        return list(self._state(chat).actions)

    # -- other records -----------------------------------------------------------------------

    @property
    def callback_queries(self) -> list[CallbackQueryRecord]:
        """Every button press, with `.answer` once the bot answered."""
        return list(self.world.callbacks.values())

    @property
    def callback_answers(self) -> list[tuple[str, CallbackAnswer]]:
        """(callback data, answer) of every answered button press, in press order."""
        return [(q.data, q.answer) for q in self.world.callbacks.values() if q.answer]

    @property
    def call_counts(self) -> Counter[str]:
        """Bot API calls per method name (as the bot spelled it)."""
        return self.world.call_counts

    @property
    def calls(self) -> list[ApiCall]:
        return self.world.calls

    @property
    def errors(self) -> list[ApiCall]:
        """Every call answered with ok=false."""
        return [c for c in self.world.calls if c.status != 200]

    @property
    def files(self) -> list[UploadedFile]:
        """Photos/documents the bot sent, with bytes and filename."""
        return self.world.files

    @property
    def served_429(self) -> list[Served429]:
        return self.world.limiter.served

    @property
    def updates_emitted(self) -> list[PendingUpdate]:
        """Every update created for the bot, delivered or not."""
        return self.world.all_updates

    @property
    def polls_waiting(self) -> int:
        """getUpdates long polls currently parked on the server."""
        return self.world.updates.polls_waiting

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by getUpdates (or not yet delivered to the webhook)."""
        hook = self.world.webhook
        return hook.pending_count if hook.active else self.world.updates.pending_count

    def commands(self, scope: JSON | None = None, language_code: str = "") -> list[JSON]:
        """What setMyCommands stored for `scope` (default scope) and language."""
        scope = scope or {"type": "default"}
        key = ",".join(f"{k}={scope[k]}" for k in sorted(scope))
        return list(self.world.commands.get((key, language_code), []))

    def description(self, kind: str = "description", language_code: str = "") -> str:
        """What setMyDescription (kind "description") or setMyShortDescription (kind
        "short_description") stored for the language ("" = the default)."""
        return self.world.descriptions.get((kind, language_code), "")

    def describe(self, chat: ChatRef | None = None) -> str:
        """Recent texts and failed calls, as printed by timed-out waits."""
        return self.world.describe(None if chat is None else [self._state(chat).id])

    # -- waiting -----------------------------------------------------------------------------

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 10.0,
        *,
        what: str = "condition",
        chats: Iterable[ChatRef] | None = None,
    ) -> T:
        """Return predicate()'s first truthy value, re-checking on every state change.

        With `chats`, only changes of those chats wake the check (cheaper under load).
        """
        ids = None if chats is None else [self._state(c).id for c in chats]
        keys: tuple[Any, ...] = (ANY,) if ids is None else tuple(ids)
        return await self.world.notifier.wait_until(
            predicate, timeout=timeout, keys=keys, what=what,
            describe=lambda: self.world.describe(ids),
        )

    async def wait_for_message(
        self,
        chat: ChatRef,
        *,
        after: SimMessage | int | None = None,
        contains: str | None = None,
        where: Callable[[SimMessage], bool] | None = None,
        from_bot: bool | None = True,
        timeout: float = 10.0,
    ) -> SimMessage:
        """The first (oldest) live message in `chat` newer than `after` that matches.

        `after` is a message or message id (e.g. the user's command); None means any message.
        `contains` is checked against the current text, `where` is any extra predicate.
        """
        state = self._state(chat)
        start = (after if isinstance(after, int) else after.message_id) if after else 0

        def find() -> SimMessage | None:
            for message_id in range(start + 1, state.next_message_id):
                msg = state.messages.get(message_id)
                if (
                    msg is not None and not msg.deleted
                    and (from_bot is None or msg.from_bot == from_bot)
                    and (contains is None or contains in msg.text)
                    and (where is None or where(msg))
                ):
                    return msg
            return None

        what = f"a message in chat {state.id} after #{start}"
        if contains is not None:
            what += f" containing {contains!r}"
        return await self.world.notifier.wait_until(
            find, timeout=timeout, keys=(state.id,), what=what,
            describe=lambda: self.world.describe([state.id]),
        )

    async def wait_for_edit(
        self,
        message: SimMessage,
        *,
        contains: str | None = None,
        since_version: int | None = None,
        timeout: float = 10.0,
    ) -> SimMessage:
        """Wait until `message` is edited.

        With `contains` only: until its current text contains it (already true returns at
        once).  Otherwise until it has more than `since_version` versions (default: the count
        at call time), and the text matches `contains` if given.
        """
        if since_version is None and contains is None:
            since_version = len(message.versions)
        floor = since_version or 0

        def edited() -> SimMessage | None:
            if len(message.versions) <= floor and since_version is not None:
                return None
            if contains is not None and contains not in message.text:
                return None
            return message

        return await self.world.notifier.wait_until(
            edited, timeout=timeout, keys=(message.chat.id,),
            what=f"an edit of message {message.chat.id}/{message.message_id}"
            + (f" containing {contains!r}" if contains else ""),
            describe=lambda: self.world.describe([message.chat.id]),
        )

    async def settle(self, quiet: float = 0.1, timeout: float = 10.0) -> None:
        """Wait until the bot is idle: no update left unfetched/undelivered and no API call
        for `quiet` seconds.  Use before asserting that something did *not* happen."""
        world = self.world
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            busy = (
                world.inflight > 0 or world.updates.unfetched_count > 0
                or world.webhook.pending_count > 0
            )
            idle_for = now - world.last_activity
            if not busy and idle_for >= quiet:
                return
            if now >= deadline:
                raise AssertionError(
                    f"bot did not settle within {timeout:g}s\n{world.describe()}"
                )
            await asyncio.sleep(max(0.005, min(quiet - idle_for, deadline - now, quiet)))
