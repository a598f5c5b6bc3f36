"""`summarize`: every golden script agrees with the engine's own replay, and chosen scripts
give the counters, places and sheet rows computed by hand from their comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.records.summary import DealOutcome, Mark, MatchSummary, places_of, summarize
from engine import MatchReader, NotationError
from storage import Counters, PlayerRef
from tests.bot.records.scripts import SCRIPTS, players_in, script, split


def summary_of(name: str) -> MatchSummary:
    header, log = split(script(name))
    return summarize(header, log, [PlayerRef.human(100 + s) for s in range(players_in(header))])


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_golden_script_agrees_with_its_replay(path: Path) -> None:
    header, log = split(path)
    n = players_in(header)
    summary = summarize(header, log, [PlayerRef.human(s) for s in range(n)], match_id=7)
    reader = MatchReader()
    for number, line in enumerate([*header, *log], start=1):
        reader.feed(number, line)
    state = reader.state
    assert (summary.match_id, summary.version, summary.game) == (7, len(log), state.rules.game)
    assert summary.scores == state.scores and summary.winner == state.winner
    assert sorted(summary.places) == list(range(1, n + 1))
    assert summary.deals == len(summary.sheet)
    assert (summary.settlement is None) == (summary.winner is None)
    total = summary.start_scores
    for row in summary.sheet:
        total = tuple(t + c for t, c in zip(total, row.changes, strict=True))
        assert total == row.scores
        assert len(row.marks) == n
    assert total == summary.scores
    contracts = [
        r for r in summary.sheet if r.outcome is not DealOutcome.REDEAL and r.contract is not None
    ]
    assert sum(c.contracts for c in summary.counters) == len(contracts)
    assert sum(c.contract_points for c in summary.counters) == sum(
        r.contract or 0 for r in contracts
    )
    for c in summary.counters:
        assert c.contracts_made + c.contracts_failed == c.contracts
        assert c.deals <= summary.deals


def test_three_failed_barrel_attempts() -> None:
    s = summary_of("barrel-three-failed-attempts")
    assert (s.winner, s.scores, s.places, s.settlement, s.deals) == (
        None, (760, 0, 0), (1, 2, 3), None, 3,
    )
    assert s.counters[0] == Counters(
        deals=3, contracts=3, contracts_failed=3, contract_points=3 * 121, perch_fallen=1,
        concessions=2,
    )
    assert s.counters[1] == s.counters[2] == Counters(deals=3)
    assert [r.outcome for r in s.sheet] == [
        DealOutcome.CONCEDED, DealOutcome.FAILED, DealOutcome.CONCEDED,
    ]
    assert [r.marks[0] for r in s.sheet] == [
        {Mark.ON_PERCH}, {Mark.ON_PERCH}, {Mark.ON_PERCH, Mark.FELL},
    ]
    assert [r.changes for r in s.sheet] == [(0, 0, 0), (0, 0, 0), (-120, 0, 0)]
    assert s.sheet[1].points == (101, 12, 7)


def test_bolts_and_the_third_bolt() -> None:
    s = summary_of("bolt-third-costs-120")
    # p1 made 100 and 105; p2 had 2 bolts, got the third (−120) and one more; p3 had 1,
    # got the second, then the third (−120). Ties at −120: seat order.
    assert s.scores == (205, -120, -120) and s.places == (1, 2, 3)
    assert s.counters[0] == Counters(deals=2, contracts=2, contracts_made=2, contract_points=205)
    assert s.counters[1] == Counters(deals=2, bolts=2, bolt_penalties=1)
    assert s.counters[2] == Counters(deals=2, bolts=2, bolt_penalties=1)
    assert [r.marks[1] for r in s.sheet] == [{Mark.BOLT, Mark.BOLT_PENALTY}, {Mark.BOLT}]
    assert [r.marks[2] for r in s.sheet] == [{Mark.BOLT}, {Mark.BOLT, Mark.BOLT_PENALTY}]


def test_a_barrel_win_settles_the_match() -> None:
    s = summary_of("barrel-win-880-plus-contract")
    assert (s.winner, s.scores, s.places) == (0, (1001, 0, 0), (1, 2, 3))
    assert s.settlement == (2002, -1001, -1001)
    assert s.counters[0] == Counters(
        deals=1, contracts=1, contracts_made=1, contract_points=121, marriages_hearts=1,
        perch_made=1,
    )
    assert s.sheet[0].marks[0] == {Mark.ON_PERCH, Mark.WINNER}
    assert (s.perch_score, s.target) == (880, 1001)


def test_two_climbers_and_the_sitter_all_fall() -> None:
    s = summary_of("barrel-two-climbers-and-sitter-all-fall")
    assert s.scores == (760, 760, 760)
    assert s.sheet[0].marks == (
        frozenset({Mark.ON_PERCH, Mark.FELL}), frozenset({Mark.MOUNTED, Mark.FELL}),
        frozenset({Mark.MOUNTED, Mark.FELL}),
    )
    assert [c.perch_mounted for c in s.counters] == [0, 1, 1]
    assert [c.perch_fallen for c in s.counters] == [1, 1, 1]


def test_dump_truck_and_marriages() -> None:
    s = summary_of("dump-truck-555")
    assert s.scores == (0, 0, 5) and s.places == (2, 3, 1)
    assert [c.dump_trucks for c in s.counters] == [1, 1, 0]
    assert s.sheet[0].marks[:2] == (frozenset({Mark.DUMP_TRUCK}),) * 2
    s = summary_of("marriage-values-hearts-and-diamonds-new-trump-replaces")
    assert s.counters[0].marriages == (0, 0, 1, 1)
    s = summary_of("ace-marriage-200-trump-unchanged")
    assert (s.counters[0].marriages, s.counters[0].ace_marriages) == ((1, 0, 0, 0), 1)


def test_redeal_concession_and_the_golden_round() -> None:
    s = summary_of("golden-round-counts-redeals")
    assert [r.outcome for r in s.sheet] == [DealOutcome.REDEAL, *[DealOutcome.CONCEDED] * 3]
    assert (s.sheet[0].redeal_by, s.sheet[0].changes) == (1, (0, 0, 0))
    assert [r.number for r in s.sheet] == [1, 2, 3, 4]
    assert [c.redeals for c in s.counters] == [0, 1, 0]
    assert [c.concessions for c in s.counters] == [1, 1, 1]
    assert all(c.deals == 4 for c in s.counters)
    assert s.scores == (100, -50, -50)


def test_thrown_without_a_contract_is_nobodys_contract() -> None:
    s = summary_of("both-pass-throw-gives-others-50")
    assert [(r.outcome, r.contract) for r in s.sheet] == [(DealOutcome.THROWN, None)] * 3
    assert all(c == Counters(deals=3, throws=1) for c in s.counters)
    assert s.sheet[0].changes == (0, 50, 50)


def test_the_sitting_out_dealer_plays_no_deal_but_may_win() -> None:
    s = summary_of("four-players-sitting-out-dealer-wins")
    assert (s.winner, s.scores, s.places) == (3, (1005, 120, 115, 1030), (2, 3, 4, 1))
    assert s.settlement == (-25, -910, -915, 1850)
    assert [c.deals for c in s.counters] == [1, 1, 1, 0]
    assert s.sheet[0].active == (0, 1, 2) and s.sheet[0].changes[3] == 80
    assert (s.perch_score, s.target) == (None, 1001)


def test_tumbochka_sits_falls_bagels_and_declarations() -> None:
    s = summary_of("tumbochka-second-fall-golden-bagel")
    assert s.scores == (0, 14, 20) and s.winner is None
    assert s.counters[0] == Counters(
        deals=3, contracts=1, contracts_made=1, contract_points=10, trilyazhes=1,
        perch_mounted=1, perch_fallen=2, golden_bagels=1,
    )
    assert s.sheet[2].marks[0] == {Mark.ON_PERCH, Mark.FELL, Mark.BAGEL}
    assert (s.perch_score, s.target) == (20, None)
    s = summary_of("tumbochka-sitter-wins-raised-contract")
    assert s.winner == 0 and s.counters[0].perch_made == 1
    s = summary_of("tumbochka-golden-bagel-sits-alone-wins")
    assert s.winner == 0 and s.counters[0].perch_made == 0  # won by the bagel, not a contract
    assert summary_of("troyan-on-the-first-lead").counters[0].troyans == 1


def test_a_match_in_progress_counts_only_ended_deals() -> None:
    header, log = split(script("bolt-third-costs-120"))
    cut = log.index("dealer p1") + 10
    s = summarize(header, log[:cut], [PlayerRef.human(1), PlayerRef.human(2),
                                      PlayerRef.computer("x")])
    assert s.deals == 1 and s.version == cut and s.scores == (100, -120, 0)
    assert s.running and s.counters[0].contracts == 1


def test_bad_input_is_refused() -> None:
    header, log = split(script("bolt-third-costs-120"))
    with pytest.raises(ValueError, match="players"):
        summarize(header, log, [PlayerRef.human(1)])
    with pytest.raises(NotationError):
        summarize(header, [*log[:5], "p9 bid 100"], [PlayerRef.human(s) for s in range(3)])
    with pytest.raises(NotationError, match="header"):
        summarize([*header, "dealer p1"], log, [PlayerRef.human(s) for s in range(3)])
    assert summarize("game tumbochka\n# deal-seed 5", [], [PlayerRef.human(s) for s in range(3)]
                     ).deals == 0


def test_places() -> None:
    assert places_of((100, 300, 300), None) == (3, 1, 2)
    assert places_of((100, 300, 300), 2) == (3, 2, 1)
    assert places_of((5, 5, 5, 5), 3) == (2, 3, 4, 1)
