"""What a strong player does in hand-made positions (the match notation, ``docs/notation.md``),
asked of the default level (``hard`` at full work, the clock off so that the answer does
not depend on the machine). Each test names the position and the strong player's choice.
"""

from __future__ import annotations

import random

import pytest

from engine import Redeal
from engine.actions import Bid, Concede, Declaration, Give, NameContract, Pass, Play, SeatAction
from engine.ai.levels import DEFAULT_LEVEL, make_agent
from engine.ai.rules_agent import RulesAgent
from engine.cards import KING, QUEEN, RANK_OF, SUIT_OF, mask_of
from engine.games.base import MARRIAGE_MASKS
from engine.match import apply
from engine.notation import format_action, format_cards, replay
from engine.state import MatchState, Phase
from engine.view import view
from tests.engine.ai.helpers import (
    AT_500,
    ON_THE_BARREL,
    THREE_MARRIAGES,
    TWO_MARRIAGES_OVER_THE_HUNDRED,
)

HARD = make_agent(DEFAULT_LEVEL, use_clock=False)
EASY = RulesAgent()


def _position(text: str) -> MatchState:
    return replay(text.splitlines())


def _decide(state: MatchState, seed: int = 0) -> SeatAction:
    assert state.turn is not None
    return HARD.decide(view(state, state.turn), random.Random(seed), 1.0)


def _until(state: MatchState, seat: int, phase: Phase) -> tuple[MatchState, list[SeatAction]]:
    """``seat`` (hard) and the others (easy) play on until ``phase``; ``seat``'s actions."""
    mine = []
    step = 0
    while state.phase is not phase and state.phase is not Phase.DEAL_OVER:
        turn = state.turn
        assert turn is not None
        agent = HARD if turn == seat else EASY
        action = agent.decide(view(state, turn), random.Random(step), 1.0)
        if turn == seat:
            mine.append(action)
        state, _ = apply(state, action)
        step += 1
    return state, mine


def test_a_strong_heart_marriage_hand_with_aces_bids_160() -> None:
    # ♥A 10 K Q and three side aces: 161 in hand before the talon. A strong player goes
    # on to at least 160 against two bidders who have shown marriages.
    state = _position(
        """
        game thousand
        dealer p3
        hand p1 AH TH KH QH AS AC AD
        hand p2 9S JS QS KS 9C JC QC
        hand p3 TS KC TC 9D JD QD KD
        talon 9H JH TD
        p2 bid 150
        p3 bid 155
        """
    )
    assert _decide(state) == Bid(0, 160)


WINS_OUTRIGHT = """
game thousand
scores SCORES
dealer p1
hand p1 JS KC 9D JD QD JH TH
hand p2 9S QS KS JC AC QH KH
hand p3 TS AS 9C QC TC KD AD
talon TD 9H AH
p3 pass
p1 pass
p2 give JC p1
p2 give TD p3
"""


def test_a_contract_that_wins_the_match_outright_is_named() -> None:
    # p2 on the hundred, both others passed: after the talon it holds the ♠ and ♥
    # marriages (140) with ♣A and ♥A. From 800 a made 205 reaches the target and wins the
    # match at once (rules §1.7), where 125 only climbs onto the barrel; the hand makes
    # it, and a strong player names it. From 0 the same hand names less: 205 is no more
    # than a raise there, which the hand does not make often enough.
    near_the_end = _position(WINS_OUTRIGHT.replace("SCORES", "800 800 800"))
    assert _decide(near_the_end) == NameContract(1, 205)
    start = _position(WINS_OUTRIGHT.replace("SCORES", "0 0 0"))
    named = _decide(start)
    assert isinstance(named, NameContract) and named.value < 205


def test_a_weak_hand_passes() -> None:
    # Nines and jacks only: a strong player does not take the talon at 105.
    state = _position(
        """
        game thousand
        dealer p3
        hand p1 9S JS 9C JC 9D JD 9H
        hand p2 AS TS KS QS AC TC KC
        hand p3 QC AD TD KD QD AH TH
        talon JH QH KH
        p2 bid 105
        p3 pass
        """
    )
    assert _decide(state) == Pass(0)


