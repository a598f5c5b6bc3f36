"""«Тумбочка» (rules §3 and fine points 23–30): the forced opening 4, bids by 1 up to 14,
the sitter's 7, troyan and trilyazh, tricks as points, the tumbochka."""

from __future__ import annotations

import pytest

from engine import (
    Bid,
    Game,
    MatchState,
    Pass,
    Phase,
    Reason,
    apply,
    legal_actions,
    parse_action,
    shuffled_deal,
)
from engine.events import TrilyazhBroken, TrilyazhCompleted
from engine.notation import NotationError
from tests.engine.helpers import (
    TUMB_DEAL,
    TUMB_TALON,
    act,
    deal,
    give_first,
    pass_out,
    play_deal,
    refusal,
    rules,
    script,
)

R = Reason
TU = Game.TUMBOCHKA

# p2 holds six hearts and the ♠ king; with the talon's ♣ queen it takes 7 tricks, p3 one
# (the ♣ king over the ♣ queen), p1 none.
DEAL_D = {
    0: "7S 8S JS QS 7C 8C JC",
    1: "6H 7H 8H JH QH KH KS",
    2: "KC 6D 7D 8D JD QD KD",
}
TALON_D = "QC 6S 6C"
D_GIVES = ("p2 give 6S p1", "p2 give 6C p3")
D_PLAYS = ["6H troyan", "QC", "7H", "8H", "JH", "QH", "KH", "KS"]


def start(scores: tuple[int, ...] | None = None) -> MatchState:
    return deal(rules(TU), TUMB_DEAL, TUMB_TALON, scores=scores)


def d_deal(scores: tuple[int, ...], *bidding: str, contract: int | None = None) -> MatchState:
    s = deal(rules(TU), DEAL_D, TALON_D, scores=scores)
    s = act(s, *bidding, *D_GIVES)
    if contract is not None:
        s = act(s, f"p2 contract {contract}")
    return play_deal(s, D_PLAYS)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p2 bid 4", None),
        ("p2 bid 5", R.OPENING_BID_EXACT),
        ("p2 bid 3", R.OPENING_BID_EXACT),
        ("p2 bid 7", R.OPENING_BID_EXACT),
        ("p2 pass", R.MUST_OPEN),
        ("p3 bid 4", R.NOT_YOUR_TURN),
        ("p1 pass", R.NOT_YOUR_TURN),
    ],
)
def test_the_player_after_the_dealer_opens_exactly_4(line: str, reason: Reason | None) -> None:
    s = start()
    assert s.deal is not None and s.deal.turn == 1
    assert legal_actions(s) == (Bid(1, 4),)
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p3 bid 5", None),
        ("p3 bid 14", None),
        ("p3 pass", None),
        ("p3 bid 4", R.BID_TOO_LOW),
        ("p3 bid 15", R.BID_OVER_MAXIMUM),
        ("p3 bid 7", None),
    ],
)
def test_then_step_1_up_to_14(line: str, reason: Reason | None) -> None:
    s = act(start(), "p2 bid 4")
    assert [a for a in legal_actions(s)] == [*(Bid(2, v) for v in range(5, 15)), Pass(2)]
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


def test_a_pass_is_final_and_the_last_bidder_declares_without_showing_the_talon() -> None:
    s = act(start(), "p2 bid 4", "p3 pass", "p1 bid 5", "p2 bid 6")
    assert s.deal is not None and s.deal.turn == 0
    s = act(s, "p1 pass")
    d = s.deal
    assert d is not None
    assert s.phase is Phase.GIVING
    assert (d.declarer, d.contract, d.talon_shown) == (1, 6, False)


