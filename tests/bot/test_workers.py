"""Two webhook workers of one token on one PostgreSQL database (issue 17), end to end through
the fake Bot API: a reverse proxy in front of them (`tests.bot.proxy`) hands the updates to
each in turn, so the players' presses alternate between the processes; the leader (the
process that sends) is SIGKILLed in the middle of a trick and the other takes over. The match
ends with the log and the result of an uninterrupted run, and Telegram's per-group and
overall limits held across both processes (the fake server answered no 429). A turn timer
armed by the killed leader fires in the other process. A follower SIGKILLed while its
computer player thinks (the job of the match is its own, `bot.match.jobs`) has that move
made by the other process within a lease. A player whose /start one worker took gets their
hand from the other as well (whether a private chat is open is read from the database). A
second process that would poll refuses to start. Skipped without a PostgreSQL test server,
failed under CI without one (`tests.postgres`)."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

from bot.chats.people import REFRESH_SECONDS
from bot.match.drawing import RECENT_CONTEXT
from bot.match.jobs import CLAIM_SECONDS, LEASE_SECONDS
from storage import Store
from tests.bot.conftest import Cast
from tests.bot.harness import (
    LANG,
    TOKEN,
    TR,
    Driver,
    bot_environment,
    bot_process,
    check_score_sheet,
    plain,
)
from tests.bot.proxy import RoundRobin, free_port, listening
from tests.bot.test_postgres import _log
from tests.bot.test_restart import KILL_AFTER, POLICY, SEED, _gather, _in_a_trick, _reference
from tests.fakebot import FakeTelegramServer, SimMessage
from tests.postgres import fresh_database

SECRET = "workers-secret"
GROUP_WINDOW = 6
"""Telegram's group limit scaled down for the test: 20 messages and edits per 6 s."""
TURN = 4
"""Seconds of the turn timer in the timer test."""
THINKING = "60"
"""The killed follower's computer budget: it thinks for many seconds (its pool dies with it)."""


async def _listening(port: int, output: Path) -> None:
    assert await listening(port), f"worker on {port} does not listen: {output.read_text()}"


def _limits(server: FakeTelegramServer) -> None:
    """The fake server enforces Telegram's limits (the group window scaled down)."""
    server.limits.enabled = True
    server.limits.group_window = GROUP_WINDOW


def _most_just_now(driver: Driver) -> int:
    """The most "just now" lines any state of the group's messages showed."""
    heading = plain(TR.text(LANG, "table-notes"))
    most = 0
    for message in driver.group.messages(from_bot=True):
        for text in message.history:
            lines = text.split("\n")
            if heading in lines:
                rest = lines[lines.index(heading) + 1:]
                most = max(most, rest.index("") if "" in rest else len(rest))
    return most


def _worker(url: str, hook: str, port: int, **extra: str) -> dict[str, str]:
    return {
        "DEAL_SEED": SEED, "DATABASE_URL": url, "WEBHOOK_URL": hook, "WEBHOOK_SECRET": SECRET,
        "WEBHOOK_PORT": str(port), "GROUP_MESSAGES": "20",
        "GROUP_WINDOW_SECONDS": str(GROUP_WINDOW), "MESSAGES_PER_SECOND": "30", **extra,
    }


