"""The search player's decisions after the talon (``engine.ai.search_agent``): which cards
to give and which contract to name, conceding, throwing or asking for a redeal.

- Giving: the candidates are the cheapest cards by ``evaluation.give_cost`` among those
  that are not half of a marriage the declarer holds (nor of a trilyazh or troyan in
  Тумбочка) while other cards can go; pairs of them for the first gift. Each plan is played
  out in the same drawn deals and valued with the best contract it allows, or with the
  void deal of a redeal when the cards it keeps give grounds for one (Тысяча: the declarer
  may ask too, rules fine point 14). So a hand that can only lose gives its highest cards
  away when the eight it keeps are then under 14 points or hold the four nines, and asks
  for a redeal instead of losing the contract.
- Contract: one playout per drawn deal gives the points; each contract worth naming
  (``simulation.worth_naming``: only the barrel contract on the barrel; else the best by
  the count of playouts that make them, and the lowest that wins the match outright when
  made, which the count cannot see) is scored against them, as are conceding, throwing
  and a redeal; the best mean utility is named. Naming a higher contract that the
  playouts make nearly as often was measured and dropped: its falls against strong
  defenders cost more than it gained (``benchmarks/README.md``, issue 16, session 11).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from engine.actions import Concede, Give, NameContract, Redeal, SeatAction, Throw
from engine.ai.evaluation import give_cost
from engine.ai.playout import rollout
from engine.ai.sampling import Knowledge
from engine.ai.simulation import (
    Outcome,
    Search,
    contract_options,
    draws,
    mean_utility,
    opening_table,
    playouts,
    worth_naming,
)
from engine.ai.utility import concede_changes, context_of, seat_utility, throw_changes
from engine.cards import THOUSAND_POINTS, cards_of, mask_of
from engine.games import variant_of
from engine.games.base import MARRIAGE_MASKS
from engine.games.tumbochka import TRILYAZH_MASKS, TROYAN_MASKS
from engine.rules import Game
from engine.view import SeatView

VOID_DEAL: Final = 0.0
"""The utility of a redeal: the deal is void, nobody's score changes."""
GIVE_CANDIDATES: Final = 5
"""The cheapest cards considered for giving (pairs of them for the first gift)."""
TUMBOCHKA_SETS: Final = (*TRILYAZH_MASKS, *TROYAN_MASKS)


def choose_gift(view: SeatView, search: Search) -> SeatAction | None:
    """The gift whose plan plays out best on the deals ``search`` draws, or ``None`` when
    there is nothing to give."""
    gives = [a for a in view.legal if isinstance(a, Give)]
    seat = view.seat
    if not gives or seat is None:
        return None
    game = view.rules.game
    hand = mask_of(view.hand)
    recipients = sorted({a.to for a in gives})
    free = _free(hand, game, len(recipients))
    cheap = sorted(free, key=lambda c: (give_cost(hand, c, game), c))[:GIVE_CANDIDATES]
    plans: list[tuple[tuple[int, int], ...]] = []
    if len(recipients) == 2:
        r1, r2 = recipients
        for i, a in enumerate(cheap):
            for b in cheap[i + 1 :]:
                plans.append(((a, r1), (b, r2)))
                plans.append(((b, r1), (a, r2)))
    else:
        plans = [((c, recipients[0]),) for c in cheap]
    ctx = context_of(view, staked=True)
    may_redeal = _redeal_check(view)
    results: list[list[Outcome]] = [[] for _ in plans]
    weights: list[float] = []
    for drawn, weight in draws(view, Knowledge.of(view), search):
        weights.append(weight)
        for j, plan in enumerate(plans):
            hands = drawn.hands[:]
            for c, to in plan:
                hands[seat] &= ~(1 << c)
                hands[to] |= 1 << c
            table = opening_table(view, hands, seat)
            rollout(table, search.policy)
            results[j].append((table.points, table.won))
    best_plan, best_value = plans[0], -math.inf
    for plan, outcomes in zip(plans, results, strict=True):
        if search.clock.over():
            break
        kept = _kept(hand, plan)
        options = contract_options(view.rules, view.bid, kept)
        value = max(
            mean_utility(ctx._replace(contract=v), seat, outcomes, weights)
            for v in worth_naming(ctx, view, options, outcomes)
        )
        if may_redeal is not None and may_redeal(kept):
            value = max(value, VOID_DEAL)
        if value > best_value + 1e-9:
            best_plan, best_value = plan, value
    if may_redeal is not None and -math.inf < best_value < VOID_DEAL:
        # Every plan valued loses: giving the highest cards may leave grounds for a redeal.
        highest = sorted(cards_of(hand), key=lambda c: (THOUSAND_POINTS[c], c))
        void_plan = tuple(zip(highest[-len(recipients) :], recipients, strict=True))
        if may_redeal(_kept(hand, void_plan)):
            best_plan = void_plan
    card, to = best_plan[0]
    for action in gives:
        if action.card == card and action.to == to:
            return action
    return gives[0]


