"""The simulated players' policies: which of the shown buttons to press, per game.

A policy sees the actions behind every button in every player's private message (decoded from
the callback data, so it does not depend on labels) and returns one to press, or None to wait.
They are chosen to end matches in few presses, and are deterministic: the same shown buttons
give the same press, whatever their order. Redeal is never pressed.

- Тысяча: p1 bids the lowest bid, everyone else passes; the declarer gives its lowest cards
  and concedes at once (from deal `play_deals + 1` on: earlier deals are played out, lowest
  card first). p1 loses about 100 a deal: the match ends at −1000 after 10 deals (57 presses).
- Тысяча одно: everyone passes and the third player throws the cards, so the two others score
  50 each: 31 deals with 3 players (93 presses), 41 with 4 (123 presses).
- Any game, among computer players (`passive`): pass, concede or throw when possible, else
  give or play the lowest card, else bid the least.
- Тумбочка: the forced opening 4, everyone else passes; the player on the tumbochka (whose
  lowest bid is 7) bids 7; the declarer gives its lowest cards and plays at once; everyone
  plays their highest card. With deal seed `TUMBOCHKA_SEED` the match ends in 5 deals
  (145 presses).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import Bid, Concede, Declaration, Give, Pass, Play, SeatAction, Throw
from engine.cards import rank_of

Policy = Callable[[Sequence[SeatAction], int], SeatAction | None]
"""(every shown action, deals dealt so far) -> the action to press."""

TUMBOCHKA_SEED = "s163"


def _lowest_give(options: Sequence[SeatAction]) -> SeatAction | None:
    gives = [a for a in options if isinstance(a, Give)]
    return min(gives, key=lambda a: (a.card, a.to)) if gives else None


def thousand(play_deals: int = 0) -> Policy:
    def choose(options: Sequence[SeatAction], deals: int) -> SeatAction | None:
        concede = [a for a in options if isinstance(a, Concede)]
        if concede and deals > play_deals:
            return concede[0]
        give = _lowest_give(options)
        if give is not None:
            return give
        p1_bids = [a for a in options if isinstance(a, Bid) and a.seat == 0]
        if p1_bids:
            return min(p1_bids, key=lambda a: a.value)
        passes = [a for a in options if isinstance(a, Pass)]
        if passes:
            return passes[0]
        plays = [a for a in options if isinstance(a, Play)]
        if plays:
            return min(plays, key=lambda a: (a.card, a.declaration.value))
        return None

    return choose


def thousand_one(options: Sequence[SeatAction], deals: int) -> SeatAction | None:
    throws = [a for a in options if isinstance(a, Throw)]
    if throws:
        return throws[0]
    passes = [a for a in options if isinstance(a, Pass)]
    return passes[0] if passes else None


def tumbochka(options: Sequence[SeatAction], deals: int) -> SeatAction | None:
    bids = sorted((a for a in options if isinstance(a, Bid)), key=lambda a: a.value)
    if bids and bids[0].value == 7:
        return bids[0]
    passes = [a for a in options if isinstance(a, Pass)]
    if passes:
        return passes[0]
    if bids:
        return bids[0]
    give = _lowest_give(options)
    if give is not None:
        return give
    plays = [a for a in options if isinstance(a, Play)]
    if plays:
        return max(
            plays,
            key=lambda a: (rank_of(a.card), a.declaration is not Declaration.NONE, a.card),
        )
    return None


def passive(options: Sequence[SeatAction], deals: int) -> SeatAction | None:
    """Pass, concede or throw when possible, else give or play the lowest card, else the
    lowest bid: a human who keeps the match short and never waits."""
    for kind in (Pass, Concede, Throw):
        found = [a for a in options if isinstance(a, kind)]
        if found:
            return found[0]
    gives = [a for a in options if isinstance(a, Give)]
    if gives:
        return min(gives, key=lambda a: (a.card, a.to))
    plays = [a for a in options if isinstance(a, Play)]
    if plays:
        return min(plays, key=lambda a: (a.card, a.declaration is not None))
    bids = [a for a in options if isinstance(a, Bid)]
    return min(bids, key=lambda a: a.value) if bids else None
