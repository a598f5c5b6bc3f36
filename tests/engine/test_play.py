"""The terminal match, ``python -m engine.play``."""

from __future__ import annotations

import pytest

from engine.play import run
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


def test_terminal_understands_notation_and_refuses_nonsense() -> None:
    answers = iter(["nonsense", "play ZZ", "bid 5", "pass"])
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
    assert any(line.startswith("not understood") for line in lines)