def test_two_marriages_bid_over_the_hundred() -> None:
    # ♥K Q 10 and ♠K Q: 140 in marriages. p2 is on the hundred and p3 has passed. A strong
    # player bids: one trick won (the talon's ace or a ten) declares the hearts, and 140 of
    # marriages plus the cards make 105. The simulated points come in two heaps, with the
    # marriages declared or not: 105 is made in 65 % of the drawn deals, below the normal
    # fit's three in four, but declaring beats passing by the match-aware utility.
    state = _position(TWO_MARRIAGES_OVER_THE_HUNDRED)
    assert _decide(state) == Bid(0, 105)


def test_three_marriages_are_kept_and_the_contract_is_one_strong_defence_lets_make() -> None:
    # After the talon: 9S QS KS AS 9C QD KD QH KH AH, three marriages (220) with the nines
    # free. A strong player gives the two nines and keeps every marriage. The issue asked
    # for at least 175, but against strong defenders (today's ``hard``), who lead the suit
    # of a bare marriage to break it, the hand made 175 in 6 of 16 deals, 150 in 11 and 120
    # in 15 (``benchmarks/README.md``, issue 16, session 9): a strong player names 120.
    state = _position(THREE_MARRIAGES)
    state, mine = _until(state, 0, Phase.PLAY)
    gifts = [a.card for a in mine if isinstance(a, Give)]
    assert set(format_cards(mask_of(gifts)).split()) == {"9S", "9C"}
    (named,) = [a for a in mine if isinstance(a, NameContract)]
    assert named.value == 120


def test_the_contract_is_what_the_hand_makes_not_a_hopeful_raise() -> None:
    # p2 takes the talon at 105 and keeps ♠A 10 9, ♣A, ♥A K Q 9 after giving ♣Q and ♦9: 150
    # of its own (the ♥ marriage, three aces, ♠10). 165 needs 15 points of the defenders'
    # cards, 195 needs 45, which strong defenders keep from it: with 195 this hand fell in
    # the strength set (`benchmarks/README.md`, issue 16, session 11, deal 22). A strong
    # player names about 165, whatever the seed of the search.
    for seed in range(4):
        state = _position(
            """
            game thousand
            dealer p2
            hand p1 JS QS KS 9C KC TD AD
            hand p2 9S AS AC 9D 9H QH KH
            hand p3 JC TC JD QD KD JH TH
            talon TS QC AH
            p1 pass
            p2 bid 105
            p3 pass
            """
        )
        step = 0
        while state.phase is not Phase.PLAY:
            state, _ = apply(state, _decide(state, 1000 * seed + step))
            step += 1
        assert state.deal is not None
        assert 150 <= state.deal.contract <= 170


def test_on_the_barrel_a_makeable_121_stays_121() -> None:
    # p1 sits on the barrel (880) with ♠A 10 K Q, ♥A 10 K Q after the talon: 121 is all
    # the match needs. A raise only risks falling off; a strong player names 121.
    _, mine = _until(_position(ON_THE_BARREL), 0, Phase.PLAY)
    assert [a for a in mine if isinstance(a, NameContract)] == [NameContract(0, 121)]


@pytest.mark.parametrize(("used", "strong"), [(0, Pass(0)), (1, Pass(0)), (2, Bid(0, 135))])
def test_on_the_barrel_a_long_shot_over_the_others_bid_waits_for_the_last_try(
    used: int, strong: SeatAction
) -> None:
    # p1 sits on the barrel (880) with ♦K Q 10, ♥K 10 and ♠Q: one marriage, no ace, 114
    # with every card its own. p2 (650) bids 130 over its 121. The search's own playouts
    # make 135 four times in ten; failed, it falls off the barrel (−135). While a try is
    # left after this one, passing costs only this try, and the tries left win the match
    # most of the time: a strong player passes. On the last try a pass falls off as surely
    # (−120), so it bids. (Deal 244 of the strength set from 880 650 500, where the talon
    # brought ♠K: the hard bid 135 and made it; `main` before this test bid and
    # fell, as 6 of the 10 such first-try bids of 300 deals did.)
    state = _position(
        """
        game thousand
        scores 880 650 500
        dealer p2
        hand p1 QS 9C QD KD TD KH TH
        hand p2 TS AS QC KC 9D 9H AH
        hand p3 JS JC TC AC JD AD QH
        talon 9S KS JH
        p1 bid 121
        p2 bid 130
        p3 pass
        """
    )
    # The notation seats a barrel player with no try used; the tries used are the view's.
    seat_view = view(state, 0)._replace(perch_attempts=used)
    assert HARD.decide(seat_view, random.Random(0), 1.0) == strong


