"""A computer defender's redeal (``engine.ai.interjection``, rules §1.4 and §1.7): when
voiding the deal pays, from positions in the notation."""

from __future__ import annotations

import pytest

from engine.actions import Redeal
from engine.ai.agent import interjection
from engine.notation import replay
from engine.state import MatchState, Phase
from engine.view import view

STRONG = "AS TS KS QS AH KH QH"
"""Two marriages (♠, ♥) and two aces: bids 121 on the barrel, 130 anywhere."""
NINES = "9S 9C 9D 9H JS JC JD"
"""The four nines: grounds for a redeal."""
OTHER = "QC KC TC AC QD KD AD"


def _after_the_gifts(scores: str, hands: tuple[str, str, str], bidding: str) -> MatchState:
    """p3 deals (p1 sits on the hundred); after ``bidding`` the declarer gives ♥J to the
    holder of the nines and ♦10 to the third seat."""
    declarer, nines, third = (f"p{hands.index(hand) + 1}" for hand in (STRONG, NINES, OTHER))
    state = replay(
        f"""
        game thousand
        scores {scores}
        dealer p3
        hand p1 {hands[0]}
        hand p2 {hands[1]}
        hand p3 {hands[2]}
        talon JH TD TH
        {bidding}
        {declarer} give JH {nines}
        {declarer} give TD {third}
        """.splitlines()
    )
    assert state.phase is Phase.CONTRACT
    return state


POSITIONS = [
    # (what the position is, scores, hands p1..p3, bidding, the seat with the nines redeals)
    ("a strong contract", "0 0 0", (OTHER, STRONG, NINES), "p2 bid 130\np3 pass\np1 pass", True),
    ("the hundred, nothing at stake", "0 0 0", (STRONG, NINES, OTHER), "p2 pass\np3 pass", False),
    (
        # The defenders' points do not count against the barrel player, and its contract
        # made wins the match: voiding costs nothing.
        "the barrel player bid 121",
        "0 880 0",
        (OTHER, STRONG, NINES),
        "p2 bid 121\np3 pass\np1 pass",
        True,
    ),
    (
        # On the hundred with both others passing, the barrel player never chose its hand;
        # played and failed, the deal uses its attempt, which a redeal would give back.
        "the barrel player on the hundred, unbid",
        "880 0 0",
        (STRONG, NINES, OTHER),
        "p2 pass\np3 pass",
        False,
    ),
    (
        # A deal another seat declares uses one of the barrel player's attempts; a void
        # deal does not.
        "the barrel player defends the hundred",
        "0 880 0",
        (STRONG, NINES, OTHER),
        "p2 pass\np3 pass",
        True,
    ),
]


@pytest.mark.parametrize(
    ("scores", "hands", "bidding", "redeals"),
    [position[1:] for position in POSITIONS],
    ids=[position[0] for position in POSITIONS],
)
def test_a_defender_with_grounds_redeals_when_voiding_pays(
    scores: str, hands: tuple[str, str, str], bidding: str, redeals: bool
) -> None:
    state = _after_the_gifts(scores, hands, bidding)
    nines = hands.index(NINES)
    assert Redeal(nines) in view(state, nines).legal
    assert interjection(view(state, nines)) == (Redeal(nines) if redeals else None)
    third = hands.index(OTHER)
    assert interjection(view(state, third)) is None
