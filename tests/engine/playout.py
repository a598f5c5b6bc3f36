"""Seeded random playouts of complete matches, checked against the rules after every action.

``play_match`` deals with ``random_deal`` and picks actions with a biased random policy
(passing and low bids preferred, declarations usually made, concede / throw / redeal rare,
otherwise uniform over the legal cards) until the match is over. With ``checks`` on, after
every action it verifies, independently of the engine's own code where it can:

* every card of the game's deck is in exactly one place (a hand, the talon while not taken,
  the trick on the table, a completed trick);
* deal points = card points of the tricks won + declarations (Тумбочка: tricks + 3 per
  completed trilyazh); card points in tricks + in play = 120; trick winners follow §1.5;
* ``legal_actions`` equals an oracle computed from ``docs/rules.md`` (bids, gives,
  contracts, plays with their declarations, concede / throw / redeal) and is non-empty
  except in ``deal-over`` and ``match-over``;
* every legal action applies (all of them at some steps), a sample of other actions is
  refused with ``IllegalAction`` and leaves the state equal to a copy taken before;
* ``view`` shows each seat its own hand and nothing of the others', the talon only when
  the game shows it or to the seat that took it, and the public view holds no hand;
* after each deal the scores, bolts, barrel / tumbochka, falls, golden bagels and the
  winner equal an independent model of §1.6–§1.7, §2 and §3.3–§3.4.

At the end the match is written as notation and ``replay`` must give the same final state.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine import (
    Bid,
    Concede,
    Deal,
    DealState,
    Declaration,
    Game,
    Give,
    IllegalAction,
    MatchState,
    NameContract,
    Outcome,
    Pass,
    Phase,
    Play,
    Redeal,
    Rules,
    SeatAction,
    Throw,
    apply,
    format_action,
    format_deal,
    format_header,
    legal_actions,
    new_match,
    parse_action,
    random_deal,
    replay,
    view,
)
from engine import events as ev
from engine.cards import THOUSAND_DECK, TUMBOCHKA_DECK

# --- cards, independently of the engine's helpers ------------------------------------------
# A card id is ``suit * 9 + rank`` over the ranks 6 7 8 9 J Q K T A and the suits S C D H.
SIX, SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(9)
RANK_POINTS = {NINE: 0, JACK: 2, QUEEN: 3, KING: 4, TEN: 10, ACE: 11}
MARRIAGE_VALUE = (40, 60, 80, 100)
ACES_VALUE = 200
THOUSAND_ORDER = (NINE, JACK, QUEEN, KING, TEN, ACE)
TUMBOCHKA_ORDER = (SIX, SEVEN, EIGHT, JACK, QUEEN, KING)


def suit(c: int) -> int:
    return c // 9


def rank(c: int) -> int:
    return c % 9


def cid(r: int, s: int) -> int:
    return s * 9 + r


def cards(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def mask(cs: Iterable[int]) -> int:
    m = 0
    for c in cs:
        m |= 1 << c
    return m


CARD_POINTS = tuple(RANK_POINTS.get(rank(c), 0) for c in range(36))


def points_of(mask_: int) -> int:
    return sum(CARD_POINTS[c] for c in cards(mask_))


def deck_of(game: Game) -> int:
    return TUMBOCHKA_DECK if game is Game.TUMBOCHKA else THOUSAND_DECK


def strength(game: Game, c: int) -> int:
    order = TUMBOCHKA_ORDER if game is Game.TUMBOCHKA else THOUSAND_ORDER
    return order.index(rank(c))


def has(hand: int, *cs: int) -> bool:
    return all(hand >> c & 1 for c in cs)


def marriages_value(hand: int, ace_marriage: bool) -> int:
    total = sum(MARRIAGE_VALUE[s] for s in range(4) if has(hand, cid(KING, s), cid(QUEEN, s)))
    if ace_marriage and has(hand, *(cid(ACE, s) for s in range(4))):
        total += ACES_VALUE
    return total


def round_to(points: int, rounding: int | None) -> int:
    """§1.6 and fine point 12, written out as the rules page states them."""
    if rounding is None:
        return points
    rest = points % rounding
    if rounding == 5:
        return points - rest if rest <= 2 else points - rest + 5
    return points - rest if rest <= 4 else points - rest + 10


def half_up5(contract: int) -> int:
    half = contract / 2
    result = 0
    while result < half:
        result += 5
    return result


# --- option sets ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OptionSet:
    name: str
    rules: Rules
    full_matches: int
    scores: tuple[int, ...] | None = None
    """Starting scores (the notation's ``scores`` header), to reach the endgame at once."""
    bolts: tuple[int, ...] | None = None
    uniform: bool = False
    """Uniform random choice among all legal actions (high bids, high contracts, early
    redeals); such matches are cut at ``deal_limit`` deals and need not end."""
    deal_limit: int = 3000


def _rules(game: Game, players: int = 3, **options: str) -> Rules:
    rules = Rules(game=game, players=players)
    for name, value in options.items():
        rules = rules.with_option(name, value)
    return rules


THOUSAND_SETS: tuple[OptionSet, ...] = (
    OptionSet("thousand-defaults", _rules(Game.THOUSAND), 200),
    OptionSet(
        "thousand-golden-aces-step10",
        _rules(Game.THOUSAND, golden_round="on", ace_marriage="on", bid_step="10"),
        200,
    ),
    OptionSet(
        "thousand-target1000-minus-100-hidden",
        _rules(Game.THOUSAND, target="1000", minus_bidding="-100", hidden_talon_on_hundred="on"),
        200,
    ),
    OptionSet(
        "thousand-nobarrel-noredeal-round10",
        _rules(Game.THOUSAND, barrel="off", redeal="off", rounding="10"),
        200,
    ),
    OptionSet(
        "thousand-noconcede-nobolts-nodump-minus0",
        _rules(Game.THOUSAND, concede="off", bolts="off", dump_truck="off", minus_bidding="0"),
        200,
    ),
    OptionSet(
        "thousand-nopenalty-barrelnobid-roundnone",
        _rules(Game.THOUSAND, concede_penalty="off", barrel_bidding="off", rounding="none"),
        200,
    ),
    OptionSet(
        "thousand-nocap-minus-200-golden",
        _rules(
            Game.THOUSAND,
            bid_cap_without_marriage="off",
            minus_bidding="-200",
            golden_round="on",
        ),
        200,
    ),
    OptionSet(
        "thousand-minus-300-aces-hidden-1000-barrelnobid",
        _rules(
            Game.THOUSAND,
            minus_bidding="-300",
            ace_marriage="on",
            hidden_talon_on_hundred="on",
            target="1000",
            barrel_bidding="off",
        ),
        200,
    ),
    OptionSet(
        "thousand-step10-nocap-round10-nopenalty",
        _rules(
            Game.THOUSAND,
            bid_step="10",
            bid_cap_without_marriage="off",
            rounding="10",
            concede_penalty="off",
            redeal="off",
        ),
        200,
    ),
    OptionSet(
        "thousand-nobarrel-1000-golden-nodump",
        _rules(Game.THOUSAND, barrel="off", target="1000", golden_round="on", dump_truck="off"),
        200,
    ),
)

THOUSAND_ONE_SETS: tuple[OptionSet, ...] = tuple(
    OptionSet(f"thousand-one-{players}p-{label}", _rules(Game.THOUSAND_ONE, players, **opts), 250)
    for players in (3, 4)
    for label, opts in (
        ("defaults", {}),
        ("aces", {"ace_marriage": "on"}),
        ("round10", {"rounding": "10"}),
        ("aces-roundnone", {"ace_marriage": "on", "rounding": "none"}),
    )
)

TUMBOCHKA_SETS: tuple[OptionSet, ...] = (OptionSet("tumbochka", _rules(Game.TUMBOCHKA), 1000),)

ENDGAME_SETS: tuple[OptionSet, ...] = (
    OptionSet(
        "endgame-thousand-near-barrel", _rules(Game.THOUSAND), 100, (860, 870, 850), (2, 2, 2)
    ),
    OptionSet("endgame-thousand-on-barrel", _rules(Game.THOUSAND), 100, (880, 860, 500), (0, 2, 1)),
    OptionSet(
        "endgame-thousand-golden-barrel-1000",
        _rules(Game.THOUSAND, golden_round="on", target="1000", barrel_bidding="off"),
        100,
        (870, 880, 840),
    ),
    OptionSet(
        "endgame-thousand-minus-1000-dump",
        _rules(Game.THOUSAND, minus_bidding="-300"),
        100,
        (-950, 505, -455),
        (2, 2, 2),
    ),
    OptionSet(
        "endgame-thousand-nobarrel", _rules(Game.THOUSAND, barrel="off"), 100, (950, 990, 900)
    ),
    OptionSet("endgame-thousand-one", _rules(Game.THOUSAND_ONE), 100, (960, 980, 955)),
    OptionSet("endgame-thousand-one-4p", _rules(Game.THOUSAND_ONE, 4), 100, (960, 980, 955, 990)),
    OptionSet("endgame-tumbochka", _rules(Game.TUMBOCHKA), 200, (18, 20, 19)),
    OptionSet("endgame-tumbochka-low", _rules(Game.TUMBOCHKA), 100, (0, -5, 20)),
)
"""Matches that start near the end (header scores): the barrel, −1000, the dump truck,
1001, the tumbochka, at once and often."""

UNIFORM_SETS: tuple[OptionSet, ...] = (
    OptionSet(
        "uniform-thousand-nocap-aces",
        _rules(Game.THOUSAND, bid_cap_without_marriage="off", ace_marriage="on"),
        50,
        uniform=True,
        deal_limit=30,
    ),
    OptionSet(
        "uniform-thousand-barrel",
        _rules(Game.THOUSAND, bid_step="10"),
        50,
        (880, 850, 0),
        uniform=True,
        deal_limit=30,
    ),
    OptionSet(
        "uniform-thousand-one-4p",
        _rules(Game.THOUSAND_ONE, 4, ace_marriage="on"),
        50,
        uniform=True,
        deal_limit=30,
    ),
    OptionSet("uniform-tumbochka", _rules(Game.TUMBOCHKA), 50, uniform=True, deal_limit=30),
)
"""Short stretches of uniformly random play: every legal action equally likely."""

ALL_SETS: tuple[OptionSet, ...] = (
    THOUSAND_SETS + THOUSAND_ONE_SETS + TUMBOCHKA_SETS + ENDGAME_SETS + UNIFORM_SETS
)


# --- the policy ----------------------------------------------------------------------------
def choose(state: MatchState, legal: Sequence[SeatAction], rng: random.Random) -> SeatAction:
    """A biased random choice that lets matches end: pass often, bid low (the barrel or
    tumbochka player bids for the win), keep the bid as the contract, declare when possible,
    rarely concede / throw / redeal; the declarer plays its strongest card half the time,
    everyone else uniformly at random."""
    by_kind: dict[type, list[SeatAction]] = {}
    for action in legal:
        by_kind.setdefault(type(action), []).append(action)
    for kind, chance in ((Redeal, 0.05), (Concede, 0.03), (Throw, 0.03)):
        if kind in by_kind and rng.random() < chance:
            return rng.choice(by_kind[kind])
    deal = state.deal
    assert deal is not None
    if state.phase is Phase.BIDDING:
        bids = sorted(
            (a for a in by_kind.get(Bid, []) if isinstance(a, Bid)), key=lambda a: a.value
        )
        perched = deal.turn == state.perch and state.perch is not None
        if bids and perched and rng.random() < 0.9:
            return bids[0]
        if Pass in by_kind and (not bids or rng.random() < 0.6):
            return by_kind[Pass][0]
        return bids[0] if rng.random() < 0.7 else rng.choice(bids[:4])
    if Give in by_kind:
        return rng.choice(by_kind[Give])
    contracts = sorted(
        (a for a in by_kind.get(NameContract, []) if isinstance(a, NameContract)),
        key=lambda a: a.value,
    )
    if contracts and rng.random() < 0.2:
        return rng.choice(contracts[:3])
    plays = [a for a in by_kind.get(Play, []) if isinstance(a, Play)]
    declaring = [p for p in plays if p.declaration is not Declaration.NONE]
    if declaring and rng.random() < 0.9:
        return rng.choice(declaring)
    plain = [p for p in plays if p.declaration is Declaration.NONE]
    if not plain:
        return rng.choice(list(legal))
    if deal.turn == deal.declarer and rng.random() < 0.5:
        game = state.rules.game
        trump = deal.trump

        def power(p: Play) -> tuple[bool, int]:
            return trump is not None and suit(p.card) == trump, strength(game, p.card)

        return max(plain, key=power)
    return rng.choice(plain)


def uniform(state: MatchState, legal: Sequence[SeatAction], rng: random.Random) -> SeatAction:
    """Every legal action equally likely."""
    return rng.choice(list(legal))


# --- results -------------------------------------------------------------------------------
@dataclass(slots=True)
class MatchResult:
    deals: int
    actions: int
    finished: bool
    winner: int | None
    final: MatchState
    lines: list[str]
    coverage: Counter[str] = field(default_factory=Counter)
    """How often each kind of event (and each cause of a fall) happened."""


@dataclass(slots=True)
class Totals:
    matches: int = 0
    deals: int = 0
    actions: int = 0
    unfinished: int = 0
    deals_per_match: list[int] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)

    def add(self, result: MatchResult) -> None:
        self.coverage.update(result.coverage)
        self.matches += 1
        self.deals += result.deals
        self.actions += result.actions
        self.unfinished += not result.finished
        self.deals_per_match.append(result.deals)

    def distribution(self) -> str:
        if not self.deals_per_match:
            return "no matches"
        d = sorted(self.deals_per_match)

        def pct(p: float) -> int:
            return d[min(len(d) - 1, int(p * len(d)))]

        return (
            f"deals/match min {d[0]} p50 {pct(0.5)} p90 {pct(0.9)} p99 {pct(0.99)} "
            f"max {d[-1]} mean {sum(d) / len(d):.1f}"
        )