def test_a_hopeless_contract_is_conceded() -> None:
    # p1 was pushed to 120 and holds nothing after giving (21 card points, no marriage,
    # no master): playing loses 120 and gives the defenders their tricks; a strong player
    # concedes (−120, the defenders 60 each).
    state = _position(
        """
        game thousand
        dealer p3
        hand p1 9S JS 9C JC 9D TS QH
        hand p2 AS KS QS AC TC KC QC
        hand p3 AD TD KD QD AH TH KH
        talon 9H JH JD
        p2 bid 105
        p3 pass
        p1 bid 120
        p2 pass
        p1 give 9S p2
        p1 give 9C p3
        """
    )
    assert _decide(state) == Concede(0)


def _on_the_hundred(p1: str, talon: str, p2: str, p3: str, scores: str = "0 0 0") -> MatchState:
    """p1 sits on the hundred (p3 deals) and both others pass: p1 takes the talon at 100
    (at the barrel contract when it sits on the barrel)."""
    return _position(
        f"""
        game thousand
        scores {scores}
        dealer p3
        hand p1 {p1}
        hand p2 {p2}
        hand p3 {p3}
        talon {talon}
        p2 pass
        p3 pass
        """
    )


def _gifts_then(state: MatchState) -> tuple[list[str], SeatAction]:
    """The declarer's gifts (hard) and the action it takes after them."""
    gifts = []
    while isinstance(action := _decide(state), Give):
        gifts.append(format_cards(1 << action.card))
        state, _ = apply(state, action)
    return gifts, action


def test_a_hopeless_hundred_keeps_grounds_for_a_redeal_and_asks_for_it() -> None:
    # With the talon p1 holds the four nines, three jacks, ♦Q and only ♠A and ♦10 of any
    # worth: the hundred is lost. The redeal's grounds are judged on the eight cards kept
    # (rules fine point 14), so a strong player gives away two cards that are not nines
    # (the nines' usual fate) and asks for a redeal.
    gifts, then = _gifts_then(
        _on_the_hundred(
            "9S 9C 9D JS JC QD AS", "9H JH TD", "TS KS QS AC TC KC QC", "AD KD JD AH TH KH QH"
        )
    )
    assert len(gifts) == 2
    assert not {"9S", "9C", "9D", "9H"} & set(gifts)
    assert then == Redeal(0)


def test_on_the_barrel_a_hopeless_hand_keeps_its_try_by_a_redeal() -> None:
    # The hand above, with p1 on the barrel (880) and both others passing: it declares 121
    # and cannot make it. Conceding or playing uses one of its three tries; a redeal voids
    # the deal and keeps it (rules §1.4, §1.7). A strong player keeps the nines and asks
    # for the redeal.
    gifts, then = _gifts_then(
        _on_the_hundred(
            "9S 9C 9D JS JC QD AS",
            "9H JH TD",
            "TS KS QS AC TC KC QC",
            "AD KD JD AH TH KH QH",
            scores="880 0 0",
        )
    )
    assert not {"9S", "9C", "9D", "9H"} & set(gifts)
    assert then == Redeal(0)


def test_a_strong_hand_with_the_four_nines_plays_rather_than_asks_for_a_redeal() -> None:
    # With the talon p1 holds the four nines beside ♥A 10 K Q, ♠A 10: the nines could be
    # kept for a redeal, but the hand makes far more than the hundred. A strong player
    # gives nines away and names a contract.
    _, then = _gifts_then(
        _on_the_hundred(
            "9S 9C 9D AH TH KH QH", "9H AS TS", "JS QS KS AC TC KC QC", "AD TD KD QD JH JC JD"
        )
    )
    assert isinstance(then, NameContract)
    assert then.value >= 100


