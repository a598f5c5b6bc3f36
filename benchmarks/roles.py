"""Where A's points over B come from in the duplicate deals of ``benchmarks.strength``: each
seat's difference put under what the seat did in its two plays of the deal.

    python -m benchmarks.roles --game thousand --deals 600 --a hard --b hard@992cddb --workers 2

The deals, seeds and plays are ``benchmarks.strength``'s (``duplicate_plays``): B in every
seat, then A in each playing seat in turn. A seat's difference (A's score change less B's in
that seat, own and relative) goes under one role, by who declared in the two plays and at
what contract:

- *defends in both*: another seat (or none) declared in both plays;
- *declares in both, the opening bid*: the seat declared at the same contract in both, the
  game's opening bid (in Тысяча the hundred the seat after the dealer is forced to);
- *declares in both, the same contract above it*;
- *declares in both, other contracts*: the contract named (or bid) differs;
- *declares only with A*, *declares only with B*.

Each role's row is its share of the strength benchmark's figure: the sum over the role's
seats of the differences, divided by the playing seats, averaged over the deals, with a 95 %
bootstrap interval (resampling deals). The rows add up to ``benchmarks.strength``'s own and
relative figures for the same deals and agents. Two more columns count the matches the
role's seats won, and the matches won by another seat, per 100 deals (A's less B's, as
``benchmarks.strength``'s rows of matches): from ``--scores`` near a match's end, points and
matches can disagree (the barrel player who names the barrel contract where B raised wins
the same match with fewer points). "Changed" counts the role's seats whose own
difference is not 0: between near-equal players most of a role's seats score exactly alike,
and its share is a few flips of a contract made or failed.

``--by-seat`` splits every role by the seat: with ``--scores 880 0 0`` seat 0 is on the
barrel in every deal, so its rows are the barrel player's and the others' are the seats
bidding and defending against it.

``--scores`` starts every deal from those match scores (the deals near a match's end: the
barrel, the golden round). ``--progress FILE`` appends each deal's seats (role and
differences) as it ends and plays only the deals FILE does not hold for the same
set-up. Both are as in ``benchmarks.strength``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from benchmarks.strength import (
    Setup,
    add_setup_options,
    bootstrap,
    duplicate_plays,
    seat_difference,
    setup_key,
    setup_of,
)
from engine.ai.agent import DEFAULT_BUDGET
from engine.ai.arena import Timing
from engine.games import variant_of
from engine.state import MatchState

DEFENDS = "defends in both"
AT_OPENING_BID = "declares in both, the opening bid"
SAME_CONTRACT = "declares in both, the same contract above it"
OTHER_CONTRACTS = "declares in both, other contracts"
ONLY_A = "declares only with A"
ONLY_B = "declares only with B"
ROLES = (DEFENDS, AT_OPENING_BID, SAME_CONTRACT, OTHER_CONTRACTS, ONLY_A, ONLY_B)


class SeatRole(NamedTuple):
    """One seat's part of one deal: its role, and its differences divided by the playing
    seats: own and relative points, the match won by the seat (1 with A only, −1 with B
    only) and won by another seat."""

    seat: int
    role: str
    own: float
    relative: float
    won: float
    lost: float


class Share(NamedTuple):
    """One role's part of one deal: its seats, those whose own difference is not 0, and the
    sums of their differences divided by the playing seats."""

    seats: int
    changed: int
    own: float
    relative: float
    won: float
    lost: float


_NONE = Share(0, 0, 0.0, 0.0, 0.0, 0.0)


def role_of(seat: int, with_a: MatchState, with_b: MatchState, opening_bid: int) -> str:
    """What ``seat`` did in the deal played with A in it and with B in it."""
    a, b = with_a.deal, with_b.deal
    a_declares = a is not None and a.declarer == seat
    b_declares = b is not None and b.declarer == seat
    if not (a_declares or b_declares):
        return DEFENDS
    if not b_declares:
        return ONLY_A
    if not a_declares:
        return ONLY_B
    assert a is not None and b is not None
    if a.contract != b.contract:
        return OTHER_CONTRACTS
    return AT_OPENING_BID if a.contract == opening_bid else SAME_CONTRACT


def deal_roles(job: tuple[Setup, int]) -> list[SeatRole]:
    """Deal ``k``'s differences, seat by seat, with each seat's role."""
    setup, k = job
    _, base, active, ends = duplicate_plays(setup, k, Timing())
    opening_bid = variant_of(setup.rules).opening_bid
    n = len(active)
    return [
        SeatRole(
            seat,
            role_of(seat, end, base, opening_bid),
            *(d / n for d in seat_difference(end, base, seat, active)),
        )
        for seat, end in ends.items()
    ]


def row_name(role: str, seat: int, by_seat: bool) -> str:
    """The report's row a seat's part goes under: its role, or its role and seat."""
    return f"{role}, seat {seat}" if by_seat else role


def shares(parts: Sequence[SeatRole], by_seat: bool = False) -> dict[str, Share]:
    """One deal's parts summed by row (rows with no seat left out)."""
    found: dict[str, Share] = {}
    for part in parts:
        name = row_name(part.role, part.seat, by_seat)
        share = found.get(name, _NONE)
        found[name] = Share(
            share.seats + 1,
            share.changed + (part.own != 0),
            share.own + part.own,
            share.relative + part.relative,
            share.won + part.won,
            share.lost + part.lost,
        )
    return found


