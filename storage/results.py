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

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage._rows import column, load, placeholders, to_text
from storage.database import Database, Row, rows_of
from storage.errors import Conflict, CorruptRow, NotFound, VersionConflict, WrongStatus
from storage.models import GAMES, Game
from storage.result_models import (
    COUNTER_NAMES,
    Counters,
    HistoryEntry,
    HistorySeat,
    LeaderboardEntry,
    MatchResult,
    Page,
    PlayerRef,
    PlayerStats,
    Rating,
)

ORDINAL_Z = 3
"""The leaderboard sorts by ``mu - ORDINAL_Z * sigma``."""
MAX_PAGE = 100

_TOTALS = (
    "matches", "wins", "place_1", "place_2", "place_3", "place_4", "score_sum",
    "settlement_sum", "seconds_played", *COUNTER_NAMES,
)
_PLAYER_SQL = (
    "CASE WHEN s.user_id IS NOT NULL THEN 'u:' || s.user_id ELSE 'c:' || s.computer_level END"
)


class AlreadyRecorded(Conflict):
    """The match already has a result: a result is written once."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id} already has a result")
        self.match_id = match_id


class Results:
    """Repository of ``match_results``, ``match_result_seats``, ``player_stats``, ``ratings``."""

    def __init__(self, db: Database) -> None:
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
        _check_ratings(result, ratings)
        await self.record(ResultWrite(result, lambda _current: tuple(ratings)))

    async def record(self, write: ResultWrite) -> None:
        """`record_match` with the new ratings worked out from the current ones in the same
        transaction (`ResultWrite.rate`)."""
        if not self._db.in_transaction:
            raise RuntimeError("a result is recorded inside the transaction of the last action")
        now = to_text(self._db.now())
        await self._db.write(lambda conn: store_result(conn, write, now))

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
        ratings = [_rating(row) for row in rows]
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
        stats = [_stats(row) for row in rows]
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
            where += " AND rs.player GLOB 'u:*'"
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
                "  SELECT rs.player, count(*) AS matches, sum(rs.place = 1) AS wins "
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
                    "rating": _rating({**row, "matches": row["rated"]}),
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
        return [_entry(row, seats[match_id]) for match_id, row in zip(ids, rows, strict=True)]


# -------------------------------------------------------------------- helpers


@dataclass(frozen=True)
class ResultWrite:
    """The result of a match that ends in a write (`storage.matches.MatchWrite.result`).

    ``rate`` gets the players' current ratings in the game (read in the same transaction,
    so two matches ending at once cannot both start from the same old rating) and returns
    the new rating of every player: for a finished match only; it runs on the database
    thread and must be a pure function (`bot.records.rating.rate_match`).
    """

    result: MatchResult
    rate: Callable[[Mapping[PlayerRef, Rating]], Sequence[Rating]] | None = None


def store_result(conn: sqlite3.Connection, write: ResultWrite, now: str) -> None:
    """`Results.record_match` on the plain connection, inside the caller's transaction (a
    `Database.write` work function): the match is marked ended, its result, the players'
    totals and ratings stored. ``now`` is the schema's time text."""
    result = write.result
    match_id = result.match_id
    rows = rows_of(
        conn,
        "SELECT game, players, status, version, winner_seat, created_at, finished_at "
        "FROM matches WHERE match_id = ?",
        (match_id,),
    )
    if not rows:
        raise NotFound("match", match_id)
    row = rows[0]
    _check_fits(conn, result, row)
    status = row["status"]
    if status == "running":
        conn.execute(
            "UPDATE matches SET status = ?, winner_seat = ?, finished_at = ?, "
            "updated_at = ? WHERE match_id = ?",
            (result.status, result.winner, now, now, match_id),
        )
        finished_at = datetime.fromisoformat(now)
    elif status != result.status or row["winner_seat"] != result.winner:
        raise WrongStatus(
            "match", match_id, f"{status} (winner {row['winner_seat']})",
            f"{result.status} (winner {result.winner})",
        )
    else:
        finished_at = _time(row, "finished_at", match_id)
    if rows_of(conn, "SELECT 1 FROM match_results WHERE match_id = ?", (match_id,)):
        raise AlreadyRecorded(match_id)
    version = column(row, "version", int, table="matches", key=match_id)
    if version != result.version:
        raise VersionConflict(match_id, result.version, version)
    ratings: Sequence[Rating] = ()
    if write.rate is not None and result.finished:
        ratings = tuple(write.rate(_ratings(conn, result.players, result.game)))
    _check_ratings(result, ratings)
    started_at = _time(row, "created_at", match_id)
    seconds = max(0, int((finished_at - started_at).total_seconds()))
    _write(conn, result, ratings, seconds, now)


