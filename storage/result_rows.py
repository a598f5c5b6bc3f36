"""Stored rows of results back into values: a seat's player, a rating, a player's totals,
an ended match as the history shows it (`storage.results` reads them, `storage.result_writes`
checks a result against them). A row that does not fit is a `CorruptRow`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from storage._rows import column, load
from storage.database import Row
from storage.errors import CorruptRow
from storage.result_models import (
    COUNTER_NAMES,
    Counters,
    HistoryEntry,
    HistorySeat,
    PlayerRef,
    PlayerStats,
    Rating,
)


def player_from(row: Row, key: object) -> PlayerRef:
    """The player of a seat row: its human (also when a computer plays for them), else the
    computer player."""
    try:
        if row["user_id"] is not None:
            return PlayerRef.human(row["user_id"])
        return PlayerRef.computer(row["computer_level"])
    except ValueError as error:
        raise CorruptRow("match_seats", key, str(error)) from error


def time_from(row: Row, name: str, key: object) -> datetime:
    value = column(row, name, str, table="matches", key=key)
    try:
        return datetime.fromisoformat(value)
    except ValueError as error:
        raise CorruptRow("matches", key, f"{name} holds {value!r}") from error


def rating_from(row: Row) -> Rating:
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


def stats_from(row: Row) -> PlayerStats:
    key = (row.get("player"), row.get("game"))
    try:
        player = PlayerRef.parse(str(row["player"]))
        counters = Counters(**{n: row[n] for n in COUNTER_NAMES})
    except (ValueError, TypeError, KeyError) as error:
        raise CorruptRow("player_stats", key, str(error)) from error
    rating = None
    if row.get("mu") is not None:
        rating = rating_from({**row, "matches": row["rated"]})
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


def entry_from(row: Row, seat_rows: list[Row]) -> HistoryEntry:
    match_id = row["match_id"]
    seats = []
    for s in seat_rows:
        player = player_from(s, (match_id, s.get("seat")))
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
