"""/export: a player's own matches as a CSV file (UTF-8 with a byte order mark, so that
spreadsheet programs open the Cyrillic right).

One row per ended match the user sat in, oldest first: the date and time (UTC, ISO 8601),
the match number, the game, the status, all players with their final scores, the user's
seat, place, final score, settlement, and their rating right after the match (with ``*``
when provisional). Column titles and game names are in the user's language; numbers are
plain (``-120``, no typographic minus) so that spreadsheets read them as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Final

from bot.i18n import Translator
from bot.records.format import game_name, player_name
from bot.records.rating import is_provisional, shown
from storage import HistoryEntry, PlayerRef

EXPORT_FILENAME: Final = "tysyacha-matches.csv"
COLUMNS: Final = (
    "date", "match", "game", "status", "players", "seat", "place", "score", "settlement",
    "rating",
)


def export_csv(
    entries: Sequence[HistoryEntry], user_id: int, lang: str, tr: Translator
) -> bytes:
    """The CSV of ``entries`` (from `Results.matches_of_user`) as the user ``user_id``."""
    me = PlayerRef.human(user_id)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([tr.text(lang, f"rec-csv-{column}") for column in COLUMNS])
    for entry in entries:
        seat = entry.seat_of(me)
        if seat is None:
            continue
        players = "; ".join(
            player_name(s.player, s.name, lang, tr, s.seat)
            + ("" if s.score is None else f" {s.score}")
            for s in entry.seats
        )
        rating = ""
        if seat.rating_after is not None:
            mark = "*" if is_provisional(seat.rating_after) else ""
            rating = f"{shown(seat.rating_after)}{mark}"
        writer.writerow([
            entry.finished_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            entry.match_id,
            game_name(entry.game, lang, tr),
            tr.text(lang, f"rec-csv-status-{entry.status}"),
            players,
            f"p{seat.seat + 1}",
            seat.place if seat.place is not None and entry.status == "finished" else "",
            "" if seat.score is None else seat.score,
            "" if seat.settlement is None else seat.settlement,
            rating,
        ])
    return buffer.getvalue().encode("utf-8-sig")