async def test_two_workers_alternate_and_one_finishes_when_the_leader_is_killed(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    _limits(server)
    output = tmp_path / "workers.log"
    ports = [free_port(), free_port()]
    proxy = RoundRobin(ports)
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with fresh_database() as url, proxy.running() as hook:
        first_env = _worker(url, hook, ports[0])
        async with bot_process(server, tmp_path / "a.db", output, **first_env) as first:
            await _listening(ports[0], output)
            assert server.webhook_url == hook and server.webhook_secret == SECRET
            second_env = _worker(url, hook, ports[1])
            async with bot_process(server, tmp_path / "b.db", output, **second_env) as second:
                await _listening(ports[1], output)
                await _gather(driver, cast)
                assert await driver.play(POLICY, stop=_in_a_trick) is None
                both = set(proxy.served)
                first.send_signal(signal.SIGKILL)
                await first.wait()
                result: SimMessage | None = await driver.play(POLICY)
                second.send_signal(signal.SIGTERM)
                assert await second.wait() == 0, output.read_text()
        log = await _log(url)
    assert both == set(ports)  # the presses went to both workers before the kill
    assert result is not None
    expected_log, expected_result, expected_presses = await _reference(tmp_path)
    assert log == expected_log
    assert result.text == expected_result
    assert driver.presses == expected_presses
    assert server.served_429 == [], server.served_429
    assert server.world.call_counts["setWebhook"] == 1  # only the leader registered it
    assert server.world.call_counts["setMyCommands"] > 0


async def test_a_turn_timer_armed_by_the_killed_leader_fires_in_the_other_worker(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    output = tmp_path / "workers.log"
    ports = [free_port(), free_port()]
    proxy = RoundRobin(ports)
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with fresh_database() as url, proxy.running() as hook:
        timed = {"TURN_SECONDS": str(TURN), "COMPUTER_BUDGET_SECONDS": "0.1"}
        async with bot_process(server, tmp_path / "a.db", output,
                               **_worker(url, hook, ports[0], **timed)) as first:
            await _listening(ports[0], output)
            async with bot_process(server, tmp_path / "b.db", output,
                                   **_worker(url, hook, ports[1], **timed)) as second:
                await _listening(ports[1], output)
                await _gather(driver, cast)
                dealt = await _log(url)
                # Nobody presses: the leader armed the first turn's timer (its own, or within
                # a second the one its follower stored); then it dies before the timer runs out.
                await asyncio.sleep(1.5)
                first.send_signal(signal.SIGKILL)
                await first.wait()
                for _ in range(int(TURN * 10 + 150)):
                    if len(await _log(url)) > len(dealt):
                        break
                    await asyncio.sleep(0.1)
                moved = await _log(url)
                second.send_signal(signal.SIGTERM)
                assert await second.wait() == 0, output.read_text()
    assert len(moved) > len(dealt), output.read_text()


async def _holder(url: str) -> str | None:
    async with await Store.open(url) as store:
        return await store.jobs.holder(1)


async def test_a_computer_move_held_by_a_killed_follower_is_made_by_the_other_worker(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    output = tmp_path / "workers.log"
    ports = [free_port(), free_port()]
    proxy = RoundRobin(ports)
    alice = cast.alice
    driver = Driver(server, alice.chat, [alice], private_only=True)
    async with fresh_database() as url, proxy.running() as hook:
        quick = _worker(url, hook, ports[0], COMPUTER_BUDGET_SECONDS="0.1")
        async with bot_process(server, tmp_path / "a.db", output, **quick) as leader:
            await _listening(ports[0], output)
            slow = _worker(url, hook, ports[1], COMPUTER_BUDGET_SECONDS=THINKING)
            async with bot_process(server, tmp_path / "b.db", output, **slow) as follower:
                await _listening(ports[1], output)
                proxy.ports = [ports[1]]  # every update goes to the follower
                await driver.say(alice, "/solo hard", chat=alice.chat)
                while driver.options():  # until a computer seat is to act
                    await driver.act(driver.options()[0])
                await asyncio.sleep(1.0)
                thinking = await _log(url)
                holder = await _holder(url)
                assert holder is not None and f":{follower.pid}:" in holder, holder
                follower.send_signal(signal.SIGKILL)
                await follower.wait()
                killed = time.monotonic()
                while len(await _log(url)) == len(thinking):
                    assert time.monotonic() - killed < 3 * (LEASE_SECONDS + CLAIM_SECONDS), (
                        output.read_text()
                    )
                    await asyncio.sleep(0.1)
                taken_over = time.monotonic() - killed
                holder = await _holder(url)
                leader.send_signal(signal.SIGTERM)
                assert await leader.wait() == 0, output.read_text()
    # The move came from the leader, within a lease and a claim of the kill.
    assert holder is not None and f":{leader.pid}:" in holder, holder
    print(f"the computer's move was taken over {taken_over:.1f} s after the kill")
    assert taken_over < LEASE_SECONDS + CLAIM_SECONDS + 3, taken_over


async def test_a_start_taken_by_one_worker_counts_in_the_other(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """Dave joins through one worker (which learns he has not opened his private chat), then
    presses Start in it through the other: every worker sends him his hand from then on, and
    the table stops asking him to open the chat."""
    output = tmp_path / "workers.log"
    ports = [free_port(), free_port()]
    proxy = RoundRobin(ports)
    dave = cast.dave
    driver = Driver(server, cast.group, [cast.alice, cast.bob, dave])
    async with (
        fresh_database() as url, proxy.running() as hook,
        bot_process(server, tmp_path / "a.db", output, **_worker(url, hook, ports[0])),
    ):
        await _listening(ports[0], output)
        async with bot_process(server, tmp_path / "b.db", output,
                               **_worker(url, hook, ports[1])) as second:
            await _listening(ports[1], output)
            proxy.ports = [ports[1]]
            lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, dave])
            proxy.ports = [ports[0]]
            await dave.start_bot()
            await driver.settle()
            await driver.start(cast.alice, lobby)
            proxy.ports = ports  # the presses alternate: the second worker loads the match
            played = await asyncio.wait_for(driver.play(POLICY, stop=_in_a_trick), 300)
            [table] = [m for m in cast.group.messages(from_bot=True)
                       if m.message_id == lobby.message_id]
            second.send_signal(signal.SIGTERM)
            assert await second.wait() == 0, output.read_text()
    assert played is None
    assert set(proxy.served[-KILL_AFTER:]) == set(ports)  # both workers took presses
    assert not any("url" in button for button in table.buttons()), table.button_rows()


async def test_a_follower_that_takes_every_press_keeps_its_tables_short(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """A follower never sees a delivery: its tables' "just now" lines run from what it last
    handed the leader (a few lines of context and the new ones), not from the deal's start.
    Its /score picture is handed to the leader, which sends it."""
    output = tmp_path / "workers.log"
    ports = [free_port(), free_port()]
    proxy = RoundRobin([ports[1]])
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with (
        fresh_database() as url, proxy.running() as hook,
        bot_process(server, tmp_path / "a.db", output, **_worker(url, hook, ports[0])),
    ):
        await _listening(ports[0], output)
        async with bot_process(server, tmp_path / "b.db", output,
                               **_worker(url, hook, ports[1])) as follower:
            await _listening(ports[1], output)
            await _gather(driver, cast)
            played = await asyncio.wait_for(
                driver.play(POLICY, stop=lambda d: d.deal_number() >= 2), 300
            )
            await cast.alice.send(cast.group, "/score")  # the leader sends the follower's file
            sheet = await server.wait_for(
                lambda: next((m for m in cast.group.messages(from_bot=True)
                              if m.kind == "photo"), None),
                what="the score sheet",
            )
            follower.send_signal(signal.SIGTERM)
            assert await follower.wait() == 0, output.read_text()
    assert played is None and set(proxy.served) == {ports[1]}
    assert _most_just_now(driver) <= RECENT_CONTEXT + 6
    check_score_sheet(sheet)


async def test_a_settings_screen_and_a_language_from_one_worker_hold_in_the_other(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """The lobby's settings screen opened through one worker takes its next press in the
    other (it is stored); a /lang taken by one worker reaches the other's cache within about
    a second (`People.refresh`)."""
    output = tmp_path / "workers.log"
    ports = [free_port(), free_port()]
    proxy = RoundRobin([ports[0]])
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    back, english = TR.text(LANG, "lobby-back"), plain(TR.text("en", "lobby-title", game=""))
    async with (
        fresh_database() as url, proxy.running() as hook,
        bot_process(server, tmp_path / "a.db", output, **_worker(url, hook, ports[0])),
        bot_process(server, tmp_path / "b.db", output, **_worker(url, hook, ports[1])),
    ):
        await _listening(ports[0], output)
        await _listening(ports[1], output)
        lobby = await driver.open_lobby(cast.alice, "/new")
        proxy.ports = [ports[1]]
        await driver.press_lobby(cast.bob, lobby, "join")  # the second worker knows the group
        proxy.ports = [ports[0]]
        await driver.press_lobby(cast.alice, lobby, "settings")
        await server.wait_for(lambda: back in lobby.button_texts(), what="the settings")
        proxy.ports = [ports[1]]
        edits = lobby.edits
        await driver.press_lobby(cast.alice, lobby, "opt", "bid_step")
        await server.wait_for(lambda: lobby.edits > edits, what="the bid step changed")
        assert back in lobby.button_texts()  # still the settings screen
        proxy.ports = [ports[0]]
        await driver.say(cast.bob, "/lang en")
        await asyncio.sleep(REFRESH_SECONDS * 2)
        proxy.ports = [ports[1]]
        await driver.press_lobby(cast.alice, lobby, "back")
        await server.wait_for(lambda: back not in lobby.button_texts(), what="the seats")
    assert english.split(":")[1].strip() in lobby.text.split("\n")[0], lobby.text


async def test_a_second_polling_process_on_the_database_refuses_to_start(
    server: FakeTelegramServer, tmp_path: Path
) -> None:
    output = tmp_path / "bot.log"
    async with fresh_database() as url:
        env = {"DATABASE_URL": url}
        async with bot_process(server, tmp_path / "a.db", output, **env):
            second = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", stderr=asyncio.subprocess.PIPE,
                env={**bot_environment(), "TELEGRAM_BOT_TOKEN": TOKEN,
                     "TELEGRAM_API_URL": server.root, "DATABASE_URL": url,
                     "DATABASE_PATH": str(tmp_path / "b.db")},
            )
            _, error = await asyncio.wait_for(second.communicate(), 60)
    assert second.returncode == 1
    assert "another bot process of this database polls Telegram" in error.decode()
