"""``benchmarks.match_chances``: the score basis and the features are well formed, Newton's
method recovers the weights that drew the winners, and the two commands write and fit what
they say."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchmarks.match_chances import (
    KNOTS,
    Start,
    design,
    feature_count,
    features,
    main,
    newton,
    probabilities,
    score_basis,
)
from engine.rules import Game, preset


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("score", [-2000, -300, 0, 3, 17, 20, 333, 555, 879, 880, 1000, 1500])
def test_the_score_basis_is_one_or_two_hats_summing_to_one(game: Game, score: int) -> None:
    basis = score_basis(KNOTS[game], score)
    assert 1 <= len(basis) <= 2
    assert sum(v for _, v in basis) == pytest.approx(1.0)
    assert all(0 <= i < len(KNOTS[game]) and 0.0 <= v <= 1.0 for i, v in basis)


def test_the_score_basis_interpolates_between_knots() -> None:
    assert score_basis((0, 100, 300), 150) == [(1, 0.75), (2, 0.25)]


@pytest.mark.parametrize("game", list(Game))
def test_each_feature_has_its_own_index_within_the_weights(game: Game) -> None:
    rules = preset(game)
    for attempts in range(5):
        found = features(rules, 0, Start([5, 5, 5], [2, 1, 0], 0, attempts, [1, 0, 0], 2))
        indices = [i for i, _ in found]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < feature_count(game) for i in indices)
        # The score (one hat at a knot, else two), the perch, two bolts, the bagel, place 1.
        nonzero = [i for i, v in found if v]
        assert len(nonzero) == (1 if 5 in KNOTS[game] else 2) + 4


def test_the_design_has_a_row_per_deal_start_and_each_row_names_its_match_winner() -> None:
    rules = preset(Game.TUMBOCHKA)
    start = [[0, 0, 0], [0, 0, 0], None, 0, [0, 0, 0], 0]
    later = [[7, 3, 12], [1, 0, 0], 2, 1, [0, 0, 1], 1]
    rows = [{"winner": 2, "starts": [start, later]}, {"winner": 0, "starts": [start]}]

    x, y = design(rules, rows)

    assert x.shape == (3, 3, feature_count(Game.TUMBOCHKA))
    assert y.tolist() == [[0, 0, 1], [0, 0, 1], [1, 0, 0]]
    assert np.array_equal(x[0], x[2])
    assert not np.array_equal(x[0], x[1])


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
