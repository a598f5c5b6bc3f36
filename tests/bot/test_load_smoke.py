"""The load benchmark's code path on a small run (``benchmarks.load``: three games, one deal
each, the bot in this process), so that it cannot rot; its arithmetic; and the `Pacer` that
keeps the bot within Telegram's limits under load (the buttons players wait for first)."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from benchmarks.load import HEADER, Config, _arguments, _peak, _percentile, run
from bot.outbox import Pacer, Ticket, Urgency


async def test_three_games_are_played_within_the_limits() -> None:
    report = await run(Config(games=3, deals=1, think=0.02, seconds=25, in_process=True))
    assert report.deals_finished == 3, report
    assert report.presses >= 3 * 25 and report.cards >= 3 * 24
    assert report.unanswered == 0 and report.refused == 0 and report.bot_errors == 0
    assert report.served_429 == 0
    assert report.peak_group_per_minute <= 20 and report.peak_overall_per_second <= 30
    assert 0 < report.answer_p50_ms <= report.answer_p99_ms
    assert 0 < report.keyboard_p50_ms <= report.keyboard_p99_ms
    assert report.calls_by_method["answerCallbackQuery"] == report.presses
    assert 2 <= report.calls_per_press < 6
    assert report.peak_memory_mb > 0 and report.cpu_ms_per_press > 0
    columns = HEADER.splitlines()[0].count("|")
    assert report.row().count("|") == columns


def test_the_window_peak_and_percentiles() -> None:
    assert _peak([0.0, 0.5, 0.99, 1.0, 1.5, 3.0], 1.0) == 3  # (0.0, 1.0]: 0.5, 0.99, 1.0
    assert _peak([], 1.0) == 0
    values = [float(n) for n in range(1, 101)]
    assert _percentile(values, 50) == pytest.approx(50.5)
    assert _percentile(values, 99) == pytest.approx(99.01)
    assert _percentile([7.0], 99) == 7.0 and _percentile([], 50) == 0.0


def test_the_command_line() -> None:
    config = _arguments(["--games", "500", "--seconds", "180", "--think", "2"])
    assert (config.games, config.seconds, config.think, config.in_process) == (500, 180, 2, False)
    with pytest.raises(SystemExit):
        _arguments(["--games", "0"])


# ---------------------------------------------------------------- the pacer under load


async def _calls(pacer: Pacer, chats: list[int], urgencies: list[Urgency]) -> list[Urgency]:
    """Make one call per chat at once; the urgencies in the order the places were granted."""
    granted: list[Urgency] = []

    async def call(chat_id: int, urgency: Urgency) -> None:
        async with pacer.slot(chat_id, Ticket(urgency)):
            granted.append(urgency)
            await asyncio.sleep(0)

    await asyncio.gather(*(call(c, u) for c, u in zip(chats, urgencies, strict=True)))
    return granted


async def test_the_pacer_keeps_the_overall_window() -> None:
    pacer = Pacer(overall_rate=40, overall_window=0.25, group_rate=None)  # 10 per 0.25 s
    starts: list[float] = []
    loop = asyncio.get_running_loop()

    async def call(chat_id: int) -> None:
        async with pacer.slot(chat_id, Ticket(Urgency.NORMAL)):
            starts.append(loop.time())
            await asyncio.sleep(0.002)

    await asyncio.gather(*(call(1000 + n) for n in range(45)))
    assert len(starts) == 45 and _peak(starts, 0.25) <= 10
    assert starts[-1] - starts[0] >= 4 * 0.25  # 45 calls need five windows


async def test_a_group_is_spread_after_its_burst() -> None:
    pacer = Pacer(overall_rate=None, group_rate=6, group_window=0.6, group_burst=2)
    loop = asyncio.get_running_loop()
    starts: list[float] = []
    for _ in range(6):
        async with pacer.slot(-100, Ticket(Urgency.NORMAL)):
            starts.append(loop.time())
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert gaps[0] < 0.05  # the burst
    assert all(gap >= 0.09 for gap in gaps[2:])  # then one every 0.1 s
    assert _peak(starts, 0.6) <= 6


async def test_buttons_go_first_and_nothing_starves() -> None:
    pacer = Pacer(overall_rate=100, overall_window=0.01, group_rate=None)  # 1 per 10 ms
    kinds = [Urgency.LAZY] * 15 + [Urgency.NORMAL] * 15 + [Urgency.ACT] * 15
    granted = await _calls(pacer, list(range(1, 46)), kinds)
    first = granted[1:15]  # the first call went at once; then 14 places by shares 10:3:1
    assert first.count(Urgency.ACT) >= 9
    assert first.count(Urgency.NORMAL) >= 2 and first.count(Urgency.LAZY) >= 1
    assert granted[-1] is not Urgency.ACT


async def test_a_waiting_call_can_become_urgent() -> None:
    pacer = Pacer(overall_rate=100, overall_window=0.01, group_rate=None)
    order: list[str] = []
    late = Ticket(Urgency.LAZY)

    async def call(name: str, ticket: Ticket) -> None:
        async with pacer.slot(7, ticket):
            order.append(name)

    tasks = [asyncio.create_task(call(f"n{n}", Ticket(Urgency.NORMAL))) for n in range(8)]
    tasks.append(asyncio.create_task(call("late", late)))
    await asyncio.sleep(0)
    pacer.raise_urgency(late, Urgency.ACT)
    await asyncio.gather(*tasks)
    assert order.index("late") <= 2
