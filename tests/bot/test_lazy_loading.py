"""After a restart the matches load lazily (issue 13): a press racing the background loading
of its match waits for that one replay, a lazily loaded match is the match the bot had in
memory before, and a bot killed between a press's commit and its answer stores it once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.match.live import LiveMatch
from bot.match.loading import Loader
from bot.match.matchlog import replay_match
from engine import format_action
from storage import Match, Store
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, Option, bot_process, running_bot
from tests.bot.test_restart import POLICY, SEED, _gather, _reference
from tests.fakebot import FakeTelegramServer

ROOT = Path(__file__).resolve().parents[2]
KILL_AT = 7
"""The press whose commit kills the bot (bidding 3, giving 2, then two cards)."""
KILLER = f"""
import os, signal, sys
sys.path.insert(0, {str(ROOT)!r})
from storage.matches import Matches

_commit = Matches.commit
_presses = []


async def commit(self, write):
    version = await _commit(self, write)
    if len(write.lines) == 1:  # a press (a deal is several lines)
        _presses.append(write)
        if len(_presses) == {KILL_AT}:
            os.kill(os.getpid(), signal.SIGKILL)  # committed, nobody told
    return version


Matches.commit = commit
"""


async def _next(driver: Driver) -> Option:
    """The button the policy presses next among the newest keyboards shown."""
    return await driver.choose(POLICY)


async def _played(
    server: FakeTelegramServer, cast: Cast, database: Path, presses: int
) -> tuple[Driver, LiveMatch, set[int]]:
    """A match played for ``presses`` presses by a bot that then shut down; its last state
    in memory."""
    async with running_bot(server, database, deal_seed=SEED) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        await _gather(driver, cast)
        assert await driver.play(POLICY, stop=lambda d: d.presses == presses) is None
        live = bot.services.games.in_chat(cast.group.id)
        assert live is not None
        return driver, live, bot.handled


async def test_a_press_racing_the_lazy_load_of_its_match_waits_for_it(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "bot.db"
    driver, before, handled = await _played(server, cast, database, 5)
    option = await _next(driver)
    gate = asyncio.Event()
    loads: list[int] = []
    resume = Loader.resume

    async def held(self: Loader, row: Match) -> LiveMatch | None:
        loads.append(row.match_id)
        await gate.wait()
        return await resume(self, row)

    monkeypatch.setattr(Loader, "resume", held)
    async with running_bot(server, database, handled=handled, deal_seed=SEED) as bot:
        await server.wait_for(lambda: loads == [1], what="the background loading to start")
        handle = await option.user.press(option.message, option.data)
        await asyncio.sleep(0.3)
        assert not handle.answered  # it waits for the match, which is still loading
        assert bot.services.games.in_chat(cast.group.id) is None
        gate.set()
        answer = await handle.answer()
        assert answer.text is None
        assert loads == [1]  # one replay, shared
        live = bot.services.games.in_chat(cast.group.id)
        assert live is not None and live.version == before.version + 1
        log = await bot.services.store.matches.read_log(1)
        assert log[-1] == format_action(option.action) and len(log) == live.version
        assert live.state == replay_match(live.row.rules, log)


async def test_a_lazily_loaded_match_is_the_match_that_was_in_memory(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    _, before, handled = await _played(server, cast, database, 8)  # in the second trick
    async with running_bot(server, database, handled=handled, deal_seed=SEED) as bot:
        live = await bot.services.games.load(1)
        assert live is not None and live is await bot.services.games.load(1)
        assert (live.state, live.version, live.seed) == (before.state, before.version, before.seed)
        # (The row in memory never learns the hand messages' ids; the outbox stores them.)
        assert [s.model_copy(update={"hand_message_id": None}) for s in live.row.seats] == list(
            before.row.seats
        )
        assert live.deadline == before.deadline  # the stored turn timer, not a new one


async def test_a_bot_killed_between_the_commit_and_the_answer_stores_the_press_once(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database, output = tmp_path / "bot.db", tmp_path / "bot.log"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(KILLER, encoding="utf-8")
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with bot_process(
        server, database, output, DEAL_SEED=SEED, PYTHONPATH=str(hooks)
    ) as first:
        await _gather(driver, cast)
        assert await driver.play(POLICY, stop=lambda d: d.presses == KILL_AT - 1) is None
        last = await _next(driver)
        handle = await last.user.press(last.message, last.data)
        assert await asyncio.wait_for(first.wait(), 30) == -signal.SIGKILL
    assert not handle.answered
    async with await Store.open(database) as store:
        log = await store.matches.read_log(1)
    assert log[-1] == format_action(last.action)  # committed before the answer

    async with bot_process(server, database, output, DEAL_SEED=SEED) as second:
        # The keyboards shown are of the version before the press, until the match is loaded
        # and redrawn (in the background).
        await server.wait_for(
            lambda: max((o.press.version for o in driver.options()), default=-1) == len(log),
            what="the hands to be redrawn",
        )
        result = await driver.play(POLICY)
        second.send_signal(signal.SIGTERM)
        assert await second.wait() == 0, output.read_text()
    assert result is not None
    expected_log, expected_result, _ = await _reference(tmp_path)
    async with await Store.open(database) as store:
        assert await store.matches.read_log(1) == expected_log  # the press once, no more
    assert result.text == expected_result
