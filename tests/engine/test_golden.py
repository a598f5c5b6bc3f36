"""The golden match scripts under ``tests/golden/``: each must play through
``engine.script.run_script`` without a failed expectation or a script error."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.script import run_script

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SCRIPTS = sorted(GOLDEN.glob("**/*.txt"))
MINIMUM = {"thousand": 40, "thousand-one": 20, "tumbochka": 25}


@pytest.mark.parametrize("path", SCRIPTS, ids=[str(p.relative_to(GOLDEN)) for p in SCRIPTS])
def test_golden_script(path: Path) -> None:
    run_script(path.read_text(encoding="utf-8"))


def test_there_are_enough_golden_scripts() -> None:
    counts = {game: len(list((GOLDEN / game).glob("**/*.txt"))) for game in MINIMUM}
    short = {game: n for game, n in counts.items() if n < MINIMUM[game]}
    assert not short, f"golden scripts per game {counts}, at least {MINIMUM} expected"
