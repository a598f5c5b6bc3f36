"""Playing the tricks (rules §1.5, §2, §3.2): follow suit, else trump, else anything; a lead
may carry a declaration (which ones, and what they do, the ``Variant`` says); the highest
trump or the highest card of the suit led takes the trick (``engine.history.trick_winner``;
``play`` keeps the card taking it in ``Table.taking`` as each card is played).

``play`` is the one implementation of a card played, for the table (``apply_play``, with
events) and for the computer players' playouts (no events); ``moves`` lists what a seat may
play. What a trick is worth is the ``Variant``'s numbers (``card_values``,
``trick_value``); anything a taken trick does beyond them (the trilyazh) is its
``after_trick`` hook.
"""

from __future__ import annotations

from operator import itemgetter

from engine.actions import Declaration, Play
from engine.cards import CARD_COUNT, SUIT_MASKS, SUIT_OF, cards_of
from engine.errors import Reason
from engine.events import CARDS_PLAYED, Declared, Event, trick_won
from engine.games.base import Events, Leads
from engine.state import DeclarationMade, Outcome, Phase
from engine.table import Table

# Enum members as module constants: looking one up on its class costs ten globals.
_NONE = Declaration.NONE
_PLAYED = Outcome.PLAYED
_CONTRACT = Phase.CONTRACT
_MATCH_OVER = Phase.MATCH_OVER
_PLAY = Phase.PLAY

_SUIT = SUIT_OF
_CARD = itemgetter(1)
"""The card of a ``(seat, card)`` play (``map`` over it needs no frame, as a comprehension does)."""


def playable(t: Table, seat: int) -> int:
    """The cards ``seat`` may play now (bit mask): the follow and trump duties, and a lead
    the ``Variant`` forces (the trilyazh's Q and K while its declarer keeps the lead)."""
    hand = t.hands[seat]
    trick = t.trick
    if not trick:
        forced = t.forced
        if forced is not None and forced[0] == seat:
            return hand & forced[1]
        return hand
    return replies(hand, trick[0][1], t.trump)


def replies(hand: int, led: int, trump: int) -> int:
    """The cards of ``hand`` that may go onto a trick led with ``led`` (bit mask): its
    suit, else a trump (``trump`` −1 for none), else any."""
    following = hand & SUIT_MASKS[_SUIT[led]]
    if following:
        return following
    if trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps
    return hand


def declarable(t: Table, seat: int, mask: int = -1) -> Leads:
    """The declarations ``seat`` may lead with now: ``(card, kind)``, in the variant's order
    (``mask``: ``playable(t, seat)`` when the caller has it)."""
    if t.trick:
        return ()
    found = t.variant.declarable(t, seat)
    if not found:
        return found
    if mask < 0:
        mask = playable(t, seat)
    if mask == t.hands[seat]:
        return found
    return tuple([(c, kind) for c, kind in found if mask >> c & 1])


def moves(t: Table, seat: int) -> list[tuple[int, Declaration]]:
    """Every legal play of ``seat`` now: plain cards from the lowest id, then declarations."""
    found: list[tuple[int, Declaration]] = [
        (c, _NONE) for c in cards_of(playable(t, seat))
    ]
    found += declarable(t, seat)
    return found


def _refusal(t: Table, seat: int) -> Reason:
    """Why a card held by ``seat`` is not playable now."""
    if not t.trick:
        return Reason.MUST_CONTINUE_TRILYAZH
    if t.hands[seat] & SUIT_MASKS[_SUIT[t.trick[0][1]]]:
        return Reason.MUST_FOLLOW_SUIT
    return Reason.MUST_TRUMP


def play_reason(t: Table, action: Play) -> Reason | None:
    if t.phase is _MATCH_OVER:
        return Reason.MATCH_OVER
    if t.phase not in (_CONTRACT, _PLAY) or not t.has_deal:
        return Reason.WRONG_PHASE
    seat, c = action.seat, action.card
    if seat not in t.active:
        return Reason.NOT_PLAYING
    if seat != t.turn:
        return Reason.NOT_YOUR_TURN
    if not 0 <= c < CARD_COUNT or not t.hands[seat] >> c & 1:
        return Reason.CARD_NOT_IN_HAND
    if not playable(t, seat) >> c & 1:
        return _refusal(t, seat)
    if action.declaration is _NONE:
        return None
    if t.trick:
        return Reason.NOT_ON_LEAD
    if (c, action.declaration) in t.variant.declarable(t, seat):
        return None
    return t.variant.declaration_refusal(t, seat, c, action.declaration)


def apply_play(t: Table, action: Play) -> list[Event]:
    seat = action.seat
    events: list[Event] = [CARDS_PLAYED[seat][action.card]]
    play(t, seat, action.card, action.declaration, events)
    if t.trick or any(t.hands):
        t.phase = _PLAY
        return events
    t.turn = None
    t.outcome = _PLAYED
    t.variant.score(t, _PLAYED, events)
    return events


def play(t: Table, seat: int, c: int, kind: Declaration, events: Events = None) -> None:
    """``seat`` plays ``c`` (a legal play) with declaration ``kind``; the trick is taken
    when complete. ``events`` collects what happened, unless ``None``."""
    bit = 1 << c
    t.hands[seat] &= ~bit
    t.played |= bit
    here = (seat, c)
    trick = t.trick
    if not trick:
        if kind:
            _declare(t, seat, _SUIT[c], kind, events)
        t.taking = here
    else:
        suit = _SUIT[c]
        trump = t.trump
        led = _SUIT[trick[0][1]]
        if suit != led:
            voids = t.voids
            voids[seat] |= 1 << led
            if trump >= 0 and suit != trump:
                voids[seat] |= 1 << trump
        # The card takes the trick so far if it beats the one taking it (``trick_winner``).
        best = t.taking[1]
        best_suit = _SUIT[best]
        if (suit == best_suit and c > best) or (suit == trump and best_suit != trump):
            t.taking = here
    trick = trick + (here,)  # noqa: RUF005 (concatenation is the faster here)
    if len(trick) < len(t.active):
        t.trick = trick
        t.turn = t.nxt[seat]
        return
    # The trick is complete: taken and counted by the variant's numbers; its winner leads.
    winner = t.taking[0]
    variant = t.variant
    values = variant.card_values
    gained = variant.trick_value
    for _, taken in trick:
        gained += values[taken]
    t.won[winner] += 1
    t.points[winner] += gained
    if events is not None:
        events.append(trick_won(winner, tuple(map(_CARD, trick)), gained))
    if variant.has_after_trick:
        variant.after_trick(t, winner, events)
    t.trick = ()
    t.tricks = t.tricks + ((winner, trick),)  # noqa: RUF005 (as above)
    t.turn = winner


def _declare(t: Table, seat: int, suit: int, kind: Declaration, events: Events) -> None:
    variant = t.variant
    value = variant.declaration_value(kind, suit)
    if events is not None:
        events.append(Declared(seat, kind, suit, value))
    t.declarations = (*t.declarations, DeclarationMade(seat, kind, suit, value))
    t.points[seat] += value
    variant.declared(t, seat, suit, kind, events)
