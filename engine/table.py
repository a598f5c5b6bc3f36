"""The rules core's state: one mutable ``Table`` for a match and its current deal (rules §5:
every card in one place), with ``copy()``, and its two conversions to and from the frozen
``MatchState`` that the public interface hands out.

The table is plain slots, ints and bit masks: hands, the played cards, the voids each seat
has shown are masks; "nobody" is ``None`` except the trump, which is −1 for none so that
the computer players' policy compares it with suits directly. ``apply`` (``engine.match``)
changes a table and freezes it into the next ``MatchState``; the computer players copy one
table per playout (``engine.ai``). Nothing here knows a game: the ``Variant`` the table
carries answers every game-specific question (``engine.games``).

A state that ``apply`` returns is its table's ``owner`` and is read from it, so that the
next ``apply`` or ``legal_actions`` on the newest state starts from the table instead of
thawing a frozen record; ``apply`` changes the table and makes the new state its owner. An
older state keeps what it needs to be computed again (``engine.state``); one that is used
again (a branch, a replay) gets a thawed table, which is the same table.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.games import Variant, variant_of
from engine.history import replay, trick_winner
from engine.rules import Rules
from engine.state import (
    DealState,
    DeclarationMade,
    MatchState,
    MatchValues,
    Outcome,
    Phase,
    Plays,
)


class Table:
    """A match and its current deal, mutable; see the module docstring."""

    __slots__ = (
        "active",
        "bagels",
        "bid",
        "bidder",
        "bids",
        "bolts",
        "caps",
        "contract",
        "contract_named",
        "dealer",
        "deals",
        "deck",
        "declarations",
        "declarer",
        "falls",
        "forced",
        "given",
        "grounds",
        "hands",
        "has_deal",
        "listed",
        "nxt",
        "outcome",
        "owner",
        "passed",
        "perch",
        "perch_attempts",
        "phase",
        "played",
        "points",
        "rules",
        "scores",
        "taking",
        "talon",
        "talon_shown",
        "trick",
        "tricks",
        "trilyazh",
        "trump",
        "turn",
        "variant",
        "voids",
        "winner",
        "without_bid",
        "won",
    )

    rules: Rules
    variant: Variant
    phase: Phase
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    perch: int | None
    perch_attempts: int
    falls: tuple[int, ...]
    bagels: tuple[int, ...]
    deals: int
    winner: int | None
    has_deal: bool
    dealer: int
    active: tuple[int, ...]
    nxt: tuple[int, ...]
    """The next playing seat clockwise, by seat."""
    hands: list[int]
    talon: int
    talon_shown: bool
    bids: tuple[tuple[int, int | None], ...]
    bid: int
    bidder: int | None
    passed: int
    declarer: int | None
    contract: int
    contract_named: bool
    without_bid: bool
    given: tuple[tuple[int, int, int], ...]
    turn: int | None
    trump: int
    trick: Plays
    taking: tuple[int, int]
    """``(seat, card)`` that takes the trick on the table so far (``trick_winner``), kept as
    each card is played; meaningless while no trick is on the table."""
    tricks: tuple[tuple[int, Plays], ...]
    won: list[int]
    points: list[int]
    declarations: tuple[DeclarationMade, ...]
    trilyazh: tuple[int, int, int] | None
    forced: tuple[int, int] | None
    """``(seat, mask)``: the cards ``seat`` must lead next (the trilyazh, ``Variant``)."""
    outcome: Outcome | None
    deck: int
    played: int
    """Every card played in this deal."""
    voids: list[int]
    """Per seat, a bit per suit it has shown it no longer holds (by not following, or not
    trumping while a trump stood): what every seat may know."""
    caps: dict[int, int]
    """This deal's bid caps by hand (the marriages held are counted once)."""
    grounds: dict[int, Any]
    """This deal's redeal grounds by hand."""
    listed: list[object]
    """The actions ``legal_actions`` listed on this table: ``apply`` trusts these very objects."""
    owner: MatchState | None
    """The state this table is now (see the module docstring)."""

    def seat_deal(self, dealer: int, active: tuple[int, ...], hands: list[int], talon: int) -> None:
        """A new deal on the table: every deal field reset."""
        n = self.rules.players
        self.has_deal = True
        self.dealer = dealer
        self.active = active
        self.nxt = _clockwise(n, active)
        self.hands = hands
        self.talon = talon
        self.talon_shown = False
        self.bids = ()
        self.bid = 0
        self.bidder = None
        self.passed = 0
        self.declarer = None
        self.contract = 0
        self.contract_named = False
        self.without_bid = False
        self.given = ()
        self.turn = None
        self.trump = -1
        self.trick = ()
        self.taking = _NOBODY
        self.tricks = ()
        self.won = [0] * n
        self.points = [0] * n
        self.declarations = ()
        self.trilyazh = None
        self.forced = None
        self.outcome = None
        self.played = 0
        self.voids = [0] * n
        self.caps = {}
        self.grounds = {}

    def copy(self) -> Table:
        """An independent table: the lists are copied, the immutable values shared."""
        other = Table.__new__(Table)
        other.active = self.active
        other.bagels = self.bagels
        other.bid = self.bid
        other.bidder = self.bidder
        other.bids = self.bids
        other.bolts = self.bolts
        other.caps = self.caps
        other.contract = self.contract
        other.contract_named = self.contract_named
        other.dealer = self.dealer
        other.deals = self.deals
        other.deck = self.deck
        other.declarations = self.declarations
        other.declarer = self.declarer
        other.falls = self.falls
        other.forced = self.forced
        other.given = self.given
        other.grounds = self.grounds
        other.hands = self.hands[:]
        other.has_deal = self.has_deal
        other.nxt = self.nxt
        other.listed = []
        other.outcome = self.outcome
        other.owner = None
        other.passed = self.passed
        other.perch = self.perch
        other.perch_attempts = self.perch_attempts
        other.phase = self.phase
        other.played = self.played
        other.points = self.points[:]
        other.rules = self.rules
        other.scores = self.scores
        other.talon = self.talon
        other.talon_shown = self.talon_shown
        other.trick = self.trick
        other.taking = self.taking
        other.tricks = self.tricks
        other.trilyazh = self.trilyazh
        other.trump = self.trump
        other.turn = self.turn
        other.variant = self.variant
        other.voids = self.voids[:]
        other.winner = self.winner
        other.without_bid = self.without_bid
        other.won = self.won[:]
        return other

    def values(self) -> MatchValues:
        """The fields of the frozen state of this table (``MatchState._fields``)."""
        deal = None
        if self.has_deal:
            trump = self.trump
            deal = _new(
                DealState,
                (
                    self.dealer, self.active, tuple(self.hands), self.talon, self.talon_shown,
                    self.bids, self.bid, self.bidder, self.passed, self.declarer,
                    self.contract, self.contract_named, self.without_bid, self.given,
                    self.turn, trump if trump >= 0 else None, self.trick, self.tricks,
                    tuple(self.won), tuple(self.points), self.declarations, self.trilyazh,
                    self.outcome,
                ),
            )
        return (
            self.rules, self.phase, self.scores, self.bolts, self.perch, self.perch_attempts,
            self.falls, self.bagels, self.deals, deal, self.winner,
        )

    def freeze(self) -> MatchState:
        """The frozen state of this table, on its own (it does not become the owner)."""
        return MatchState(*self.values())


