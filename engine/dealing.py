"""Starting a match and dealing (rules §1.2, §2, §3.1; the notation's ``shuffle SEED``).

Randomness enters only here, through an injected ``random.Random``; the resulting ``Deal``
action holds every card, so the log replays a match without the generator. How many cards
a hand and the talon hold, and which starting scores seat a player, the ``Variant`` says.
"""

from __future__ import annotations

import random
from _random import Random as _Generator
from collections.abc import Sequence
from functools import cache

from engine.actions import Deal, new_deal
from engine.bidding import continue_bidding
from engine.cards import CARD_COUNT
from engine.errors import Reason, StartError
from engine.events import FORCED_BIDS, Event, deal_started
from engine.games import variant_of
from engine.rules import Rules
from engine.state import MatchState, Phase
from engine.table import Table, trust

__all__ = ["StartError", "new_match", "random_deal", "shuffled_deal"]

# Enum members as module constants: looking one up on its class costs ten globals.
_BIDDING = Phase.BIDDING
_DEAL_OVER = Phase.DEAL_OVER
_MATCH_OVER = Phase.MATCH_OVER


def new_match(
    rules: Rules, scores: Sequence[int] | None = None, bolts: Sequence[int] | None = None
) -> MatchState:
    """A match before its first deal, optionally from given scores (the notation's header).

    A score of exactly the barrel's or the tumbochka's seats that player with no attempt
    used (``Variant.starting_perch``).
    """
    n = rules.players
    variant = variant_of(rules)
    start = tuple(scores) if scores is not None else (0,) * n
    start_bolts = tuple(bolts) if bolts is not None else (0,) * n
    if len(start) != n:
        raise StartError(f"expected {n} scores")
    if len(start_bolts) != n:
        raise StartError(f"expected {n} bolts", "bolts")
    if not variant.has_bolts and any(start_bolts):
        raise StartError("bolts exist only in thousand", "bolts")
    if any(b < 0 or b >= 3 for b in start_bolts):
        raise StartError("bolts must be 0, 1 or 2", "bolts")
    return MatchState(
        rules=rules,
        phase=Phase.DEAL_OVER,
        scores=start,
        bolts=start_bolts,
        perch=variant.starting_perch(rules, start),
        perch_attempts=0,
        falls=(0,) * n,
        bagels=(0,) * n,
        deals=0,
        deal=None,
        winner=None,
    )


def shuffled_deal(state: MatchState, seed: int | str, dealer: int | None = None) -> Deal:
    """The notation's ``shuffle SEED``: the game's deck shuffled by ``Random(SEED)``, a hand
    to each playing seat clockwise from the seat after the dealer, the rest to the talon."""
    if dealer is None:
        dealer = state.next_dealer or 0
    rules = state.rules
    variant = variant_of(rules)
    deck = list(variant.deck_cards)
    # ``random.Random(SEED)`` seeds its generator twice (in ``__new__`` and again in
    # ``__init__``); its C base seeded once by an int is the same generator.
    shuffle(deck, _Generator(seed) if type(seed) is int else random.Random(seed))
    active = variant.active_seats(rules.players, dealer)
    size = variant.hand_size
    hands = [0] * rules.players
    bit = _BITS.__getitem__
    # The cards are distinct: the sum of their bits is their mask.
    for i, seat in enumerate(active):
        hands[seat] = sum(map(bit, deck[i * size : (i + 1) * size]))
    talon = sum(map(bit, deck[len(active) * size :]))
    return new_deal(dealer, tuple(hands), talon)


_BITS = tuple(1 << c for c in range(CARD_COUNT))


def shuffle(deck: list[int], rng: _Generator) -> None:
    """``rng.shuffle(deck)`` (CPython's algorithm: Fisher–Yates from the end, each index
    drawn by ``getrandbits`` with rejection), without a Python call per card: the same
    permutation for the same generator (``tests/engine/test_dealing.py`` checks it)."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(deck)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


@cache
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle's steps for a deck of ``size``: each index ``i`` from the end, the count
    ``n`` of positions it draws from and the bits ``k`` drawn for it."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def random_deal(state: MatchState, rng: random.Random) -> Deal:
    """The next deal, shuffled by the injected generator. Between deals it is listed for
    ``state`` as ``legal_actions`` lists an action, so ``apply`` takes it unverified: it is
    dealt by the next dealer with the game's hand and talon sizes, by construction."""
    deal = shuffled_deal(state, rng.getrandbits(64))
    if state.phase is _DEAL_OVER:
        trust(state, deal)
    return deal


def deal_reason(t: Table, action: Deal) -> Reason | None:
    if t.phase is _MATCH_OVER:
        return Reason.MATCH_OVER
    if t.phase is not _DEAL_OVER:
        return Reason.WRONG_PHASE
    n = t.rules.players
    if not 0 <= action.dealer < n or len(action.hands) != n:
        return Reason.INVALID_DEAL
    if t.has_deal and action.dealer != (t.dealer + 1) % n:
        return Reason.WRONG_DEALER
    variant = t.variant
    active = variant.active_seats(n, action.dealer)
    seen = action.talon
    if seen.bit_count() != variant.talon_size:
        return Reason.INVALID_DEAL
    size = variant.hand_size
    for seat, hand in enumerate(action.hands):
        if hand.bit_count() != (size if seat in active else 0) or seen & hand:
            return Reason.INVALID_DEAL
        seen |= hand
    if seen != variant.deck:
        return Reason.INVALID_DEAL
    return None


def apply_deal(t: Table, action: Deal) -> list[Event]:
    active = t.variant.active_seats(t.rules.players, action.dealer)
    t.seat_deal(action.dealer, active, list(action.hands), action.talon)
    t.phase = _BIDDING
    t.deals += 1
    events: list[Event] = [deal_started(t.deals, action.dealer, active)]
    t.variant.open_bidding(t)
    for seat, value in t.bids:
        if value:
            events.append(FORCED_BIDS[seat][value])
    continue_bidding(t, events)
    return events
