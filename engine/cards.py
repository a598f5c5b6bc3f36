"""Cards, suits and decks of all three games (rules §1.1, §3.1), as small integers.

A card is an int ``suit * 9 + rank`` over the ranks ``6 7 8 9 J Q K T A`` and the suits
``S C D H``. Within a suit a higher id is a stronger card in every game, so trick taking
needs no per-game table. A set of cards is a bit mask; hands are masks so that legal-move
generation is a few integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = "SCDH"
RANKS: Final = "6789JQKTA"
SUIT_SYMBOLS: Final = "♠♣♦♥"
RANKS_PER_SUIT: Final = 9
CARD_COUNT: Final = 36

SIX, SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(9)

_SUIT_MASK: Final = (1 << RANKS_PER_SUIT) - 1


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` in ``suit``."""
    return suit * RANKS_PER_SUIT + rank


def suit_of(c: int) -> int:
    return c // RANKS_PER_SUIT


def rank_of(c: int) -> int:
    return c % RANKS_PER_SUIT


def bit(c: int) -> int:
    return 1 << c


def suit_mask(suit: int) -> int:
    """Every card of ``suit`` (of any game's deck)."""
    return _SUIT_MASK << (suit * RANKS_PER_SUIT)


SUIT_MASKS: Final = tuple(suit_mask(s) for s in range(4))
SUIT_OF: Final = tuple(suit_of(c) for c in range(CARD_COUNT))
"""``suit_of`` by table, for the hot paths."""
RANK_OF: Final = tuple(rank_of(c) for c in range(CARD_COUNT))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_CHUNK_CARDS: Final = tuple(
    tuple(
        tuple(suit * RANKS_PER_SUIT + r for r in range(RANKS_PER_SUIT) if chunk >> r & 1)
        for chunk in range(1 << RANKS_PER_SUIT)
    )
    for suit in range(4)
)
"""The cards of each suit's 9-bit chunk of a mask, precomputed: a table lookup per suit is
faster than peeling bits one by one."""


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask`` from the lowest id up (suits S C D H, weak to strong)."""
    found: list[int] = []
    for suit_cards in _CHUNK_CARDS:
        chunk = mask & _SUIT_MASK
        if chunk:
            found += suit_cards[chunk]
        mask >>= RANKS_PER_SUIT
    return found


def count(mask: int) -> int:
    return mask.bit_count()


def _deck(ranks: Iterable[int]) -> int:
    rank_list = list(ranks)
    return mask_of(card(r, s) for s in range(4) for r in rank_list)


THOUSAND_DECK: Final = _deck((NINE, JACK, QUEEN, KING, TEN, ACE))
TUMBOCHKA_DECK: Final = _deck((SIX, SEVEN, EIGHT, JACK, QUEEN, KING))

_POINTS = {NINE: 0, JACK: 2, QUEEN: 3, KING: 4, TEN: 10, ACE: 11}
THOUSAND_POINTS: Final = tuple(_POINTS.get(rank_of(c), 0) for c in range(CARD_COUNT))


_CHUNK_POINTS: Final = tuple(
    tuple(sum(THOUSAND_POINTS[c] for c in suit_cards[chunk]) for chunk in range(512))
    for suit_cards in _CHUNK_CARDS
)
ABOVE: Final = tuple(SUIT_MASKS[c // 9] & ~((1 << (c + 1)) - 1) for c in range(CARD_COUNT))
"""The stronger cards of the same suit."""
BELOW: Final = tuple(SUIT_MASKS[c // 9] & ((1 << c) - 1) for c in range(CARD_COUNT))
"""The weaker cards of the same suit."""


def card_points(mask: int) -> int:
    """Тысяча card points of the cards in ``mask`` (Тумбочка's cards have none), by a table
    lookup per suit."""
    return (
        _CHUNK_POINTS[0][mask & 511]
        + _CHUNK_POINTS[1][mask >> 9 & 511]
        + _CHUNK_POINTS[2][mask >> 18 & 511]
        + _CHUNK_POINTS[3][mask >> 27 & 511]
    )


def card_name(c: int) -> str:
    """``AS``, ``TH``, ``6C``: the notation's token for a card."""
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


def parse_card(token: str) -> int:
    """A card from its notation token (``10`` for ``T`` and suit symbols accepted).

    Raises ``ValueError`` for anything that is not a card of the 36-card universe.
    """
    text = token.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2:
        raise ValueError(f"bad card {token!r}")
    rank_char, suit_char = text[0], text[1]
    if suit_char in SUIT_SYMBOLS:
        suit_char = SUITS[SUIT_SYMBOLS.index(suit_char)]
    if rank_char not in RANKS or suit_char not in SUITS:
        raise ValueError(f"bad card {token!r}")
    return card(RANKS.index(rank_char), SUITS.index(suit_char))


def parse_suit(token: str) -> int:
    text = token.strip().upper()
    if len(text) != 1:
        raise ValueError(f"bad suit {token!r}")
    if text in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(text)
    if text not in SUITS:
        raise ValueError(f"bad suit {token!r}")
    return SUITS.index(text)
