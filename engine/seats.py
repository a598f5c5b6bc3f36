"""Whose turn comes next: clockwise over the seats that play the deal."""

from __future__ import annotations

from engine.table import Table


def next_bidder(t: Table, seat: int) -> int:
    """The next seat clockwise after ``seat`` that has not passed."""
    nxt = t.nxt
    candidate = nxt[seat]
    while t.passed >> candidate & 1 and candidate != seat:
        candidate = nxt[candidate]
    return candidate


def before_first_lead(t: Table) -> bool:
    return not t.trick and not t.tricks
