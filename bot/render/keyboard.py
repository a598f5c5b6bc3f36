"""The inline keyboard of a player's private message: one button per legal action, nothing
else. Bids and contracts are compact numbers in rows, giving is one row per card with a
button per recipient, plays are grouped by suit, and a lead with a declaration gets its own
button («К♥ + марьяж 100»).
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import encode_action
from bot.i18n import Translator
from bot.render.common import button_name, card_label, sorted_cards
from engine import (
    Bid,
    Concede,
    Declaration,
    Give,
    NameContract,
    Pass,
    Play,
    Redeal,
    SeatAction,
    SeatView,
    Throw,
)
from engine.cards import suit_of
from engine.games.base import ACE_MARRIAGE_VALUE, MARRIAGE_VALUES

Row = list[InlineKeyboardButton]

SHORT_ROW = 5
LONG_ROW = 8
"""Telegram shows at most 8 buttons in a row."""
LONG_LIST = 20


def action_keyboard(
    view: SeatView, names: Sequence[str], lang: str, tr: Translator, match_id: int,
    version: int,
) -> InlineKeyboardMarkup | None:
    """Buttons for exactly ``view.legal``; ``None`` when there is nothing to press."""
    if not view.legal:
        return None

    def button(label: str, action: SeatAction) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=encode_action(match_id, version, action))

    legal = view.legal
    rows: list[Row] = []
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda a: a.value)
    rows += _number_rows([button(str(a.value), a) for a in bids])
    rows += [[button(tr.text(lang, "button-pass"), a)] for a in legal if isinstance(a, Pass)]

    gives = [a for a in legal if isinstance(a, Give)]
    for c in sorted_cards({a.card for a in gives}):
        label = card_label(c, lang, tr)
        row = [
            button(tr.text(lang, "button-give", card=label, name=button_name(names, a.to)), a)
            for a in sorted(gives, key=lambda a: a.to) if a.card == c
        ]
        rows.append(row)

    contracts = sorted((a for a in legal if isinstance(a, NameContract)), key=lambda a: a.value)
    rows += _number_rows([button(str(a.value), a) for a in contracts])

    plays = [a for a in legal if isinstance(a, Play)]
    plain = {a.card: a for a in plays if a.declaration is Declaration.NONE}
    suit_rows: dict[int, Row] = {}
    for c in sorted_cards(plain):
        suit_rows.setdefault(suit_of(c), []).append(button(card_label(c, lang, tr), plain[c]))
    for row in suit_rows.values():
        rows += _chunks(row, LONG_ROW)
    declared = sorted(
        (a for a in plays if a.declaration is not Declaration.NONE),
        key=lambda a: (suit_of(a.card), -a.card, a.declaration.value),
    )
    rows += _chunks([button(_declaration_label(a, lang, tr), a) for a in declared], 2)

    special: Row = []
    for kind, message_id in ((Concede, "button-concede"), (Throw, "button-throw"),
                             (Redeal, "button-redeal")):
        special += [button(tr.text(lang, message_id), a) for a in legal if isinstance(a, kind)]
    rows += _chunks(special, 3)
    return InlineKeyboardMarkup(rows)


def _declaration_label(play: Play, lang: str, tr: Translator) -> str:
    card = card_label(play.card, lang, tr)
    if play.declaration is Declaration.MARRIAGE:
        value = MARRIAGE_VALUES[suit_of(play.card)]
    elif play.declaration is Declaration.ACES:
        value = ACE_MARRIAGE_VALUE
    else:
        value = 0
    return tr.text(lang, f"button-{play.declaration.value}", card=card, value=value)


def _number_rows(buttons: Row) -> list[Row]:
    return _chunks(buttons, LONG_ROW if len(buttons) > LONG_LIST else SHORT_ROW)


def _chunks(buttons: Row, size: int) -> list[Row]:
    return [buttons[i : i + size] for i in range(0, len(buttons), size)]
