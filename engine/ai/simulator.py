"""A fast model of the play phase of one deal, for the computer players' look-ahead.

The engine's ``apply`` checks and records everything, which is right for the table and
too slow for thousands of look-ahead playouts per decision. ``Sim`` is a mutable model of
the tricks only (hands as bit masks, the trick, the trump, points, tricks won, marriages,
troyans and trilyazhes) that follows exactly the engine's rules of play
(``engine/play.py`` and the variants' ``declarable``); ``tests/ai`` replays random deals
through both and checks that they agree move for move.

A ``Sim`` also records what every seat has seen (the played cards and the voids shown by
not following or not trumping) so that a policy reading it can be restricted to public
knowledge plus its own hand. Declarations are small ints (``NONE`` .. ``TRILYAZH``) on the
hot path and become ``engine.Declaration`` only at the edge.
"""

from __future__ import annotations

from typing import Final

from engine.actions import Declaration
from engine.cards import (
    ACE,
    EIGHT,
    JACK,
    KING,
    QUEEN,
    SEVEN,
    SIX,
    SUIT_MASKS,
    THOUSAND_DECK,
    THOUSAND_POINTS,
    TUMBOCHKA_DECK,
    card,
    cards_of,
)
from engine.rules import Game, Rules

NONE, MARRIAGE, ACES, TROYAN, TRILYAZH = range(5)
KINDS: Final = (
    Declaration.NONE,
    Declaration.MARRIAGE,
    Declaration.ACES,
    Declaration.TROYAN,
    Declaration.TRILYAZH,
)
KIND_OF: Final = {kind: i for i, kind in enumerate(KINDS)}

THOUSAND, THOUSAND_ONE, TUMBOCHKA = range(3)
GAME_CODE: Final = {
    Game.THOUSAND: THOUSAND,
    Game.THOUSAND_ONE: THOUSAND_ONE,
    Game.TUMBOCHKA: TUMBOCHKA,
}

MARRIAGE_VALUES: Final = (40, 60, 80, 100)
ACE_MARRIAGE_VALUE: Final = 200
TRILYAZH_BONUS: Final = 3

