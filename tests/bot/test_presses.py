"""Presses that must apply nothing: outdated keyboards, forged data, double presses, presses by
people without the seat, refused moves; and the lobby's guards (one game per group, the
creator's buttons)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.callbacks import encode_action
from engine import Bid, Pass
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, Option, running_bot
from tests.fakebot import FakeTelegramServer

OUTDATED = TR.text(LANG, "press-outdated")


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


@pytest.fixture
async def driver(server: FakeTelegramServer, cast: Cast, bot: BotUnderTest) -> Driver:
    """A Тысяча match of Алиса (p1), Борис (p2) and Вера (p3), in its first bidding turn."""
    found = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
    lobby = await found.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await found.start(cast.alice, lobby)
    await found.settle()
    return found


async def _version(bot: BotUnderTest) -> int:
    match = await bot.services.store.matches.get(1)
    assert match is not None
    return match.version


def _turn(driver: Driver) -> Option:
    """The pass button of whoever must bid (Вера opens: Борис sits on the hundred)."""
    return next(o for o in driver.options() if isinstance(o.action, Pass))


async def test_an_outdated_keyboard_applies_nothing(driver: Driver, bot: BotUnderTest) -> None:
    old = _turn(driver)
    answer = await driver.press(old.user, old.message, old.data)
    assert answer.text is None
    version = await _version(bot)
    handle = await old.user.press_data(old.user.chat, old.message.message_id, old.data)
    assert (await handle.answer()).text == OUTDATED
    await driver.settle()
    assert await _version(bot) == version


async def test_a_double_press_applies_once(driver: Driver, bot: BotUnderTest) -> None:
    option = _turn(driver)
    version = await _version(bot)
    first = await option.user.press(option.message, option.data)
    second = await option.user.press(option.message, option.data)
    answers = sorted([(await first.answer()).text or "", (await second.answer()).text or ""])
    assert answers == ["", OUTDATED]
    await driver.settle()
    assert await _version(bot) == version + 1


async def test_forged_data_is_outdated(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    option = _turn(driver)
    version = await _version(bot)
    forged = [
        "garbage",
        "",
        "a:zz:0:0p",  # no such match
        "a:1:" + option.data.split(":")[2] + ":7p",  # no such seat
        option.data + "x",
        "a:1:" + option.data.split(":")[2] + ":0y" + "z",  # no such card
    ]
    for data in forged:
        handle = await option.user.press_data(option.user.chat, option.message.message_id, data)
        assert (await handle.answer()).text == OUTDATED, data
    closed = await cast.alice.press_data(cast.group, 1, "l:zz:join:")
    assert (await closed.answer()).text == TR.text(LANG, "lobby-closed")
    await driver.settle()
    assert await _version(bot) == version


async def test_presses_for_a_seat_that_is_not_yours(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    option = _turn(driver)
    version = await _version(bot)
    outsider = await cast.dave.press_data(cast.dave.chat, 1, option.data)
    assert (await outsider.answer()).text == TR.text(LANG, "press-not-seated")
    other = cast.alice if option.user != cast.alice else cast.bob
    neighbour = await other.press_data(other.chat, 1, option.data)
    assert (await neighbour.answer()).text == OUTDATED
    await driver.settle()
    assert await _version(bot) == version


async def test_a_refused_move_is_a_toast(driver: Driver, bot: BotUnderTest) -> None:
    option = _turn(driver)
    version = await _version(bot)
    too_high = encode_action(1, version, Bid(option.action.seat, 300))
    handle = await option.user.press_data(option.user.chat, option.message.message_id, too_high)
    toast = (await handle.answer()).text
    assert toast and toast != OUTDATED
    await driver.settle()
    assert await _version(bot) == version


async def test_one_game_per_group(driver: Driver, cast: Cast) -> None:
    asked = await driver.say(cast.bob, "/new tumbochka")
    reply = await driver.server.wait_for_message(cast.group, after=asked)
    assert reply.text == TR.text(LANG, "lobby-busy-match")


async def test_lobby_guards(server: FakeTelegramServer, cast: Cast, bot: BotUnderTest) -> None:
    driver = Driver(server, cast.group, [cast.alice, cast.bob], bot)
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob])
    asked = await driver.say(cast.carol, "/new 1001")
    reply = await server.wait_for_message(cast.group, after=asked)
    assert reply.text == TR.text(LANG, "lobby-busy-lobby")
    creator_only = TR.text(LANG, "lobby-creator-only")
    assert (await driver.press_lobby(cast.bob, lobby, "settings")).text == creator_only
    assert (await driver.press_lobby(cast.bob, lobby, "start")).text == creator_only
    not_full = TR.text(LANG, "lobby-not-full")
    assert (await driver.press_lobby(cast.alice, lobby, "start")).text == not_full
    again = TR.text(LANG, "lobby-already-seated")
    assert (await driver.press_lobby(cast.bob, lobby, "join")).text == again
    assert (await driver.press_lobby(cast.bob, lobby, "leave")).text is None
    assert "1 из 3" in lobby.text
    assert (await driver.press_lobby(cast.bob, lobby, "leave")).text == TR.text(
        LANG, "lobby-not-seated"
    )


async def test_a_failure_is_told_and_the_game_goes_on(
    driver: Driver, bot: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    option = _turn(driver)

    async def broken(user_id: int, data: str) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bot.services.games, "press", broken)
    failed = await option.user.press(option.message, option.data)
    assert (await failed.answer()).text == TR.text(LANG, "bot-error")
    monkeypatch.undo()
    answer = await driver.press(option.user, option.message, option.data)
    assert answer.text is None


async def test_one_log_line_per_update(
    driver: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    option = _turn(driver)
    with caplog.at_level("INFO", logger="bot.updates"):
        await driver.press(option.user, option.message, option.data)
    [line] = [r.getMessage() for r in caplog.records if r.name == "bot.updates"]
    assert line.startswith(f"update kind=press chat={option.user.id} user={option.user.id} ")
    assert "match=1 action='p3 pass' result=applied version=" in line
    assert " ms=" in line
