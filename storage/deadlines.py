"""Turn deadlines: when the seat to act runs out of time, stored so timers survive a restart.

The bot arms a timer in memory and stores the same deadline with the action that passed the
turn (`storage.writes.MatchWrite.deadline`); after a restart it lists the deadlines and re-arms
them (an overdue one fires at once). Each deadline records the match version it was armed at:
a timer firing for an older version is stale and does nothing. Deadlines exist only for
running matches; finishing or abandoning a match deletes them (a trigger does it).
"""

from __future__ import annotations

from datetime import datetime

from storage._rows import load, to_text
from storage.backend import Backend
from storage.conn import Row
from storage.errors import NotFound, WrongStatus
from storage.locks import match_lock
from storage.models import Deadline

_COLUMNS = "match_id, seat, deadline, version"


class Deadlines:
    """Repository of the ``turn_deadlines`` table."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    async def set(self, match_id: int, seat: int, deadline: datetime, *, version: int) -> Deadline:
        """Arm (or move) the deadline of `seat`; `version` is the match version it is for.

        Other seats' deadlines are kept; call `clear` first to keep only this one.
        Raises `WrongStatus` if the match is over, `NotFound` for an unknown match or seat.
        """
        if isinstance(version, bool) or version < 0:
            raise ValueError(f"version must be a non-negative integer, not {version!r}")
        at = to_text(deadline)
        async with self._db.transaction():
            await self._db.lock(match_lock(match_id))
            status = await self._db.fetch_value(
                "SELECT status FROM matches WHERE match_id = ?", (match_id,)
            )
            if status is None:
                raise NotFound("match", match_id)
            if status != "running":
                raise WrongStatus("match", match_id, str(status), "running")
            seat_exists = await self._db.fetch_value(
                "SELECT 1 FROM match_seats WHERE match_id = ? AND seat = ?", (match_id, seat)
            )
            if seat_exists is None:
                raise NotFound("match seat", (match_id, seat))
            await self._db.execute(
                "INSERT INTO turn_deadlines (match_id, seat, deadline, version) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET "
                "deadline = excluded.deadline, version = excluded.version",
                (match_id, seat, at, version),
            )
            row = await self._db.fetch_one(
                f"SELECT {_COLUMNS} FROM turn_deadlines WHERE match_id = ? AND seat = ?",
                (match_id, seat),
            )
        if row is None:
            raise NotFound("turn deadline", (match_id, seat))
        return _load(row)

    async def clear(self, match_id: int, seat: int | None = None) -> int:
        """Remove the match's deadline of `seat` (None: all of them); return how many."""
        if seat is None:
            return await self._db.execute(
                "DELETE FROM turn_deadlines WHERE match_id = ?", (match_id,)
            )
        return await self._db.execute(
            "DELETE FROM turn_deadlines WHERE match_id = ? AND seat = ?", (match_id, seat)
        )

    async def for_match(self, match_id: int) -> list[Deadline]:
        """The match's pending deadlines, by seat."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM turn_deadlines WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [_load(row) for row in rows]

    async def list_all(self, *, due_by: datetime | None = None) -> list[Deadline]:
        """Every pending deadline, earliest first (only those at or before `due_by` if given)."""
        if due_by is None:
            rows = await self._db.fetch_all(
                f"SELECT {_COLUMNS} FROM turn_deadlines ORDER BY deadline, match_id, seat"
            )
        else:
            rows = await self._db.fetch_all(
                f"SELECT {_COLUMNS} FROM turn_deadlines WHERE deadline <= ? "
                "ORDER BY deadline, match_id, seat",
                (to_text(due_by),),
            )
        return [_load(row) for row in rows]


def _load(row: Row) -> Deadline:
    return load(Deadline, row, table="turn_deadlines", key=(row.get("match_id"), row.get("seat")))
