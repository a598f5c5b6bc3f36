"""What the public history of a deal shows (rules §1.5, §3.2): which lead carried which
declaration, the trump that stood at each card, the cards each seat played and the suits
each seat has shown it no longer holds (by not following, or by not trumping while a trump
stood), and who takes a trick (``trick_winner``). The table thawed from a frozen state and
the computer players' knowledge of a view both read the history through ``replay``.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.actions import Declaration
from engine.cards import SUIT_OF
from engine.games.base import Variant
from engine.state import DeclarationMade, Plays


class Replay(NamedTuple):
    plays: tuple[tuple[int, int, Declaration], ...]
    """Every card played, in order: ``(seat, card, declaration)``."""
    played: int
    played_by: tuple[int, ...]
    voids: tuple[int, ...]


def replay(
    variant: Variant,
    players: int,
    declarations: tuple[DeclarationMade, ...],
    tricks: tuple[Plays, ...],
) -> Replay:
    """The history of the deal whose tricks so far (the one on the table last) are
    ``tricks`` and whose declarations are ``declarations``."""
    pending = list(declarations)
    trump = -1
    plays: list[tuple[int, int, Declaration]] = []
    played = 0
    played_by = [0] * players
    voids = [0] * players
    for trick in tricks:
        if not trick:
            continue
        lead_seat, lead = trick[0]
        kind = Declaration.NONE
        # Declarations come in the order of their leads; a lead that could carry the next
        # one but did not would have broken it up, so the first that can is it.
        for i, made in enumerate(pending):
            leads = variant.declaration_leads(made.kind, made.suit)
            if made.seat == lead_seat and leads >> lead & 1:
                kind = made.kind
                if variant.makes_trump(kind):
                    trump = made.suit
                del pending[i]
                break
        plays.append((lead_seat, lead, kind))
        plays.extend((s, c, Declaration.NONE) for s, c in trick[1:])
        led = SUIT_OF[lead]
        for seat, c in trick:
            played |= 1 << c
            played_by[seat] |= 1 << c
            suit = SUIT_OF[c]
            if suit != led:
                voids[seat] |= 1 << led
                if trump >= 0 and suit != trump:
                    voids[seat] |= 1 << trump
    return Replay(tuple(plays), played, tuple(played_by), tuple(voids))


def trick_winner(trick: Plays, trump: int) -> tuple[int, int]:
    """``(seat, card)`` that takes the cards so far: the highest trump (``trump`` −1 for
    none), else the highest of the suit led (a higher id is a stronger card of its suit)."""
    best_seat, best = trick[0]
    best_suit = SUIT_OF[best]
    for seat, c in trick[1:]:
        s = SUIT_OF[c]
        if (s == best_suit and c > best) or (s == trump and best_suit != trump):
            best_seat, best, best_suit = seat, c, s
    return best_seat, best
