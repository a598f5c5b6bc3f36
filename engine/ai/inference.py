"""What the other seats' bidding and contract say about their hands: the weight of a drawn
deal (Тысяча family; Тумбочка is not read).

The sampler (``engine.ai.sampling``) draws the unseen cards uniformly within what is
certain (voids, cards shown, the talon). What players did says more, and this module turns
it into a likelihood of each drawn deal, by which the search player weights its drawn deals
when it bids, gives, names the contract and plays (``engine.ai.search_agent``,
``inferred``). A seat's hand is judged on its cards now and those it has played (for the
declarer in the play that is the hand after giving, on which it named the contract; in the
bidding, the seven cards it bid on). Its worth is ``evaluation.estimate`` of those cards.

- The contract. The engine's bid cap (``Variant.hand_cap``) allows a contract above 120
  only with marriages: a drawn deal whose declarer could not have named it is all but
  rejected (``IMPOSSIBLE``). A declarer who raised the bid names about what its hand is
  worth (``RAISE_SHORTFALL`` below the estimate), unless the cap stopped it; one who did
  not raise has a hand not worth much more than the bid. Not read on the barrel, where the
  match chooses the contract.
- A pass. The seat would not bid over the standing bid: its hand is not worth more than
  about ``PASS_MARGIN`` above it (not read when ``minus_bidding`` may have passed for it).
- A raise by a seat that did not become the declarer: its hand is worth about the bid
  (the opening bid is not read: the hundred's is forced; nor are the bids of a player on
  the barrel, whose 121 the rules ask of it whatever it holds).

Each of these is a one- or two-sided normal kernel on the estimate (``SPREAD``), flat where
the hand explains the action, falling where it does not, and never below ``TAIL``: people
misjudge and the estimate is rough. The constants were read off 290 deals played by the
``hard`` level of ``b3e32d7`` (``benchmarks/README.md``, issue 16, session 10): a raised
contract was the estimate −11 ± 24 points; hands that passed at 100–105 were worth less
than about 130.
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

from engine.ai.evaluation import estimate
from engine.games import variant_of
from engine.rules import Game, Rules
from engine.view import SeatView

_TUMBOCHKA = Game.TUMBOCHKA

RAISE_SHORTFALL: Final = 11.0
"""A raised contract is about this much below the estimate of the declarer's hand."""
PASS_MARGIN: Final = 30.0
"""A pass says the hand is worth at most about this much above the standing bid."""
SPREAD: Final = 24.0
"""How far a hand may be from what its action says (the estimate's own spread is ~25)."""
TAIL: Final = 0.1
"""The least weight one action gives a hand that does not explain it: players misjudge,
and the estimate is rough."""
IMPOSSIBLE: Final = 1e-3
"""The weight of a deal the rules exclude (not zero, so a decision never divides by 0)."""


class Evidence(NamedTuple):
    """What the other seats' actions in the deal say (``evidence_of`` reads it once)."""

    rules: Rules
    played_by: tuple[int, ...]
    declarer: int
    """The declarer whose contract is judged, −1 for none (bidding, this seat's own
    contract, or a contract the barrel or the tumbochka chose)."""
    bid: int
    contract: int
    at_most: tuple[tuple[int, float], ...]
    """``(seat, value)``: the seat's hand is worth about ``value`` or less (a pass)."""
    at_least: tuple[tuple[int, float], ...]
    """``(seat, value)``: the seat's hand is worth about ``value`` or more (a bid)."""


def evidence_of(view: SeatView, played_by: tuple[int, ...]) -> Evidence | None:
    """What the other seats' actions say (``played_by``: the cards each seat has played),
    or ``None`` when nothing is read (Тумбочка, whose hands this model does not value)."""
    rules = view.rules
    if rules.game is _TUMBOCHKA:
        return None
    seat = view.seat
    declarer = view.declarer
    judged = -1
    if declarer is not None and declarer != seat and view.perch != declarer:
        judged = declarer
    standing = variant_of(rules).opening_bid
    at_most: list[tuple[int, float]] = []
    highest: dict[int, int] = {}
    passes_read = rules.minus_bidding is None
    for s, value in view.bids:
        if value is None:
            if s != seat and passes_read:
                at_most.append((s, standing + PASS_MARGIN))
        elif value > standing:
            # A bid at the opening level may be forced (the hundred): only raises count.
            standing = value
            highest[s] = value
    # The barrel's (or the tumbochka's) player bids what the match asks of it, not what
    # its hand is worth: its bids are not read.
    unread = (seat, declarer, view.perch)
    at_least = tuple((s, float(v)) for s, v in highest.items() if s not in unread)
    return Evidence(
        rules,
        played_by,
        judged,
        view.bid,
        view.contract,
        tuple(at_most),
        at_least,
    )


def likelihood(evidence: Evidence | None, hands: list[int]) -> float:
    """How well the drawn ``hands`` (each seat's cards now) explain the other seats'
    bidding and contract, between ``IMPOSSIBLE`` and 1 (1 when nothing is read)."""
    if evidence is None:
        return 1.0
    rules = evidence.rules
    game = rules.game
    played_by = evidence.played_by
    weight = 1.0
    declarer = evidence.declarer
    if declarer >= 0:
        held = hands[declarer] | played_by[declarer]
        contract = evidence.contract
        cap = variant_of(rules).hand_cap(rules, held)
        if contract > cap:
            return IMPOSSIBLE
        expected = estimate(held, game) - RAISE_SHORTFALL
        if contract > evidence.bid and (contract < cap or expected < contract):
            # A raise names what the hand is worth, unless the cap stopped it there.
            weight *= _kernel(expected - contract)
        elif contract == evidence.bid and contract < cap and expected > contract:
            # No raise: the hand was not worth more than the bid.
            weight *= _kernel(expected - contract)
    for s, value in evidence.at_most:
        worth = estimate(hands[s] | played_by[s], game)
        if worth > value:
            weight *= _kernel(worth - value)
    for s, value in evidence.at_least:
        worth = estimate(hands[s] | played_by[s], game)
        if worth < value:
            weight *= _kernel(value - worth)
    return weight


def _kernel(distance: float) -> float:
    return TAIL + (1.0 - TAIL) * math.exp(-0.5 * (distance / SPREAD) ** 2)
