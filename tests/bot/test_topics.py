"""Forum topics (issue 12): a forum supergroup runs one game per topic, each in its own topic.
Two lobbies in two topics gather and start at once; every message of a game (its lobby, its
table, the deal results, the match result with the score sheet) and every answer to a
command goes to the topic it belongs to, and nothing to General; /score, /stop and /new act
on the game of their topic only; a /kick in a topic, which Telegram sends as a reply to the
topic's creation, does not point at the topic's creator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimChat, SimMessage, SimUser


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


async def _people(server: FakeTelegramServer) -> list[SimUser]:
    names = ["Алиса", "Борис", "Вера", "Глеб", "Дина", "Егор"]
    users = [server.user(201 + n, name, f"u{201 + n}") for n, name in enumerate(names)]
    for user in users:
        await user.start_bot()
    return users


def _lobby_in(group: SimChat, topic: int | None) -> SimMessage | None:
    join = TR.text(LANG, "lobby-join")
    found = [m for m in group.topic_messages(topic) if join in m.button_texts()]
    return found[-1] if found else None


async def _open(
    server: FakeTelegramServer, driver: Driver, group: SimChat, topic: int, users: list[SimUser]
) -> SimMessage:
    creator, *others = users
    await creator.send(group, "/new", topic=topic)
    await driver.settle()
    lobby = _lobby_in(group, topic)
    assert lobby is not None, group.texts_shown(from_bot=True)
    for user in others:
        answer = await driver.press(user, lobby, TR.text(LANG, "lobby-join"))
        assert answer.text is None, answer.text
    return lobby


async def test_two_topics_play_two_games_each_in_its_topic(
    server: FakeTelegramServer, bot: BotUnderTest
) -> None:
    users = await _people(server)
    group = server.group(title="Клуб", members=users, forum=True)
    first = await group.create_topic(users[0], "Тысяча у окна")
    second = await group.create_topic(users[3], "Тысяча у двери")
    one, two = users[:3], users[3:]
    driver = Driver(server, group, one, bot)
    other = Driver(server, group, two, bot)
    lobby_one = await _open(server, driver, group, first, one)
    lobby_two = await _open(server, other, group, second, two)
    assert (lobby_one.thread_id, lobby_two.thread_id) == (first, second)
    await driver.start(one[0], lobby_one)
    await other.start(two[0], lobby_two)
    assert not group.topic_messages(None), "a game's message went to General"

    # Each topic's commands act on its own game.
    busy = await users[1].send(group, "/new", topic=first)
    await driver.settle()
    answer = group.topic_messages(first)[-1]
    assert answer.message_id > busy.message_id
    assert answer.text == plain(TR.text(LANG, "lobby-busy-match"))
    await users[4].send(group, "/score", topic=second)
    await driver.settle()
    sheet = group.topic_messages(second)[-1]
    assert sheet.kind == "photo"

    # A /kick in a topic replies (for Telegram) to the topic's creation by Алиса: "/kick 2"
    # names seat 2, Борис, not her.
    await users[2].send(group, "/kick 2", topic=first)
    await driver.settle()
    vote = group.topic_messages(first)[-1].text
    assert vote.startswith("Вера предлагает") and "Борис" in vote and "Алиса" not in vote

    result = await driver.play(thousand())
    assert result is not None and result.thread_id == first
    assert result.kind == "photo"  # the score sheet, with the result as its caption
    table_two = [m for m in group.topic_messages(second) if m.text.startswith("Тысяча")]
    assert table_two and not table_two[-1].text.startswith("🏆")
    assert not group.topic_messages(None), "a game's message went to General"

    # /stop in the second topic ends the second game only; General opens a game of its own.
    await users[3].send(group, "/stop", topic=second)
    await other.settle()
    assert bot.services.games.in_chat(group.id, second) is None
    await users[5].send(group, "/new")
    await driver.settle()
    general = _lobby_in(group, None)
    assert general is not None and general.thread_id is None
    stored = await bot.services.store.lobbies.open_in_chat(group.id)
    assert stored is not None and stored.topic_id == 0
