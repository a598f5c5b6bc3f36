"""``benchmarks.strength``: with ``--progress`` a stopped run goes on where it stopped and
reports what an uninterrupted run prints; ``--scores`` starts every duplicate deal from
those match scores."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from benchmarks import strength
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


def test_duplicate_deals_start_from_the_scores_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starts: list[tuple[int, ...]] = []

    def recording(state: MatchState, *args: Any, **kwargs: Any) -> MatchState:
        starts.append(state.scores)
        return play_deal(state, *args, **kwargs)

    monkeypatch.setattr(strength, "play_deal", recording)
    setup = strength.Setup(preset(Game.THOUSAND), "easy", "random", 1.0, 1.0, (880, 0, 0))
    strength.duplicate_deal(setup, 0)
    assert starts and set(starts) == {(880, 0, 0)}


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
