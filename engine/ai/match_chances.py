"""Each seat's chance of winning the match, from where the match stands at a deal's start.

What the computer players lose when another seat wins the match is their own chance of
winning it (``engine.ai.utility``). The chance is a conditional logit: a seat's strength is
the sum of the weights of its features, and its chance is its share of ``exp(strength)``
over the match's seats. The features are what the match shows of a seat before the deal:
its score on a piecewise-linear basis (``KNOTS``), its seat on the barrel (Тысяча) or the
tumbochka with the attempts already made there, its bolts, its golden bagel, and its place
after the dealer (who bids first, who is on the hundred).

The weights (``WEIGHTS``) were fitted by ``benchmarks/match_chances.py`` on whole matches of
the default three-player rules played by the rule-based player; the fit, its data and how
well it predicts held-out matches are in ``benchmarks/README.md`` (issue 16, session 20).
Other table conventions and four players use the same weights: a four-player table has no
weight for the third seat after the dealer, which then counts as the dealer's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from engine.rules import Game, Rules

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
PLACES: Final = 2
"""Places after the dealer with a weight of their own (1 and 2; the dealer's is 0)."""


def feature_count(game: Game) -> int:
    return len(KNOTS[game]) + ATTEMPTS + BOLTS + 1 + PLACES


def features(
    rules: Rules,
    seat: int,
    scores: Sequence[int],
    bolts: Sequence[int],
    perch: int | None,
    perch_attempts: int,
    bagels: Sequence[int],
    dealer: int,
) -> list[tuple[int, float]]:
    """Seat ``seat``'s features as (index, value) pairs, the others being 0."""
    knots = KNOTS[rules.game]
    found = _score_basis(knots, scores[seat])
    at = len(knots)
    if perch == seat:
        found.append((at + min(perch_attempts, ATTEMPTS - 1), 1.0))
    at += ATTEMPTS
    if bolts[seat] > 0:
        found.append((at + min(bolts[seat], BOLTS) - 1, 1.0))
    at += BOLTS
    if bagels[seat]:
        found.append((at, 1.0))
    at += 1
    place = (seat - dealer) % rules.players
    if 0 < place <= PLACES:
        found.append((at + place - 1, 1.0))
    return found


def _score_basis(knots: Sequence[int], score: int) -> list[tuple[int, float]]:
    """The hat functions of ``knots`` at ``score``: one or two of them, summing to 1."""
    if score <= knots[0]:
        return [(0, 1.0)]
    for i in range(1, len(knots)):
        if score <= knots[i]:
            share = (score - knots[i - 1]) / (knots[i] - knots[i - 1])
            return [(i - 1, 1.0 - share), (i, share)]
    return [(len(knots) - 1, 1.0)]


def chances(
    rules: Rules,
    scores: Sequence[int],
    bolts: Sequence[int],
    perch: int | None,
    perch_attempts: int,
    bagels: Sequence[int],
    dealer: int,
) -> tuple[float, ...]:
    """Each seat's chance of winning the match from this deal's start (they sum to 1)."""
    weights = WEIGHTS[rules.game]
    strengths = [
        sum(weights[i] * v for i, v in features(
            rules, seat, scores, bolts, perch, perch_attempts, bagels, dealer
        ))
        for seat in range(len(scores))
    ]
    top = max(strengths)
    shares = [math.exp(s - top) for s in strengths]
    total = sum(shares)
    return tuple(s / total for s in shares)


WEIGHTS: Final[dict[Game, tuple[float, ...]]] = {
    # ``python -m benchmarks.match_chances fit``, 10,000 matches of each game with ``easy`` in
    # every seat (benchmarks/README.md, issue 16, session 20). Each first row is the score's
    # knots; the second: on the barrel or the tumbochka after 0, 1, 2 attempts, 1 and 2 bolts,
    # a golden bagel, first and second after the dealer.
    Game.THOUSAND: (
        -2.206, -1.424, -0.878, -0.310, 0.278, 0.985, 1.553, 2.002,
        0.466, 0.181, -0.200, -0.112, -0.283, 0.000, -0.069, -0.029,
    ),
    Game.THOUSAND_ONE: (
        -5.455, -3.637, -2.464, -1.120, 0.421, 2.408, 3.868, 5.979,
        0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.002, 0.001,
    ),
    Game.TUMBOCHKA: (
        -1.007, -0.485, -0.112, 0.323, 0.600, 0.681,
        0.237, 0.085, -0.159, 0.000, 0.000, 0.758, 0.003, 0.009,
    ),
}
"""A seat's strength per feature (the order of ``features``)."""
