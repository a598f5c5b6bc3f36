"""The computer players' playout: a card-play policy (the rule-based ``engine.ai.policy`` by
default, ``engine.ai.aimed`` for the search player) plays a deal out on the rules core's
table (``engine.tricks.play``), every seat knowing only what it may know. The search
player's look-ahead (``engine.ai.search_agent``) and the evaluation's calibration run it on
determinized tables.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Declaration
from engine.ai.policy import choose_play
from engine.table import Table
from engine.tricks import play

Policy = Callable[[Table, int], tuple[int, Declaration]]
"""A card-play policy: the card a seat plays on a table, and its declaration."""


def rollout(table: Table, policy: Policy = choose_play) -> None:
    """Play ``table``'s deal to its last trick by ``policy`` (changes ``table``)."""
    # Each play takes one card from a hand: as many plays as cards are held.
    for _ in range(sum([hand.bit_count() for hand in table.hands])):
        seat = table.turn
        assert seat is not None
        c, kind = policy(table, seat)
        play(table, seat, c, kind)