@pytest.mark.parametrize(
    ("scores", "lines", "line", "reason"),
    [
        ((0, 0, 20), ("p2 bid 4",), "p3 bid 5", R.BELOW_TUMBOCHKA_MINIMUM),
        ((0, 0, 20), ("p2 bid 4",), "p3 bid 6", R.BELOW_TUMBOCHKA_MINIMUM),
        ((0, 0, 20), ("p2 bid 4",), "p3 bid 7", None),
        ((0, 0, 20), ("p2 bid 4",), "p3 pass", None),
        ((0, 0, 20), ("p2 bid 4", "p3 bid 7"), "p1 bid 8", R.SCORE_TOO_LOW_TO_BID),
        ((0, 0, 20), ("p2 bid 4", "p3 bid 7"), "p1 pass", None),
        ((1, 0, 20), ("p2 bid 4", "p3 bid 7"), "p1 bid 8", None),
        ((-3, 0, 20), ("p2 bid 4", "p3 pass"), "p1 bid 7", R.SCORE_TOO_LOW_TO_BID),
        ((0, 0, 20), ("p2 bid 4", "p3 pass"), "p1 bid 6", None),
        ((0, 0, 0), ("p2 bid 4",), "p3 bid 7", None),
        # the sitter right after the dealer bids 7 or passes instead of the forced 4
        ((0, 20, 0), (), "p2 bid 4", R.BELOW_TUMBOCHKA_MINIMUM),
        ((0, 20, 0), (), "p2 bid 7", None),
        ((0, 20, 0), (), "p2 pass", None),
        # fine point 23: then the next player must open with exactly 4
        ((0, 20, 0), ("p2 pass",), "p3 pass", R.MUST_OPEN),
        ((0, 20, 0), ("p2 pass",), "p3 bid 5", R.OPENING_BID_EXACT),
        ((0, 20, 0), ("p2 pass",), "p3 bid 4", None),
    ],
)
def test_bidding_with_a_sitter(
    scores: tuple[int, ...], lines: tuple[str, ...], line: str, reason: Reason | None
) -> None:
    s = act(start(scores), *lines)
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


def test_a_header_score_of_20_seats_the_player() -> None:
    s = start((0, 0, 20))
    assert (s.perch, s.perch_attempts) == (2, 0)
    with pytest.raises(NotationError):
        script("game tumbochka\nscores 21 0 0\ndealer p1\nshuffle 1")
    with pytest.raises(NotationError):
        script("game tumbochka\nscores 20 20 0\ndealer p1\nshuffle 1")


@pytest.mark.parametrize(
    ("scores", "line", "reason"),
    [
        ((0, 0, 0), "p2 contract 4", None),
        ((0, 0, 0), "p2 contract 14", None),
        ((0, 0, 0), "p2 contract 3", R.CONTRACT_BELOW_BID),
        ((0, 0, 0), "p2 contract 15", R.CONTRACT_OVER_MAXIMUM),
        ((0, 0, 20), "p2 contract 9", None),  # fine point 24: raising is not bidding
    ],
)
def test_the_contract_may_be_raised_never_lowered(
    scores: tuple[int, ...], line: str, reason: Reason | None
) -> None:
    s = act(start(scores), "p2 bid 4", "p3 pass", "p1 pass", "p2 give 8D p1", "p2 give QH p3")
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p2 play 7S troyan", R.TROYAN_LEADS_SIX),
        ("p2 play 6C troyan", R.NO_TROYAN),
        ("p2 play QD trilyazh", R.TRILYAZH_LEADS_JACK),
        ("p2 play 6C trilyazh", R.NO_TRILYAZH),
        ("p2 play KD marriage", R.NOT_IN_THIS_GAME),
        ("p2 play 6S aces", R.NOT_IN_THIS_GAME),
        ("p2 play JS", R.CARD_NOT_IN_HAND),
        ("p2 play 9S", R.CARD_NOT_IN_HAND),
        ("p2 concede", R.NOT_IN_THIS_GAME),
        ("p2 throw", R.NOT_IN_THIS_GAME),
        ("p1 redeal", R.NOT_IN_THIS_GAME),
    ],
)
def test_declaration_refusals(line: str, reason: Reason) -> None:
    s = act(start(), "p2 bid 4", "p3 pass", "p1 pass", "p2 give 8D p1", "p2 give QH p3")
    assert refusal(s, line) is reason


