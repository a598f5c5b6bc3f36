"""The group's table message, rendered from the PUBLIC view only (``engine.view(state,
None)``): seats and scores, bids, contract, the talon only when shown, trump, the trick on
the table, whose turn it is with the timer, an optional last-move note and the winner.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.common import MAX_MESSAGE, html_name, short_names
from bot.render.state import deal_lines, header, perch_line, seat_lines
from engine import Game, Phase, SeatView

GOLDEN_DEALS = 3


def render_table(
    view: SeatView, names: tuple[str, ...], lang: str, tr: Translator, *,
    turn_seconds_left: int | None = None, note: str | None = None,
    stopped_by: str | None = None,
) -> str:
    """The table as HTML. ``note`` (the last move or moves, one per line) goes above the
    turn line as is: pass HTML (``render_event_line`` gives escaped HTML) and escape any
    text of your own. A note too long for one message keeps its latest lines.
    ``stopped_by`` (HTML) names who stopped the match (/stop): nobody's turn any more.

    ``ValueError`` for a seat's view: the table is rendered from the public view only."""
    if view.seat is not None:
        raise ValueError("the table is rendered from the public view (engine.view(state, None))")
    if stopped_by is not None:
        view = view._replace(turn=None, legal=())
    text = _text(view, names, lang, tr, turn_seconds_left, note, stopped_by)
    if len(text) > MAX_MESSAGE:
        text = _text(view, short_names(names), lang, tr, turn_seconds_left, note, stopped_by)
    return text


def _text(
    view: SeatView, names: Sequence[str], lang: str, tr: Translator,
    turn_seconds_left: int | None, note: str | None, stopped_by: str | None = None,
) -> str:
    lines = [header(view, lang, tr, stopped=stopped_by is not None), ""]
    lines += seat_lines(view, names, lang, tr)
    perch = perch_line(view, names, lang, tr)
    if perch:
        lines.append(perch)
    rules = view.rules
    golden = rules.game is Game.THOUSAND and rules.golden_round and 0 < view.deals <= GOLDEN_DEALS
    if golden and view.phase is not Phase.MATCH_OVER:
        lines.append(tr.text(lang, "state-golden-round"))
    deal = deal_lines(view, names, lang, tr)
    if deal:
        lines += ["", *deal]
    tail = []
    if stopped_by is not None:
        tail.append(tr.text(lang, "state-stopped", name=stopped_by))
    elif view.winner is not None:
        tail.append(tr.text(lang, "state-winner", name=html_name(names, view.winner)))
    elif view.turn is not None:
        name = html_name(names, view.turn)
        if turn_seconds_left is None:
            tail.append(tr.text(lang, "state-turn", name=name))
        else:
            seconds = max(0, turn_seconds_left)
            tail.append(tr.text(lang, "state-turn-timer", name=name, seconds=seconds))
    body = "\n".join(lines)
    end = "\n\n" + "\n".join(tail) if tail else ""
    moves = note_text(note, MAX_MESSAGE - len(body) - len(end) - 2, lang, tr) if note else ""
    return body + ("\n\n" + moves if moves else "") + end


def note_text(note: str, budget: int, lang: str, tr: Translator) -> str:
    """The last-move note; of a long note (several moves), the latest lines that fit.
    (Assembled here, not in Fluent, which refuses placeables over 1000 characters.)"""
    moves = note.strip().split("\n")
    room = budget - len(tr.text(lang, "table-notes"))
    kept: list[str] = []
    for move in reversed(moves):
        room -= len(move) + 1
        if room < 0:
            break
        kept.insert(0, move)
    if not kept:
        return ""
    if len(kept) == 1:
        return f"{tr.text(lang, 'table-note')} {kept[0]}"
    return "\n".join([tr.text(lang, "table-notes"), *kept])