def _kept(hand: int, plan: tuple[tuple[int, int], ...]) -> int:
    """The declarer's cards after giving those of ``plan``."""
    for given, _ in plan:
        hand &= ~(1 << given)
    return hand


def _redeal_check(view: SeatView) -> Callable[[int], bool] | None:
    """Whether the declarer, keeping a hand once the gifts are made, may ask for a redeal;
    ``None`` when this table has no redeal (a game without it, or the option off)."""
    variant = variant_of(view.rules)
    if not (variant.can_redeal and view.rules.redeal):
        return None
    return lambda kept: variant.redeal_ground(kept) is not None


def _free(hand: int, game: Game, count: int) -> list[int]:
    """The cards that may be given: never half of a marriage (or of a trilyazh or troyan in
    Тумбочка) while ``count`` other cards can go."""
    free = hand & ~held_sets(hand, game)
    return cards_of(free if free.bit_count() >= count else hand)


def held_sets(hand: int, game: Game) -> int:
    """The cards of ``hand`` in a complete marriage it holds (in Тумбочка, a trilyazh or
    troyan): those a gift would break."""
    held = 0
    for m in TUMBOCHKA_SETS if game is Game.TUMBOCHKA else MARRIAGE_MASKS:
        if hand & m == m:
            held |= m
    return held


def choose_contract(view: SeatView, search: Search) -> SeatAction | None:
    """The contract (or concession, throw, redeal) with the best mean utility over the
    playouts of the deals ``search`` draws, or ``None`` when none of those is offered."""
    seat = view.seat
    assert seat is not None and view.declarer == seat
    outcomes, weights = playouts(view, Knowledge.of(view), search)
    base = context_of(view, staked=True)
    best: SeatAction | None = None
    best_value = -math.inf
    contracts = {a.value: a for a in view.legal if isinstance(a, NameContract)}
    allowed = set(worth_naming(base, view, list(contracts), outcomes)) if contracts else set()
    values: dict[int, float] = {}
    for action in view.legal:
        if isinstance(action, NameContract):
            if action.value not in allowed:
                continue
            value = values[action.value] = mean_utility(
                base._replace(contract=action.value), seat, outcomes, weights
            )
        elif isinstance(action, Concede):
            value = seat_utility(base, seat, concede_changes(base), None)
        elif isinstance(action, Throw):
            without = view.without_bid and not view.contract_named
            value = seat_utility(base, seat, throw_changes(base, without), None)
        elif isinstance(action, Redeal):
            value = VOID_DEAL
        else:
            continue
        if value > best_value + 1e-9:
            best, best_value = action, value
    if isinstance(best, NameContract) and view.perch != seat:
        # Of contracts that the drawn deals value exactly alike, the highest.
        return contracts[max(v for v, u in values.items() if u >= best_value - 1e-9)]
    return best
