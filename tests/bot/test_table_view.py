"""The table stays in view and keeps up (issue 11), end to end, within a group's real limits:
after a deal result the table is the newest bot message again, a command's reply is not
queued behind the table's refreshes, and every card played reaches the table's lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.render import card_label
from engine import Play
from engine.notation import parse_action
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer

GROUP_LIMIT: dict[str, Any] = {
    "group_messages": 20, "group_window_seconds": 60.0, "messages_per_second": 30.0
}
"""Telegram's limits, which the fake server enforces here too."""


async def test_the_table_comes_back_below_each_deal_result(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        await driver.play(thousand(play_deals=5), stop=lambda d: d.deal_number() >= 3)
        shown = cast.group.messages(from_bot=True)
        results = [m for m in shown if m.text.startswith("Итоги раздачи")]
        assert len(results) == 2
        newest = shown[-1]
        assert newest.text.startswith("Тысяча · раздача 3"), newest.text
        assert newest.message_id > results[-1].message_id
        tables = [m for m in shown if m.text.startswith("Тысяча · раздача")]
        assert tables == [newest]  # the old table messages are gone
        assert lobby.deleted
        match = await bot.services.store.matches.get(1)
        assert match is not None and match.table_message_id == newest.message_id


async def test_a_reply_is_not_queued_behind_table_refreshes(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    server.limits.enabled = True
    async with running_bot(server, tmp_path / "bot.db", **GROUP_LIMIT) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        driver.private_only = True  # press on while the group's edits are paced
        await driver.play(thousand(play_deals=5), stop=lambda d: d.presses >= 24)
        before = len(server.world.calls)
        await cast.bob.send(cast.group, "/score")
        await driver.play(thousand(play_deals=5), stop=lambda d: d.presses >= 40)
        await server.wait_for(
            lambda: any(
                c.method == "sendPhoto" and c.chat_id == cast.group.id
                for c in server.world.calls[before:]
            ),
            timeout=60,
        )
        group = [c for c in server.world.calls[before:] if c.chat_id == cast.group.id]
        photo = next(i for i, c in enumerate(group) if c.method == "sendPhoto")
        refreshes = [c for c in group[:photo] if c.method == "editMessageText"]
        assert len(refreshes) < 2, [c.method for c in group[: photo + 1]]
        assert server.served_429 == []


async def test_every_card_reaches_the_table(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    server.limits.enabled = True
    async with running_bot(server, tmp_path / "bot.db", **GROUP_LIMIT) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        driver.private_only = True
        await driver.play(thousand(play_deals=5), stop=lambda d: d.deal_number() >= 2)
        await driver.settle()
        log = await bot.services.store.matches.read_log(1)
        names = ("Алиса", "Борис", "Вера")
        shown = "\n".join(cast.group.texts_shown(from_bot=True))
        plays = [
            a for a in (parse_action(line, 3) for line in log if " play " in line)
            if isinstance(a, Play)
        ]
        assert len(plays) == 24
        for play in plays:
            line = TR.text(
                LANG, "event-card-played", name=names[play.seat],
                card=card_label(play.card, LANG, TR),
            )
            assert line in shown, line
