"""``benchmarks.oddities``: each of issue 16's visible oddities is counted when a decision
makes it, and not when a strong player's decision in the same position does not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from benchmarks import oddities
from engine.actions import Declaration, Give, NameContract, Play, SeatAction
from engine.cards import ACE, JACK, KING, NINE, QUEEN, SIX, TEN, card
from engine.dealing import new_match, shuffled_deal
from engine.match import apply
from engine.rules import Game, preset
from engine.view import SeatView, view

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)
MARRIAGE = Declaration.MARRIAGE


def _seen(**fields: Any) -> SeatView:
    """A view of seat 0 in Тысяча with ``fields`` replaced (the checker reads only those it
    is given)."""
    start = new_match(preset(Game.THOUSAND))
    state, _ = apply(start, shuffled_deal(start, "oddities/test", dealer=2))
    return view(state, 0)._replace(**fields)


def _plays(seat: int, *cards: int, marriage: Sequence[int] = ()) -> tuple[SeatAction, ...]:
    plain = tuple(Play(seat, c) for c in cards)
    return plain + tuple(Play(seat, c, MARRIAGE) for c in marriage)


def test_an_ace_discarded_onto_the_declarers_trick_is_thrown() -> None:
    checker = oddities.Checker()
    lead = (2, card(TEN, HEARTS))
    # Seat 0 defends against seat 2; void in hearts, it holds the ♣9 and the ♠A.
    legal = _plays(0, card(NINE, CLUBS), card(ACE, SPADES))
    seen = _seen(declarer=2, trump=None, trick=(lead,), legal=legal)
    checker.check(seen, 0, Play(0, card(ACE, SPADES)))
    last = _seen(declarer=2, trump=None, trick=(lead, (0, card(ACE, SPADES))))
    nine = card(NINE, HEARTS)
    checker.check(last._replace(legal=_plays(1, nine)), 1, Play(1, nine))
    counts = checker.finish()
    assert counts["A/10 thrown"] == 1
    assert counts["of which off suit"] == 1


@pytest.mark.parametrize(
    ("what", "played", "taker_card"),
    [
        ("the partner takes the trick", card(ACE, SPADES), card(ACE, HEARTS)),
        ("the cheaper card is played", card(NINE, CLUBS), card(NINE, HEARTS)),
    ],
)
def test_no_ace_is_thrown_when(what: str, played: int, taker_card: int) -> None:
    checker = oddities.Checker()
    lead = (2, card(TEN, HEARTS))
    legal = _plays(0, card(NINE, CLUBS), card(ACE, SPADES))
    checker.check(_seen(declarer=2, trump=None, trick=(lead,), legal=legal), 0, Play(0, played))
    last = _seen(declarer=2, trump=None, trick=(lead, (0, played)), legal=_plays(1, taker_card))
    checker.check(last, 1, Play(1, taker_card))
    assert checker.finish()["A/10 thrown"] == 0, what


def test_a_king_led_without_its_declarable_marriage_is_bare_and_the_marriage_unused() -> None:
    checker = oddities.Checker()
    king = card(KING, HEARTS)
    legal = _plays(0, king, card(QUEEN, HEARTS), card(JACK, CLUBS), marriage=[king])
    checker.check(_seen(declarer=0, trick=(), legal=legal), 0, Play(0, king))
    counts = checker.finish()
    assert counts["K/Q led bare"] == 1
    assert counts["marriage unused"] == 1


def test_a_marriage_declared_later_is_not_unused() -> None:
    checker = oddities.Checker()
    king, queen = card(KING, HEARTS), card(QUEEN, HEARTS)
    legal = _plays(0, king, queen, card(JACK, CLUBS), marriage=[king, queen])
    checker.check(_seen(declarer=0, trick=(), legal=legal), 0, Play(0, card(JACK, CLUBS)))
    checker.check(_seen(declarer=0, trick=(), legal=legal), 0, Play(0, queen, MARRIAGE))
    counts = checker.finish()
    assert counts["marriage unused"] == 0
    assert counts["K/Q led bare"] == 0


def test_a_trilyazh_never_declared_is_unused_and_one_declared_is_not() -> None:
    rules = preset(Game.TUMBOCHKA)
    jack = card(JACK, HEARTS)
    legal = (Play(0, jack), Play(0, jack, Declaration.TRILYAZH), Play(0, card(SIX, CLUBS)))
    unused, used = oddities.Checker(), oddities.Checker()
    for checker, action in ((unused, Play(0, card(SIX, CLUBS))), (used, legal[1])):
        checker.check(_seen(rules=rules, trick=(), legal=legal), 0, action)
    assert unused.finish()["trilyazh unused"] == 1
    assert used.finish()["trilyazh unused"] == 0


def test_half_a_marriage_given_while_a_free_card_is_held() -> None:
    checker = oddities.Checker()
    hand = (card(QUEEN, HEARTS), card(KING, HEARTS), card(NINE, CLUBS))
    checker.check(_seen(hand=hand), 0, Give(0, card(QUEEN, HEARTS), 1))
    checker.check(_seen(hand=hand), 0, Give(0, card(NINE, CLUBS), 1))
    married_only = (card(QUEEN, HEARTS), card(KING, HEARTS))
    checker.check(_seen(hand=married_only), 0, Give(0, card(QUEEN, HEARTS), 1))
    assert checker.finish()["set broken by a gift"] == 1


def test_a_trilyazh_card_given_while_a_free_card_is_held_breaks_a_set_in_tumbochka() -> None:
    checker = oddities.Checker()
    rules = preset(Game.TUMBOCHKA)
    trilyazh = (card(JACK, HEARTS), card(QUEEN, HEARTS), card(KING, HEARTS))
    hand = (*trilyazh, card(SIX, CLUBS))
    checker.check(_seen(rules=rules, hand=hand), 0, Give(0, card(JACK, HEARTS), 1))
    assert checker.counts["set broken by a gift"] == 1
    # A lone K and Q are no set in Тумбочка.
    marriage = (card(QUEEN, SPADES), card(KING, SPADES), card(SIX, CLUBS))
    checker.check(_seen(rules=rules, hand=marriage), 0, Give(0, card(QUEEN, SPADES), 1))
    assert checker.finish()["set broken by a gift"] == 1


def test_a_contract_raised_on_the_barrel_counts_and_one_off_it_does_not() -> None:
    checker = oddities.Checker()
    legal = (NameContract(0, 120), NameContract(0, 150))
    checker.check(_seen(perch=0, legal=legal), 0, NameContract(0, 150))
    checker.check(_seen(perch=0, legal=legal), 0, NameContract(0, 120))
    checker.check(_seen(perch=1, legal=legal), 0, NameContract(0, 150))
    assert checker.finish()["barrel raised"] == 1


def test_the_table_counts_per_100_deals(capsys: pytest.CaptureFixture[str]) -> None:
    oddities.main(["--deals", "4", "--agents", "random", "--workers", "1"])
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| random"))
    rates = [float(x) for x in row.strip("| ").split(" | ")[1:]]
    assert len(rates) == len(oddities.ODDITIES)
    assert all(r * 4 % 100 == 0 for r in rates)


def test_deals_start_from_the_scores_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    starts: list[tuple[int, ...] | None] = []

    def recording(rules: Any, scores: tuple[int, ...] | None = None) -> Any:
        starts.append(scores)
        return new_match(rules, scores)

    monkeypatch.setattr(oddities, "new_match", recording)
    oddities.deal_oddities((preset(Game.THOUSAND), "random", 0, (880, 0, 0)))
    assert starts == [(880, 0, 0)]
    barrel = ["--scores", "880", "0", "0"]
    oddities.main(["--deals", "1", "--agents", "random", "--workers", "1", *barrel])
    assert "from the scores 880 0 0" in capsys.readouterr().out