def test_a_defender_at_500_keeps_clear_of_the_dump_truck() -> None:
    # Everyone at 500; p2 declares 100 and is already lost. p1, a defender with 30 points,
    # leads to the last two tricks with ♠9 and ♦Q. ♦Q takes the trick, and if p2 throws
    # ♠A on it and p3 smears ♥A (both gain by p1's fall), p1 ends on 55 points: 555, the
    # dump truck, back to 0. A strong player leads ♠9 and keeps its 530.
    state = _position(
        AT_500
        + """
        p2 play KD
        p3 play TD
        p1 play JD
        p3 play QC
        p1 play KC
        p2 play AC
        p2 play KH
        p3 play 9H
        p1 play TH
        p1 play 9C
        p2 play TC
        p3 play JC
        p2 play AD
        p3 play JH
        p1 play 9D
        p2 play JS
        p3 play KS
        p1 play TS
        """
    )
    assert state.deal is not None and state.deal.points[0] == 30
    assert format_action(_decide(state)) == "p1 play 9S"


def test_the_marriage_is_declared_when_its_queen_is_led() -> None:
    # p1 has won the first trick (♠A) at 120 and holds ♥K Q with low cards only: the
    # contract needs the 100. A strong player leads the queen and declares it.
    state = _position(
        """
        game thousand
        dealer p3
        hand p1 AS KH QH 9C JC 9D JD
        hand p2 9S JS QS KS TS AC TC
        hand p3 QC KC TD KD QD AD AH
        talon TH 9H JH
        p2 pass
        p3 pass
        p1 give 9C p2
        p1 give 9D p3
        p1 contract 120
        p1 play AS
        p2 play 9S
        p3 play QC
        """
    )
    action = _decide(state)
    assert isinstance(action, Play) and action.declaration is Declaration.MARRIAGE


def test_a_led_king_or_queen_of_a_held_marriage_is_declared() -> None:
    # p1 holds ♥A 10 K Q and ♦K Q at 100: once the first marriage is in, the contract is
    # safe and declaring costs nothing. Whenever p1 leads a K or Q whose partner it still
    # holds and may declare, a strong player declares it.
    state = _position(
        """
        game thousand
        dealer p3
        hand p1 AS AH TH KH QH QD KD
        hand p2 9H JS QS KS TS AC TC
        hand p3 JH QC KC JC TD AD JD
        talon 9S 9C 9D
        p2 pass
        p3 pass
        """
    )
    step = 0
    leads = 0
    while state.phase is not Phase.DEAL_OVER:
        turn = state.turn
        assert turn is not None
        seen = view(state, turn)
        agent = HARD if turn == 0 else EASY
        action = agent.decide(seen, random.Random(step), 1.0)
        if turn == 0 and isinstance(action, Play) and not seen.trick:
            c = action.card
            hand = mask_of(seen.hand)
            marriage = MARRIAGE_MASKS[SUIT_OF[c]]
            declarable = Play(0, c, Declaration.MARRIAGE) in seen.legal
            if RANK_OF[c] in (KING, QUEEN) and hand & marriage == marriage and declarable:
                assert action.declaration is Declaration.MARRIAGE, format_action(action)
                leads += 1
        state, _ = apply(state, action)
        step += 1
    assert leads >= 1


def test_a_tumbochka_trilyazh_is_declared() -> None:
    # Тумбочка: p1 declares at 4 holding ♥K Q J, the suit's three top cards, and nobody
    # can trump yet. A strong player leads the jack declaring the trilyazh (+3).
    state = _position(
        """
        game tumbochka
        dealer p3
        hand p1 KH QH JH 6S 7S 6C 7C
        hand p2 8S JS QS KS 8C JC QC
        hand p3 KC JD QD KD 6H 7H 8H
        talon 6D 7D 8D
        p1 bid 4
        p2 pass
        p3 pass
        """
    )
    state, mine = _until(state, 0, Phase.DEAL_OVER)
    plays = [a for a in mine if isinstance(a, Play)]
    assert any(a.declaration is Declaration.TRILYAZH for a in plays)
