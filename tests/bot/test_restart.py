"""A bot killed with SIGKILL in the middle of a trick resumes the match from its database and
finishes it exactly as an uninterrupted bot does with the same deal seed and the same presses.

The interrupted bot runs as a separate process (``python -m bot``) against the fake Bot API
of this test; the uninterrupted one runs in this process against a second fake server.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

from bot.services import Services
from storage import Store
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, bot_process, running_bot
from tests.bot.policies import passive, thousand
from tests.fakebot import FakeTelegramServer, SimMessage, SimUser

SEED = "restart"
POLICY = thousand(play_deals=1)  # deal 1 is played out trick by trick, later ones conceded
KILL_AFTER = 10  # presses: bidding 3, giving 2, trick 1, and two cards of trick 2


async def _gather(driver: Driver, cast: Cast) -> None:
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)


async def _log(database: Path) -> list[str]:
    async with await Store.open(database) as store:
        return await store.matches.read_log(1)


async def _reference(tmp_path: Path) -> tuple[list[str], str, int]:
    """The uninterrupted run: its log, its match result and its number of presses."""
    async with FakeTelegramServer() as server:
        server.limits.enabled = False
        people = [server.user(101 + n, name) for n, name in enumerate(("Алиса", "Борис", "Вера"))]
        for user in people:
            await user.start_bot()
        group = server.group(title="Четверг", members=people)
        alice, bob, carol = people
        cast = Cast(alice, bob, carol, server.user(104, "Глеб"), group)
        database = tmp_path / "reference.db"
        async with running_bot(server, database, deal_seed=SEED) as bot:
            driver = Driver(server, group, people, bot)
            await _gather(driver, cast)
            result = await driver.play(POLICY)
            assert result is not None
            services: Services = bot.services
            log = await services.store.matches.read_log(1)
        return log, result.text, driver.presses


def _in_a_trick(driver: Driver) -> bool:
    return driver.presses == KILL_AFTER


async def test_a_killed_bot_finishes_the_match_like_an_uninterrupted_one(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database, output = tmp_path / "bot.db", tmp_path / "bot.log"
    players: list[SimUser] = [cast.alice, cast.bob, cast.carol]
    driver = Driver(server, cast.group, players)
    async with bot_process(server, database, output, DEAL_SEED=SEED) as first:
        await _gather(driver, cast)
        assert await driver.play(POLICY, stop=_in_a_trick) is None
        first.send_signal(signal.SIGKILL)
    middle = await _log(database)
    assert middle[-1].split()[1] == "play" and middle[-2].split()[1] == "play"
    async with bot_process(server, database, output, DEAL_SEED=SEED) as second:
        result: SimMessage | None = await driver.play(POLICY)
        second.send_signal(signal.SIGTERM)
        assert await second.wait() == 0, output.read_text()
    assert result is not None
    expected_log, expected_result, expected_presses = await _reference(tmp_path)
    assert await _log(database) == expected_log
    assert result.text == expected_result
    assert driver.presses == expected_presses


COMPUTERS = {"COMPUTER_WORKERS": "0", "COMPUTER_BUDGET_SECONDS": "0.05"}
COMPUTER_PRESSES = 6
COMPUTER_DEALS = 3


async def _with_computers(driver: Driver, alice: SimUser) -> None:
    lobby = await driver.open_lobby(alice, "/new")
    for _ in range(2):
        await driver.press_lobby(alice, lobby, "bot", "easy")
    await driver.start(alice, lobby)


def _enough(driver: Driver) -> bool:
    return driver.deal_number() > COMPUTER_DEALS


async def test_a_killed_bot_resumes_its_computer_players_where_they_stopped(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """Alice plays with two computers; the bot is killed after her sixth press and restarted.
    The computers go on, and the log is the one of an uninterrupted bot: their decisions are
    seeded by the match, so a restart does not change them."""
    database, output = tmp_path / "bot.db", tmp_path / "bot.log"
    driver = Driver(server, cast.group, [cast.alice])
    async with bot_process(server, database, output, DEAL_SEED=SEED, **COMPUTERS) as first:
        await _with_computers(driver, cast.alice)
        stop = COMPUTER_PRESSES
        assert await driver.play(passive, stop=lambda d: d.presses == stop) is None
        first.send_signal(signal.SIGKILL)
    async with bot_process(server, database, output, DEAL_SEED=SEED, **COMPUTERS) as second:
        await driver.play(passive, stop=_enough)
        second.send_signal(signal.SIGTERM)
        assert await second.wait() == 0, output.read_text()
    log = await _log(database)

    async with FakeTelegramServer() as other:
        other.limits.enabled = False
        alice = other.user(101, "Алиса")
        await alice.start_bot()
        group = other.group(title="Четверг", members=[alice])
        settings: dict[str, Any] = {"computer_workers": 0, "computer_budget_seconds": 0.05}
        async with running_bot(other, tmp_path / "reference.db", deal_seed=SEED, **settings) as bot:
            reference = Driver(other, group, [alice], bot)
            await _with_computers(reference, alice)
            await reference.play(passive, stop=_enough)
            expected = await bot.services.store.matches.read_log(1)
    assert reference.presses == driver.presses
    assert log[: len(expected)] == expected[: len(log)]
    assert any(line.startswith("p2 ") for line in log)
