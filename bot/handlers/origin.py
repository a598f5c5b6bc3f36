"""Where a press came from: the message a button was pressed on must be the one that shows
such a button, so forged or misplaced callback data changes nothing (issue 12).

* A lobby button belongs to its lobby's message, in the lobby's group: a press carrying the
  id of another group's lobby, or pressed on another message, is refused.
* A game button belongs to the presser's hand, which lives in their private chat with the
  bot: a game press in a group (on the table, a lobby, anything) is refused. Which seat and
  version it may act for is the match service's check (`bot.match.presses`).
* A /top or /history page button belongs to a page message, one whose keyboard holds page
  buttons of the same kind: pressed on a lobby, a table or a hand it would replace that
  message with a page, so it is refused.

Each check returns the id of the refusal's text, or None when the press may go on.
"""

from __future__ import annotations

from telegram import CallbackQuery, Message

from bot.telegram.callbacks import PagePress, decode
from storage import Lobby

WRONG_MESSAGE = "press-wrong-message"


def lobby_refusal(query: CallbackQuery, lobby: Lobby) -> str | None:
    pressed_on = query.message
    if pressed_on is None or pressed_on.chat.id != lobby.chat_id:
        return WRONG_MESSAGE
    if lobby.message_id is not None and pressed_on.message_id != lobby.message_id:
        return WRONG_MESSAGE
    return None


def game_refusal(query: CallbackQuery) -> str | None:
    pressed_on = query.message
    if pressed_on is None or pressed_on.chat.id != query.from_user.id:
        return WRONG_MESSAGE
    return None


def page_refusal(query: CallbackQuery, press: PagePress) -> str | None:
    pressed_on = query.message
    if not isinstance(pressed_on, Message) or pressed_on.reply_markup is None:
        return WRONG_MESSAGE
    for row in pressed_on.reply_markup.inline_keyboard:
        for button in row:
            data = button.callback_data
            shown = decode(data, 0) if isinstance(data, str) else None
            if isinstance(shown, PagePress) and shown.kind == press.kind:
                return None
    return WRONG_MESSAGE

