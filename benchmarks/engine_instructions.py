"""A fixed engine workload to count instructions of, which the machine's load does not change.

    PYTHONHASHSEED=0 PYTHONPATH=BENCH:ENGINE valgrind --tool=callgrind \\
        --toggle-collect=builtin_eval python3 -m benchmarks.engine_instructions SUBJECT KIND

``SUBJECT`` is the index of a game in ``benchmarks.engine_speed.SUBJECTS`` (0 Тысяча, 1 and 2
Тысяча одно for 3 and 4 players, 3 Тумбочка); ``KIND`` is ``deals``: 200 warm-up random deals
(seed 1), then the counted 300 (seed 2), by ``engine_speed.play_deals``; or ``rollouts``:
300 deals drawn at play-phase states (``engine_speed.prepare_rollouts``), one warm pass,
then the counted 300 playouts. ``--passes N`` repeats the counted part (0: only the set-up).

Only what runs inside the one ``eval`` at the end is counted (callgrind's
``--toggle-collect=builtin_eval``); the set-up outside it is not. ``BENCH`` is a directory
with this ``benchmarks/`` and ``ENGINE`` one with the ``engine/`` to count (``git archive
COMMIT engine``); ``BENCH`` comes first, so that two engines are counted by the same code.
Callgrind prints ``Collected : N``, the instructions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from benchmarks.engine_speed import SUBJECTS, Engine, play_deals, prepare_rollouts


def workload(subject: int, kind: str, passes: int) -> Callable[[], None]:
    """The counted part, after its set-up and warm-up have run."""
    api = Engine.current()
    rules = api.rules(SUBJECTS[subject][1])
    if kind == "deals":
        play_deals(api, rules, 200, 1)

        def deals() -> None:
            for _ in range(passes):
                play_deals(api, rules, 300, 2)

        return deals
    _, _, kept = play_deals(api, rules, 300, 5, keep=300)
    prepared = prepare_rollouts(api, kept["play"], 300, 9)
    rollout = api.rollout
    for deal in prepared:
        rollout(deal.copy())

    def rollouts() -> None:
        for _ in range(passes):
            for deal in prepared:
                rollout(deal.copy())

    return rollouts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("subject", type=int, choices=range(len(SUBJECTS)))
    parser.add_argument("kind", choices=("deals", "rollouts"))
    parser.add_argument("--passes", type=int, default=1)
    args = parser.parse_args(argv)
    measured = workload(args.subject, args.kind, args.passes)
    print(Engine.current().path, file=sys.stderr)
    # The one ``eval``: what callgrind counts (``--toggle-collect=builtin_eval``).
    eval("measured()", {"measured": measured})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
