"""«Тысяча» (rules §1 and fine points 1–18), table by table: bids, contracts, giving,
concession, redeal, bolts, golden round, dump truck, −1000 and the barrel."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine import (
    Bid,
    Concede,
    MatchState,
    Outcome,
    Pass,
    Phase,
    Reason,
    apply,
    legal_actions,
    shuffled_deal,
)
from engine.cards import THOUSAND_DECK, card_name, cards_of
from engine.events import MatchOver, Mounted
from engine.games.base import half_contract, round_points
from tests.engine.helpers import (
    DEAL_A,
    DEAL_B,
    TALON_A,
    TALON_B,
    act,
    deal,
    give_first,
    mask,
    pass_out,
    play_deal,
    refusal,
    rules,
)

R = Reason

# p1 holds four nines and 7 points; after p2 gives it QH it holds 10 points.
DEAL_C = {
    0: "9S 9C 9D 9H JS JC QS",
    1: "AS TS KS AC TC KC AD",
    2: "TD KD QD JD AH TH KH",
}
TALON_C = "QC QH JH"

# p3 holds every heart and the ace of spades; with the ace of clubs from the talon it takes
# all eight tricks and declares the ♥ marriage: 120 + 100 = 220 points.
DEAL_W = {
    0: "TS KS QS JS TC KC QC",
    1: "JC AD TD KD QD JD 9D",
    2: "AH TH KH QH JH 9H AS",
}
TALON_W = "AC 9S 9C"
W_LEADS = ["AH", "KH marriage", "QH", "TH", "JH", "9H", "AS", "AC"]


def start(
    scores: tuple[int, ...] | None = None,
    start_bolts: tuple[int, ...] | None = None,
    hands: dict[int, str] = DEAL_A,
    talon: str = TALON_A,
    opts: Mapping[str, str] | None = None,
    **options: str,
) -> MatchState:
    return deal(rules(**(opts or {}), **options), hands, talon, scores=scores, bolts=start_bolts)


def p2_declares(state: MatchState, *gives: str) -> MatchState:
    """p3 and p1 pass (p2 on the hundred declares at 100) and p2 gives."""
    state = act(state, "p3 pass", "p1 pass")
    return act(state, *(gives or ("p2 give 9H p1", "p2 give JH p3")))


def concede_deal(state: MatchState, seed: int) -> MatchState:
    """Deal ``shuffle seed``, everyone passes who may, the declarer gives and concedes."""
    state, _ = apply(state, shuffled_deal(state, seed))
    state = give_first(pass_out(state))
    d = state.deal
    assert d is not None and d.declarer is not None
    return act(state, f"p{d.declarer + 1} concede")


# --- the deal and the hundred -------------------------------------------------------------
def test_the_seat_after_the_dealer_sits_on_the_hundred_and_the_next_speaks() -> None:
    s = start()
    d = s.deal
    assert d is not None
    assert s.phase is Phase.BIDDING
    assert d.bids == ((1, 100),)
    assert (d.bid, d.bidder, d.turn) == (100, 1, 2)


def test_both_others_pass_and_the_hundred_declares_at_100() -> None:
    s = act(start(), "p3 pass", "p1 pass")
    d = s.deal
    assert d is not None
    assert s.phase is Phase.GIVING
    assert (d.declarer, d.contract, d.turn) == (1, 100, 1)
    assert d.hands[1] == mask(DEAL_A[1] + " " + TALON_A)
    assert d.talon_shown


def test_a_pass_is_final() -> None:
    s = act(start(), "p3 pass", "p1 bid 105", "p2 bid 110")
    assert s.deal is not None and s.deal.turn == 0
    assert refusal(s, "p3 bid 115") is R.NOT_YOUR_TURN
    s = act(s, "p1 pass")
    assert s.deal is not None
    assert (s.deal.declarer, s.deal.contract) == (1, 110)


# --- bids ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "line", "reason"),
    [
        ({}, "p3 bid 105", None),
        ({}, "p3 bid 200", None),
        ({}, "p3 bid 100", R.BID_TOO_LOW),
        ({}, "p3 bid 95", R.BID_TOO_LOW),
        ({}, "p3 bid 107", R.BID_NOT_MULTIPLE),
        ({}, "p3 bid 121", R.BID_NOT_MULTIPLE),
        ({}, "p3 bid 205", R.BID_OVER_CAP),
        ({}, "p3 bid 305", R.BID_OVER_MAXIMUM),
        ({"bid_cap_without_marriage": "off"}, "p3 bid 300", None),
        ({"bid_cap_without_marriage": "off"}, "p3 bid 305", R.BID_OVER_MAXIMUM),
        ({"bid_step": "10"}, "p3 bid 105", R.BID_TOO_LOW),
        ({"bid_step": "10"}, "p3 bid 110", None),
        ({"bid_step": "10"}, "p3 bid 115", None),
        ({"bid_step": "10"}, "p3 bid 113", R.BID_NOT_MULTIPLE),
        ({}, "p1 bid 105", R.NOT_YOUR_TURN),
        ({}, "p2 bid 105", R.NOT_YOUR_TURN),
        ({}, "p1 pass", R.NOT_YOUR_TURN),
        ({}, "p3 pass", None),
    ],
)
def test_bids(options: dict[str, str], line: str, reason: Reason | None) -> None:
    s = start(opts=options)
    if reason is None:
        assert act(s, line) != s
    else:
        assert refusal(s, line) is reason


def test_legal_bids_run_from_the_step_to_the_cap() -> None:
    bids = [a.value for a in legal_actions(start()) if isinstance(a, Bid)]
    assert bids == list(range(105, 201, 5))
    assert Pass(2) in legal_actions(start())
    bids10 = [a.value for a in legal_actions(start(bid_step="10")) if isinstance(a, Bid)]
    assert bids10 == list(range(110, 201, 5))


def _cap_deal(hand: str, **options: str) -> MatchState:
    rest = [card_name(c) for c in cards_of(THOUSAND_DECK & ~mask(hand))]
    hands = {0: " ".join(rest[:7]), 1: " ".join(rest[7:14]), 2: hand}
    return deal(rules(**options), hands, " ".join(rest[14:]))


@pytest.mark.parametrize(
    ("hand", "options", "cap"),
    [
        ("AS TS 9S AC TC 9C AD", {}, 120),
        ("KS QS 9S AC TC 9C AD", {}, 160),
        ("KC QC 9S AS TC 9C AD", {}, 180),
        ("KD QD 9S AS TC 9C AD", {}, 200),
        ("KH QH 9S AS TC 9C AD", {}, 220),
        ("KS QS KH QH 9C 9D AD", {}, 260),
        ("KS QS KC QC AC TC AD", {}, 220),
        ("KC QC KD QD KH QH 9S", {}, 300),
        ("AS AC AD AH 9S 9C 9D", {}, 120),
        ("AS AC AD AH 9S 9C 9D", {"ace_marriage": "on"}, 300),
        ("KS JS 9S QC TC 9C AD", {}, 120),
        ("AS TS 9S AC TC 9C AD", {"bid_cap_without_marriage": "off"}, 300),
    ],
)
def test_the_bid_cap_is_120_plus_the_marriages_held(
    hand: str, options: dict[str, str], cap: int
) -> None:
    s = _cap_deal(hand, **options)
    bids = [a.value for a in legal_actions(s) if isinstance(a, Bid)]
    assert max(bids) == cap
    if cap < 300:
        assert refusal(s, f"p3 bid {cap + 5}") is R.BID_OVER_CAP


# --- minus bidding (§1.3, fine point 15) ----------------------------------------------------
def test_a_player_below_the_threshold_passes_automatically() -> None:
    s = act(start((-150, 0, 0), minus_bidding="-100"), "p3 bid 105")
    d = s.deal
    assert d is not None
    assert d.bids == ((1, 100), (2, 105), (0, None))
    assert d.turn == 1


def test_minus_bidding_is_strictly_below() -> None:
    s = act(start((-100, 0, 0), minus_bidding="-100"), "p3 bid 105")
    assert s.deal is not None and s.deal.turn == 0
    s = act(start((-5, 0, 0), minus_bidding="0"), "p3 bid 105")
    assert s.deal is not None and s.deal.turn == 1


def test_minus_bidding_passes_the_first_speaker_at_once() -> None:
    s = start((0, 0, -150), minus_bidding="-100")
    assert s.deal is not None
    assert s.deal.turn == 0
    assert s.deal.bids == ((1, 100), (2, None))


def test_the_hundred_below_the_threshold_passes_when_raised_but_keeps_an_unraised_100() -> None:
    raised = act(start((0, -150, 0), minus_bidding="-100"), "p3 bid 105", "p1 pass")
    assert raised.deal is not None
    assert (raised.deal.declarer, raised.deal.contract) == (2, 105)
    kept = act(start((0, -150, 0), minus_bidding="-100"), "p3 pass", "p1 pass")
    assert kept.deal is not None
    assert (kept.deal.declarer, kept.deal.contract) == (1, 100)


# --- giving and the contract (§1.4, fine point 3) -------------------------------------------
@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p2 give 9H p2", R.INVALID_RECIPIENT),
        ("p2 give AS p1", R.CARD_NOT_IN_HAND),
        ("p1 give AS p2", R.NOT_DECLARER),
        ("p2 play AC", R.WRONG_PHASE),
        ("p2 contract 100", R.WRONG_PHASE),
        ("p2 concede", R.WRONG_PHASE),
        ("p2 bid 105", R.WRONG_PHASE),
    ],
)
def test_giving_refusals(line: str, reason: Reason) -> None:
    s = act(start(), "p3 pass", "p1 pass")
    assert refusal(s, line) is reason


def test_one_card_to_each_opponent_then_the_contract() -> None:
    s = act(start(), "p3 pass", "p1 pass", "p2 give 9H p1")
    assert s.phase is Phase.GIVING
    assert refusal(s, "p2 give JH p1") is R.ALREADY_GIVEN
    s = act(s, "p2 give JH p3")
    d = s.deal
    assert d is not None
    assert s.phase is Phase.CONTRACT
    assert [h.bit_count() for h in d.hands] == [8, 8, 8]
    assert d.hands[0] & mask("9H") and d.hands[2] & mask("JH")


@pytest.mark.parametrize(
    ("options", "gives", "line", "reason"),
    [
        ({}, (), "p2 contract 100", None),
        ({}, (), "p2 contract 105", None),
        ({}, (), "p2 contract 180", None),
        ({}, (), "p2 contract 95", R.CONTRACT_BELOW_BID),
        ({}, (), "p2 contract 112", R.CONTRACT_NOT_MULTIPLE),
        ({}, (), "p2 contract 185", R.CONTRACT_OVER_CAP),
        ({}, (), "p2 contract 305", R.CONTRACT_OVER_MAXIMUM),
        ({}, (), "p1 contract 105", R.NOT_DECLARER),
        ({"bid_step": "10"}, (), "p2 contract 105", R.CONTRACT_BELOW_BID),
        ({"bid_step": "10"}, (), "p2 contract 110", None),
        ({"bid_cap_without_marriage": "off"}, (), "p2 contract 300", None),
        # the cap is computed on the 8 cards after giving: without the ♣ queen, 120
        ({}, ("p2 give QC p1", "p2 give 9H p3"), "p2 contract 120", None),
        ({}, ("p2 give QC p1", "p2 give 9H p3"), "p2 contract 125", R.CONTRACT_OVER_CAP),
    ],
)
def test_naming_the_contract(
    options: dict[str, str], gives: tuple[str, ...], line: str, reason: Reason | None
) -> None:
    s = p2_declares(start(opts=options), *gives)
    if reason is None:
        after = act(s, line)
        assert after.phase is Phase.PLAY
        assert after.deal is not None and after.deal.contract == int(line.split()[-1])
    else:
        assert refusal(s, line) is reason


def test_the_winning_bid_may_always_be_named_even_above_the_new_cap() -> None:
    s = act(
        start(), "p3 bid 105", "p1 pass", "p2 bid 180", "p3 pass", "p2 give QC p1", "p2 give 9H p3"
    )
    assert act(s, "p2 contract 180").phase is Phase.PLAY
    assert refusal(s, "p2 contract 185") is R.CONTRACT_OVER_CAP


def test_the_contract_is_named_once() -> None:
    s = act(p2_declares(start()), "p2 contract 105")
    assert refusal(s, "p2 contract 110") is R.WRONG_PHASE


def test_playing_without_naming_keeps_the_bid() -> None:
    s = act(p2_declares(start()), "p2 play AC")
    assert s.deal is not None and s.deal.contract == 100 and not s.deal.contract_named


# --- concession (§1.4, fine points 6, 16) ---------------------------------------------------
@pytest.mark.parametrize(
    ("contract", "half"),
    [(100, 50), (105, 55), (110, 55), (115, 60), (120, 60), (125, 65), (150, 75), (180, 90)],
)
def test_conceding_costs_the_contract_and_gives_each_opponent_half_rounded_up(
    contract: int, half: int
) -> None:
    s = p2_declares(start())
    if contract != 100:
        s = act(s, f"p2 contract {contract}")
    s = act(s, "p2 concede")
    assert s.phase is Phase.DEAL_OVER
    assert s.scores == (half, -contract, half)
    assert s.bolts == (0, 0, 0)
    assert s.deal is not None and s.deal.outcome is Outcome.CONCEDED


def test_conceding_without_penalty_scores_zero_and_a_bolt() -> None:
    s = act(p2_declares(start(concede_penalty="off")), "p2 contract 115", "p2 concede")
    assert s.scores == (60, 0, 60)
    assert s.bolts == (0, 1, 0)


@pytest.mark.parametrize(
    ("options", "line", "reason"),
    [
        ({"concede": "off"}, "p2 concede", R.OPTION_OFF),
        ({}, "p1 concede", R.NOT_DECLARER),
    ],
)
def test_concession_refusals(options: dict[str, str], line: str, reason: Reason) -> None:
    assert refusal(p2_declares(start(opts=options)), line) is reason


def test_conceding_is_too_late_after_the_first_lead() -> None:
    s = act(p2_declares(start()), "p2 play AC")
    assert refusal(s, "p2 concede") is R.TOO_LATE


def test_conceding_after_naming_the_contract_is_allowed() -> None:
    s = act(p2_declares(start()), "p2 contract 110", "p2 concede")
    assert s.scores == (55, -110, 55)


@pytest.mark.parametrize(
    ("contract", "half"),
    [(100, 50), (105, 55), (110, 55), (115, 60), (121, 65), (125, 65), (295, 150), (300, 150)],
)
def test_half_contract_rounds_up_to_5(contract: int, half: int) -> None:
    assert half_contract(contract) == half


@pytest.mark.parametrize(
    ("points", "rounding", "rounded"),
    [
        (0, 5, 0),
        (1, 5, 0),
        (2, 5, 0),
        (3, 5, 5),
        (4, 5, 5),
        (5, 5, 5),
        (6, 5, 5),
        (7, 5, 5),
        (8, 5, 10),
        (9, 5, 10),
        (12, 5, 10),
        (13, 5, 15),
        (17, 5, 15),
        (18, 5, 20),
        (42, 5, 40),
        (43, 5, 45),
        (57, 5, 55),
        (58, 5, 60),
        (120, 5, 120),
        (0, 10, 0),
        (1, 10, 0),
        (4, 10, 0),
        (5, 10, 10),
        (9, 10, 10),
        (14, 10, 10),
        (15, 10, 20),
        (21, 10, 20),
        (25, 10, 30),
        (114, 10, 110),
        (115, 10, 120),
        (0, None, 0),
        (2, None, 2),
        (43, None, 43),
        (117, None, 117),
    ],
)
def test_defender_rounding(points: int, rounding: int | None, rounded: int) -> None:
    assert round_points(points, rounding) == rounded


# --- redeal (§1.4, fine point 14) -----------------------------------------------------------
def _c(**options: str) -> MatchState:
    return act(start(hands=DEAL_C, talon=TALON_C, opts=options), "p3 pass", "p1 pass")


def test_four_nines_or_under_14_points_may_ask_for_a_redeal() -> None:
    s = act(_c(), "p2 give QH p1", "p2 give JH p3")
    assert refusal(s, "p3 redeal") is R.NO_GROUNDS_FOR_REDEAL
    assert refusal(s, "p2 redeal") is R.NO_GROUNDS_FOR_REDEAL
    after = act(s, "p1 redeal")
    assert after.phase is Phase.DEAL_OVER
    assert after.deal is not None and after.deal.outcome is Outcome.REDEALT
    assert after.scores == (0, 0, 0) and after.bolts == (0, 0, 0)
    assert after.next_dealer == 1
    assert after.deals == 1


def test_redeal_is_judged_on_the_eight_cards_after_giving() -> None:
    # p1 gives nothing away; with AH instead of 9H... p3 holds 44 + JH = 46 points: no ground.
    # p2 with 61 + 3 points: no ground. p1 holds four nines: ground.
    s = act(_c(), "p2 give QC p1", "p2 give JH p3")
    assert act(s, "p1 redeal").phase is Phase.DEAL_OVER


@pytest.mark.parametrize(
    ("options", "stage", "reason"),
    [
        ({}, "giving", R.WRONG_PHASE),
        ({}, "played", R.TOO_LATE),
        ({"redeal": "off"}, "contract", R.OPTION_OFF),
    ],
)
def test_redeal_refusals(options: dict[str, str], stage: str, reason: Reason) -> None:
    s = _c(**options)
    if stage != "giving":
        s = act(s, "p2 give QH p1", "p2 give JH p3")
    if stage == "played":
        s = act(s, "p2 play AS")
    assert refusal(s, "p1 redeal") is reason


def test_redeal_after_naming_the_contract() -> None:
    s = act(_c(), "p2 give QH p1", "p2 give JH p3", "p2 contract 110", "p1 redeal")
    assert s.phase is Phase.DEAL_OVER and s.scores == (0, 0, 0)


# --- bolts, golden round, dump truck, −1000 (§1.6, fine points 10, 18) ----------------------
def test_the_third_bolt_costs_120_and_restarts_the_count() -> None:
    s = act(p2_declares(start(start_bolts=(0, 2, 0), concede_penalty="off")), "p2 concede")
    assert s.bolts == (0, 0, 0)
    assert s.scores == (50, -120, 50)


def test_bolts_off_gives_no_bolt() -> None:
    s = act(
        p2_declares(start(start_bolts=(0, 2, 0), concede_penalty="off", bolts="off")), "p2 concede"
    )
    assert s.bolts == (0, 2, 0)
    assert s.scores == (50, 0, 50)


def test_golden_round_doubles_every_change_of_the_first_three_deals_redeals_included() -> None:
    s = act(
        start(hands=DEAL_C, talon=TALON_C, golden_round="on"),
        "p3 pass",
        "p1 pass",
        "p2 give QH p1",
        "p2 give JH p3",
        "p1 redeal",
    )
    changes = []
    for seed in (1, 2, 3):
        before = s.scores
        s = concede_deal(s, seed)
        changes.append(tuple(a - b for a, b in zip(s.scores, before, strict=True)))
    # deal 2 (dealer p2): p3 on the hundred; deal 3: p1; deal 4: p2
    assert changes == [(100, 100, -200), (-200, 100, 100), (50, -100, 50)]


def test_golden_round_doubles_the_bolt_penalty() -> None:
    s = act(
        p2_declares(start(start_bolts=(0, 2, 0), concede_penalty="off", golden_round="on")),
        "p2 concede",
    )
    assert s.scores == (100, -240, 100)


@pytest.mark.parametrize(
    ("scores", "options", "after"),
    [
        ((505, 0, 0), {}, (0, -100, 50)),
        ((505, 0, 0), {"dump_truck": "off"}, (555, -100, 50)),
        ((0, -455, 0), {}, (50, 0, 50)),
        ((0, 655, 0), {}, (50, 0, 50)),
        ((0, 655, 505), {}, (50, 0, 0)),
        ((0, -455, 0), {"dump_truck": "off"}, (50, -555, 50)),
        ((500, 0, 0), {}, (550, -100, 50)),
    ],
)
def test_dump_truck_resets_exactly_555_and_minus_555(
    scores: tuple[int, ...], options: dict[str, str], after: tuple[int, ...]
) -> None:
    s = act(p2_declares(start(scores, opts=options)), "p2 concede")
    assert s.scores == after


def test_minus_1000_ends_the_match_and_the_highest_score_wins() -> None:
    s, events = apply(p2_declares(start((10, -900, 0))), Concede(1))
    assert s.scores == (60, -1000, 50)
    assert s.phase is Phase.MATCH_OVER
    assert s.winner == 0
    over = [e for e in events if isinstance(e, MatchOver)]
    assert len(over) == 1
    assert over[0].winner == 0
    assert over[0].settlement == (1070, -1060, -10)
    assert legal_actions(s) == ()


def test_minus_995_does_not_end_the_match() -> None:
    s = act(p2_declares(start((10, -895, 0))), "p2 concede")
    assert s.scores == (60, -995, 50)
    assert s.phase is Phase.DEAL_OVER and s.winner is None


# --- the barrel (§1.7, fine points 2–9, 17, 18) ---------------------------------------------
@pytest.mark.parametrize(
    ("options", "line", "reason"),
    [
        ({}, "p3 bid 105", R.BELOW_BARREL),
        ({}, "p3 bid 120", R.BELOW_BARREL),
        ({}, "p3 bid 121", None),
        ({}, "p3 bid 122", R.BID_NOT_MULTIPLE),
        ({}, "p3 bid 125", None),
        ({}, "p3 bid 200", None),
        ({}, "p3 bid 205", R.BID_OVER_CAP),
        ({}, "p3 pass", None),
        ({"bid_step": "10"}, "p3 bid 121", None),
        ({"target": "1000"}, "p3 bid 115", R.BELOW_BARREL),
        ({"target": "1000"}, "p3 bid 120", None),
    ],
)
def test_the_barrel_players_bids(options: dict[str, str], line: str, reason: Reason | None) -> None:
    s = start((0, 0, 880), opts=options)
    assert s.perch == 2 and s.perch_attempts == 0
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


@pytest.mark.parametrize(
    ("options", "line", "reason"),
    [
        ({}, "p1 bid 125", R.BID_TOO_LOW),
        ({}, "p1 bid 126", R.BID_NOT_MULTIPLE),
        ({}, "p1 bid 130", None),
        ({"bid_step": "10"}, "p1 bid 130", R.BID_TOO_LOW),
        ({"bid_step": "10"}, "p1 bid 135", None),
    ],
)
def test_bids_after_the_barrel_contract(
    options: dict[str, str], line: str, reason: Reason | None
) -> None:
    s = act(start((0, 0, 880), opts=options), "p3 bid 121")
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


def test_the_cap_never_forbids_the_barrel_contract() -> None:
    # DEAL_B: p3 holds no marriage (cap 120)
    s = start((0, 0, 880), hands=DEAL_B, talon=TALON_B)
    bids = [a.value for a in legal_actions(s) if isinstance(a, Bid)]
    assert bids == [121]
    assert refusal(s, "p3 bid 125") is R.BID_OVER_CAP


def test_the_barrel_player_on_the_hundred_whom_both_pass_declares_the_barrel_contract() -> None:
    s = act(start((0, 880, 0)), "p3 pass", "p1 pass")
    assert s.deal is not None
    assert (s.deal.declarer, s.deal.contract) == (1, 121)


def test_without_barrel_bidding_the_barrel_player_declares_at_once() -> None:
    s = start((0, 0, 880), barrel_bidding="off")
    d = s.deal
    assert d is not None
    assert s.phase is Phase.GIVING
    assert (d.declarer, d.contract, d.bids, d.turn) == (2, 121, (), 2)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p3 contract 121", None),
        ("p3 contract 125", R.CONTRACT_BELOW_BID),
        ("p3 contract 126", R.CONTRACT_NOT_MULTIPLE),
        ("p3 contract 130", None),
        ("p3 contract 120", R.CONTRACT_BELOW_BID),
    ],
)
def test_raising_the_barrel_contract(line: str, reason: Reason | None) -> None:
    s = act(
        start((0, 0, 880)), "p3 bid 121", "p1 pass", "p2 pass", "p3 give 9H p1", "p3 give JH p2"
    )
    if reason is None:
        act(s, line)
    else:
        assert refusal(s, line) is reason


def test_three_failed_attempts_and_the_barrel_player_falls_120() -> None:
    s = p2_declares(start((0, 0, 880)))
    s = act(s, "p2 concede")
    assert s.scores == (50, -100, 880)
    assert (s.perch, s.perch_attempts) == (2, 1)
    s = concede_deal(s, 11)  # dealer p2: p3 on the hundred, both pass: p3 at 121 concedes
    assert s.deal is not None and (s.deal.declarer, s.deal.contract) == (2, 121)
    assert s.scores == (50, -100, 880)
    assert (s.perch, s.perch_attempts) == (2, 2)
    s = concede_deal(s, 12)  # dealer p3: p1 on the hundred concedes 100
    assert s.scores == (-50, -50, 760)
    assert (s.perch, s.perch_attempts) == (None, 0)


@pytest.mark.parametrize(
    ("bid", "contract", "after"),
    [("p3 bid 125", None, 755), ("p3 bid 121", "p3 contract 130", 750)],
)
def test_raised_above_the_barrel_contract_and_failed_falls_at_once(
    bid: str, contract: str | None, after: int
) -> None:
    s = act(start((0, 0, 880)), bid, "p1 pass", "p2 pass", "p3 give 9H p1", "p3 give JH p2")
    if contract:
        s = act(s, contract)
    s = act(s, "p3 concede")
    assert s.scores == (0, 0, after)
    assert s.perch is None


def test_conceding_the_barrel_contract_is_a_failed_attempt_only() -> None:
    s = act(
        start((0, 0, 880)),
        "p3 bid 121",
        "p1 pass",
        "p2 pass",
        "p3 give 9H p1",
        "p3 give JH p2",
        "p3 concede",
    )
    assert s.scores == (0, 0, 880)
    assert (s.perch, s.perch_attempts) == (2, 1)
    assert s.bolts == (0, 0, 0)


def test_climbing_onto_the_barrel_stops_at_880() -> None:
    s, events = apply(p2_declares(start((850, 0, 0))), Concede(1))
    assert s.scores == (880, -100, 50)
    assert (s.perch, s.perch_attempts) == (0, 0)
    assert Mounted(0) in events


def test_a_climber_knocks_the_barrel_player_off() -> None:
    s = act(p2_declares(start((850, 0, 880))), "p2 concede")
    assert s.scores == (880, -100, 760)
    assert s.perch == 0


def test_two_climbers_in_one_deal_both_fall() -> None:
    s = act(p2_declares(start((850, 0, 860))), "p2 concede")
    assert s.scores == (760, -100, 760)
    assert s.perch is None


def _w(scores: tuple[int, int, int], bid: int, **options: str) -> MatchState:
    s = deal(rules(**options), DEAL_W, TALON_W, scores=scores)
    s = act(s, f"p3 bid {bid}", "p1 pass", "p2 pass", "p3 give 9S p1", "p3 give 9C p2")
    return play_deal(s, W_LEADS)


def test_a_played_deal_with_a_marriage_and_bolts() -> None:
    s = _w((0, 0, 0), 160)
    d = s.deal
    assert d is not None
    assert d.points == (0, 0, 220)
    assert d.won == (0, 0, 8)
    assert s.scores == (0, 0, 160)
    assert s.bolts == (1, 1, 0)


def test_the_barrel_player_making_the_barrel_contract_wins() -> None:
    s = _w((0, 0, 880), 121)
    assert s.scores == (0, 0, 1001)
    assert s.phase is Phase.MATCH_OVER and s.winner == 2
    assert s.bolts == (0, 0, 0)  # the opponents' bolts do not count


def test_the_barrel_win_is_doubled_in_the_golden_round() -> None:
    s = _w((0, 0, 880), 121, golden_round="on")
    assert s.scores == (0, 0, 1122) and s.winner == 2


def test_a_declarer_from_below_880_reaching_the_target_wins_outright() -> None:
    s = _w((0, 0, 850), 160)
    assert s.scores == (0, 0, 1010) and s.winner == 2


def test_a_declarer_landing_between_880_and_the_target_climbs() -> None:
    s = _w((0, 0, 750), 160)
    assert s.scores == (0, 0, 880) and s.perch == 2 and s.winner is None


def test_without_the_barrel_reaching_the_target_ends_the_match() -> None:
    s = act(p2_declares(start((980, 0, 0), barrel="off")), "p2 concede")
    assert s.scores == (1030, -100, 50)
    assert s.winner == 0


def test_without_the_barrel_scores_above_880_go_on() -> None:
    s = act(p2_declares(start((900, 0, 0), barrel="off")), "p2 concede")
    assert s.scores == (950, -100, 50)
    assert s.perch is None and s.winner is None


# --- marriages in play (§1.5) ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("p2 play KC marriage", R.MARRIAGE_NEEDS_TRICK),
        ("p2 play QC marriage", R.MARRIAGE_NEEDS_TRICK),
        ("p2 play AC marriage", R.NO_MARRIAGE),
        ("p2 play TH marriage", R.NO_MARRIAGE),
        ("p2 play AC troyan", R.NOT_IN_THIS_GAME),
        ("p2 play AC trilyazh", R.NOT_IN_THIS_GAME),
        ("p2 play AC aces", R.OPTION_OFF),
        ("p2 play AS", R.CARD_NOT_IN_HAND),
        ("p1 play AS", R.NOT_YOUR_TURN),
    ],
)
def test_first_lead_refusals(line: str, reason: Reason) -> None:
    assert refusal(p2_declares(start()), line) is reason


def test_a_marriage_after_winning_a_trick_scores_and_sets_the_trump() -> None:
    s = act(p2_declares(start()), "p2 play AC", "p3 play 9D", "p1 play 9S")
    assert s.deal is not None and s.deal.turn == 1 and s.deal.points == (0, 11, 0)
    s = act(s, "p2 play KC marriage")
    d = s.deal
    assert d is not None
    assert d.trump == 1
    assert d.points == (0, 71, 0)


def test_four_aces_after_a_trick_score_200_and_keep_the_trump() -> None:
    s = deal(rules(ace_marriage="on"), DEAL_B, TALON_B)
    s = act(s, "p3 pass", "p1 bid 105", "p2 pass", "p1 give 9H p2", "p1 give JH p3")
    assert refusal(s, "p1 play AS aces") is R.MARRIAGE_NEEDS_TRICK
    s = act(s, "p1 play TH", "p2 play KH", "p3 play QH")
    assert refusal(s, "p1 play 9S aces") is R.NO_FOUR_ACES
    s = act(s, "p1 play AS aces")
    d = s.deal
    assert d is not None
    assert d.points == (217, 0, 0)
    assert d.trump is None
