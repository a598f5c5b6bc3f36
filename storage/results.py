"""Results: what an ended match leaves behind — its result, the players' totals, ratings.

`Results.record_match(result, ratings)` is called when a match ends, inside the same
`Database.transaction()` that appends the match's last action (it refuses to run outside
one). In one savepoint it marks the match ``finished`` (or ``abandoned``) if it is still
running, stores the places, final scores and settlement, adds each player's counters to their
totals for the game and stores their new ratings. So the last action, the end of the match
and its result are committed together or not at all: there is no moment at which a match is
over without its result. An abandoned match is stored for the history only.

The readers: `stats_for` (a player's totals per game, with the rating), `leaderboard` (a
chat's players of a game by rating), `history` (a chat's ended matches, newest first),
`matches_of_user` (for the CSV export), `rating_of` / `ratings_of`, `result_of`, and
`unrecorded` (ended matches without a result, e.g. from before results existed).

The leaderboard orders players by the conservative estimate ``mu - 3 * sigma`` (OpenSkill's
ordinal), which is what the bot shows (scaled, see `bot.records.rating`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Game
from storage import result_writes
from storage._rows import column, load, placeholders, to_text
from storage.backend import Backend
from storage.conn import Row
from storage.errors import CorruptRow
from storage.models import GAMES
from storage.result_models import (
    HistoryEntry,
    LeaderboardEntry,
    MatchResult,
    Page,
    PlayerRef,
    PlayerStats,
    Rating,
)
from storage.result_rows import entry_from, rating_from, stats_from
from storage.result_writes import ResultWrite, check_ratings

ORDINAL_Z = 3
"""The leaderboard sorts by ``mu - ORDINAL_Z * sigma``."""
MAX_PAGE = 100

_PLAYER_SQL = (
    "CASE WHEN s.user_id IS NOT NULL THEN 'u:' || s.user_id ELSE 'c:' || s.computer_level END"
)


class Results:
    """Repository of ``match_results``, ``match_result_seats``, ``player_stats``, ``ratings``."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    # ---------------------------------------------------------------- writing

    async def record_match(self, result: MatchResult, ratings: Sequence[Rating] = ()) -> None:
        """Store the result of an ended match, inside the caller's transaction.

        A running match is marked finished (with ``result.winner``) or abandoned here; one
        already marked so by `Matches.finish`/`abandon` in the same transaction is accepted if
        it agrees. ``ratings``: for a finished match, the new rating of every player of the
        match (`bot.records.rating.rate_match`); none for an abandoned one.

        Raises `RuntimeError` outside a transaction, `NotFound`, `WrongStatus` (ended the
        other way), `AlreadyRecorded`, `VersionConflict` (the log has lines the result did
        not see), `ValueError` (seats, game or ratings that do not fit the match).
        """
        if not self._db.in_transaction:
            raise RuntimeError(
                "record_match must run inside the transaction that stores the match's last "
                "action (async with store.transaction(): ...)"
            )
        check_ratings(result, ratings)
        await self.record(ResultWrite(result, lambda _current: tuple(ratings)))

    async def record(self, write: ResultWrite) -> None:
        """`record_match` with the new ratings worked out from the current ones in the same
        transaction (`ResultWrite.rate`)."""
        if not self._db.in_transaction:
            raise RuntimeError("a result is recorded inside the transaction of the last action")
        now = to_text(self._db.now())
        await self._db.write(lambda conn: result_writes.store_result(conn, write, now))

    # ---------------------------------------------------------------- ratings

    async def rating_of(self, player: PlayerRef, game: Game) -> Rating | None:
        """The player's rating in ``game``, or None before their first rated match."""
        return (await self.ratings_of([player], game)).get(player)

    async def ratings_of(self, players: Iterable[PlayerRef], game: Game) -> dict[PlayerRef, Rating]:
        """The stored ratings of those of ``players`` who have one in ``game``."""
        keys = sorted({p.key for p in players})
        if not keys:
            return {}
        rows = await self._db.fetch_all(
            "SELECT player, game, mu, sigma, matches FROM ratings "
            f"WHERE game = ? AND player IN ({placeholders(keys)})",
            (game, *keys),
        )
        ratings = [rating_from(row) for row in rows]
        return {r.player: r for r in ratings}

    # ---------------------------------------------------------------- statistics

    async def stats_for(self, player: PlayerRef, game: Game | None = None) -> list[PlayerStats]:
        """The player's totals per game (only games they finished a match of), game order."""
        where, params = "s.player = ?", [player.key]
        if game is not None:
            where += " AND s.game = ?"
            params.append(game)
        rows = await self._db.fetch_all(
            f"SELECT s.*, r.mu, r.sigma, r.matches AS rated FROM player_stats s "
            "LEFT JOIN ratings r ON r.player = s.player AND r.game = s.game "
            f"WHERE {where}",
            params,
        )
        stats = [stats_from(row) for row in rows]
        return sorted(stats, key=lambda s: GAMES.index(s.game))

    async def leaderboard(
        self, chat_id: int, game: Game, *, humans_only: bool = False, limit: int = 10,
        offset: int = 0,
    ) -> Page[LeaderboardEntry]:
        """The chat's players of ``game`` by rating (best first), with their matches and
        wins in this chat; players of at least one finished match in the chat."""
        _check_page(limit, offset)
        where = "m.chat_id = ? AND m.game = ? AND m.status = 'finished'"
        if humans_only:
            where += " AND substr(rs.player, 1, 2) = 'u:'"
        source = (
            "FROM match_result_seats rs JOIN matches m ON m.match_id = rs.match_id "
            f"WHERE {where}"
        )
        async with self._db.snapshot():
            total = await self._db.fetch_value(
                f"SELECT count(DISTINCT rs.player) {source}", (chat_id, game)
            )
            rows = await self._db.fetch_all(
                "SELECT t.player, t.matches, t.wins, r.game, r.mu, r.sigma, "
                "r.matches AS rated, u.first_name, u.username FROM ("
                "  SELECT rs.player, count(*) AS matches, "
                "         count(*) FILTER (WHERE rs.place = 1) AS wins "
                f"  {source} GROUP BY rs.player) t "
                "JOIN ratings r ON r.player = t.player AND r.game = ? "
                "LEFT JOIN users u ON u.user_id = r.user_id "
                f"ORDER BY r.mu - {ORDINAL_Z} * r.sigma DESC, t.matches DESC, t.player "
                "LIMIT ? OFFSET ?",
                (chat_id, game, game, limit, offset),
            )
        entries = tuple(
            load(
                LeaderboardEntry,
                {
                    "position": offset + i + 1,
                    "player": PlayerRef.parse(row["player"]),
                    "name": row["first_name"],
                    "username": row["username"],
                    "matches": row["matches"],
                    "wins": row["wins"],
                    "rating": rating_from({**row, "matches": row["rated"]}),
                },
                table="ratings",
                key=row["player"],
            )
            for i, row in enumerate(rows)
        )
        return Page(entries, _count(total), offset, limit)

    # ---------------------------------------------------------------- history

    async def history(
        self, chat_id: int, *, limit: int = 10, offset: int = 0
    ) -> Page[HistoryEntry]:
        """The chat's ended matches (finished and abandoned), newest first."""
        _check_page(limit, offset)
        async with self._db.snapshot():
            total = await self._db.fetch_value(
                "SELECT count(*) FROM matches WHERE chat_id = ? AND status <> 'running'",
                (chat_id,),
            )
            entries = await self._entries(
                "m.chat_id = ? AND m.status <> 'running' "
                "ORDER BY m.finished_at DESC, m.match_id DESC LIMIT ? OFFSET ?",
                (chat_id, limit, offset),
            )
        return Page(tuple(entries), _count(total), offset, limit)

    async def matches_of_user(self, user_id: int) -> list[HistoryEntry]:
        """Every ended match the user sat in, in any chat, oldest first (the CSV export)."""
        async with self._db.snapshot():
            return await self._entries(
                "m.status <> 'running' AND m.match_id IN "
                "(SELECT match_id FROM match_seats WHERE user_id = ?) "
                "ORDER BY m.finished_at, m.match_id",
                (user_id,),
            )

    async def result_of(self, match_id: int) -> HistoryEntry | None:
        """The ended match as the history shows it, or None (unknown or still running)."""
        entries = await self._entries(
            "m.match_id = ? AND m.status <> 'running'", (match_id,)
        )
        return entries[0] if entries else None

    async def unrecorded(self) -> list[int]:
        """Ended matches without a result, oldest first (to backfill them)."""
        rows = await self._db.fetch_all(
            "SELECT m.match_id FROM matches m LEFT JOIN match_results r "
            "ON r.match_id = m.match_id WHERE m.status <> 'running' AND r.match_id IS NULL "
            "ORDER BY m.match_id"
        )
        return [column(r, "match_id", int, table="matches", key=None) for r in rows]

    async def _entries(self, where: str, params: Sequence[object]) -> list[HistoryEntry]:
        async with self._db.snapshot():
            rows = await self._db.fetch_all(
                "SELECT m.match_id, m.chat_id, m.game, m.status, m.winner_seat, m.created_at, "
                "m.finished_at, r.match_id AS recorded, r.deals, r.duration_seconds, m.players "
                "FROM matches m LEFT JOIN match_results r ON r.match_id = m.match_id "
                f"WHERE {where}",
                params,
            )
            ids = [column(r, "match_id", int, table="matches", key=None) for r in rows]
            seat_rows = await self._db.fetch_all(
                f"SELECT s.match_id, s.seat, s.user_id, s.computer_level, {_PLAYER_SQL} AS key, "
                "u.first_name, u.username, rs.score, rs.place, rs.settlement, rs.mu_after, "
                "rs.sigma_after, rs.rated_after "
                "FROM match_seats s LEFT JOIN users u ON u.user_id = s.user_id "
                "LEFT JOIN match_result_seats rs ON rs.match_id = s.match_id AND rs.seat = s.seat "
                f"WHERE s.match_id IN ({placeholders(ids)}) ORDER BY s.match_id, s.seat",
                ids,
            ) if ids else []
        seats: dict[int, list[Row]] = {match_id: [] for match_id in ids}
        for seat_row in seat_rows:
            seats[seat_row["match_id"]].append(seat_row)
        return [entry_from(row, seats[match_id]) for match_id, row in zip(ids, rows, strict=True)]


def _check_page(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_PAGE or offset < 0:
        raise ValueError(f"limit must be 1..{MAX_PAGE} and offset not negative")


def _count(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptRow("match_results", None, f"a count returned {value!r}")
    return value