def test_a_troyan_on_the_first_lead_makes_the_trump() -> None:
    s = act(start(), "p2 bid 4", "p3 pass", "p1 pass", "p2 give 8D p1", "p2 give QH p3")
    assert s.deal is not None and s.deal.trump is None
    s = act(s, "p2 play 6S troyan")
    assert s.deal is not None and s.deal.trump == 0


def test_a_completed_trilyazh_scores_3_more() -> None:
    s = act(
        start(),
        "p2 bid 4",
        "p3 pass",
        "p1 pass",
        "p2 give 8D p1",
        "p2 give QH p3",
        "p2 play JD trilyazh",
        "p3 play 6D",
        "p1 play 8D",
    )
    assert refusal(s, "p2 play 6S") is R.MUST_CONTINUE_TRILYAZH
    assert refusal(s, "p2 play KD") is R.MUST_CONTINUE_TRILYAZH
    s = act(s, "p2 play QD", "p3 play 7D", "p1 play 6H")
    assert refusal(s, "p2 play 6S") is R.MUST_CONTINUE_TRILYAZH
    s, events = apply(s, parse_action("p2 play KD", 3))
    s, events = apply(s, parse_action("p3 play QH", 3))
    s, events = apply(s, parse_action("p1 play 7H", 3))
    assert TrilyazhCompleted(1, 2) in events
    d = s.deal
    assert d is not None
    assert d.won == (0, 3, 0)
    assert d.points == (0, 6, 0)


def test_a_lost_trick_breaks_the_trilyazh_and_ends_the_duty() -> None:
    s = act(
        start(),
        "p2 bid 4",
        "p3 pass",
        "p1 pass",
        "p2 give 6C p1",
        "p2 give 8D p3",
        "p2 play 6S",
        "p3 play JS",
        "p1 play KS",
        "p1 play 6H troyan",
        "p2 play KH",
        "p3 play 7C",
        "p2 play JD trilyazh",
        "p3 play 6D",
    )
    assert refusal(s, "p1 play QC") is R.MUST_TRUMP
    s, events = apply(s, parse_action("p1 play 7H", 3))
    assert TrilyazhBroken(1, 2) in events
    d = s.deal
    assert d is not None
    assert d.trump == 3
    assert d.won == (2, 1, 0) and d.points == (2, 1, 0)
    assert d.turn == 0


def test_every_trick_is_one_point_and_the_declarer_scores_the_contract() -> None:
    s = d_deal((0, 0, 0), "p2 bid 4", "p3 pass", "p1 pass")
    d = s.deal
    assert d is not None
    assert d.points == (0, 7, 1)
    assert s.scores == (0, 4, 1)


def test_a_failed_contract_costs_the_contract() -> None:
    s = d_deal((0, 0, 0), "p2 bid 4", "p3 pass", "p1 pass", contract=8)
    assert s.scores == (0, -8, 1)


def test_reaching_20_seats_the_player_at_20() -> None:
    s = d_deal((0, 15, 0), "p2 bid 4", "p3 pass", "p1 pass", contract=7)
    assert s.scores == (0, 20, 1)
    assert (s.perch, s.perch_attempts) == (1, 0)


def test_the_sitter_stays_at_20_and_uses_an_attempt_whoever_declares() -> None:
    s = d_deal((0, 0, 20), "p2 bid 4", "p3 pass", "p1 pass")
    assert s.scores == (0, 4, 20)
    assert (s.perch, s.perch_attempts) == (2, 1)


def test_a_new_sitter_knocks_the_earlier_one_off_to_10() -> None:
    s = d_deal((0, 15, 20), "p2 bid 4", "p3 pass", "p1 pass", contract=5)
    assert s.scores == (0, 20, 10)
    assert s.perch == 1
    assert s.falls == (0, 0, 1)
    assert s.bagels == (0, 0, 0)


def test_two_reaching_20_together_both_fall() -> None:
    s = d_deal((0, 15, 19), "p2 bid 4", "p3 pass", "p1 pass", contract=5)
    assert s.scores == (0, 10, 10)
    assert s.perch is None
    assert s.falls == (0, 1, 1)


