"""`Pacer.inherit`: a leader that takes over from one that died (issue 17) takes Telegram's
windows as full as the dead one's pacing may have left them, so the first calls wait instead
of drawing 429s."""

from __future__ import annotations

import asyncio

from bot.telegram.pacer import Pacer, Ticket, Urgency

GROUP = -100


async def _first_call_waits(pacer: Pacer) -> float:
    loop = asyncio.get_running_loop()
    began = loop.time()
    async with pacer.slot(GROUP, Ticket(Urgency.NORMAL)):
        return loop.time() - began


async def test_an_inherited_group_window_is_full_and_a_fresh_one_is_not() -> None:
    # 20 a window of 6 s: spread one per 0.3 s after a burst of 4; the oldest of the 16 spread
    # calls assumed leaves the window 6 - 16 * 0.3 = 1.2 s after the take-over.
    fresh = Pacer(overall_rate=None, group_rate=20, group_window=6)
    assert await _first_call_waits(fresh) < 0.5
    inherited = Pacer(overall_rate=None, group_rate=20, group_window=6)
    inherited.inherit()
    waited = await _first_call_waits(inherited)
    assert 1.0 <= waited < 3.0


async def test_an_inherited_overall_window_is_full() -> None:
    pacer = Pacer(overall_rate=30, group_rate=None)
    pacer.inherit()
    assert await _first_call_waits(pacer) >= 0.9
