"""``benchmarks.strength``: with ``--progress`` a stopped run goes on where it stopped and
reports what an uninterrupted run prints; ``--scores`` starts every duplicate deal from
those match scores, and a deal that ends the match counts for the seat that wins it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from benchmarks import strength
from engine.ai import arena
from engine.ai.arena import play_deal
from engine.rules import Game, preset
from engine.state import MatchState


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    strength.main(["--a", "easy", "--b", "random", "--workers", "1", *args])
    lines = capsys.readouterr().out.splitlines()
    return [line for line in lines if re.match(r"\| (easy|hard)", line)]


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_resumed_run_plays_only_what_is_missing_and_reports_like_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress = tmp_path / "progress.jsonl"
    whole = _report(capsys, "--deals", "5", "--matches", "2")
    _report(capsys, "--deals", "3", "--matches", "0", "--progress", str(progress))
    assert [row["deal"] for row in _rows(progress)] == [0, 1, 2]

    resumed = _report(capsys, "--deals", "5", "--matches", "2", "--progress", str(progress))

    rows = _rows(progress)
    assert [row.get("deal", row.get("match")) for row in rows] == [0, 1, 2, 3, 4, 0, 1]
    assert resumed[:3] == whole[:3]


def test_results_of_another_set_up_are_not_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress = tmp_path / "progress.jsonl"
    two = ["--deals", "2", "--matches", "0", "--progress", str(progress)]
    _report(capsys, *two)
    _report(capsys, *two, "--game", "tumbochka")
    games = [str(row["setup"]).split("/")[0] for row in _rows(progress)]
    assert games == ["thousand", "thousand", "tumbochka", "tumbochka"]


def _record_starts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The scores each deal the benchmark plays from now on starts from."""
    starts: list[tuple[int, ...]] = []

    def recording(state: MatchState, *args: Any, **kwargs: Any) -> MatchState:
        starts.append(state.scores)
        return play_deal(state, *args, **kwargs)

    monkeypatch.setattr(strength, "play_deal", recording)
    return starts


def test_duplicate_deals_start_from_the_scores_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starts = _record_starts(monkeypatch)
    setup = strength.Setup(preset(Game.THOUSAND), "easy", "random", 1.0, 1.0, (880, 0, 0))
    strength.duplicate_deal(setup, 0)
    assert starts and set(starts) == {(880, 0, 0)}


def test_full_matches_start_from_the_scores_given(monkeypatch: pytest.MonkeyPatch) -> None:
    starts: list[tuple[int, ...]] = []
    real = arena.play_deal

    def recording(state: MatchState, *args: Any, **kwargs: Any) -> MatchState:
        starts.append(state.scores)
        return real(state, *args, **kwargs)

    monkeypatch.setattr(arena, "play_deal", recording)
    setup = strength.Setup(preset(Game.THOUSAND), "easy", "random", 1.0, 1.0, (880, 650, 500))
    strength.full_match(setup, 0)
    assert starts[0] == (880, 650, 500)


def test_scores_for_other_seats_than_the_game_has_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        strength.main(["--deals", "1", "--scores", "880", "0"])
    assert "--scores needs 3 scores" in capsys.readouterr().err


def test_a_recording_from_other_scores_is_not_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "record.json"
    barrel = ["--deals", "2", "--matches", "0", "--scores", "880", "0", "0"]
    _report(capsys, *barrel, "--record", str(record))
    assert _report(capsys, *barrel, "--against", str(record))
    with pytest.raises(SystemExit, match="recorded on another deal set"):
        _report(capsys, "--deals", "2", "--matches", "0", "--against", str(record))


class _End(NamedTuple):
    """What ``duplicate_deal`` reads of a deal's end."""

    scores: tuple[int, ...]
    winner: int | None
    deal: None = None


def test_a_deal_that_ends_the_match_counts_for_the_seat_that_wins_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seat 0 wins the match when A plays it; otherwise seat 1 does (the baseline too).
    def ending(state: MatchState, deal: Any, agents: list[Any], *args: Any) -> _End:
        a_first = agents[0] not in agents[1:]
        return _End(state.scores, 0 if a_first else 1)

    monkeypatch.setattr(strength, "play_deal", ending)
    setup = strength.Setup(preset(Game.THOUSAND), "easy", "random", 1.0, 1.0, (880, 0, 0))
    result = strength.duplicate_deal(setup, 0)
    # A in seat 0 wins where B lost to seat 1; in seats 1 and 2 nothing changes.
    assert result.won == pytest.approx(1 / 3)
    assert result.lost == pytest.approx(-1 / 3)


