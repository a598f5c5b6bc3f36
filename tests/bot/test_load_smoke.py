"""The load benchmark's code path on a small run (``benchmarks.load``: three games, one deal
each, the bot in this process, and on two webhook workers of a PostgreSQL test database:
skipped without one, as `tests.postgres` says), so that it cannot rot; its arithmetic; and
the `Pacer` that keeps the bot within Telegram's limits under load (the buttons players wait
for first), on a virtual clock so that its timing is exact and the machine's load cannot
change it."""

from __future__ import annotations

import asyncio
import itertools
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from benchmarks.load import HEADER, Config, _arguments, _peak, _percentile, run
from bot.telegram.pacer import Pacer, Ticket, Urgency
from tests.postgres import fresh_database

T = TypeVar("T")


async def test_three_games_are_played_within_the_limits() -> None:
    # --seconds is far above what three games need: the run ends when their deal is over.
    # The players switch the pings off first (the comparison run's only extra step).
    report = await run(
        Config(games=3, deals=1, think=0.02, seconds=240, in_process=True, quiet=0.25, pings=False)
    )
    assert report.deals_finished == 3 and not report.pings, report
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


async def test_three_games_on_two_webhook_workers() -> None:
    async with fresh_database() as url:
        report = await run(Config(
            games=3, deals=1, think=0.02, seconds=240, quiet=0.25, database=url, workers=2
        ))
    assert report.mode == "2 webhook workers" and report.deals_finished == 3, report
    assert report.unanswered == 0 and report.refused == 0 and report.bot_errors == 0
    assert report.served_429 == 0 and report.peak_group_per_minute <= 20
    assert report.calls_by_method["answerCallbackQuery"] == report.presses
    assert report.handler_p50_ms > 0 and report.cpu_ms_per_press > 0


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
    assert config.pings and not _arguments(["--games", "1", "--no-pings"]).pings
    with pytest.raises(SystemExit):
        _arguments(["--games", "0"])
    url = "postgresql://postgres@127.0.0.1/empty"
    assert _arguments(["--games", "1", "--workers", "3", "--database", url]).workers == 3
    with pytest.raises(SystemExit):
        _arguments(["--games", "1", "--workers", "3"])  # workers share a PostgreSQL database


# ---------------------------------------------------------------- the pacer under load


