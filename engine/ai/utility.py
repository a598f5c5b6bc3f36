"""What a finished deal is worth to a seat: the score changes and the match around them.

The computer players compare moves by the utility of the deal's end, not by card points:
a declarer's points matter only against the contract, a barrel (Тысяча) or tumbochka
(Тумбочка) player's score does not move except by winning or falling, and a deal that wins
the match is worth more than any score. ``changes`` reproduces the engine's scoring of a
played deal closely enough to rank moves (rules §1.6–1.7, §2, §3.3–3.4); the few things it
leaves out (the −1000 end, settlement) do not change which move is better.

The utility of seat ``i`` is ``change[i] − RIVALRY · mean(change[j])`` over the other
playing seats, plus ``WIN_BONUS`` for winning the match in this deal. ``RIVALRY`` below 1
makes a player care more about its own score than about the others' (the benchmark
measures own scores) while still defending against a declarer.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.games.base import round_points
from engine.rules import Game, Rules
from engine.view import SeatView

RIVALRY: Final = 0.25
WIN_BONUS: Final = {Game.THOUSAND: 300.0, Game.THOUSAND_ONE: 300.0, Game.TUMBOCHKA: 20.0}
BOLT_PENALTY: Final = 120
BOLT_FUTURE_COST: Final = 15
"""A bolt that does not yet cost 120 still brings the penalty closer."""
FALL_PENALTY: Final = 120
TUMBOCHKA_SEAT: Final = 20
TUMBOCHKA_SITTING_VALUE: Final = 4.0
"""Reaching the tumbochka is worth about this many tricks: three tries to win the match."""


class DealContext(NamedTuple):
    """What the utility needs to know about the match around one deal."""

    rules: Rules
    active: tuple[int, ...]
    declarer: int
    contract: int
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    perch: int | None
    perch_attempts: int
    deals: int
    bagels: tuple[int, ...]
    falls: tuple[int, ...]


def context_of(
    view: SeatView, declarer: int | None = None, contract: int | None = None
) -> DealContext:
    """The context of ``view``'s deal; ``declarer``/``contract`` override (for bidding)."""
    d = view.declarer if declarer is None else declarer
    assert d is not None
    return DealContext(
        rules=view.rules,
        active=view.active,
        declarer=d,
        contract=view.contract if contract is None else contract,
        scores=view.scores,
        bolts=view.bolts,
        perch=view.perch,
        perch_attempts=view.perch_attempts,
        deals=view.deals,
        bagels=view.bagels,
        falls=(0,) * len(view.scores),
    )


def changes(ctx: DealContext, points: list[int], won: list[int]) -> tuple[list[float], int | None]:
    """Each seat's score change for a deal played out with these points, and the seat that
    wins the match by it (if any)."""
    game = ctx.rules.game
    if game is Game.THOUSAND:
        return _thousand(ctx, points, won)
    if game is Game.TUMBOCHKA:
        return _tumbochka(ctx, points)
    return _thousand_one(ctx, points)


def utility(ctx: DealContext, seat: int, points: list[int], won: list[int]) -> float:
    delta, winner = changes(ctx, points, won)
    return seat_utility(ctx, seat, delta, winner)


def seat_utility(ctx: DealContext, seat: int, delta: list[float], winner: int | None) -> float:
    others = [s for s in ctx.active if s != seat]
    value = delta[seat] - RIVALRY * sum(delta[s] for s in others) / max(1, len(others))
    if winner is not None:
        bonus = WIN_BONUS[ctx.rules.game]
        value += bonus if winner == seat else -bonus * RIVALRY / max(1, len(others))
    return value


