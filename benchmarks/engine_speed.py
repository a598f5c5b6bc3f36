"""Engine speed on one core, this engine against an earlier commit's in the same run.

    python -m benchmarks.engine_speed                  # against 3289d96, a few minutes
    python -m benchmarks.engine_speed --against none   # this engine only
    python -m benchmarks.engine_speed --deals 500 --states 500 --rollouts 500

Each engine is measured in its own subprocess, one after the other: the earlier one is
exported with ``git archive COMMIT engine`` into a temporary directory, and this file runs
there as ``--worker`` so both are measured by the same code through their public API.

- *deals/s*: complete random deals, from the ``Deal`` action to ``deal-over`` (or
  ``match-over``): bidding, talon, giving, contract, play and scoring, each step a uniformly
  random choice of ``legal_actions``. A match that ends is replaced by a new one. Every
  step's ``legal_actions`` and ``rng.choice`` are counted with ``apply``.
- *legal µs*: one ``legal_actions(state)`` call on states collected from such deals, in
  bidding, in the contract phase (the declarer before naming the contract) and in play.
- *playouts/s*: the computer players' rollout (the rule-based policy plays the deal out
  with every hand known), from states of the play phase with hands drawn for the seat to
  move (``engine.ai.sampling``); each playout starts from a ``copy()`` of the prepared
  deal. The earlier engine plays them on its simulator, this one on the rules core.

Times are the process's CPU time (``time.process_time``), so that other load on the machine
disturbs them less than wall time would; the load average is printed with the figures.
Both engines see the same deals and states when their ``legal_actions`` list the same
actions in the same order (the seeded choices then agree).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import engine
from engine import Game, MatchState, Phase, Rules, apply, legal_actions, new_match, random_deal

SUBJECTS: tuple[tuple[str, Rules], ...] = (
    ("thousand (defaults)", Rules()),
    ("thousand-one, 3 players", Rules(game=Game.THOUSAND_ONE)),
    ("thousand-one, 4 players", Rules(game=Game.THOUSAND_ONE, players=4)),
    ("tumbochka", Rules(game=Game.TUMBOCHKA)),
)
PHASES = (Phase.BIDDING, Phase.CONTRACT, Phase.PLAY)
# The loop's phases as constants: an enum member looked up on its class costs about 0.1 µs,
# twice per action, the same for both engines.
_DEAL_OVER = Phase.DEAL_OVER
_MATCH_OVER = Phase.MATCH_OVER
ROOT = Path(__file__).resolve().parent.parent


def play_deals(
    rules: Rules, deals: int, seed: int, keep: int = 0
) -> tuple[float, int, dict[Phase, list[MatchState]]]:
    """Play ``deals`` random deals; the CPU time, the actions, and up to ``keep`` states per
    phase of ``PHASES`` (collected only when ``keep`` > 0, outside the timed run)."""
    rng = random.Random(seed)
    state = new_match(rules)
    actions = 0
    kept: dict[Phase, list[MatchState]] = {phase: [] for phase in PHASES}
    started = time.process_time()
    for _ in range(deals):
        if state.phase is _MATCH_OVER:
            state = new_match(rules)
        state, _ = apply(state, random_deal(state, rng))
        actions += 1
        while (phase := state.phase) is not _DEAL_OVER and phase is not _MATCH_OVER:
            if keep:
                bucket = kept.get(phase)
                if bucket is not None and len(bucket) < keep:
                    bucket.append(state)
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return time.process_time() - started, actions, kept


def time_legal(states: Sequence[MatchState], repeat: int) -> float:
    """Mean µs of one ``legal_actions(state)`` call over ``states``, after one untimed call
    on each (this engine thaws the table of an older state once, at its first call)."""
    if not states:
        return float("nan")
    for state in states:
        legal_actions(state)
    started = time.process_time()
    for _ in range(repeat):
        for state in states:
            legal_actions(state)
    return (time.process_time() - started) / (repeat * len(states)) * 1e6


def _rollout_function() -> Callable[[Any], None]:
    """The computer players' rollout of the engine being measured: the simulator's before
    issue 15, the rules core's since."""
    try:
        module = importlib.import_module("engine.ai.playout")
    except ImportError:
        module = importlib.import_module("engine.ai.search_agent")
        result: Callable[[Any], None] = module._rollout
        return result
    result = module.rollout
    return result


def time_rollouts(states: Sequence[MatchState], count: int, seed: int) -> float:
    """Playouts per CPU second from ``count`` determinized deals drawn at ``states``."""
    from engine import view
    from engine.ai import sampling
    from engine.ai.sampling import Knowledge, sample

    # Before issue 15 the determinized deal was a simulator's (``sim_of``).
    determinized = getattr(sampling, "table_of", None) or getattr(sampling, "sim_of")  # noqa: B009
    rollout = _rollout_function()
    rng = random.Random(seed)
    prepared = []
    for i in range(count):
        state = states[i % len(states)]
        assert state.turn is not None
        seat_view = view(state, state.turn)
        know = Knowledge.of(seat_view)
        prepared.append(determinized(seat_view, know, sample(seat_view, know, rng).hands))
    started = time.process_time()
    for deal in prepared:
        rollout(deal.copy())
    return count / (time.process_time() - started)


