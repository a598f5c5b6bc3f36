"""Dealing (engine/dealing.py): the notation's ``shuffle SEED`` is
``random.Random(SEED).shuffle``."""

from __future__ import annotations

import random

import pytest

from engine import Game, Rules, new_match
from engine.dealing import shuffle, shuffled_deal
from engine.games import variant_of


@pytest.mark.parametrize("size", [1, 2, 3, 24, 36])
def test_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(400):
        expected = list(range(size))
        random.Random(seed).shuffle(expected)
        got = list(range(size))
        shuffle(got, random.Random(seed))
        assert got == expected, seed


def test_shuffled_deal_deals_the_shuffled_deck_in_order() -> None:
    for game in Game:
        state = new_match(Rules(game=game))
        variant = variant_of(state.rules)
        deck = list(variant.deck_cards)
        random.Random("seed").shuffle(deck)
        deal = shuffled_deal(state, "seed", dealer=0)
        size = variant.hand_size
        for i, seat in enumerate(variant.active_seats(state.rules.players, 0)):
            assert deal.hands[seat] == sum(1 << c for c in deck[i * size : (i + 1) * size])
