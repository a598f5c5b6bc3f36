"""A model of the search player's card play learned from its own plays (issue 16, session 14).

The search player (``hard``) models every other seat by the rule-based policy
(``engine.ai.policy``). This tool measures how well that policy predicts ``hard``'s own
card plays, and fits a linear model that tries to predict them better:

    python -m benchmarks.imitation collect --deals 1000 --workers 2 --out plays.jsonl [--others W]
    python -m benchmarks.imitation fit plays.jsonl --weights weights.json [--tau 1]

``collect`` plays Тысяча deals ``shuffle learn/thousand/k`` with ``hard`` in every seat
(clock off, scale 1) and writes, deal chunk by deal chunk, for each card play with more
than one legal move: the context (``context``), the features of every legal move
(``features``: only what the seat may know, the rule-based choice among them), the index
of the move ``hard`` made and the mean utility ``hard``'s search gave each move (session
26: the values of the plays, not only the choice). With ``--others`` the search models the
other seats in its best response (``engine.ai.solver.respond``) by fitted weights instead of
the rule-based policy, so that a model fitted to those values can be fitted again
(session 27: one round of that). ``fit`` fits a conditional logit per context (Adam, L2)
on the deals with ``k mod 5 != 0``: to the moves made, or with ``--tau`` to the softmax
of the search's means at that temperature, so that a play whose moves the search values
alike teaches little and one with a wide gap teaches much. It prints, on the other deals,
how often the rule-based choice and the fitted model's best move are ``hard``'s, and the
regret of each: the mean of the search's best mean less the mean of the move chosen.
``imitating(weights)`` is the fitted model as a playout policy (``engine.ai.playout.Policy``)
for the variant drivers of ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Final, NamedTuple
from unittest.mock import patch

from engine.actions import Declaration, Play, SeatAction
from engine.ai import search_agent, solver
from engine.ai.arena import play_deal
from engine.ai.playout import Policy
from engine.ai.policy import _cheapest_winner, _keep_values, _out, choose_play, sure_winner
from engine.ai.rules_agent import RulesAgent
from engine.ai.search_agent import SearchAgent
from engine.cards import ABOVE, ACE, KING, QUEEN, RANK_OF, SUIT_MASKS, SUIT_OF, TEN, THOUSAND_POINTS
from engine.dealing import new_match, shuffled_deal
from engine.games.base import MARRIAGE_MASKS, MARRIAGE_VALUES
from engine.rules import Game, Rules
from engine.state import MatchState, Phase
from engine.table import Table, peek
from engine.tricks import moves, playable
from engine.view import SeatView

CONTEXTS = 6
"""(the declarer, a defender) × (leading, in the middle of a trick, last to it)."""
CHOSEN_LIFT: Final = 1.0
"""In the fit to the search's means, the move made counts this much above the best mean:
the search took it among the moves within its margin of the best (``PLAY_MARGIN``, 1 in
Тысяча), so where the means are near equal the model learns the search's own choice.
At ``--tau 1``, without it the fit agreed with ``hard`` on 64 % of held-out plays, with it
on 79 % (the rule-based choice 77 %), at about the same regret: 2.21 and 2.24 points, the
rule-based choice 3.43 (``benchmarks/README.md``, session 26)."""
Move = tuple[int, Declaration]
Weights = list[list[float]]
FEATURE_NAMES = (
    "rule's choice",
    "points",
    "rank",
    "trump",
    "master",
    "declares",
    "breaks a marriage",
    "ten with its ace out",
    "suit length",
    "unseen of suit",
    "beats the trick",
    "points onto the partner's trick",
    "cheapest winner",
    "sure winner led",
    "led where an opponent is void",
    "lowest of suit",
    "highest of suit",
    "keep value",
    "an opponent may follow",
    "master points an opponent may follow",
    "singleton",
    "singleton with trumps",
    "unseen above",
    "trumps held",
    "follows suit",
    "points discarded",
    "master discarded",
)
"""What each column of ``features`` says about a move, in order."""


def context(table: Table, seat: int) -> int:
    """The context of ``seat``'s play now: 0–2 the declarer, 3–5 a defender; leading, in
    the middle, last."""
    n = len(table.trick)
    position = 0 if n == 0 else 2 if n == len(table.active) - 1 else 1
    return (0 if seat == table.declarer else 3) + position


def features(table: Table, seat: int) -> tuple[list[Move], list[list[float]]]:
    """The legal moves of ``seat`` (``engine.tricks.moves``) and each one's features, from
    what the seat may know: its hand, the unseen cards, the trick, the voids shown."""
    found = moves(table, seat)
    rule = choose_play(table, seat)
    hand = table.hands[seat]
    out = _out(table, seat)
    trump = table.trump
    keep = {c: v for v, c in _keep_values(table, seat, hand, out)}
    trick = table.trick
    declarer = table.declarer
    opponents = [s for s in table.active if s != seat] if seat == declarer else [declarer]
    can_follow = [
        bool(out & SUIT_MASKS[suit])
        and any(o is not None and not table.voids[o] >> suit & 1 for o in opponents)
        for suit in range(4)
    ]
    opponent_void = [
        any(o is not None and table.voids[o] >> suit & 1 for o in opponents) for suit in range(4)
    ]
    trumps_held = (hand & SUIT_MASKS[trump]).bit_count() if trump >= 0 else 0
    led = -1
    partner_wins = False
    beaters = 0
    if trick:
        led = SUIT_OF[trick[0][1]]
        win_seat, win_card = table.taking
        partner_wins = seat != declarer and win_seat not in (seat, declarer)
        # The cards that take the trick as it stands, as ``engine.ai.policy`` counts them.
        legal = playable(table, seat)
        beaters = legal & ABOVE[win_card]
        if trump >= 0 and SUIT_OF[win_card] != trump:
            beaters |= legal & SUIT_MASKS[trump]
    cheapest = _cheapest_winner(beaters) if beaters else -1
    rows = []
    for c, kind in found:
        suit, rank, points = SUIT_OF[c], RANK_OF[c], THOUSAND_POINTS[c]
        suit_hand = hand & SUIT_MASKS[suit]
        master = not out & ABOVE[c]
        marriage_held = hand & MARRIAGE_MASKS[suit] == MARRIAGE_MASKS[suit]
        discard = bool(trick) and suit not in (led, trump)
        rows.append(
            [
                1.0 if (c, kind) == rule else 0.0,
                points / 11,
                rank / 8,
                1.0 if suit == trump else 0.0,
                1.0 if master else 0.0,
                MARRIAGE_VALUES[suit] / 100 if kind is not Declaration.NONE else 0.0,
                1.0
                if rank in (KING, QUEEN) and marriage_held and kind is Declaration.NONE
                else 0.0,
                1.0 if rank == TEN and out >> (c - rank + ACE) & 1 else 0.0,
                suit_hand.bit_count() / 8,
                (out & SUIT_MASKS[suit]).bit_count() / 8,
                1.0 if beaters >> c & 1 else 0.0,
                points / 11 if partner_wins else 0.0,
                1.0 if c == cheapest else 0.0,
                1.0 if not trick and sure_winner(table, seat, c) else 0.0,
                1.0 if not trick and opponent_void[suit] else 0.0,
                1.0 if not suit_hand & ((1 << c) - 1) else 0.0,
                1.0 if not suit_hand & ABOVE[c] else 0.0,
                keep.get(c, 0) / 50,
                1.0 if can_follow[suit] else 0.0,
                points / 11 if master and can_follow[suit] else 0.0,
                1.0 if suit_hand.bit_count() == 1 else 0.0,
                1.0 if suit_hand.bit_count() == 1 and trumps_held and suit != trump else 0.0,
                (out & ABOVE[c]).bit_count() / 8,
                trumps_held / 8 if suit == trump else 0.0,
                1.0 if trick and suit == led else 0.0,
                points / 11 if discard else 0.0,
                1.0 if discard and can_follow[suit] and master else 0.0,
            ]
        )
    return found, rows


def _scores(weights: list[float], rows: list[list[float]]) -> list[float]:
    return [sum([w * x for w, x in zip(weights, row, strict=True)]) for row in rows]


def _best(weights: list[float], rows: list[list[float]]) -> int:
    """The index of the row ``weights`` score highest (the first of equals)."""
    scores = _scores(weights, rows)
    return max(range(len(scores)), key=scores.__getitem__)


def imitating(weights: Weights) -> Policy:
    """The fitted model as a playout policy: the legal move it scores highest (Тысяча
    family; Тумбочка plays the rule-based policy)."""

    def policy(table: Table, seat: int) -> Move:
        if table.rules.game is Game.TUMBOCHKA:
            return choose_play(table, seat)
        found, rows = features(table, seat)
        return found[_best(weights[context(table, seat)], rows)]

    return policy


class Sample(NamedTuple):
    """One card play of ``hard``: its deal, context, the moves' features, the move made,
    and the mean utility ``hard``'s search gave each move (in the rows' order)."""

    deal: int
    context: int
    rows: list[list[float]]
    chosen: int
    means: list[float]


def _collect(deals: range, others: Weights | None = None) -> list[Sample]:
    agents = [SearchAgent(use_clock=False)] * 3
    found: list[Sample] = []
    valued: dict[Move, float] = {}
    among_best = search_agent._among_best

    def keeping_means(
        view: SeatView, plays: list[Play], means: list[float], fallback: RulesAgent
    ) -> int:
        valued.clear()
        valued.update(((a.card, a.declaration), m) for a, m in zip(plays, means, strict=True))
        return among_best(view, plays, means, fallback)

    with ExitStack() as patched:
        patched.enter_context(patch.object(search_agent, "_among_best", keeping_means))
        if others is not None:
            # ``respond`` reads its model of the others from its module's global: the
            # engine keeps it a plain function on its hottest path, where a parameter
            # would cost every call.
            patched.enter_context(patch.object(solver, "choose_play", imitating(others)))
        for k in deals:
            state = new_match(Rules())

            def on_decision(
                before: MatchState, seat: int, action: SeatAction, _: float, k: int = k
            ) -> None:
                if before.phase is not Phase.PLAY or not isinstance(action, Play):
                    return
                table = peek(before)
                legal, rows = features(table, seat)
                if len(legal) > 1:
                    chosen = legal.index((action.card, action.declaration))
                    means = [valued[move] for move in legal]
                    # Emptied, so that a play whose means were not kept fails here instead
                    # of reading another play's.
                    valued.clear()
                    found.append(Sample(k, context(table, seat), rows, chosen, means))

            deal = shuffled_deal(state, f"learn/thousand/{k}")
            play_deal(state, deal, agents, f"learn/{k}", 1.0, on_decision=on_decision)
    return found


def collect(deals: int, workers: int, others: Weights | None = None) -> Iterator[list[Sample]]:
    """``hard``'s card plays in ``deals`` self-play deals, chunk by chunk in deal order;
    ``others`` are the weights of the model of the other seats in the best response (the
    rule-based policy when ``None``)."""
    step = max(1, -(-deals // (workers * 8)))
    chunks = [range(k, min(k + step, deals)) for k in range(0, deals, step)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(partial(_collect, others=others), chunks)


def accuracy(samples: Sequence[Sample], weights: Weights) -> float:
    """The share of ``samples`` whose highest-scored move is the one ``hard`` made."""
    if not samples:
        return 0.0
    hits = sum(_best(weights[s.context], s.rows) == s.chosen for s in samples)
    return hits / len(samples)


def regret(samples: Sequence[Sample], weights: Weights) -> float:
    """The mean, over ``samples``, of ``hard``'s best mean less its mean of the move
    ``weights`` score highest: what the model's choice loses by the search's own values."""
    if not samples:
        return 0.0
    lost = sum(max(s.means) - s.means[_best(weights[s.context], s.rows)] for s in samples)
    return lost / len(samples)


def _targets(sample: Sample, tau: float | None) -> list[float]:
    """What the fit pulls each move's probability towards: the move made, or the softmax
    at temperature ``tau`` of the search's means with the move made ``CHOSEN_LIFT`` above
    the best of them."""
    if tau is None:
        return [1.0 if j == sample.chosen else 0.0 for j in range(len(sample.rows))]
    means = list(sample.means)
    means[sample.chosen] = max(means) + CHOSEN_LIFT
    return _softmax([m / tau for m in means])


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def rule_weights() -> Weights:
    """The weights that score the rule-based choice highest (and nothing else)."""
    width = len(FEATURE_NAMES)
    return [[1.0] + [0.0] * (width - 1) for _ in range(CONTEXTS)]


def fit(
    samples: Sequence[Sample], steps: int = 300, l2: float = 1e-3, tau: float | None = None
) -> Weights:
    """Conditional-logit weights per context, from the rule-based weights, by full-batch
    Adam on the mean cross-entropy to ``_targets`` (the moves made unless ``tau``)."""
    targets = [_targets(s, tau) for s in samples]
    weights = rule_weights()
    width = len(weights[0])
    first = [[0.0] * width for _ in range(CONTEXTS)]
    second = [[0.0] * width for _ in range(CONTEXTS)]
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    for step in range(1, steps + 1):
        grads = [[0.0] * width for _ in range(CONTEXTS)]
        counts = [0] * CONTEXTS
        for s, target in zip(samples, targets, strict=True):
            chances = _softmax(_scores(weights[s.context], s.rows))
            grad = grads[s.context]
            counts[s.context] += 1
            for j, row in enumerate(s.rows):
                coef = chances[j] - target[j]
                for i, x in enumerate(row):
                    grad[i] += coef * x
        for c in range(CONTEXTS):
            if not counts[c]:
                continue
            for i in range(width):
                g = grads[c][i] / counts[c] + l2 * weights[c][i]
                first[c][i] = beta1 * first[c][i] + (1 - beta1) * g
                second[c][i] = beta2 * second[c][i] + (1 - beta2) * g * g
                m = first[c][i] / (1 - beta1**step)
                v = second[c][i] / (1 - beta2**step)
                weights[c][i] -= rate * m / (math.sqrt(v) + 1e-8)
    return weights


def _read(path: Path) -> list[Sample]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Sample(**json.loads(line)) for line in lines]


def _report(label: str, samples: Sequence[Sample], weights: Weights) -> None:
    per = " ".join(
        f"{c}:{accuracy(part, weights):.3f}({len(part)})"
        for c in range(CONTEXTS)
        if (part := [s for s in samples if s.context == c])
    )
    print(
        f"{label}: {accuracy(samples, weights):.4f} of {len(samples)}, regret "
        f"{regret(samples, weights):.3f} (by context {per})"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.imitation")
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="hard's card plays in self-play deals")
    gather.add_argument("--deals", type=int, default=1000)
    gather.add_argument("--workers", type=int, default=2)
    gather.add_argument("--out", type=Path, required=True)
    gather.add_argument("--others", type=Path, help="weights modelling the others in respond")
    fitting = commands.add_parser("fit", help="fit the model and report held-out agreement")
    fitting.add_argument("plays", type=Path)
    fitting.add_argument("--steps", type=int, default=300)
    fitting.add_argument("--tau", type=float, help="fit to the search's means at this temperature")
    fitting.add_argument("--weights", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "collect":
        written = 0
        others = None if args.others is None else json.loads(args.others.read_text("utf-8"))
        with args.out.open("w", encoding="utf-8") as out:
            for chunk in collect(args.deals, args.workers, others):
                out.writelines(json.dumps(s._asdict()) + "\n" for s in chunk)
                out.flush()
                written += len(chunk)
        print(f"{written} card plays of {args.deals} deals written to {args.out}")
        return
    samples = _read(args.plays)
    train = [s for s in samples if s.deal % 5]
    held = [s for s in samples if not s.deal % 5]
    weights = fit(train, args.steps, tau=args.tau)
    args.weights.write_text(json.dumps(weights), encoding="utf-8")
    _report("held out, the rule-based choice", held, rule_weights())
    _report("held out, the fitted model", held, weights)
    _report("fitted on, the fitted model", train, weights)


if __name__ == "__main__":
    main()