def worker(deals: int, states: int, repeat: int, rollouts: int, seed: int) -> None:
    """Measure the engine importable here; one JSON line per subject on stdout."""
    print(json.dumps({"engine": str(Path(engine.__file__).resolve().parent)}), flush=True)
    for label, rules in SUBJECTS:
        play_deals(rules, max(1, deals // 10), seed)  # warm-up
        seconds, actions, _ = play_deals(rules, deals, seed + 1)
        _, _, kept = play_deals(rules, deals, seed + 2, keep=states)
        figures = {
            "label": label,
            "deals_per_second": deals / seconds,
            "actions_per_deal": actions / deals,
            **{f"legal_{p.value}": time_legal(kept[p], repeat) for p in PHASES},
            "playouts_per_second": time_rollouts(kept[Phase.PLAY], rollouts, seed + 3),
        }
        print(json.dumps(figures), flush=True)


def _measure(cwd: Path, args: argparse.Namespace) -> tuple[str, list[dict[str, Any]]]:
    command = [
        sys.executable, "-m", "benchmarks.engine_speed", "--worker",
        "--deals", str(args.deals), "--states", str(args.states),
        "--repeat", str(args.repeat), "--rollouts", str(args.rollouts), "--seed", str(args.seed),
    ]
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    out = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return lines[0]["engine"], lines[1:]


def _earlier_engine(commit: str, into: Path) -> None:
    """``engine/`` of ``commit`` and this benchmark, to be run side by side with this one."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "engine"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    (into / "benchmarks").mkdir()
    (into / "benchmarks" / "__init__.py").write_text("")
    shutil.copy(Path(__file__), into / "benchmarks" / "engine_speed.py")


def _commit(ref: str) -> str:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref], capture_output=True, text=True
    )
    return out.stdout.strip() or ref


def table(runs: Sequence[tuple[str, list[dict[str, Any]]]]) -> str:
    head = (
        "| game | engine | deals/s | actions/deal | legal µs: bidding | contract | play | "
        "playouts/s |"
    )
    rows = [head, "|---|---|---|---|---|---|---|---|"]
    for i, (label, _) in enumerate(SUBJECTS):
        for name, figures in runs:
            f = figures[i]
            rows.append(
                f"| {label} | {name} | {f['deals_per_second']:,.0f} | "
                f"{f['actions_per_deal']:.1f} | {f['legal_bidding']:.1f} | "
                f"{f['legal_contract']:.1f} | {f['legal_play']:.1f} | "
                f"{f['playouts_per_second']:,.0f} |"
            )
        if len(runs) == 2:
            old, new = runs[0][1][i], runs[1][1][i]
            rows.append(
                f"| {label} | ratio | {new['deals_per_second'] / old['deals_per_second']:.2f}× "
                f"| | {new['legal_bidding'] / old['legal_bidding']:.2f}× | "
                f"{new['legal_contract'] / old['legal_contract']:.2f}× | "
                f"{new['legal_play'] / old['legal_play']:.2f}× | "
                f"{new['playouts_per_second'] / old['playouts_per_second']:.2f}× |"
            )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="timed deals per game")
    parser.add_argument("--states", type=int, default=2000, help="states per phase to time")
    parser.add_argument("--repeat", type=int, default=20, help="calls per collected state")
    parser.add_argument("--rollouts", type=int, default=2000, help="playouts per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--against", default="3289d96", help="the earlier commit to compare ('none': skip)"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.deals, args.states, args.repeat, args.rollouts, args.seed)
        return 0
    load = os.getloadavg()
    print(
        f"{datetime.date.today()} {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores "
        f"(one used), load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {args.deals} deals, "
        f"{args.states} states x {args.repeat} calls per phase, {args.rollouts} playouts; "
        f"CPU time; this engine at {_commit('HEAD')}"
    )
    runs: list[tuple[str, list[dict[str, Any]]]] = []
    with tempfile.TemporaryDirectory(prefix="engine-old-") as tmp:
        if args.against != "none":
            _earlier_engine(args.against, Path(tmp))
            _, figures = _measure(Path(tmp), args)
            runs.append((f"`{_commit(args.against)}`", figures))
        path, figures = _measure(ROOT, args)
        assert Path(path) == ROOT / "engine", f"measured {path}, not this engine"
        runs.append(("this", figures))
    print(table(runs))
    load = os.getloadavg()
    print(f"load after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
