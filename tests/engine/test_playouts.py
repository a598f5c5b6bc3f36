"""Seeded random playouts of complete matches over many option sets (see ``playout.py`` for
what is checked after every action).

``PLAYOUT_SCALE`` scales the number of matches: 1 is the full run (2,000 Тысяча matches,
1,000 per other game and player count, as ``python -m benchmarks.playouts --full`` plays);
the default keeps the test suite's playouts to about three minutes on a slow machine.
"""

from __future__ import annotations

import os

import pytest

from engine import OPTIONS, Game
from tests.engine.playout import (
    ALL_SETS,
    RESULTS,
    THOUSAND_ONE_SETS,
    THOUSAND_SETS,
    TUMBOCHKA_SETS,
    OptionSet,
    run_set,
)

DEFAULT_SCALE = 0.03
SCALE = float(os.environ.get("PLAYOUT_SCALE", DEFAULT_SCALE))


def matches_for(option_set: OptionSet) -> int:
    return max(1, round(option_set.full_matches * SCALE))


@pytest.mark.parametrize("option_set", ALL_SETS, ids=[s.name for s in ALL_SETS])
def test_random_matches_keep_every_invariant(option_set: OptionSet) -> None:
    totals = run_set(option_set, matches_for(option_set))
    RESULTS[option_set.name] = totals
    assert totals.matches == matches_for(option_set)
    if option_set.uniform:
        assert max(totals.deals_per_match) <= option_set.deal_limit
        return
    assert totals.unfinished == 0, f"matches not over after {option_set.deal_limit} deals"
    assert max(totals.deals_per_match) < option_set.deal_limit
    assert totals.coverage["MatchOver"] == totals.matches


def test_the_full_run_has_the_required_counts() -> None:
    def total(sets: tuple[OptionSet, ...], players: int | None = None) -> int:
        return sum(s.full_matches for s in sets if players in (None, s.rules.players))

    assert total(THOUSAND_SETS) == 2000
    assert total(THOUSAND_ONE_SETS, 3) == 1000
    assert total(THOUSAND_ONE_SETS, 4) == 1000
    assert total(TUMBOCHKA_SETS) == 1000


def test_the_option_sets_cover_every_option_at_every_non_default_value() -> None:
    for game, sets in ((Game.THOUSAND, THOUSAND_SETS), (Game.THOUSAND_ONE, THOUSAND_ONE_SETS)):
        for spec in OPTIONS[game]:
            seen = {getattr(s.rules, spec.name) for s in sets}
            assert set(spec.choices) <= seen, f"{game.value} {spec.name}: {seen}"
    assert {s.rules.players for s in THOUSAND_ONE_SETS} == {3, 4}
    for players in (3, 4):
        rules = [s.rules for s in THOUSAND_ONE_SETS if s.rules.players == players]
        assert {r.ace_marriage for r in rules} == {False, True}
        assert {r.rounding for r in rules} == {5, 10, None}
    assert [s.rules.game for s in TUMBOCHKA_SETS] == [Game.TUMBOCHKA]