class PlayoutError(AssertionError):
    pass


RESULTS: dict[str, Totals] = {}
"""Totals per option set of this process's playout tests, for the terminal summary."""


# --- the bidding, simulated from the rules -------------------------------------------------
class BiddingModel:
    """Whose turn it is and who declares at what, from §1.2–§1.3, §1.7, §2, §3.1 alone."""

    def __init__(self, state: MatchState) -> None:
        deal = state.deal
        assert deal is not None
        rules = state.rules
        self.rules = rules
        self.scores = state.scores
        self.perch = state.perch
        n = rules.players
        if rules.game is Game.THOUSAND_ONE and n == 4:
            self.active = tuple((deal.dealer + i) % n for i in range(1, 4))
        else:
            self.active = tuple((deal.dealer + i) % n for i in range(1, n + 1))
        self.passed: set[int] = set()
        self.history: list[tuple[int, int | None]] = []
        self.bid = 0
        self.bidder: int | None = None
        self.turn: int | None = None
        self.declarer: int | None = None
        self.contract = 0
        self.exact = None if rules.barrel is None else rules.target - rules.barrel
        if rules.game is Game.THOUSAND:
            if self.perch is not None and not rules.barrel_bidding:
                assert self.exact is not None
                self.declarer, self.contract = self.perch, self.exact
                self.bidder = self.perch  # declares the barrel contract: not "without a bid"
                return
            hundred = self.active[0]
            self.bid, self.bidder = 100, hundred
            self.history.append((hundred, 100))
            self._advance(1)
        else:
            self._advance(0)

    def act(self, seat: int, value: int | None) -> None:
        assert seat == self.turn
        self.history.append((seat, value))
        if value is None:
            self.passed.add(seat)
        else:
            self.bid, self.bidder = value, seat
        self._advance(self.active.index(seat) + 1)

    def _advance(self, index: int) -> None:
        threshold = self.rules.minus_bidding if self.rules.game is Game.THOUSAND else None
        while True:
            unpassed = [s for s in self.active if s not in self.passed]
            if len(unpassed) == 1:
                self._close(unpassed[0])
                return
            seat = self.active[index % len(self.active)]
            index += 1
            if seat in self.passed:
                continue
            if threshold is not None and self.scores[seat] < threshold:
                self.passed.add(seat)
                self.history.append((seat, None))
                continue
            self.turn = seat
            return

    def _close(self, declarer: int) -> None:
        self.turn = None
        self.declarer = declarer
        if self.bidder is None:
            assert self.rules.game is Game.THOUSAND_ONE, "nobody bid"
            self.contract = 40
            return
        assert self.bidder == declarer, "the last seat standing is not the last bidder"
        self.contract = self.bid
        if (
            self.rules.game is Game.THOUSAND
            and declarer == self.perch
            and self.exact is not None
            and self.bid < self.exact
        ):
            self.contract = self.exact


