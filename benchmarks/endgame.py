"""The search player's card play with few cards in hand: time per play, clock off.

    python -m benchmarks.endgame --game thousand --cards 5 6 --positions 20 [--respond 6]

The positions: the plays with more than one legal card of deals ``shuffle endgame/GAME/k``
played by the rule-based player in every seat, taken in order until ``--positions`` of each
card count are found, so every commit times the same positions. Each is decided by the
search player at the default budget with the clock off (``use_clock=False``, as the strength
benchmark plays), its generator seeded by the position's index; ``--respond`` overrides
``search_agent.RESPOND_CARDS`` (from how many cards in hand a play is valued by the best
response instead of playouts). The output gives the CPU time per play (``process_time``: other
processes on the machine slow it less than the wall clock) and a digest of the plays chosen,
which two commits whose searches give the same values share.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time
from collections.abc import Sequence

from benchmarks.positions import easy_views
from benchmarks.strength import GAMES
from engine.ai import search_agent
from engine.ai.search_agent import SearchAgent
from engine.rules import Rules, preset
from engine.state import Phase
from engine.view import SeatView


def positions(rules: Rules, cards: Sequence[int], count: int) -> dict[int, list[SeatView]]:
    """``count`` views of each card count in ``cards``, the seat to play with a choice."""
    found: dict[int, list[SeatView]] = {n: [] for n in cards}
    views = easy_views(rules, "endgame")
    while any(len(held) < count for held in found.values()):
        seen = next(views)
        held = found.get(len(seen.hand))
        choice = seen.phase is Phase.PLAY and len(seen.legal) > 1
        if choice and held is not None and len(held) < count:
            held.append(seen)
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="thousand")
    parser.add_argument("--cards", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--respond", type=int, help="override RESPOND_CARDS")
    args = parser.parse_args(argv)
    if args.respond is not None:
        setattr(search_agent, "RESPOND_CARDS", args.respond)  # noqa: B010 (a Final constant)
    rules = preset(GAMES[args.game])
    agent = SearchAgent(use_clock=False)
    print(
        f"game {rules.game.value}; RESPOND_CARDS {search_agent.RESPOND_CARDS}, "
        f"SOLVE_CARDS {search_agent.SOLVE_CARDS}; clock off, CPU time per play\n"
    )
    print("| cards in hand | plays | mean | p50 | max | digest of the plays |")
    print("|---|---|---|---|---|---|")
    for n, views in positions(rules, args.cards, args.positions).items():
        seconds, chosen = [], []
        for i, seen in enumerate(views):
            started = time.process_time()
            chosen.append(repr(agent.decide(seen, random.Random(f"endgame/{i}"), 1.0)))
            seconds.append(time.process_time() - started)
        digest = hashlib.sha256("\n".join(chosen).encode()).hexdigest()[:12]
        print(
            f"| {n} | {len(views)} | {statistics.mean(seconds) * 1000:.0f} ms | "
            f"{statistics.median(seconds) * 1000:.0f} ms | {max(seconds) * 1000:.0f} ms | "
            f"{digest} |"
        )


if __name__ == "__main__":
    main()
