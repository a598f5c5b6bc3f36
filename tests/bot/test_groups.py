"""Groups as they are (issue 12): an anonymous administrator (Telegram's GroupAnonymousBot,
with the group as ``sender_chat``) opens a lobby without taking a seat, the group's
administrators run it and anyone of them can /stop the game; edited messages and a linked
channel's automatic forwards open nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.fakebot import FakeTelegramServer, SimChat


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


@pytest.fixture
def admins_group(server: FakeTelegramServer, cast: Cast) -> SimChat:
    """Алиса owns the group and Борис administers it; Вера and Глеб are members."""
    return server.group(
        title="Клуб", members=[cast.carol, cast.dave], admins=[cast.bob], creator=cast.alice
    )


async def test_an_anonymous_admin_opens_a_lobby_the_admins_start_and_stop(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest, admins_group: SimChat
) -> None:
    driver = Driver(server, admins_group, [cast.alice, cast.bob, cast.carol], bot)
    await driver.settle()
    await cast.alice.send_anonymously(admins_group, "/new")
    await driver.settle()
    lobby = await driver.lobby()
    stored = await bot.services.store.lobbies.open_in_chat(admins_group.id)
    assert stored is not None and stored.seats == ()
    # The lobby names no creator (the group's own name is nobody's) but who runs it.
    assert plain(TR.text(LANG, "lobby-footer-admins")) in lobby.text
    await driver.press_lobby(cast.bob, lobby, "settings")
    assert plain(TR.text(LANG, "lobby-settings-hint-admins")) in lobby.text
    await driver.press_lobby(cast.bob, lobby, "back")
    for user in (cast.alice, cast.bob, cast.carol):
        answer = await driver.press(user, lobby, TR.text(LANG, "lobby-join"))
        assert answer.text is None
    # A member who is not an admin may not start it; an admin may.
    refused = await driver.press_lobby(cast.carol, lobby, "start")
    assert refused.text == TR.text(LANG, "lobby-creator-only")
    await driver.start(cast.bob, lobby)
    assert driver.options(), "the match did not start"
    await cast.bob.send_anonymously(admins_group, "/stop")
    await driver.settle()
    assert bot.services.games.in_chat(admins_group.id) is None
    match = await bot.services.store.matches.get(1)
    assert match is not None and match.status == "abandoned"


async def test_an_anonymous_admin_cannot_sit(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest, admins_group: SimChat
) -> None:
    driver = Driver(server, admins_group, [cast.alice], bot)
    await driver.say(cast.carol, "/new")
    asked = await cast.alice.send_anonymously(admins_group, "/join")
    await driver.settle()
    reply = await server.wait_for_message(admins_group, after=asked)
    assert reply.text == plain(TR.text(LANG, "group-anonymous-cannot-sit"))
    lobby = await bot.services.store.lobbies.open_in_chat(admins_group.id)
    assert lobby is not None and [s.user_id for s in lobby.seats] == [cast.carol.id]


async def test_an_anonymous_admin_stops_a_lobby(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest, admins_group: SimChat
) -> None:
    driver = Driver(server, admins_group, [cast.carol], bot)
    await driver.say(cast.carol, "/new")
    await cast.bob.send_anonymously(admins_group, "/stop")
    await driver.settle()
    assert await bot.services.store.lobbies.open_in_chat(admins_group.id) is None


async def test_an_edited_new_opens_nothing(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest
) -> None:
    driver = Driver(server, cast.group, [cast.alice], bot)
    message = await driver.say(cast.alice, "привет")
    await cast.alice.edit(message, "/new")
    await driver.settle()
    assert await bot.services.store.lobbies.open_in_chat(cast.group.id) is None
    assert cast.group.messages(from_bot=True) == []


async def test_a_channel_forward_opens_nothing(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest
) -> None:
    driver = Driver(server, cast.group, [cast.alice], bot)
    await cast.group.automatic_forward("/new")
    await driver.settle()
    assert await bot.services.store.lobbies.open_in_chat(cast.group.id) is None
    assert cast.group.messages(from_bot=True) == []
