"""``benchmarks.imitation``: the features mark the rule-based choice and read only what the
seat may know, the rule weights play the rule-based policy, the fit learns a preference
that the rule-based choice does not have (from the moves made, or from the search's means),
the regret reads the search's values, the collector can model the others by fitted
weights, and the two commands write what they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.imitation import (
    CONTEXTS,
    FEATURE_NAMES,
    Sample,
    _collect,
    accuracy,
    features,
    fit,
    imitating,
    main,
    regret,
    rule_weights,
)
from engine.ai import search_agent, solver
from engine.ai.playout import rollout
from engine.ai.policy import choose_play
from engine.ai.search_agent import PLAY_MARGIN, WASTE_MARGIN
from engine.cards import parse_card
from engine.rules import Game, Rules
from engine.table import Table, playing
from tests.engine.helpers import mask


def _table(turn: int = 0) -> Table:
    hands = [
        mask("AS TS KS QS 9C JD QH 9H"),
        mask("JS 9S AC TC KC AD 9D JH"),
        mask("QC JC TD KD QD AH TH KH"),
    ]
    return playing(Rules(), (0, 1, 2), hands, declarer=0, contract=120, turn=turn)


def test_every_legal_move_has_one_row_and_only_the_rule_based_choice_is_marked() -> None:
    table = _table()
    found, rows = features(table, 0)

    assert len(found) == len(rows) > 1
    assert all(len(row) == len(FEATURE_NAMES) for row in rows)
    marked = [move for move, row in zip(found, rows, strict=True) if row[0] == 1.0]
    assert marked == [choose_play(table, 0)]


def test_the_features_do_not_depend_on_the_other_hands() -> None:
    table = _table(turn=1)
    # Seat 0's ♥Q and seat 2's ♥K traded: seat 1 cannot tell the two deals apart.
    other = _table(turn=1)
    other.hands[0] ^= (1 << parse_card("QH")) | (1 << parse_card("KH"))
    other.hands[2] ^= (1 << parse_card("QH")) | (1 << parse_card("KH"))

    assert features(other, 1) == features(table, 1)


def test_the_rule_weights_play_exactly_the_rule_based_policy() -> None:
    policy = imitating(rule_weights())
    by_rules, by_model = _table(), _table()

    rollout(by_rules, choose_play)
    rollout(by_model, policy)

    assert by_model.points == by_rules.points
    assert by_model.won == by_rules.won


def _row(rule: bool, points: float) -> list[float]:
    found = [0.0] * len(FEATURE_NAMES)
    found[0] = 1.0 if rule else 0.0
    found[1] = points
    return found


def test_the_fit_learns_a_preference_the_rule_based_choice_lacks() -> None:
    # Two moves; the rule marks the first, the player always makes the one with more points.
    samples = [
        Sample(
            k,
            k % CONTEXTS,
            [_row(True, 0.1 * (k % 3)), _row(False, 0.5 + 0.1 * (k % 4))],
            1,
            [0.0, 0.0],
        )
        for k in range(60)
    ]

    assert accuracy(samples, rule_weights()) == 0.0
    assert accuracy(samples, fit(samples, steps=150)) == 1.0


def test_the_fit_to_the_means_weighs_a_wide_gap_above_the_moves_made() -> None:
    # One kind of position, seen 80 times. In 60 the search valued both moves alike and took
    # the rule's; in 20 it valued the other 20 points higher and took that. Copying the
    # moves made takes the rule's move (the majority) and gives up 20 points a quarter of
    # the time; the fit to the means takes the other, which the search never valued lower.
    samples = [
        Sample(k, 0, [_row(True, 0.1), _row(False, 0.5)], 1, [0.0, 20.0])
        if k % 4 == 0
        else Sample(k, 0, [_row(True, 0.1), _row(False, 0.5)], 0, [0.0, 0.5])
        for k in range(80)
    ]

    assert regret(samples, rule_weights()) == pytest.approx(5.375)
    assert regret(samples, fit(samples, steps=150)) == pytest.approx(5.375)
    assert regret(samples, fit(samples, steps=150, tau=5.0)) == 0.0


def test_collect_then_fit_writes_the_plays_and_the_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plays, weights = tmp_path / "plays.jsonl", tmp_path / "weights.json"

    main(["collect", "--deals", "2", "--workers", "1", "--out", str(plays)])
    rows = [json.loads(line) for line in plays.read_text(encoding="utf-8").splitlines()]
    main(["fit", str(plays), "--steps", "3", "--tau", "5", "--weights", str(weights)])

    assert {row["deal"] for row in rows} == {0, 1}
    assert all(0 <= row["chosen"] < len(row["rows"]) == len(row["means"]) for row in rows)
    # The move made is within the search's margins of the best mean it gave (``_among_best``).
    margin = PLAY_MARGIN[Game.THOUSAND] + WASTE_MARGIN
    assert all(row["means"][row["chosen"]] >= max(row["means"]) - margin for row in rows)
    fitted = json.loads(weights.read_text(encoding="utf-8"))
    assert len(fitted) == CONTEXTS
    assert all(len(w) == len(FEATURE_NAMES) for w in fitted)
    assert fitted != rule_weights()
    assert "held out, the fitted model" in capsys.readouterr().out


def test_the_collector_values_the_plays_against_the_model_of_the_others_it_is_given() -> None:
    # Weights that score the rule-based choice lowest: in the best response of the last
    # six cards the others then play another card than the policy whenever they can, so
    # the search's means of some play differ from those against the rule-based policy.
    contrary = [[-w for w in row] for row in rule_weights()]
    among_best = search_agent._among_best

    by_rules = _collect(range(1))
    by_model = _collect(range(1), others=contrary)

    assert vars(solver)["choose_play"] is choose_play
    assert search_agent._among_best is among_best
    # The deals go apart once a play differs, so only the plays up to then are compared.
    assert any(a.means != b.means for a, b in zip(by_rules, by_model, strict=False))