_new = tuple.__new__
_NOBODY = (-1, -1)


@cache
def _clockwise(players: int, active: tuple[int, ...]) -> tuple[int, ...]:
    """The next playing seat clockwise, by seat (a seat that sits out points at itself)."""
    nxt = list(range(players))
    for i, s in enumerate(active):
        nxt[s] = active[(i + 1) % len(active)]
    return tuple(nxt)


def playing(
    rules: Rules,
    active: tuple[int, ...],
    hands: list[int],
    *,
    declarer: int,
    contract: int,
    turn: int,
    trump: int = -1,
    trick: Plays = (),
    points: list[int] | None = None,
    won: list[int] | None = None,
    played: int = 0,
    voids: list[int] | None = None,
    trilyazh: tuple[int, int, int] | None = None,
) -> Table:
    """A table in the play phase with these hands (the computer players' determinizations):
    the match around it at scores 0, the talon and the histories empty."""
    n = rules.players
    t = Table.__new__(Table)
    t.rules = rules
    t.variant = variant_of(rules)
    t.deck = t.variant.deck
    t.phase = Phase.PLAY
    t.scores = t.bolts = t.falls = t.bagels = (0,) * n
    t.perch = t.winner = None
    t.perch_attempts = 0
    t.deals = 1
    t.listed = []
    t.owner = None
    t.seat_deal((active[0] - 1) % n, active, hands, 0)
    t.declarer = declarer
    t.contract = contract
    t.turn = turn
    t.trump = trump
    t.trick = trick
    if trick:
        t.taking = trick_winner(trick, trump)
    if points is not None:
        t.points = points
    if won is not None:
        t.won = won
    t.played = played
    if voids is not None:
        t.voids = voids
    t.trilyazh = trilyazh
    t.forced = t.variant.forced_lead(t)
    return t


