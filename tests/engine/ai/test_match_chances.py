"""The chance of the match (``engine.ai.match_chances``): the score basis, the features'
indices, and the fitted chances where ``benchmarks/README.md`` quotes them."""

from __future__ import annotations

import pytest

from engine.ai.match_chances import (
    FEATURE_COUNT,
    KNOTS,
    WEIGHTS,
    chances,
    features,
    score_basis,
    score_slope,
)
from engine.rules import Game

GAMES = [Game.THOUSAND, Game.THOUSAND_ONE, Game.TUMBOCHKA]
NOBODY = (0, 0, 0)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("score", [-2000, -300, 0, 3, 17, 20, 333, 555, 879, 880, 1000, 1500])
def test_the_score_basis_is_one_or_two_hats_summing_to_one(game: Game, score: int) -> None:
    basis = score_basis(KNOTS[game], score)
    assert 1 <= len(basis) <= 2
    assert sum(v for _, v in basis) == pytest.approx(1.0)
    assert all(0 <= i < len(KNOTS[game]) and 0.0 <= v <= 1.0 for i, v in basis)


def test_the_score_basis_interpolates_between_knots() -> None:
    assert score_basis((0, 100, 300), 150) == [(1, 0.75), (2, 0.25)]


@pytest.mark.parametrize("game", GAMES)
def test_each_feature_has_its_own_index(game: Game) -> None:
    for attempts in range(5):
        found = features(game, 0, (5, 5, 5), (2, 1, 0), 0, attempts, (1, 0, 0))
        indices = [i for i, _ in found]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < FEATURE_COUNT[game] for i in indices)
        # The score (one hat at a knot, else two), the perch, two bolts, the bagel.
        nonzero = [i for i, v in found if v]
        assert len(nonzero) == (1 if 5 in KNOTS[game] else 2) + 3


def test_each_fitted_game_has_a_weight_per_feature() -> None:
    assert all(len(w) == FEATURE_COUNT[game] for game, w in WEIGHTS.items())


@pytest.mark.parametrize(
    ("scores", "perch", "expected"),
    [
        ((0, 0, 0), None, (1 / 3, 1 / 3, 1 / 3)),
        ((880, 0, 0), 0, (0.96, 0.02, 0.02)),
        ((880, 650, 500), 0, (0.79, 0.14, 0.07)),
        ((880, 850, 300), 0, (0.63, 0.34, 0.03)),
    ],
)
def test_the_fitted_chances_of_thousand(
    scores: tuple[int, int, int], perch: int | None, expected: tuple[float, ...]
) -> None:
    found = chances(Game.THOUSAND, scores, NOBODY, perch, 0, NOBODY)
    assert sum(found) == pytest.approx(1.0)
    assert found == pytest.approx(expected, abs=0.01)


def test_a_seat_gains_chance_with_its_score_and_loses_it_with_bolts() -> None:
    def mine(score: int, bolts: int = 0) -> float:
        return chances(Game.THOUSAND, (score, 300, 300), (bolts, 0, 0), None, 0, NOBODY)[0]

    ladder = [mine(s) for s in range(-400, 881, 40)]
    assert ladder == sorted(ladder)
    assert mine(500) > mine(500, bolts=1) > mine(500, bolts=2)


def test_the_slope_is_the_basis_segments_gain_per_point() -> None:
    knots, weights = KNOTS[Game.THOUSAND], WEIGHTS[Game.THOUSAND]
    first = (weights[1] - weights[0]) / (knots[1] - knots[0])
    last = (weights[7] - weights[6]) / (knots[7] - knots[6])
    assert score_slope(Game.THOUSAND, -1000) == first
    assert score_slope(Game.THOUSAND, -300) == first
    assert score_slope(Game.THOUSAND, 850) == last
    assert score_slope(Game.THOUSAND, 2000) == last
    assert score_slope(Game.THOUSAND, 100) == (weights[2] - weights[1]) / 200
