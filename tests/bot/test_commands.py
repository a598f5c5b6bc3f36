"""Commands and their replies: the command menu per scope and language and the bot's
description, /help, /rules, /lang in a group and in
private, /new in private or with an unknown game, /join /leave /invite, and /stop with no game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.render import render_rules
from engine import Game
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.fakebot import FakeTelegramServer, SimChat, SimUser


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


@pytest.fixture
def driver(server: FakeTelegramServer, cast: Cast, bot: BotUnderTest) -> Driver:
    return Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)


async def _reply(driver: Driver, user: SimUser, text: str, chat: SimChat | None = None) -> str:
    asked = await driver.say(user, text, chat)
    return (await driver.server.wait_for_message(chat or driver.group, after=asked)).text


async def test_the_command_menu_per_scope_and_language_and_the_description(
    server: FakeTelegramServer, driver: Driver
) -> None:
    await driver.settle()
    groups, private = {"type": "all_group_chats"}, {"type": "all_private_chats"}
    for lang in ("ru", "en", "uk", ""):
        in_groups = [c["command"] for c in server.commands(groups, language_code=lang)]
        in_private = [c["command"] for c in server.commands(private, language_code=lang)]
        assert in_groups == [
            "new", "join", "leave", "invite", "stop", "kick", "back", "score", "stats", "top",
            "history", "lang", "rules", "help",
        ]
        assert in_private == [
            "solo", "stop", "back", "notify", "score", "stats", "export", "lang", "rules", "help",
        ]
        everywhere = [c["command"] for c in server.commands(language_code=lang)]
        assert set(everywhere) == set(in_groups) & set(in_private)
        text = TR.text(lang or LANG, "bot-description")
        assert server.description(language_code=lang) == text
        short = TR.text(lang or LANG, "bot-short-description")
        assert server.description("short_description", lang) == short
    described = server.commands(groups, language_code="en")[0]["description"]
    assert described == TR.text("en", "bot-command-new")
    assert server.description(language_code="uk") != server.description(language_code="ru")


async def test_help_and_rules(driver: Driver, cast: Cast) -> None:
    assert await _reply(driver, cast.alice, "/help") == plain(TR.text(LANG, "bot-help"))
    rules = await _reply(driver, cast.alice, "/rules 1001", cast.alice.chat)
    assert rules == plain(render_rules(Game.THOUSAND_ONE, LANG, TR))
    unknown = await _reply(driver, cast.alice, "/rules chess")
    assert unknown == plain(TR.text(LANG, "bot-new-unknown-game", game="chess"))


async def test_languages_of_the_group_and_of_a_player(driver: Driver, cast: Cast) -> None:
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    assert await _reply(driver, cast.bob, "/lang en") == TR.text("en", "bot-lang-set")
    assert lobby.text.startswith(plain(TR.text("en", "lobby-title", game="Thousand")))
    assert await _reply(driver, cast.bob, "/lang xx") == TR.text(
        "en", "bot-lang-usage", languages="ru | en | uk"
    )
    private = await _reply(driver, cast.carol, "/lang uk", cast.carol.chat)
    assert private == TR.text("uk", "bot-lang-set")
    await driver.start(cast.alice, lobby)
    hand = driver.hand(cast.carol)
    assert hand is not None and hand.text.startswith("Тисяча")


async def test_new_outside_a_group_or_with_an_unknown_game(driver: Driver, cast: Cast) -> None:
    private = await _reply(driver, cast.alice, "/new", cast.alice.chat)
    assert private == TR.text(LANG, "bot-new-private")
    unknown = await _reply(driver, cast.alice, "/new chess")
    assert unknown == TR.text(LANG, "bot-new-unknown-game", game="chess")


async def test_join_leave_invite_and_stop_by_command(driver: Driver, cast: Cast) -> None:
    assert await _reply(driver, cast.bob, "/join") == TR.text(LANG, "bot-no-lobby")
    assert await _reply(driver, cast.bob, "/invite") == TR.text(LANG, "bot-no-lobby")
    assert await _reply(driver, cast.bob, "/stop") == TR.text(LANG, "bot-stop-nothing")
    lobby = await driver.open_lobby(cast.alice, "/new")
    await driver.say(cast.bob, "/join")
    await driver.say(cast.carol, "/join")
    assert "3 из 3" in lobby.text
    await driver.say(cast.carol, "/leave")
    assert "2 из 3" in lobby.text
    link = await driver.invite_link(cast.bob)
    assert link == driver.server.deep_link("join-1")
    await cast.carol.open_link(link)
    await driver.settle()
    assert "3 из 3" in lobby.text
    joined = cast.carol.chat.last_message()
    assert joined is not None and joined.text == TR.text(
        LANG, "bot-start-joined", group="Четверг"
    )
    await driver.start(cast.alice, lobby)
    assert await _reply(driver, cast.bob, "/leave") == TR.text(LANG, "bot-leave-running")
    running = TR.text(LANG, "bot-no-lobby-running")
    assert await _reply(driver, cast.dave, "/join") == running
    assert await _reply(driver, cast.dave, "/invite") == running
