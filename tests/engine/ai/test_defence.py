"""The strong defenders of the search player's contract simulations (``engine.ai.defence``),
on hand-made deals in the play phase."""

from __future__ import annotations

import random

from engine.actions import Declaration
from engine.ai.aimed import choose_aimed
from engine.ai.defence import choose_defence
from engine.ai.playout import rollout
from engine.ai.search_agent import STRONG_DEFENCE, SearchAgent
from engine.cards import card_name, cards_of, mask_of
from engine.games import deck_of
from engine.rules import Game, preset
from engine.table import Table, playing
from engine.tricks import play
from tests.engine.helpers import mask

THOUSAND = preset(Game.THOUSAND)


def _table(declarer: str, first: str, second: str, turn: int, won: int = 0) -> Table:
    """Seat 0 declares; ``turn`` leads the next trick; each seat has won ``won`` tricks."""
    hands = [mask(declarer), mask(first), mask(second)]
    return playing(
        THOUSAND,
        (0, 1, 2),
        hands,
        declarer=0,
        contract=120,
        turn=turn,
        won=[won] * 3,
    )


def _name(choice: tuple[int, Declaration]) -> str:
    return card_name(choice[0])


def test_a_defender_on_lead_attacks_the_declarers_bare_marriage() -> None:
    # The declarer holds ♥K Q and nothing else of hearts: a defender who leads a heart
    # makes it follow with the K or the Q, and the 100 is lost. The rule-based defender
    # leads its cheapest card (the ♣9) instead.
    table = _table("KH QH AS TS AC TC", "9C JC 9H JD QD TD", "JS QS KS 9D KD AD", turn=1, won=1)
    assert _name(choose_aimed(table, 1)) == "9C"
    assert _name(choose_defence(table, 1)) == "9H"


def test_the_attack_leads_the_card_that_beats_the_king() -> None:
    # With ♥A the defender takes the trick and the declarer still has to give up K or Q.
    table = _table("KH QH AS TS AC TC", "9C JC AH JD QD TD", "JS QS KS 9D KD AD", turn=1, won=1)
    assert _name(choose_defence(table, 1)) == "AH"


def test_a_guarded_marriage_is_not_attacked_but_a_sure_winner_is_cashed() -> None:
    # ♥K Q 9 J: two leads would not break it. The defender cashes its ♦A, which the
    # declarer (no diamonds, no trump) can neither beat nor trump.
    table = _table("KH QH 9H JH AS TS", "9C JC TH AD QD 9D", "JS QS KS KD TD AC", turn=1, won=1)
    assert _name(choose_defence(table, 1)) == "AD"


def test_the_declarer_and_a_follower_play_the_search_policy() -> None:
    table = _table("KH QH AS TS AC TC", "9C JC 9H JD QD TD", "JS QS KS 9D KD AD", turn=0, won=1)
    assert choose_defence(table, 0) == choose_aimed(table, 0)
    table = _table("KH QH AS TS AC TC", "9C JC 9H JD QD TD", "JS QS KS 9D KD AD", turn=0, won=1)
    c, kind = choose_aimed(table, 0)
    play(table, 0, c, kind)
    assert choose_defence(table, 1) == choose_aimed(table, 1)


def test_strong_defenders_take_points_from_the_declarer_on_random_deals() -> None:
    # Over random deals (the declarer leads with 8 cards) the same hands played out give
    # the declarer fewer points against the strong defenders (about 2 per deal).
    rng = random.Random(7)
    easy = strong = 0
    for _ in range(300):
        deck = cards_of(deck_of(Game.THOUSAND))
        rng.shuffle(deck)
        hands = [mask_of(deck[0:8]), mask_of(deck[8:16]), mask_of(deck[16:24])]
        ends = []
        for policy in (choose_aimed, choose_defence):
            table = playing(THOUSAND, (0, 1, 2), hands[:], declarer=0, contract=0, turn=0)
            rollout(table, policy)
            ends.append(table.points[0])
        easy += ends[0]
        strong += ends[1]
    assert strong < easy - 300


def test_the_agent_names_the_decisions_that_model_strong_defenders() -> None:
    assert SearchAgent().policy("contract") is choose_defence
    assert {"bid", "give", "contract"} == STRONG_DEFENCE
    today = SearchAgent(defended=frozenset())
    assert all(today.policy(kind) is choose_aimed for kind in ("bid", "give", "contract"))


def test_a_defender_declares_its_own_marriage_first() -> None:
    # The defender on lead holds ♦K Q and has won a trick: the 80 come before the attack.
    table = _table("KH QH AS TS AC TC", "9C JC 9H JD QD KD", "JS QS KS 9D TD AD", turn=1, won=1)
    assert choose_defence(table, 1) == choose_aimed(table, 1)
    assert choose_defence(table, 1)[1] is Declaration.MARRIAGE
