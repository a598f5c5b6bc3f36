"""The computer players' playout: the rule-based policy (``engine.ai.policy``) plays a deal
out on the rules core's table (``engine.tricks.play``), every seat knowing only what it
may know. The search player's look-ahead (``engine.ai.search_agent``) and the evaluation's
calibration run it on determinized tables.
"""

from __future__ import annotations

from engine.ai.policy import choose_play
from engine.table import Table
from engine.tricks import play


def rollout(table: Table) -> None:
    """Play ``table``'s deal to its last trick by the policy (changes ``table``)."""
    while table.trick or any(table.hands):
        seat = table.turn
        assert seat is not None
        c, kind = choose_play(table, seat)
        play(table, seat, c, kind)
