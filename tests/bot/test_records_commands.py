"""The records through the fake Bot API, in Russian and in English: the match result as the
caption of the score sheet picture, the picture on /score during a match, /stats (yours, or
by a reply someone else's), /top, /history, /export in the private chat, a stopped match in
the history only, and the new commands in the menu."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from bot.records import EXPORT_FILENAME, history_text, stats_text, top_text
from bot.services import Services
from engine import Game
from storage import PlayerRef
from tests.bot.conftest import Cast
from tests.bot.harness import TR, Driver, check_score_sheet, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimChat, SimMessage, SimUser


async def _answer(
    driver: Driver, user: SimUser, text: str, chat: SimChat | None = None
) -> SimMessage:
    asked = await driver.say(user, text, chat)
    return await driver.server.wait_for_message(chat or driver.group, after=asked)


async def _sheet(driver: Driver, chat: SimChat, after: SimMessage, lang: str) -> None:
    """The score sheet picture sent after ``after``, with its caption in ``lang``."""
    photo = await driver.server.wait_for_message(
        chat, after=after, where=lambda m: m.kind == "photo"
    )
    check_score_sheet(photo)
    game = TR.text(lang, "rec-game-thousand")
    assert photo.text == TR.text(lang, "rec-sheet-title", game=game)


async def _stats(services: Services, user: SimUser, lang: str) -> str:
    player = PlayerRef.human(user.id)
    entries = await services.store.results.stats_for(player)
    return plain(stats_text(player, user.first_name, entries, lang, TR))


async def _top(services: Services, chat: SimChat, lang: str) -> str:
    board = await services.store.results.leaderboard(chat.id, Game.THOUSAND)
    return plain(top_text(board, Game.THOUSAND, lang, TR))


async def _history(services: Services, chat: SimChat, lang: str) -> str:
    return plain(history_text(await services.store.results.history(chat.id), lang, TR))


def _csv(message: SimMessage) -> list[list[str]]:
    assert message.kind == "document" and message.file is not None
    assert message.file.filename == EXPORT_FILENAME
    assert message.file.content_type == "text/csv"
    assert message.file.data is not None
    return list(csv.reader(io.StringIO(message.file.data.decode("utf-8-sig"))))


async def test_a_finished_match_in_the_records(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot)
        for lang in ("ru", "en", "uk"):
            menu = [
                c["command"] for scope in ("all_group_chats", "all_private_chats")
                for c in server.commands({"type": scope}, language_code=lang)
            ]
            assert {"score", "stats", "top", "history", "export"} <= set(menu)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        result = await driver.play(thousand())
        assert result is not None
        check_score_sheet(result)  # the match result is the caption of the score sheet
        assert result.text.startswith("🏆 Тысяча: партия окончена! Побеждает Борис")
        assert result == cast.group.last_message()

        entry = await services.store.results.result_of(1)
        assert entry is not None and entry.status == "finished" and entry.recorded
        alice = entry.seats[0]  # conceded every deal: last, at −1000 or below
        assert alice.place == 3 and alice.score is not None and alice.score <= -1000

        # In Russian.
        stats = await _answer(driver, cast.alice, "/stats")
        assert stats.text == await _stats(services, cast.alice, "ru")
        assert stats.text.startswith("📊 Алиса — статистика")
        assert "1 партия, 0 побед (0%)" in stats.text
        said = await driver.say(cast.bob, "кто выиграл?")
        asked = await cast.alice.reply(cast.group, said, "/stats")
        await driver.settle()
        theirs = await server.wait_for_message(cast.group, after=asked)
        assert theirs.text == await _stats(services, cast.bob, "ru")
        assert theirs.text.startswith("📊 Борис")
        top = await _answer(driver, cast.carol, "/top")
        assert top.text == await _top(services, cast.group, "ru")
        assert top.text.startswith("🏆 Тысяча — рейтинг чата") and "Алиса" in top.text
        assert top.reply_markup is None  # one page, humans only
        history = await _answer(driver, cast.carol, "/history")
        assert history.text == await _history(services, cast.group, "ru")
        assert "🏆" in history.text and f"Алиса −{-alice.score}" in history.text
        none = await _answer(driver, cast.alice, "/score")
        assert none.text == TR.text("ru", "rec-score-none")
        # /export in the group: the file goes to the requester's private chat, the group is
        # told where; someone the bot cannot write to privately is told what to do.
        sent_before = len(cast.alice.chat.messages(from_bot=True))
        elsewhere = await _answer(driver, cast.alice, "/export")
        assert elsewhere.text == TR.text("ru", "rec-export-sent")
        privately = cast.alice.chat.messages(from_bot=True)[sent_before:]
        assert [m.text for m in privately] == [TR.text("ru", "rec-export-caption")]
        stranger = await _answer(driver, cast.dave, "/export")
        assert stranger.text == plain(TR.text("ru", "rec-export-private"))
        export = await _answer(driver, cast.alice, "/export", cast.alice.chat)
        assert export.text == TR.text("ru", "rec-export-caption")
        header, row = _csv(export)
        assert header[0] == "Дата (UTC)"
        assert (row[1], row[2], row[5], row[6], row[7]) == (
            "1", "Тысяча", "p1", "3", str(alice.score),
        )
        empty = await _answer(driver, cast.dave, "/export", cast.dave.chat)
        assert empty.text == TR.text("ru", "rec-export-empty")
        mine = await _answer(driver, cast.dave, "/stats", cast.dave.chat)
        assert mine.text == plain(stats_text(PlayerRef.human(cast.dave.id), "Глеб", [], "ru", TR))

        # In English: the group's language for the group, Alice's for her private chat.
        await driver.say(cast.bob, "/lang en")
        stats = await _answer(driver, cast.alice, "/stats")
        assert stats.text == await _stats(services, cast.alice, "en")
        assert "1 match, 0 wins (0%)" in stats.text
        top = await _answer(driver, cast.carol, "/top thousand")
        assert top.text == await _top(services, cast.group, "en")
        assert top.text.startswith("🏆 Thousand — this chat's ratings")
        history = await _answer(driver, cast.carol, "/history")
        assert history.text == await _history(services, cast.group, "en")
        assert history.text.startswith("📜 Recent matches")
        assert (await _answer(driver, cast.alice, "/score")).text == TR.text(
            "en", "rec-score-none"
        )
        await driver.say(cast.alice, "/lang en", cast.alice.chat)
        export = await _answer(driver, cast.alice, "/export", cast.alice.chat)
        assert export.text == TR.text("en", "rec-export-caption")
        header, row = _csv(export)
        assert header[0] == "Date (UTC)" and row[2] == "Thousand"


async def test_the_score_sheet_during_a_match_and_a_stopped_match(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        assert await driver.play(thousand(), stop=lambda d: d.deal_number() == 3) is None

        asked = await driver.say(cast.carol, "/score")
        await _sheet(driver, cast.group, asked, "ru")
        asked = await driver.say(cast.bob, "/score", cast.bob.chat)
        await _sheet(driver, cast.bob.chat, asked, "ru")
        await driver.say(cast.carol, "/lang en")
        asked = await driver.say(cast.carol, "/score")
        await _sheet(driver, cast.group, asked, "en")

        await driver.say(cast.alice, "/stop")
        match = await services.store.matches.get(1)
        assert match is not None and match.status == "abandoned"
        entry = await services.store.results.result_of(1)
        assert entry is not None and entry.recorded and entry.winner is None
        assert all(s.score is not None and s.rating_after is None for s in entry.seats)
        assert await services.store.results.stats_for(PlayerRef.human(cast.alice.id)) == []
        history = await _answer(driver, cast.carol, "/history")
        assert history.text == await _history(services, cast.group, "en")
        assert "Thousand · stopped" in history.text
        top = await _answer(driver, cast.carol, "/top")
        assert top.text == plain(
            "\n".join([TR.text("en", "rec-top-title", game="Thousand"), "",
                       TR.text("en", "rec-top-empty")])
        )
        stats = await _answer(driver, cast.alice, "/stats")
        assert stats.text.endswith(TR.text("en", "rec-stats-empty"))
        pictures = [m for m in cast.group.messages(from_bot=True) if m.kind == "photo"]
        # The two /score, and the stopped match's result, posted like any match end.
        assert len(pictures) == 3