def _check_fits(conn: sqlite3.Connection, result: MatchResult, row: Row) -> None:
    if row["game"] != result.game or row["players"] != len(result.players):
        raise ValueError(
            f"the result is for {result.game} with {len(result.players)} players, the "
            f"match {result.match_id} is {row['game']} with {row['players']}"
        )
    seats = rows_of(
        conn,
        "SELECT user_id, computer_level FROM match_seats WHERE match_id = ? ORDER BY seat",
        (result.match_id,),
    )
    stored = tuple(_player(s, result.match_id) for s in seats)
    if stored != result.players:
        raise ValueError(f"the result's players {result.players} are not the seats {stored}")


def _ratings(
    conn: sqlite3.Connection, players: Iterable[PlayerRef], game: Game
) -> dict[PlayerRef, Rating]:
    keys = sorted({p.key for p in players})
    rows = rows_of(
        conn,
        "SELECT player, game, mu, sigma, matches FROM ratings "
        f"WHERE game = ? AND player IN ({placeholders(keys)})",
        (game, *keys),
    )
    return {r.player: r for r in map(_rating, rows)}


def _write(
    conn: sqlite3.Connection,
    result: MatchResult,
    ratings: Sequence[Rating],
    seconds: int,
    now: str,
) -> None:
    match_id = result.match_id
    conn.execute(
        "INSERT INTO match_results (match_id, version, deals, duration_seconds, recorded_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (match_id, result.version, result.deals, seconds, now),
    )
    by_player = {r.player: r for r in ratings}
    seat_rows = []
    for seat, player in enumerate(result.players):
        rating = by_player.get(player)
        seat_rows.append((
            match_id, seat, player.key, result.scores[seat], result.places[seat],
            None if result.settlement is None else result.settlement[seat],
            None if rating is None else rating.mu,
            None if rating is None else rating.sigma,
            None if rating is None else rating.matches,
        ))
    conn.executemany(
        "INSERT INTO match_result_seats (match_id, seat, player, score, place, settlement, "
        "mu_after, sigma_after, rated_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        seat_rows,
    )
    if not result.finished:
        return
    assert result.settlement is not None
    names = ", ".join(_TOTALS)
    additions = ", ".join(f"{n} = {n} + excluded.{n}" for n in _TOTALS)
    totals_rows = []
    for seat, player in enumerate(result.players):
        place = result.places[seat]
        totals: dict[str, int] = {
            "matches": 1,
            "wins": int(place == 1),
            **{f"place_{p}": int(place == p) for p in range(1, 5)},
            "score_sum": result.scores[seat],
            "settlement_sum": result.settlement[seat],
            "seconds_played": seconds,
            **result.counters[seat].as_dict(),
        }
        totals_rows.append((
            player.key, result.game, player.user_id, player.computer_level,
            *(totals[n] for n in _TOTALS), now,
        ))
    conn.executemany(
        f"INSERT INTO player_stats (player, game, user_id, computer_level, {names}, "
        f"updated_at) VALUES (?, ?, ?, ?, {placeholders(_TOTALS)}, ?) "
        f"ON CONFLICT (player, game) DO UPDATE SET {additions}, "
        "updated_at = excluded.updated_at",
        totals_rows,
    )
    conn.executemany(
        "INSERT INTO ratings (player, game, user_id, computer_level, mu, sigma, matches, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, game) DO UPDATE "
        "SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches, "
        "updated_at = excluded.updated_at",
        [
            (r.player.key, r.game, r.player.user_id, r.player.computer_level, r.mu,
             r.sigma, r.matches, now)
            for r in ratings
        ],
    )


