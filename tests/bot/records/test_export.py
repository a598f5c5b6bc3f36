"""/export: the CSV of a player's own matches — header, BOM, one row per match, numbers."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from bot.i18n import Translator
from bot.records.export import COLUMNS, EXPORT_FILENAME, export_csv
from engine import Game
from storage import HistoryEntry, HistorySeat, PlayerRef, Rating

TR = Translator(strict=True)
ALICE, BOB = PlayerRef.human(101), PlayerRef.human(102)
BOT = PlayerRef.computer("strong")


def seat(n: int, player: PlayerRef, name: str | None, score: int | None, place: int | None,
         settlement: int | None, rated: int | None) -> HistorySeat:
    rating = None
    if rated is not None:
        rating = Rating(player=player, game=Game.THOUSAND, mu=30.0, sigma=4.0, matches=rated)
    return HistorySeat(seat=n, player=player, name=name, username=None, score=score,
                       place=place, settlement=settlement, rating_after=rating)


def entry(match_id: int, status: str, seats: tuple[HistorySeat, ...]) -> HistoryEntry:
    moment = datetime(2024, 5, 1, 21, 30, 5, tzinfo=UTC)
    return HistoryEntry.model_validate({
        "match_id": match_id, "chat_id": -1, "game": "thousand", "status": status,
        "winner": 0 if status == "finished" else None, "started_at": moment,
        "finished_at": moment, "recorded": True, "deals": 3, "duration_seconds": 60,
        "seats": seats,
    })


ENTRIES = [
    entry(7, "finished", (
        seat(0, BOB, "Боб, \"старший\"", 1001, 1, 1500, 12),
        seat(1, ALICE, "Алиса", 400, 2, -601, 3),
        seat(2, BOT, None, 102, 3, -899, 40),
    )),
    entry(9, "abandoned", (
        seat(0, ALICE, "Алиса", 120, 1, None, None),
        seat(1, BOB, "Боб", 0, 2, None, None),
        seat(2, BOT, None, -40, 3, None, None),
    )),
]


def test_the_csv_in_russian() -> None:
    data = export_csv(ENTRIES, 101, "ru", TR)
    assert data.startswith(b"\xef\xbb\xbf")  # a BOM: spreadsheets read it as UTF-8
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows == [
        ["Дата (UTC)", "Партия", "Игра", "Итог", "Игроки", "Место за столом", "Место",
         "Счёт", "Расчёт", "Рейтинг после"],
        ["2024-05-01T21:30:05Z", "7", "Тысяча", "доиграна",
         "Боб, \"старший\" 1001; Алиса 400; 🤖 Компьютер 3 (strong) 102", "p2", "2", "400",
         "-601", "1720*"],
        ["2024-05-01T21:30:05Z", "9", "Тысяча", "остановлена",
         "Алиса 120; Боб 0; 🤖 Компьютер 3 (strong) -40", "p1", "", "120", "", ""],
    ]
    assert len(rows[0]) == len(COLUMNS) and EXPORT_FILENAME.endswith(".csv")


def test_the_csv_in_english_and_for_someone_else() -> None:
    rows = list(csv.reader(io.StringIO(export_csv(ENTRIES, 102, "en", TR).decode("utf-8-sig"))))
    assert rows[0][:4] == ["Date (UTC)", "Match", "Game", "Outcome"]
    assert [r[5:] for r in rows[1:]] == [["p1", "1", "1001", "1500", "1720"],
                                         ["p2", "", "0", "", ""]]
    only_header = export_csv(ENTRIES, 999, "en", TR).decode("utf-8-sig")
    assert only_header.count("\r\n") == 1
