"""What a bot process asks of the running matches when other processes write the same
database (issue 17): where a match stands — its stored version (the copy in memory may be
behind) and which of its players the bot cannot write to privately (another process may
have learnt it) — and the running matches of a chat or a user (another process may have
started them); and, for any process that loads a match anew (another's change, a restart),
when lines of its log were stored."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from storage._rows import placeholders
from storage.backend import Backend


@dataclass(frozen=True)
class Standing:
    """A running match as stored."""

    version: int
    closed: frozenset[int]
    """Its human players whose private chat with the bot is not open (never started, or
    blocked: `storage.users`' ``private_chat_opened``)."""


class RunningMatches:
    """Reads of the running matches: for processes that share the database, and the times
    of a log for any process that loads a match anew."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    async def standing(self, match_id: int) -> Standing | None:
        """Where the running match stands (None: it is not running, or not there)."""
        rows = await self._db.fetch_all(
            "SELECT m.version, s.user_id, u.private_chat_opened FROM matches m "
            "JOIN match_seats s ON s.match_id = m.match_id "
            "LEFT JOIN users u ON u.user_id = s.user_id "
            "WHERE m.match_id = ? AND m.status = 'running'",
            (match_id,),
        )
        if not rows:
            return None
        closed = frozenset(
            int(row["user_id"]) for row in rows
            if row["user_id"] is not None and not row["private_chat_opened"]
        )
        return Standing(int(rows[0]["version"]), closed)

    async def ids_for(self, chat_id: int | None, user_id: int | None) -> list[int]:
        """The running matches of the chat (any topic) and of the user's seats, by id."""
        rows = await self._db.fetch_all(
            "SELECT match_id FROM matches m WHERE status = 'running' AND (chat_id = ? OR "
            "EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.match_id "
            "AND s.user_id = ?)) ORDER BY match_id",
            (chat_id, user_id),
        )
        return [int(row["match_id"]) for row in rows]

    async def line_times(self, match_id: int, seqs: Sequence[int]) -> dict[int, datetime]:
        """When the log lines ``seqs`` of the match were stored (a line whose time cannot
        be read is left out)."""
        if not seqs:
            return {}
        rows = await self._db.fetch_all(
            "SELECT seq, created_at FROM match_log WHERE match_id = ? "
            f"AND seq IN ({placeholders(seqs)})",
            (match_id, *seqs),
        )
        times = {}
        for row in rows:
            with contextlib.suppress(TypeError, ValueError):
                at = datetime.fromisoformat(str(row["created_at"]))
                if at.tzinfo is not None:
                    times[int(row["seq"])] = at
        return times
