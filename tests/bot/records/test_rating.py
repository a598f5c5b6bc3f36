"""Ratings: `rate_match` equals the Plackett–Luce update worked out by hand (Weng & Lin,
Algorithm 4, with OpenSkill's defaults), and the shown number and the provisional mark."""

from __future__ import annotations

import math

import pytest

from bot.records.rating import (
    PROVISIONAL_MATCHES,
    initial,
    is_provisional,
    ordinal,
    rate_match,
    shown,
)
from engine import Game
from storage import MatchResult, PlayerRef, Rating

MU, SIGMA = 25.0, 25.0 / 3
BETA, TAU, KAPPA = 25.0 / 6, 25.0 / 300, 0.0001
A, B, C, D = (PlayerRef.human(u) for u in (1, 2, 3, 4))
BOT = PlayerRef.computer("strong")


def by_hand(mus: list[float], sigmas: list[float], places: list[int]) -> list[tuple[float, float]]:
    """The Plackett–Luce update for one-player teams and distinct places, step by step."""
    sig2 = [s * s + TAU * TAU for s in sigmas]  # the dynamics factor tau comes first
    c = math.sqrt(sum(s + BETA * BETA for s in sig2))
    e = [math.exp(m / c) for m in mus]
    # sum_q: over the teams placed at q's place or below
    sum_q = [sum(e[i] for i in range(len(mus)) if places[i] >= places[q]) for q in range(len(mus))]
    out = []
    for i in range(len(mus)):
        omega = delta = 0.0
        for q in range(len(mus)):
            if places[q] > places[i]:
                continue
            p = e[i] / sum_q[q]
            delta += p * (1 - p)
            omega += (1 - p) if q == i else -p
        omega *= sig2[i] / c
        delta *= sig2[i] / c**2
        gamma = math.sqrt(sig2[i]) / c
        delta *= gamma
        mu = mus[i] + omega
        sigma = math.sqrt(sig2[i]) * math.sqrt(max(1 - delta, KAPPA))
        out.append((mu, sigma))
    return out


def finished(players: tuple[PlayerRef, ...], places: tuple[int, ...]) -> MatchResult:
    winner = places.index(1)
    return MatchResult(
        match_id=1, game=Game.THOUSAND, players=players, version=10, winner=winner,
        scores=tuple(1000 - 100 * p for p in places), places=places,
        settlement=(0,) * len(players), deals=5,
    )


def test_three_newcomers() -> None:
    rated = rate_match(finished((A, B, C), (2, 1, 3)), {})
    expected = by_hand([MU] * 3, [SIGMA] * 3, [2, 1, 3])
    for rating, (mu, sigma) in zip(rated, expected, strict=True):
        assert rating.mu == pytest.approx(mu, abs=1e-9)
        assert rating.sigma == pytest.approx(sigma, abs=1e-9)
        assert rating.matches == 1 and rating.game == "thousand"
    assert [r.player for r in rated] == [A, B, C]
    # Worked out on paper for three equal players: c² = 3(σ²+τ²+β²), the winner gains
    # (2/3)(σ²+τ²)/c, the second (1/6)(σ²+τ²)/c, the third loses (5/6)(σ²+τ²)/c.
    step = (SIGMA**2 + TAU**2) / math.sqrt(3 * (SIGMA**2 + TAU**2 + BETA**2))
    assert [r.mu for r in rated] == pytest.approx(
        [MU + step / 6, MU + 2 * step / 3, MU - 5 * step / 6]
    )


def test_known_ratings_and_four_players() -> None:
    before = {
        A: Rating(player=A, game=Game.THOUSAND, mu=30.0, sigma=4.0, matches=12),
        B: Rating(player=B, game=Game.THOUSAND, mu=22.5, sigma=6.0, matches=3),
        D: Rating(player=D, game=Game.THOUSAND, mu=27.0, sigma=5.0, matches=40),
    }
    rated = rate_match(finished((A, B, C, D), (3, 1, 4, 2)), before)
    expected = by_hand([30.0, 22.5, MU, 27.0], [4.0, 6.0, SIGMA, 5.0], [3, 1, 4, 2])
    for rating, (mu, sigma) in zip(rated, expected, strict=True):
        assert rating.mu == pytest.approx(mu) and rating.sigma == pytest.approx(sigma)
    assert [r.matches for r in rated] == [13, 4, 1, 41]


def test_two_seats_of_one_computer_player() -> None:
    rated = rate_match(finished((BOT, A, BOT), (1, 2, 3)), {})
    expected = by_hand([MU] * 3, [SIGMA] * 3, [1, 2, 3])
    assert [r.player for r in rated] == [BOT, A]
    bot = rated[0]
    assert bot.mu == pytest.approx(MU + (expected[0][0] - MU) + (expected[2][0] - MU))
    assert bot.sigma == pytest.approx(min(expected[0][1], expected[2][1]))
    assert bot.matches == 2


def test_abandoned_matches_are_not_rated() -> None:
    result = MatchResult(
        match_id=1, game=Game.THOUSAND, players=(A, B, C), version=3, winner=None,
        scores=(0, 0, 0), places=(1, 2, 3), settlement=None, deals=0,
    )
    with pytest.raises(ValueError):
        rate_match(result, {})


def test_the_shown_number_and_the_provisional_mark() -> None:
    newcomer = initial(A, Game.TUMBOCHKA)
    assert (newcomer.mu, newcomer.sigma, newcomer.matches) == (MU, SIGMA, 0)
    assert ordinal(newcomer) == pytest.approx(0) and shown(newcomer) == 1000
    strong = Rating(player=A, game=Game.THOUSAND, mu=35.0, sigma=2.0, matches=PROVISIONAL_MATCHES)
    assert shown(strong) == 1000 + 40 * 29 and not is_provisional(strong)
    assert is_provisional(strong.model_copy(update={"matches": PROVISIONAL_MATCHES - 1}))
    # The leaderboard's order (mu − 3σ) is the order of the shown numbers.
    ratings = [Rating(player=A, game=Game.THOUSAND, mu=m, sigma=s, matches=1)
               for m, s in ((30, 8), (26, 2), (40, 6), (20, 1))]
    assert sorted(ratings, key=ordinal) == sorted(ratings, key=shown)
