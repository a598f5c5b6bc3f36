"""A human's one-time option is never raced away (issue 11): while a human defender may still
ask for a redeal, a computer waits before the action that would close it."""

from __future__ import annotations

from typing import Any

from bot.match.computers import human_may_interject
from engine import (
    Bid,
    Game,
    Give,
    MatchState,
    Pass,
    Phase,
    Redeal,
    Rules,
    apply,
    legal_actions,
    new_match,
    shuffled_deal,
    view,
)


def _row(players: int, humans: set[int]) -> Any:
    """A match row whose seats in ``humans`` are people and the others computers."""

    class Seat:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            human = seat in humans
            self.user_id = 100 + seat if human else None
            self.computer_level = None if human else "easy"
            self.replaced_by_computer = False

        @property
        def played_by_computer(self) -> bool:
            return self.user_id is None or self.replaced_by_computer

    class Row:
        def __init__(self) -> None:
            self.players = players
            self.seats = [Seat(s) for s in range(players)]

    return Row()


def _states() -> list[MatchState]:
    """States of Тысяча after the bidding (the declarer to act, before the first lead), from
    many shuffles: in some a defender holds grounds for a redeal."""
    found = []
    for seed in range(400):
        state = new_match(Rules(game=Game.THOUSAND))
        state, _ = apply(state, shuffled_deal(state, seed))
        while state.phase is Phase.BIDDING:
            legal = legal_actions(state)
            pass_ = next((a for a in legal if isinstance(a, Pass)), None)
            state, _ = apply(state, pass_ or min(
                (a for a in legal if isinstance(a, Bid)), key=lambda a: a.value
            ))
        while state.phase is Phase.GIVING:
            state, _ = apply(state, next(a for a in legal_actions(state) if isinstance(a, Give)))
        found.append(state)
    return found


def test_a_human_defender_with_a_redeal_holds_the_computers_back() -> None:
    held = free = 0
    for state in _states():
        assert state.turn is not None and state.phase is Phase.CONTRACT
        others = {s for s in range(state.rules.players) if s != state.turn}
        can = any(isinstance(a, Redeal) for s in others for a in view(state, s).legal)
        assert human_may_interject(_row(state.rules.players, others), state) == can
        assert not human_may_interject(_row(state.rules.players, set()), state)
        held += can
        free += not can
    assert held > 3 and free > 100
