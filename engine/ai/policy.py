"""The rule-based card play: which card to lead or follow with, and when to declare.

One function, ``choose_play(table, seat)``, serves both the rule-based player (on a ``Table``
built from its view, the other hands empty) and the search player's playouts (on a
determinized ``Table``). It reads only what the seat may know: its own hand, the played
cards, the trick on the table, the trump, the voids everyone has shown, the tricks and
points so far, and who is the declarer. The other hands are never looked at, so the
playouts are played by players who do not peek either.

The heuristics, in the order they are tried:

- Declaring: a marriage (Тысяча family) is declared once the sure winners of the other
  suits are cashed while there is no trump yet (a master cannot be ruffed without a trump,
  and the marriage's trump could be held by an opponent), the most valuable first, leading
  the queen; a player who holds a marriage but has not yet won a trick (Тысяча) leads a
  sure winner to get the right. A trilyazh (Тумбочка) is declared
  when its suit cannot be trumped; a troyan when the suit is long enough or the seat has a
  void to trump with.
- Leading: a sure winner (the highest unseen card of its suit that no opponent can trump,
  by the voids shown), trumps first for a declarer who holds the trump majority; else the
  cheapest card, keeping marriages, masters and tens whose ace is out.
- Following: the last player takes the trick with the cheapest card that wins, or, when
  the partner (the other defender) wins, smears points; an earlier player wins only with a
  card that will hold, and otherwise plays low.

Card counting is exact: "master" means no unseen card of the suit is higher.
"""

from __future__ import annotations

from typing import Final

from engine.actions import Declaration
from engine.cards import (
    ABOVE,
    ACE,
    CARD_COUNT,
    KING,
    QUEEN,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TEN,
    THOUSAND_POINTS,
    cards_of,
)
from engine.games.base import MARRIAGE_MASKS, MARRIAGE_VALUES, Leads, married
from engine.rules import Game
from engine.table import Table
from engine.tricks import declarable, playable

# Enum members as module constants: looking one up on its class costs ten globals.
_ACES = Declaration.ACES
_MARRIAGE = Declaration.MARRIAGE
_NONE = Declaration.NONE
_TRILYAZH = Declaration.TRILYAZH
_TROYAN = Declaration.TROYAN
_TUMBOCHKA = Game.TUMBOCHKA

_MARRIAGE_KEEP: Final = 25
"""How much a K or Q whose partner is still in hand is worth keeping, beyond its points."""
_MASTER_KEEP: Final = 8
_TEN_EXPOSED: Final = 6
_TRUMP_KEEP: Final = 5


def choose_play(table: Table, seat: int) -> tuple[int, Declaration]:
    """The card ``seat`` plays now and its declaration (``Declaration.NONE`` for a plain play)."""
    legal = playable(table, seat)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1, _NONE
    if table.trick:
        return _follow(table, seat, legal), _NONE
    return _lead(table, seat, legal)


def _out(table: Table, seat: int) -> int:
    """The unseen cards: those still held by the other seats."""
    return table.deck & ~table.played & ~table.hands[seat]


def _opponents(table: Table, seat: int) -> list[int]:
    if seat == table.declarer:
        return [s for s in table.active if s != seat]
    declarer = table.declarer
    assert declarer is not None
    return [declarer]


def _partner(table: Table, seat: int) -> int:
    if seat == table.declarer:
        return -1
    for s in table.active:
        if s != seat and s != table.declarer:
            return s
    return -1


def _may_ruff(table: Table, opp: int, suit: int, out: int) -> bool:
    """Whether ``opp`` might take a card of ``suit`` by trumping it."""
    trump = table.trump
    if trump < 0 or suit == trump:
        return False
    if not out & SUIT_MASKS[trump]:
        return False
    voids = table.voids[opp]
    if voids >> trump & 1:
        return False
    # Known void, or so few cards out that a void is likely.
    return bool(voids >> suit & 1) or (out & SUIT_MASKS[suit]).bit_count() <= 1


def _sure(table: Table, c: int, out: int, against: list[int]) -> bool:
    """Whether leading ``c`` takes the trick against the seats in ``against``."""
    if out & ABOVE[c]:
        return False
    s = SUIT_OF[c]
    for opp in against:  # noqa: SIM110 (all() over a generator costs more on this hot path)
        if _may_ruff(table, opp, s, out):
            return False
    return True


def sure_winner(table: Table, seat: int, c: int) -> bool:
    """Whether ``seat`` leading ``c`` now takes the trick, by what it may know."""
    return _sure(table, c, _out(table, seat), _opponents(table, seat))


def _keep_values(table: Table, seat: int, mask: int, out: int) -> list[tuple[int, int]]:
    """``(value, card)`` for each card of ``mask``, lowest card first: how much ``seat``
    loses by giving the card away (its points and its role in the hand)."""
    trump = table.trump
    found = []
    if table.rules.game is _TUMBOCHKA:
        for c in cards_of(mask):
            value = RANK_OF[c] * 2
            if not out & ABOVE[c]:
                value += _MASTER_KEEP
            if SUIT_OF[c] == trump:
                value += _TRUMP_KEEP
            found.append((value, c))
        return found
    marriages = married(table.hands[seat])
    for c in cards_of(mask):
        value = _POINTS_KEEP[c]
        if not out & ABOVE[c]:
            value += _MASTER_KEEP
        if marriages & _MARRIAGE_OF[c]:
            value += _MARRIAGE_KEEP
        if out & _ACE_OVER_TEN[c]:
            value -= _TEN_EXPOSED
        if SUIT_OF[c] == trump:
            value += _TRUMP_KEEP
        found.append((value, c))
    return found


