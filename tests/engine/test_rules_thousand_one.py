"""«Тысяча одно» (rules §2 and fine points 19–22): bids from 40 with the cap always on, the
both-pass choice, throwing the cards, marriages from the first lead, 4 players, 1001."""

from __future__ import annotations

import pytest

from engine import Bid, Game, MatchState, Outcome, Phase, Reason, legal_actions
from engine.errors import IllegalAction
from engine.notation import NotationError
from tests.engine.helpers import DEAL_B, TALON_B, act, deal, play_deal, refusal, rules, script

R = Reason
T1 = Game.THOUSAND_ONE

# dealer p1, p2 speaks first. Caps: p1 ♠ 160, p2 ♥ 220, p3 ♦ 200.
DEAL_T1 = {
    0: "9H JH AS TS KS QS JS",
    1: "KH QH AC TC KC 9C AD",
    2: "AH TH QC JC TD KD QD",
}
TALON_T1 = "9S JD 9D"

# four players, dealer p1 sits out; a ♠ marriage lies in the talon.
DEAL_4 = {
    1: "AH TH KH QH JH 9H AC",
    2: "TC KC QC JC 9C AD TD",
    3: "KD QD JD 9D AS TS JS",
}
TALON_4 = "KS QS 9S"


def start(scores: tuple[int, ...] | None = None, **options: str) -> MatchState:
    return deal(rules(T1, **options), DEAL_T1, TALON_T1, scores=scores)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p2 bid 40", None),
        ("p2 bid 220", None),
        ("p2 pass", None),
        ("p2 bid 35", R.BID_TOO_LOW),
        ("p2 bid 0", R.BID_TOO_LOW),
        ("p2 bid 42", R.BID_NOT_MULTIPLE),
        ("p2 bid 225", R.BID_OVER_CAP),
        ("p2 bid 305", R.BID_OVER_MAXIMUM),
        ("p1 bid 40", R.NOT_YOUR_TURN),
        ("p3 bid 40", R.NOT_YOUR_TURN),
    ],
)
def test_bids_start_at_40_after_the_dealer(line: str, reason: Reason | None) -> None:
    s = start()
    assert s.deal is not None and s.deal.turn == 1 and s.deal.bids == ()
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p3 bid 40", R.BID_TOO_LOW),
        ("p3 bid 45", None),
        ("p3 bid 200", None),
        ("p3 bid 205", R.BID_OVER_CAP),
        ("p3 bid 47", R.BID_NOT_MULTIPLE),
    ],
)
def test_raising_by_5(line: str, reason: Reason | None) -> None:
    s = act(start(), "p2 bid 40")
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


def test_the_cap_is_always_on_120_without_a_marriage() -> None:
    s = deal(rules(T1), DEAL_B, TALON_B)
    bids = [a.value for a in legal_actions(s) if isinstance(a, Bid)]
    assert bids == list(range(40, 121, 5))
    assert refusal(s, "p2 bid 125") is R.BID_OVER_CAP


def test_the_ace_marriage_counts_in_the_cap_when_on() -> None:
    # DEAL_B with dealer p3: p1 (four aces) speaks first
    s = deal(rules(T1, ace_marriage="on"), DEAL_B, TALON_B, dealer=2)
    assert max(a.value for a in legal_actions(s) if isinstance(a, Bid)) == 300
    s = deal(rules(T1), DEAL_B, TALON_B, dealer=2)
    assert max(a.value for a in legal_actions(s) if isinstance(a, Bid)) == 120


def test_the_last_bidder_declares_and_takes_the_shown_talon() -> None:
    s = act(start(), "p2 pass", "p3 bid 40", "p1 bid 45", "p3 pass")
    d = s.deal
    assert d is not None
    assert s.phase is Phase.GIVING
    assert (d.declarer, d.contract, d.without_bid, d.talon_shown) == (0, 45, False, True)


def test_both_first_bidders_pass_and_the_third_takes_the_talon_at_40() -> None:
    s = act(start(), "p2 pass", "p3 pass")
    d = s.deal
    assert d is not None
    assert s.phase is Phase.GIVING
    assert (d.declarer, d.contract, d.without_bid) == (0, 40, True)


def test_the_third_player_throws_before_naming_and_the_others_score_50() -> None:
    s = act(start(), "p2 pass", "p3 pass", "p1 throw")
    assert s.scores == (0, 50, 50)
    assert s.deal is not None and s.deal.outcome is Outcome.THROWN


def test_the_third_player_throws_during_giving() -> None:
    s = act(start(), "p2 pass", "p3 pass", "p1 give 9S p2", "p1 throw")
    assert s.scores == (0, 50, 50)


@pytest.mark.parametrize(("named", "after"), [(40, -40), (45, -45), (60, -60)])
def test_the_third_player_who_named_a_contract_throws_like_a_declarer(
    named: int, after: int
) -> None:
    s = act(
        start(),
        "p2 pass",
        "p3 pass",
        "p1 give 9S p2",
        "p1 give 9D p3",
        f"p1 contract {named}",
        "p1 throw",
    )
    assert s.scores == (after, 0, 0)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p1 contract 40", None),
        ("p1 contract 45", None),
        ("p1 contract 35", R.CONTRACT_BELOW_BID),
        ("p1 contract 160", None),
        ("p1 contract 165", R.CONTRACT_OVER_CAP),
        ("p1 contract 47", R.CONTRACT_NOT_MULTIPLE),
    ],
)
def test_the_third_players_contract(line: str, reason: Reason | None) -> None:
    s = act(start(), "p2 pass", "p3 pass", "p1 give 9S p2", "p1 give 9D p3")
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


