"""The search player's model of strong defenders in its contract simulations (Тысяча family).

The bidding, giving and naming of the contract (``engine.ai.search_bidding``,
``engine.ai.search_talon``) value a contract by playouts of the drawn deal. With the
rule-based policy (``engine.ai.policy``) for the defenders, the declarer's points are
those it would take against the ``easy`` level; against the ``hard`` level's defence the
declarer takes fewer (``benchmarks/README.md``, issue 16, session 8: −7.2 ± 5.9 points,
81.5 % of the contracts made against 91.1 % predicted), and the contracts that fall are
large misses: a marriage broken before it was declared.

``choose_defence`` is that playout policy with defenders who defend as a strong player
does after reading the bidding and the play: a defender on lead (that has no declaration
of its own to make) attacks a marriage the declarer has not yet declared, leading its
suit while the declarer holds at most one other card of it (the declarer must then follow
with the K or the Q, which declares nothing); otherwise it cashes a card the declarer
cannot beat. In a drawn deal the declarer's hand is the drawn one, so these defenders
read it: over the drawn deals that is what a defender who infers the declarer's hand
from its bid and its play can do on average. The declarer, and everything else, plays
the search's playout policy (``engine.ai.aimed``). Тумбочка is left to that policy.
"""

from __future__ import annotations

from engine.actions import Declaration
from engine.ai.aimed import choose_aimed
from engine.cards import SUIT_MASKS, THOUSAND_POINTS, cards_of
from engine.games.base import MARRIAGE_MASKS, MARRIAGE_VALUES, married
from engine.history import trick_winner
from engine.rules import Game
from engine.table import Table
from engine.tricks import playable, replies

_NONE = Declaration.NONE
_TUMBOCHKA = Game.TUMBOCHKA


def choose_defence(table: Table, seat: int) -> tuple[int, Declaration]:
    """The card ``seat`` plays now and its declaration."""
    declarer = table.declarer
    if seat == declarer or table.trick or declarer is None or table.rules.game is _TUMBOCHKA:
        return choose_aimed(table, seat)
    choice = choose_aimed(table, seat)
    legal = playable(table, seat)
    if choice[1] is not _NONE or legal & (legal - 1) == 0:
        return choice
    lead = _attack(table, seat, legal, table.hands[declarer])
    if lead < 0:
        lead = _cash(table, seat, legal, declarer)
    return choice if lead < 0 else (lead, _NONE)


def _attack(table: Table, seat: int, legal: int, theirs: int) -> int:
    """A card that makes the declarer break an undeclared marriage (−1 for none): a card
    of the marriage's suit, the most valuable marriage first, while the declarer holds at
    most one other card of that suit; the highest when it beats the K, else the lowest."""
    found = -1
    value = -1
    queens = married(theirs)
    for suit in range(4):
        if not queens & MARRIAGE_MASKS[suit]:
            continue
        mine = legal & SUIT_MASKS[suit]
        if not mine or (theirs & SUIT_MASKS[suit]).bit_count() > 3:
            continue
        if MARRIAGE_VALUES[suit] <= value:
            continue
        cards = cards_of(mine)
        top = cards[-1]
        # The marriage's K is the card after its Q: a card above the K beats it.
        king = (queens & MARRIAGE_MASKS[suit]).bit_length()
        found = top if top > king else cards[0]
        value = MARRIAGE_VALUES[suit]
    return found


def _cash(table: Table, seat: int, legal: int, declarer: int) -> int:
    """The card with the most points that the declarer can neither beat nor trump (−1 for
    none)."""
    best = -1
    for c in cards_of(legal):
        if best >= 0 and THOUSAND_POINTS[c] <= THOUSAND_POINTS[best]:
            continue
        if not _beaten(table, seat, c, declarer):
            best = c
    return best


def _beaten(table: Table, seat: int, c: int, declarer: int) -> bool:
    """Whether the declarer can take ``c`` led by ``seat``, by the engine's rules: the
    replies it may make (``tricks.replies``: follow suit, else trump) and the trick's
    winner (``history.trick_winner``)."""
    lead = ((seat, c),)
    trump = table.trump
    for r in cards_of(replies(table.hands[declarer], c, trump)):
        if trick_winner((*lead, (declarer, r)), trump)[0] == declarer:
            return True
    return False
