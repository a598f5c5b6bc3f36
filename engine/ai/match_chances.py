"""Each seat's chance of winning the match from where it stands at a deal's start (issue 16).

A conditional logit fitted on played matches (``benchmarks/match_chances.py`` plays and
fits them; ``benchmarks/README.md``, issue 16, sessions 20 and 21, has the data and the
checks): a seat's strength is the sum of the weights of what the match shows of it (its
score on a piecewise-linear basis, ``KNOTS``; its seat on the barrel or the tumbochka with
the attempts already made; its bolts; its golden bagel), and its chance is its share of
``exp(strength)`` over the seats. The fit also weighs the seat's place after the
dealer; those weights are small (below 0.07) and the utility does not know the dealer, so
they are left out here.

The utility (``engine.ai.utility``) values the deals near a match's end in these chances.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from engine.rules import Game

KNOTS: Final[dict[Game, tuple[int, ...]]] = {
    Game.THOUSAND: (-300, 0, 200, 400, 555, 700, 800, 880),
    Game.THOUSAND_ONE: (-300, 0, 200, 400, 600, 800, 900, 1000),
    Game.TUMBOCHKA: (0, 5, 10, 15, 18, 20),
}
"""The scores at which a seat's strength may bend (clamped at both ends)."""
ATTEMPTS: Final = 3
"""Attempts made on the barrel or the tumbochka with a weight of their own (more count as
the last)."""
BOLTS: Final = 2
"""Bolts held with a weight of their own (the third is a penalty, so never held)."""
WEIGHTS: Final[dict[Game, tuple[float, ...]]] = {
    Game.THOUSAND: (
        -2.206, -1.424, -0.878, -0.310, 0.278, 0.985, 1.553, 2.002,  # the score's knots
        0.466, 0.181, -0.200,  # on the barrel, after 0, 1, 2 or more attempts
        -0.112, -0.283,  # one bolt, two bolts
        0.0,  # a golden bagel (none in Тысяча)
    ),
}
"""The fitted weights, in the order of the features above, for the games whose utility
is valued in chances (10,000 matches of ``easy``; held-out log-loss 0.882 in Тысяча
against 1.099 for even chances)."""


def chances(
    game: Game,
    scores: Sequence[int],
    bolts: Sequence[int],
    perch: int | None,
    attempts: int,
    bagels: Sequence[int],
) -> list[float]:
    """Each seat's chance of winning the match (a seat out of this deal's play included)."""
    strengths = [
        _strength(game, s, scores, bolts, perch, attempts, bagels) for s in range(len(scores))
    ]
    top = max(strengths)
    shares = [math.exp(v - top) for v in strengths]
    total = sum(shares)
    return [share / total for share in shares]


def score_slope(game: Game, score: int) -> float:
    """How much a seat's strength gains per point of score at ``score`` (the slope of its
    segment of the basis; beyond the ends, of the end's segment)."""
    knots, weights = KNOTS[game], WEIGHTS[game]
    i = 1
    while i < len(knots) - 1 and score > knots[i]:
        i += 1
    return (weights[i] - weights[i - 1]) / (knots[i] - knots[i - 1])


def score_basis(knots: Sequence[int], score: int) -> list[tuple[int, float]]:
    """The hat functions of ``knots`` at ``score``: one or two of them, summing to 1."""
    if score <= knots[0]:
        return [(0, 1.0)]
    for i in range(1, len(knots)):
        if score <= knots[i]:
            share = (score - knots[i - 1]) / (knots[i] - knots[i - 1])
            return [(i - 1, 1.0 - share), (i, share)]
    return [(len(knots) - 1, 1.0)]


def features(
    game: Game,
    seat: int,
    scores: Sequence[int],
    bolts: Sequence[int],
    perch: int | None,
    attempts: int,
    bagels: Sequence[int],
) -> list[tuple[int, float]]:
    """Seat ``seat``'s features as (index, value) pairs, the others being 0."""
    knots = KNOTS[game]
    found = score_basis(knots, scores[seat])
    at = len(knots)
    if perch == seat:
        found.append((at + min(attempts, ATTEMPTS - 1), 1.0))
    at += ATTEMPTS
    if bolts[seat] > 0:
        found.append((at + min(bolts[seat], BOLTS) - 1, 1.0))
    at += BOLTS
    if bagels[seat]:
        found.append((at, 1.0))
    return found


FEATURE_COUNT: Final = {game: len(knots) + ATTEMPTS + BOLTS + 1 for game, knots in KNOTS.items()}
"""The number of features of each game (the length of its ``WEIGHTS``)."""


def _strength(
    game: Game,
    seat: int,
    scores: Sequence[int],
    bolts: Sequence[int],
    perch: int | None,
    attempts: int,
    bagels: Sequence[int],
) -> float:
    weights = WEIGHTS[game]
    found = features(game, seat, scores, bolts, perch, attempts, bagels)
    return sum(weights[i] * v for i, v in found)
