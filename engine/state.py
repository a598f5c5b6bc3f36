"""The frozen state of a match and of its current deal (rules §5: every card in one place).

States are immutable, and equal when their contents are equal (so a refused action provably
changed nothing); ``DealState`` is a named tuple, ``MatchState`` a frozen record whose fields
are computed when first read. The engine computes on a mutable ``engine.table.Table``; hands,
the talon and sets of seats are bit masks (see ``engine.cards``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

from engine.actions import Action, Declaration
from engine.rules import Rules

if TYPE_CHECKING:
    from engine.table import Table


class Phase(StrEnum):
    DEAL_OVER = "deal-over"
    BIDDING = "bidding"
    GIVING = "giving"
    CONTRACT = "contract"
    PLAY = "play"
    MATCH_OVER = "match-over"


class Outcome(StrEnum):
    """How a deal ended before scoring."""

    PLAYED = "played"
    CONCEDED = "conceded"
    THROWN = "thrown"
    REDEALT = "redealt"


Plays = tuple[tuple[int, int], ...]
"""The cards of a trick in the order played: ``(seat, card)`` pairs."""


class DeclarationMade(NamedTuple):
    seat: int
    kind: Declaration
    suit: int
    value: int


class DealState(NamedTuple):
    dealer: int
    active: tuple[int, ...]
    hands: tuple[int, ...]
    talon: int
    talon_shown: bool
    bids: tuple[tuple[int, int | None], ...]
    """Public bidding history: ``(seat, value)``, ``None`` for a pass."""
    bid: int
    bidder: int | None
    passed: int
    declarer: int | None
    contract: int
    contract_named: bool
    without_bid: bool
    given: tuple[tuple[int, int, int], ...]
    """``(giver, receiver, card)``: known to those two seats only."""
    turn: int | None
    trump: int | None
    trick: Plays
    tricks: tuple[tuple[int, Plays], ...]
    """Completed tricks, public: ``(winner, plays)``."""
    won: tuple[int, ...]
    points: tuple[int, ...]
    declarations: tuple[DeclarationMade, ...]
    trilyazh: tuple[int, int, int] | None
    """``(seat, suit, stage)``: stage 1, 2, 3 while the J, Q, K trick is due or on the table."""
    outcome: Outcome | None


MatchValues = tuple[
    Rules,
    Phase,
    tuple[int, ...],
    tuple[int, ...],
    int | None,
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
    DealState | None,
    int | None,
]
"""A ``MatchState``'s fields in the order of ``MatchState._fields``."""


class _Slots:
    """Where a ``MatchState`` keeps its value: ``phase`` at once; the other fields in
    ``_values``, or, until they are asked for, derived from the table that ``apply`` left the
    state on (``_table``, while the table's ``owner`` is this state) or from the state before
    it and the action applied to it (``_parent``, ``_action``). ``apply`` fills a draft of
    this class and then makes it a ``MatchState`` (``engine.match``)."""

    __slots__ = ("_action", "_parent", "_table", "_values", "phase")

    phase: Phase
    _values: MatchValues | None
    _table: Table | None
    _parent: MatchState | None
    _action: Action | None


class MatchState(_Slots):
    """The match: a frozen value with the fields of ``_fields``. Equal, hashed, pickled and
    shown by those fields alone, and ``_replace`` makes a changed copy (as a named tuple
    would). Only ``phase`` is stored by ``apply`` at once; the other fields are computed when
    first read (``_derive``, which ``engine.match`` sets) and then kept. A state is read on
    the thread that applies actions to it."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = (
        "rules", "phase", "scores", "bolts", "perch", "perch_attempts", "falls", "bagels",
        "deals", "deal", "winner",
    )
    _derive: ClassVar[Callable[[MatchState], MatchValues]]

    def __new__(
        cls,
        rules: Rules,
        phase: Phase,
        scores: tuple[int, ...],
        bolts: tuple[int, ...],
        perch: int | None,
        perch_attempts: int,
        falls: tuple[int, ...],
        bagels: tuple[int, ...],
        deals: int,
        deal: DealState | None,
        winner: int | None,
    ) -> MatchState:
        state = new_draft()
        state.phase = phase
        state._values = (
            rules, phase, scores, bolts, perch, perch_attempts, falls, bagels, deals, deal, winner
        )
        state._table = state._parent = state._action = None
        state.__class__ = MatchState
        return state

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a MatchState is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a MatchState is frozen: cannot delete {name!r}")

    def _all(self) -> MatchValues:
        values = self._values
        if values is None:
            values = MatchState._derive(self)
            object.__setattr__(self, "_values", values)
        return values

    @property
    def rules(self) -> Rules:
        values = self._values
        if values is not None:
            return values[0]
        # A state without its fields yet was made by ``apply`` on a table of its match, whose
        # rules do not change: reading them does not compute the other fields.
        table = self._table
        return table.rules if table is not None else self._all()[0]

    @property
    def scores(self) -> tuple[int, ...]:
        return (self._values or self._all())[2]

    @property
    def bolts(self) -> tuple[int, ...]:
        return (self._values or self._all())[3]

    @property
    def perch(self) -> int | None:
        """The seat on the barrel (Тысяча) or on the tumbochka (Тумбочка)."""
        return (self._values or self._all())[4]

    @property
    def perch_attempts(self) -> int:
        return (self._values or self._all())[5]

    @property
    def falls(self) -> tuple[int, ...]:
        return (self._values or self._all())[6]

    @property
    def bagels(self) -> tuple[int, ...]:
        return (self._values or self._all())[7]

    @property
    def deals(self) -> int:
        """Deals dealt so far, redeals included (the golden round counts them)."""
        return (self._values or self._all())[8]

    @property
    def deal(self) -> DealState | None:
        return (self._values or self._all())[9]

    @property
    def winner(self) -> int | None:
        return (self._values or self._all())[10]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MatchState):
            return self._all() == other._all()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self._all(), strict=True))
        return f"MatchState({fields})"

    def __reduce__(self) -> tuple[type[MatchState], MatchValues]:
        return MatchState, self._all()

    def _replace(self, **changes: Any) -> MatchState:
        """A copy with the fields named by ``changes`` changed."""
        fields: dict[str, Any] = dict(zip(self._fields, self._all(), strict=True))
        unknown = changes.keys() - fields.keys()
        if unknown:
            raise ValueError(f"Got unexpected field names: {sorted(unknown)!r}")
        fields.update(changes)
        return MatchState(**fields)

    @property
    def turn(self) -> int | None:
        deal = self.deal
        if deal is None or self.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            return None
        return deal.turn

    @property
    def next_dealer(self) -> int | None:
        """The seat that must deal next, or ``None`` before the first deal (any seat)."""
        table = self._table
        if self._values is None and table is not None and table.owner is self:
            # Read from the table this state owns, without computing the other fields (a
            # random deal asks this of a state no one else reads).
            if not table.has_deal:
                return None
            dealer = table.dealer
        else:
            deal = self.deal
            if deal is None:
                return None
            dealer = deal.dealer
        return (dealer + 1) % self.rules.players


new_draft = cast("Callable[[], MatchState]", _Slots)
"""A blank state to fill: its slots are set, then its class made ``MatchState`` (which
refuses to be changed)."""