def _check_ratings(result: MatchResult, ratings: Sequence[Rating]) -> None:
    players = set(result.players)
    given = [r.player for r in ratings]
    if not result.finished:
        if ratings:
            raise ValueError("an abandoned match is not rated")
        return
    if len(set(given)) != len(given) or set(given) != players:
        raise ValueError("a finished match needs one new rating for each of its players")
    for rating in ratings:
        if rating.game != result.game:
            raise ValueError(f"a rating of {rating.game} for a match of {result.game}")
        if rating.sigma <= 0 or rating.matches < 1:
            raise ValueError(f"not a rating after a rated match: {rating!r}")


def _check_page(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_PAGE or offset < 0:
        raise ValueError(f"limit must be 1..{MAX_PAGE} and offset not negative")


def _count(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptRow("match_results", None, f"a count returned {value!r}")
    return value


def _player(row: Row, key: object) -> PlayerRef:
    """The player of a seat row: its human (also when a computer plays for them), else the
    computer player."""
    try:
        if row["user_id"] is not None:
            return PlayerRef.human(row["user_id"])
        return PlayerRef.computer(row["computer_level"])
    except ValueError as error:
        raise CorruptRow("match_seats", key, str(error)) from error


def _time(row: Row, name: str, key: object) -> datetime:
    value = column(row, name, str, table="matches", key=key)
    try:
        return datetime.fromisoformat(value)
    except ValueError as error:
        raise CorruptRow("matches", key, f"{name} holds {value!r}") from error


def _rating(row: Row) -> Rating:
    try:
        player = PlayerRef.parse(str(row["player"]))
    except ValueError as error:
        raise CorruptRow("ratings", row.get("player"), str(error)) from error
    return load(
        Rating,
        {"player": player, "game": row["game"], "mu": row["mu"], "sigma": row["sigma"],
         "matches": row["matches"]},
        table="ratings",
        key=row.get("player"),
    )


def _stats(row: Row) -> PlayerStats:
    key = (row.get("player"), row.get("game"))
    try:
        player = PlayerRef.parse(str(row["player"]))
        counters = Counters(**{n: row[n] for n in COUNTER_NAMES})
    except (ValueError, TypeError, KeyError) as error:
        raise CorruptRow("player_stats", key, str(error)) from error
    rating = None
    if row.get("mu") is not None:
        rating = _rating({**row, "matches": row["rated"]})
    data: dict[str, Any] = {
        "player": player,
        "game": row["game"],
        "matches": row["matches"],
        "wins": row["wins"],
        "places": tuple(row[f"place_{p}"] for p in range(1, 5)),
        "score_sum": row["score_sum"],
        "settlement_sum": row["settlement_sum"],
        "seconds_played": row["seconds_played"],
        "counters": counters,
        "rating": rating,
    }
    return load(PlayerStats, data, table="player_stats", key=key)


def _entry(row: Row, seat_rows: list[Row]) -> HistoryEntry:
    match_id = row["match_id"]
    seats = []
    for s in seat_rows:
        player = _player(s, (match_id, s.get("seat")))
        rating = None
        if s["mu_after"] is not None:
            rating = load(
                Rating,
                {"player": player, "game": row["game"], "mu": s["mu_after"],
                 "sigma": s["sigma_after"], "matches": s["rated_after"]},
                table="match_result_seats",
                key=(match_id, s.get("seat")),
            )
        seats.append(load(
            HistorySeat,
            {"seat": s["seat"], "player": player, "name": s["first_name"],
             "username": s["username"], "score": s["score"], "place": s["place"],
             "settlement": s["settlement"], "rating_after": rating},
            table="match_result_seats",
            key=(match_id, s.get("seat")),
        ))
    return load(
        HistoryEntry,
        {"match_id": match_id, "chat_id": row["chat_id"], "game": row["game"],
         "status": row["status"], "winner": row["winner_seat"],
         "started_at": row["created_at"], "finished_at": row["finished_at"],
         "recorded": row["recorded"] is not None, "deals": row["deals"],
         "duration_seconds": row["duration_seconds"], "seats": tuple(seats)},
        table="matches",
        key=match_id,
    )