class _Jumping(selectors.DefaultSelector):
    """A selector that never waits: when nothing is ready it moves the loop's clock on to
    the next timer instead, so the pacer's waits take no real time and always the same."""

    def __init__(self, loop: _VirtualLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if not ready and timeout is not None:
            self._loop.now += timeout
        elif not ready:
            raise RuntimeError("nothing is scheduled: the calls wait for each other")
        return ready


class _VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a virtual clock (the pacer reads ``loop.time()`` and sleeps)."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(_Jumping(self))

    def time(self) -> float:
        return self.now


def _virtually(main: Coroutine[Any, Any, T]) -> T:
    loop = _VirtualLoop()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.close()


async def _starts(pacer: Pacer, chats: list[int], seconds: float = 0.0) -> list[float]:
    """Make one call per chat at once, each taking ``seconds``; when each one was let
    through, in order."""
    loop = asyncio.get_running_loop()
    starts: list[float] = []

    async def call(chat_id: int) -> None:
        async with pacer.slot(chat_id, Ticket(Urgency.NORMAL)):
            starts.append(loop.time())
            await asyncio.sleep(seconds)

    await asyncio.gather(*(call(chat_id) for chat_id in chats))
    return starts


async def _granted(pacer: Pacer, chats: list[int], urgencies: list[Urgency]) -> list[Urgency]:
    """Make one call per chat at once; the urgencies in the order the places were granted."""
    granted: list[Urgency] = []

    async def call(chat_id: int, urgency: Urgency) -> None:
        async with pacer.slot(chat_id, Ticket(urgency)):
            granted.append(urgency)
            await asyncio.sleep(0)

    await asyncio.gather(*(call(c, u) for c, u in zip(chats, urgencies, strict=True)))
    return granted


def test_the_pacer_keeps_the_overall_window() -> None:
    pacer = Pacer(overall_rate=40, overall_window=0.25, group_rate=None)  # 10 per 0.25 s
    starts = _virtually(_starts(pacer, [1000 + n for n in range(45)], seconds=0.002))
    # A call counts until a window after it is done: 10 at once, then 10 more every 0.252 s.
    moments = [round(moment, 6) for moment in starts]
    assert [(m, moments.count(m)) for m in sorted(set(moments))] == [
        (0.0, 10),
        (0.252, 10),
        (0.504, 10),
        (0.756, 10),
        (1.008, 5),
    ]
    assert pacer.granted == 45


def test_a_group_is_spread_after_its_burst() -> None:
    pacer = Pacer(
        overall_rate=None, group_rate=6, group_window=0.6, group_burst=2, group_reserve=0
    )
    starts = _virtually(_starts(pacer, [-100] * 6))
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert gaps == pytest.approx([0.0, 0.1, 0.1, 0.1, 0.1])  # the burst, then one every 0.1 s


def test_new_messages_find_a_place_that_edits_leave_free() -> None:
    """Edits fill a group's window but for its reserve: a new message (a command's reply)
    then starts at once, not after the window frees a place."""
    pacer = Pacer(
        overall_rate=None, group_rate=8, group_window=60.0, group_burst=8, group_reserve=2
    )

    async def main() -> tuple[list[float], float]:
        loop = asyncio.get_running_loop()
        starts: list[float] = []

        async def edit() -> None:
            async with pacer.slot(-100, Ticket(Urgency.NORMAL)):
                starts.append(loop.time())

        edits = [asyncio.create_task(edit()) for _ in range(8)]
        await asyncio.sleep(1)
        async with pacer.slot(-100, Ticket(Urgency.NORMAL, fresh=True)):
            reply = loop.time()
        for task in edits:
            task.cancel()
        await asyncio.gather(*edits, return_exceptions=True)
        return starts, reply

    starts, reply = _virtually(main())
    assert starts == [0.0] * 6  # two places are left for new messages
    assert reply == pytest.approx(1.0)


def test_a_group_never_exceeds_its_window() -> None:
    pacer = Pacer(
        overall_rate=None, group_rate=6, group_window=0.6, group_burst=6, group_reserve=0
    )
    starts = _virtually(_starts(pacer, [-100] * 8, seconds=0.05))
    assert starts[:6] == [0.0] * 6
    assert starts[6:] == pytest.approx([0.65, 0.65])  # a window after the first six were done
    assert _peak(starts, 0.6) == 6


def test_answers_and_other_chats_do_not_wait_for_a_full_group() -> None:
    pacer = Pacer(overall_rate=30, group_rate=2, group_window=60.0, group_burst=2)

    async def main() -> tuple[list[float], list[float], list[float]]:
        loop = asyncio.get_running_loop()
        full = asyncio.create_task(_starts(pacer, [-100] * 3))
        others = await _starts(pacer, [7, -200])
        answered: list[float] = []

        async def answer() -> bool:
            answered.append(loop.time())
            return True

        await pacer.process_request(answer, (), {}, "answerCallbackQuery", {"chat_id": -100}, None)
        return await full, others, answered

    full, others, answered = _virtually(main())
    assert full == [0.0, 0.0, 60.0]  # the group's third call waits for its window
    assert others == [0.0, 0.0] and answered == [0.0]


def test_buttons_go_first_and_nothing_starves() -> None:
    pacer = Pacer(overall_rate=100, overall_window=0.01, group_rate=None)  # 1 per 10 ms
    kinds = [Urgency.LAZY] * 25 + [Urgency.NORMAL] * 25 + [Urgency.ACT] * 25
    granted = _virtually(_granted(pacer, list(range(1, 76)), kinds))
    first = granted[1:25]  # the first call went at once; then 24 places by shares 20:3:1
    assert first.count(Urgency.ACT) >= 19
    assert first.count(Urgency.NORMAL) >= 2 and first.count(Urgency.LAZY) >= 1
    assert granted[-1] is not Urgency.ACT


def test_a_waiting_call_can_become_urgent() -> None:
    pacer = Pacer(overall_rate=100, overall_window=0.01, group_rate=None)
    order: list[str] = []
    late = Ticket(Urgency.LAZY)

    async def call(name: str, ticket: Ticket) -> None:
        async with pacer.slot(7, ticket):
            order.append(name)

    async def main() -> None:
        tasks = [asyncio.create_task(call(f"n{n}", Ticket(Urgency.NORMAL))) for n in range(8)]
        tasks.append(asyncio.create_task(call("late", late)))
        await asyncio.sleep(0)
        pacer.raise_urgency(late, Urgency.ACT)
        await asyncio.gather(*tasks)

    _virtually(main())
    assert order.index("late") <= 2