@pytest.mark.parametrize(
    ("lines", "after"),
    [
        ((), (0, -40, 0)),
        (("p2 give 9S p1",), (0, -40, 0)),
        (("p2 give 9S p1", "p2 give 9D p3"), (0, -40, 0)),
        (("p2 give 9S p1", "p2 give 9D p3", "p2 contract 120"), (0, -120, 0)),
    ],
)
def test_a_declarer_throws_and_loses_the_contract_nobody_else_scores(
    lines: tuple[str, ...], after: tuple[int, ...]
) -> None:
    s = act(start(), "p2 bid 40", "p3 pass", "p1 pass", *lines, "p2 throw")
    assert s.scores == after


@pytest.mark.parametrize(
    ("stage", "line", "reason"),
    [
        ("bidding", "p2 throw", R.WRONG_PHASE),
        ("contract", "p1 throw", R.NOT_DECLARER),
        ("played", "p2 throw", R.TOO_LATE),
        ("contract", "p2 concede", R.NOT_IN_THIS_GAME),
        ("contract", "p1 redeal", R.NOT_IN_THIS_GAME),
        ("contract", "p2 play KH trilyazh", R.NOT_IN_THIS_GAME),
        ("contract", "p2 play AC marriage", R.NO_MARRIAGE),
    ],
)
def test_refusals(stage: str, line: str, reason: Reason) -> None:
    s = start()
    if stage != "bidding":
        s = act(s, "p2 bid 40", "p3 pass", "p1 pass", "p2 give 9S p1", "p2 give JD p3")
    if stage == "played":
        s = act(s, "p2 play AC")
    assert refusal(s, line) is reason


def test_a_marriage_may_be_declared_on_the_first_lead() -> None:
    s = act(
        start(),
        "p2 bid 40",
        "p3 pass",
        "p1 pass",
        "p2 give 9S p1",
        "p2 give JD p3",
        "p2 play KH marriage",
    )
    d = s.deal
    assert d is not None
    assert d.trump == 3 and d.points == (0, 100, 0)


def test_four_aces_may_be_declared_on_the_first_lead() -> None:
    s = deal(rules(T1, ace_marriage="on"), DEAL_B, TALON_B, dealer=2)
    s = act(
        s, "p1 bid 40", "p2 pass", "p3 pass", "p1 give 9H p2", "p1 give JH p3", "p1 play AH aces"
    )
    d = s.deal
    assert d is not None
    assert d.points == (200, 0, 0) and d.trump is None


def _four(**options: str) -> MatchState:
    return deal(rules(T1, 4, **options), DEAL_4, TALON_4, dealer=0)


def test_with_four_players_the_dealer_sits_out() -> None:
    s = _four()
    d = s.deal
    assert d is not None
    assert d.active == (1, 2, 3)
    assert d.hands[0] == 0
    assert d.turn == 1
    assert refusal(s, "p1 bid 40") is R.NOT_PLAYING
    s = act(s, "p2 bid 40", "p3 pass", "p4 pass")
    assert refusal(s, "p2 give 9S p1") is R.INVALID_RECIPIENT
    assert refusal(s, "p1 throw") is R.NOT_PLAYING


def test_the_sitting_out_dealer_scores_a_talon_marriage_in_a_played_deal() -> None:
    s = act(_four(), "p2 bid 40", "p3 pass", "p4 pass", "p2 give 9S p3", "p2 give KS p4")
    s = play_deal(s, ["KH marriage", "AH", "TH", "QH", "JH", "9H", "AC", "QS"])
    d = s.deal
    assert d is not None
    assert d.points == (0, 220, 0, 0)
    assert s.scores == (40, 40, 0, 0)
    assert s.next_dealer == 1


def test_the_sitting_out_dealer_scores_nothing_in_a_thrown_deal() -> None:
    s = act(_four(), "p2 bid 40", "p3 pass", "p4 pass", "p2 throw")
    assert s.scores == (0, -40, 0, 0)


def test_four_players_rotate_the_sitting_out_dealer() -> None:
    s = script(
        """
        game thousand-one
        players 4
        dealer p1
        shuffle 1
        p2 pass
        p3 pass
        p4 throw
        shuffle 2
        """
    )
    d = s.deal
    assert d is not None
    assert d.dealer == 1 and d.active == (2, 3, 0) and d.hands[1] == 0
    assert s.scores == (0, 50, 50, 0)


@pytest.mark.parametrize(
    ("scores", "winner"),
    [
        ((0, 960, 960), 1),  # tie at 1010: the first clockwise after the dealer
        ((0, 960, 980), 2),
        ((0, 951, 900), 1),
        ((0, 950, 900), None),
        ((0, 900, 900), None),
    ],
)
def test_the_match_ends_at_1001(scores: tuple[int, ...], winner: int | None) -> None:
    s = act(start(scores), "p2 pass", "p3 pass", "p1 throw")
    assert s.winner == winner
    assert s.phase is (Phase.DEAL_OVER if winner is None else Phase.MATCH_OVER)


def test_a_starting_score_of_1001_is_impossible() -> None:
    with pytest.raises(NotationError):
        script("game thousand-one\nscores 1001 0 0\ndealer p1\nshuffle 1")


def test_no_action_after_the_match() -> None:
    s = act(start((0, 960, 980)), "p2 pass", "p3 pass", "p1 throw")
    assert legal_actions(s) == ()
    with pytest.raises(IllegalAction):
        act(s, "p2 pass")