# --- the checker ---------------------------------------------------------------------------
@dataclass(slots=True)
class _DealTracker:
    """What the checker follows through a deal from the events and the actions."""

    trump_at_trick: list[int | None] = field(default_factory=list)
    trilyazh: tuple[int, int, int] | None = None
    """``(seat, suit, rank)`` while a trilyazh is under way: the rank of its current or
    next trick (J, then Q, then K)."""
    trilyazh_done: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    closing_contract: int | None = None
    bidding: BiddingModel | None = None


class Checker:
    """Invariant and oracle checks for one match."""

    def __init__(
        self,
        rules: Rules,
        rng: random.Random,
        *,
        all_legal_every: int = 10,
        illegal_chance: float = 0.15,
    ) -> None:
        self.rules = rules
        self.rng = rng
        self.all_legal_every = all_legal_every
        self.illegal_chance = illegal_chance
        self.deck = deck_of(rules.game)
        self.tracker = _DealTracker()
        self.step = 0

    # -- called by play_match --
    def before(self, state: MatchState, legal: tuple[SeatAction, ...]) -> None:
        self.step += 1
        phase = state.phase
        if phase in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            _require(legal == (), f"legal actions in {phase}: {legal}")
            return
        _require(bool(legal), f"no legal action in {phase}")
        expected = self.oracle_legal(state)
        got = set(legal)
        _require(len(got) == len(legal), "legal_actions lists an action twice")
        if got != expected:
            extra = sorted(map(format_action, got - expected))
            missing = sorted(map(format_action, expected - got))
            raise PlayoutError(
                f"legal_actions differs from the rules: extra {extra} missing {missing}"
            )
        if self.step % self.all_legal_every == 0:
            per_seat: set[SeatAction] = set()
            for seat in range(self.rules.players):
                per_seat |= set(legal_actions(state, seat))
            _require(per_seat == got, "legal_actions(state, seat) do not add up to the whole")
            for action in legal:
                try:
                    after, _ = apply(state, action)
                except IllegalAction as error:
                    raise PlayoutError(f"legal {format_action(action)} refused: {error}") from None
                self.check_cards(after)
        if self.rng.random() < self.illegal_chance:
            self.check_refusals(state, got)

    def after(
        self,
        before: MatchState,
        action: SeatAction | Deal,
        state: MatchState,
        events: tuple[object, ...],
    ) -> None:
        if isinstance(action, Deal):
            self.tracker = _DealTracker()
        t = self.tracker
        history_before = 0 if t.bidding is None else len(t.bidding.history)
        trilyazh_before = t.trilyazh
        deal = state.deal
        assert deal is not None
        self._follow(before, action, state, events)
        self.check_flow(before, action, state)
        self.check_cards(state)
        self.check_points(state)
        self.check_views(state, events)
        model = None
        if state.phase in (Phase.DEAL_OVER, Phase.MATCH_OVER) and not isinstance(action, Deal):
            model = self.check_scoring(before, state)
        self.check_events(before, action, state, events, history_before, trilyazh_before, model)

    # -- following the deal --
    def _follow(
        self,
        before: MatchState,
        action: SeatAction | Deal,
        state: MatchState,
        events: tuple[object, ...],
    ) -> None:
        deal = state.deal
        assert deal is not None
        t = self.tracker
        if state.phase is Phase.GIVING:
            t.closing_contract = deal.contract
        if not isinstance(action, Play):
            return
        prev = before.deal
        assert prev is not None
        trick_index = len(prev.tricks)
        if not prev.trick:
            # a lead: the trump of this trick is the trump after any declaration
            t.trump_at_trick.append(_trump_after_lead(prev.trump, action))
            if action.declaration is Declaration.TRILYAZH:
                t.trilyazh = (action.seat, suit(action.card), JACK)
        if len(deal.tricks) > len(prev.tricks):
            winner, plays = deal.tricks[-1]
            trump = t.trump_at_trick[trick_index]
            expected = _winner(self.rules.game, plays, trump)
            _require(winner == expected, f"trick {plays} won by {winner}, rules say {expected}")
            if t.trilyazh is not None:
                holder, s, stage = t.trilyazh
                if winner != holder:
                    t.trilyazh = None
                elif stage == KING:
                    t.trilyazh_done[holder] += 1
                    t.trilyazh = None
                else:
                    t.trilyazh = (holder, s, QUEEN if stage == JACK else KING)

    # -- turns, the declarer, the contract, moving cards --
    def check_flow(self, before: MatchState, action: SeatAction | Deal, state: MatchState) -> None:
        deal = state.deal
        assert deal is not None
        t = self.tracker
        if isinstance(action, Deal):
            if before.deal is not None:
                _require(
                    deal.dealer == (before.deal.dealer + 1) % self.rules.players,
                    "the dealer did not rotate clockwise",
                )
            t.bidding = BiddingModel(state)
            _require(deal.active == t.bidding.active, f"active seats {deal.active}")
        model = t.bidding
        assert model is not None
        if isinstance(action, (Bid, Pass)):
            model.act(action.seat, action.value if isinstance(action, Bid) else None)
        if before.phase is Phase.BIDDING or isinstance(action, Deal):
            _require(
                deal.bids == tuple(model.history), f"bids {deal.bids}, expected {model.history}"
            )
            if model.declarer is None:
                _require(state.phase is Phase.BIDDING, f"bidding closed early: {state.phase}")
                _require(deal.turn == model.turn, f"turn {deal.turn}, rules say {model.turn}")
            else:
                _require(state.phase is Phase.GIVING, f"bidding over but phase {state.phase}")
                _require(
                    (deal.declarer, deal.contract) == (model.declarer, model.contract),
                    f"declarer/contract {deal.declarer}/{deal.contract}, rules say "
                    f"{model.declarer}/{model.contract}",
                )
                _require(deal.turn == model.declarer, "the declarer does not act after bidding")
                prev = before.deal if not isinstance(action, Deal) else None
                dealt = action.hands if isinstance(action, Deal) else None
                original = dealt[model.declarer] if dealt is not None else None
                if original is None and prev is not None:
                    original = prev.hands[model.declarer]
                assert original is not None
                _require(
                    deal.hands[model.declarer] == original | deal.talon,
                    "the declarer did not take the talon",
                )
        if isinstance(action, Give):
            prev = before.deal
            assert prev is not None
            _require(
                deal.hands[action.seat] == prev.hands[action.seat] & ~(1 << action.card)
                and deal.hands[action.to] == prev.hands[action.to] | 1 << action.card,
                "the given card did not move",
            )
            expected_phase = (
                Phase.CONTRACT if len(deal.given) == len(deal.active) - 1 else Phase.GIVING
            )
            _require(state.phase is expected_phase, f"after giving the phase is {state.phase}")
        if isinstance(action, NameContract):
            _require(
                deal.contract == action.value and state.phase is Phase.PLAY, "contract not named"
            )
        if isinstance(action, Play):
            prev = before.deal
            assert prev is not None
            if state.phase is not Phase.PLAY:
                _require(deal.turn is None, "turn after the deal")
            elif len(deal.tricks) > len(prev.tricks):
                _require(deal.turn == deal.tricks[-1][0], "the trick's winner does not lead")
            else:
                active = deal.active
                after_seat = active[(active.index(action.seat) + 1) % len(active)]
                _require(deal.turn == after_seat, "play does not go clockwise")

    # -- invariants --
    def check_cards(self, state: MatchState) -> None:
        deal = state.deal
        if deal is None:
            return
        places = list(deal.hands)
        if deal.declarer is None:
            places.append(deal.talon)
        places.append(mask(c for _, c in deal.trick))
        places += [mask(c for _, c in plays) for _, plays in deal.tricks]
        union = 0
        total = 0
        for m in places:
            union |= m
            total += m.bit_count()
        _require(union == self.deck, "a card of the deck is nowhere, or a foreign card appeared")
        _require(total == self.deck.bit_count(), "a card is in two places")
        for seat in range(self.rules.players):
            if seat not in deal.active:
                _require(deal.hands[seat] == 0, f"sitting-out seat {seat} holds cards")

    def check_points(self, state: MatchState) -> None:
        deal = state.deal
        assert deal is not None
        game = self.rules.game
        won = [0] * self.rules.players
        trick_points = [0] * self.rules.players
        for winner, plays in deal.tricks:
            _require(len(plays) == len(deal.active), "a completed trick lacks cards")
            won[winner] += 1
            trick_points[winner] += points_of(mask(c for _, c in plays))
        _require(list(deal.won) == won, f"won {deal.won}, tricks say {won}")
        if game is Game.TUMBOCHKA:
            expected = [won[s] + 3 * self.tracker.trilyazh_done[s] for s in range(len(won))]
            _require(list(deal.points) == expected, f"points {deal.points}, expected {expected}")
            if deal.outcome is Outcome.PLAYED:
                _require(len(deal.tricks) == 8 and sum(won) == 8, "a played deal is not 8 tricks")
            return
        declared = [0] * self.rules.players
        for made in deal.declarations:
            if made.kind is Declaration.MARRIAGE:
                declared[made.seat] += MARRIAGE_VALUE[made.suit]
            elif made.kind is Declaration.ACES:
                declared[made.seat] += ACES_VALUE
        expected = [trick_points[s] + declared[s] for s in range(len(won))]
        _require(list(deal.points) == expected, f"points {deal.points}, expected {expected}")
        in_play = sum(points_of(h) for h in deal.hands) + points_of(mask(c for _, c in deal.trick))
        if deal.declarer is None:
            in_play += points_of(deal.talon)
        _require(sum(trick_points) + in_play == 120, "card points do not add up to 120")
        if deal.outcome is Outcome.PLAYED:
            _require(len(deal.tricks) == 8 and sum(trick_points) == 120, "a played deal is short")

    def check_views(self, state: MatchState, events: tuple[object, ...]) -> None:
        deal = state.deal
        assert deal is not None
        shown = self.talon_shown(deal)
        event_names = {type(e).__name__ for e in events}
        if "TalonShown" in event_names:
            _require(shown, "TalonShown event for a talon the game does not show")
        for seat in range(self.rules.players):
            v = view(state, seat)
            own = deal.hands[seat]
            _require(mask(v.hand) == own and len(v.hand) == own.bit_count(), "view hand wrong")
            for other in range(self.rules.players):
                if other != seat:
                    _require(not mask(v.hand) & deal.hands[other], "a view shows another's cards")
            may_see = (
                state.phase is not Phase.BIDDING
                and deal.declarer is not None
                and (shown or seat == deal.declarer)
            )
            if v.talon is not None:
                _require(may_see, f"seat {seat} sees a talon it may not see")
                _require(mask(v.talon) == deal.talon, "view talon differs from the talon")
            else:
                _require(not may_see, f"seat {seat} does not see a talon it may see")
            for giver, card in v.received:
                _require(
                    any(g == giver and to == seat and c == card for g, to, c in deal.given),
                    "view received a card nobody gave",
                )
        public = view(state, None)
        _require(public.hand == () and public.legal == (), "the public view holds a hand")
        _require(public.received == () and public.given == (), "the public view holds gives")
        if public.talon is not None:
            _require(shown and state.phase is not Phase.BIDDING, "public view shows a hidden talon")

    def talon_shown(self, deal: DealState) -> bool:
        game = self.rules.game
        if game is Game.TUMBOCHKA:
            return False
        if game is Game.THOUSAND_ONE or not self.rules.hidden_talon_on_hundred:
            return True
        hundred = deal.active[0]
        others_bid = any(v is not None and s != hundred for s, v in deal.bids)
        return not (
            deal.declarer == hundred and self.tracker.closing_contract == 100 and not others_bid
        )

    def check_refusals(self, state: MatchState, legal: set[SeatAction]) -> None:
        snapshot = copy.deepcopy(state)
        for action in self._illegal_candidates(state):
            if action in legal:
                continue
            try:
                after, _ = apply(state, action)
            except IllegalAction:
                if state != snapshot:
                    raise PlayoutError(
                        f"refused {format_action(action)} changed the state"
                    ) from None
                continue
            raise PlayoutError(
                f"{format_action(action)} is not in legal_actions but was accepted "
                f"(phase {state.phase} -> {after.phase})"
            )

    def _illegal_candidates(self, state: MatchState) -> list[SeatAction]:
        deal = state.deal
        assert deal is not None
        rng = self.rng
        n = self.rules.players
        out: list[SeatAction] = []
        for _ in range(3):
            seat = rng.randrange(n)
            out.append(Bid(seat, rng.choice((rng.randrange(-10, 330), rng.randrange(0, 16)))))
            out.append(NameContract(seat, rng.randrange(0, 320)))
            c = rng.choice(cards(self.deck))
            out.append(Play(seat, c, rng.choice(list(Declaration))))
            out.append(Give(seat, c, rng.randrange(n)))
        for seat in range(n):
            out += [Pass(seat), Redeal(seat), Concede(seat), Throw(seat)]
            hand = cards(deal.hands[seat])
            if hand:
                c = rng.choice(hand)
                out.append(Play(seat, c))
                out.append(Play(seat, c, rng.choice(list(Declaration))))
                out.append(Give(seat, c, seat))
                out.append(Give(seat, c, rng.randrange(n)))
            elsewhere = [c for c in cards(self.deck) if not deal.hands[seat] >> c & 1]
            out.append(Play(seat, rng.choice(elsewhere)))
        return out

    # -- the oracle of legal actions --
    def oracle_legal(self, state: MatchState) -> set[SeatAction]:
        deal = state.deal
        assert deal is not None
        out: set[SeatAction] = set()
        phase = state.phase
        rules = self.rules
        game = rules.game
        declarer = deal.declarer
        if phase is Phase.BIDDING:
            seat = deal.turn
            assert seat is not None
            values, may_pass = self.oracle_bids(state, deal, seat)
            out |= {Bid(seat, v) for v in values}
            if may_pass:
                out.add(Pass(seat))
            return out
        assert declarer is not None
        first_lead_pending = not deal.trick and not deal.tricks
        if phase is Phase.GIVING:
            given_to = {to for _, to, _ in deal.given}
            for to in deal.active:
                if to != declarer and to not in given_to:
                    out |= {Give(declarer, c, to) for c in cards(deal.hands[declarer])}
        if phase is Phase.CONTRACT:
            out |= {NameContract(declarer, v) for v in self.oracle_contracts(state, deal)}
        if phase in (Phase.CONTRACT, Phase.PLAY):
            seat = deal.turn
            assert seat is not None
            out |= self.oracle_plays(deal, seat)
        early = phase in (Phase.CONTRACT, Phase.PLAY) and first_lead_pending
        if game is Game.THOUSAND and early:
            if rules.concede:
                out.add(Concede(declarer))
            if rules.redeal:
                for seat in deal.active:
                    hand = deal.hands[seat]
                    nines = has(hand, *(cid(NINE, s) for s in range(4)))
                    if nines or points_of(hand) < 14:
                        out.add(Redeal(seat))
        if game is Game.THOUSAND_ONE and (phase is Phase.GIVING or early):
            out.add(Throw(declarer))
        return out

    def oracle_bids(self, state: MatchState, deal: DealState, seat: int) -> tuple[set[int], bool]:
        rules = self.rules
        game = rules.game
        hand = deal.hands[seat]
        if game is Game.TUMBOCHKA:
            sitter = state.perch
            if deal.bid == 0 and seat != sitter:
                return {4}, False
            low = max(deal.bid + 1, 7 if seat == sitter else 4)
            values = set(range(low, 15))
            if sitter is not None and seat != sitter and state.scores[seat] < 1:
                values = {v for v in values if v < 7}
            return values, True
        if game is Game.THOUSAND_ONE:
            low = deal.bid + 5 if deal.bid else 40
            cap = min(300, 120 + marriages_value(hand, rules.ace_marriage))
            return set(range(low, cap + 1, 5)), True
        low = deal.bid + rules.bid_step
        cap = 300
        if rules.bid_cap_without_marriage:
            cap = min(cap, 120 + marriages_value(hand, rules.ace_marriage))
        multiples = {v for v in range(0, cap + 1, 5) if v >= low}
        if rules.barrel is not None and seat == state.perch:
            exact = rules.target - rules.barrel
            values = {v for v in multiples if v > exact}
            if exact >= low:
                values.add(exact)
            return values, True
        return multiples, True

    def oracle_contracts(self, state: MatchState, deal: DealState) -> set[int]:
        rules = self.rules
        declarer = deal.declarer
        assert declarer is not None
        bid = deal.contract
        if rules.game is Game.TUMBOCHKA:
            return set(range(bid, 15))
        step = rules.bid_step if rules.game is Game.THOUSAND else 5
        cap = 300
        if rules.game is Game.THOUSAND_ONE or rules.bid_cap_without_marriage:
            cap = min(300, 120 + marriages_value(deal.hands[declarer], rules.ace_marriage))
        return {bid} | {v for v in range(0, cap + 1, 5) if v >= bid + step}

    def oracle_plays(self, deal: DealState, seat: int) -> set[SeatAction]:
        rules = self.rules
        game = rules.game
        hand = deal.hands[seat]
        held = cards(hand)
        if deal.trick:
            led = suit(deal.trick[0][1])
            follow = [c for c in held if suit(c) == led]
            trumps = [c for c in held if deal.trump is not None and suit(c) == deal.trump]
            allowed = follow or trumps or held
            return {Play(seat, c) for c in allowed}
        t = self.tracker.trilyazh
        if t is not None and t[0] == seat:
            return {Play(seat, cid(t[2], t[1]))}
        out: set[SeatAction] = {Play(seat, c) for c in held}
        if game is Game.TUMBOCHKA:
            for s in range(4):
                if has(hand, cid(SIX, s), cid(SEVEN, s), cid(EIGHT, s)):
                    out.add(Play(seat, cid(SIX, s), Declaration.TROYAN))
                if has(hand, cid(JACK, s), cid(QUEEN, s), cid(KING, s)):
                    out.add(Play(seat, cid(JACK, s), Declaration.TRILYAZH))
            return out
        if game is Game.THOUSAND and not deal.won[seat]:
            return out
        for s in range(4):
            if has(hand, cid(KING, s), cid(QUEEN, s)):
                out.add(Play(seat, cid(KING, s), Declaration.MARRIAGE))
                out.add(Play(seat, cid(QUEEN, s), Declaration.MARRIAGE))
        aces = [cid(ACE, s) for s in range(4)]
        if rules.ace_marriage and has(hand, *aces):
            out |= {Play(seat, a, Declaration.ACES) for a in aces}
        return out

    # -- the scoring model --
    def check_scoring(self, before: MatchState, state: MatchState) -> Expected:
        deal = state.deal
        assert deal is not None
        model = score_model(before, deal, self.tracker)
        got = Expected(
            scores=state.scores,
            bolts=state.bolts,
            perch=state.perch,
            attempts=state.perch_attempts,
            falls=state.falls,
            bagels=state.bagels,
            winner=state.winner,
        )
        if state.winner is not None:
            # notation: once the match is over nobody sits on the barrel or the tumbochka
            _require(
                state.perch is None and state.perch_attempts == 0,
                f"seat {state.perch} still sits after the match is over",
            )
            got = got._replace_end()
            model = model._replace_end()
        if got != model:
            raise PlayoutError(f"deal scored as {got}, the rules say {model}")
        if state.winner is None:
            _require(state.phase is Phase.DEAL_OVER, "a deal without a winner ended the match")
        else:
            _require(state.phase is Phase.MATCH_OVER, "a winner but the match goes on")
        return model

    # -- the events --
    def check_events(
        self,
        before: MatchState,
        action: SeatAction | Deal,
        state: MatchState,
        events: tuple[object, ...],
        history_before: int,
        trilyazh_before: tuple[int, int, int] | None,
        model: Expected | None,
    ) -> None:
        """The events say what happened, all of it and only that, with what everyone may
        know."""
        deal = state.deal
        assert deal is not None
        prev = before.deal
        t = self.tracker
        game = self.rules.game
        expected: list[object] = []
        # what the action itself does
        if isinstance(action, Deal):
            expected.append(ev.DealStarted(state.deals, action.dealer, deal.active))
        elif isinstance(action, Give):
            expected.append(ev.CardGiven(action.seat, action.to))
        elif isinstance(action, NameContract):
            expected.append(ev.ContractNamed(action.seat, action.value))
        elif isinstance(action, Redeal):
            hand = deal.hands[action.seat]
            nines = has(hand, *(cid(NINE, s) for s in range(4)))
            ground = ev.RedealGround.FOUR_NINES if nines else ev.RedealGround.UNDER_14_POINTS
            expected.append(ev.RedealAsked(action.seat, ground))
        elif isinstance(action, Concede):
            assert prev is not None
            expected.append(ev.Conceded(action.seat, prev.contract))
        elif isinstance(action, Throw):
            assert prev is not None
            without = prev.without_bid and not prev.contract_named
            expected.append(ev.Thrown(action.seat, prev.contract, without))
        elif isinstance(action, Play):
            assert prev is not None
            expected.append(ev.CardPlayed(action.seat, action.card))
            kind = action.declaration
            if kind is not Declaration.NONE:
                value = {
                    Declaration.MARRIAGE: MARRIAGE_VALUE[suit(action.card)],
                    Declaration.ACES: ACES_VALUE,
                }.get(kind, 0)
                expected.append(ev.Declared(action.seat, kind, suit(action.card), value))
                if kind in (Declaration.MARRIAGE, Declaration.TROYAN):
                    expected.append(ev.TrumpChanged(suit(action.card)))
            if len(deal.tricks) > len(prev.tricks):
                winner, plays = deal.tricks[-1]
                cards_played = tuple(c for _, c in plays)
                gained = 1 if game is Game.TUMBOCHKA else points_of(mask(cards_played))
                expected.append(ev.TrickWon(winner, cards_played, gained))
                if trilyazh_before is not None:
                    holder, s, stage = trilyazh_before
                    if winner != holder:
                        expected.append(ev.TrilyazhBroken(holder, s))
                    elif stage == KING:
                        expected.append(ev.TrilyazhCompleted(holder, s))
        # the bidding
        model_bidding = t.bidding
        if model_bidding is not None and isinstance(action, (Deal, Bid, Pass)):
            for i, (seat, bid) in enumerate(model_bidding.history[history_before:]):
                if bid is None:
                    own = isinstance(action, Pass) and i == 0 and seat == action.seat
                    expected.append(ev.Passed(seat, automatic=not own))
                else:
                    forced = isinstance(action, Deal)
                    expected.append(ev.BidMade(seat, bid, forced=forced))
            closed = (
                before.phase in (Phase.BIDDING, Phase.DEAL_OVER) and state.phase is Phase.GIVING
            )
            if closed:
                declarer = model_bidding.declarer
                assert declarer is not None
                expected.append(
                    ev.DeclarerChosen(
                        declarer, model_bidding.contract, model_bidding.bidder is None
                    )
                )
                if self.talon_shown(deal):
                    expected.append(ev.TalonShown(tuple(sorted(cards(deal.talon)))))
                expected.append(ev.TalonTaken(declarer))
        # the scoring (a redeal scores nothing)
        if model is not None and deal.outcome is not Outcome.REDEALT:
            expected.append(
                ev.DealScored(
                    deal.declarer,
                    deal.contract,
                    deal.outcome is Outcome.PLAYED
                    and deal.declarer is not None
                    and deal.points[deal.declarer] >= deal.contract,
                    deal.points,
                    tuple(a - b for a, b in zip(state.scores, before.scores, strict=True)),
                    state.scores,
                )
            )
            if state.winner is not None:
                w = state.winner
                paid = [state.scores[s] - state.scores[w] for s in range(self.rules.players)]
                paid[w] = -sum(paid)
                expected.append(ev.MatchOver(w, state.scores, tuple(paid)))
        notes = sorted(n for n in map(_note, events) if n)
        if model is not None and notes != list(model.notes):
            raise PlayoutError(f"scoring events {notes}, the rules call for {list(model.notes)}")
        if model is None and notes:
            raise PlayoutError(f"scoring events {notes} outside scoring")
        got = [e for e in events if not _note(e)]
        if isinstance(action, Deal) or not any(isinstance(e, ev.BidMade) for e in expected):
            # the engine may or may not announce the automatic 100 (an older engine did not)
            got_forced = [e for e in got if isinstance(e, ev.BidMade) and e.forced]
            expected = [e for e in expected if not (isinstance(e, ev.BidMade) and e.forced)]
            got = [e for e in got if e not in got_forced]
        if Counter(map(repr, got)) != Counter(map(repr, expected)):
            raise PlayoutError(f"events {got}, expected {expected}")


