"""How strong the computer players are: duplicate deals, full matches and decision times.

    python -m benchmarks.strength --game thousand --deals 1000 --matches 60 --workers 2

Duplicate deals. Deal ``k`` of the fixed set is ``shuffle strength/GAME/k`` (the match
notation's reproducible shuffle, ``engine.shuffled_deal``, which any two engines agree on)
dealt by seat ``k mod players`` at the start of a match (all scores 0, or ``--scores``: from
those match scores, e.g. ``--scores 880 0 0`` for the deals of a barrel, where seat 0 is on
the barrel and A plays it in one of its three seats). The output names
the set by the SHA-256 of its cards written in the match notation, so two runs can be
checked to have played the same deals; ``--write-deals FILE`` writes that text (a deal
block per deal, ``docs/notation.md``) for replaying the set elsewhere.

Each deal is played four times: once with agent B in every seat (the baseline) and once
with agent A in each playing seat in turn, the others B. So every seat's cards are played
once by A and once by B, against the same opponents and the same cards; the deal's
difference is the mean over the seats of A's score change minus B's score change in that
seat. The table gives the mean over the deals with a 95% bootstrap interval (resampling
deals, ``--bootstrap`` times, seeded), and the same for the "relative" difference (own
change minus the mean change of the others, which is what a match is won by). From scores
near the end of a match a deal may end it: the table then also gives, per 100 deals, how
much more often the deal wins the match for A's seat than for B's in the same seat, and how
much more often another seat wins it with A in the seat (fewer is better).

Full matches. A in one seat against B in the others (A's seat rotating by match), each match
dealt from ``shuffle strength/GAME/match/m/k``; the table gives A's share of matches won
(a third would be an even share with three players). With ``--scores`` the matches start
from those scores (the end of a match: ``--scores 880 650 500`` plays it out from the barrel,
A on the barrel in every third match).

Paired matches. The cards of match ``m`` depend only on its seed and the deal's number, and
the dealer moves the same way whoever plays, so with ``--paired`` each match is also played
with B in every seat (the set-up ``--a B --b B``, whose progress it shares): B then holds A's
seat with A's cards. The table adds the share B wins in that seat, how many matches only A
and only B win there, and the difference A − B with a bootstrap interval (resampling
matches). A few matches' difference between near-equal players is mostly the seeds' luck;
paired, it is the players'.

Against another commit. ``--record FILE`` writes A's score change per duplicate deal
(the mean over the seats it played, the others B); a later run with ``--against FILE`` on
the same deals (checked by the set's SHA-256; a run may play only the first deals of the
recorded set) gives this A minus the recorded A, paired by deal, with its bootstrap
interval. Run the recording with the other commit's code (e.g. ``git archive COMMIT
engine`` into a directory, this file beside it) to compare two versions of the same level
against the same B.

Another commit in the same deals. ``--a`` and ``--b`` also take ``LEVEL@COMMIT``: that
level as played by the ``engine`` of that commit in a worker process
(``benchmarks.legacy``), e.g. ``--a hard --b hard@992cddb`` for today's ``hard`` against the
one of that commit, both in the same duplicate deals.

Long runs. ``--progress FILE`` appends each deal's and each match's result to FILE (one
JSON line each, tagged with the game, the players, A, B, the scale and the budget) as it
ends. A run given a FILE that already holds results of the same set-up plays only the deals
and matches missing from it and reports on all of them, so a run that was stopped goes on
where it stopped, and a longer run extends a shorter one.

Decision times. Every decision with more than one legal action is timed (wall clock, one
process per core); p50 and p99 per agent.

Determinism. Every decision's generator is seeded from the deal, so a run is exactly
reproducible: the search agent's work is fixed by ``--budget`` and ``--scale`` (deals drawn
per decision, see ``engine.ai.search_agent``) and the clock is not consulted (``use_clock=False``).
The timing run (``--timing-deals``) instead plays with the default agent (clock on, default
budget) in every seat, in this single process pinned to one core, as the bot's pool does,
from ``--scores`` if given;
``--busy N`` starts N spinning processes pinned to the same core for its duration (a busy
machine).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from benchmarks.legacy import legacy_agent
from engine.actions import Deal
from engine.ai.agent import DEFAULT_BUDGET, Agent
from engine.ai.arena import Timing, play_deal, play_match
from engine.ai.levels import LEVELS, make_agent
from engine.dealing import new_match, shuffled_deal
from engine.notation import format_deal
from engine.rules import Game, Rules, preset
from engine.state import MatchState

GAMES = {
    "thousand": Game.THOUSAND,
    "1001": Game.THOUSAND_ONE,
    "thousand-one": Game.THOUSAND_ONE,
    "tumbochka": Game.TUMBOCHKA,
}


class Setup(NamedTuple):
    rules: Rules
    a: str
    b: str
    scale: float
    budget: float
    scores: tuple[int, ...] | None = None
    """The match scores every duplicate deal starts from (``None``: all 0)."""


class DealResult(NamedTuple):
    own: float
    relative: float
    times: dict[str, list[float]]
    a_own: float
    """A's mean score change over the seats it played (the others B)."""
    a_relative: float
    won: float
    """Over the seats: 1 when the deal wins the match for A's seat, minus 1 when it does so
    for B's in the baseline (a deal from ``--scores`` near the end of a match)."""
    lost: float
    """Over the seats: 1 when the deal ends the match won by another seat with A in the
    seat, minus 1 when it does so in the baseline."""


