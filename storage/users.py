"""Users: who talked to the bot, their language, and whether the private chat is open.

The bot upserts a user on every update it handles (name and Telegram language change over
time), stores the language chosen with /lang, and remembers whether the user has opened the
private chat — without it Telegram refuses to deliver the private hand message (403).
A user row must exist before the user creates a lobby or takes a seat (foreign keys).
"""

from __future__ import annotations

from datetime import datetime

from storage._rows import check_language, load, to_text
from storage.backend import Backend
from storage.errors import NotFound
from storage.models import User

_COLUMNS = (
    "user_id, first_name, username, language, telegram_language, private_chat_opened, "
    "turn_pings, created_at, updated_at"
)


class Users:
    """Repository of the ``users`` table."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    async def upsert(
        self,
        user_id: int,
        *,
        first_name: str,
        username: str | None = None,
        telegram_language: str | None = None,
    ) -> User:
        """Create the user or refresh their name, username and Telegram language.

        The chosen language and the private-chat flag are kept. Nothing is written when nothing
        changed, so calling this on every update is cheap.
        """
        now = to_text(self._db.now())
        async with self._db.transaction():
            await self._db.execute(
                "INSERT INTO users (user_id, first_name, username, telegram_language, "
                "                   created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET first_name = excluded.first_name, "
                "    username = excluded.username, "
                "    telegram_language = excluded.telegram_language, "
                "    updated_at = excluded.updated_at "
                "WHERE users.first_name IS DISTINCT FROM excluded.first_name "
                "   OR users.username IS DISTINCT FROM excluded.username "
                "   OR users.telegram_language IS DISTINCT FROM excluded.telegram_language",
                (user_id, first_name, username, telegram_language, now, now),
            )
            return await self._require(user_id)

    async def get(self, user_id: int) -> User | None:
        """The user, or None if the bot has never seen them."""
        row = await self._db.fetch_one(
            f"SELECT {_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        )
        return None if row is None else load(User, row, table="users", key=user_id)

    async def changed_since(self, moment: datetime) -> list[User]:
        """The users changed at or after ``moment`` (by their ``updated_at``), oldest change
        first: what another process's cache must re-read."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM users WHERE updated_at >= ? ORDER BY updated_at, user_id",
            (to_text(moment),),
        )
        return [load(User, row, table="users", key=row.get("user_id")) for row in rows]

    async def set_language(self, user_id: int, language: str | None) -> User:
        """Store the language chosen with /lang (None: back to Telegram's / the default)."""
        check_language(language)
        return await self._update(user_id, "language = ?", (language,))

    async def set_private_chat_opened(self, user_id: int, opened: bool = True) -> User:
        """Record that the user opened the private chat (or, with False, blocked the bot)."""
        return await self._update(user_id, "private_chat_opened = ?", (int(opened),))

    async def set_turn_pings(self, user_id: int, on: bool) -> User:
        """Whether a new message tells the user it is their turn (/notify)."""
        return await self._update(user_id, "turn_pings = ?", (int(on),))

    async def _update(self, user_id: int, assignment: str, values: tuple[object, ...]) -> User:
        async with self._db.transaction():
            changed = await self._db.execute(
                f"UPDATE users SET {assignment}, updated_at = ? WHERE user_id = ?",
                (*values, to_text(self._db.now()), user_id),
            )
            if changed == 0:
                raise NotFound("user", user_id)
            return await self._require(user_id)

    async def _require(self, user_id: int) -> User:
        user = await self.get(user_id)
        if user is None:
            raise NotFound("user", user_id)
        return user
