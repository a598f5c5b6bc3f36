"""The search player's bidding decisions: time per decision, clock off.

    python -m benchmarks.bidding --game thousand --positions 60

The positions: the bidding decisions with both a bid and a pass among the legal actions, of
deals ``shuffle bidding/GAME/k`` bid and played by the rule-based player in every seat, taken
in order until ``--positions`` are found, so every commit times the same positions. Each is
decided by the search player at the default budget with the clock off (``use_clock=False``, as
the strength benchmark plays), its generator seeded by the position's index. The output gives
the CPU time per decision (``process_time``: other processes on the machine slow it less than
the wall clock), how many of them bid, and a digest of the decisions, which two commits that
decide alike share. Copied into an older commit's tree, it times that commit's bidding on the
same positions.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time
from collections.abc import Sequence

from benchmarks.positions import easy_views
from benchmarks.strength import GAMES, percentile
from engine.actions import Bid, Pass
from engine.ai.search_agent import SearchAgent
from engine.rules import Rules, preset
from engine.state import Phase
from engine.view import SeatView


def positions(rules: Rules, count: int) -> list[SeatView]:
    """``count`` views of a seat that may bid or pass."""
    found: list[SeatView] = []
    views = easy_views(rules, "bidding")
    while len(found) < count:
        seen = next(views)
        kinds = {type(a) for a in seen.legal}
        if seen.phase is Phase.BIDDING and Bid in kinds and Pass in kinds:
            found.append(seen)
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="thousand")
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args(argv)
    rules = preset(GAMES[args.game])
    agent = SearchAgent(use_clock=False)
    views = positions(rules, args.positions)
    seconds, chosen = [], []
    for i, seen in enumerate(views):
        started = time.process_time()
        chosen.append(agent.decide(seen, random.Random(f"bidding/{i}"), 1.0))
        seconds.append(time.process_time() - started)
    digest = hashlib.sha256("\n".join(map(repr, chosen)).encode()).hexdigest()[:12]
    print(f"game {rules.game.value}; clock off, CPU time per bidding decision\n")
    print("| decisions | bids | mean | p50 | p90 | max | digest of the decisions |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {len(views)} | {sum(isinstance(a, Bid) for a in chosen)} | "
        f"{statistics.mean(seconds) * 1000:.0f} ms | {statistics.median(seconds) * 1000:.0f} ms | "
        f"{percentile(seconds, 0.9) * 1000:.0f} ms | {max(seconds) * 1000:.0f} ms | "
        f"{digest} |"
    )


if __name__ == "__main__":
    main()