class MatchResult(NamedTuple):
    won: bool
    deals: int
    times: dict[str, list[float]]


def setup_key(setup: Setup) -> str:
    """The tag of a set-up's rows in a ``--progress`` file: the game, the players, A, B, the
    scale, the budget and the scores."""
    rules = setup.rules
    key = f"{rules.game.value}/{rules.players}/{setup.a}/{setup.b}/{setup.scale}/{setup.budget}"
    if setup.scores is not None:
        key += "/scores " + " ".join(map(str, setup.scores))
    return key


class Progress:
    """The results of one set-up already in a ``--progress`` file, and the new ones appended
    to it as they end (kept in memory only without a file)."""

    def __init__(self, path: str | None, setup: Setup) -> None:
        self.path = path
        self.setup = setup
        self.key = setup_key(setup)
        self.deals: dict[int, DealResult] = {}
        self.matches: dict[int, MatchResult] = {}
        if path is None or not os.path.exists(path):
            return
        with open(path, encoding="utf-8") as file:
            for line in file:
                row = json.loads(line)
                if row["setup"] != self.key:
                    continue
                if "deal" in row:
                    if set(row["result"]) != set(DealResult._fields):
                        continue  # an older format: the deal is played again
                    self.deals[row["deal"]] = DealResult(**row["result"])
                else:
                    self.matches[row["match"]] = MatchResult(**row["result"])

    def add_deal(self, k: int, result: DealResult) -> None:
        self.deals[k] = result
        self._append({"setup": self.key, "deal": k, "result": result._asdict()})

    def add_match(self, m: int, result: MatchResult) -> None:
        self.matches[m] = result
        self._append({"setup": self.key, "match": m, "result": result._asdict()})

    def _append(self, row: dict[str, object]) -> None:
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as file:
                file.write(json.dumps(row) + "\n")


def agent_of(spec: str, scale: float) -> Agent:
    """``LEVEL`` of this code, or ``LEVEL@COMMIT`` played by that commit's engine."""
    if "@" in spec:
        return legacy_agent(spec, scale, use_clock=False)
    return make_agent(spec, scale, use_clock=False)


def _agents(setup: Setup) -> tuple[Agent, Agent]:
    return agent_of(setup.a, setup.scale), agent_of(setup.b, setup.scale)


def level_spec(spec: str) -> str:
    if spec.partition("@")[0] not in LEVELS:
        raise argparse.ArgumentTypeError(f"{spec!r}: one of {', '.join(LEVELS)}, or LEVEL@COMMIT")
    return spec


def duplicate_set(rules: Rules, k: int) -> Deal:
    """Deal ``k`` of the fixed set of duplicate deals."""
    return shuffled_deal(
        new_match(rules), f"strength/{rules.game.value}/{k}", dealer=k % rules.players
    )


