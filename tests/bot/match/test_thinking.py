"""The bot's way to computer decisions: `Thinking.decide` through the process pool, and its
in-process fallback (both with the agents' clock off, so they cannot differ under load); the
pool's processes end when the bot is killed."""

from __future__ import annotations

import asyncio
import contextlib
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.match.thinking import Thinking, decide_sync
from engine.rules import Game, preset
from engine.view import SeatView, view
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, bot_process
from tests.bot.policies import thousand
from tests.engine.ai.helpers import decision_points
from tests.fakebot import FakeTelegramServer

WORKERS_END_WITHIN = 5.0
"""Seconds the worker processes may take to end after the bot was killed."""


def _views() -> list[SeatView]:
    points = decision_points(preset(Game.THOUSAND), None, seed=21, count=12)
    return [view(state, seat) for state, seat in points]


@pytest.fixture
def one_worker() -> Iterator[Thinking]:
    """A pool of one worker whose agents do not stop at their time budget: a decision is then
    the same wherever it runs, however loaded the machine (the search's docstring)."""
    thinking = Thinking(1, use_clock=False)
    yield thinking
    thinking.close()


def test_views_are_picklable() -> None:
    for seen in _views():
        assert pickle.loads(pickle.dumps(seen)) == seen


async def test_a_decision_in_the_pool_equals_the_direct_one(one_worker: Thinking) -> None:
    for k, seen in enumerate(_views()[:6]):
        for level in ("easy", "hard"):
            action = await one_worker.decide(seen, level, seed=k, budget=0.2)
            assert action in seen.legal
            assert action == decide_sync(seen, level, seed=k, budget=0.2, use_clock=False)
    assert one_worker.running()


async def test_a_decision_without_a_pool() -> None:
    thinking = Thinking(0, use_clock=False)
    try:
        for k, seen in enumerate(_views()[:4]):
            action = await thinking.decide(seen, "hard", seed=k, budget=0.2)
            assert action == decide_sync(seen, "hard", seed=k, budget=0.2, use_clock=False)
        assert not thinking.running()
    finally:
        thinking.close()


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (from /proc; zombies are dead)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _state(int(entry.name)) not in (None, "Z"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.add(int(entry.name))
    return found


def _state(pid: int) -> str | None:
    """The process's state letter (R, S, Z, ...), or None if there is no such process."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
async def test_no_worker_outlives_a_killed_bot(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with bot_process(
        server, tmp_path / "bot.db", tmp_path / "bot.log",
        COMPUTER_WORKERS="2", COMPUTER_BUDGET_SECONDS="0.1",
    ) as bot:
        driver = Driver(server, cast.alice.chat, [cast.alice], private_only=True)
        await driver.say(cast.alice, "/solo", chat=cast.alice.chat)
        await driver.play(thousand(), stop=lambda _: len(_children(bot.pid)) >= 2)
        workers = _children(bot.pid)
        bot.kill()  # SIGKILL: the bot cannot stop its pool
        await bot.wait()
    waited = 0.0
    while any(_state(pid) not in (None, "Z") for pid in workers) and waited < WORKERS_END_WITHIN:
        await asyncio.sleep(0.1)
        waited += 0.1
    left = {pid: _state(pid) for pid in workers if _state(pid) not in (None, "Z")}
    assert not left, f"worker processes outlived the bot: {left}"
