"""The write of one change of a running match, stored in one trip to the database (issue 13).

A press (or a computer's move, a timeout, /kick, /back) changes a match in one transaction:
its log lines after the version check, the seats it changes, the next turn's deadline, the
match's result if it ends, and whatever the caller adds. `MatchWrite` is that change as a
plain value, built from the live match in memory before the database is touched;
`Matches.commit(write)` runs it with `Database.write`, so the lock is held for SQLite's own
time (about a millisecond), not for the event loop's turns between statements.

    version = await store.matches.commit(MatchWrite(
        match_id, expected_version, lines=("p2 bid 110",),
        deadline=TurnDeadline(seat=0, at=deadline),
        extra=(Statement("INSERT INTO outbox (match_id, body) VALUES (?, ?)", ((7, "…"),)),),
    ))

On PostgreSQL the write holds the match's lock (`storage.locks.match_lock`) from before its
version check to its commit: writers of one match take turns, writers of different matches
do not wait for each other.

``extra`` statements run last, in the same transaction: rows that must be committed exactly
when the change is (a transactional outbox). They may name the new version, which is
``write.new_version``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage import result_writes
from storage._rows import check_lines, column, to_text
from storage.conn import Conn, Row
from storage.errors import CorruptRow, NotFound, VersionConflict, WrongStatus
from storage.lobbies import check_level
from storage.locks import match_lock
from storage.models import MatchSeat, MatchStatus
from storage.result_writes import ResultWrite


@dataclass(frozen=True)
class Statement:
    """One SQL statement, run once for each row of parameters."""

    sql: str
    rows: tuple[tuple[object, ...], ...] = ((),)


@dataclass(frozen=True)
class TurnDeadline:
    """The turn deadline after the change: ``seat`` must act by ``at`` (None: nobody's turn
    is timed now); every other deadline of the match goes."""

    seat: int | None
    at: datetime


@dataclass(frozen=True)
class MatchWrite:
    """One change of a running match, committed together or not at all.

    ``version`` is the version the caller's state was built from: if the match moved on
    since, nothing is written (`VersionConflict`). ``lines`` may be empty (a seat change).
    ``seats``: seat rows to store as given (timeouts, replacement by a computer; the hand
    message ids are not written here). ``deadline``: None leaves the deadlines alone.
    ``result``: the match ends with it (its deadlines go with the status, by trigger).
    """

    match_id: int
    version: int
    lines: tuple[str, ...] = ()
    seats: tuple[MatchSeat, ...] = ()
    deadline: TurnDeadline | None = None
    result: ResultWrite | None = None
    extra: tuple[Statement, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.version, bool) or self.version < 0:
            raise ValueError(f"version must be a non-negative integer, not {self.version!r}")
        if self.lines:
            check_lines(self.lines)
        for seat in self.seats:
            if seat.computer_level is not None:
                check_level(seat.computer_level)

    @property
    def new_version(self) -> int:
        """The match's version once the write is committed."""
        return self.version + len(self.lines)


async def commit_write(conn: Conn, write: MatchWrite, now: datetime) -> int:
    """Run `write` inside the caller's transaction (a `Database.write` work function);
    return the new version."""
    match_id = write.match_id
    # Before the version is read: another writer of the match (another process's press, a
    # timer) waits here until this one commits, then reads the version it left.
    await conn.lock(match_lock(match_id))
    rows = await conn.rows("SELECT status, version FROM matches WHERE match_id = ?", (match_id,))
    if not rows:
        raise NotFound("match", match_id)
    status = _status(rows[0], match_id)
    version = column(rows[0], "version", int, table="matches", key=match_id)
    if status != "running":
        raise WrongStatus("match", match_id, status, "running")
    if version != write.version:
        raise VersionConflict(match_id, write.version, version)
    stamp = to_text(now)
    if write.lines:
        await conn.execute_many(
            "INSERT INTO match_log (match_id, seq, line, created_at) VALUES (?, ?, ?, ?)",
            [(match_id, version + n, line, stamp) for n, line in enumerate(write.lines, start=1)],
        )
    await conn.execute("UPDATE matches SET updated_at = ? WHERE match_id = ?", (stamp, match_id))
    for seat in write.seats:
        changed = await conn.execute(
            "UPDATE match_seats SET computer_level = ?, replaced_by_computer = ?, "
            "consecutive_timeouts = ? WHERE match_id = ? AND seat = ?",
            (seat.computer_level, int(seat.replaced_by_computer), seat.consecutive_timeouts,
             match_id, seat.seat),
        )
        if changed == 0:
            raise NotFound("match seat", (match_id, seat.seat))
    if write.deadline is not None:
        await conn.execute("DELETE FROM turn_deadlines WHERE match_id = ?", (match_id,))
        if write.deadline.seat is not None:
            await conn.execute(
                "INSERT INTO turn_deadlines (match_id, seat, deadline, version) "
                "VALUES (?, ?, ?, ?)",
                (match_id, write.deadline.seat, to_text(write.deadline.at), write.new_version),
            )
    if write.result is not None:
        # Through the module: the crash tests replace the function there.
        await result_writes.store_result(conn, write.result, stamp)
    for statement in write.extra:
        await conn.execute_many(statement.sql, statement.rows)
    return write.new_version


_STATUSES: tuple[MatchStatus, ...] = ("running", "finished", "abandoned")


def _status(row: Row, match_id: int) -> MatchStatus:
    status = row.get("status")
    for known in _STATUSES:
        if status == known:
            return known
    raise CorruptRow("matches", match_id, f"unknown status {status!r}")
