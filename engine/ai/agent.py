"""The one interface of every computer player, and what all levels share.

An agent is a pure function of ``(view, rng, budget)``: it sees only ``view`` (everything
its seat may know, ``engine.view``), draws randomness only from ``rng`` and returns one of
``view.legal``. Two calls with equal views and equally seeded generators return the same
action; no agent keeps state between calls (so one agent object serves every table).

Agents are asked when ``view.turn == view.seat``. The one action a seat may take out of
turn, asking for a redeal in Тысяча, is offered separately by ``interjection``, which the
table calls for computer seats whose ``view.legal`` is non-empty while it is not their turn.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.actions import Play, Redeal, SeatAction
from engine.view import SeatView

DEFAULT_BUDGET = 1.0
"""Seconds per decision (the p99 the players are built to stay under)."""

REDEAL_AGAINST_CONTRACT = 130
"""A defender with grounds asks for a redeal against a contract this strong: the declarer
is then likely to make it, and voiding the deal costs the defender little."""


class Agent(Protocol):
    name: str

    def decide(self, view: SeatView, rng: random.Random, budget: float) -> SeatAction:
        """One of ``view.legal`` for the seat whose turn it is."""
        ...


def interjection(view: SeatView) -> SeatAction | None:
    """The out-of-turn action a computer seat takes now, if any (a defender's redeal)."""
    if view.seat is None or view.turn == view.seat:
        return None
    for action in view.legal:
        if isinstance(action, Redeal) and _voiding_pays(view):
            return action
    return None


def _voiding_pays(view: SeatView) -> bool:
    """Whether a defender with grounds gains by voiding the deal (rules §1.4, §1.7).

    Besides a strong contract: a seat on the barrel loses one of its attempts in a deal
    another seat declares, and keeps it in a void deal. Against a barrel player who bid for
    the contract, the defenders' points do not count and the contract made wins the match,
    so voiding costs nothing. A barrel contract the barrel player took unbid (on the hundred
    with both others passing, or without barrel bidding) comes with whatever hand was dealt;
    played and failed, it uses the attempt, which a redeal would give back."""
    if view.contract >= REDEAL_AGAINST_CONTRACT or view.perch == view.seat:
        return True
    # Bid for: the winning bid is the barrel player's own, not the hundred's automatic one.
    return view.declarer == view.perch and (view.declarer, view.bid) in view.bids


def play_action(view: SeatView, card: int, kind: object) -> SeatAction:
    """The element of ``view.legal`` that plays ``card`` with declaration ``kind``."""
    for action in view.legal:
        if isinstance(action, Play) and action.card == card and action.declaration == kind:
            return action
    raise ValueError(f"card {card} with {kind!r} is not legal")
