"""``benchmarks.roles``: each seat's difference goes under what it did in its two plays, and
the roles add up to the strength benchmark's figures for the same deals (from 0 0 0 and from
``--scores``); a resumed run plays only what is missing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple, cast

import pytest

from benchmarks import roles, strength
from engine.rules import Game, preset
from engine.state import MatchState


class _Deal(NamedTuple):
    declarer: int | None
    contract: int


class _End(NamedTuple):
    deal: _Deal


def _end(declarer: int | None, contract: int = 100) -> MatchState:
    return cast(MatchState, _End(_Deal(declarer, contract)))


@pytest.mark.parametrize(
    ("with_a", "with_b", "role"),
    [
        ((2, 120), (1, 120), "defends in both"),
        ((0, 100), (0, 100), "declares in both, the opening bid"),
        ((0, 140), (0, 140), "declares in both, the same contract above it"),
        ((0, 140), (0, 120), "declares in both, other contracts"),
        ((0, 100), (0, 120), "declares in both, other contracts"),
        ((0, 120), (1, 120), "declares only with A"),
        ((2, 120), (0, 105), "declares only with B"),
        ((None, 0), (None, 0), "defends in both"),
    ],
)
def test_the_role_is_what_the_seat_did_in_its_two_plays(
    with_a: tuple[int | None, int], with_b: tuple[int | None, int], role: str
) -> None:
    assert roles.role_of(0, _end(*with_a), _end(*with_b), opening_bid=100) == role


@pytest.mark.parametrize(
    ("game", "scores"),
    [(Game.THOUSAND, None), (Game.THOUSAND, (880, 0, 0)), (Game.TUMBOCHKA, None)],
)
def test_the_roles_of_a_deal_add_up_to_its_difference(
    game: Game, scores: tuple[int, ...] | None
) -> None:
    setup = strength.Setup(preset(game), "easy", "random", 1.0, 1.0, scores)
    differences, wins = [], []
    for k in range(4):
        shares = roles.shares(roles.deal_roles((setup, k)))
        result = strength.duplicate_deal(setup, k)
        assert sum(s.seats for s in shares.values()) == preset(game).players
        assert sum(s.own for s in shares.values()) == pytest.approx(result.own)
        assert sum(s.relative for s in shares.values()) == pytest.approx(result.relative)
        assert sum(s.won for s in shares.values()) == pytest.approx(result.won)
        assert sum(s.lost for s in shares.values()) == pytest.approx(result.lost)
        differences.append(result.own)
        wins.append(result.won)
    assert any(differences), "the agents must differ for the sums to be checked"
    assert scores is None or any(wins), "from the barrel a match must be won otherwise"


def test_by_seat_every_role_splits_into_its_seats() -> None:
    setup = strength.Setup(preset(Game.THOUSAND), "easy", "random", 1.0, 1.0, (880, 0, 0))
    for k in range(3):
        parts = roles.deal_roles((setup, k))
        by_role, by_seat = roles.shares(parts), roles.shares(parts, by_seat=True)
        assert sorted(by_seat) == sorted(f"{p.role}, seat {p.seat}" for p in parts)
        for role, share in by_role.items():
            split = [s for name, s in by_seat.items() if name.startswith(role + ", seat ")]
            assert sum(s.seats for s in split) == share.seats
            assert sum(s.own for s in split) == pytest.approx(share.own)


def _all_row(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    roles.main(["--a", "easy", "--b", "random", "--workers", "1", *args])
    out = capsys.readouterr().out
    return next(line for line in out.splitlines() if line.startswith("| all |"))


def test_a_resumed_run_plays_only_what_is_missing_and_reports_like_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress = tmp_path / "roles.jsonl"
    whole = _all_row(capsys, "--deals", "4")
    _all_row(capsys, "--deals", "2", "--progress", str(progress))

    resumed = _all_row(capsys, "--deals", "4", "--progress", str(progress))

    lines = progress.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["deal"] for line in lines] == [0, 1, 2, 3]
    assert resumed == whole
    assert re.match(r"\| all \| 12 \| \d+ \| [+-]\d+\.\d\d \[", whole)


def test_scores_start_every_deal_from_them_and_tag_the_progress_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress = tmp_path / "roles.jsonl"
    from_zero = _all_row(capsys, "--deals", "2")

    on_the_barrel = _all_row(
        capsys, "--deals", "2", "--scores", "880", "0", "0", "--progress", str(progress)
    )

    rows = [json.loads(line) for line in progress.read_text(encoding="utf-8").splitlines()]
    assert {row["setup"].rsplit("/", 1)[-1] for row in rows} == {"scores 880 0 0"}
    assert on_the_barrel != from_zero


def test_the_report_by_seat_has_a_row_per_role_and_seat_and_the_same_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    whole = _all_row(capsys, "--deals", "2")
    roles.main(["--a", "easy", "--b", "random", "--workers", "1", "--deals", "2", "--by-seat"])
    lines = capsys.readouterr().out.splitlines()
    names = [line.split(" | ")[0].removeprefix("| ") for line in lines if line.startswith("| ")]
    assert names[1:] == [f"{r}, seat {s}" for r in roles.ROLES for s in range(3)] + ["all"]
    assert lines[-1] == whole


def test_scores_need_one_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        roles.main(["--a", "easy", "--b", "random", "--deals", "1", "--scores", "880", "0"])
    assert "--scores needs 3 scores" in capsys.readouterr().err
