"""The texts of /stats, /top and /history in ru, en and uk, with plurals, escaping, computer
players flagged and paging."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.i18n import Translator
from bot.records.format import duration_text, game_from_argument, page_request, total_pages
from bot.records.texts import has_next, has_previous, history_text, stats_text, top_text
from engine import Game
from storage import (
    Counters,
    HistoryEntry,
    HistorySeat,
    LeaderboardEntry,
    Page,
    PlayerRef,
    PlayerStats,
    Rating,
)

TR = Translator(strict=True)
ALICE = PlayerRef.human(101)
BOB = PlayerRef.human(102)
BOT = PlayerRef.computer("strong")


def rating(player: PlayerRef, mu: float, sigma: float, matches: int) -> Rating:
    return Rating(player=player, game=Game.THOUSAND, mu=mu, sigma=sigma, matches=matches)


THOUSAND = PlayerStats(
    player=ALICE, game=Game.THOUSAND, matches=3, wins=2, places=(2, 0, 1, 0), score_sum=2100,
    settlement_sum=-45, seconds_played=2 * 3600 + 5 * 60 + 59,
    counters=Counters(deals=61, contracts=21, contracts_made=15, contracts_failed=6,
                      contract_points=2625, marriages_spades=1, marriages_hearts=4,
                      ace_marriages=1, bolts=5, bolt_penalties=1, perch_mounted=2,
                      perch_made=1, perch_fallen=1, dump_trucks=1, concessions=2, redeals=3),
    rating=rating(ALICE, 30.0, 4.0, 3),
)
TUMBOCHKA = PlayerStats(
    player=ALICE, game=Game.TUMBOCHKA, matches=11, wins=1, places=(1, 5, 5, 0), score_sum=-11,
    settlement_sum=0, seconds_played=45 * 60,
    counters=Counters(deals=40, contracts=12, contracts_made=7, contracts_failed=5,
                      contract_points=60, troyans=2, trilyazhes=1, perch_mounted=3,
                      perch_made=1, perch_fallen=2, golden_bagels=1),
    rating=Rating(player=ALICE, game=Game.TUMBOCHKA, mu=25.0, sigma=8.0, matches=11),
)


def test_stats_in_russian() -> None:
    text = stats_text(ALICE, "Алиса <b>", [THOUSAND, TUMBOCHKA], "ru", TR)
    lines = text.splitlines()
    assert lines[0] == "📊 <b>Алиса &lt;b&gt;</b> — статистика"
    thousand = lines[lines.index("<b>Тысяча</b>"):lines.index("<b>Тумбочка</b>")]
    assert thousand[1:] == [
        "Рейтинг: <b>1720</b> (предварительный: 3 партии из 10)",
        "3 партии, 2 победы (67%)",
        "Места: 1-е — 2 раза, 3-е — 1 раз · средний счёт 700 · расчёт −45",
        "61 раздача · 21 заказ (сыграно 15, не сыграно 6), средний заказ 125",
        "Марьяжи: ♠ 1 · ♣ 0 · ♦️ 0 · ♥️ 4 · тузовый 1",
        "Палки: 5, из них третьих (−120): 1",
        "Бочка: 2 раза, побед: 1, падений: 1",
        "Расписано игр: 2 · пересдач: 3 · самосвалов: 1",
        "Время за игрой: 2 ч 5 мин",
        "",
    ]
    tumbochka = lines[lines.index("<b>Тумбочка</b>"):]
    assert tumbochka[1:] == [
        "Рейтинг: <b>1040</b>",
        "11 партий, 1 победа (9%)",
        "Места: 1-е — 1 раз, 2-е — 5 раз, 3-е — 5 раз · средний счёт −1 · расчёт 0",
        "40 раздач · 12 заказов (сыграно 7, не сыграно 5), средний заказ 5",
        "Трояны: 2 · трильяжи: 1",
        "На тумбочке: 3 раза, побед: 1, падений: 2 · золотых баранок: 1",
        "Время за игрой: 45 мин",
    ]


def test_stats_in_english_and_ukrainian() -> None:
    text = stats_text(ALICE, "Alice", [THOUSAND], "en", TR)
    assert "3 matches, 2 wins (67%)" in text
    assert "Places: 1st — 2 times, 3rd — 1 time · average score 700 · settlement −45" in text
    assert "Rating: <b>1720</b> (provisional: 3 matches of 10)" in text
    assert "Barrel: climbed 2 times, won 1, fell 1" in text
    assert "Time played: 2 h 5 min" in text
    uk = stats_text(ALICE, "Аліса", [THOUSAND], "uk", TR)
    assert "3 партії, 2 перемоги (67%)" in uk and "21 замовлення" in uk
    assert stats_text(BOT, None, [], "en", TR) == (
        "📊 <b>🤖 Computer (strong)</b> — statistics\n\nNo finished matches yet."
    )


def leaderboard(offset: int = 0, total: int = 3) -> Page[LeaderboardEntry]:
    entries = (
        LeaderboardEntry(position=offset + 1, player=ALICE, name="Алиса", username="alice",
                         matches=12, wins=5, rating=rating(ALICE, 30.0, 3.0, 12)),
        LeaderboardEntry(position=offset + 2, player=BOT, name=None, username=None,
                         matches=4, wins=1, rating=rating(BOT, 26.0, 6.0, 4)),
        LeaderboardEntry(position=offset + 3, player=BOB, name="Боб & Ко", username=None,
                         matches=1, wins=0, rating=rating(BOB, 25.0, 8.0, 1)),
    )
    return Page(entries, total, offset, 10)


def test_top_in_russian_and_english() -> None:
    assert top_text(leaderboard(), Game.THOUSAND, "ru", TR).splitlines() == [
        "🏆 <b>Тысяча</b> — рейтинг чата",
        "",
        "1. Алиса — <b>1840</b> · 12 партий, 5 побед",
        "2. 🤖 Компьютер (strong) — <b>1320*</b> · 4 партии, 1 победа",
        "3. Боб &amp; Ко — <b>1040*</b> · 1 партия, 0 побед",
        "",
        "* — предварительный рейтинг: меньше 10 партий.",
    ]
    text = top_text(leaderboard(offset=10, total=23), Game.THOUSAND, "en", TR, humans_only=True)
    lines = text.splitlines()
    assert lines[0] == "🏆 <b>Thousand</b> — this chat's ratings (humans only)"
    assert lines[2] == "11. Алиса — <b>1840</b> · 12 matches, 5 wins"
    assert lines[-1] == "Page 2 of 3"
    empty = top_text(Page((), 0, 0, 10), Game.TUMBOCHKA, "en", TR)
    assert empty.endswith("No match of this game has been finished in this chat yet. Other games: "
                          "/top 1000, /top 1001, /top tumbochka.")


def entry(match_id: int, winner: int | None, recorded: bool = True) -> HistoryEntry:
    seats = (
        HistorySeat(seat=0, player=ALICE, name="Алиса", username=None,
                    score=1001 if recorded else None, place=1 if recorded else None,
                    settlement=None, rating_after=None),
        HistorySeat(seat=1, player=BOT, name=None, username=None,
                    score=-120 if recorded else None, place=3 if recorded else None,
                    settlement=None, rating_after=None),
        HistorySeat(seat=2, player=BOB, name="Боб", username=None,
                    score=400 if recorded else None, place=2 if recorded else None,
                    settlement=None, rating_after=None),
    )
    moment = datetime(2024, 5, 1, 21, 30, tzinfo=UTC)
    return HistoryEntry(
        match_id=match_id, chat_id=-1, game=Game.THOUSAND,
        status="finished" if winner is not None else "abandoned", winner=winner,
        started_at=moment, finished_at=moment, recorded=recorded, deals=9 if recorded else None,
        duration_seconds=600 if recorded else None, seats=seats,
    )


def test_history() -> None:
    page = Page((entry(3, 0), entry(2, None), entry(1, None, recorded=False)), 3, 0, 10)
    assert history_text(page, "ru", TR).splitlines() == [
        "📜 <b>Последние партии</b>",
        "",
        "01.05.2024 · <b>Тысяча</b> · 🏆 Алиса",
        "Алиса 1001 · Боб 400 · 🤖 Компьютер 2 (strong) −120",
        "",
        "01.05.2024 · <b>Тысяча</b> · остановлена",
        "Алиса 1001 · Боб 400 · 🤖 Компьютер 2 (strong) −120",
        "",
        "01.05.2024 · <b>Тысяча</b> · остановлена",
        "Алиса · 🤖 Компьютер 2 (strong) · Боб",
    ]
    en = history_text(page, "en", TR).splitlines()
    assert en[2] == "2024-05-01 · <b>Thousand</b> · 🏆 Алиса"
    assert en[5] == "2024-05-01 · <b>Thousand</b> · stopped"
    assert history_text(Page((), 0, 0, 10), "uk", TR).endswith(
        "У цьому чаті ще не було завершених партій."
    )


@pytest.mark.parametrize(("total", "pages"), [(0, 1), (1, 1), (10, 1), (11, 2), (25, 3)])
def test_paging(total: int, pages: int) -> None:
    assert total_pages(total) == pages
    last = page_request(pages)
    assert last.offset == (pages - 1) * 10 and last.limit == 10
    page: Page[int] = Page(tuple(range(last.offset, min(total, last.offset + 10))), total,
                           last.offset, 10)
    assert not has_next(page)
    assert has_previous(page) == (pages > 1)
    assert has_next(Page(tuple(range(10)), total, 0, 10)) == (pages > 1)
    assert page_request(0).offset == 0


def test_durations() -> None:
    assert duration_text(59, "ru", TR) == "0 мин"
    assert duration_text(3600, "en", TR) == "1 h 0 min"
    assert duration_text(7 * 3600 + 60, "uk", TR) == "7 год 1 хв"


@pytest.mark.parametrize(
    ("argument", "game"),
    [("thousand", "thousand"), ("1000", "thousand"), (" Тысяча ", "thousand"),
     ("1001", "thousand-one"), ("тысяча одно", "thousand-one"), ("Thousand-One", "thousand-one"),
     ("тисяча один", "thousand-one"), ("ТУМБОЧКА", "tumbochka"), ("poker", None), ("", None)],
)
def test_the_game_of_a_command_argument(argument: str, game: str | None) -> None:
    assert game_from_argument(argument) == game
