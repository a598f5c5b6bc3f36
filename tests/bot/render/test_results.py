"""The match result tells why it was won: a golden bagel on the tumbochka wins at once."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import Translator
from bot.render import render_match_result
from engine import MatchState, apply, view
from engine.events import Event
from engine.notation import MatchReader, parse_action, strip_comment

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "tumbochka"
NAMES = ("Анна", "Борис", "Вера")


def _last_action(name: str) -> tuple[MatchState, tuple[Event, ...]]:
    """The state and events of the script's last action."""
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    played = [i for i, line in enumerate(lines) if strip_comment(line).split()[:1] != []
              and strip_comment(line).split()[0].startswith("p")]
    last = played[-1]
    reader = MatchReader()
    for number, line in enumerate(lines[:last], start=1):
        if strip_comment(line).split()[:1] != ["expect"]:
            reader.feed(number, line)
    reader.flush()
    state = reader.state
    state, events = apply(state, parse_action(strip_comment(lines[last]), state.rules.players))
    return state, tuple(events)


def test_a_golden_bagel_win_is_told() -> None:
    tr = Translator(strict=True)
    state, events = _last_action("tumbochka-golden-bagel-sits-alone-wins.txt")
    text = render_match_result(events, view(state, None), NAMES, "ru", tr)
    assert text is not None
    assert tr.text("ru", "match-golden-bagel", name="Анна") in text


def test_a_win_by_contract_is_not_called_a_golden_bagel_win() -> None:
    tr = Translator(strict=True)
    state, events = _last_action("tumbochka-sitter-wins-raised-contract.txt")
    text = render_match_result(events, view(state, None), NAMES, "ru", tr)
    assert text is not None and "🥯" not in text