def table(deals: Sequence[Sequence[SeatRole]], resamples: int, by_seat: bool = False) -> list[str]:
    """The report's rows (markdown): each role's share (or each role's and seat's), then all
    of them."""
    rows = [
        "| role | seats | changed | own, points per deal | relative "
        "| matches won, per 100 deals | won by another seat |",
        "|---|---|---|---|---|---|---|",
    ]
    summed = [shares(d, by_seat) for d in deals]
    names = list(ROLES)
    if by_seat:
        seats = sorted({p.seat for d in deals for p in d})
        names = [row_name(role, seat, by_seat) for role in ROLES for seat in seats]
    for name in names:
        rows.append(_row(name, [d.get(name, _NONE) for d in summed], resamples))
    every = [Share(*map(sum, zip(*d.values(), strict=True))) if d else _NONE for d in summed]
    rows.append(_row("all", every, resamples))
    return rows


def _row(name: str, parts: Sequence[Share], resamples: int) -> str:
    own = [p.own for p in parts]
    rel = [p.relative for p in parts]
    lo, hi = bootstrap(own, resamples, "own")
    rlo, rhi = bootstrap(rel, resamples, "relative")
    return (
        f"| {name} | {sum(p.seats for p in parts)} | {sum(p.changed for p in parts)} | "
        f"{sum(own) / len(own):+.2f} [{lo:+.2f}, {hi:+.2f}] | "
        f"{sum(rel) / len(rel):+.2f} [{rlo:+.2f}, {rhi:+.2f}] | "
        f"{100 * sum(p.won for p in parts) / len(parts):+.2f} | "
        f"{100 * sum(p.lost for p in parts) / len(parts):+.2f} |"
    )


def _done(path: str | None, key: str) -> dict[int, list[SeatRole]]:
    if path is None or not os.path.exists(path):
        return {}
    found = {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            row = json.loads(line)
            if row["setup"] == key:
                found[row["deal"]] = [SeatRole(*part) for part in row["seats"]]
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Where A's points over B come from, by the seat's role in the deal."
    )
    add_setup_options(parser)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=2000)
    parser.add_argument("--progress", metavar="FILE")
    parser.add_argument("--by-seat", action="store_true", help="split every role by the seat")
    args = parser.parse_args(argv)
    setup = setup_of(parser, args, DEFAULT_BUDGET)
    key = setup_key(setup)
    done = _done(args.progress, key)
    todo = [k for k in range(args.deals) if k not in done]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for k, parts in zip(todo, pool.map(deal_roles, [(setup, k) for k in todo]), strict=True):
            done[k] = parts
            if args.progress is not None:
                row = {"setup": key, "deal": k, "seats": [list(p) for p in parts]}
                with open(args.progress, "a", encoding="utf-8") as file:
                    file.write(json.dumps(row) + "\n")
    command = "python -m benchmarks.roles " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"`{command}`\n")
    for line in table([done[k] for k in range(args.deals)], args.bootstrap, args.by_seat):
        print(line)


if __name__ == "__main__":
    main()
