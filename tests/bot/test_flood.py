"""A game within Telegram's limits: a group's messages paced under its limit (edits of the
table coalesce while players keep pressing), and a 429 storm waited out with the latest state
still delivered."""

from __future__ import annotations

from pathlib import Path

from bot.render.common import html_name
from engine import view
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer


async def test_the_group_is_paced_and_the_table_coalesces(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    server.limits.enabled = True
    server.limits.group_messages, server.limits.group_window = 6, 1.0
    server.limits.global_messages = 10_000
    database = tmp_path / "bot.db"
    async with running_bot(server, database, group_messages=6, group_window_seconds=1.0) as bot:
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot, private_only=True)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        result = await driver.play(thousand())
        await driver.settle()
    assert result is not None
    assert [s for s in server.served_429 if s.reason == "group"] == []
    stats = server.chat_stats(cast.group)
    assert stats.edits < driver.presses  # the table's states coalesced
    titles = [plain(TR.text(LANG, "result-title", number=n)) for n in range(1, 11)]
    texts = [m.text for m in cast.group.messages(from_bot=True)]
    assert [t.splitlines()[0] for t in texts if t.startswith("Итоги")] == titles
    assert texts[-1] == result.text  # the match result comes after the deal results


async def test_a_429_storm_is_waited_out(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        await driver.play(thousand(), stop=lambda d: d.presses == 4)
        server.inject_429(seconds=1.5, retry_after=1, methods=["editMessageText", "sendMessage"])
        await driver.play(thousand(), stop=lambda d: d.presses == 5)
        assert server.served_429
        live = bot.services.games.in_chat(cast.group.id)
        assert live is not None and live.state.turn is not None
        names = await bot.services.people.names(live.user_ids)
        turn = plain(TR.text(LANG, "state-turn", name=html_name(names, live.state.turn)))
        assert lobby.text.splitlines()[-1].startswith(turn)  # the table shows the latest turn
        seat_view = view(live.state, live.state.turn)
        fresh = [
            o for o in driver.options()
            if o.press.version == live.version and o.action.seat == live.state.turn
        ]
        # The newest keyboard is shown (its first part: larger values are a page away).
        assert fresh and {o.action for o in fresh} <= set(seat_view.legal)
        result = await driver.play(thousand())
        assert result is not None
