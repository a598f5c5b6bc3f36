"""SIGTERM delivers: a real ``python -m bot`` stopped while its group's messages wait for
Telegram's group limit delivers what it can before PTB closes its HTTP client (the drain
runs as ``post_stop``) and exits within Docker's 10 s; what it could not deliver stays in
the database outbox and arrives after the next start, once: nothing is lost, nothing doubled.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

from storage import Store
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, bot_process, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimChat

POLICY = thousand()  # every deal conceded at once: many deal results in little time
DEALS = 5
SLOW_GROUP = {"GROUP_MESSAGES": "3", "GROUP_WINDOW_SECONDS": "60"}
DOCKER_GRACE = 10.0


async def _gather(driver: Driver, cast: Cast) -> None:
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)


def _enough(driver: Driver) -> bool:
    return driver.deal_number() > DEALS


def _posts(group: SimChat) -> list[str]:
    """The deal results (the table, sent anew below each, is not one of them)."""
    return [m.text for m in group.messages(from_bot=True) if m.text.startswith("Итоги раздачи")]


async def _reference(tmp_path: Path, presses: int) -> list[str]:
    async with FakeTelegramServer() as server:
        server.limits.enabled = False
        people = [server.user(101 + n, name) for n, name in enumerate(("Алиса", "Борис", "Вера"))]
        for user in people:
            await user.start_bot()
        alice, bob, carol = people
        dave = server.user(104, "Глеб")
        group = server.group(title="Четверг", members=[*people, dave])
        async with running_bot(server, tmp_path / "reference.db") as bot:
            driver = Driver(server, group, people, bot)
            await _gather(driver, Cast(alice, bob, carol, dave, group))
            await driver.play(POLICY, stop=lambda d: d.presses == presses)
        return _posts(group)


async def test_sigterm_delivers_or_keeps_every_queued_message(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database, output = tmp_path / "bot.db", tmp_path / "bot.log"
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with bot_process(server, database, output, **SLOW_GROUP) as first:
        await _gather(driver, cast)
        await driver.play(POLICY, stop=_enough)
        queued = _posts(cast.group)
        first.send_signal(signal.SIGTERM)
        began = time.monotonic()
        assert await asyncio.wait_for(first.wait(), 30) == 0, output.read_text()
        stopped_in = time.monotonic() - began
    text = output.read_text()
    assert "not initialized" not in text and "Traceback" not in text, text
    assert stopped_in < DOCKER_GRACE
    async with await Store.open(database) as store:
        kept = await store.outbox.count()
    assert kept > 0, "the group's limit should have kept some messages back"
    delivered_before = len(_posts(cast.group))
    assert delivered_before >= len(queued)

    async with bot_process(server, database, output) as second:
        await server.settle(quiet=0.5)
        second.send_signal(signal.SIGTERM)
        assert await second.wait() == 0, output.read_text()
    async with await Store.open(database) as store:
        assert await store.outbox.count() == 0
    expected = await _reference(tmp_path, driver.presses)
    assert _posts(cast.group) == expected  # every deal result, once, in order
    assert len(expected) > delivered_before