@dataclass(frozen=True, slots=True)
class Expected:
    scores: tuple[int, ...]
    bolts: tuple[int, ...]
    perch: int | None
    attempts: int
    falls: tuple[int, ...]
    bagels: tuple[int, ...]
    winner: int | None
    notes: tuple[str, ...] = field(default=(), compare=False)
    """The scoring events the rules call for, as sorted keys (see ``_note``)."""

    def _replace_end(self) -> Expected:
        return Expected(self.scores, self.bolts, None, 0, (), self.bagels, self.winner, self.notes)


def _leader(scores: Sequence[int], deal: DealState) -> int:
    best = max(scores)
    if deal.declarer is not None and scores[deal.declarer] == best:
        return deal.declarer
    n = len(scores)
    for step in range(1, n + 1):
        seat = (deal.dealer + step) % n
        if scores[seat] == best:
            return seat
    raise AssertionError


def score_model(before: MatchState, deal: DealState, tracker: _DealTracker) -> Expected:
    """The match after ``deal``, from the rules page alone."""
    game = before.rules.game
    if game is Game.THOUSAND:
        return _thousand_model(before, deal)
    if game is Game.THOUSAND_ONE:
        return _thousand_one_model(before, deal)
    return _tumbochka_model(before, deal)


def _thousand_model(before: MatchState, deal: DealState) -> Expected:
    rules = before.rules
    n = rules.players
    scores = list(before.scores)
    bolts = list(before.bolts)
    barrel = before.perch
    attempts = before.perch_attempts
    same = Expected(
        tuple(scores), tuple(bolts), barrel, attempts, before.falls, before.bagels, None
    )
    if deal.outcome is Outcome.REDEALT:
        return same
    mult = 2 if rules.golden_round and before.deals <= 3 else 1
    declarer = deal.declarer
    assert declarer is not None
    contract = deal.contract
    made = deal.outcome is Outcome.PLAYED and deal.points[declarer] >= contract
    exact = None if rules.barrel is None else rules.target - rules.barrel
    fallen: list[tuple[int, str]] = []
    notes: list[str] = []
    on_barrel = barrel
    winner: int | None = None

    def change(seat: int, amount: int) -> None:
        scores[seat] += amount * mult

    def bolt(seat: int) -> None:
        if not rules.bolts:
            return
        bolts[seat] += 1
        penalty = 0
        if bolts[seat] == 3:
            bolts[seat] = 0
            penalty = 120 * mult
            change(seat, -120)
        notes.append(f"bolt {seat} {bolts[seat]} {penalty}")

    def fall(seat: int, penalty: bool, cause: str) -> None:
        nonlocal on_barrel, attempts
        if any(f == seat for f, _ in fallen):
            return
        fallen.append((seat, cause))
        if penalty:
            change(seat, -120)
        if seat == on_barrel:
            on_barrel = None
            attempts = 0

    def attempt(seat: int) -> None:
        nonlocal attempts
        attempts += 1
        if attempts >= 3:
            fall(seat, True, "attempts")

    defenders = [s for s in deal.active if s != declarer]
    if barrel is not None and declarer == barrel:
        assert exact is not None
        if made:
            change(declarer, contract)
            winner = declarer
        elif contract > exact:
            change(declarer, -contract)
            fall(declarer, False, "raised-and-failed")
        else:
            attempt(declarer)
    else:
        if deal.outcome is Outcome.CONCEDED:
            if rules.concede_penalty:
                change(declarer, -contract)
            else:
                bolt(declarer)
            for seat in defenders:
                if seat != barrel:
                    change(seat, half_up5(contract))
        else:
            change(declarer, contract if made else -contract)
            for seat in defenders:
                if seat != barrel:
                    change(seat, round_to(deal.points[seat], rules.rounding))
            for seat in deal.active:
                if seat != barrel and not deal.won[seat]:
                    bolt(seat)
        if barrel is not None:
            attempt(barrel)
    if winner is None:
        if rules.barrel is None:
            if max(scores) >= rules.target:
                winner = _leader(scores, deal)
        else:
            if made and scores[declarer] >= rules.target:
                winner = declarer
            climbers = [
                s for s in range(n) if s != barrel and s != winner and scores[s] >= rules.barrel
            ]
            if winner is not None:
                for s in climbers:
                    scores[s] = rules.barrel
            elif len(climbers) == 1:
                scores[climbers[0]] = rules.barrel
                notes.append(f"mount {climbers[0]}")
                if on_barrel is not None:
                    fall(on_barrel, True, "knocked-off")
                on_barrel = climbers[0]
                attempts = 0
            elif climbers:
                sitting = on_barrel
                for s in climbers:
                    scores[s] = rules.barrel
                    notes.append(f"mount {s}")
                    fall(s, True, "climbed-together")
                if sitting is not None:
                    fall(sitting, True, "knocked-off")
                on_barrel = None
                attempts = 0
    notes += [f"fall {seat} {cause} {scores[seat]}" for seat, cause in fallen]
    if rules.dump_truck:
        notes += [f"dump {seat}" for seat, score in enumerate(scores) if abs(score) == 555]
        scores = [0 if abs(s) == 555 else s for s in scores]
    if winner is None and min(scores) <= -1000:
        winner = _leader(scores, deal)
    return Expected(
        tuple(scores),
        tuple(bolts),
        on_barrel,
        attempts if on_barrel is not None else 0,
        before.falls,
        before.bagels,
        winner,
        tuple(sorted(notes)),
    )


