"""``benchmarks.bidding``: the positions are bidding decisions between a bid and a pass, the
same on every run, and the command prints its table."""

from __future__ import annotations

import pytest

from benchmarks.bidding import main, positions
from engine.actions import Bid, Pass
from engine.rules import Game, preset
from engine.state import Phase


def test_the_positions_are_the_same_choices_between_a_bid_and_a_pass() -> None:
    rules = preset(Game.THOUSAND)
    views = positions(rules, 5)
    assert len(views) == 5
    for seen in views:
        assert seen.phase is Phase.BIDDING
        assert any(isinstance(a, Bid) for a in seen.legal)
        assert any(isinstance(a, Pass) for a in seen.legal)
    assert positions(rules, 5) == views


def test_the_command_prints_one_row_for_its_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--game", "1001", "--positions", "2"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 2 |")]
    assert len(rows) == 1
