"""The inline keyboard of a player's private message, small enough for a phone: at most
`MAX_ROWS` rows in any part of it, and every legal action reachable from the first part.

- Bids and contracts: the next `NEXT_VALUES` values and «▸» to pages of larger ones.
- Giving takes two steps: the card, then its recipient (with «◂ Назад»).
- Plays are grouped by suit while that fits, else packed into fewer, wider rows; a lead with
  a declaration gets its own button («К♥ + марьяж 100»).
- Conceding and throwing are asked twice: the first press (a real action button) makes the
  game service show the question (`Menu.confirm`), whose «Да» button takes the action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.render.common import NAME_LENGTH, button_name, card_label, sorted_cards
from bot.telegram.callbacks import MAIN, Menu, encode_action, encode_menu
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
_Button = Callable[[str, SeatAction], InlineKeyboardButton]
_Go = Callable[[str, Menu], InlineKeyboardButton]

MAX_ROWS: Final = 6
"""Rows a phone shows beside the message without scrolling."""
LONG_ROW: Final = 8
"""Telegram shows at most 8 buttons in a row."""
NEXT_VALUES: Final = 5
"""Bids or contracts on the first part of the keyboard."""
PAGE_WIDTH: Final = 5
PAGE_ROWS: Final = 4
PAGE_VALUES: Final = PAGE_WIDTH * PAGE_ROWS
CARD_ROW: Final = 5
"""Cards in a packed row before a wider one is needed."""


def confirms(action: SeatAction) -> bool:
    """Whether ``action`` needs a second press: it ends the deal at once, beyond recall."""
    return isinstance(action, Concede | Throw)


def numbers(view: SeatView) -> list[SeatAction]:
    """The bids or contracts the seat may make now, the lowest first."""
    found = [a for a in view.legal if isinstance(a, Bid | NameContract)]
    return sorted(found, key=lambda a: a.value if isinstance(a, Bid | NameContract) else 0)


def pages(view: SeatView) -> int:
    """How many pages of larger values the numbers have beyond the first part."""
    extra = len(numbers(view)) - NEXT_VALUES
    return max(0, -(-extra // PAGE_VALUES))


def shown_menu(view: SeatView, menu: Menu) -> Menu:
    """``menu`` if it still applies to ``view``, else the first part."""
    legal = view.legal
    if menu.confirm is not None:
        return menu if menu.confirm in legal else MAIN
    if menu.card is not None:
        found = any(isinstance(a, Give) and a.card == menu.card for a in legal)
        return menu if found else MAIN
    if menu.page:
        return menu if menu.page <= pages(view) else MAIN
    return MAIN


def action_keyboard(
    view: SeatView, names: Sequence[str], lang: str, tr: Translator, match_id: int,
    version: int, menu: Menu = MAIN,
) -> InlineKeyboardMarkup | None:
    """The part ``menu`` of the keyboard of ``view.legal``; ``None`` when there is nothing
    to press."""
    if not view.legal:
        return None
    seat = view.seat if view.seat is not None else 0

    def button(label: str, action: SeatAction) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=encode_action(match_id, version, action))

    def go(label: str, target: Menu) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=encode_menu(match_id, version, seat, target)
        )

    back = go(tr.text(lang, "button-back"), MAIN)
    menu = shown_menu(view, menu)
    if menu.confirm is not None:
        label = "button-confirm-" + ("concede" if isinstance(menu.confirm, Concede) else "throw")
        return InlineKeyboardMarkup([[button(tr.text(lang, label), menu.confirm)], [back]])
    if menu.card is not None:
        label = card_label(menu.card, lang, tr)

        def whole(seat: int) -> str:
            return button_name(names, seat, NAME_LENGTH)

        gives = sorted(
            (a for a in view.legal if isinstance(a, Give) and a.card == menu.card),
            key=lambda a: a.to,
        )
        rows = [
            # One recipient a row: room for a whole name («🤖 Компьютер 2 (сильный)»).
            [button(tr.text(lang, "button-give", card=label, name=whole(a.to)), a)]
            for a in gives
        ]
        return InlineKeyboardMarkup([*rows, [back]])
    values = numbers(view)
    if menu.page:
        start = NEXT_VALUES + (menu.page - 1) * PAGE_VALUES
        shown = values[start : start + PAGE_VALUES]
        rows = _chunks([button(_value(a), a) for a in shown], PAGE_WIDTH)
        earlier = MAIN if menu.page == 1 else Menu(page=menu.page - 1)
        nav = [go(tr.text(lang, "button-smaller"), earlier)]
        if menu.page < pages(view):
            nav.append(go(tr.text(lang, "button-larger"), Menu(page=menu.page + 1)))
        return InlineKeyboardMarkup([*rows, nav])
    return InlineKeyboardMarkup(_main(view, lang, tr, button, go))


def _main(
    view: SeatView, lang: str, tr: Translator,
    button: _Button, go: _Go,
) -> list[Row]:
    legal = view.legal
    top: list[Row] = []
    values = numbers(view)
    if values:
        row = [button(_value(a), a) for a in values[:NEXT_VALUES]]
        if pages(view):
            row.append(go(tr.text(lang, "button-larger"), Menu(page=1)))
        top.append(row)
    passes = [button(tr.text(lang, "button-pass"), a) for a in legal if isinstance(a, Pass)]
    special: Row = []
    for kind, message_id in ((Concede, "button-concede"), (Throw, "button-throw"),
                             (Redeal, "button-redeal")):
        special += [button(tr.text(lang, message_id), a) for a in legal if isinstance(a, kind)]
    bottom = [passes + special] if passes or special else []

    cards: list[tuple[int, InlineKeyboardButton]] = []
    gives = {a.card for a in legal if isinstance(a, Give)}
    for c in sorted_cards(gives):
        cards.append((c, go(card_label(c, lang, tr), Menu(card=c))))
    plain = {a.card: a for a in legal if isinstance(a, Play) and a.declaration is Declaration.NONE}
    for c in sorted_cards(plain):
        cards.append((c, button(card_label(c, lang, tr), plain[c])))
    declared = sorted(
        (a for a in legal if isinstance(a, Play) and a.declaration is not Declaration.NONE),
        key=lambda a: (suit_of(a.card), -a.card, a.declaration.value),
    )
    declared_buttons = [button(_declaration_label(a, lang, tr), a) for a in declared]
    room = MAX_ROWS - len(top) - len(bottom)
    declared_rows = _fit(declared_buttons, 2, max(1, room - 2)) if declared_buttons else []
    card_rows = _card_rows(cards, room - len(declared_rows))
    return [*top, *card_rows, *declared_rows, *bottom]


def _card_rows(cards: list[tuple[int, InlineKeyboardButton]], room: int) -> list[Row]:
    """Cards one suit a row if that fits in ``room`` rows, else packed in as few as needed."""
    if not cards:
        return []
    by_suit: dict[int, Row] = {}
    for c, b in cards:
        by_suit.setdefault(suit_of(c), []).append(b)
    rows = [chunk for row in by_suit.values() for chunk in _chunks(row, LONG_ROW)]
    if len(rows) <= max(room, 1):
        return rows
    return _fit([b for _, b in cards], CARD_ROW, max(room, 1))


def _fit(buttons: Row, width: int, rows: int) -> list[Row]:
    """``buttons`` in rows of ``width``, widened (up to 8) so that they take at most ``rows``
    rows when they can."""
    needed = -(-len(buttons) // max(rows, 1))
    return _chunks(buttons, min(LONG_ROW, max(width, needed)))


def _value(action: SeatAction) -> str:
    return str(action.value) if isinstance(action, Bid | NameContract) else ""


def _declaration_label(play: Play, lang: str, tr: Translator) -> str:
    card = card_label(play.card, lang, tr)
    if play.declaration is Declaration.MARRIAGE:
        value = MARRIAGE_VALUES[suit_of(play.card)]
    elif play.declaration is Declaration.ACES:
        value = ACE_MARRIAGE_VALUE
    else:
        value = 0
    return tr.text(lang, f"button-{play.declaration.value}", card=card, value=value)


def _chunks(buttons: Row, size: int) -> list[Row]:
    return [buttons[i : i + size] for i in range(0, len(buttons), size)]


