"""A group's life under the bot (issue 12): a basic group upgraded to a supergroup keeps its
running match and its lobby (shown anew in the supergroup, where /stop finds the game), and
the bot removed from a group stops the group's match, recorded as abandoned, its players told
in private and their hands without buttons."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimChat


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


@pytest.fixture
def basic(server: FakeTelegramServer, cast: Cast) -> SimChat:
    return server.group(
        id=-4_000_001, title="Дача", members=[cast.alice, cast.bob, cast.carol], basic=True
    )


async def test_a_match_follows_its_group_to_the_supergroup(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest, basic: SimChat
) -> None:
    players = [cast.alice, cast.bob, cast.carol]
    driver = Driver(server, basic, players, bot)
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)
    await driver.play(thousand(), stop=lambda d: d.presses >= 2)
    supergroup = await basic.migrate(by=cast.alice)
    await driver.settle()
    live = bot.services.games.in_chat(supergroup.id)
    assert live is not None and bot.services.games.in_chat(basic.id) is None
    stored = await bot.services.store.matches.get(live.match_id)
    assert stored is not None and stored.chat_id == supergroup.id
    tables = supergroup.messages(from_bot=True)
    assert tables, "the table was not shown in the supergroup"
    # The match goes on there, and /stop in the supergroup finds it.
    moved = Driver(server, supergroup, players, bot)
    await moved.play(thousand(), stop=lambda d: d.presses >= 2)
    await moved.say(cast.alice, "/stop")
    stopped = await bot.services.store.matches.get(live.match_id)
    assert stopped is not None and stopped.status == "abandoned"


async def test_a_left_notice_before_the_migration_does_not_stop_the_match(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest, basic: SimChat
) -> None:
    players = [cast.alice, cast.bob, cast.carol]
    driver = Driver(server, basic, players, bot)
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)
    supergroup = await basic.migrate(by=cast.alice, bot_leaves_first=True)
    await driver.settle()
    live = bot.services.games.in_chat(supergroup.id)
    assert live is not None
    stored = await bot.services.store.matches.get(live.match_id)
    assert stored is not None and stored.status == "running"
    assert stored.chat_id == supergroup.id


async def test_a_lobby_follows_its_group_to_the_supergroup(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest, basic: SimChat
) -> None:
    driver = Driver(server, basic, [cast.alice, cast.bob], bot)
    await driver.open_lobby(cast.alice, "/new")
    supergroup = await basic.migrate(by=cast.alice)
    moved = Driver(server, supergroup, [cast.alice, cast.bob], bot)
    await moved.settle()
    lobby = await moved.lobby()
    answer = await moved.press(cast.bob, lobby, TR.text(LANG, "lobby-join"))
    assert answer.text is None
    stored = await bot.services.store.lobbies.open_in_chat(supergroup.id)
    assert stored is not None and stored.seat_of(cast.bob.id) is not None


async def test_the_bot_removed_from_a_group_stops_its_match(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest
) -> None:
    players = [cast.alice, cast.bob, cast.carol]
    driver = Driver(server, cast.group, players, bot)
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)
    await driver.play(thousand(), stop=lambda d: d.presses >= 1)
    await cast.group.set_bot_status("kicked", by=cast.alice)
    await driver.settle()
    match = await bot.services.store.matches.get(1)
    assert match is not None and match.status == "abandoned"
    assert bot.services.games.in_chat(cast.group.id) is None
    told = plain(TR.text(LANG, "bot-removed-match", group=cast.group.title or ""))
    for user in players:
        assert told in user.chat.texts_shown(from_bot=True), user
        hand = driver.hand(user)
        assert hand is not None and not hand.buttons(), hand


async def test_the_bot_removed_from_a_group_cancels_its_lobby(
    server: FakeTelegramServer, cast: Cast, bot: BotUnderTest
) -> None:
    driver = Driver(server, cast.group, [cast.alice], bot)
    await driver.open_lobby(cast.alice, "/new")
    await cast.group.set_bot_status("left", by=cast.alice)
    await driver.settle()
    assert await bot.services.store.lobbies.open_in_chat(cast.group.id) is None
