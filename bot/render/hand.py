"""A player's private message: the state of the deal, their hand sorted by suit and
strength, the cards they gave or received, what they are asked to do, and the keyboard of
exactly their legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardMarkup

from bot.i18n import Translator
from bot.render.common import (
    MAX_MESSAGE,
    card_label,
    cards_text,
    html_name,
    joined,
    short_names,
)
from bot.render.keyboard import action_keyboard, shown_menu
from bot.render.state import deal_lines, header, perch_line, seat_lines
from bot.render.table import note_text
from bot.telegram.callbacks import MAIN, Menu
from engine import Bid, Concede, Give, NameContract, Pass, Phase, Play, SeatView

NOTE_BUDGET = 1500
"""Characters of a hand's "just now" lines (a /solo match's latest moves)."""


def render_hand(
    view: SeatView, names: tuple[str, ...], lang: str, tr: Translator, match_id: int,
    version: int, menu: Menu = MAIN, *, turn_seconds_left: int | None = None,
    recap: Sequence[str] | None = None, stopped_by: str | None = None,
    note: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The text (HTML) and keyboard (the part ``menu``) of ``view.seat``'s private message;
    ``turn_seconds_left`` is the seat's turn timer, ``recap`` the lines that tell the deal
    just ended (`render_recap`); ``stopped_by`` (HTML) who stopped the match: nothing is
    asked any more; ``note`` (HTML, a line a move) the latest moves, for a /solo match whose
    hand is its only message."""
    if stopped_by is not None:
        view = view._replace(turn=None, legal=())
    menu = shown_menu(view, menu) if view.legal else MAIN
    text = _text(view, names, lang, tr, menu, turn_seconds_left, recap, stopped_by, note)
    if len(text) > MAX_MESSAGE:
        text = _text(
            view, short_names(names), lang, tr, menu, turn_seconds_left, recap, stopped_by, note
        )
    return text, action_keyboard(view, names, lang, tr, match_id, version, menu)


def _text(
    view: SeatView, names: Sequence[str], lang: str, tr: Translator, menu: Menu,
    timer: int | None, recap: Sequence[str] | None, stopped_by: str | None = None,
    note: str | None = None,
) -> str:
    lines = [header(view, lang, tr, stopped=stopped_by is not None), ""]
    if recap:
        lines += [*recap, ""]
    lines += seat_lines(view, names, lang, tr)
    perch = perch_line(view, names, lang, tr)
    if perch:
        lines.append(perch)
    deal = deal_lines(view, names, lang, tr)
    if deal:
        lines += ["", *deal]
    own = _own_lines(view, names, lang, tr)
    if own:
        lines += ["", *own]
    if note:
        moves = note_text(note, NOTE_BUDGET, lang, tr)
        if moves:
            lines += ["", moves]
    prompt = _prompt(view, names, lang, tr, menu)
    if stopped_by is not None:
        prompt = tr.text(lang, "state-stopped", name=stopped_by)
    if prompt:
        lines.append("")
        if timer is not None and view.legal:
            lines.append(tr.text(lang, "hand-timer", seconds=max(0, timer)))
        lines.append(prompt)
    return "\n".join(lines)


def _own_lines(view: SeatView, names: Sequence[str], lang: str, tr: Translator) -> list[str]:
    seat = view.seat
    in_deal = view.dealer is not None and view.phase is not Phase.MATCH_OVER
    if seat is None or not in_deal:
        return []
    if seat not in view.active:
        return [tr.text(lang, "hand-sitting-out")]
    if view.phase is Phase.DEAL_OVER and not view.hand:
        return []
    if view.hand:
        lines = [tr.text(lang, "hand-cards", cards=cards_text(view.hand, lang, tr))]
    else:
        lines = [tr.text(lang, "hand-no-cards")]
    if view.given:
        items = [
            tr.text(lang, "hand-gift", card=card_label(c, lang, tr), name=html_name(names, to))
            for to, c in view.given
        ]
        lines.append(tr.text(lang, "hand-given", list=joined(items)))
    if view.received:
        items = [
            tr.text(lang, "hand-gift-from", card=card_label(c, lang, tr),
                    name=html_name(names, giver))
            for giver, c in view.received
        ]
        lines.append(tr.text(lang, "hand-received", list=joined(items)))
    return lines


def _prompt(
    view: SeatView, names: Sequence[str], lang: str, tr: Translator, menu: Menu
) -> str | None:
    legal = view.legal
    if menu.confirm is not None:
        kind = "concede" if isinstance(menu.confirm, Concede) else "throw"
        return tr.text(lang, f"hand-confirm-{kind}")
    if menu.card is not None:
        return tr.text(lang, "hand-prompt-give-to", card=card_label(menu.card, lang, tr))
    if any(isinstance(a, Bid | Pass) for a in legal):
        return tr.text(lang, "hand-prompt-bid")
    if any(isinstance(a, Give) for a in legal):
        return tr.text(lang, "hand-prompt-give")
    if any(isinstance(a, NameContract) for a in legal):
        return tr.text(lang, "hand-prompt-contract")
    if any(isinstance(a, Play) for a in legal):
        return tr.text(lang, "hand-prompt-follow" if view.trick else "hand-prompt-lead")
    if legal:
        return tr.text(lang, "hand-prompt-early")
    if view.turn is not None and view.turn != view.seat:
        return tr.text(lang, "hand-waiting", name=html_name(names, view.turn))
    return None