def deal_set_text(rules: Rules, count: int) -> str:
    """The first ``count`` deals of the set in the match notation."""
    return "".join("\n".join(format_deal(duplicate_set(rules, k))) + "\n" for k in range(count))


class DuplicatePlays(NamedTuple):
    """One duplicate deal's plays: the match before it, its end with B everywhere, the
    playing seats, and its end with A in each playing seat (the others B), by seat."""

    start: MatchState
    base: MatchState
    active: tuple[int, ...]
    ends: dict[int, MatchState]


def duplicate_plays(setup: Setup, k: int, timing: Timing) -> DuplicatePlays:
    """Deal ``k`` played with B everywhere and with A in each playing seat in turn."""
    a, b = _agents(setup)
    rules = setup.rules
    n = rules.players
    start = new_match(rules, setup.scores)
    deal = duplicate_set(rules, k)
    seed = f"strength/{k}"
    base = play_deal(start, deal, [b] * n, seed, setup.budget, timing)
    active = base.deal.active if base.deal is not None else tuple(range(n))
    ends: dict[int, MatchState] = {}
    for seat in active:
        agents: list[Agent] = [b] * n
        agents[seat] = a
        ends[seat] = play_deal(start, deal, agents, seed, setup.budget, timing)
    return DuplicatePlays(start, base, active, ends)


class SeatDifference(NamedTuple):
    """A seat's end of a deal with A in it less its end with B (the others B in both)."""

    own: int
    relative: float
    won: int
    """1 when only A's play wins the match for the seat, −1 when only B's does."""
    lost: int
    """The same for the match won by another seat."""


def seat_difference(
    end: MatchState, base: MatchState, seat: int, active: Sequence[int]
) -> SeatDifference:
    """``seat``'s difference between ``end`` (A in the seat) and ``base`` (B in it)."""
    return SeatDifference(
        end.scores[seat] - base.scores[seat],
        relative(end.scores, seat, active) - relative(base.scores, seat, active),
        (end.winner == seat) - (base.winner == seat),
        _lost(end, seat) - _lost(base, seat),
    )


def duplicate_deal(setup: Setup, k: int) -> DealResult:
    """Deal ``k``'s differences, A's score change less B's in each seat (``duplicate_plays``)."""
    timing = Timing()
    start, base, active, ends = duplicate_plays(setup, k, timing)
    differences = [seat_difference(end, base, seat, active) for seat, end in ends.items()]
    a_own = [end.scores[seat] - start.scores[seat] for seat, end in ends.items()]
    a_rel = [
        relative(end.scores, seat, active) - relative(start.scores, seat, active)
        for seat, end in ends.items()
    ]
    return DealResult(
        statistics.mean(d.own for d in differences),
        statistics.mean(d.relative for d in differences),
        timing.seconds,
        statistics.mean(a_own),
        statistics.mean(a_rel),
        statistics.mean(d.won for d in differences),
        statistics.mean(d.lost for d in differences),
    )


def _lost(end: MatchState, seat: int) -> bool:
    """Whether the match ended won by a seat other than ``seat``."""
    return end.winner is not None and end.winner != seat


def relative(scores: Sequence[int], seat: int, active: Sequence[int]) -> float:
    """``seat``'s score less the mean score of the other playing seats."""
    others = [scores[s] for s in active if s != seat]
    return scores[seat] - sum(others) / len(others)


def full_match(setup: Setup, m: int) -> MatchResult:
    """Match ``m``: A in seat ``m mod players``, B in the others."""
    a, b = _agents(setup)
    rules = setup.rules
    seat = m % rules.players
    agents: list[Agent] = [b] * rules.players
    agents[seat] = a
    timing = Timing()

    def deal_for(state: MatchState, k: int) -> Deal:
        return shuffled_deal(state, f"strength/{rules.game.value}/match/{m}/{k}")

    end = play_match(
        rules, agents, f"strength/match/{m}", setup.budget, timing, deal_for=deal_for,
        scores=setup.scores,
    )
    return MatchResult(end.winner == seat, end.deals, timing.seconds)


