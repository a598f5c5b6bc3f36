"""What the bidding and the contract say about the other seats' hands
(``engine.ai.inference``), on hand-made positions in the play phase: which drawn deals
explain them better."""

from __future__ import annotations

import random

from engine.ai.inference import IMPOSSIBLE, Evidence, evidence_of, likelihood
from engine.ai.sampling import Knowledge, sample
from engine.cards import mask_of, parse_card
from engine.notation import replay
from engine.rules import Game, preset
from engine.state import MatchState
from engine.view import view
from tests.engine.ai.helpers import THREE_MARRIAGES_DEAL, decision_points

# The three-marriage deal: p1 is on the hundred (its 100 is forced); p2 bids 105 and
# passes at 110; p3 passes at 105; p1 takes the talon and names the contract.
BIDDING = THREE_MARRIAGES_DEAL + """p2 bid 105
p3 pass
p1 bid 110
p2 pass
p1 give 9S p2
p1 give 9C p3
"""


def _state(contract: int) -> MatchState:
    return replay([*BIDDING.splitlines(), f"p1 contract {contract}"])


def _hands(state: MatchState) -> list[int]:
    return [mask_of(view(state, s).hand) for s in range(3)]


def _swap(hands: list[int], a: int, b: int, out: str, into: str) -> list[int]:
    """``hands`` with the card ``out`` of seat ``a`` and ``into`` of seat ``b`` exchanged."""
    x, y = 1 << parse_card(out), 1 << parse_card(into)
    assert hands[a] & x and hands[b] & y
    moved = hands[:]
    moved[a] = moved[a] & ~x | y
    moved[b] = moved[b] & ~y | x
    return moved


def _evidence(state: MatchState, seat: int) -> Evidence:
    seen = view(state, seat)
    evidence = evidence_of(seen, Knowledge.of(seen).played_by)
    assert evidence is not None
    return evidence


def test_a_forced_hundred_is_not_read_as_a_bid_and_a_pass_caps_the_hand() -> None:
    evidence = _evidence(_state(160), 2)
    assert evidence.at_least == ((1, 105.0),)  # p2's raise; p1's 100 was forced
    assert evidence.at_most == ((1, 140.0),)  # p2 passed with 110 standing
    assert evidence.declarer == 0
    # The declarer's own view judges no contract and nothing of itself.
    own = _evidence(_state(160), 0)
    assert own.declarer == -1
    assert all(s != 0 for s, _ in (*own.at_most, *own.at_least))


def test_a_contract_over_120_needs_a_marriage_in_the_drawn_declarer_hand() -> None:
    state = _state(160)
    evidence = _evidence(state, 2)
    hands = _hands(state)
    assert likelihood(evidence, hands) > IMPOSSIBLE
    # Without the ♠K, ♦K and ♥K p1 holds no marriage and could not have named 160.
    broken = _swap(hands, 0, 2, "KS", "9D")
    broken = _swap(broken, 0, 2, "KD", "JD")
    broken = _swap(broken, 0, 2, "KH", "9H")
    assert likelihood(evidence, broken) == IMPOSSIBLE
    # At 120 the cap says nothing, and the weaker hand is still a plausible raise.
    assert likelihood(_evidence(_state(120), 2), broken) > IMPOSSIBLE


def test_a_raise_is_explained_by_a_hand_worth_about_it() -> None:
    state = _state(160)
    evidence = _evidence(state, 2)
    hands = _hands(state)
    # p1 worth ~225 named 160: a hand with only the ♠ marriage and low cards explains a
    # 160 less well than one still holding its aces... and a hand near 170 best of all.
    weaker = _swap(hands, 0, 2, "AH", "9H")  # the ♥ ace gone: closer to 160
    assert likelihood(evidence, weaker) > likelihood(evidence, hands)
    assert likelihood(_evidence(_state(215), 2), hands) > likelihood(evidence, hands)


def test_a_pass_makes_a_strong_hand_less_likely() -> None:
    state = _state(160)
    evidence = _evidence(state, 0)  # the declarer reads p2's and p3's bidding
    hands = _hands(state)
    # p3 passed at 105: handing it p2's ♣A and ♣10 (and p2 its ♦9 and ♦J) makes p3's
    # hand one that would have bid.
    strong = _swap(hands, 2, 1, "9D", "AC")
    strong = _swap(strong, 2, 1, "JD", "TC")
    assert likelihood(evidence, strong) < likelihood(evidence, hands)


def test_the_true_deal_explains_the_auction_better_than_the_drawn_ones() -> None:
    # p1's three marriages (about 225) named 215.
    state = _state(215)
    seen = view(state, 2)
    know = Knowledge.of(seen)
    evidence = evidence_of(seen, know.played_by)
    assert evidence is not None
    rng = random.Random(7)
    drawn = [likelihood(evidence, sample(seen, know, rng).hands) for _ in range(200)]
    truth = likelihood(evidence, _hands(state))
    assert truth > sum(drawn) / len(drawn)
    assert min(drawn) == IMPOSSIBLE  # some drawn hands hold no marriage


def test_tumbochka_is_not_read() -> None:
    rules = preset(Game.TUMBOCHKA)
    checked = 0
    for state, seat in decision_points(rules, None, 3, 40):
        seen = view(state, seat)
        assert evidence_of(seen, Knowledge.of(seen).played_by) is None
        checked += 1
    assert checked


def test_the_bids_of_the_player_on_the_barrel_are_not_read() -> None:
    # p2 sits on the barrel (880): the rules ask it for 121 whatever it holds, so its 121
    # says nothing of its hand. p1 outbids it and declares; p2's pass is still read.
    deal = THREE_MARRIAGES_DEAL.replace("game thousand\n", "game thousand\nscores 0 880 0\n")
    state = replay(
        [
            *deal.splitlines(),
            "p2 bid 121",
            "p3 pass",
            "p1 bid 130",
            "p2 pass",
            "p1 give 9S p2",
            "p1 give 9C p3",
            "p1 contract 130",
        ]
    )
    evidence = _evidence(state, 2)
    assert view(state, 2).perch == 1
    assert evidence.at_least == ()
    assert evidence.at_most == ((1, 160.0),)
