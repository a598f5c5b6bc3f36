"""Whose turn comes next: clockwise over the seats that play the deal."""

from __future__ import annotations

from engine.state import DealState


def next_seat(deal: DealState, seat: int) -> int:
    active = deal.active
    return active[(active.index(seat) + 1) % len(active)]


def next_bidder(deal: DealState, seat: int) -> int:
    """The next seat clockwise after ``seat`` that has not passed."""
    candidate = next_seat(deal, seat)
    while deal.passed >> candidate & 1 and candidate != seat:
        candidate = next_seat(deal, candidate)
    return candidate


def before_first_lead(deal: DealState) -> bool:
    return not deal.trick and not deal.tricks