def test_the_sitter_making_7_wins() -> None:
    s = d_deal((0, 20, 0), "p2 bid 7", "p3 pass", "p1 pass")
    assert s.phase is Phase.MATCH_OVER and s.winner == 1
    assert s.scores == (0, 20, 1)


def test_when_the_sitter_wins_another_reaching_20_is_capped() -> None:
    s = d_deal((0, 20, 19), "p2 bid 7", "p3 pass", "p1 pass")
    assert s.winner == 1
    assert s.scores == (0, 20, 20)


def test_the_sitter_failing_stays_at_20() -> None:
    s = d_deal((0, 20, 0), "p2 bid 8", "p3 pass", "p1 pass")
    assert s.winner is None
    assert s.scores == (0, 20, 1)
    assert (s.perch, s.perch_attempts) == (1, 1)


def test_three_deals_without_the_win_and_the_sitter_falls_to_10() -> None:
    s = start((0, 0, 20))
    s = act(s, "p2 bid 4", "p3 pass", "p1 pass")
    s = give_first(s)
    s = play_deal(s, [])
    assert (s.perch, s.perch_attempts) == (2, 1)
    for seed in (5, 6):
        s, _ = apply(s, shuffled_deal(s, seed))
        s = play_deal(give_first(pass_out(s)), [])
    assert max(s.scores[0], s.scores[1]) < 20, "a climber would change the story"
    assert s.scores[2] == 10
    assert s.perch is None
    assert s.falls == (0, 0, 1)
    assert s.bagels == (0, 0, 0)


STRONG = "6H 7H 8H JH QH KH KS"
KC_HAND = "KC 6D 7D 8D JD QD KD"
WEAK = "7S 8S JS QS 7C 8C JC"
TRILYAZH_PLAYS = ["6H troyan", "QC", "7H", "8H", "JH trilyazh", "QH", "KH", "KS"]


def test_knock_offs_a_second_fall_to_0_and_a_golden_bagel() -> None:
    # deal 1, dealer p1: p2 reaches 20 and knocks the sitter p3 off (first fall: 10)
    s = deal(rules(TU), {0: WEAK, 1: STRONG, 2: KC_HAND}, TALON_D, scores=(0, 15, 20))
    s = act(s, "p2 bid 4", "p3 pass", "p1 pass", "p2 give 6S p1", "p2 give 6C p3", "p2 contract 5")
    s = play_deal(s, D_PLAYS)
    assert (s.scores, s.perch, s.falls) == ((0, 20, 10), 1, (0, 0, 1))
    # deal 2, dealer p2: p3 takes 7 tricks and a trilyazh (10) at contract 10: 20, knocks p2 off
    s = deal(s.rules, {0: KC_HAND, 1: WEAK, 2: STRONG}, TALON_D, dealer=1, state=s)
    s = act(s, "p3 bid 4", "p1 pass", "p2 pass", "p3 give 6S p2", "p3 give 6C p1", "p3 contract 10")
    s = play_deal(s, TRILYAZH_PLAYS)
    assert s.deal is not None and s.deal.points == (1, 0, 10)
    assert (s.scores, s.perch, s.falls, s.bagels) == ((1, 10, 20), 2, (0, 1, 1), (0, 0, 0))
    # deal 3, dealer p3: p1 opens, p2 bids 10 and reaches 20; p3 falls a second time: 0 + bagel
    s = deal(s.rules, {0: KC_HAND, 1: STRONG, 2: WEAK}, TALON_D, dealer=2, state=s)
    s = act(s, "p1 bid 4", "p2 bid 10", "p3 pass", "p1 pass", "p2 give 6S p3", "p2 give 6C p1")
    s = play_deal(s, TRILYAZH_PLAYS)
    assert (s.scores, s.perch, s.falls, s.bagels) == ((2, 20, 0), 1, (0, 1, 2), (0, 0, 1))
    assert s.winner is None