_POINTS_KEEP = tuple(THOUSAND_POINTS[c] * 2 + RANK_OF[c] for c in range(CARD_COUNT))
"""A Тысяча card's keep value from its points and rank alone."""
_MARRIAGE_OF = tuple(
    1 << (c - RANK_OF[c] + QUEEN) if RANK_OF[c] in (KING, QUEEN) else 0 for c in range(CARD_COUNT)
)
"""For a K or Q, its suit's bit in ``married(hand)`` (the Q's card)."""
_ACE_OVER_TEN = tuple(
    1 << (c - RANK_OF[c] + ACE) if RANK_OF[c] == TEN else 0 for c in range(CARD_COUNT)
)
"""For a ten, its suit's ace."""


def _cheapest(table: Table, seat: int, mask: int, out: int) -> int:
    """The card of ``mask`` that costs least to give away (the lowest card of a tie)."""
    return min(_keep_values(table, seat, mask, out))[1]


def _lead(table: Table, seat: int, legal: int) -> tuple[int, Declaration]:
    out = _out(table, seat)
    hand = table.hands[seat]
    opps = _opponents(table, seat)
    declared = declarable(table, seat, legal)
    # A card with a higher one out is no sure winner: ``_sure`` is asked only of the rest.
    sure = [c for c in cards_of(legal) if not out & ABOVE[c] and _sure(table, c, out, opps)]
    trump = table.trump
    if declared:
        if trump < 0 and table.rules.game is not _TUMBOCHKA:
            # Without a trump a master cannot be ruffed: cash those before the marriage
            # makes a trump that the opponents may hold.
            keep = 0
            for c, _ in declared:
                keep |= MARRIAGE_MASKS[SUIT_OF[c]]
            cash = [c for c in sure if not keep >> c & 1]
            if cash:
                return max(cash, key=lambda c: THOUSAND_POINTS[c]), _NONE
        choice = _declaration(table, seat, declared, out, opps)
        if choice is not None:
            return choice
    if sure:
        if seat == table.declarer and trump >= 0 and out & SUIT_MASKS[trump]:
            trumps = [c for c in sure if SUIT_OF[c] == trump]
            mine = (hand & SUIT_MASKS[trump]).bit_count()
            if trumps and mine >= (out & SUIT_MASKS[trump]).bit_count():
                return trumps[-1], _NONE
        side = [c for c in sure if SUIT_OF[c] != trump] or sure
        best = max(
            side, key=lambda c: THOUSAND_POINTS[c] * 2 + (out & SUIT_MASKS[SUIT_OF[c]]).bit_count()
        )
        return best, _NONE
    return _cheapest(table, seat, legal, out), _NONE


def _declaration(
    table: Table, seat: int, declared: Leads, out: int, opps: list[int]
) -> tuple[int, Declaration] | None:
    hand = table.hands[seat]
    if table.rules.game is _TUMBOCHKA:
        for c, kind in declared:
            if kind is _TRILYAZH and not any(
                _may_ruff(table, o, SUIT_OF[c], out) for o in opps
            ):
                return c, kind
        for c, kind in declared:
            if kind == _TROYAN:
                s = SUIT_OF[c]
                length = (hand & SUIT_MASKS[s]).bit_count()
                voids = sum(1 for x in range(4) if x != s and not hand & SUIT_MASKS[x])
                if length >= 4 or voids or (table.trump >= 0 and table.trump != s):
                    return c, kind
        return None
    for c, kind in declared:
        if kind == _ACES:
            return c, kind
    best: tuple[int, Declaration] | None = None
    best_value = -1
    for c, kind in declared:
        value = MARRIAGE_VALUES[SUIT_OF[c]]
        if kind is _MARRIAGE and RANK_OF[c] == QUEEN and value > best_value:
            best, best_value = (c, kind), MARRIAGE_VALUES[SUIT_OF[c]]
    return best


def _follow(table: Table, seat: int, legal: int) -> int:
    trick = table.trick
    out = _out(table, seat)
    trump = table.trump
    win_seat, win_card = table.taking
    partner = _partner(table, seat)
    win_suit = SUIT_OF[win_card]
    beaters = legal & ABOVE[win_card]
    if trump >= 0 and win_suit != trump:
        beaters |= legal & SUIT_MASKS[trump]
    if len(trick) == len(table.active) - 1:
        if win_seat == partner:
            return _smear(table, seat, legal, out)
        if beaters:
            return _cheapest_winner(beaters)
        return _cheapest(table, seat, legal, out)
    nxt = table.nxt[seat]
    if win_seat == partner:
        # The partner keeps the trick if the seat after me cannot beat the card.
        if not out & ABOVE[win_card] and not _may_ruff(table, nxt, win_suit, out):
            return _smear(table, seat, legal, out)
        return _cheapest(table, seat, legal, out)
    # Win before the last seat only with a card that is sure to hold.
    for c in cards_of(beaters):
        if not out & ABOVE[c] and not _may_ruff(table, nxt, SUIT_OF[c], out):
            return c
    return _cheapest(table, seat, legal, out)


def _cheapest_winner(beaters: int) -> int:
    """The lowest card that wins: among trumps and followers alike, the lowest id wins
    cheapest within its suit (the suit is fixed by the follow rule)."""
    return (beaters & -beaters).bit_length() - 1


def _smear(table: Table, seat: int, legal: int, out: int) -> int:
    """Give the partner's trick the most points that cost the least."""
    if table.rules.game is _TUMBOCHKA:
        return _cheapest(table, seat, legal, out)
    # The most points for the least keep value; of a tie the lowest card.
    values = _keep_values(table, seat, legal, out)
    return -max([(THOUSAND_POINTS[c] * 3 - v, -c) for v, c in values])[1]
