"""After a restart only what is stale is redrawn (issue 13): each stored message keeps the
version it last delivered, so a bot restarted with nothing changed while it was down sends
and edits nothing, and one that stopped with messages held back (here by the group's limit)
sends only those, the newest match first."""

from __future__ import annotations

from pathlib import Path

from tests.bot.conftest import Cast
from tests.bot.harness import BotUnderTest, Driver, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimChat, SimUser

POLICY = thousand()
DRAWING = ("sendmessage", "editmessagetext")


def _drawn(server: FakeTelegramServer, since: int) -> list[int | None]:
    """The chats of the sends and edits made since call number ``since``."""
    return [c.chat_id for c in server.world.calls[since:] if c.method.lower() in DRAWING]


async def _match(
    server: FakeTelegramServer, group: SimChat, people: list[SimUser], bot: BotUnderTest
) -> Driver:
    driver = Driver(server, group, people, bot)
    lobby = await driver.open_lobby(people[0], "/new", by_button=people[1:])
    await driver.start(people[0], lobby)
    await driver.play(POLICY, stop=lambda d: d.presses == 4)
    return driver


async def test_nothing_changed_nothing_redrawn(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database, handled = tmp_path / "bot.db", set[int]()
    async with running_bot(server, database, handled=handled) as bot:
        await _match(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
    since = len(server.world.calls)
    async with running_bot(server, database, handled=handled) as bot:
        await server.settle(quiet=0.5)
        assert await bot.services.store.outbox.count() == 0
        assert _drawn(server, since) == []
        # The match is still there to play.
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        await driver.play(POLICY, stop=lambda d: d.presses == 2)


async def test_only_the_stale_go_and_the_newest_match_first(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database, handled = tmp_path / "bot.db", set[int]()
    others = [server.user(105 + n, name) for n, name in enumerate(("Дина", "Егор", "Жанна"))]
    for user in others:
        await user.start_bot()
    second = server.group(title="Пятница", members=others)
    first_players = [cast.alice, cast.bob, cast.carol]
    async with running_bot(server, database, handled=handled) as bot:
        older = await _match(server, cast.group, first_players, bot)
        newer = await _match(server, second, others, bot)
    # Both tables are up to date; now a slow group limit holds the groups' messages back.
    async with running_bot(
        server, database, handled=handled, group_messages=1, group_window_seconds=60
    ) as bot:
        await server.settle(quiet=0.3)
        for driver in (older, newer):
            # The groups' messages wait: only the private ones can be waited for.
            driver.bot, driver.private_only = bot, True
        await older.play(POLICY, stop=lambda d: d.presses == 6)
        await newer.play(POLICY, stop=lambda d: d.presses == 6)
        held = await bot.services.store.outbox.count()
    assert held > 0
    since = len(server.world.calls)
    async with running_bot(server, database, handled=handled) as bot:
        await server.settle(quiet=0.5)
        await bot.services.outbox.idle()
        # The marks of what was delivered are written every second; write them now (a busy
        # machine can stretch the settling above past that second, or not reach it).
        await bot.services.ledger.flush()
        drawn = _drawn(server, since)
        assert await bot.services.store.outbox.count() == 0
    groups = [chat for chat in drawn if chat is not None and chat < 0]
    assert groups and groups[0] == second.id, drawn
    assert set(groups) <= {cast.group.id, second.id}
    assert len(drawn) <= held