def _thousand(
    ctx: DealContext, points: list[int], won: list[int]
) -> tuple[list[float], int | None]:
    rules = ctx.rules
    n = len(ctx.scores)
    delta = [0.0] * n
    d, contract = ctx.declarer, ctx.contract
    made = points[d] >= contract
    mult = 2 if rules.golden_round and ctx.deals <= 3 else 1
    barrel = ctx.perch
    winner: int | None = None
    if barrel is not None and d == barrel:
        exact = rules.target - (rules.barrel or 0)
        if made:
            delta[d] = contract * mult
            winner = d
        elif contract > exact:
            delta[d] = -contract * mult
        elif ctx.perch_attempts + 1 >= 3:
            delta[d] = -FALL_PENALTY * mult
        return delta, winner
    delta[d] = (contract if made else -contract) * mult
    for s in ctx.active:
        if s == barrel:
            continue
        if s != d:
            delta[s] = round_points(points[s], rules.rounding) * mult
        if rules.bolts and not won[s]:
            delta[s] -= BOLT_PENALTY * mult if ctx.bolts[s] == 2 else BOLT_FUTURE_COST
    if barrel is not None and ctx.perch_attempts + 1 >= 3:
        delta[barrel] -= FALL_PENALTY * mult
    if rules.barrel is None:
        if made and ctx.scores[d] + delta[d] >= rules.target:
            winner = d
        return delta, winner
    if made and ctx.scores[d] + delta[d] >= rules.target:
        return delta, d
    climbers = [s for s in ctx.active if s != barrel and ctx.scores[s] + delta[s] >= rules.barrel]
    for s in climbers:
        delta[s] = rules.barrel - ctx.scores[s]
        if len(climbers) > 1:
            delta[s] -= FALL_PENALTY
    if climbers and barrel is not None:
        delta[barrel] -= FALL_PENALTY
    if rules.dump_truck:
        for s in ctx.active:
            if abs(ctx.scores[s] + delta[s]) == 555:
                delta[s] = -ctx.scores[s]
    return delta, winner


def _thousand_one(ctx: DealContext, points: list[int]) -> tuple[list[float], int | None]:
    rules = ctx.rules
    delta = [0.0] * len(ctx.scores)
    d, contract = ctx.declarer, ctx.contract
    delta[d] = contract if points[d] >= contract else -contract
    for s in ctx.active:
        if s != d:
            delta[s] = round_points(points[s], rules.rounding)
    final = [sc + dl for sc, dl in zip(ctx.scores, delta, strict=True)]
    best = max(final)
    winner = None
    if best >= 1001:
        winner = d if final[d] == best else final.index(best)
    return delta, winner


def _tumbochka(ctx: DealContext, points: list[int]) -> tuple[list[float], int | None]:
    n = len(ctx.scores)
    delta = [0.0] * n
    d, contract = ctx.declarer, ctx.contract
    made = points[d] >= contract
    sitter = ctx.perch
    delta[d] = contract if made else -contract
    for s in ctx.active:
        if s != d:
            delta[s] = points[s]
    winner: int | None = None
    if sitter is not None:
        delta[sitter] = 0.0
        if d == sitter and made:
            return delta, sitter
    climbers = [s for s in ctx.active if s != sitter and ctx.scores[s] + delta[s] >= TUMBOCHKA_SEAT]

    def fall(s: int) -> None:
        delta[s] = (10 if not ctx.falls[s] else 0) - ctx.scores[s]

    if len(climbers) == 1:
        (c,) = climbers
        delta[c] = TUMBOCHKA_SEAT - ctx.scores[c] + TUMBOCHKA_SITTING_VALUE
        if sitter is not None:
            fall(sitter)
        if ctx.bagels[c]:
            winner = c
    elif climbers:
        for s in climbers:
            fall(s)
        if sitter is not None:
            fall(sitter)
    elif sitter is not None and ctx.perch_attempts + 1 >= 3:
        fall(sitter)
    return delta, winner


def concede_changes(ctx: DealContext) -> list[float]:
    """Score changes when the declarer concedes (rules §1.4, fine points 5, 6, 16)."""
    rules = ctx.rules
    delta = [0.0] * len(ctx.scores)
    d, contract = ctx.declarer, ctx.contract
    mult = 2 if rules.golden_round and ctx.deals <= 3 else 1
    if d == ctx.perch:
        exact = rules.target - (rules.barrel or 0)
        if contract > exact:
            delta[d] = -contract * mult
        elif ctx.perch_attempts + 1 >= 3:
            delta[d] = -FALL_PENALTY * mult
        return delta
    if rules.concede_penalty:
        delta[d] = -contract * mult
    elif rules.bolts:
        delta[d] = -(BOLT_PENALTY * mult if ctx.bolts[d] == 2 else BOLT_FUTURE_COST)
    half = -(-contract // 10) * 5
    for s in ctx.active:
        if s != d and s != ctx.perch:
            delta[s] = half * mult
    return delta


def throw_changes(ctx: DealContext, without_contract: bool) -> list[float]:
    """Score changes when the declarer throws the cards (Тысяча одно, fine point 21)."""
    delta = [0.0] * len(ctx.scores)
    if without_contract:
        for s in ctx.active:
            if s != ctx.declarer:
                delta[s] = 50.0
    else:
        delta[ctx.declarer] = -float(ctx.contract)
    return delta
