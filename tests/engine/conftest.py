"""Prints the playouts' deals-per-match distribution and event coverage after the run."""

from __future__ import annotations

import pytest

from tests.engine.playout import RESULTS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not RESULTS:
        return
    terminalreporter.section("engine playouts")
    for name, totals in RESULTS.items():
        terminalreporter.write_line(
            f"{name}: {totals.matches} matches, {totals.deals} deals, {totals.actions} actions; "
            f"{totals.distribution()}"
        )
    rare = (
        "Fell:",
        "DumpTruck",
        "GoldenBagel",
        "Mounted",
        "RedealAsked",
        "Passed:automatic",
        "Declared:aces",
        "TrilyazhCompleted",
        "TrilyazhBroken",
        "Conceded",
        "Thrown",
    )
    seen: dict[str, int] = {}
    for totals in RESULTS.values():
        for key, value in totals.coverage.items():
            if key.startswith(rare):
                seen[key] = seen.get(key, 0) + value
    terminalreporter.write_line(
        "rare events: " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items()))
    )
