"""Deals consistent with what one seat has seen (determinizations for the search player).

``Knowledge.of(view)`` reads the view once: the played cards, the voids shown by not
following suit (and by not trumping while a trump stood), the cards whose holder is known
(cards this seat gave away; the partner card of a declared marriage, the 7 and 8 of a
troyan, the Q and K of a trilyazh) and, when the talon was shown, that its cards went to
the declarer (who may have passed at most one of them to the other defender).

``sample(view, knowledge, rng)`` then deals the unseen cards to the other seats (and to the
talon while it is still face down in the bidding) so that every constraint holds: each card
is placed in turn, at random, in a location that may hold it, with probability in
proportion to the room left, and only where the rest can still be placed (Hall's condition
over the at most four locations). Without constraints this is exactly a uniform deal.
Bids above 120 that the bid cap allows only with a marriage are checked by rejection.

Everything here is a function of the view and the generator: no hidden card is ever read.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine.actions import Declaration
from engine.cards import SUIT_OF, cards_of, mask_of
from engine.games import deck_of, variant_of
from engine.games.base import marriages_in
from engine.history import replay
from engine.state import Phase
from engine.table import Table, playing
from engine.view import SeatView

# Enum members as module constants: looking one up on its class costs ten globals.
_ACES = Declaration.ACES
_BIDDING = Phase.BIDDING

TALON = -1
"""The location of the face-down talon while the bidding lasts."""
_REJECTION_TRIES = 12


class Knowledge(NamedTuple):
    """What ``view.seat`` knows about where the cards are, read once from the view."""

    seat: int
    hand: int
    played: int
    played_by: tuple[int, ...]
    """The cards each seat has played in this deal."""
    voids: tuple[int, ...]
    """Per seat, a bit per suit it is known to hold no more of."""
    fixed: tuple[int, ...]
    """Per seat, unplayed cards known to be in its hand (never this seat's own)."""
    talon_cards: int
    """Shown talon cards whose holder this seat does not know (declarer or other defender)."""
    trump: int
    """The trump now, −1 for none."""
    marriage_floor: tuple[int, ...]
    """Per seat, the marriage value its bids prove it holds (bidding only)."""
    history: tuple[tuple[int, int, Declaration], ...]
    """Every card played in this deal, in order: ``(seat, card, declaration)``."""

    @classmethod
    def of(cls, view: SeatView) -> Knowledge:
        seat = view.seat
        assert seat is not None
        n = len(view.scores)
        hand = mask_of(view.hand)
        variant = variant_of(view.rules)
        tricks = (*(plays for _, plays in view.tricks), view.trick)
        history = replay(variant, n, view.declarations, tricks)
        played = history.played
        fixed = [0] * n
        for s, c, kind in history.plays:
            # What a declaration showed its declarer held is still in that hand, unless
            # played since (the ace marriage's aces are not tracked).
            if kind and s != seat and kind is not _ACES:
                fixed[s] |= variant.declaration_cards(kind, SUIT_OF[c]) & ~played
        for to, c in view.given:
            if not played >> c & 1:
                fixed[to] |= 1 << c
        talon_cards = 0
        declarer = view.declarer
        if view.talon is not None and declarer is not None and declarer != seat:
            talon_cards = mask_of(view.talon) & ~played & ~hand
            for s in range(n):
                talon_cards &= ~fixed[s]
        floor = [0] * n
        if view.phase is _BIDDING:
            for s, value in view.bids:
                if value is not None and s != seat:
                    floor[s] = max(floor[s], variant.bid_proves(view.rules, value))
        return cls(
            seat,
            hand,
            played,
            history.played_by,
            history.voids,
            tuple(fixed),
            talon_cards,
            view.trump if view.trump is not None else -1,
            tuple(floor),
            history.plays,
        )


class Deal(NamedTuple):
    """One determinization: every seat's current hand, and the talon if still face down."""

    hands: list[int]
    talon: int


def sample(view: SeatView, know: Knowledge, rng: random.Random) -> Deal:
    """A deal consistent with everything ``view.seat`` knows."""
    best: Deal | None = None
    for _ in range(_REJECTION_TRIES):
        deal = _sample_once(view, know, rng)
        if _bids_hold(know, deal):
            return deal
        best = best or deal
    assert best is not None
    return best


def _bids_hold(know: Knowledge, deal: Deal) -> bool:
    for s, floor in enumerate(know.marriage_floor):
        if floor and marriages_in(deal.hands[s], False) < floor:
            return False
    return True


def _sample_once(view: SeatView, know: Knowledge, rng: random.Random) -> Deal:
    me = know.seat
    n = len(view.scores)
    hands = [0] * n
    hands[me] = know.hand
    known = know.hand | know.played
    for s in range(n):
        hands[s] |= know.fixed[s]
        known |= know.fixed[s]
    deck = deck_of(view.rules.game)
    locations = [s for s in view.active if s != me and view.hand_sizes[s]]
    room = [view.hand_sizes[s] - know.fixed[s].bit_count() for s in locations]
    talon_open = view.phase is _BIDDING
    if talon_open:
        locations.append(TALON)
        room.append(3)
    talon_cards = know.talon_cards
    declarer = view.declarer
    if talon_cards and declarer is not None and declarer in locations:
        placed = _place_talon(view, know, locations, room, rng)
        for c, s in placed:
            hands[s] |= 1 << c
            room[locations.index(s)] -= 1
            known |= 1 << c
    unknown = cards_of(deck & ~known)
    rng.shuffle(unknown)
    allowed: list[int] = []
    for c in unknown:
        bits = 0
        for i, s in enumerate(locations):
            if s == TALON or not know.voids[s] >> SUIT_OF[c] & 1:
                bits |= 1 << i
        allowed.append(bits)
    placement = _place(allowed, room, rng)
    talon = 0
    for c, i in zip(unknown, placement, strict=True):
        s = locations[i]
        if s == TALON:
            talon |= 1 << c
        else:
            hands[s] |= 1 << c
    return Deal(hands, talon)


def _place_talon(
    view: SeatView, know: Knowledge, locations: list[int], room: list[int], rng: random.Random
) -> list[tuple[int, int]]:
    """Where the shown talon's unplayed cards are: with the declarer, except at most one
    that may have been the card given to the other defender."""
    declarer = view.declarer
    assert declarer is not None
    cards = cards_of(know.talon_cards)
    others = [s for s in locations if s != declarer]
    if not others:
        return [(c, declarer) for c in cards]
    other = others[0]
    room_d = room[locations.index(declarer)]
    room_o = room[locations.index(other)]
    max_other = 0 if know.played_by[other] & mask_of(view.talon or ()) else min(1, room_o)
    forced = [c for c in cards if know.voids[declarer] >> SUIT_OF[c] & 1]
    options = forced or [c for c in cards if not know.voids[other] >> SUIT_OF[c] & 1]
    need = max(len(forced), len(cards) - room_d)
    if need > max_other or len(forced) > 1 or (need and not options):
        return []
    to_other = -1
    if need or (max_other and options and rng.random() < len(options) / 9):
        to_other = rng.choice(options)
    return [(c, other if c == to_other else declarer) for c in cards]


def _place(allowed: list[int], room: list[int], rng: random.Random) -> list[int]:
    """A location index per card, each within its allowed bits and the room left.

    Falls back to ignoring the constraints (never the room) when they cannot all hold,
    which happens only if the view itself is inconsistent.
    """
    k = len(room)
    room = room[:]
    counts: dict[int, int] = {}
    for bits in allowed:
        counts[bits] = counts.get(bits, 0) + 1
    full = (1 << k) - 1
    if not _feasible(counts, room, k):
        allowed = [full] * len(allowed)
        counts = {full: len(allowed)}
    out: list[int] = []
    for bits in allowed:
        counts[bits] -= 1
        choices = [i for i in range(k) if bits >> i & 1 and room[i] > 0]
        chosen = -1
        while choices:
            total = sum(room[i] for i in choices)
            pick = rng.randrange(total)
            for i in choices:
                pick -= room[i]
                if pick < 0:
                    break
            room[i] -= 1
            if _feasible(counts, room, k):
                chosen = i
                break
            room[i] += 1
            choices.remove(i)
        if chosen < 0:
            chosen = next(i for i in range(k) if room[i] > 0)
            room[chosen] -= 1
        out.append(chosen)
    return out


def _feasible(counts: dict[int, int], room: list[int], k: int) -> bool:
    """Hall's condition: for every set of locations, the cards that may go only there fit."""
    for subset in range(1, 1 << k):
        need = 0
        for bits, cnt in counts.items():
            if cnt and bits & ~subset == 0:
                need += cnt
        if need > sum(room[i] for i in range(k) if subset >> i & 1):
            return False
    return True


def table_of(view: SeatView, know: Knowledge, hands: list[int]) -> Table:
    """The play phase of ``view``'s deal as a ``Table`` with the given (sampled) hands."""
    declarer = view.declarer
    assert declarer is not None and view.turn is not None
    tri = view.trilyazh
    return playing(
        view.rules,
        view.active,
        hands,
        declarer=declarer,
        contract=view.contract,
        turn=view.turn,
        trump=know.trump,
        trick=view.trick,
        points=list(view.points),
        won=list(view.won),
        played=know.played,
        voids=list(know.voids),
        trilyazh=tri,
    )


def own_table(view: SeatView, know: Knowledge) -> Table:
    """A ``Table`` that knows only the seat's own hand: enough for the rule-based policy,
    which never reads the other hands."""
    n = len(view.scores)
    hands = [0] * n
    hands[know.seat] = know.hand
    return table_of(view, know, hands)
