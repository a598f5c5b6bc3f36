"""Engine speed through the public API, on one core: complete random deals per second and the
time of ``legal_actions`` in the play phase and in bidding.

    python -m benchmarks.engine_speed            # about a minute
    python -m benchmarks.engine_speed --deals 500 --states 2000

A deal is everything from the ``Deal`` action to ``deal-over`` (or ``match-over``): bidding,
talon, giving, contract, play and scoring, each step a uniformly random legal action. A match
that ends is replaced by a new one. ``legal_actions`` is timed on states collected from such
deals, each state called many times. Times are the process's CPU time
(``time.process_time``), so that other load on the machine disturbs them less than wall
time would; the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine import (
    Game,
    MatchState,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_match,
    random_deal,
)


@dataclass(frozen=True, slots=True)
class Subject:
    label: str
    rules: Rules


SUBJECTS: tuple[Subject, ...] = (
    Subject("thousand (defaults)", Rules()),
    Subject("thousand-one, 3 players", Rules(game=Game.THOUSAND_ONE)),
    Subject("thousand-one, 4 players", Rules(game=Game.THOUSAND_ONE, players=4)),
    Subject("tumbochka", Rules(game=Game.TUMBOCHKA)),
)


@dataclass(frozen=True, slots=True)
class Figures:
    label: str
    deals_per_second: float
    actions_per_deal: float
    legal_play_us: float
    legal_bidding_us: float
    play_states: int
    bidding_states: int


def play_deals(
    rules: Rules, deals: int, seed: int, keep: int = 0
) -> tuple[float, int, list[MatchState], list[MatchState]]:
    """Play ``deals`` random deals; the time, the actions, and up to ``keep`` states seen in
    play and in bidding (collected only when ``keep`` > 0, outside the timed run)."""
    rng = random.Random(seed)
    state = new_match(rules)
    actions = 0
    play_states: list[MatchState] = []
    bidding_states: list[MatchState] = []
    started = time.process_time()
    for _ in range(deals):
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rules)
        state, _ = apply(state, random_deal(state, rng))
        actions += 1
        while state.phase is not Phase.DEAL_OVER and state.phase is not Phase.MATCH_OVER:
            if keep:
                bucket = bidding_states if state.phase is Phase.BIDDING else play_states
                if state.phase in (Phase.BIDDING, Phase.PLAY) and len(bucket) < keep:
                    bucket.append(state)
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return time.process_time() - started, actions, play_states, bidding_states


def time_legal(states: Sequence[MatchState], repeat: int) -> float:
    """Mean µs of one ``legal_actions(state)`` call over ``states``."""
    if not states:
        return float("nan")
    started = time.process_time()
    for _ in range(repeat):
        for state in states:
            legal_actions(state)
    return (time.process_time() - started) / (repeat * len(states)) * 1e6


def measure(subject: Subject, deals: int, states: int, repeat: int, seed: int) -> Figures:
    play_deals(subject.rules, max(1, deals // 10), seed)  # warm-up
    seconds, actions, _, _ = play_deals(subject.rules, deals, seed + 1)
    _, _, play_states, bidding_states = play_deals(subject.rules, deals, seed + 2, keep=states)
    return Figures(
        label=subject.label,
        deals_per_second=deals / seconds,
        actions_per_deal=actions / deals,
        legal_play_us=time_legal(play_states, repeat),
        legal_bidding_us=time_legal(bidding_states, repeat),
        play_states=len(play_states),
        bidding_states=len(bidding_states),
    )


def table(figures: Sequence[Figures]) -> str:
    head = (
        f"| {'game':<24} | {'deals/s':>8} | {'actions/deal':>12} | "
        f"{'legal_actions, play (µs)':>24} | {'legal_actions, bidding (µs)':>27} |"
    )
    rule = "|" + "|".join("-" * (len(cell) + 0) for cell in head.split("|")[1:-1]) + "|"
    rows = [
        f"| {f.label:<24} | {f.deals_per_second:>8,.0f} | {f.actions_per_deal:>12.1f} | "
        f"{f.legal_play_us:>24.1f} | {f.legal_bidding_us:>27.1f} |"
        for f in figures
    ]
    return "\n".join([head, rule, *rows])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="timed deals per game")
    parser.add_argument("--states", type=int, default=2000, help="states per phase to time")
    parser.add_argument("--repeat", type=int, default=20, help="calls per collected state")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{datetime.date.today()} {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores "
        f"(one used), load {load:.1f}; {args.deals} deals, {args.states} states x {args.repeat} "
        "calls per phase; CPU time"
    )
    figures = [measure(s, args.deals, args.states, args.repeat, args.seed) for s in SUBJECTS]
    print(table(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
