"""Playing the tricks (rules §1.5, §2, §3.2): follow suit, else trump, else anything; the
declarations a lead may carry (marriage, ace marriage, troyan, trilyazh); taking tricks.
"""

from __future__ import annotations

from engine.actions import Declaration, Play
from engine.cards import CARD_COUNT, JACK, KING, QUEEN, SUIT_MASKS, bit, card, suit_of
from engine.errors import IllegalAction, Reason
from engine.events import (
    CardPlayed,
    Declared,
    Event,
    TrickWon,
    TrilyazhBroken,
    TrilyazhCompleted,
    TrumpChanged,
)
from engine.games import variant_of
from engine.games.tumbochka import TRILYAZH_BONUS
from engine.seats import next_seat
from engine.state import (
    DealState,
    DeclarationMade,
    MatchState,
    Outcome,
    Phase,
    Plays,
    evolve,
)

_TRILYAZH_RANKS = (JACK, QUEEN, KING)


def playable(deal: DealState, seat: int) -> int:
    """The cards ``seat`` may play now (bit mask): the follow and trump duties, and the
    trilyazh's Q and K while its declarer keeps the lead."""
    hand = deal.hands[seat]
    trick = deal.trick
    if not trick:
        trilyazh = deal.trilyazh
        if trilyazh is not None and trilyazh[0] == seat:
            return hand & bit(card(_TRILYAZH_RANKS[trilyazh[2] - 1], trilyazh[1]))
        return hand
    following = hand & SUIT_MASKS[suit_of(trick[0][1])]
    if following:
        return following
    if deal.trump is not None:
        trumps = hand & SUIT_MASKS[deal.trump]
        if trumps:
            return trumps
    return hand


def _refusal(deal: DealState, seat: int, c: int) -> Reason:
    """Why card ``c``, held by ``seat``, is not playable now."""
    if not deal.trick:
        return Reason.MUST_CONTINUE_TRILYAZH
    hand = deal.hands[seat]
    if hand & SUIT_MASKS[suit_of(deal.trick[0][1])]:
        return Reason.MUST_FOLLOW_SUIT
    return Reason.MUST_TRUMP


def play_reason(state: MatchState, action: Play) -> Reason | None:
    if state.phase is Phase.MATCH_OVER:
        return Reason.MATCH_OVER
    deal = state.deal
    if state.phase not in (Phase.CONTRACT, Phase.PLAY) or deal is None:
        return Reason.WRONG_PHASE
    seat, c = action.seat, action.card
    if seat not in deal.active:
        return Reason.NOT_PLAYING
    if seat != deal.turn:
        return Reason.NOT_YOUR_TURN
    if not 0 <= c < CARD_COUNT or not deal.hands[seat] >> c & 1:
        return Reason.CARD_NOT_IN_HAND
    if not playable(deal, seat) >> c & 1:
        return _refusal(deal, seat, c)
    if action.declaration is Declaration.NONE:
        return None
    if deal.trick:
        return Reason.NOT_ON_LEAD
    variant = variant_of(state.rules)
    if (c, action.declaration) in variant.declarable(state, deal, seat):
        return None
    return variant.declaration_refusal(state, deal, seat, c, action.declaration)


def apply_play(state: MatchState, action: Play) -> tuple[MatchState, list[Event]]:
    reason = play_reason(state, action)
    if reason is not None:
        raise IllegalAction(reason)
    deal = state.deal
    assert deal is not None
    seat, c = action.seat, action.card
    hands = list(deal.hands)
    hands[seat] &= ~(1 << c)
    events: list[Event] = [CardPlayed(seat, c)]
    if action.declaration is not Declaration.NONE:
        deal = _declare(state, deal, seat, c, action.declaration, events)
    trick: Plays = (*deal.trick, (seat, c))
    if len(trick) < len(deal.active):
        deal = evolve(deal, hands=tuple(hands), trick=trick, turn=next_seat(deal, seat))
        return evolve(state, phase=Phase.PLAY, deal=deal), events
    deal = _take_trick(state, deal, tuple(hands), trick, events)
    if any(hands):
        return evolve(state, phase=Phase.PLAY, deal=deal), events
    state, scored = variant_of(state.rules).score(state, deal, Outcome.PLAYED)
    return state._replace(deal=deal), events + scored


def _declare(
    state: MatchState,
    deal: DealState,
    seat: int,
    c: int,
    kind: Declaration,
    events: list[Event],
) -> DealState:
    suit = suit_of(c)
    value = variant_of(state.rules).declaration_value(kind, suit)
    events.append(Declared(seat, kind, suit, value))
    made = DeclarationMade(seat, kind, suit, value)
    deal = deal._replace(declarations=(*deal.declarations, made))
    if value:
        points = list(deal.points)
        points[seat] += value
        deal = deal._replace(points=tuple(points))
    if kind in (Declaration.MARRIAGE, Declaration.TROYAN):
        deal = deal._replace(trump=suit)
        events.append(TrumpChanged(suit))
    elif kind is Declaration.TRILYAZH:
        deal = deal._replace(trilyazh=(seat, suit, 1))
    return deal


def trick_winner(trick: Plays, trump: int | None) -> int:
    """The seat whose card takes the trick: the highest trump, else the highest of the suit
    led (a higher card id is a stronger card of its suit)."""
    best_seat, best = trick[0]
    best_suit = suit_of(best)
    for seat, c in trick[1:]:
        s = suit_of(c)
        if (s == best_suit and c > best) or (s == trump and best_suit != trump):
            best_seat, best, best_suit = seat, c, s
    return best_seat


def _take_trick(
    state: MatchState, deal: DealState, hands: tuple[int, ...], trick: Plays, events: list[Event]
) -> DealState:
    """The deal after its trick is complete: taken, counted, the winner on lead (or, after
    the last trick, nobody: the deal is over)."""
    winner = trick_winner(trick, deal.trump)
    mask = 0
    for _, c in trick:
        mask |= 1 << c
    gained = variant_of(state.rules).trick_points(mask)
    won = list(deal.won)
    won[winner] += 1
    points = list(deal.points)
    points[winner] += gained
    events.append(TrickWon(winner, tuple(c for _, c in trick), gained))
    trilyazh = deal.trilyazh
    if trilyazh is not None:
        holder, suit, stage = trilyazh
        if winner != holder:
            events.append(TrilyazhBroken(holder, suit))
            trilyazh = None
        elif stage == len(_TRILYAZH_RANKS):
            points[holder] += TRILYAZH_BONUS
            events.append(TrilyazhCompleted(holder, suit))
            trilyazh = None
        else:
            trilyazh = (holder, suit, stage + 1)
    over = not any(hands)
    return evolve(
        deal,
        hands=hands,
        trick=(),
        tricks=(*deal.tricks, (winner, trick)),
        won=tuple(won),
        points=tuple(points),
        turn=None if over else winner,
        trilyazh=trilyazh,
        outcome=Outcome.PLAYED if over else None,
    )
