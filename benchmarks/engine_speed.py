"""Engine speed on one core, this engine against an earlier commit's in the same run.

    python -m benchmarks.engine_speed                  # against 3289d96, a few minutes
    python -m benchmarks.engine_speed --against none   # this engine only
    python -m benchmarks.engine_speed --deals 500 --states 500 --rollouts 500
    python -m benchmarks.engine_speed --same-process   # both in one process, in turn

Each engine is measured in its own subprocess, one after the other: the earlier one is
exported with ``git archive COMMIT engine`` into a temporary directory, and this file runs
there as ``--worker`` so both are measured by the same code through their public API.
With ``--same-process`` both engines are imported into this one process side by side
(``Engine.load``: the earlier one as a second set of ``engine`` modules) and measured in
turn, subject by subject, ``--rounds`` times; each figure is the best of its turns, so a
burst of other load on the machine disturbs both engines alike.

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

SUBJECTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("thousand (defaults)", {}),
    ("thousand-one, 3 players", {"game": "thousand-one"}),
    ("thousand-one, 4 players", {"game": "thousand-one", "players": 4}),
    ("tumbochka", {"game": "tumbochka"}),
)
"""The games measured, as ``Rules`` keywords (the game by its value: each engine builds
its own ``Rules``)."""
PHASES = ("bidding", "contract", "play")
ROOT = Path(__file__).resolve().parent.parent


class Engine:
    """The public API of one engine, as the benchmark calls it: the one importable as
    ``engine`` (``Engine.current()``), or one loaded from another directory beside it
    (``Engine.load``, for ``--same-process``)."""

    def __init__(self, modules: dict[str, Any]) -> None:
        api = modules["engine"]
        self.path = Path(api.__file__).resolve().parent
        self.new_match: Callable[[Any], Any] = api.new_match
        self.apply: Callable[[Any, Any], tuple[Any, Any]] = api.apply
        self.legal_actions: Callable[[Any], Sequence[Any]] = api.legal_actions
        self.random_deal: Callable[[Any, random.Random], Any] = api.random_deal
        self.view: Callable[[Any, int], Any] = api.view
        self.rules_class: Callable[..., Any] = api.Rules
        self.game: Callable[[str], Any] = api.Game
        self.phase: Callable[[str], Any] = api.Phase
        sampling = modules["engine.ai.sampling"]
        self.knowledge: Any = sampling.Knowledge
        self.sample: Callable[..., Any] = sampling.sample
        # Before issue 15 the determinized deal was a simulator's (``sim_of``) and the
        # rollout the search player's ``_rollout``; since, a table and ``engine.ai.playout``.
        self.determinized: Callable[..., Any] = (
            getattr(sampling, "table_of", None) or sampling.sim_of
        )
        playout = modules.get("engine.ai.playout")
        self.rollout: Callable[[Any], None] = (
            playout.rollout if playout is not None else modules["engine.ai.search_agent"]._rollout
        )

    _MODULES = ("engine", "engine.ai.sampling", "engine.ai.playout", "engine.ai.search_agent")

    @classmethod
    def current(cls) -> Engine:
        modules: dict[str, Any] = {}
        for name in cls._MODULES:
            try:
                modules[name] = importlib.import_module(name)
            except ImportError:
                continue
        return cls(modules)

    @classmethod
    def load(cls, root: Path) -> Engine:
        """The engine under ``root``, imported as a second set of ``engine`` modules: the
        ones imported before are put back afterwards, and each engine's functions keep
        their own modules (neither engine imports a module lazily on the measured paths,
        which would find the other's)."""
        def ours(name: str) -> bool:
            return name == "engine" or name.startswith("engine.")

        saved = {name: module for name, module in sys.modules.items() if ours(name)}
        for name in saved:
            del sys.modules[name]
        sys.path.insert(0, str(root))
        try:
            return cls.current()
        finally:
            sys.path.remove(str(root))
            for name in [name for name in sys.modules if ours(name)]:
                del sys.modules[name]
            sys.modules.update(saved)

    def rules(self, keywords: dict[str, Any]) -> Any:
        game = keywords.get("game")
        return self.rules_class(
            **{**keywords, **({"game": self.game(game)} if game is not None else {})}
        )


def play_deals(
    api: Engine, rules: Any, deals: int, seed: int, keep: int = 0
) -> tuple[float, int, dict[str, list[Any]]]:
    """Play ``deals`` random deals; the CPU time, the actions, and up to ``keep`` states per
    phase of ``PHASES`` (collected only when ``keep`` > 0, outside the timed run)."""
    apply, legal_actions, random_deal, new_match = (
        api.apply, api.legal_actions, api.random_deal, api.new_match
    )
    # The loop's phases as locals: an enum member looked up on its class costs about
    # 0.1 µs, twice per action, the same for both engines.
    deal_over, match_over = api.phase("deal-over"), api.phase("match-over")
    rng = random.Random(seed)
    state = new_match(rules)
    actions = 0
    kept: dict[Any, list[Any]] = {api.phase(phase): [] for phase in PHASES}
    started = time.process_time()
    for _ in range(deals):
        if state.phase is match_over:
            state = new_match(rules)
        state, _ = apply(state, random_deal(state, rng))
        actions += 1
        while (phase := state.phase) is not deal_over and phase is not match_over:
            if keep:
                bucket = kept.get(phase)
                if bucket is not None and len(bucket) < keep:
                    bucket.append(state)
            state, _ = apply(state, rng.choice(legal_actions(state)))
            actions += 1
    return time.process_time() - started, actions, {p.value: k for p, k in kept.items()}


def time_legal(api: Engine, states: Sequence[Any], repeat: int) -> float:
    """Mean µs of one ``legal_actions(state)`` call over ``states``, after one untimed call
    on each (this engine thaws the table of an older state once, at its first call)."""
    if not states:
        return float("nan")
    legal_actions = api.legal_actions
    for state in states:
        legal_actions(state)
    started = time.process_time()
    for _ in range(repeat):
        for state in states:
            legal_actions(state)
    return (time.process_time() - started) / (repeat * len(states)) * 1e6


def prepare_rollouts(api: Engine, states: Sequence[Any], count: int, seed: int) -> list[Any]:
    """``count`` determinized deals drawn at ``states`` (play phase) for the seat to move."""
    rng = random.Random(seed)
    prepared = []
    for i in range(count):
        state = states[i % len(states)]
        assert state.turn is not None
        seat_view = api.view(state, state.turn)
        know = api.knowledge.of(seat_view)
        prepared.append(api.determinized(seat_view, know, api.sample(seat_view, know, rng).hands))
    return prepared


def time_rollouts(api: Engine, prepared: Sequence[Any]) -> float:
    """Playouts per CPU second, each from a ``copy()`` of a prepared deal."""
    rollout = api.rollout
    started = time.process_time()
    for deal in prepared:
        rollout(deal.copy())
    return len(prepared) / (time.process_time() - started)


def worker(deals: int, states: int, repeat: int, rollouts: int, seed: int) -> None:
    """Measure the engine importable here; one JSON line per subject on stdout."""
    api = Engine.current()
    print(json.dumps({"engine": str(api.path)}), flush=True)
    for label, keywords in SUBJECTS:
        print(json.dumps(measure(api, label, keywords, deals, states, repeat, rollouts, seed)))


def measure(
    api: Engine,
    label: str,
    keywords: dict[str, Any],
    deals: int,
    states: int,
    repeat: int,
    rollouts: int,
    seed: int,
) -> dict[str, Any]:
    """Every figure of one subject on ``api``."""
    rules = api.rules(keywords)
    play_deals(api, rules, max(1, deals // 10), seed)  # warm-up
    seconds, actions, _ = play_deals(api, rules, deals, seed + 1)
    _, _, kept = play_deals(api, rules, deals, seed + 2, keep=states)
    prepared = prepare_rollouts(api, kept["play"], rollouts, seed + 3)
    return {
        "label": label,
        "deals_per_second": deals / seconds,
        "actions_per_deal": actions / deals,
        **{f"legal_{p}": time_legal(api, kept[p], repeat) for p in PHASES},
        "playouts_per_second": time_rollouts(api, prepared),
    }


def same_process(
    engines: Sequence[Engine], args: argparse.Namespace
) -> list[list[dict[str, Any]]]:
    """Every subject measured on each engine in turn, ``args.rounds`` times, in this one
    process; each figure is the best of the rounds (the least disturbed by other load)."""
    best: list[list[dict[str, Any]]] = [[] for _ in engines]
    for label, keywords in SUBJECTS:
        rounds = [
            [
                measure(api, label, keywords, args.deals, args.states, args.repeat,
                        args.rollouts, args.seed)
                for api in engines
            ]
            for _ in range(args.rounds)
        ]
        for i in range(len(engines)):
            runs = [r[i] for r in rounds]
            figures = dict(runs[0])
            for key in ("deals_per_second", "playouts_per_second"):
                figures[key] = max(f[key] for f in runs)
            for p in PHASES:
                figures[f"legal_{p}"] = min(f[f"legal_{p}"] for f in runs)
            best[i].append(figures)
    return best


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
    parser.add_argument(
        "--same-process", action="store_true",
        help="both engines in this process, in turn, best of --rounds (instead of one "
        "subprocess each, one after the other)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="turns per engine (--same-process)")
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
        + (f"; same process, best of {args.rounds} turns" if args.same_process else "")
    )
    runs: list[tuple[str, list[dict[str, Any]]]] = []
    with tempfile.TemporaryDirectory(prefix="engine-old-") as tmp:
        if args.same_process:
            engines = [Engine.current()]
            names = ["this"]
            assert engines[0].path == ROOT / "engine", f"measuring {engines[0].path}"
            if args.against != "none":
                _earlier_engine(args.against, Path(tmp))
                engines.insert(0, Engine.load(Path(tmp)))
                names.insert(0, f"`{_commit(args.against)}`")
            runs = list(zip(names, same_process(engines, args), strict=True))
        if args.against != "none" and not args.same_process:
            _earlier_engine(args.against, Path(tmp))
            _, figures = _measure(Path(tmp), args)
            runs.append((f"`{_commit(args.against)}`", figures))
        if not args.same_process:
            path, figures = _measure(ROOT, args)
            assert Path(path) == ROOT / "engine", f"measured {path}, not this engine"
            runs.append(("this", figures))
    print(table(runs))
    load = os.getloadavg()
    print(f"load after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