def test_deals_from_scores_report_the_matches_they_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = _report(capsys, "--deals", "2", "--matches", "0", "--scores", "880", "0", "0")
    assert any("matches won by the seat in the deal" in row for row in rows)
    assert any("matches won by another seat in the deal" in row for row in rows)
    assert not any("matches won" in row for row in _report(capsys, "--deals", "2"))


def test_a_result_of_an_older_format_is_played_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress = tmp_path / "progress.jsonl"
    _report(capsys, "--deals", "2", "--matches", "0", "--progress", str(progress))
    rows = _rows(progress)
    old = rows[0]
    result = old["result"]
    assert isinstance(result, dict)
    del result["won"], result["lost"]
    progress.write_text(json.dumps(old) + "\n" + json.dumps(rows[1]) + "\n", encoding="utf-8")

    _report(capsys, "--deals", "2", "--matches", "0", "--progress", str(progress))

    assert [row["deal"] for row in _rows(progress)] == [0, 1, 0]


def _scripted_matches(monkeypatch: pytest.MonkeyPatch, wins: Any) -> None:
    """Matches that take no time: ``wins(a, m)`` says whether A's seat wins match ``m``."""

    def scripted(setup: strength.Setup, m: int) -> strength.MatchResult:
        return strength.MatchResult(wins(setup.a, m), 10, {})

    monkeypatch.setattr(strength, "full_match", scripted)


def _paired_report(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    strength.main(["--workers", "1", "--deals", "0", "--paired", *args])
    return [line for line in capsys.readouterr().out.splitlines() if "same seat" in line]


def test_paired_matches_play_each_match_also_with_b_in_every_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Match m: A's seat wins when m is even; with B in every seat, seat m mod 3 wins when
    # m < 2. So match 0 is won by both, 1 only by B, 2 only by A, 3 by neither.
    _scripted_matches(monkeypatch, lambda a, m: m % 2 == 0 if a == "easy" else m < 2)
    progress = tmp_path / "progress.jsonl"
    args = ["--a", "easy", "--b", "random", "--matches", "4", "--progress", str(progress)]

    rows = _paired_report(capsys, *args)

    setups = sorted(str(row["setup"]).split("/")[2] for row in _rows(progress))
    assert setups == ["easy"] * 4 + ["random"] * 4
    assert rows[0].startswith(
        "| random in the same seat of the same matches, matches won | 4 matches | 50.0% |"
    )
    assert "(1 won only by easy, 1 only by random) | 4 matches | +0.0 |" in rows[1]


def test_paired_matches_reuse_the_baseline_already_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _scripted_matches(monkeypatch, lambda a, m: a == "easy")
    progress = tmp_path / "progress.jsonl"
    baseline = ["--a", "random", "--b", "random", "--matches", "2", "--progress", str(progress)]
    strength.main(["--workers", "1", "--deals", "0", *baseline])
    before = len(_rows(progress))

    args = ["--a", "easy", "--b", "random", "--matches", "3", "--progress", str(progress)]
    rows = _paired_report(capsys, *args)

    added = [(str(row["setup"]).split("/")[2], row["match"]) for row in _rows(progress)[before:]]
    assert sorted(added) == [("easy", 0), ("easy", 1), ("easy", 2), ("random", 2)]
    assert "(3 won only by easy, 0 only by random) | 3 matches | +100.0 |" in rows[1]


def test_pairing_without_matches_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        strength.main(["--deals", "1", "--paired"])
    assert "--paired pairs full matches" in capsys.readouterr().err


def test_the_timing_run_starts_its_deals_from_the_given_scores(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    starts = _record_starts(monkeypatch)
    strength.main(
        ["--a", "easy", "--deals", "0", "--timing-deals", "2", "--scores", "880", "0", "0"]
    )
    assert starts == [(880, 0, 0), (880, 0, 0)]
    assert "| easy (default: budget" in capsys.readouterr().out
