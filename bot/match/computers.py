"""Computer seats of a running match (design: Computer players; issue 6): who decides for a
seat now, with which level, and the seed of each decision.

A seat is played by a computer when it was a computer seat from the start, or while its human
is replaced (three timeouts in a row, /kick) until they say /back. A decision's generator is
seeded from the match's deal seed, its version and the seat, so a match replayed from the same
presses gets the same computer moves. A computer seat that may act out of turn (a defender's
redeal in Тысяча) does so before the seat whose turn it is (`engine.ai.interjection`); and
while a human still may (`human_may_interject`), a computer waits a moment before the action
that would close it.
"""

from __future__ import annotations

import hashlib

from engine import MatchState, SeatAction, view
from engine.ai import interjection
from storage import Match

KICK_AFTER_TIMEOUTS = 3
"""Timeouts in a row after which a computer keeps the seat for the rest of the match."""


def level_of(row: Match, seat: int) -> str | None:
    """The level of the computer deciding for ``seat`` now, or None for a human."""
    place = row.seats[seat]
    return place.computer_level if place.played_by_computer else None


def decision_seed(match_seed: str, version: int, seat: int) -> int:
    digest = hashlib.blake2b(f"{match_seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def interjecting(row: Match, state: MatchState) -> tuple[int, SeatAction] | None:
    """A computer seat's out-of-turn action, if one wants to act now."""
    for seat in range(row.players):
        if seat != state.turn and level_of(row, seat) is not None:
            action = interjection(view(state, seat))
            if action is not None:
                return seat, action
    return None


def thinking_seat(row: Match, state: MatchState) -> tuple[int, str] | None:
    """The seat whose turn it is and its computer's level, if a computer decides for it."""
    if state.turn is None:
        return None
    level = level_of(row, state.turn)
    return None if level is None else (state.turn, level)


def human_may_interject(row: Match, state: MatchState) -> bool:
    """Whether a human other than the seat to act holds a one-time option now (a defender's
    redeal in Тысяча): the next action would close it, so a computer about to take that
    action should give them a moment first."""
    return any(
        seat != state.turn and level_of(row, seat) is None and view(state, seat).legal
        for seat in range(row.players)
    )


def human_to_act(row: Match, state: MatchState) -> int | None:
    """The seat whose turn it is, if a human decides for it (the turn timer runs for them)."""
    if state.turn is None or level_of(row, state.turn) is not None:
        return None
    return state.turn
