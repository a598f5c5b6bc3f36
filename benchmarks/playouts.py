"""Checked random playouts of complete matches (``tests/engine/playout.py``) with their counts
and times per game.

    python -m benchmarks.playouts --full               # 2,000 Тысяча matches, 1,000 per other
    python -m benchmarks.playouts --full --workers 2   # the same on two processes
    python -m benchmarks.playouts --scale 0.05         # 5 % of that
    python -m benchmarks.playouts --full --no-checks   # the same matches, engine only

Every action is checked as ``tests/engine/test_playouts.py`` does; the first failure stops
the run with the match so far in notation. Match ``i`` of an option set is seeded by the
set's name and ``i``, so the results do not depend on ``--workers``. Times are wall clock and
CPU seconds (summed over the workers).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from tests.engine.playout import ALL_SETS, OptionSet, Totals, run_set

CHUNK = 25


def group_of(option_set: OptionSet) -> str:
    rules = option_set.rules
    return f"{rules.game.value}, {rules.players} players"


def run_chunk(index: int, first: int, matches: int, checks: bool) -> tuple[Totals, float]:
    """Matches ``first``.. of option set ``index``; the totals and the CPU seconds used."""
    started = time.process_time()
    totals = run_set(ALL_SETS[index], matches, checks=checks, first=first)
    return totals, time.process_time() - started


def merge(into: Totals, part: Totals) -> None:
    into.matches += part.matches
    into.deals += part.deals
    into.actions += part.actions
    into.unfinished += part.unfinished
    into.deals_per_match += part.deals_per_match
    into.coverage.update(part.coverage)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the full counts (scale 1)")
    parser.add_argument("--scale", type=float, default=0.03, help="fraction of the full counts")
    parser.add_argument("--no-checks", action="store_true", help="play without the checks")
    parser.add_argument("--only", default="", help="run only option sets containing this")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    args = parser.parse_args(argv)
    scale = 1.0 if args.full else args.scale
    checks = not args.no_checks
    print(
        f"{datetime.date.today()} {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"{args.workers} worker(s); scale {scale}, checks {'on' if checks else 'off'}",
        flush=True,
    )
    wall_started = time.perf_counter()
    chosen = [i for i, s in enumerate(ALL_SETS) if args.only in s.name]
    per_set: dict[int, Totals] = {i: Totals() for i in chosen}
    cpu: dict[int, float] = dict.fromkeys(chosen, 0.0)
    jobs: list[tuple[int, int, int]] = []
    for i in chosen:
        count = max(1, round(ALL_SETS[i].full_matches * scale))
        jobs += [(i, first, min(CHUNK, count - first)) for first in range(0, count, CHUNK)]
    if args.workers <= 1:
        for i, first, n in jobs:
            totals, seconds = run_chunk(i, first, n, checks)
            merge(per_set[i], totals)
            cpu[i] += seconds
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures: list[tuple[int, Future[tuple[Totals, float]]]] = [
                (i, pool.submit(run_chunk, i, first, n, checks)) for i, first, n in jobs
            ]
            for i, future in futures:
                totals, seconds = future.result()
                merge(per_set[i], totals)
                cpu[i] += seconds
    wall = time.perf_counter() - wall_started
    groups: dict[str, Totals] = {}
    group_cpu: dict[str, float] = {}
    coverage: Counter[str] = Counter()
    for i in chosen:
        totals = per_set[i]
        print(
            f"  {ALL_SETS[i].name:<48} {totals.matches:>5} matches {totals.deals:>7} deals "
            f"{totals.actions:>9} actions {cpu[i]:>8.1f} cpu s   {totals.distribution()}"
        )
        name = group_of(ALL_SETS[i])
        merge(groups.setdefault(name, Totals()), totals)
        group_cpu[name] = group_cpu.get(name, 0.0) + cpu[i]
        coverage.update(totals.coverage)
    print()
    print(
        f"| {'game':<24} | {'matches':>7} | {'deals':>8} | {'actions':>10} | "
        f"{'CPU s':>7} | {'actions/CPU s':>13} | deals per match"
    )
    print(f"|{'-' * 26}|{'-' * 9}|{'-' * 10}|{'-' * 12}|{'-' * 9}|{'-' * 15}|{'-' * 16}")
    for name, group in groups.items():
        seconds = group_cpu[name]
        rate = group.actions / seconds if seconds else 0.0
        print(
            f"| {name:<24} | {group.matches:>7,} | {group.deals:>8,} | {group.actions:>10,} | "
            f"{seconds:>7,.0f} | {rate:>13,.0f} | {group.distribution()}"
        )
    print(
        f"wall {wall:,.0f} s, CPU {sum(cpu.values()):,.0f} s; unfinished matches: "
        f"{sum(g.unfinished for g in groups.values())}"
    )
    print("events: " + ", ".join(f"{k} {v:,}" for k, v in sorted(coverage.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