def _thousand_one_model(before: MatchState, deal: DealState) -> Expected:
    rules = before.rules
    scores = list(before.scores)
    declarer = deal.declarer
    assert declarer is not None
    contract = deal.contract
    if deal.outcome is Outcome.THROWN:
        if deal.without_bid and not deal.contract_named:
            for seat in deal.active:
                if seat != declarer:
                    scores[seat] += 50
        else:
            scores[declarer] -= contract
    else:
        made = deal.points[declarer] >= contract
        scores[declarer] += contract if made else -contract
        for seat in deal.active:
            if seat != declarer:
                scores[seat] += round_to(deal.points[seat], rules.rounding)
        if deal.dealer not in deal.active:
            talon = deal.talon
            for s in range(4):
                if has(talon, cid(KING, s), cid(QUEEN, s)):
                    scores[deal.dealer] += MARRIAGE_VALUE[s]
    winner = _leader(scores, deal) if max(scores) >= 1001 else None
    return Expected(tuple(scores), before.bolts, None, 0, before.falls, before.bagels, winner)


def _tumbochka_model(before: MatchState, deal: DealState) -> Expected:
    scores = list(before.scores)
    falls = list(before.falls)
    bagels = list(before.bagels)
    sitter = before.perch
    attempts = before.perch_attempts
    declarer = deal.declarer
    assert declarer is not None
    contract = deal.contract
    made = deal.points[declarer] >= contract
    for seat in deal.active:
        if seat == sitter:
            continue
        if seat == declarer:
            scores[seat] += contract if made else -contract
        else:
            scores[seat] += deal.points[seat]
    winner: int | None = None
    if sitter is not None:
        attempts += 1
        if declarer == sitter and made and contract >= 7:
            winner = sitter
    fallen: set[int] = set()
    notes: list[str] = []

    def fall(seat: int, cause: str) -> None:
        if seat in fallen:
            return
        fallen.add(seat)
        falls[seat] += 1
        if falls[seat] == 1:
            scores[seat] = 10
        else:
            scores[seat] = 0
            if not bagels[seat]:
                notes.append(f"bagel {seat}")
            bagels[seat] = 1
        notes.append(f"fall {seat} {cause} {scores[seat]}")

    climbers = [s for s in deal.active if s != sitter and scores[s] >= 20]
    now = sitter
    if winner is not None:
        for s in climbers:
            scores[s] = 20
    elif len(climbers) == 1:
        (c,) = climbers
        scores[c] = 20
        notes.append(f"mount {c}")
        if sitter is not None:
            fall(sitter, "knocked-off")
        now = c
        attempts = 0
        if bagels[c]:
            winner = c
    elif climbers:
        for s in climbers:
            scores[s] = 20
            notes.append(f"mount {s}")
            fall(s, "climbed-together")
        if sitter is not None:
            fall(sitter, "knocked-off")
        now = None
    elif sitter is not None and attempts >= 3:
        fall(sitter, "attempts")
        now = None
    return Expected(
        tuple(scores),
        before.bolts,
        now,
        attempts if now is not None else 0,
        tuple(falls),
        tuple(bagels),
        winner,
        tuple(sorted(notes)),
    )


