"""What a finished deal is worth to a seat: the score changes and the match around them.

The computer players compare moves by the utility of the deal's end, not by card points:
a declarer's points matter only against the contract, a barrel (Тысяча) or tumbochka
(Тумбочка) player's score does not move except by winning or falling, and a deal that wins
the match is worth more than any score. The score changes are the engine's own scoring of
the deal's end (``engine.outcomes``); to them the utility adds only what a score does not
show yet (a bolt's future penalty, a seat on the tumbochka).

The utility of seat ``i`` is ``change[i] − RIVALRY · mean(change[j])`` over the other
playing seats, plus ``WIN_BONUS`` for winning the match in this deal. ``RIVALRY`` below 1
makes a player care more about its own score than about the others' (the benchmark
measures own scores) while still defending against a declarer. Another seat's match win
counts as a rival's gain too: ``RIVALRY`` of its share of ``WIN_BONUS``. Counting it as
zero-sum (each loser ``WIN_BONUS / (n − 1)``, which is right when the chances are even)
made the barrel's opponents outbid it more often, but they did not stop more barrels, and
they lost points (``benchmarks/README.md``, issue 16, session 19). Where another seat can
win in the deal, the others' chances of the match are far below even, and so is what its
end takes from them. Pricing it by each loser's own chance ``p`` (``WIN_BONUS · p / (1 −
p)``, ``p`` fitted on played matches by ``benchmarks/match_chances.py``: −8 for a seat at 0
against the barrel, −67 for one at 650) let the barrel player win more often where the
others' chances were small, and lost points as well (session 20). Valuing the deals near
the match's end wholly in those chances (Тысяча deals that start with a seat on the barrel
or a score of 700 or more: each seat's chance gained, divided by what a point of its own
score is worth in chance at the deal's start) won 52 of 150 full matches against two of the
issue's `hard` where these points won 46 (12 matches won only with the chances, 6 only
without), and lost 10 points per deal from 880 650 500 and from 880 0 0, where the seats far
behind outbid the barrel and fell to stop it (session 21). Valued so from the first deal,
it seeks risk: below an even chance a seat's chance grows faster than its score.

What the match makes of a score the engine's scoring already shows (the golden round's
doubling, the third bolt's −120, the dump truck at ±555, the −1000 end, the barrel's and
the tumbochka's falls); the utility adds the seat on the barrel or the tumbochka
(``SITTING_VALUE``: the tries left at the match win), gained by climbing and lost by
falling, so that a raise on the barrel risks the match and not only the contract, and a
bolt's share of the next −120. The seat is worth its chance of winning in the tries it has
left (each won at ``TRY_CHANCE``) over its chance in all of them: a deal that uses a try
without a fall (another seat declares, or the barrel contract fails or is conceded) costs
the difference, and a fall costs what was left. So a void deal, which keeps the try, is
worth more to the seat on the barrel than a failed attempt.

When the seat on the barrel (Тысяча) chooses its own bid, gifts and contract (``staked``),
its tries are worth what they are: its chance of the match in them at the match's stake (the
win and the barrel contract's points, ``perch_stake``), and a win now cashes that chance
(the tumbochka keeps ``SITTING_VALUE``: ``perch_stake`` says why). Priced at
``SITTING_VALUE`` beside a win worth ``WIN_BONUS`` now, the seat answered a 130 over its 121
on its first try with 135 whenever its playouts made that three times in ten; from 880 650
500 such bids were made in 4 of 10 deals and fell in 6. Priced at the stake, the bid pays
only when it is made about three times in four, since the tries left win the match nine
times in ten; on the last try, where a pass falls as well, nearly always. The card play
keeps ``SITTING_VALUE`` (its margins are set in points of a deal), and so do the other seats
when they value the barrel player's fall.

A defender a few points from the dump truck (555) is wary of it. The search foresees its
own points from a model of the others' plays, and they are not that model: a partner who
smears an ace onto its trick, or a declarer who throws one there, gains from its fall (the
rivalry share). From 500 500 500 the search player's defenders ended on 555 in 19 of 336
defences, the issue's `hard` in the same seats in 9 (``benchmarks/README.md``, issue 16,
session 33). So in the card play an end within ``CLIFF_MARGIN`` points of one that costs
``CLIFF_DROP`` or more is worth ``CLIFF_SHARE`` of that fall less (``wary_utility``): the
defender keeps clear of the window instead of passing close by it.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.events import BoltGiven, Fell, Mounted
from engine.games import tumbochka
from engine.games.thousand import BARREL_ATTEMPTS, DUMP_TRUCK, barrel_contract
from engine.outcomes import Settlement, around, settle
from engine.rules import Game, Rules
from engine.state import Outcome
from engine.table import Table
from engine.view import SeatView

RIVALRY: Final = 0.25
WIN_BONUS: Final = {Game.THOUSAND: 400.0, Game.THOUSAND_ONE: 300.0, Game.TUMBOCHKA: 20.0}
"""The match won in this deal, beyond the deal's score change."""
BOLT_STEP_COST: Final = 20
"""A bolt that does not yet cost 120 brings the penalty closer: this much per bolt held
after it (the second of three costs twice the first)."""
SITTING_VALUE: Final = {Game.THOUSAND: 80.0, Game.THOUSAND_ONE: 0.0, Game.TUMBOCHKA: 4.0}
"""A seat on the barrel (Тысяча) or the tumbochka is worth about this much beyond its
score: the tries left at the match win. Climbing gains it, falling loses it."""
TRIES: Final = {Game.THOUSAND: BARREL_ATTEMPTS, Game.TUMBOCHKA: tumbochka.ATTEMPTS}
"""The tries a seat has on the barrel or the tumbochka."""
TRY_CHANCE: Final = 0.7
"""About how often a try wins the match: from 880 0 0 the player on the barrel declared and
made its contract in about 70 % of deals (``benchmarks/README.md``, issue 16, session 31);
the tumbochka's is taken to be the same."""
CLIFF_MARGIN: Final = 10
"""How far (card points) a defender's own points may end from what the search foresees."""
CLIFF_SHIFTS: Final = (-CLIFF_MARGIN, -CLIFF_MARGIN // 2, CLIFF_MARGIN // 2, CLIFF_MARGIN)
"""The own points, off from an end's, at which the utility is looked at for a cliff."""
CLIFF_DROP: Final = 200.0
"""A fall of the utility this large within ``CLIFF_MARGIN`` is a cliff (the dump truck's
−555; a deal's ordinary ends differ by a few dozen)."""
CLIFF_SHARE: Final = 0.3
"""The share of a cliff's fall an end near it is worth less."""
DUMP_REACH: Final = 300
"""A defender this far below the dump truck or closer may end a deal on it."""
_PLAYED, _CONCEDED, _THROWN = Outcome.PLAYED, Outcome.CONCEDED, Outcome.THROWN


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
    table: Table
    """The deal as the engine scores it (``engine.outcomes``)."""
    memo: dict[tuple[int, ...], tuple[list[float], int | None]]
    """Ends already valued (playouts often end alike), shared by ``_replace`` copies."""
    wary: tuple[bool, ...]
    """By seat: a defender close enough below the dump truck to be wary of it."""
    stake: float
    """What the seat on the barrel values its tries at when it decides its own bid, gift or
    contract (``perch_stake``); 0 where ``SITTING_VALUE`` prices them."""


def context_of(
    view: SeatView,
    declarer: int | None = None,
    contract: int | None = None,
    *,
    staked: bool = False,
) -> DealContext:
    """The context of ``view``'s deal; ``declarer``/``contract`` override (for bidding).
    ``staked``: when ``view``'s seat sits on the barrel, it values its own tries at the
    match's stake (the bidding, the gifts and the contract)."""
    d = view.declarer if declarer is None else declarer
    assert d is not None
    named = view.contract if contract is None else contract
    # A view does not show falls: every fall counts as a first one.
    falls = (0,) * len(view.scores)
    table = around(
        view.rules,
        view.active,
        declarer=d,
        contract=named,
        scores=view.scores,
        bolts=view.bolts,
        perch=view.perch,
        perch_attempts=view.perch_attempts,
        deals=view.deals,
        bagels=view.bagels,
        falls=falls,
    )
    dump = view.rules.game is Game.THOUSAND and view.rules.dump_truck
    wary = tuple(
        dump and seat != d and 0 < DUMP_TRUCK - score <= DUMP_REACH
        for seat, score in enumerate(view.scores)
    )
    stake = perch_stake(view.rules) if staked and view.seat == view.perch else 0.0
    return DealContext(
        view.rules, view.active, d, named, view.scores, view.bolts, view.perch,
        view.perch_attempts, view.deals, view.bagels, falls, table, {}, wary, stake,
    )


def perch_stake(rules: Rules) -> float:
    """What the match's win is worth to the seat on the barrel beyond its score (the win and
    the barrel contract's points); 0 without a barrel. On the tumbochka every deal uses a try
    whatever the seat bids, so there the chance of a try is the seat's own bidding, which one
    ``TRY_CHANCE`` does not describe: priced so, the seat on the tumbochka declared in 5 of
    48 deals from 20 0 0 fewer than before. Its tries keep ``SITTING_VALUE``."""
    exact = barrel_contract(rules) if rules.game is Game.THOUSAND else None
    return 0.0 if exact is None else WIN_BONUS[rules.game] + exact


def changes(ctx: DealContext, points: list[int], won: list[int]) -> tuple[list[float], int | None]:
    """Each seat's score change for a deal played out with these points, and the seat that
    wins the match by it (if any)."""
    key = (ctx.contract, *points, *won)
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = _valued(ctx, settle(ctx.table, _PLAYED, ctx.contract, points, won))
    return found


def utility(ctx: DealContext, seat: int, points: list[int], won: list[int]) -> float:
    delta, winner = changes(ctx, points, won)
    return seat_utility(ctx, seat, delta, winner)


def wary_utility(ctx: DealContext, seat: int, points: list[int], won: list[int]) -> float:
    """``utility``, less ``CLIFF_SHARE`` of a cliff within ``CLIFF_MARGIN`` of a wary
    defender's own points (the card play's leaf). The bidding and the contract value
    their simulated ends plainly: valued so, a pass near the dump truck looked worse than
    a bid, and from 500 500 500 the seat declared in 258 plays of 170 deals instead of 191,
    made 58 % instead of 64 %, and the plays conceded rose from 17 to 47."""
    value = utility(ctx, seat, points, won)
    if ctx.wary[seat]:
        value -= CLIFF_SHARE * _cliff(ctx, seat, points, won, value)
    return value


def _cliff(ctx: DealContext, seat: int, points: list[int], won: list[int], value: float) -> float:
    """How far ``seat``'s utility falls if its own points ended up to ``CLIFF_MARGIN`` off
    (the others' as they are), when that fall is a cliff; else 0."""
    worst = value
    shifted = list(points)
    for shift in CLIFF_SHIFTS:
        shifted[seat] = points[seat] + shift
        if shifted[seat] >= 0:
            delta, winner = changes(ctx, shifted, won)
            worst = min(worst, seat_utility(ctx, seat, delta, winner))
    fall = value - worst
    return fall if fall >= CLIFF_DROP else 0.0


def seat_utility(ctx: DealContext, seat: int, delta: list[float], winner: int | None) -> float:
    others = [s for s in ctx.active if s != seat]
    value = delta[seat] - RIVALRY * sum(delta[s] for s in others) / max(1, len(others))
    if winner is not None:
        bonus = WIN_BONUS[ctx.rules.game]
        value += bonus if winner == seat else -bonus * RIVALRY / max(1, len(others))
    return value


def _valued(ctx: DealContext, settled: Settlement) -> tuple[list[float], int | None]:
    """The engine's score changes, and what the scores do not show yet: a bolt that does
    not cost 120 yet brings the penalty closer; a seat on the barrel or the tumbochka has
    tries left at the match win, of which a used try loses one and a fall all."""
    delta = [float(c) for c in settled.changes]
    sitting = SITTING_VALUE[ctx.rules.game]
    fell = {e.seat for e in settled.events if isinstance(e, Fell)}
    for event in settled.events:
        if isinstance(event, BoltGiven) and not event.penalty:
            delta[event.seat] -= BOLT_STEP_COST * event.bolts
        elif isinstance(event, Mounted) and event.seat not in fell:
            delta[event.seat] += sitting
    perch, winner = ctx.perch, settled.winner
    # At the stake a win cashes the seat's chance (``WIN_BONUS`` is added by
    # ``seat_utility``); at ``SITTING_VALUE`` a match's end leaves the seat's value aside.
    if perch is None or (winner is not None and not ctx.stake):
        return delta, winner
    tries = TRIES[ctx.rules.game]
    left = tries - ctx.perch_attempts
    after = 0.0
    if winner is None and perch not in fell:
        after = _chance(left - (settled.perch_attempts > ctx.perch_attempts))
    lost = _chance(left) - after
    delta[perch] -= ctx.stake * lost if ctx.stake else sitting * lost / _chance(tries)
    return delta, winner


def _chance(tries: int) -> float:
    """The chance of winning the match in this many tries, each won at ``TRY_CHANCE``."""
    return 1.0 - (1.0 - TRY_CHANCE) ** tries


def concede_changes(ctx: DealContext) -> list[float]:
    """Score changes when the declarer concedes."""
    return _valued(ctx, settle(ctx.table, _CONCEDED, ctx.contract))[0]


def throw_changes(ctx: DealContext, without_contract: bool) -> list[float]:
    """Score changes when the declarer throws the cards (Тысяча одно)."""
    table = ctx.table.copy()
    table.without_bid = without_contract
    table.contract_named = not without_contract
    return _valued(ctx, settle(table, _THROWN, ctx.contract))[0]
