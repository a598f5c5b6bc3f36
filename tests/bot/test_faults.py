"""A match through a failing Telegram: 500s for 10 s, calls timing out for 15 s, refused
connections for 30 s. The match goes on — a press during the fault is applied — and within
30 s after each fault the newest table and hands have arrived (every stored message marked
delivered at its match's newest version), without a restart; then the match is played to
its end."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.services import Services
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer

POLICY = thousand(play_deals=1)
AFTER_FAULT = 30.0
SENDS = ("sendMessage", "editMessageText", "answerCallbackQuery")


async def _press_now(driver: Driver) -> int:
    """Press what the policy picks on the newest keyboard without waiting for the answer;
    the version it was pressed at."""
    option = await driver.choose(POLICY)
    await option.user.press(option.message, option.data)
    return option.press.version


async def _applied(services: Services, cast: Cast, version: int) -> None:
    """Wait until the match is past ``version`` (the press was committed)."""
    while True:
        live = services.games.in_chat(cast.group.id)
        if live is None or live.version > version:
            return
        await asyncio.sleep(0.05)


async def _all_shown(services: Services, driver: Driver) -> None:
    """Wait until every stored message is delivered and a keyboard of the match's newest
    version is shown to the player who acts."""
    while True:
        await services.ledger.flush()
        live = services.games.in_chat(driver.group.id)
        stale = await services.store.outbox.count()
        shown = [o.press.version for o in driver.options()]
        shown += [c[3].version for c in driver.card_choices()]  # giving's first step
        newest = max(shown, default=-1)
        if stale == 0 and (live is None or newest == live.version):
            return
        await asyncio.sleep(0.2)


async def _through(fault: str, seconds: float, server: FakeTelegramServer, driver: Driver,
                   services: Services, cast: Cast) -> None:
    loop = asyncio.get_running_loop()
    if fault == "refuse":
        # Something must be on its way when the connections go: a press whose messages
        # cannot be sent yet.
        server.faults.fail(seconds=1.0, methods=SENDS)
        await _applied(services, cast, await _press_now(driver))
        server.faults.refuse(seconds)
    else:
        getattr(server.faults, fault)(seconds=seconds, methods=SENDS)
        await _applied(services, cast, await _press_now(driver))  # the game goes on
    await asyncio.sleep(seconds)
    over = loop.time()
    await asyncio.wait_for(_all_shown(services, driver), AFTER_FAULT)
    assert loop.time() - over <= AFTER_FAULT
    assert any(kind == fault for kind, _ in server.faults.hit), fault


async def test_a_match_goes_on_through_failures_timeouts_and_refusals(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        assert await driver.play(POLICY, stop=lambda d: d.presses == 3) is None
        await _through("fail", 10.0, server, driver, services, cast)
        await _through("hang", 15.0, server, driver, services, cast)
        await _through("refuse", 30.0, server, driver, services, cast)
        result = await driver.play(POLICY)
        assert result is not None
