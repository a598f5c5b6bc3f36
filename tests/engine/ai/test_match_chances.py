"""Each seat's chance of the match from a deal's start (``engine.ai.match_chances``)."""

from __future__ import annotations

import pytest

from engine.ai.match_chances import KNOTS, _score_basis, chances, feature_count, features
from engine.rules import Game, preset

GAMES = [Game.THOUSAND, Game.THOUSAND_ONE, Game.TUMBOCHKA]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("score", [-2000, -300, 0, 3, 17, 20, 333, 555, 879, 880, 1000, 1500])
def test_the_score_basis_is_one_or_two_hats_summing_to_one(game: Game, score: int) -> None:
    basis = _score_basis(KNOTS[game], score)
    assert 1 <= len(basis) <= 2
    assert sum(v for _, v in basis) == pytest.approx(1.0)
    assert all(0 <= i < len(KNOTS[game]) and 0.0 <= v <= 1.0 for i, v in basis)


@pytest.mark.parametrize("game", GAMES)
def test_every_feature_index_is_within_the_weights(game: Game) -> None:
    rules = preset(game)
    for perch_attempts in range(5):
        for seat in range(3):
            found = features(rules, seat, (5, 5, 5), (2, 1, 0), seat, perch_attempts, (1, 0, 0), 1)
            assert all(0 <= i < feature_count(game) for i, _ in found)


@pytest.mark.parametrize("game", GAMES)
def test_the_chances_are_a_distribution_over_the_seats(game: Game) -> None:
    for players in (3, 4) if game is Game.THOUSAND_ONE else (3,):
        rules = preset(game, players=players)
        scores = tuple(range(0, 5 * players, 5))
        found = chances(rules, scores, (0,) * players, None, 0, (0,) * players, 0)
        assert len(found) == players
        assert sum(found) == pytest.approx(1.0)
        assert all(0.0 < p < 1.0 for p in found)


def test_even_scores_give_about_even_chances() -> None:
    found = chances(preset(Game.THOUSAND), (300, 300, 300), (0, 0, 0), None, 0, (0, 0, 0), 0)
    assert all(abs(p - 1 / 3) < 0.1 for p in found)


@pytest.mark.parametrize(
    ("game", "low", "high"),
    [(Game.THOUSAND, 200, 700), (Game.THOUSAND_ONE, 200, 800), (Game.TUMBOCHKA, 3, 15)],
)
def test_a_higher_score_is_a_better_chance(game: Game, low: int, high: int) -> None:
    rules = preset(game)
    found = chances(rules, (low, high, low), (0, 0, 0), None, 0, (0, 0, 0), 0)
    assert found[1] > found[0] and found[1] > found[2]


def test_the_barrel_seat_is_the_favourite_against_seats_far_behind() -> None:
    rules = preset(Game.THOUSAND)
    found = chances(rules, (880, 100, 50), (0, 0, 0), 0, 0, (0, 0, 0), 2)
    assert found[0] > 0.5
    assert found[1] < 0.25 and found[2] < 0.25