SUIT: Final = tuple(c // 9 for c in range(36))
RANK: Final = tuple(c % 9 for c in range(36))
POINTS: Final = THOUSAND_POINTS
ABOVE: Final = tuple(SUIT_MASKS[c // 9] & ~((1 << (c + 1)) - 1) for c in range(36))
"""The stronger cards of the same suit."""
BELOW: Final = tuple(SUIT_MASKS[c // 9] & ((1 << c) - 1) for c in range(36))
MARRIAGE_MASKS: Final = tuple((1 << card(KING, s)) | (1 << card(QUEEN, s)) for s in range(4))
FOUR_ACES: Final = sum(1 << card(ACE, s) for s in range(4))
TROYAN_MASKS: Final = tuple(
    (1 << card(SIX, s)) | (1 << card(SEVEN, s)) | (1 << card(EIGHT, s)) for s in range(4)
)
TRILYAZH_MASKS: Final = tuple(
    (1 << card(JACK, s)) | (1 << card(QUEEN, s)) | (1 << card(KING, s)) for s in range(4)
)
TRILYAZH_CARDS: Final = tuple(tuple(card(r, s) for r in (JACK, QUEEN, KING)) for s in range(4))
MASK_POINTS: Final = tuple(
    tuple(sum(POINTS[s * 9 + r] for r in range(9) if chunk >> r & 1) for chunk in range(512))
    for s in range(4)
)


def points_of(mask: int) -> int:
    """Тысяча card points of a mask, by table lookup per suit."""
    return (
        MASK_POINTS[0][mask & 511]
        + MASK_POINTS[1][mask >> 9 & 511]
        + MASK_POINTS[2][mask >> 18 & 511]
        + MASK_POINTS[3][mask >> 27 & 511]
    )


def top_card(mask: int) -> int:
    return mask.bit_length() - 1


def low_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def deck_for(game: int) -> int:
    return TUMBOCHKA_DECK if game == TUMBOCHKA else THOUSAND_DECK


def trick_winner(trick: list[tuple[int, int]], trump: int) -> tuple[int, int]:
    """``(seat, card)`` that takes the cards so far (``trump`` −1 for none)."""
    best_seat, best = trick[0]
    best_suit = SUIT[best]
    for seat, c in trick[1:]:
        s = SUIT[c]
        if (s == best_suit and c > best) or (s == trump and best_suit != trump):
            best_seat, best, best_suit = seat, c, s
    return best_seat, best


class Sim:
    """The play phase of one deal with every hand known (one determinization)."""

    __slots__ = (
        "ace_marriage",
        "active",
        "contract",
        "deck",
        "declarer",
        "game",
        "hands",
        "needs_trick",
        "nxt",
        "played",
        "points",
        "trick",
        "trilyazh",
        "trump",
        "turn",
        "voids",
        "won",
    )

    def __init__(
        self,
        game: int,
        active: tuple[int, ...],
        hands: list[int],
        *,
        declarer: int,
        contract: int,
        turn: int,
        trump: int = -1,
        trick: list[tuple[int, int]] | None = None,
        points: list[int] | None = None,
        won: list[int] | None = None,
        played: int = 0,
        voids: list[int] | None = None,
        trilyazh: tuple[int, int, int] | None = None,
        ace_marriage: bool = False,
    ) -> None:
        n = len(hands)
        self.game = game
        self.active = active
        nxt = list(range(n))
        for i, s in enumerate(active):
            nxt[s] = active[(i + 1) % len(active)]
        self.nxt = nxt
        self.hands = hands
        self.declarer = declarer
        self.contract = contract
        self.turn = turn
        self.trump = trump
        self.trick = trick if trick is not None else []
        self.points = points if points is not None else [0] * n
        self.won = won if won is not None else [0] * n
        self.played = played
        self.voids = voids if voids is not None else [0] * n
        self.trilyazh = trilyazh
        self.ace_marriage = ace_marriage
        self.needs_trick = game == THOUSAND
        self.deck = deck_for(game)

    @classmethod
    def rules_game(cls, rules: Rules) -> int:
        return GAME_CODE[rules.game]

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.game = self.game
        other.active = self.active
        other.nxt = self.nxt
        other.hands = self.hands[:]
        other.declarer = self.declarer
        other.contract = self.contract
        other.turn = self.turn
        other.trump = self.trump
        other.trick = self.trick[:]
        other.points = self.points[:]
        other.won = self.won[:]
        other.played = self.played
        other.voids = self.voids[:]
        other.trilyazh = self.trilyazh
        other.ace_marriage = self.ace_marriage
        other.needs_trick = self.needs_trick
        other.deck = self.deck
        return other

    @property
    def over(self) -> bool:
        return not self.trick and not any(self.hands)

    def playable(self, seat: int) -> int:
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            tri = self.trilyazh
            if tri is not None and tri[0] == seat:
                return hand & (1 << TRILYAZH_CARDS[tri[1]][tri[2] - 1])
            return hand
        following = hand & SUIT_MASKS[SUIT[trick[0][1]]]
        if following:
            return following
        if self.trump >= 0:
            trumps = hand & SUIT_MASKS[self.trump]
            if trumps:
                return trumps
        return hand

    def declarable(self, seat: int) -> list[tuple[int, int]]:
        """Leads with a declaration that ``seat`` may make now: ``(card, kind)``."""
        if self.trick:
            return []
        hand = self.hands[seat]
        legal = self.playable(seat)
        found: list[tuple[int, int]] = []
        if self.game == TUMBOCHKA:
            for s in range(4):
                if hand & TROYAN_MASKS[s] == TROYAN_MASKS[s] and legal >> (s * 9) & 1:
                    found.append((s * 9 + SIX, TROYAN))
            for s in range(4):
                if hand & TRILYAZH_MASKS[s] == TRILYAZH_MASKS[s] and legal >> (s * 9 + JACK) & 1:
                    found.append((s * 9 + JACK, TRILYAZH))
            return found
        if self.needs_trick and not self.won[seat]:
            return found
        for s in range(4):
            m = MARRIAGE_MASKS[s]
            if hand & m == m:
                found.append((s * 9 + QUEEN, MARRIAGE))
                found.append((s * 9 + KING, MARRIAGE))
        if self.ace_marriage and hand & FOUR_ACES == FOUR_ACES:
            found.extend((s * 9 + ACE, ACES) for s in range(4))
        return found

    def moves(self, seat: int) -> list[tuple[int, int]]:
        """Every legal move of ``seat`` now, plain plays first."""
        found = [(c, NONE) for c in cards_of(self.playable(seat))]
        found.extend(self.declarable(seat))
        return found

    def play(self, seat: int, c: int, kind: int = NONE) -> None:
        bit = 1 << c
        self.hands[seat] &= ~bit
        self.played |= bit
        trick = self.trick
        if kind:
            suit = SUIT[c]
            if kind == MARRIAGE:
                self.points[seat] += MARRIAGE_VALUES[suit]
                self.trump = suit
            elif kind == ACES:
                self.points[seat] += ACE_MARRIAGE_VALUE
            elif kind == TROYAN:
                self.trump = suit
            else:
                self.trilyazh = (seat, suit, 1)
        elif trick:
            led = SUIT[trick[0][1]]
            if SUIT[c] != led:
                voids = self.voids
                voids[seat] |= 1 << led
                trump = self.trump
                if trump >= 0 and SUIT[c] != trump:
                    voids[seat] |= 1 << trump
        trick.append((seat, c))
        if len(trick) < len(self.active):
            self.turn = self.nxt[seat]
            return
        winner, _ = trick_winner(trick, self.trump)
        if self.game == TUMBOCHKA:
            gained = 1
        else:
            gained = 0
            for _, tc in trick:
                gained += POINTS[tc]
        self.won[winner] += 1
        self.points[winner] += gained
        tri = self.trilyazh
        if tri is not None:
            holder, suit, stage = tri
            if winner != holder:
                self.trilyazh = None
            elif stage == 3:
                self.points[holder] += TRILYAZH_BONUS
                self.trilyazh = None
            else:
                self.trilyazh = (holder, suit, stage + 1)
        self.trick = []
        self.turn = winner

    def remaining(self) -> int:
        """Cards still in hands or unknown: the deck less the played cards."""
        return self.deck & ~self.played
