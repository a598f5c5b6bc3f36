"""The start-up benchmark's code path on three matches (``benchmarks.startup``: two real bot
processes, a stop and a start with nothing changed between), so that it cannot rot; and what
it measures: a restart redraws nothing that already shows its match's state (issue 13)."""

from __future__ import annotations

from benchmarks.startup import run


async def test_a_restart_with_nothing_changed_redraws_nothing() -> None:
    report = await run(3, window=5.0)
    assert report.matches == 3 and report.all_loaded_seconds is not None, report
    assert 0 < report.first_poll_seconds <= report.first_update_seconds
    assert report.first_update_seconds <= report.match_command_seconds
    assert report.redraws_first_minute == 0, report
