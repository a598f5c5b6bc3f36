"""Hand evaluation: what a hand is worth as declarer, which cards to give, and how high to
bid, for the rule-based player (and as the search player's first guess).

``estimate(hand, game)`` is the expected deal points (Тысяча family: card points and
marriages; Тумбочка: tricks and trilyazh bonuses) of a declarer who holds ``hand`` after
giving (8 cards) and leads the first trick. It is a linear model over a few features of
the hand (sure winners and their points, marriages with and without a sure trick to win
the right to declare, the trump length, voids, bare tens; troyans, trilyazhes, kings and
guarded queens in Тумбочка), fitted by least squares to the rule-based play of random
deals (``python -m engine.ai.calibration`` prints the coefficients and their residual spread; the
ones below were fitted with ``--deals 5000 --seed 1`` before the policy learned to cash its
masters before a marriage, which moves a refit only a little).

``choose_give`` picks the two cards to give (the cheapest to lose: low cards of short
suits, never half of a marriage, never the card that could complete an opponent's
marriage). ``bid_value`` is the talon expectation: the mean and spread of the estimate
after taking a talon drawn from the unseen cards and giving (the rule-based player bids up
to a low quantile of it, so that its bids are made most of the time).
"""

from __future__ import annotations

import random
from typing import Final

from engine.cards import (
    ABOVE,
    ACE,
    BELOW,
    KING,
    QUEEN,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    TEN,
    THOUSAND_POINTS,
    cards_of,
)
from engine.games import deck_of
from engine.games.base import MARRIAGE_MASKS, MARRIAGE_VALUES
from engine.games.tumbochka import TRILYAZH_MASKS, TROYAN_MASKS
from engine.rules import Game

# Enum members as module constants: looking one up on its class costs ten globals.
_THOUSAND = Game.THOUSAND
_THOUSAND_ONE = Game.THOUSAND_ONE
_TUMBOCHKA = Game.TUMBOCHKA

Features = tuple[float, ...]

THOUSAND_FEATURES: Final = (
    "const",
    "sure_points",
    "sure_cards",
    "marriage_entry",
    "marriage_blocked",
    "trump_length",
    "voids",
    "bare_tens",
    "other_points",
)
TUMBOCHKA_FEATURES: Final = (
    "const",
    "sure_cards",
    "kings",
    "guarded_queens",
    "troyans",
    "trilyazhes",
    "voids",
    "longest",
)

COEFFICIENTS: Final[dict[Game, tuple[float, ...]]] = {
    _THOUSAND: (-10.1, 2.23, -5.68, 0.69, -0.0453, 8.45, 9.8, 0.805, 0.522),
    _THOUSAND_ONE: (-12.2, 2.13, -4.7, 0.715, 0.737, 8.13, 9.33, -2.21, 0.735),
    _TUMBOCHKA: (-0.163, 0.814, 0.224, 0.246, 0.595, 2.75, 0.271, 0.353),
}
"""Fitted by ``engine.ai.calibration``: feature weights in the order of the feature names."""
SPREAD: Final[dict[Game, float]] = {
    _THOUSAND: 25.8,
    _THOUSAND_ONE: 22.8,
    _TUMBOCHKA: 1.18,
}
"""The residual standard deviation of the fit: the uncertainty of ``estimate``."""


def features(hand: int, game: Game) -> Features:
    """The model's inputs for ``hand`` held by the declarer, all other cards unseen."""
    if game == _TUMBOCHKA:
        return _tumbochka_features(hand)
    return _thousand_features(hand)


def _top_run(hand: int, suit: int, deck: int) -> int:
    """The cards of ``suit`` that win in turn from the top: the held cards above which
    every card of the suit is also held."""
    mine = hand & SUIT_MASKS[suit]
    run = 0
    for c in reversed(cards_of(deck & SUIT_MASKS[suit])):
        if not mine >> c & 1:
            break
        run |= 1 << c
    return run


