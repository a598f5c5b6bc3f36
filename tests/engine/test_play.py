"""The terminal match, ``python -m engine.play``."""

from __future__ import annotations

import pytest

from engine.play import main, run
from engine.rules import Game


@pytest.mark.parametrize(
    ("game", "players"), [(Game.THOUSAND, 3), (Game.THOUSAND_ONE, 4), (Game.TUMBOCHKA, 3)]
)
def test_terminal_match_with_a_human_seat(game: Game, players: int) -> None:
    """A scripted human who always picks the first listed action, against the easy level."""
    lines: list[str] = []
    end = run(
        game, players, "easy", seat=0, seed=4, ask=lambda prompt: "1", say=lines.append, max_deals=3
    )
    assert end.deals >= 1
    assert any(line.startswith("your hand:") for line in lines)


def _one_deal_answering(typed: list[str]) -> list[str]:
    """What a deal of Тумбочка in seat p2 prints when the human types ``typed``, then "1"."""
    answers = iter(typed)
    lines: list[str] = []
    run(
        Game.TUMBOCHKA,
        3,
        "random",
        seat=1,
        seed=1,
        ask=lambda prompt: next(answers, "1"),
        say=lines.append,
        max_deals=1,
    )
    return lines


def test_terminal_understands_notation_and_refuses_nonsense() -> None:
    lines = _one_deal_answering(["nonsense", "play ZZ", "bid 5", "pass"])
    assert any(line.startswith("not understood") for line in lines)


def test_terminal_refuses_a_number_outside_the_list() -> None:
    lines = _one_deal_answering(["0", "99"])
    assert sum(line.startswith("type a number from 1 to") for line in lines) == 2


@pytest.mark.parametrize(
    "argv", [["thousand", "--players", "4"], ["tumbochka", "--seat", "4"], ["1001", "--seat", "0"]]
)
def test_command_line_refuses_impossible_tables(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_command_line_watches_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    main(["1001", "--players", "4", "--level", "easy", "--seed", "3", "--watch"])
    out = capsys.readouterr().out
    assert "you are watching" in out
    assert "match over:" in out
