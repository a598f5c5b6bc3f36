"""Chats: the group (and private) chats the bot is used in, and their chosen language.

A chat row must exist before a lobby or a match is made in it (foreign keys). When Telegram
turns a group into a supergroup the chat gets a new id; `Chats.migrate` moves the chat's
lobbies and matches to it so running games follow.
"""

from __future__ import annotations

from datetime import datetime
from typing import get_args

from storage._rows import check_language, load, to_text
from storage.backend import Backend
from storage.errors import NotFound
from storage.locks import chat_lock
from storage.models import Chat, ChatType

_COLUMNS = "chat_id, type, title, language, created_at, updated_at"


class Chats:
    """Repository of the ``chats`` table."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    async def upsert(self, chat_id: int, *, type: ChatType, title: str | None = None) -> Chat:
        """Create the chat or refresh its type and title (the chosen language is kept)."""
        if type not in get_args(ChatType):
            raise ValueError(f"unknown chat type {type!r}")
        now = to_text(self._db.now())
        async with self._db.transaction():
            await self._db.execute(
                "INSERT INTO chats (chat_id, type, title, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (chat_id) DO UPDATE SET type = excluded.type, "
                "    title = excluded.title, updated_at = excluded.updated_at "
                "WHERE chats.type IS DISTINCT FROM excluded.type "
                "   OR chats.title IS DISTINCT FROM excluded.title",
                (chat_id, type, title, now, now),
            )
            return await self._require(chat_id)

    async def get(self, chat_id: int) -> Chat | None:
        """The chat, or None."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM chats WHERE chat_id = ?", (chat_id,)
        )
        return None if row is None else load(Chat, row, table="chats", key=chat_id)

    async def changed_since(self, moment: datetime) -> list[Chat]:
        """The chats changed at or after ``moment`` (by their ``updated_at``), oldest change
        first: what another process's cache must re-read."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM chats WHERE updated_at >= ? ORDER BY updated_at, chat_id",
            (to_text(moment),),
        )
        return [load(Chat, row, table="chats", key=row.get("chat_id")) for row in rows]

    async def set_language(self, chat_id: int, language: str | None) -> Chat:
        """Store the language chosen with /lang in the chat (None: back to the default)."""
        check_language(language)
        async with self._db.transaction():
            changed = await self._db.execute(
                "UPDATE chats SET language = ?, updated_at = ? WHERE chat_id = ?",
                (language, to_text(self._db.now()), chat_id),
            )
            if changed == 0:
                raise NotFound("chat", chat_id)
            return await self._require(chat_id)

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> Chat:
        """Move a chat to its new id (group -> supergroup): lobbies and matches follow.

        If the new chat is not stored yet, the row itself takes the new id (keeping its
        language); otherwise the old row's lobbies and matches move to the existing new row and
        the old row is deleted. Raises `ChatBusy` if both chats have a game.
        """
        if old_chat_id == new_chat_id:
            raise ValueError("the old and the new chat id are the same")
        now = to_text(self._db.now())
        async with self._db.transaction():
            # Both chats' games move or merge: no lobby or match opens in either meanwhile.
            await self._db.lock(chat_lock(old_chat_id), chat_lock(new_chat_id))
            old = await self.get(old_chat_id)
            if old is None:
                raise NotFound("chat", old_chat_id)
            new = await self.get(new_chat_id)
            if new is None:
                # ON UPDATE CASCADE carries lobbies.chat_id and matches.chat_id along.
                await self._db.execute(
                    "UPDATE chats SET chat_id = ?, type = 'supergroup', updated_at = ? "
                    "WHERE chat_id = ?",
                    (new_chat_id, now, old_chat_id),
                )
            else:
                for table in ("lobbies", "matches"):
                    await self._db.execute(
                        f"UPDATE {table} SET chat_id = ?, updated_at = ? WHERE chat_id = ?",
                        (new_chat_id, now, old_chat_id),
                    )
                if new.language is None and old.language is not None:
                    await self._db.execute(
                        "UPDATE chats SET language = ?, updated_at = ? WHERE chat_id = ?",
                        (old.language, now, new_chat_id),
                    )
                await self._db.execute("DELETE FROM chats WHERE chat_id = ?", (old_chat_id,))
            return await self._require(new_chat_id)

    async def _require(self, chat_id: int) -> Chat:
        chat = await self.get(chat_id)
        if chat is None:
            raise NotFound("chat", chat_id)
        return chat
