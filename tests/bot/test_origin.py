"""Every press is checked against where it came from (issue 12): a lobby button carrying
another group's lobby, a /top or /history page button pressed on a game message, a game button
pressed in a group, a join link opened by someone outside the group, and unknown or huge ids
are each refused with a plain answer and change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.handlers.records import history_data
from bot.telegram.callbacks import LobbyPress, decode, encode_lobby
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.fakebot import FakeTelegramServer, SimMessage

WRONG = TR.text(LANG, "press-wrong-message")
OUTDATED = TR.text(LANG, "press-outdated")
HUGE = "z" * 13
"""A base-36 id beyond SQLite's integers."""


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


@pytest.fixture
def driver(server: FakeTelegramServer, cast: Cast, bot: BotUnderTest) -> Driver:
    return Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)


def _lobby_id(lobby: SimMessage) -> int:
    for button in lobby.buttons():
        press = decode(str(button.get("callback_data", "")), 4)
        if isinstance(press, LobbyPress):
            return press.lobby_id
    raise AssertionError(f"no lobby button in {lobby.button_rows()}")


async def _started(driver: Driver, cast: Cast) -> SimMessage:
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)
    await driver.settle()
    return lobby


async def _version(bot: BotUnderTest) -> int:
    match = await bot.services.store.matches.get(1)
    assert match is not None
    return match.version


async def test_a_lobby_button_with_another_group_s_lobby_is_refused(
    server: FakeTelegramServer, driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    ours = await driver.open_lobby(cast.alice, "/new")
    theirs_group = server.group(title="Соседи", members=[cast.dave])
    theirs = Driver(server, theirs_group, [cast.dave], bot)
    theirs_lobby = await theirs.open_lobby(cast.dave, "/new")
    target = _lobby_id(ours)
    for verb, arg in (("join", ""), ("bot", "easy"), ("start", "")):
        data = encode_lobby(target, verb, arg)
        handle = await cast.dave.press_data(theirs_group, theirs_lobby.message_id, data)
        assert (await handle.answer()).text == WRONG, verb
    # The right lobby id on another message of the right group is refused too.
    other = await driver.say(cast.alice, "/help")
    handle = await cast.bob.press_data(cast.group, other.message_id, encode_lobby(target, "join"))
    assert (await handle.answer()).text == WRONG
    await driver.settle()
    lobby = await bot.services.store.lobbies.get(target)
    assert lobby is not None and [s.user_id for s in lobby.seats] == [cast.alice.id]
    assert cast.dave.first_name not in ours.text


async def test_a_page_button_on_a_game_message_is_refused(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    table = await _started(driver, cast)
    version = await _version(bot)
    hand = driver.hand(cast.carol)
    assert hand is not None and hand.buttons()
    keyboard, text = hand.reply_markup, hand.text
    handle = await cast.carol.press_data(cast.carol.chat, hand.message_id, history_data(1))
    assert (await handle.answer()).text == WRONG
    handle = await cast.alice.press_data(cast.group, table.message_id, history_data(1))
    assert (await handle.answer()).text == WRONG
    table_text = table.text
    await driver.settle()
    assert (hand.reply_markup, hand.text) == (keyboard, text)
    assert table.text == table_text
    assert await _version(bot) == version


async def test_a_game_button_pressed_in_a_group_is_refused(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    table = await _started(driver, cast)
    version = await _version(bot)
    option = driver.options()[0]
    handle = await option.user.press_data(cast.group, table.message_id, option.data)
    assert (await handle.answer()).text == WRONG
    await driver.settle()
    assert await _version(bot) == version


async def test_a_join_link_needs_membership_of_the_group(
    server: FakeTelegramServer, driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    lobby = await driver.open_lobby(cast.alice, "/new")
    stranger = server.user(105, "Ева", "eve")
    await stranger.start_bot()
    await driver.settle()
    asked = await stranger.start_bot(f"join-{_lobby_id(lobby)}")
    await driver.settle()
    reply = await server.wait_for_message(stranger.chat, after=asked)
    assert reply.text == plain(TR.text(LANG, "start-join-not-member", group=cast.group.title or ""))
    stored = await bot.services.store.lobbies.get(_lobby_id(lobby))
    assert stored is not None and stored.seat_of(stranger.id) is None
    # A member of the group is seated by the same link.
    asked = await cast.dave.start_bot(f"join-{_lobby_id(lobby)}")
    await driver.settle()
    reply = await server.wait_for_message(cast.dave.chat, after=asked)
    assert reply.text == plain(TR.text(LANG, "bot-start-joined", group=cast.group.title or ""))


@pytest.mark.parametrize("payload", ["join-9999999", "join-99999999999999999999999", "join-x"])
async def test_a_join_link_to_no_lobby_is_a_plain_answer(
    server: FakeTelegramServer, driver: Driver, cast: Cast, payload: str
) -> None:
    await driver.settle()  # the replies to the cast's first /start
    asked = await cast.alice.start_bot(payload)
    await driver.settle()
    reply = await server.wait_for_message(cast.alice.chat, after=asked)
    assert reply.text == plain(TR.text(LANG, "start-join-unknown"))


async def test_huge_ids_in_buttons_are_a_plain_answer(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    await _started(driver, cast)
    version = await _version(bot)
    hand = driver.hand(cast.alice)
    assert hand is not None
    for data in (f"a:{HUGE}:0:0p", f"a:1:{HUGE}:0p", f"l:{HUGE}:join:"):
        handle = await cast.alice.press_data(cast.alice.chat, hand.message_id, data)
        assert (await handle.answer()).text == OUTDATED, data
    await driver.settle()
    assert await _version(bot) == version


async def test_a_page_button_from_before_pages_had_their_own_kind_is_answered(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    """/top and /history buttons used to pose as presses on "lobby 0"; pressed on an old
    message after an upgrade, they are told the list is out of date and change nothing."""
    lobby = await driver.open_lobby(cast.alice, "/new")
    text = lobby.text
    for data in ("l:0:top:2:thousand:a", "l:0:hist:2"):
        handle = await cast.alice.press_data(cast.group, lobby.message_id, data)
        assert (await handle.answer()).text == TR.text(LANG, "press-page-stale"), data
    await driver.settle()
    assert lobby.text == text
    assert await bot.services.store.lobbies.get(_lobby_id(lobby)) is not None