def _note(event: object) -> str:
    """The key of a scoring event that the score model predicts ('' for other events)."""
    if isinstance(event, ev.BoltGiven):
        return f"bolt {event.seat} {event.bolts} {event.penalty}"
    if isinstance(event, ev.Mounted):
        return f"mount {event.seat}"
    if isinstance(event, ev.Fell):
        return f"fall {event.seat} {event.cause.value} {event.score}"
    if isinstance(event, ev.GoldenBagel):
        return f"bagel {event.seat}"
    if isinstance(event, ev.DumpTruck):
        return f"dump {event.seat}"
    return ""


def _trump_after_lead(trump: int | None, play: Play) -> int | None:
    if play.declaration in (Declaration.MARRIAGE, Declaration.TROYAN):
        return suit(play.card)
    return trump


def _winner(game: Game, plays: Sequence[tuple[int, int]], trump: int | None) -> int:
    led = suit(plays[0][1])
    trumps = [(seat, c) for seat, c in plays if trump is not None and suit(c) == trump]
    pool = trumps or [(seat, c) for seat, c in plays if suit(c) == led]
    return max(pool, key=lambda sc: strength(game, sc[1]))[0]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise PlayoutError(message)


# --- one match -----------------------------------------------------------------------------
def play_match(
    rules: Rules,
    seed: int,
    *,
    checks: bool = True,
    deal_limit: int = 3000,
    policy: Callable[[MatchState, Sequence[SeatAction], random.Random], SeatAction] = choose,
    scores: Sequence[int] | None = None,
    bolts: Sequence[int] | None = None,
) -> MatchResult:
    """Play one seeded match to its end (or ``deal_limit`` deals) and check it throughout."""
    rng = random.Random(seed)
    check_rng = random.Random(seed ^ 0x5EED)
    checker = Checker(rules, check_rng) if checks else None
    state = new_match(rules, scores, bolts)
    lines = format_header(rules, scores, bolts)
    deals = actions = 0
    coverage: Counter[str] = Counter()
    while state.phase is not Phase.MATCH_OVER and (
        deals < deal_limit or state.phase is not Phase.DEAL_OVER
    ):
        action: SeatAction | Deal
        if state.phase is Phase.DEAL_OVER:
            if checker is not None:
                checker.before(state, legal_actions(state))
            action = random_deal(state, rng)
            deals += 1
            lines += format_deal(action)
        else:
            legal = legal_actions(state)
            if checker is not None:
                checker.before(state, legal)
            action = policy(state, legal, rng)
            line = format_action(action)
            if checks and parse_action(line, rules.players) != action:
                raise PlayoutError(f"{line!r} does not parse back to {action!r}")
            lines.append(line)
        try:
            after, events = apply(state, action)
        except IllegalAction as error:
            raise PlayoutError(
                f"chosen legal action refused: {error}\n" + "\n".join(lines)
            ) from None
        if checker is not None:
            try:
                checker.after(state, action, after, events)
            except PlayoutError as error:
                raise PlayoutError(f"{error}\nmatch so far:\n" + "\n".join(lines)) from None
        for event in events:
            coverage[_event_key(event)] += 1
        state = after
        actions += 1
    finished = state.phase is Phase.MATCH_OVER
    if checks:
        if finished:
            _require(not legal_actions(state), "legal actions after the match")
        replayed = replay(lines)
        if replayed != state:
            raise PlayoutError(
                "replay of the notation differs from the match:\n" + "\n".join(lines)
            )
    return MatchResult(deals, actions, finished, state.winner, state, lines, coverage)


def _event_key(event: object) -> str:
    name = type(event).__name__
    cause = getattr(event, "cause", None)
    if cause is not None:
        return f"{name}:{cause}"
    if getattr(event, "automatic", False):
        return f"{name}:automatic"
    kind = getattr(event, "kind", None)
    if kind is not None:
        return f"{name}:{kind}"
    return name


def run_set(option_set: OptionSet, matches: int, *, checks: bool = True, first: int = 0) -> Totals:
    """Play matches ``first`` .. ``first + matches - 1`` of the option set's seeded series."""
    totals = Totals()
    for i in range(first, first + matches):
        seed = hash_name(option_set.name) * 100_003 + i
        totals.add(
            play_match(
                option_set.rules,
                seed,
                checks=checks,
                scores=option_set.scores,
                bolts=option_set.bolts,
                deal_limit=option_set.deal_limit,
                policy=uniform if option_set.uniform else choose,
            )
        )
    return totals


def hash_name(name: str) -> int:
    """A stable small number for a name (``hash`` of a str is salted per process)."""
    value = 0
    for ch in name:
        value = (value * 131 + ord(ch)) % 1_000_003
    return value
