"""/kick votes: who asked to hand a seat of a running match to a computer player (issue 6),
stored so that every bot process of the database counts the same votes (issue 17)."""

from __future__ import annotations

from storage._rows import to_text
from storage.backend import Backend
from storage.conn import Conn
from storage.locks import match_lock


class KickVotes:
    """Repository of the ``kick_votes`` table."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    async def add(self, match_id: int, seat: int, voter_id: int) -> set[int]:
        """Store the vote (once per voter) and return everyone who voted for the seat."""
        stamp = to_text(self._db.now())

        async def work(conn: Conn) -> set[int]:
            # The votes read back include those of a voter who votes at the same moment on
            # another process (their write waits for this one, or this one for theirs).
            await conn.lock(match_lock(match_id))
            await conn.execute(
                "INSERT INTO kick_votes (match_id, seat, voter_id, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id, seat, voter_id) DO NOTHING",
                (match_id, seat, voter_id, stamp),
            )
            rows = await conn.rows(
                "SELECT voter_id FROM kick_votes WHERE match_id = ? AND seat = ?",
                (match_id, seat),
            )
            return {int(row["voter_id"]) for row in rows}

        return await self._db.write(work)

    async def clear(self, match_id: int, seat: int) -> None:
        """Forget the seat's votes (it was handed over)."""
        await self._db.execute(
            "DELETE FROM kick_votes WHERE match_id = ? AND seat = ?", (match_id, seat)
        )