def bootstrap(values: Sequence[float], resamples: int, seed: str) -> tuple[float, float]:
    """The 95% percentile interval of the mean, resampling ``values``."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0 < q < 1), the nearest rank at or above it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _merge(into: dict[str, list[float]], times: dict[str, list[float]]) -> None:
    for name, xs in times.items():
        into.setdefault(name, []).extend(xs)


def _run_deal(job: tuple[Setup, int]) -> DealResult:
    return duplicate_deal(*job)


def _run_match(job: tuple[Setup, int]) -> MatchResult:
    return full_match(*job)


def add_setup_options(parser: argparse.ArgumentParser) -> None:
    """The options that make a ``Setup`` (``setup_of``), but the budget: the game, the
    players, A, B, the scores and the scale."""
    parser.add_argument("--game", choices=sorted(GAMES), default="thousand")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument(
        "--a", type=level_spec, default="hard", help="the agent measured (LEVEL or LEVEL@COMMIT)"
    )
    parser.add_argument(
        "--b", type=level_spec, default="easy", help="the reference agent (LEVEL or LEVEL@COMMIT)"
    )
    parser.add_argument(
        "--scores",
        type=int,
        nargs="+",
        metavar="SCORE",
        help="the match scores, by seat, every duplicate deal and match starts from (default 0)",
    )
    parser.add_argument("--scale", type=float, default=1.0, help="search work multiplier")


def setup_of(parser: argparse.ArgumentParser, args: argparse.Namespace, budget: float) -> Setup:
    """The set-up that ``add_setup_options``' options give, at ``budget``; ``--scores``
    needs one score per seat."""
    rules = preset(GAMES[args.game], args.players)
    scores = None if args.scores is None else tuple(args.scores)
    if scores is not None and len(scores) != rules.players:
        parser.error(f"--scores needs {rules.players} scores, one per seat")
    return Setup(rules, args.a, args.b, args.scale, budget, scores)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Strength of the computer players (duplicate deals and full matches)."
    )
    add_setup_options(parser)
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals")
    parser.add_argument("--matches", type=int, default=0, help="full matches of A against B")
    parser.add_argument(
        "--paired",
        action="store_true",
        help="also play each match with B in every seat and pair the two by match",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET,
        help="seconds per decision that fix the search work",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=10000)
    parser.add_argument(
        "--progress",
        metavar="FILE",
        help="append each result to FILE as it ends; play only what FILE does not hold yet",
    )
    parser.add_argument("--write-deals", metavar="FILE", help="write the deal set in the notation")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write A's score changes per duplicate deal (JSON) for a later --against",
    )
    parser.add_argument(
        "--against",
        metavar="FILE",
        help="compare A with the A of a --record run on the same deals (another commit's code)",
    )
    parser.add_argument(
        "--timing-deals",
        type=int,
        default=0,
        help="also time the default agent A (clock on) on this many deals",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        help="during the timing run, this many busy processes share its core",
    )
    args = parser.parse_args(argv)
    setup = setup_of(parser, args, args.budget)
    rules, scores = setup.rules, setup.scores
    if args.paired and not args.matches:
        parser.error("--paired pairs full matches: give --matches N")
    command = "python -m benchmarks.strength " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"`{command}`\n")
    print(
        f"game {rules.game.value}, {rules.players} players; A = {args.a}, B = {args.b}; "
        f"search scale {args.scale}, budget {args.budget} s, clock off\n"
    )
    if args.deals:
        text = deal_set_text(rules, args.deals)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        print(
            f"duplicate deals: `shuffle strength/{rules.game.value}/k` dealt by seat k mod "
            f"{rules.players}, k < {args.deals}; SHA-256 of the set {digest}"
            + ("" if scores is None else f"; from the scores {' '.join(map(str, scores))}")
            + "\n"
        )
        if args.write_deals:
            with open(args.write_deals, "w", encoding="utf-8") as file:
                file.write(text)
    progress = Progress(args.progress, setup)
    times: dict[str, list[float]] = {}
    rows: list[str] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        if args.deals:
            todo = [k for k in range(args.deals) if k not in progress.deals]
            jobs = [(setup, k) for k in todo]
            for k, result in zip(todo, pool.map(_run_deal, jobs), strict=True):
                progress.add_deal(k, result)
            results = [progress.deals[k] for k in range(args.deals)]
            for r in results:
                _merge(times, r.times)
            own = [r.own for r in results]
            rel = [r.relative for r in results]
            lo, hi = bootstrap(own, args.bootstrap, "own")
            rlo, rhi = bootstrap(rel, args.bootstrap, "relative")
            rows.append(
                f"| {args.a} − {args.b}, points per deal (own) | {args.deals} deals | "
                f"{statistics.mean(own):+.1f} | [{lo:+.1f}, {hi:+.1f}] |"
            )
            rows.append(
                f"| {args.a} − {args.b}, points per deal (relative) | {args.deals} deals | "
                f"{statistics.mean(rel):+.1f} | [{rlo:+.1f}, {rhi:+.1f}] |"
            )
            if scores is not None:
                rows += _match_rows(args.a, args.b, results, args.bootstrap)
            if args.record:
                _write_record(args.record, digest, scores, results)
            if args.against:
                rows += _against(args.against, setup, results, args.bootstrap)
        if args.matches:
            runs = [progress]
            if args.paired:
                runs.append(Progress(args.progress, setup._replace(a=args.b)))
            missing = [
                (run, m) for m in range(args.matches) for run in runs if m not in run.matches
            ]
            jobs = [(run.setup, m) for run, m in missing]
            for (run, m), played in zip(missing, pool.map(_run_match, jobs), strict=True):
                run.add_match(m, played)
            matches = [progress.matches[m] for m in range(args.matches)]
            for mr in matches:
                _merge(times, mr.times)
            won = sum(mr.won for mr in matches)
            deals = statistics.mean(mr.deals for mr in matches)
            lo, hi = _wilson(won, len(matches))
            rows.append(
                f"| {args.a} vs {rules.players - 1} × {args.b}, matches won by {args.a} | "
                f"{len(matches)} matches "
                f"(mean {deals:.1f} deals) | {won / len(matches):.1%} | "
                f"[{lo:.1%}, {hi:.1%}] |"
            )
            if args.paired:
                baseline = [runs[1].matches[m] for m in range(args.matches)]
                rows += _paired_rows(args.a, args.b, matches, baseline, args.bootstrap)
    elapsed = time.perf_counter() - started
    print("| measure | sample | result | 95% interval |")
    print("|---|---|---|---|")
    for row in rows:
        print(row)
    print()
    print("| agent | decisions timed | p50 | p99 | max |")
    print("|---|---|---|---|---|")
    for name, xs in sorted(times.items()):
        print(
            f"| {name} (benchmark work) | {len(xs)} | {percentile(xs, 0.5) * 1000:.0f} ms | "
            f"{percentile(xs, 0.99) * 1000:.0f} ms | {max(xs) * 1000:.0f} ms |"
        )
    if args.timing_deals:
        xs = _timing_run(rules, args.a, args.timing_deals, args.busy, scores)
        print(
            f"| {args.a} (default: budget {DEFAULT_BUDGET} s, clock on, 1 process"
            f"{f', {args.busy} busy beside it' if args.busy else ''}) | "
            f"{len(xs)} | {percentile(xs, 0.5) * 1000:.0f} ms | "
            f"{percentile(xs, 0.99) * 1000:.0f} ms | {max(xs) * 1000:.0f} ms |"
        )
    print(f"\nwall time {elapsed / 60:.1f} min with {args.workers} workers")


def _match_rows(a: str, b: str, results: Sequence[DealResult], resamples: int) -> list[str]:
    """How often the deal ends the match, for the seat and against it, A − B per 100 deals
    (duplicate deals from scores near the end of a match)."""
    rows = []
    for key, what in (("won", "won by the seat"), ("lost", "won by another seat")):
        values = [100 * getattr(r, key) for r in results]
        lo, hi = bootstrap(values, resamples, f"match/{key}")
        rows.append(
            f"| {a} − {b}, matches {what} in the deal, per 100 deals | {len(values)} deals | "
            f"{statistics.mean(values):+.1f} | [{lo:+.1f}, {hi:+.1f}] |"
        )
    return rows


def _paired_rows(
    a: str,
    b: str,
    matches: Sequence[MatchResult],
    baseline: Sequence[MatchResult],
    resamples: int,
) -> list[str]:
    """Rows pairing each match won or lost by A's seat with the same match played with B
    in that seat (and B in the others)."""
    n = len(matches)
    b_won = sum(r.won for r in baseline)
    diff = [100 * (r.won - s.won) for r, s in zip(matches, baseline, strict=True)]
    only_a, only_b = diff.count(100), diff.count(-100)
    lo, hi = _wilson(b_won, n)
    dlo, dhi = bootstrap(diff, resamples, "paired")
    return [
        f"| {b} in the same seat of the same matches, matches won | {n} matches | "
        f"{b_won / n:.1%} | [{lo:.1%}, {hi:.1%}] |",
        f"| {a} − {b} in the same seat, matches won per 100 "
        f"({only_a} won only by {a}, {only_b} only by {b}) | {n} matches | "
        f"{statistics.mean(diff):+.1f} | [{dlo:+.1f}, {dhi:+.1f}] |",
    ]


def _write_record(
    path: str, digest: str, scores: tuple[int, ...] | None, results: Sequence[DealResult]
) -> None:
    record = {
        "deals": digest,
        "scores": scores,
        "a_own": [r.a_own for r in results],
        "a_relative": [r.a_relative for r in results],
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(record, file)


def _against(
    path: str, setup: Setup, results: Sequence[DealResult], resamples: int
) -> list[str]:
    """Rows comparing this run's A with a recorded run's A, paired by deal (on the first
    deals of the recorded set when this run played fewer)."""
    with open(path, encoding="utf-8") as file:
        record = json.load(file)
    recorded = len(record["a_own"])
    digest = hashlib.sha256(deal_set_text(setup.rules, recorded).encode()).hexdigest()[:16]
    scores = record.get("scores")  # recordings made before --scores started from 0
    same_scores = (None if scores is None else tuple(scores)) == setup.scores
    if record["deals"] != digest or not same_scores or recorded < len(results):
        raise SystemExit(f"{path} was recorded on another deal set")
    a = setup.a
    rows = []
    for key in ("a_own", "a_relative"):
        diff = [getattr(r, key) - old for r, old in zip(results, record[key], strict=False)]
        lo, hi = bootstrap(diff, resamples, f"against/{key}")
        label = "own" if key == "a_own" else "relative"
        rows.append(
            f"| {a} (this code) − {a} (recorded), points per deal ({label}) | "
            f"{len(diff)} deals | {statistics.mean(diff):+.2f} | [{lo:+.2f}, {hi:+.2f}] |"
        )
    return rows


def _timing_run(
    rules: Rules, level: str, deals: int, busy: int = 0, scores: tuple[int, ...] | None = None
) -> list[float]:
    """Decision times of the default agent of ``level`` in every seat, in this process (on one
    core where the system allows pinning), with ``busy`` spinning processes on that core; each
    deal starts from ``scores`` (``None``: all 0)."""
    core: set[int] | None = None
    if hasattr(os, "sched_setaffinity"):
        core = {min(os.sched_getaffinity(0))}
        os.sched_setaffinity(0, core)
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)
    ]
    try:
        if core is not None:
            for spinner in spinners:
                os.sched_setaffinity(spinner.pid, core)
        agent = make_agent(level)
        timing = Timing()
        for k in range(deals):
            start = new_match(rules, scores)
            deal = shuffled_deal(start, f"strength/timing/{k}", dealer=k % rules.players)
            play_deal(start, deal, [agent] * rules.players, f"timing/{k}", DEFAULT_BUDGET, timing)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    return timing.seconds.get(agent.name, [0.0])


def _wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion."""
    z = 1.96
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


if __name__ == "__main__":
    main()
