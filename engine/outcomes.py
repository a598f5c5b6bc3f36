"""What a deal's end would change: the variants' own scoring (rules §1.4 concession, §1.6–1.7,
§2, §3.3–3.4) run on a copy of a table, so that the computer players value the ends of their
playouts, a concession or a throw by the very rules the match is scored by.

``around`` builds the table of a deal as far as its scoring reads it (the match's scores,
bolts and perch; the deal's seats, declarer and contract); ``settle`` scores a copy of it
for one end (points and tricks won, or a concession or a throw).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.events import Event
from engine.rules import Rules
from engine.state import Outcome
from engine.table import Table, playing


class Settlement(NamedTuple):
    changes: tuple[int, ...]
    """Each seat's score change, the match's rules (barrel, bolts, perch) included."""
    winner: int | None
    """The seat that wins the match by this deal, if any."""
    events: tuple[Event, ...]
    perch_attempts: int
    """The attempts used by the seat on the barrel or the tumbochka after the deal (0 when
    nobody sits there)."""


def around(
    rules: Rules,
    active: tuple[int, ...],
    *,
    declarer: int,
    contract: int,
    scores: tuple[int, ...],
    bolts: tuple[int, ...],
    perch: int | None,
    perch_attempts: int,
    deals: int,
    bagels: tuple[int, ...],
    falls: tuple[int, ...],
    without_bid: bool = False,
    contract_named: bool = True,
) -> Table:
    """The table a deal is scored from (its cards are not needed)."""
    t = playing(
        rules, active, [0] * rules.players, declarer=declarer, contract=contract, turn=declarer
    )
    t.scores, t.bolts, t.bagels, t.falls = scores, bolts, bagels, falls
    t.perch, t.perch_attempts, t.deals = perch, perch_attempts, deals
    t.without_bid, t.contract_named = without_bid, contract_named
    return t


def settle(
    table: Table,
    outcome: Outcome,
    contract: int,
    points: Sequence[int] = (),
    won: Sequence[int] = (),
) -> Settlement:
    """The settlement of ``table``'s deal ended by ``outcome`` at ``contract`` (with these
    ``points`` and tricks ``won`` when played out); ``table`` is not changed."""
    t = table.copy()
    t.contract = contract
    if points:
        t.points = list(points)
        t.won = list(won)
    events: list[Event] = []
    before = t.scores
    t.outcome = outcome
    t.variant.score(t, outcome, events)
    changes = tuple(a - b for a, b in zip(t.scores, before, strict=True))
    return Settlement(changes, t.winner, tuple(events), t.perch_attempts)
