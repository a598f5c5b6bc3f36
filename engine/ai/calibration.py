"""Refit the hand-evaluation model of ``engine.ai.evaluation``: ``python -m engine.ai.calibration``.

Deals random hands, lets a declarer take the talon, give by ``choose_give`` and play out
against the rule-based defence with the rule-based policy, and fits the declarer's deal
points to the hand's features by least squares. Prints the coefficients (to paste into
``COEFFICIENTS``) and the residual spread (``SPREAD``). Deterministic for ``--seed``.
"""

from __future__ import annotations

import argparse
import random

from engine.ai.evaluation import THOUSAND_FEATURES, TUMBOCHKA_FEATURES, choose_give, features
from engine.ai.playout import rollout
from engine.cards import cards_of
from engine.games import deck_of
from engine.rules import Game, preset
from engine.table import playing


def playout_points(game: Game, rng: random.Random) -> tuple[int, int]:
    """One random deal: the declarer's hand after giving and the deal points it took."""
    deck = cards_of(deck_of(game))
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for i, c in enumerate(deck):
        hands[min(i // 7, 2) if i < 21 else 0] |= 1 << c
    first, second = choose_give(hands[0], game)
    hands[0] &= ~(1 << first) & ~(1 << second)
    hands[1] |= 1 << first
    hands[2] |= 1 << second
    hand8 = hands[0]
    table = playing(preset(game), (0, 1, 2), hands, declarer=0, contract=0, turn=0)
    rollout(table)
    return hand8, table.points[0]


def fit(rows: list[tuple[tuple[float, ...], float]], ridge: float = 1e-6) -> list[float]:
    k = len(rows[0][0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in rows:
        for i in range(k):
            b[i] += x[i] * y
            for j in range(k):
                a[i][j] += x[i] * x[j]
    for i in range(k):
        a[i][i] += ridge * len(rows)
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(k):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                for j in range(col, k):
                    a[r][j] -= f * a[col][j]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(k)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game, names in (
        (Game.THOUSAND, THOUSAND_FEATURES),
        (Game.THOUSAND_ONE, THOUSAND_FEATURES),
        (Game.TUMBOCHKA, TUMBOCHKA_FEATURES),
    ):
        rng = random.Random(args.seed)
        rows = []
        for _ in range(args.deals):
            hand, points = playout_points(game, rng)
            rows.append((features(hand, game), float(points)))
        w = fit(rows)
        residuals = [y - sum(a * b for a, b in zip(w, x, strict=True)) for x, y in rows]
        spread = (sum(r * r for r in residuals) / len(rows)) ** 0.5
        mean = sum(y for _, y in rows) / len(rows)
        print(f"game {game}: mean {mean:.1f} spread {spread:.2f}")
        print("    (" + ", ".join(f"{v:.3g}" for v in w) + "),")
        print("    " + " ".join(f"{n}={v:.3g}" for n, v in zip(names, w, strict=True)))


if __name__ == "__main__":
    main()
