"""Each seat's chance of winning the match from where it stands at a deal's start (issue 16).

    python -m benchmarks.match_chances collect --game GAME --matches 10000 --workers 2 --out FILE
    python -m benchmarks.match_chances fit FILE

``collect`` plays whole matches of the game's default three-player rules with the rule-based
player (``easy``) in every seat, the deals ``shuffle chances/GAME/m/k``, and writes one line
per match: where it stood at each deal's start (scores, bolts, the barrel or tumbochka seat
and its attempts, golden bagels, the dealer) and who won. ``fit`` fits a conditional logit
(Newton's method with a small ridge) on the matches with ``m mod 5 != 0``, prints the
log-loss and the calibration on the others against even chances, and prints the weights.

In the conditional logit a seat's strength is the sum of the weights of its features
(``features``: its score on a piecewise-linear basis, ``KNOTS``; its seat on the barrel or
the tumbochka with the attempts already made; its bolts; its golden bagel; its place after
the dealer), and its chance is its share of ``exp(strength)`` over the seats. Session 20
priced another seat's match win by the loser's chance from this fit; it was measured and
dropped (``benchmarks/README.md``, issue 16, session 20), so the fit lives here, not in the
engine.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import accumulate, pairwise
from pathlib import Path
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from benchmarks.strength import GAMES
from engine.actions import Deal
from engine.ai.arena import play_match
from engine.ai.levels import make_agent
from engine.dealing import shuffled_deal
from engine.rules import Game, Rules, preset
from engine.state import MatchState

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
RIDGE: Final = 1.0
"""The penalty on the squared weights; it also pins the level that the softmax cannot see
(every seat's score hats sum to 1)."""
MAX_DEALS: Final = 400
"""A match still going after this many deals is written with no winner and not fitted."""
BANDS: Final = (0.0, 0.05, 0.15, 0.3, 0.45, 0.6, 0.8, 1.01)
"""The bands of predicted chances in the calibration table."""
Matrix = npt.NDArray[np.float64]


def block_starts(game: Game) -> tuple[int, ...]:
    """Where each block of features starts (the score's hats, the perch's attempts, the
    bolts, the golden bagel, the places after the dealer), and last the number of features."""
    return tuple(accumulate((len(KNOTS[game]), ATTEMPTS, BOLTS, 1, PLACES), initial=0))


def feature_count(game: Game) -> int:
    return block_starts(game)[-1]


class Start(NamedTuple):
    """Where a match stood at a deal's start."""

    scores: list[int]
    bolts: list[int]
    perch: int | None
    attempts: int
    bagels: list[int]
    dealer: int


def features(rules: Rules, seat: int, start: Start) -> list[tuple[int, float]]:
    """Seat ``seat``'s features at ``start`` as (index, value) pairs, the others being 0."""
    _, perch_at, bolts_at, bagel_at, place_at, _ = block_starts(rules.game)
    found = score_basis(KNOTS[rules.game], start.scores[seat])
    if start.perch == seat:
        found.append((perch_at + min(start.attempts, ATTEMPTS - 1), 1.0))
    if start.bolts[seat] > 0:
        found.append((bolts_at + min(start.bolts[seat], BOLTS) - 1, 1.0))
    if start.bagels[seat]:
        found.append((bagel_at, 1.0))
    place = (seat - start.dealer) % rules.players
    if 0 < place <= PLACES:
        found.append((place_at + place - 1, 1.0))
    return found


def score_basis(knots: Sequence[int], score: int) -> list[tuple[int, float]]:
    """The hat functions of ``knots`` at ``score``: one or two of them, summing to 1."""
    if score <= knots[0]:
        return [(0, 1.0)]
    for i in range(1, len(knots)):
        if score <= knots[i]:
            share = (score - knots[i - 1]) / (knots[i] - knots[i - 1])
            return [(i - 1, 1.0 - share), (i, share)]
    return [(len(knots) - 1, 1.0)]


def play(job: tuple[Game, int]) -> str:
    """Match ``m`` of ``game`` as one JSON line (``winner`` null if it did not end)."""
    game, m = job
    rules = preset(game)
    starts: list[list[object]] = []

    def deal_for(state: MatchState, k: int) -> Deal:
        deal = shuffled_deal(state, f"chances/{game.value}/{m}/{k}")
        starts.append(
            [list(state.scores), list(state.bolts), state.perch, state.perch_attempts,
             list(state.bagels), deal.dealer]
        )
        return deal

    easy = make_agent("easy", use_clock=False)
    end = play_match(
        rules, [easy] * rules.players, f"chances/{m}", 1.0, max_deals=MAX_DEALS,
        deal_for=deal_for,
    )
    return json.dumps({"game": game.value, "match": m, "winner": end.winner, "starts": starts})


def collect(game: Game, matches: int, workers: int, out: Path) -> None:
    with out.open("w") as file, ProcessPoolExecutor(workers) as pool:
        for line in pool.map(play, [(game, m) for m in range(matches)], chunksize=20):
            file.write(line + "\n")


def design(rules: Rules, rows: Sequence[dict[str, Any]]) -> tuple[Matrix, Matrix]:
    """The features (deal starts × seats × features) of the matches ``rows``, and the one-hot
    of the winner of each start's match."""
    starts = [(Start(*start), row["winner"]) for row in rows for start in row["starts"]]
    n, width = rules.players, feature_count(rules.game)
    x = np.zeros((len(starts), n, width))
    y = np.zeros((len(starts), n))
    for s, (start, winner) in enumerate(starts):
        for seat in range(n):
            for i, v in features(rules, seat, start):
                x[s, seat, i] += v
        y[s, winner] = 1.0
    return x, y


def probabilities(x: Matrix, w: Matrix) -> Matrix:
    strengths = x @ w
    strengths -= strengths.max(axis=1, keepdims=True)
    shares = np.exp(strengths)
    result: Matrix = shares / shares.sum(axis=1, keepdims=True)
    return result


def newton(x: Matrix, y: Matrix, steps: int = 30) -> Matrix:
    """The ridge-penalised maximum-likelihood weights of the conditional logit."""
    width = x.shape[2]
    w = np.zeros(width)
    for _ in range(steps):
        p = probabilities(x, w)
        mean = np.einsum("sn,snf->sf", p, x)
        gradient = np.einsum("sn,snf->f", y, x) - mean.sum(axis=0) - RIDGE * w
        hessian = (
            np.einsum("sn,snf,sng->fg", p, x, x) - mean.T @ mean + RIDGE * np.eye(width)
        )
        step = np.linalg.solve(hessian, gradient)
        w += step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def log_loss(p: Matrix, y: Matrix) -> float:
    return float(-(y * np.log(np.clip(p, 1e-12, 1.0))).sum(axis=1).mean())


def fit(path: Path) -> None:
    rows = [json.loads(line) for line in path.open()]
    rows = [r for r in rows if r["winner"] is not None]
    game = Game(rows[0]["game"])
    rules = preset(game)
    x, y = design(rules, [r for r in rows if r["match"] % 5 != 0])
    w = newton(x, y)
    tx, ty = design(rules, [r for r in rows if r["match"] % 5 == 0])
    p = probabilities(tx, w)
    even = np.full_like(p, 1.0 / rules.players)
    print(f"{game.value}: {len(rows)} matches; {len(x)} deal starts fitted, {len(tx)} held out")
    print(f"held-out log-loss {log_loss(p, ty):.4f}, even chances {log_loss(even, ty):.4f}")
    print("| predicted | seat-deals | mean prediction | won |")
    print("|---|---|---|---|")
    flat_p, flat_y = p.ravel(), ty.ravel()
    for low, high in pairwise(BANDS):
        band = (flat_p >= low) & (flat_p < high)
        if band.any():
            mean, won = flat_p[band].mean(), flat_y[band].mean()
            print(f"| {low:.2f}–{min(high, 1):.2f} | {int(band.sum())} | {mean:.3f} | {won:.3f} |")
    print("weights", game.value, "(" + ", ".join(f"{v:.3f}" for v in w) + ")")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.match_chances")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--game", choices=sorted(GAMES), required=True)
    c.add_argument("--matches", type=int, default=10000)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path)
    args = parser.parse_args(argv)
    if args.command == "collect":
        collect(GAMES[args.game], args.matches, args.workers, args.out)
    else:
        fit(args.data)


if __name__ == "__main__":
    main()