def take(state: MatchState) -> Table:
    """The table of ``state`` to change: the one it owns, else a thawed one (not kept)."""
    table = state._table
    if table is not None and table.owner is state:
        return table
    return thaw(state)


def peek(state: MatchState) -> Table:
    """The table of ``state`` to read: the one it owns, else a thawed one that it then keeps."""
    table = state._table
    if table is None or table.owner is not state:
        table = thaw(state)
        attach(state, table)
    return table


def trust(state: MatchState, action: object) -> None:
    """List ``action``, which the engine made for ``state``, as verified: ``apply`` on
    ``state`` takes it without its verifier (while ``state`` owns its table)."""
    table = state._table
    if table is not None and table.owner is state:
        table.listed.append(action)


def attach(state: MatchState, table: Table) -> None:
    """Make ``table`` (equal to ``state``) the table of ``state``."""
    table.owner = state
    object.__setattr__(state, "_table", table)


def thaw(state: MatchState) -> Table:
    """A table equal to the frozen ``state``."""
    t = Table.__new__(Table)
    t.rules = state.rules
    t.variant = variant_of(state.rules)
    t.deck = t.variant.deck
    t.phase = state.phase
    t.scores = state.scores
    t.bolts = state.bolts
    t.perch = state.perch
    t.perch_attempts = state.perch_attempts
    t.falls = state.falls
    t.bagels = state.bagels
    t.deals = state.deals
    t.winner = state.winner
    t.listed = []
    t.owner = None
    deal = state.deal
    if deal is None:
        t.seat_deal(0, (), [0] * state.rules.players, 0)
        t.has_deal = False
        return t
    t.seat_deal(deal.dealer, deal.active, list(deal.hands), deal.talon)
    for name in _DEAL_FIELDS:
        setattr(t, name, getattr(deal, name))
    t.won = list(deal.won)
    t.points = list(deal.points)
    t.forced = t.variant.forced_lead(t)
    tricks = (*(plays for _, plays in deal.tricks), deal.trick)
    history = replay(t.variant, state.rules.players, deal.declarations, tricks)
    t.played = history.played
    t.voids = list(history.voids)
    t.trump = deal.trump if deal.trump is not None else -1
    if deal.trick:
        t.taking = trick_winner(deal.trick, t.trump)
    return t


_DEAL_FIELDS = (
    "talon_shown", "bids", "bid", "bidder", "passed", "declarer", "contract",
    "contract_named", "without_bid", "given", "turn", "trick", "tricks", "declarations",
    "trilyazh", "outcome",
)
