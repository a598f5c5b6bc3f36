"""A match's summary from its stored text: places, scores, counters and the score sheet.

`summarize(header, log, players)` replays the match notation (the header's rules lines and the
log's deal blocks and actions) with the engine's `MatchReader`, walks the events it collects,
and returns a `MatchSummary`: the `storage.MatchResult` that `Results.record_match` stores
(winner, final scores, places, settlement, deals, per-seat `Counters`) plus what the score
sheet («пулька») shows deal by deal. It is a pure function of its arguments; it works on a
finished, an abandoned and a running match alike (a running one is summarized as it stands).

Counting rules (the docstring of `storage.Counters` has the fields):

* Deals: every deal that ended — scored, or void by a redeal; a seat counts the deals it
  played (the sitting-out dealer of a four-player «Тысяча одно» does not).
* Contracts: the declarer of a scored deal, unless the deal was thrown before a contract was
  named (then nobody had one); a concession or a throw is a failed contract.
* The perch is the barrel (Тысяча) or the tumbochka (Тумбочка): ``Mounted`` climbs it,
  ``Fell`` falls off it (any cause); ``perch_made``: the match was won by the declarer who sat
  on it when the deal began.
* Places: 1 = the winner; then by final score, ties by seat order. Without a winner (an
  abandoned match) everyone by final score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine import Declaration, Game, MatchReader, NotationError
from engine.events import (
    BoltGiven,
    Conceded,
    ContractNamed,
    DealScored,
    DealStarted,
    Declared,
    DeclarerChosen,
    DumpTruck,
    Event,
    Fell,
    GoldenBagel,
    MatchOver,
    Mounted,
    RedealAsked,
    Thrown,
    TrilyazhCompleted,
)
from engine.games.tumbochka import TUMBOCHKA
from storage import Counters, MatchResult, PlayerRef

_DEAL_LINES = ("dealer", "hand", "talon", "shuffle")
_MARRIAGE_FIELDS = ("marriages_spades", "marriages_clubs", "marriages_diamonds", "marriages_hearts")


class DealOutcome(StrEnum):
    """How a deal ended, as the score sheet shows it."""

    MADE = "made"
    FAILED = "failed"
    CONCEDED = "conceded"
    THROWN = "thrown"
    REDEAL = "redeal"


class Mark(StrEnum):
    """A seat's marks in a deal's row of the score sheet."""

    BOLT = "bolt"
    BOLT_PENALTY = "bolt-penalty"
    ON_PERCH = "on-perch"
    MOUNTED = "mounted"
    FELL = "fell"
    BAGEL = "bagel"
    DUMP_TRUCK = "dump-truck"
    WINNER = "winner"


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal of the score sheet. ``number`` counts deals as dealt (redeals included)."""

    number: int
    dealer: int
    active: tuple[int, ...]
    declarer: int | None
    contract: int | None
    """None when there was none: a redeal before the bidding closed, or a deal thrown before
    a contract was named."""
    outcome: DealOutcome
    redeal_by: int | None
    points: tuple[int, ...]
    changes: tuple[int, ...]
    scores: tuple[int, ...]
    marks: tuple[frozenset[Mark], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSummary(MatchResult):
    """`MatchResult` plus the score sheet and what its chart needs."""

    start_scores: tuple[int, ...]
    sheet: tuple[SheetRow, ...] = field(default=())
    perch_score: int | None = None
    """The barrel (880) or the tumbochka (20); None when the game has none."""
    target: int | None = None

    @property
    def running(self) -> bool:
        """No winner yet: the match is still on (or was abandoned)."""
        return self.winner is None


@dataclass(slots=True)
class _Deal:
    number: int
    dealer: int
    active: tuple[int, ...]
    perch: int | None
    declarer: int | None = None
    contract: int | None = None
    outcome: DealOutcome | None = None
    without_contract: bool = False
    redeal_by: int | None = None


class _Walk:
    """The event walk: counters per seat, the perch, and the rows of the sheet."""

    def __init__(self, players: int, scores: tuple[int, ...], perch: int | None) -> None:
        self.counters = [Counters() for _ in range(players)]
        self.scores = scores
        self.perch = perch
        self.deal: _Deal | None = None
        self.rows: list[SheetRow] = []
        self.pending: SheetRow | None = None
        self.marks: list[set[Mark]] = []
        self.winner: int | None = None
        self.settlement: tuple[int, ...] | None = None
        self.deals = 0

    def add(self, seat: int, **changes: int) -> None:
        self.counters[seat] = self.counters[seat].plus(**changes)

    def mark(self, seat: int, mark: Mark) -> None:
        if self.marks:
            self.marks[seat].add(mark)

    def event(self, event: Event) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def started(self, event: DealStarted) -> None:
        self.close()
        self.deal = _Deal(event.number, event.dealer, event.active, self.perch)

    def chosen(self, event: DeclarerChosen) -> None:
        if self.deal is not None:
            self.deal.declarer, self.deal.contract = event.seat, event.bid

    def named(self, event: ContractNamed) -> None:
        if self.deal is not None:
            self.deal.contract = event.value

    def declared(self, event: Declared) -> None:
        if event.kind is Declaration.MARRIAGE:
            self.add(event.seat, **{_MARRIAGE_FIELDS[event.suit]: 1})
        elif event.kind is Declaration.ACES:
            self.add(event.seat, ace_marriages=1)
        elif event.kind is Declaration.TROYAN:
            self.add(event.seat, troyans=1)

    def trilyazh(self, event: TrilyazhCompleted) -> None:
        self.add(event.seat, trilyazhes=1)

    def redeal(self, event: RedealAsked) -> None:
        self.add(event.seat, redeals=1)
        deal = self.deal
        if deal is None:
            return
        deal.outcome, deal.redeal_by = DealOutcome.REDEAL, event.seat
        zeros = (0,) * len(self.scores)
        self.finish_deal(zeros, zeros)

    def conceded(self, event: Conceded) -> None:
        self.add(event.seat, concessions=1)
        if self.deal is not None:
            self.deal.outcome = DealOutcome.CONCEDED

    def thrown(self, event: Thrown) -> None:
        self.add(event.seat, throws=1)
        if self.deal is not None:
            self.deal.outcome = DealOutcome.THROWN
            self.deal.without_contract = event.without_contract

    def scored(self, event: DealScored) -> None:
        deal = self.deal
        if deal is None:
            return
        declarer = event.declarer
        deal.declarer = declarer
        deal.contract = None if deal.without_contract else event.contract
        if deal.outcome is None:
            deal.outcome = DealOutcome.MADE if event.made else DealOutcome.FAILED
        if declarer is not None and not deal.without_contract:
            self.add(
                declarer, contracts=1, contract_points=event.contract,
                contracts_made=int(event.made), contracts_failed=int(not event.made),
            )
        self.scores = event.scores
        self.finish_deal(event.points, event.changes)

    def finish_deal(self, points: tuple[int, ...], changes: tuple[int, ...]) -> None:
        deal = self.deal
        assert deal is not None and deal.outcome is not None
        self.deals += 1
        for seat in deal.active:
            self.add(seat, deals=1)
        self.marks = [set() for _ in self.scores]
        if deal.perch is not None:
            self.marks[deal.perch].add(Mark.ON_PERCH)
        self.pending = SheetRow(
            deal.number, deal.dealer, deal.active, deal.declarer, deal.contract, deal.outcome,
            deal.redeal_by, points, changes, self.scores, (),
        )
        self.deal = None

    def bolt(self, event: BoltGiven) -> None:
        self.add(event.seat, bolts=1, bolt_penalties=int(event.penalty > 0))
        self.mark(event.seat, Mark.BOLT)
        if event.penalty:
            self.mark(event.seat, Mark.BOLT_PENALTY)

    def mounted(self, event: Mounted) -> None:
        self.add(event.seat, perch_mounted=1)
        self.mark(event.seat, Mark.MOUNTED)
        self.perch = event.seat

    def fell(self, event: Fell) -> None:
        self.add(event.seat, perch_fallen=1)
        self.mark(event.seat, Mark.FELL)
        if self.perch == event.seat:
            self.perch = None

    def bagel(self, event: GoldenBagel) -> None:
        self.add(event.seat, golden_bagels=1)
        self.mark(event.seat, Mark.BAGEL)

    def dump_truck(self, event: DumpTruck) -> None:
        self.add(event.seat, dump_trucks=1)
        self.mark(event.seat, Mark.DUMP_TRUCK)

    def over(self, event: MatchOver) -> None:
        winner = event.winner
        self.winner, self.settlement, self.scores = winner, event.settlement, event.scores
        self.mark(winner, Mark.WINNER)
        row = self.pending
        sat = bool(self.marks) and Mark.ON_PERCH in self.marks[winner]
        if sat and row is not None and row.declarer == winner and row.outcome is DealOutcome.MADE:
            self.add(winner, perch_made=1)

    def close(self) -> None:
        """Move the last scored deal, with the marks gathered after it, into the sheet."""
        if self.pending is not None:
            marks = tuple(frozenset(m) for m in self.marks)
            self.rows.append(_with_marks(self.pending, marks))
            self.pending, self.marks = None, []


def _with_marks(row: SheetRow, marks: tuple[frozenset[Mark], ...]) -> SheetRow:
    return SheetRow(
        row.number, row.dealer, row.active, row.declarer, row.contract, row.outcome,
        row.redeal_by, row.points, row.changes, row.scores, marks,
    )


_HANDLERS: dict[type, Callable[[_Walk, Any], None]] = {
    DealStarted: _Walk.started,
    DeclarerChosen: _Walk.chosen,
    ContractNamed: _Walk.named,
    Declared: _Walk.declared,
    TrilyazhCompleted: _Walk.trilyazh,
    RedealAsked: _Walk.redeal,
    Conceded: _Walk.conceded,
    Thrown: _Walk.thrown,
    DealScored: _Walk.scored,
    BoltGiven: _Walk.bolt,
    Mounted: _Walk.mounted,
    Fell: _Walk.fell,
    GoldenBagel: _Walk.bagel,
    DumpTruck: _Walk.dump_truck,
    MatchOver: _Walk.over,
}


def summarize(
    header: str | Sequence[str],
    log: Sequence[str],
    players: Sequence[PlayerRef],
    *,
    match_id: int = 0,
) -> MatchSummary:
    """The summary of the match whose rules are ``header`` and whose log is ``log``.

    ``players`` are the seats' players in seat order. Raises ``NotationError`` if the text
    does not replay, ``ValueError`` if ``players`` does not fit the table.
    """
    header_lines = header.splitlines() if isinstance(header, str) else list(header)
    reader = MatchReader()
    number = 0
    for number, line in enumerate(header_lines, start=1):
        words = line.split("#", 1)[0].split()
        if words and words[0].lower() in _DEAL_LINES:
            raise NotationError("a deal line in the header", number)
        reader.feed(number, line)
    start = reader.state
    rules = start.rules
    if len(players) != rules.players:
        raise ValueError(f"{len(players)} players for a table of {rules.players}")
    walk = _Walk(rules.players, start.scores, start.perch)
    for offset, line in enumerate(log, start=1):
        reader.feed(number + offset, line)
    reader.flush()
    for event in reader.events:
        walk.event(event)
    walk.close()
    scores = walk.scores
    return MatchSummary(
        match_id=match_id,
        game=rules.game,
        players=tuple(players),
        version=len(log),
        winner=walk.winner,
        scores=scores,
        places=places_of(scores, walk.winner),
        settlement=walk.settlement,
        deals=walk.deals,
        counters=tuple(walk.counters),
        start_scores=start.scores,
        sheet=tuple(walk.rows),
        perch_score=_perch_score(rules.game, rules.barrel),
        target=None if rules.game is Game.TUMBOCHKA else rules.target,
    )


def places_of(scores: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """1 for the winner, then by score (highest first), ties by seat order."""
    order = sorted(range(len(scores)), key=lambda s: (s != winner, -scores[s], s))
    places = [0] * len(scores)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


def _perch_score(game: Game, barrel: int | None) -> int | None:
    if game is Game.THOUSAND:
        return barrel
    if game is Game.TUMBOCHKA:
        return TUMBOCHKA
    return None

