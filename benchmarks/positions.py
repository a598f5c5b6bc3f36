"""The decisions the per-decision benchmarks (``benchmarks.endgame``, ``benchmarks.bidding``)
time: every decision of a fixed series of deals bid and played by the rule-based player, so
that every commit times the same positions."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine.ai.arena import play_deal
from engine.ai.levels import make_agent
from engine.dealing import new_match, shuffled_deal
from engine.rules import Rules
from engine.state import MatchState
from engine.view import SeatView, view


def easy_views(rules: Rules, name: str) -> Iterator[SeatView]:
    """The seat's view at every decision of deals ``shuffle NAME/GAME/k`` (k = 0, 1, …), in
    order, each dealt by seat k mod players and played by the rule-based player in every
    seat (its decisions seeded ``NAME/k``)."""
    easy = [make_agent("easy")] * rules.players
    seen: list[SeatView] = []

    def keep(state: MatchState, seat: int, _action: object, _seconds: float) -> None:
        seen.append(view(state, seat))

    for k in itertools.count():
        seen.clear()
        start = new_match(rules)
        deal = shuffled_deal(start, f"{name}/{rules.game.value}/{k}", dealer=k % rules.players)
        play_deal(start, deal, easy, f"{name}/{k}", 1.0, on_decision=keep)
        yield from seen
