"""The turn finds the player (issue 11), end to end: a player away for longer than the ping
delay gets their hand as a new message at their turn — one hand message stays — while a
fast player's hand is only edited; /notify off stops it; at the end of a deal every hand
tells the last trick and the deal's result until the next deal's first action."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from engine import Pass
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimUser
from tests.postgres import fresh_database

PING = 0.4
"""The ping delay of these tests, in seconds."""


def _sends(server: FakeTelegramServer, user: SimUser) -> int:
    return sum(
        1 for c in server.world.calls if c.method == "sendMessage" and c.chat_id == user.id
    )


def _hands(driver: Driver, user: SimUser) -> int:
    """The user's bot messages that show a match (deleted ones are gone)."""
    games = ("Тысяча", "Тысяча одно", "Тумбочка")
    return sum(1 for m in user.chat.messages(from_bot=True) if m.text.startswith(games))


async def _started(server: FakeTelegramServer, cast: Cast, bot: BotUnderTest) -> Driver:
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)
    await driver.settle()
    return driver


async def _pass_after_a_pause(driver: Driver) -> tuple[SimUser, SimUser]:
    """Everyone is away for longer than the ping delay; then whoever bids passes at once.
    Returns the presser and the player whose turn it is then."""
    await asyncio.sleep(PING * 1.5)
    option = next(o for o in driver.options() if isinstance(o.action, Pass))
    assert (await driver.press(option.user, option.message, option.data)).text is None
    following = {o.user for o in driver.options()}
    assert len(following) == 1
    return option.user, following.pop()


async def test_an_idle_player_gets_a_new_message_and_one_hand_remains(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", ping_seconds=PING) as bot:
        driver = await _started(server, cast, bot)
        before = {u.id: _sends(server, u) for u in driver.users}
        presser, pinged = await _pass_after_a_pause(driver)
        assert _sends(server, pinged) == before[pinged.id] + 1
        assert _sends(server, presser) == before[presser.id]  # who pressed sees edits
        for user in driver.users:
            assert _hands(driver, user) == 1, user
        newest = pinged.chat.last_message(from_bot=True)
        hand = driver.hand(pinged)
        assert newest is not None and hand is not None
        assert newest.message_id == hand.message_id and hand.buttons()


async def test_a_fast_player_gets_edits_only_until_the_next_deal(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", ping_seconds=60) as bot:
        driver = await _started(server, cast, bot)
        before = {u.id: _sends(server, u) for u in driver.users}
        await driver.play(thousand(play_deals=1), stop=lambda d: d.deal_number() >= 2)
        edits = sum(1 for c in server.world.calls if c.method == "editMessageText")
        assert edits > 30
        # Deal 1 was all edits; the next deal's first turn comes as a new message (to
        # whoever did not deal it with the last card).
        option = driver.options()[0]
        after = {u.id: _sends(server, u) for u in driver.users}
        assert after == {**before, option.user.id: before[option.user.id] + 1}
        for user in driver.users:
            assert _hands(driver, user) == 1


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_a_match_loaded_anew_pings_no_one_its_first_process_would_not_have(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path, database: str
) -> None:
    """A restart in the middle of a deal (on PostgreSQL: as another worker would) loads the
    match from its log, which tells who has had a turn in this deal: the rest of the deal is
    edits, as without the restart, and the next deal's first turn one new message."""
    async with contextlib.AsyncExitStack() as stack:
        url = await stack.enter_async_context(fresh_database()) if database != "sqlite" else None
        settings: dict[str, object] = {"ping_seconds": 60}
        if url is not None:
            settings["database_url"] = url
        handled: set[int] = set()
        async with running_bot(server, tmp_path / "bot.db", handled=handled, **settings) as bot:
            driver = await _started(server, cast, bot)
            before = {u.id: _sends(server, u) for u in driver.users}
            await driver.play(thousand(play_deals=1), stop=lambda d: d.presses >= 12)
            assert driver.deal_number() == 1
        async with running_bot(server, tmp_path / "bot.db", handled=handled, **settings) as bot:
            driver.bot = bot
            await driver.play(thousand(play_deals=1), stop=lambda d: d.deal_number() >= 2)
            option = driver.options()[0]
            after = {u.id: _sends(server, u) for u in driver.users}
    assert after == {**before, option.user.id: before[option.user.id] + 1}


async def test_a_player_away_before_a_restart_is_pinged_after_it(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """The match loaded anew knows when it started and when each player last acted (the
    log's times), so a player away for longer than the ping delay across a restart gets
    their turn as a new message, as without the restart."""
    handled: set[int] = set()
    database = tmp_path / "bot.db"
    async with running_bot(server, database, handled=handled, ping_seconds=PING) as bot:
        driver = await _started(server, cast, bot)
    await asyncio.sleep(PING * 1.5)  # everyone is away while the bot is down
    async with running_bot(server, database, handled=handled, ping_seconds=PING) as bot:
        driver.bot = bot
        before = {u.id: _sends(server, u) for u in driver.users}
        option = next(o for o in driver.options() if isinstance(o.action, Pass))
        assert (await driver.press(option.user, option.message, option.data)).text is None
        [pinged] = {o.user for o in driver.options()}
        assert _sends(server, pinged) == before[pinged.id] + 1
        assert _sends(server, option.user) == before[option.user.id]


async def test_notify_off_stops_the_pings(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", ping_seconds=PING) as bot:
        driver = await _started(server, cast, bot)
        for user in driver.users:
            asked = await driver.say(user, "/notify off", chat=user.chat)
            reply = await server.wait_for_message(user.chat, after=asked)
            assert reply.text == plain(TR.text(LANG, "bot-notify-off"))
        before = {u.id: _sends(server, u) for u in driver.users}
        _, pinged = await _pass_after_a_pause(driver)
        assert _sends(server, pinged) == before[pinged.id]

        asked = await driver.say(pinged, "/notify", chat=pinged.chat)
        reply = await server.wait_for_message(pinged.chat, after=asked)
        assert reply.text == plain(TR.text(LANG, "bot-notify-on"))
        assert (await bot.services.people.pings(pinged.id)) is True


async def test_every_hand_tells_the_deal_that_just_ended(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = await _started(server, cast, bot)
        await driver.play(thousand(play_deals=1), stop=lambda d: d.deal_number() >= 2)
        last_trick = plain(TR.text(LANG, "state-last-trick", name="", plays="")).split()[0]
        for user in driver.users:
            hand = driver.hand(user)
            assert hand is not None
            lines = hand.text.splitlines()
            assert any(line.startswith(last_trick) for line in lines), hand.text
            recap = next(line for line in lines if line.startswith("Итоги раздачи 1:"))
            assert "у вас" in recap and "итого" in recap, recap
        # The next deal's first action ends the recap.
        option = driver.options()[0]
        assert (await driver.press(option.user, option.message, option.data)).text is None
        for user in driver.users:
            hand = driver.hand(user)
            assert hand is not None and "Итоги раздачи 1:" not in hand.text
