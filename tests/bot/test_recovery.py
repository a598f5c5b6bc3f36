"""Start-up recovery from the database: a match that stopped before its next deal is dealt
and shown, a broken log or row is set aside with a message (and the bot keeps working), and an
open lobby keeps working across a restart."""

from __future__ import annotations

from pathlib import Path

from bot.match.matchlog import header_text
from engine import Game, preset
from storage import NewSeat, Store
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer


async def _stored_match(database: Path, cast: Cast, log: list[str]) -> None:
    """A running Тысяча match of Алиса, Борис and Вера in the group, with this log."""
    async with await Store.open(database) as store:
        await store.chats.upsert(cast.group.id, type="supergroup", title="Четверг")
        for user in (cast.alice, cast.bob, cast.carol):
            await store.users.upsert(user.id, first_name=user.first_name)
            await store.users.set_private_chat_opened(user.id)
        match = await store.matches.create(
            cast.group.id,
            game=Game.THOUSAND,
            players=3,
            rules=header_text(preset(Game.THOUSAND), seed="stored"),
            seats=[NewSeat.human(u.id) for u in (cast.alice, cast.bob, cast.carol)],
        )
        if log:
            await store.matches.append_actions(match.match_id, 0, log)


async def test_a_match_stored_before_its_first_deal_is_dealt_and_played(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    await _stored_match(database, cast, [])
    async with running_bot(server, database) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        await driver.settle()
        assert all(driver.hand(u) is not None for u in driver.users)
        assert await driver.play(thousand()) is not None


async def test_a_broken_log_is_set_aside(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    await _stored_match(database, cast, ["p1 play AS"])
    async with running_bot(server, database) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        notice = await server.wait_for_message(cast.group)
        assert notice.text == TR.text(LANG, "bot-match-broken")
        match = await bot.services.store.matches.get(1)
        assert match is not None and match.status == "abandoned"
        await driver.open_lobby(cast.alice, "/new")


async def test_a_broken_row_is_set_aside(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    await _stored_match(database, cast, [])
    async with await Store.open(database) as store:
        await store.db.execute("DELETE FROM match_seats WHERE match_id = 1 AND seat = 2")
    async with running_bot(server, database):
        notice = await server.wait_for_message(cast.group)
        assert notice.text == TR.text(LANG, "bot-match-broken")


async def test_an_open_lobby_survives_a_restart(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    async with running_bot(server, database) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob])
    async with running_bot(server, database, handled=bot.handled) as bot:
        driver.bot = bot
        await driver.settle()
        answer = await driver.press(cast.carol, lobby, TR.text(LANG, "lobby-join"))
        assert answer.text is None and "3 из 3" in lobby.text
        await driver.start(cast.alice, lobby)
        assert await driver.play(thousand()) is not None
    assert len(cast.group.messages(from_bot=True)) == 1 + 10 + 1  # table, deal results, result
