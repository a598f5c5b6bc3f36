"""The rule-based card play: which card to lead or follow with, and when to declare.

One function, ``choose_play(sim, seat)``, serves both the rule-based player (on a ``Sim``
built from its view, the other hands empty) and the search player's playouts (on a
determinized ``Sim``). It reads only what the seat may know: its own hand, the played
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

from engine.ai.simulator import (
    ABOVE,
    ACES,
    MARRIAGE,
    MARRIAGE_MASKS,
    MARRIAGE_VALUES,
    NONE,
    POINTS,
    RANK,
    SUIT,
    TRILYAZH,
    TROYAN,
    TUMBOCHKA,
    Sim,
    trick_winner,
)
from engine.cards import ACE, KING, QUEEN, SUIT_MASKS, TEN, cards_of

_MARRIAGE_KEEP: Final = 25
"""How much a K or Q whose partner is still in hand is worth keeping, beyond its points."""
_MASTER_KEEP: Final = 8
_TEN_EXPOSED: Final = 6
_TRUMP_KEEP: Final = 5


def choose_play(sim: Sim, seat: int) -> tuple[int, int]:
    """The card ``seat`` plays now and its declaration (``NONE`` for a plain play)."""
    legal = sim.playable(seat)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1, NONE
    if sim.trick:
        return _follow(sim, seat, legal), NONE
    return _lead(sim, seat, legal)


def _out(sim: Sim, seat: int) -> int:
    """The unseen cards: those still held by the other seats."""
    return sim.deck & ~sim.played & ~sim.hands[seat]


def _opponents(sim: Sim, seat: int) -> list[int]:
    if seat == sim.declarer:
        return [s for s in sim.active if s != seat]
    return [sim.declarer]


def _partner(sim: Sim, seat: int) -> int:
    if seat == sim.declarer:
        return -1
    for s in sim.active:
        if s != seat and s != sim.declarer:
            return s
    return -1


def _may_ruff(sim: Sim, opp: int, suit: int, out: int) -> bool:
    """Whether ``opp`` might take a card of ``suit`` by trumping it."""
    trump = sim.trump
    if trump < 0 or suit == trump:
        return False
    if not out & SUIT_MASKS[trump]:
        return False
    voids = sim.voids[opp]
    if voids >> trump & 1:
        return False
    # Known void, or so few cards out that a void is likely.
    return bool(voids >> suit & 1) or (out & SUIT_MASKS[suit]).bit_count() <= 1


def _sure(sim: Sim, c: int, out: int, against: list[int]) -> bool:
    """Whether leading ``c`` takes the trick against the seats in ``against``."""
    if out & ABOVE[c]:
        return False
    s = SUIT[c]
    return all(not _may_ruff(sim, opp, s, out) for opp in against)


def _keep_value(sim: Sim, seat: int, c: int, out: int) -> int:
    """How much ``seat`` loses by giving ``c`` away: its points and its role in the hand."""
    hand = sim.hands[seat]
    tumbochka = sim.game == TUMBOCHKA
    value = RANK[c] * 2 if tumbochka else POINTS[c] * 2 + RANK[c]
    if not out & ABOVE[c]:
        value += _MASTER_KEEP
    s = SUIT[c]
    if not tumbochka:
        r = RANK[c]
        if r in (KING, QUEEN) and hand & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s]:
            value += _MARRIAGE_KEEP
        if r == TEN and out >> (s * 9 + ACE) & 1:
            value -= _TEN_EXPOSED
    if s == sim.trump:
        value += _TRUMP_KEEP
    return value


def _cheapest(sim: Sim, seat: int, mask: int, out: int) -> int:
    best, best_value = -1, 1 << 30
    for c in cards_of(mask):
        v = _keep_value(sim, seat, c, out)
        if v < best_value:
            best, best_value = c, v
    return best


def _lead(sim: Sim, seat: int, legal: int) -> tuple[int, int]:
    out = _out(sim, seat)
    hand = sim.hands[seat]
    opps = _opponents(sim, seat)
    declared = sim.declarable(seat)
    sure = [c for c in cards_of(legal) if _sure(sim, c, out, opps)]
    trump = sim.trump
    if declared:
        if trump < 0 and sim.game != TUMBOCHKA:
            # Without a trump a master cannot be ruffed: cash those before the marriage
            # makes a trump that the opponents may hold.
            keep = 0
            for c, _ in declared:
                keep |= MARRIAGE_MASKS[SUIT[c]]
            cash = [c for c in sure if not keep >> c & 1]
            if cash:
                return max(cash, key=lambda c: POINTS[c]), NONE
        choice = _declaration(sim, seat, declared, out, opps)
        if choice is not None:
            return choice
    if sure:
        if seat == sim.declarer and trump >= 0 and out & SUIT_MASKS[trump]:
            trumps = [c for c in sure if SUIT[c] == trump]
            mine = (hand & SUIT_MASKS[trump]).bit_count()
            if trumps and mine >= (out & SUIT_MASKS[trump]).bit_count():
                return trumps[-1], NONE
        side = [c for c in sure if SUIT[c] != trump] or sure
        best = max(side, key=lambda c: POINTS[c] * 2 + (out & SUIT_MASKS[SUIT[c]]).bit_count())
        return best, NONE
    return _cheapest(sim, seat, legal, out), NONE


def _declaration(
    sim: Sim, seat: int, declared: list[tuple[int, int]], out: int, opps: list[int]
) -> tuple[int, int] | None:
    hand = sim.hands[seat]
    if sim.game == TUMBOCHKA:
        for c, kind in declared:
            if kind == TRILYAZH and not any(_may_ruff(sim, o, SUIT[c], out) for o in opps):
                return c, kind
        for c, kind in declared:
            if kind == TROYAN:
                s = SUIT[c]
                length = (hand & SUIT_MASKS[s]).bit_count()
                voids = sum(1 for x in range(4) if x != s and not hand & SUIT_MASKS[x])
                if length >= 4 or voids or (sim.trump >= 0 and sim.trump != s):
                    return c, kind
        return None
    for c, kind in declared:
        if kind == ACES:
            return c, kind
    best: tuple[int, int] | None = None
    best_value = -1
    for c, kind in declared:
        if kind == MARRIAGE and RANK[c] == QUEEN and MARRIAGE_VALUES[SUIT[c]] > best_value:
            best, best_value = (c, kind), MARRIAGE_VALUES[SUIT[c]]
    return best


def _follow(sim: Sim, seat: int, legal: int) -> int:
    trick = sim.trick
    out = _out(sim, seat)
    trump = sim.trump
    win_seat, win_card = trick_winner(trick, trump)
    partner = _partner(sim, seat)
    win_suit = SUIT[win_card]
    beaters = legal & ABOVE[win_card]
    if trump >= 0 and win_suit != trump:
        beaters |= legal & SUIT_MASKS[trump]
    if len(trick) == len(sim.active) - 1:
        if win_seat == partner:
            return _smear(sim, seat, legal, out)
        if beaters:
            return _cheapest_winner(beaters)
        return _cheapest(sim, seat, legal, out)
    nxt = sim.nxt[seat]
    if win_seat == partner:
        # The partner keeps the trick if the seat after me cannot beat the card.
        if not out & ABOVE[win_card] and not _may_ruff(sim, nxt, win_suit, out):
            return _smear(sim, seat, legal, out)
        return _cheapest(sim, seat, legal, out)
    # Win before the last seat only with a card that is sure to hold.
    for c in cards_of(beaters):
        if not out & ABOVE[c] and not _may_ruff(sim, nxt, SUIT[c], out):
            return c
    return _cheapest(sim, seat, legal, out)


def _cheapest_winner(beaters: int) -> int:
    """The lowest card that wins: among trumps and followers alike, the lowest id wins
    cheapest within its suit (the suit is fixed by the follow rule)."""
    return (beaters & -beaters).bit_length() - 1


def _smear(sim: Sim, seat: int, legal: int, out: int) -> int:
    """Give the partner's trick the most points that cost the least."""
    if sim.game == TUMBOCHKA:
        return _cheapest(sim, seat, legal, out)
    best, best_value = -1, -(1 << 30)
    for c in cards_of(legal):
        v = POINTS[c] * 3 - _keep_value(sim, seat, c, out)
        if v > best_value:
            best, best_value = c, v
    return best