def _thousand_features(hand: int) -> Features:
    deck = deck_of(_THOUSAND)
    sure = 0
    for s in range(4):
        sure |= _top_run(hand, s, deck)
    sure_points = sum(THOUSAND_POINTS[c] for c in cards_of(sure))
    marriages = [s for s in range(4) if hand & MARRIAGE_MASKS[s] == MARRIAGE_MASKS[s]]
    marriage_value = sum(MARRIAGE_VALUES[s] for s in marriages)
    has_entry = sure & ~sum(MARRIAGE_MASKS) != 0
    trump_length = max(((hand & SUIT_MASKS[s]).bit_count() for s in marriages), default=0)
    voids = sum(1 for s in range(4) if not hand & SUIT_MASKS[s])
    bare_tens = sum(
        1
        for c in cards_of(hand)
        if RANK_OF[c] == TEN and not sure >> c & 1 and (hand & BELOW[c]).bit_count() < 2
    )
    other_points = sum(THOUSAND_POINTS[c] for c in cards_of(hand & ~sure))
    return (
        1.0,
        float(sure_points),
        float(sure.bit_count()),
        float(marriage_value if has_entry else 0),
        float(0 if has_entry else marriage_value),
        float(trump_length),
        float(voids),
        float(bare_tens),
        float(other_points),
    )


def _tumbochka_features(hand: int) -> Features:
    deck = deck_of(_TUMBOCHKA)
    sure = 0
    for s in range(4):
        sure |= _top_run(hand, s, deck)
    kings = sum(1 for c in cards_of(hand) if RANK_OF[c] == KING)
    guarded_queens = sum(
        1
        for c in cards_of(hand)
        if RANK_OF[c] == QUEEN and (hand & BELOW[c]).bit_count() >= 1 and not sure >> c & 1
    )
    troyans = sum(1 for m in TROYAN_MASKS if hand & m == m)
    trilyazhes = sum(1 for m in TRILYAZH_MASKS if hand & m == m)
    voids = sum(1 for s in range(4) if not hand & SUIT_MASKS[s])
    longest = max((hand & SUIT_MASKS[s]).bit_count() for s in range(4))
    return (
        1.0,
        float(sure.bit_count()),
        float(kings),
        float(guarded_queens),
        float(troyans),
        float(trilyazhes),
        float(voids),
        float(longest),
    )


def estimate(hand: int, game: Game) -> float:
    """Expected deal points of a declarer holding ``hand`` (8 cards, after giving)."""
    return sum(w * f for w, f in zip(COEFFICIENTS[game], features(hand, game), strict=True))


def give_cost(hand: int, c: int, game: Game) -> float:
    """What the declarer loses by giving ``c`` away from ``hand``."""
    s, r = SUIT_OF[c], RANK_OF[c]
    suit_cards = hand & SUIT_MASKS[s]
    length = suit_cards.bit_count()
    if game == _TUMBOCHKA:
        cost = float(r) * 2
        for m in (*TROYAN_MASKS, *TRILYAZH_MASKS):
            if m >> c & 1 and hand & m == m:
                cost += 12
        if not (deck_of(game) & ABOVE[c]) & ~hand:
            cost += 6
        return cost - (3 if length == 1 else 0)
    cost = THOUSAND_POINTS[c] * 1.5 + r * 0.5
    if not (deck_of(game) & ABOVE[c]) & ~hand:
        cost += 10
    if r in (KING, QUEEN):
        partner = MARRIAGE_MASKS[s] & ~(1 << c)
        if hand & partner:
            cost += MARRIAGE_VALUES[s]
        else:
            # The opponent who receives it may hold the other half: a marriage given away.
            cost += MARRIAGE_VALUES[s] * 0.4
    if r == ACE:
        cost += 6
    if length == 1:
        cost -= 4
    elif length == 2:
        cost -= 1
    return cost


def choose_give(hand: int, game: Game) -> tuple[int, int]:
    """The two cards to give (the cheaper first)."""
    ranked = sorted(cards_of(hand), key=lambda c: (give_cost(hand, c, game), c))
    first = ranked[0]
    rest = hand & ~(1 << first)
    second = min(cards_of(rest), key=lambda c: (give_cost(rest, c, game), c))
    return first, second


def after_give(hand: int, game: Game) -> int:
    a, b = choose_give(hand, game)
    return hand & ~(1 << a) & ~(1 << b)


def bid_value(
    hand: int, unseen: int, game: Game, rng: random.Random, talons: int = 24
) -> tuple[float, float]:
    """Mean and spread of the estimate after taking a talon drawn from ``unseen`` and
    giving: the talon expectation of a hand that has not seen the talon."""
    pool = cards_of(unseen)
    values = []
    for _ in range(talons):
        talon = 0
        for c in rng.sample(pool, 3):
            talon |= 1 << c
        values.append(estimate(after_give(hand | talon, game), game))
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    return mean, (var + SPREAD[game] ** 2) ** 0.5
