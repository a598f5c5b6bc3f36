"""Writing a match's result: the match marked ended, its places, scores and settlement, the
players' totals and their new ratings, all inside the transaction of the match's last action.

`store_result` runs inside a one-trip write (a `Database.write` work function); both
`Results.record` and the one-trip write of a change (`storage.writes`) call it through this
module, so there is one way a result is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from engine import Game
from storage._rows import column, placeholders
from storage.conn import Conn, Row
from storage.errors import Conflict, NotFound, VersionConflict, WrongStatus
from storage.locks import match_lock, player_lock
from storage.result_models import COUNTER_NAMES, MatchResult, PlayerRef, Rating
from storage.result_rows import player_from, rating_from, time_from

_TOTALS = (
    "matches", "wins", "place_1", "place_2", "place_3", "place_4", "score_sum",
    "settlement_sum", "seconds_played", *COUNTER_NAMES,
)


class AlreadyRecorded(Conflict):
    """The match already has a result: a result is written once."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id} already has a result")
        self.match_id = match_id


@dataclass(frozen=True)
class ResultWrite:
    """The result of a match that ends in a write (`storage.matches.MatchWrite.result`).

    ``rate`` gets the players' current ratings in the game (read in the same transaction
    under the players' locks, so two matches ending at once, on any process, cannot both
    start from the same old rating) and returns
    the new rating of every player: for a finished match only; it runs on the database
    thread and must be a pure function (`bot.records.rating.rate_match`).
    """

    result: MatchResult
    rate: Callable[[Mapping[PlayerRef, Rating]], Sequence[Rating]] | None = None


async def store_result(conn: Conn, write: ResultWrite, now: str) -> None:
    """`Results.record_match` on the plain connection, inside the caller's transaction (a
    `Database.write` work function): the match is marked ended, its result, the players'
    totals and ratings stored. ``now`` is the schema's time text."""
    result = write.result
    match_id = result.match_id
    # The match first (held already inside its last change's write), then its players: the
    # order of `storage.locks`.
    await conn.lock(match_lock(match_id))
    if result.finished:
        # Their totals and ratings are read and written back below: a match of one of them
        # ending elsewhere at the same time waits, and then starts from these.
        await conn.lock(*(player_lock(p.key, result.game) for p in result.players))
    rows = await conn.rows(
        "SELECT game, players, status, version, winner_seat, created_at, finished_at "
        "FROM matches WHERE match_id = ?",
        (match_id,),
    )
    if not rows:
        raise NotFound("match", match_id)
    row = rows[0]
    await _check_fits(conn, result, row)
    status = row["status"]
    if status == "running":
        await conn.execute(
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
        finished_at = time_from(row, "finished_at", match_id)
    if await conn.rows("SELECT 1 FROM match_results WHERE match_id = ?", (match_id,)):
        raise AlreadyRecorded(match_id)
    version = column(row, "version", int, table="matches", key=match_id)
    if version != result.version:
        raise VersionConflict(match_id, result.version, version)
    ratings: Sequence[Rating] = ()
    if write.rate is not None and result.finished:
        ratings = tuple(write.rate(await _ratings(conn, result.players, result.game)))
    check_ratings(result, ratings)
    started_at = time_from(row, "created_at", match_id)
    seconds = max(0, int((finished_at - started_at).total_seconds()))
    await _write(conn, result, ratings, seconds, now)


async def _check_fits(conn: Conn, result: MatchResult, row: Row) -> None:
    if row["game"] != result.game or row["players"] != len(result.players):
        raise ValueError(
            f"the result is for {result.game} with {len(result.players)} players, the "
            f"match {result.match_id} is {row['game']} with {row['players']}"
        )
    seats = await conn.rows(
        "SELECT user_id, computer_level FROM match_seats WHERE match_id = ? ORDER BY seat",
        (result.match_id,),
    )
    stored = tuple(player_from(s, result.match_id) for s in seats)
    if stored != result.players:
        raise ValueError(f"the result's players {result.players} are not the seats {stored}")


async def _ratings(
    conn: Conn, players: Iterable[PlayerRef], game: Game
) -> dict[PlayerRef, Rating]:
    keys = sorted({p.key for p in players})
    rows = await conn.rows(
        "SELECT player, game, mu, sigma, matches FROM ratings "
        f"WHERE game = ? AND player IN ({placeholders(keys)})",
        (game, *keys),
    )
    return {r.player: r for r in map(rating_from, rows)}


async def _write(
    conn: Conn,
    result: MatchResult,
    ratings: Sequence[Rating],
    seconds: int,
    now: str,
) -> None:
    match_id = result.match_id
    await conn.execute(
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
    await conn.execute_many(
        "INSERT INTO match_result_seats (match_id, seat, player, score, place, settlement, "
        "mu_after, sigma_after, rated_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        seat_rows,
    )
    if not result.finished:
        return
    assert result.settlement is not None
    names = ", ".join(_TOTALS)
    additions = ", ".join(f"{n} = player_stats.{n} + excluded.{n}" for n in _TOTALS)
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
    await conn.execute_many(
        f"INSERT INTO player_stats (player, game, user_id, computer_level, {names}, "
        f"updated_at) VALUES (?, ?, ?, ?, {placeholders(_TOTALS)}, ?) "
        f"ON CONFLICT (player, game) DO UPDATE SET {additions}, "
        "updated_at = excluded.updated_at",
        totals_rows,
    )
    await conn.execute_many(
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


def check_ratings(result: MatchResult, ratings: Sequence[Rating]) -> None:
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
