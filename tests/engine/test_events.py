"""Events (engine/events.py): the shared and the fast-made events equal the plain ones."""

from __future__ import annotations

import pickle

from engine import events as ev


def test_trick_won_is_the_dataclass() -> None:
    made = ev.trick_won(2, (5, 7, 30), 14)
    plain = ev.TrickWon(2, (5, 7, 30), 14)
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert pickle.loads(pickle.dumps(made)) == plain


def test_shared_events_are_the_dataclasses() -> None:
    assert ev.BIDS_MADE[1][120] == ev.BidMade(1, 120)
    assert ev.FORCED_BIDS[0][100] == ev.BidMade(0, 100, forced=True)
    assert ev.PASSES[2] == ev.Passed(2) and ev.AUTO_PASSES[2] == ev.Passed(2, automatic=True)
    assert ev.CARDS_GIVEN[0][3] == ev.CardGiven(0, 3)
    assert ev.CONTRACTS_NAMED[3][125] == ev.ContractNamed(3, 125)
    assert ev.TALONS_TAKEN[1] == ev.TalonTaken(1)
    assert ev.CARDS_PLAYED[2][35] == ev.CardPlayed(2, 35)
