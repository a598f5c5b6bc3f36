"""What a bot process asks of the running matches when other processes write the same
database (issue 17): a match's stored version (its copy in memory may be behind) and the
running matches of a chat or a user (another process may have started them)."""

from __future__ import annotations

from storage.backend import Backend


class RunningMatches:
    """Reads of the ``matches`` table for processes that share it."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    async def version(self, match_id: int) -> int | None:
        """The version of the running match (None: it is not running, or not there)."""
        value = await self._db.fetch_value(
            "SELECT version FROM matches WHERE match_id = ? AND status = 'running'", (match_id,)
        )
        return value if isinstance(value, int) else None

    async def ids_for(self, chat_id: int | None, user_id: int | None) -> list[int]:
        """The running matches of the chat (any topic) and of the user's seats, by id."""
        rows = await self._db.fetch_all(
            "SELECT match_id FROM matches m WHERE status = 'running' AND (chat_id = ? OR "
            "EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.match_id "
            "AND s.user_id = ?)) ORDER BY match_id",
            (chat_id, user_id),
        )
        return [int(row["match_id"]) for row in rows]
