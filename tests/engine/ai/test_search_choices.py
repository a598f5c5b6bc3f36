"""The search player's choices among what its drawn deals cannot tell apart: which
contracts get the full valuation, and no ace or ten thrown onto an opponent's trick and no
marriage broken by a bare lead on the sampling's noise; and the bidding's work: each drawn
deal declared once."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from engine.actions import Declaration, Play
from engine.ai import search_bidding
from engine.ai.defence import choose_defence
from engine.ai.playout import Policy
from engine.ai.rules_agent import RulesAgent
from engine.ai.search_agent import WASTE_MARGIN, _among_best, _thrown_away, led_bare
from engine.ai.simulation import SHORTLIST, Clock, Outcome, Search, worth_naming
from engine.ai.utility import context_of
from engine.cards import parse_card
from engine.notation import replay
from engine.table import Table
from engine.view import SeatView, view
from tests.engine.ai.helpers import THREE_MARRIAGES, TWO_MARRIAGES_OVER_THE_HUNDRED

THREE_MARRIAGES_GIVEN = THREE_MARRIAGES + "p1 give 9S p2\np1 give 9C p3\n"

DISCARD = """
game thousand
dealer p3
hand p1 AD TD KD QD JD 9D AH
hand p2 AS TS AC TC 9H JH QH
hand p3 9S JS QS KS 9C JC QC
talon KC KH TH
p2 pass
p3 pass
p1 give 9D p2
p1 give TH p3
p1 contract 120
p1 play AD
p2 play 9D
"""


def _outcomes(points: list[int]) -> list[Outcome]:
    """Playout ends with the declarer on ``points`` (its marriages counted) and the
    defenders sharing what is left of the 120 card points."""
    return [([p, max(0, 120 - p) // 2, max(0, 120 - p) // 2], [4, 2, 2]) for p in points]


def test_only_the_best_contracts_by_the_count_and_the_lowest_are_valued() -> None:
    # The declarer after the talon with 120 in every playout, 175 in most: 120 and the
    # highest contract of each group the same playouts make are the candidates.
    seen = view(replay(THREE_MARRIAGES_GIVEN.strip().splitlines()), 0)
    options = list(range(100, 305, 5))
    outcomes = _outcomes([120] * 10 + [175] * 70 + [220] * 20)
    worth = worth_naming(context_of(seen), seen, options, outcomes)
    assert worth[0] == 100 and len(worth) <= SHORTLIST + 1
    assert {120, 175, 220} <= set(worth)
    assert all(v <= 220 for v in worth)


@pytest.mark.parametrize(("scores", "winning"), [("0 0 0", None), ("800 0 0", 205)])
def test_the_lowest_contract_that_wins_the_match_is_valued(
    scores: str, winning: int | None
) -> None:
    # Ten playouts at each of 120, 130, … 230 points (the marriages declared): by the
    # count only 120 to 170 are candidates. From 800 a made 205 reaches the target and
    # wins the match outright, which the count does not see; it is valued too.
    text = THREE_MARRIAGES_GIVEN.replace("game thousand\n", f"game thousand\nscores {scores}\n")
    seen = view(replay(text.strip().splitlines()), 0)
    options = list(range(100, 305, 5))
    outcomes = _outcomes([p for p in range(120, 240, 10) for _ in range(10)])
    worth = worth_naming(context_of(seen), seen, options, outcomes)
    assert {100, 120, 130, 140, 150, 160, 170} <= set(worth)
    assert [v for v in worth if v > 170] == ([] if winning is None else [winning])


def test_an_ace_or_ten_is_not_thrown_onto_the_declarers_trick_on_noise() -> None:
    # p3, last to play on p1's ♦A with no diamond and no trump, holds ♥10: it goes to p1
    # for nothing. A strong player throws the ♠9 unless the drawn deals clearly favour
    # the ten.
    seen = view(replay(DISCARD.strip().splitlines()), 2)
    assert _thrown_away(seen) == frozenset({parse_card("TH")})
    plays = [a for a in seen.legal if isinstance(a, Play)]
    ten = next(j for j, a in enumerate(plays) if a.card == parse_card("TH"))
    nine = next(j for j, a in enumerate(plays) if a.card == parse_card("9S"))
    means = [-20.0] * len(plays)
    means[ten], means[nine] = 0.0, -(WASTE_MARGIN - 1.5)
    assert _among_best(seen, plays, means, RulesAgent()) == nine
    means[nine] = -(WASTE_MARGIN + 5.0)
    assert _among_best(seen, plays, means, RulesAgent()) == ten


def test_a_marriage_is_not_broken_by_a_bare_lead_on_noise() -> None:
    # p1 took the first trick and leads with ♦K Q in hand. The bare ♦Q is the cheapest
    # card, so it would win any near tie; a strong player declares the marriage unless the
    # drawn deals clearly favour the bare lead.
    lead = [*DISCARD.strip().splitlines(), "p3 play 9S"]
    seen = view(replay(lead), 0)
    plays = [a for a in seen.legal if isinstance(a, Play)]
    queen, king = parse_card("QD"), parse_card("KD")
    assert led_bare(plays) == frozenset({queen, king})
    bare = plays.index(Play(0, queen))
    declared = plays.index(Play(0, queen, Declaration.MARRIAGE))
    means = [-20.0] * len(plays)
    means[bare], means[declared] = 0.0, -2.5
    assert plays[_among_best(seen, plays, means, RulesAgent())].declaration is Declaration.MARRIAGE
    means[declared] = -(WASTE_MARGIN + 5.0)
    assert _among_best(seen, plays, means, RulesAgent()) == bare


def test_the_partners_trick_may_take_an_ace() -> None:
    # p3, second to play on its partner's ♠A: points given to the partner are not lost,
    # so nothing counts as thrown away.
    moves = ["p3 play 9S", "p1 play KC", "p2 play AC", "p3 play 9C", "p2 play AS"]
    state = replay([*DISCARD.strip().splitlines(), *moves])
    assert _thrown_away(view(state, 2)) == frozenset()


def test_the_second_to_play_on_the_declarers_trick_may_not_throw_on_noise() -> None:
    # p2, second to play on the declarer's ♦A: its aces and tens go to p1 unless p3 still
    # beats the ace, which the drawn deals must then clearly favour.
    state = replay(DISCARD.strip().splitlines()[:-1])
    thrown = {parse_card(card) for card in ("AS", "TS", "AC", "TC")}
    assert _thrown_away(view(state, 1)) == thrown


def test_past_the_soft_limit_sampling_stops_at_half_the_planned_deals() -> None:
    clock = Clock(1.0, soft=0.0)
    assert not clock.out(4, 72)
    assert clock.out(36, 72)
    assert not Clock(1.0).out(36, 72)
    assert Clock(0.0).out(4, 72)


def test_where_the_fit_passes_each_drawn_deal_is_declared_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # p1's two marriages over p2's hundred: the normal fit passes, so the utility of
    # declaring is weighed against passing (p2 then declares at 100). Declaring is valued
    # on the deals the fit has played out: each of the 40 drawn deals is played once with
    # p1 declaring and once with p2.
    declarers: list[int] = []
    real = search_bidding.declare_and_play

    def counting(
        seen: SeatView,
        drawn: list[int],
        talon: int,
        declarer: int,
        bid: int,
        policy: Policy,
    ) -> tuple[Table, Sequence[int], int]:
        declarers.append(declarer)
        return real(seen, drawn, talon, declarer, bid, policy)

    monkeypatch.setattr(search_bidding, "declare_and_play", counting)
    state = replay(TWO_MARRIAGES_OVER_THE_HUNDRED.strip().splitlines())
    search = Search(random.Random(0), 40, Clock(math.inf), choose_defence, False)
    search_bidding.choose_bid(view(state, 0), search)
    assert declarers.count(0) == 40
    assert declarers.count(1) == 40
