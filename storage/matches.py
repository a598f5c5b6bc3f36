"""Matches: the rules, the seats, the status and the append-only action log of every match.

The log is the source of truth of a game: one row per line of the match notation (deal blocks
``dealer p1`` / ``hand p1 AS TS ...`` / ``talon ...`` and actions ``p2 bid 110``), numbered
``seq`` = 1, 2, 3, ... A match is loaded by replaying its header (`Match.rules`) and its log.
``Match.version`` is the number of log lines; the bot puts it into callback data, and
`Matches.commit` (`storage.writes.MatchWrite`) only appends when the caller's expected
version is still current, so two writers can never interleave and a press on an old
keyboard applies nothing.

The match row also keeps what the bot needs to resume after a restart: the table message id,
each seat's private hand message id, who is replaced by a computer player, and the count of
consecutive timeouts per seat. Pending turn deadlines live in `storage.deadlines`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Game
from storage._rows import as_int, check_lines, check_seat, column, load, placeholders, to_text
from storage.backend import Backend
from storage.conn import Conn, Row
from storage.errors import CorruptRow, LobbyNotFull, NotFound, WrongStatus
from storage.lobbies import (
    Lobbies,
    check_level,
    check_rules,
    check_turn_seconds,
    lock_lobby_chat,
    refuse_busy_chat,
)
from storage.locks import match_lock
from storage.models import Match, MatchSeat, MatchStatus, NewSeat
from storage.writes import MatchWrite, commit_write

_COLUMNS = (
    "match_id, chat_id, topic_id, lobby_id, game, players, rules, turn_seconds, status, "
    "version, table_message_id, winner_seat, created_at, updated_at, finished_at"
)
_SEAT_COLUMNS = (
    "match_id, seat, user_id, computer_level, replaced_by_computer, hand_message_id, "
    "consecutive_timeouts"
)


class Matches:
    """Repository of the ``matches``, ``match_seats`` and ``match_log`` tables."""

    def __init__(self, db: Backend) -> None:
        self._db = db
        self._lobbies = Lobbies(db)

    # ---------------------------------------------------------------- creating

    async def create_from_lobby(self, lobby_id: int) -> Match:
        """Start a match from a full open lobby: same chat, rules, timer and seats.

        The lobby becomes ``started`` in the same transaction. Raises `NotFound`,
        `WrongStatus` (the lobby is not open), `LobbyNotFull`.
        """
        async with self._db.transaction():
            await lock_lobby_chat(self._db, lobby_id)
            lobby = await self._lobbies.get(lobby_id)
            if lobby is None:
                raise NotFound("lobby", lobby_id)
            if lobby.status != "open":
                raise WrongStatus("lobby", lobby_id, lobby.status, "open")
            if not lobby.is_full:
                raise LobbyNotFull(lobby_id, lobby.free_seats)
            await self._db.execute(
                "UPDATE lobbies SET status = 'started', updated_at = ? WHERE lobby_id = ?",
                (to_text(self._db.now()), lobby_id),
            )
            return await self._insert(
                lobby.chat_id,
                topic_id=lobby.topic_id,
                lobby_id=lobby_id,
                game=lobby.game,
                players=lobby.players,
                rules=lobby.rules,
                turn_seconds=lobby.turn_seconds,
                seats=[
                    NewSeat(user_id=s.user_id, computer_level=s.computer_level)
                    for s in lobby.seats
                ],
            )

    async def create(
        self,
        chat_id: int,
        *,
        game: Game,
        players: int,
        rules: str,
        seats: Sequence[NewSeat],
        turn_seconds: int | None = None,
        topic_id: int = 0,
    ) -> Match:
        """Start a match without a lobby (seats in order: seat 0 first) in the forum topic
        ``topic_id`` (0: none). Raises `ChatBusy` if that place has a game."""
        check_rules(game, players, rules)
        check_turn_seconds(turn_seconds)
        if len(seats) != players:
            raise ValueError(f"{players} seats are needed, not {len(seats)}")
        async with self._db.transaction():
            await refuse_busy_chat(self._db, chat_id, topic_id)
            return await self._insert(
                chat_id,
                topic_id=topic_id,
                lobby_id=None,
                game=game,
                players=players,
                rules=rules,
                turn_seconds=turn_seconds,
                seats=seats,
            )

    async def _insert(
        self,
        chat_id: int,
        *,
        topic_id: int,
        lobby_id: int | None,
        game: Game,
        players: int,
        rules: str,
        turn_seconds: int | None,
        seats: Sequence[NewSeat],
    ) -> Match:
        users = [s.user_id for s in seats if s.user_id is not None]
        if len(set(users)) != len(users):
            raise ValueError("a user can take only one seat of a match")
        for s in seats:
            if s.computer_level is not None:
                check_level(s.computer_level)
        now = to_text(self._db.now())
        new_id = await self._db.fetch_value(
            "INSERT INTO matches (chat_id, topic_id, lobby_id, game, players, rules, "
            "                     turn_seconds, status, version, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'running', 0, ?, ?) RETURNING match_id",
            (chat_id, topic_id, lobby_id, game, players, rules, turn_seconds, now, now),
        )
        match_id = as_int(new_id, table="matches", key=chat_id, name="match_id")
        await self._db.execute_many(
            "INSERT INTO match_seats (match_id, seat, user_id, computer_level) "
            "VALUES (?, ?, ?, ?)",
            [(match_id, n, s.user_id, s.computer_level) for n, s in enumerate(seats)],
        )
        return await self._require(match_id)

    # ---------------------------------------------------------------- the log

    async def commit(self, write: MatchWrite) -> int:
        """Store one change of a running match (`storage.writes`) in one trip to the database:
        all of it or nothing; return the new version.

        Raises `VersionConflict` if the match moved on since ``write.version``, `WrongStatus`
        if it is over, `NotFound` if there is no such match (or seat), and whatever the
        result's checks raise. Inside `Database.transaction()` it joins it.
        """
        now = self._db.now()
        return await self._db.write(lambda conn: commit_write(conn, write, now))

    async def append_actions(
        self, match_id: int, expected_version: int, lines: Iterable[str]
    ) -> int:
        """Append notation lines to a running match's log; return the new version.

        `expected_version` is the version the caller's state was built from; if another line
        was stored since, nothing is written and `VersionConflict` is raised. Raises
        `WrongStatus` if the match is over, `NotFound` if there is no such match. `commit`
        stores the deadline, results etc. with it in the same trip.
        """
        checked = check_lines(lines)
        return await self.commit(MatchWrite(match_id, expected_version, tuple(checked)))

    async def read_log(self, match_id: int) -> list[str]:
        """The whole log in order. Raises `CorruptRow` if lines are missing."""
        async with self._db.snapshot():
            version = await self._db.fetch_value(
                "SELECT version FROM matches WHERE match_id = ?", (match_id,)
            )
            if version is None:
                raise NotFound("match", match_id)
            rows = await self._db.fetch_all(
                "SELECT seq, line FROM match_log WHERE match_id = ? ORDER BY seq", (match_id,)
            )
        return _log_lines(match_id, version, rows)

    # ---------------------------------------------------------------- reading matches

    async def get(self, match_id: int) -> Match | None:
        """The match with its seats, or None."""
        matches = await self._select("match_id = ?", (match_id,))
        return matches[0] if matches else None

    async def list_unfinished(self) -> list[Match]:
        """Every running match, oldest first: what the bot resumes after a restart."""
        return await self._select("status = 'running'", ())

    async def running_in_chat(self, chat_id: int, topic_id: int = 0) -> Match | None:
        """The running match of the chat (in the forum topic ``topic_id``), or None."""
        found = await self._select("chat_id = ? AND topic_id = ? AND status = 'running'",
                                   (chat_id, topic_id))
        return found[0] if found else None

    async def running_for_user(self, user_id: int) -> list[Match]:
        """The running matches the user has a seat in, oldest first."""
        return await self._select(
            "status = 'running' AND match_id IN "
            "(SELECT match_id FROM match_seats WHERE user_id = ?)",
            (user_id,),
        )

    # ---------------------------------------------------------------- messages and seats

    async def set_table_message_id(self, match_id: int, message_id: int | None) -> None:
        """Remember the table message in the group (edited in place)."""
        changed = await self._db.execute(
            "UPDATE matches SET table_message_id = ?, updated_at = ? WHERE match_id = ?",
            (message_id, to_text(self._db.now()), match_id),
        )
        if changed == 0:
            raise NotFound("match", match_id)

    async def set_hand_message_id(self, match_id: int, seat: int, message_id: int | None) -> None:
        """Remember a player's private hand message (a human seat only); the other seat
        changes (timeouts, a computer standing in) are stored with an action (`commit`)."""
        await self._update_seat(match_id, seat, "hand_message_id = ?", (message_id,))

    async def set_hand_message_ids(self, ids: Sequence[tuple[int, int, int]]) -> None:
        """Remember several hand messages, ``(match, seat, message id)``, in one trip."""
        # By match and seat, the order of a change's seat writes (one order of row locks).
        rows = [(message_id, match_id, seat) for match_id, seat, message_id in sorted(ids)]

        async def write(conn: Conn) -> None:
            await conn.execute_many(
                "UPDATE match_seats SET hand_message_id = ? WHERE match_id = ? AND seat = ?", rows
            )

        if rows:
            await self._db.write(write)

    # ---------------------------------------------------------------- ending

    async def finish(self, match_id: int, winner_seat: int | None) -> Match:
        """Mark a running match finished (its deadlines go away). Store the final action first."""
        async with self._db.transaction():
            match = await self._require_running(match_id)
            if winner_seat is not None:
                check_seat(winner_seat, match.players)
            return await self._end(match_id, "finished", winner_seat)

    async def abandon(self, match_id: int) -> Match:
        """Mark a running match abandoned (/stop, or it cannot go on); deadlines go away."""
        async with self._db.transaction():
            await self._require_running(match_id)
            return await self._end(match_id, "abandoned", None)

    # ---------------------------------------------------------------- internals

    async def _end(self, match_id: int, status: MatchStatus, winner_seat: int | None) -> Match:
        now = to_text(self._db.now())
        await self._db.execute(
            "UPDATE matches SET status = ?, winner_seat = ?, finished_at = ?, updated_at = ? "
            "WHERE match_id = ?",
            (status, winner_seat, now, now, match_id),
        )
        return await self._require(match_id)

    async def _update_seat(
        self, match_id: int, seat: int, assignment: str, values: tuple[object, ...]
    ) -> None:
        changed = await self._db.execute(
            f"UPDATE match_seats SET {assignment} WHERE match_id = ? AND seat = ?",
            (*values, match_id, seat),
        )
        if changed == 0:
            raise NotFound("match seat", (match_id, seat))

    async def _require(self, match_id: int) -> Match:
        match = await self.get(match_id)
        if match is None:
            raise NotFound("match", match_id)
        return match

    async def _require_running(self, match_id: int) -> Match:
        await self._db.lock(match_lock(match_id))  # the match is ended by one writer
        match = await self._require(match_id)
        if match.status != "running":
            raise WrongStatus("match", match_id, match.status, "running")
        return match

    async def _select(self, where: str, params: Sequence[object]) -> list[Match]:
        return await select_matches(self._db, where, params)


async def select_matches(db: Backend, where: str, params: Sequence[object]) -> list[Match]:
    """The matches ``where`` selects, with their seats, read in one snapshot."""
    async with db.snapshot():
        rows = await db.fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE {where} ORDER BY match_id", params
        )
        ids = [column(r, "match_id", int, table="matches", key=None) for r in rows]
        seat_rows = (
            await db.fetch_all(
                f"SELECT {_SEAT_COLUMNS} FROM match_seats "
                f"WHERE match_id IN ({placeholders(ids)}) ORDER BY match_id, seat",
                ids,
            )
            if ids
            else []
        )
    return _matches(ids, rows, seat_rows)


def _log_lines(match_id: int, version: object, rows: list[Row]) -> list[str]:
    """The lines of a log read at ``version``, checked to be exactly seq 1..version."""
    length = as_int(version, table="matches", key=match_id, name="version")
    seqs = [column(r, "seq", int, table="match_log", key=match_id) for r in rows]
    if seqs != list(range(1, length + 1)):
        missing = sorted(set(range(1, length + 1)) - set(seqs))
        raise CorruptRow(
            "match_log",
            match_id,
            f"the match is at version {length} but its log holds {len(seqs)} lines"
            + (f"; missing seq {missing[:10]}" if missing else "; extra or misplaced seq"),
        )
    return [column(r, "line", str, table="match_log", key=(match_id, r["seq"])) for r in rows]


def _matches(ids: list[int], rows: list[Row], seat_rows: list[Row]) -> list[Match]:
    """Match rows with their seat rows (ordered by match and seat) as models."""
    seats: dict[int, list[Row]] = {match_id: [] for match_id in ids}
    for seat_row in seat_rows:
        seats[seat_row.pop("match_id")].append(seat_row)
    return [
        load(
            Match,
            row,
            table="matches",
            key=match_id,
            seats=tuple(
                load(MatchSeat, s, table="match_seats", key=(match_id, s.get("seat")))
                for s in seats[match_id]
            ),
        )
        for match_id, row in zip(ids, rows, strict=True)
    ]

