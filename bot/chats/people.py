"""Who the bot talks to: users and chats stored on every update, their languages and names.

Users and chats must be stored before they create a lobby or take a seat (foreign keys), so
every handler calls `remember`. Bots are not stored, but for Telegram's ``GroupAnonymousBot``,
the sender of a group's anonymous administrators, which may open a lobby. Rows are cached in
memory: an update from a known user with the same name and language costs no database write.
Where other processes share the database (issue 17), whether a user's private chat is open
is read from it and always written: another process may have taken their /start, or
Telegram's refusal; and the cached users and chats that changed are re-read every
`REFRESH_SECONDS` (`refresh`), so a /lang or /notify taken by another process counts here
within about a second.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Final

import telegram

from bot.i18n import pick_language
from storage import Chat, ChatType, Store, User

ANONYMOUS_ADMIN_ID: Final = 1087968824
"""Telegram's ``GroupAnonymousBot``: the sender of an anonymous administrator's messages."""
REFRESH_SECONDS = 1.0
"""How often a process of a shared database re-reads the users and chats that changed."""
OVERLAP_SECONDS = 5.0
"""Each refresh reads back this far before the last one: the processes' clocks stamp the
changes, and may disagree by a little (a change read twice is harmless)."""
_CHAT_TYPES: dict[str, ChatType] = {
    "private": "private", "group": "group", "supergroup": "supergroup", "channel": "channel",
}


class People:
    """Users and chats as stored, with the language to use for each."""

    def __init__(self, store: Store, default_language: str) -> None:
        self._store = store
        self.default_language = default_language
        self._users: dict[int, User] = {}
        self._chats: dict[int, Chat] = {}
        self._refreshed: datetime | None = None

    async def refresh(self) -> int:
        """Re-read the cached users and chats that changed since the last refresh (less
        `OVERLAP_SECONDS`; the first one only marks the time); how many were re-read."""
        now = self._store.db.now()
        since, self._refreshed = self._refreshed, now
        if since is None:
            return 0
        since -= timedelta(seconds=OVERLAP_SECONDS)
        users = await self._store.users.changed_since(since)
        chats = await self._store.chats.changed_since(since)
        users = [user for user in users if user.user_id in self._users]
        chats = [chat for chat in chats if chat.chat_id in self._chats]
        for user in users:
            self._users[user.user_id] = user
        for chat in chats:
            self._chats[chat.chat_id] = chat
        return len(users) + len(chats)

    async def remember(self, update: telegram.Update) -> None:
        """Store the update's user and chat (if any)."""
        user = update.effective_user
        if user is not None and (not user.is_bot or user.id == ANONYMOUS_ADMIN_ID):
            await self.remember_user(user)
        if update.effective_chat is not None:
            await self.remember_chat(update.effective_chat)

    async def remember_user(self, tg_user: telegram.User) -> User:
        known = self._users.get(tg_user.id)
        if (
            known is not None
            and known.first_name == tg_user.first_name
            and known.username == tg_user.username
            and known.telegram_language == tg_user.language_code
        ):
            return known
        user = await self._store.users.upsert(
            tg_user.id,
            first_name=tg_user.first_name,
            username=tg_user.username,
            telegram_language=tg_user.language_code,
        )
        self._users[user.user_id] = user
        return user

    async def remember_chat(self, tg_chat: telegram.Chat) -> Chat:
        known = self._chats.get(tg_chat.id)
        if known is not None and known.type == tg_chat.type and known.title == tg_chat.title:
            return known
        kind = _CHAT_TYPES.get(tg_chat.type, "private")
        chat = await self._store.chats.upsert(tg_chat.id, type=kind, title=tg_chat.title)
        self._chats[chat.chat_id] = chat
        return chat

    async def user(self, user_id: int) -> User | None:
        known = self._users.get(user_id)
        if known is None:
            known = await self._store.users.get(user_id)
            if known is not None:
                self._users[user_id] = known
        return known

    async def user_language(self, user_id: int) -> str:
        user = await self.user(user_id)
        if user is None:
            return self.default_language
        return pick_language(user.language, user.telegram_language, self.default_language)

    async def chat_language(self, chat_id: int) -> str:
        if chat_id > 0:
            # A private chat (a /solo match's table) speaks its user's language.
            return await self.user_language(chat_id)
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = await self._store.chats.get(chat_id)
            if chat is not None:
                self._chats[chat_id] = chat
        chosen = chat.language if chat is not None else None
        return pick_language(chosen, None, self.default_language)

    async def set_user_language(self, user_id: int, language: str) -> None:
        self._users[user_id] = await self._store.users.set_language(user_id, language)

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        self._chats[chat_id] = await self._store.chats.set_language(chat_id, language)

    async def set_opened(self, user_id: int, opened: bool) -> None:
        """Record whether the bot can write to the user privately (only on a change, as
        far as a process alone on its database knows)."""
        user = await self.user(user_id)
        if user is not None and (self._store.shared or user.private_chat_opened != opened):
            self._users[user_id] = await self._store.users.set_private_chat_opened(
                user_id, opened
            )

    async def opened(self, user_id: int) -> bool:
        """Whether the bot can write to the user privately (they pressed Start)."""
        if self._store.shared:
            user = await self._store.users.get(user_id)
            if user is not None:
                self._users[user_id] = user
        else:
            user = await self.user(user_id)
        return user is not None and user.private_chat_opened

    async def pings(self, user_id: int) -> bool:
        """Whether a new message tells the user it is their turn (/notify; on by default)."""
        user = await self.user(user_id)
        return user is None or user.turn_pings

    async def set_pings(self, user_id: int, on: bool) -> None:
        self._users[user_id] = await self._store.users.set_turn_pings(user_id, on)

    async def names(self, user_ids: Iterable[int | None]) -> tuple[str, ...]:
        """Display names, one per seat (an empty name for a seat without a user)."""
        names = []
        for user_id in user_ids:
            user = await self.user(user_id) if user_id is not None else None
            names.append(user.first_name if user is not None else "")
        return tuple(names)
