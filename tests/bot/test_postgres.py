"""The bot on PostgreSQL (``DATABASE_URL``), end to end through the fake Bot API: a bot process
is SIGKILLed in the middle of a trick, a second one on the same database finishes the match,
with the log and the result of an uninterrupted run on SQLite. Skipped without a PostgreSQL
test server, failed under CI without one (`tests.postgres`)."""

from __future__ import annotations

import signal
from pathlib import Path

from storage import Store
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, bot_process
from tests.bot.test_restart import POLICY, SEED, _gather, _in_a_trick, _reference
from tests.fakebot import FakeTelegramServer, SimMessage
from tests.postgres import fresh_database


async def _log(url: str) -> list[str]:
    async with await Store.open(url) as store:
        return await store.matches.read_log(1)


async def test_a_killed_bot_on_postgresql_is_finished_by_another_process(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    output = tmp_path / "bot.log"
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with fresh_database() as url:
        env = {"DEAL_SEED": SEED, "DATABASE_URL": url}
        async with bot_process(server, tmp_path / "first.db", output, **env) as first:
            await _gather(driver, cast)
            assert await driver.play(POLICY, stop=_in_a_trick) is None
            first.send_signal(signal.SIGKILL)
        middle = await _log(url)
        assert middle[-1].split()[1] == "play" and middle[-2].split()[1] == "play"
        async with bot_process(server, tmp_path / "second.db", output, **env) as second:
            result: SimMessage | None = await driver.play(POLICY)
            second.send_signal(signal.SIGTERM)
            assert await second.wait() == 0, output.read_text()
        log = await _log(url)
        assert not (tmp_path / "first.db").exists()  # nothing went to a SQLite file
    assert result is not None
    expected_log, expected_result, expected_presses = await _reference(tmp_path)
    assert log == expected_log
    assert result.text == expected_result
    assert driver.presses == expected_presses
