"""``benchmarks.match_chances``: the features (the engine's and the place after the dealer)
are well formed, Newton's method recovers the weights that drew the winners, and the two
commands write and fit what they say."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks.match_chances import feature_count, features, main, newton, probabilities
from engine.ai.match_chances import KNOTS
from engine.rules import Game, preset

GAMES = [Game.THOUSAND, Game.THOUSAND_ONE, Game.TUMBOCHKA]


@pytest.mark.parametrize("game", GAMES)
def test_each_feature_has_its_own_index_within_the_weights(game: Game) -> None:
    rules = preset(game)
    for attempts in range(5):
        found = features(rules, 0, (5, 5, 5), (2, 1, 0), 0, attempts, (1, 0, 0), 2)
        indices = [i for i, _ in found]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < feature_count(game) for i in indices)
        # The score (one hat at a knot, else two), the perch, two bolts, the bagel, place 1.
        nonzero = [i for i, v in found if v]
        assert len(nonzero) == (1 if 5 in KNOTS[game] else 2) + 4


def test_newton_recovers_the_weights_that_drew_the_winners() -> None:
    rng = np.random.default_rng(7)
    truth = np.array([1.0, -0.5, 0.25])
    x = rng.normal(size=(20000, 3, 3))
    p = probabilities(x, truth)
    winners = np.array([rng.choice(3, p=row) for row in p])
    y = np.eye(3)[winners]

    assert np.allclose(newton(x, y), truth, atol=0.06)


def test_collect_writes_each_match_and_fit_reports_on_the_held_out_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "matches.jsonl"
    main(["collect", "--game", "tumbochka", "--matches", "12", "--workers", "1", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]

    assert [r["match"] for r in rows] == list(range(12))
    assert all(r["game"] == "tumbochka" and r["winner"] in (0, 1, 2) for r in rows)
    assert all(r["starts"][0][0] == [0, 0, 0] for r in rows)

    main(["fit", str(out)])
    report = capsys.readouterr().out
    assert "tumbochka: 12 matches" in report
    assert "held-out log-loss" in report
    assert report.splitlines()[-1].startswith("weights tumbochka (")
