"""Every ``Reason``: a state where exactly that refusal happens, and proof that the refused
action changed nothing (rules §5) and is not among the legal actions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    Action,
    Deal,
    Game,
    MatchState,
    Pass,
    Reason,
    apply,
    legal_actions,
    new_match,
    parse_action,
    shuffled_deal,
)
from tests.engine.helpers import (
    DEAL_A,
    DEAL_B,
    TALON_A,
    TALON_B,
    TUMB_DEAL,
    TUMB_TALON,
    act,
    deal,
    mask,
    refusal,
    rules,
    script,
)
from tests.engine.test_rules_thousand_one import DEAL_4, DEAL_T1, TALON_4, TALON_T1

R = Reason


def thousand(*lines: str, scores: tuple[int, ...] | None = None, **options: str) -> MatchState:
    return act(deal(rules(**options), DEAL_A, TALON_A, scores=scores), *lines)


def aces(*lines: str) -> MatchState:
    return act(deal(rules(ace_marriage="on"), DEAL_B, TALON_B), *lines)


def t1(*lines: str, scores: tuple[int, ...] | None = None) -> MatchState:
    return act(deal(rules(Game.THOUSAND_ONE), DEAL_T1, TALON_T1, scores=scores), *lines)


def t1_four(*lines: str) -> MatchState:
    return act(deal(rules(Game.THOUSAND_ONE, 4), DEAL_4, TALON_4), *lines)


def tumb(*lines: str, scores: tuple[int, ...] | None = None) -> MatchState:
    return act(deal(rules(Game.TUMBOCHKA), TUMB_DEAL, TUMB_TALON, scores=scores), *lines)


P2_GIVES = ("p3 pass", "p1 pass", "p2 give 9H p1", "p2 give JH p3")
T1_GIVES = ("p2 bid 40", "p3 pass", "p1 pass", "p2 give 9S p1", "p2 give JD p3")
TU_GIVES = ("p2 bid 4", "p3 pass", "p1 pass", "p2 give 8D p1", "p2 give QH p3")

Case = tuple[Reason, Callable[[], MatchState], Callable[[MatchState], Action] | str]

CASES: list[Case] = [
    (R.MATCH_OVER, lambda: t1("p2 pass", "p3 pass", "p1 throw", scores=(0, 960, 980)), "p1 pass"),
    (R.WRONG_PHASE, thousand, "p3 play AD"),
    (R.NOT_YOUR_TURN, thousand, "p1 bid 105"),
    (R.NOT_PLAYING, t1_four, "p1 bid 40"),
    (R.NO_SUCH_SEAT, thousand, lambda s: Pass(3)),
    (
        R.INVALID_DEAL,
        lambda: new_match(rules()),
        lambda s: Deal(0, (mask(DEAL_A[0]), mask(DEAL_A[1]), mask(DEAL_A[2])), mask("QH JH")),
    ),
    (
        R.WRONG_DEALER,
        lambda: thousand("p3 pass", "p1 pass", "p2 give 9H p1", "p2 give JH p3", "p2 concede"),
        lambda s: shuffled_deal(s, 1, dealer=0),
    ),
    (R.BID_TOO_LOW, thousand, "p3 bid 100"),
    (R.BID_NOT_MULTIPLE, thousand, "p3 bid 107"),
    (R.BID_OVER_CAP, thousand, "p3 bid 205"),
    (R.BID_OVER_MAXIMUM, thousand, "p3 bid 305"),
    (R.BELOW_BARREL, lambda: thousand(scores=(0, 0, 880)), "p3 bid 110"),
    (R.OPENING_BID_EXACT, tumb, "p2 bid 5"),
    (R.MUST_OPEN, tumb, "p2 pass"),
    (R.BELOW_TUMBOCHKA_MINIMUM, lambda: tumb("p2 bid 4", scores=(0, 0, 20)), "p3 bid 6"),
    (R.SCORE_TOO_LOW_TO_BID, lambda: tumb("p2 bid 4", "p3 bid 7", scores=(0, 0, 20)), "p1 bid 8"),
    (R.CARD_NOT_IN_HAND, lambda: thousand("p3 pass", "p1 pass"), "p2 give AS p1"),
    (R.INVALID_RECIPIENT, lambda: thousand("p3 pass", "p1 pass"), "p2 give 9H p2"),
    (R.ALREADY_GIVEN, lambda: thousand("p3 pass", "p1 pass", "p2 give 9H p1"), "p2 give JH p1"),
    (R.CONTRACT_BELOW_BID, lambda: thousand(*P2_GIVES), "p2 contract 95"),
    (R.CONTRACT_NOT_MULTIPLE, lambda: thousand(*P2_GIVES), "p2 contract 112"),
    (R.CONTRACT_OVER_CAP, lambda: thousand(*P2_GIVES), "p2 contract 185"),
    (
        R.CONTRACT_OVER_MAXIMUM,
        lambda: thousand(*P2_GIVES, bid_cap_without_marriage="off"),
        "p2 contract 305",
    ),
    (R.NOT_DECLARER, lambda: thousand(*P2_GIVES), "p1 concede"),
    (R.OPTION_OFF, lambda: thousand(*P2_GIVES, concede="off"), "p2 concede"),
    (R.NO_GROUNDS_FOR_REDEAL, lambda: thousand(*P2_GIVES), "p3 redeal"),
    (R.TOO_LATE, lambda: thousand(*P2_GIVES, "p2 play AC"), "p2 concede"),
    (R.NOT_IN_THIS_GAME, lambda: t1(*T1_GIVES), "p2 concede"),
    (R.MUST_FOLLOW_SUIT, lambda: t1(*T1_GIVES, "p2 play KH marriage"), "p3 play QC"),
    (
        R.MUST_TRUMP,
        lambda: t1(*T1_GIVES, "p2 play KH marriage", "p3 play AH", "p1 play 9H", "p3 play QC"),
        "p1 play AS",
    ),
    (R.NOT_ON_LEAD, lambda: t1(*T1_GIVES, "p2 play AC"), "p3 play QC marriage"),
    (R.MARRIAGE_NEEDS_TRICK, lambda: thousand(*P2_GIVES), "p2 play KC marriage"),
    (R.NO_MARRIAGE, lambda: t1(*T1_GIVES), "p2 play AC marriage"),
    (
        R.NO_FOUR_ACES,
        lambda: aces(
            "p3 pass",
            "p1 bid 105",
            "p2 pass",
            "p1 give 9H p2",
            "p1 give JH p3",
            "p1 play TH",
            "p2 play KH",
            "p3 play QH",
        ),
        "p1 play 9S aces",
    ),
    (R.NO_TROYAN, lambda: tumb(*TU_GIVES), "p2 play 6C troyan"),
    (R.TROYAN_LEADS_SIX, lambda: tumb(*TU_GIVES), "p2 play 8S troyan"),
    (R.NO_TRILYAZH, lambda: tumb(*TU_GIVES), "p2 play 6S trilyazh"),
    (R.TRILYAZH_LEADS_JACK, lambda: tumb(*TU_GIVES), "p2 play KD trilyazh"),
    (
        R.MUST_CONTINUE_TRILYAZH,
        lambda: tumb(*TU_GIVES, "p2 play JD trilyazh", "p3 play 6D", "p1 play 8D"),
        "p2 play 6S",
    ),
]


def _action(state: MatchState, how: Callable[[MatchState], Action] | str) -> Action:
    if isinstance(how, str):
        return parse_action(how, state.rules.players)
    return how(state)


@pytest.mark.parametrize(("reason", "build", "how"), CASES, ids=[c[0].value for c in CASES])
def test_each_refusal_names_its_reason_and_changes_nothing(
    reason: Reason, build: Callable[[], MatchState], how: Callable[[MatchState], Action] | str
) -> None:
    state = build()
    action = _action(state, how)
    assert refusal(state, action) is reason
    if not isinstance(action, Deal):
        assert action not in legal_actions(state)


def test_every_reason_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(Reason)


def test_refusals_leave_the_state_usable() -> None:
    # after a refusal the same state still accepts the legal move
    s = thousand()
    refusal(s, "p3 bid 107")
    after, _ = apply(s, parse_action("p3 bid 105", 3))
    assert after.deal is not None and after.deal.bid == 105


def test_a_deal_is_refused_while_a_deal_is_running() -> None:
    s = thousand()
    assert refusal(s, shuffled_deal(s, 1, dealer=1)) is R.WRONG_PHASE


def test_a_deal_after_the_match_is_refused() -> None:
    s = t1("p2 pass", "p3 pass", "p1 throw", scores=(0, 960, 980))
    assert refusal(s, shuffled_deal(s, 1)) is R.MATCH_OVER


@pytest.mark.parametrize(
    "deal_action",
    [
        lambda s: Deal(3, (mask(DEAL_A[0]), mask(DEAL_A[1]), mask(DEAL_A[2])), mask(TALON_A)),
        lambda s: Deal(0, (mask(DEAL_A[0]), mask(DEAL_A[1])), mask(TALON_A)),
        lambda s: Deal(0, (mask(DEAL_A[0]), mask(DEAL_A[0]), mask(DEAL_A[2])), mask(TALON_A)),
        lambda s: Deal(0, (mask(DEAL_A[0]), mask(DEAL_A[1]), mask(DEAL_A[2])), mask("QH JH 9H 6S")),
        lambda s: Deal(
            0, (mask(DEAL_A[0]), mask(DEAL_A[1]), mask("6S 7S 8S 6C 7C 8C 6D")), mask(TALON_A)
        ),
    ],
)
def test_invalid_deals(deal_action: Callable[[MatchState], Deal]) -> None:
    s = new_match(rules())
    assert refusal(s, deal_action(s)) is R.INVALID_DEAL


def test_a_four_player_deal_must_leave_the_dealer_without_cards() -> None:
    s = new_match(rules(Game.THOUSAND_ONE, 4))
    good = shuffled_deal(s, 5, dealer=0)
    assert good.hands[0] == 0
    bad = Deal(0, (good.hands[1], 0, good.hands[2], good.hands[3]), good.talon)
    assert refusal(s, bad) is R.INVALID_DEAL


def test_script_expect_illegal_agrees() -> None:
    s = script(
        """
        game thousand
        dealer p1
        hand p1 AS TS KS QS JS 9S AH
        hand p2 AC TC KC QC JC 9C TH
        hand p3 AD TD KD QD JD 9D KH
        talon QH JH 9H
        """
    )
    assert refusal(s, "p3 bid 121") is R.BID_NOT_MULTIPLE


def test_a_give_of_a_card_outside_the_deck_is_refused() -> None:
    from engine import Give

    s = thousand("p3 pass", "p1 pass")
    assert refusal(s, Give(1, -1, 0)) is R.CARD_NOT_IN_HAND


def test_a_play_of_a_card_outside_the_deck_is_refused() -> None:
    from engine import Play

    s = thousand(*P2_GIVES)
    assert refusal(s, Play(1, -1)) is R.CARD_NOT_IN_HAND
    assert refusal(s, Play(1, 36)) is R.CARD_NOT_IN_HAND
