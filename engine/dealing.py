"""Starting a match and dealing (rules §1.2, §2, §3.1; the notation's ``shuffle SEED``).

Randomness enters only here, through an injected ``random.Random``; the resulting ``Deal``
action holds every card, so the log replays a match without the generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Deal
from engine.bidding import continue_bidding
from engine.cards import cards_of, count, mask_of
from engine.errors import IllegalAction, Reason
from engine.events import BidMade, DealStarted, Event
from engine.games import variant_of
from engine.rules import Game, Rules
from engine.state import DealState, MatchState, Phase

HAND_SIZE = 7
TALON_SIZE = 3
BARREL_SEAT_SCORE = 880
TUMBOCHKA_SEAT_SCORE = 20


class StartError(ValueError):
    """Starting scores or bolts that no match can be in; ``field`` names which."""

    def __init__(self, message: str, field: str = "scores") -> None:
        super().__init__(message)
        self.field = field


def new_match(
    rules: Rules, scores: Sequence[int] | None = None, bolts: Sequence[int] | None = None
) -> MatchState:
    """A match before its first deal, optionally from given scores (the notation's header).

    A score of exactly 880 (Тысяча with the barrel on) or 20 (Тумбочка) seats that player
    with no attempt used.
    """
    n = rules.players
    start = tuple(scores) if scores is not None else (0,) * n
    start_bolts = tuple(bolts) if bolts is not None else (0,) * n
    if len(start) != n:
        raise StartError(f"expected {n} scores")
    if len(start_bolts) != n:
        raise StartError(f"expected {n} bolts", "bolts")
    if rules.game is not Game.THOUSAND and any(start_bolts):
        raise StartError("bolts exist only in thousand", "bolts")
    if any(b < 0 or b >= 3 for b in start_bolts):
        raise StartError("bolts must be 0, 1 or 2", "bolts")
    perch = _starting_perch(rules, start)
    return MatchState(
        rules=rules,
        phase=Phase.DEAL_OVER,
        scores=start,
        bolts=start_bolts,
        perch=perch,
        perch_attempts=0,
        falls=(0,) * n,
        bagels=(0,) * n,
        deals=0,
        deal=None,
        winner=None,
    )


def _starting_perch(rules: Rules, scores: tuple[int, ...]) -> int | None:
    if rules.game is Game.THOUSAND:
        if any(s <= -1000 for s in scores):
            raise StartError("a score of -1000 or less has already ended the match")
        if any(s >= rules.target for s in scores):
            raise StartError("a score at the target has already ended the match")
        if rules.barrel is None:
            return None
        if any(s > rules.barrel for s in scores):
            raise StartError("nobody can be above the barrel")
        seated = [i for i, s in enumerate(scores) if s == rules.barrel]
    elif rules.game is Game.TUMBOCHKA:
        if any(s > TUMBOCHKA_SEAT_SCORE for s in scores):
            raise StartError("nobody can be above the tumbochka")
        seated = [i for i, s in enumerate(scores) if s == TUMBOCHKA_SEAT_SCORE]
    else:
        if any(s >= 1001 for s in scores):
            raise StartError("a score of 1001 has already ended the match")
        return None
    if len(seated) > 1:
        raise StartError("two players cannot be seated at once")
    return seated[0] if seated else None


def deck_of(rules: Rules) -> int:
    return variant_of(rules).deck


def shuffled_deal(state: MatchState, seed: int | str, dealer: int | None = None) -> Deal:
    """The notation's ``shuffle SEED``: the canonical deck shuffled by ``Random(SEED)``,
    7 cards to each playing seat clockwise from the seat after the dealer, 3 to the talon."""
    if dealer is None:
        dealer = state.next_dealer or 0
    deck = list(cards_of(deck_of(state.rules)))
    random.Random(seed).shuffle(deck)
    active = variant_of(state.rules).active_seats(state.rules.players, dealer)
    hands = [0] * state.rules.players
    for i, seat in enumerate(active):
        hands[seat] = mask_of(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])
    talon = mask_of(deck[len(active) * HAND_SIZE :])
    return Deal(dealer, tuple(hands), talon)


def random_deal(state: MatchState, rng: random.Random) -> Deal:
    """The next deal, shuffled by the injected generator."""
    return shuffled_deal(state, rng.getrandbits(64))


def deal_reason(state: MatchState, action: Deal) -> Reason | None:
    rules = state.rules
    if state.phase is Phase.MATCH_OVER:
        return Reason.MATCH_OVER
    if state.phase is not Phase.DEAL_OVER:
        return Reason.WRONG_PHASE
    n = rules.players
    if not 0 <= action.dealer < n or len(action.hands) != n:
        return Reason.INVALID_DEAL
    expected = state.next_dealer
    if expected is not None and action.dealer != expected:
        return Reason.WRONG_DEALER
    active = variant_of(rules).active_seats(n, action.dealer)
    seen = action.talon
    if count(action.talon) != TALON_SIZE:
        return Reason.INVALID_DEAL
    for seat, hand in enumerate(action.hands):
        if count(hand) != (HAND_SIZE if seat in active else 0) or seen & hand:
            return Reason.INVALID_DEAL
        seen |= hand
    if seen != deck_of(rules):
        return Reason.INVALID_DEAL
    return None


def apply_deal(state: MatchState, action: Deal) -> tuple[MatchState, list[Event]]:
    reason = deal_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    rules = state.rules
    n = rules.players
    variant = variant_of(rules)
    active = variant.active_seats(n, action.dealer)
    deal = DealState(
        dealer=action.dealer,
        active=active,
        hands=action.hands,
        talon=action.talon,
        talon_shown=False,
        bids=(),
        bid=0,
        bidder=None,
        passed=0,
        declarer=None,
        contract=0,
        contract_named=False,
        without_bid=False,
        given=(),
        turn=None,
        trump=None,
        trick=(),
        tricks=(),
        won=(0,) * n,
        points=(0,) * n,
        declarations=(),
        trilyazh=None,
        outcome=None,
    )
    state = state._replace(phase=Phase.BIDDING, deals=state.deals + 1, deal=deal)
    events: list[Event] = [DealStarted(state.deals, action.dealer, active)]
    deal = variant.open_bidding(state, deal)
    events += [BidMade(seat, value, forced=True) for seat, value in deal.bids if value]
    return continue_bidding(state._replace(deal=deal), events)
