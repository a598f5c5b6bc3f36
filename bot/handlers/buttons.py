"""Inline button presses: lobby buttons go to the lobby service, game buttons to the game
service, the page buttons of /top and /history to `bot.handlers.records`, each only if it was
pressed where such a button is shown (`bot.handlers.origin`); every press is answered at once,
refusals as toasts. The data is decoded once, here; a press that ends a match has its result
announced by the match service (`bot.records.announce`)."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update
from telegram.error import TelegramError

from bot.chats.people import ANONYMOUS_ADMIN_ID
from bot.handlers import groups, origin, records
from bot.match.service import MAX_PLAYERS
from bot.ops.logs import logged, note
from bot.services import Context, services
from bot.telegram.callbacks import (
    ActionPress,
    LobbyPress,
    MenuPress,
    PagePress,
    StalePage,
    decode,
)

log = logging.getLogger(__name__)


@logged("press")
async def press(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None:
        return
    found = services(context)
    user_id = query.from_user.id
    lang = await found.people.user_language(user_id)
    decoded = decode(query.data, MAX_PLAYERS)
    refusal: str | None = None
    toast = ""
    if isinstance(decoded, PagePress):
        refusal = origin.page_refusal(query, decoded)
        if refusal is None:
            toast = await records.turn_page(query, found, decoded, lang)
    elif isinstance(decoded, StalePage):
        # A page button drawn before pages had their own kind of button.
        note(result="stale-page")
        toast = found.tr.text(lang, "press-page-stale")
    elif isinstance(decoded, LobbyPress):
        lobby = await found.store.lobbies.get(decoded.lobby_id)
        refusal = "lobby-closed" if lobby is None else origin.lobby_refusal(query, lobby)
        if refusal is None and lobby is not None:
            # A lobby an anonymous admin opened is run by the group's admins.
            as_creator = lobby.creator_id == ANONYMOUS_ADMIN_ID and await groups.is_admin(
                context.bot, lobby.chat_id, user_id
            )
            toast = await found.lobbies.press(user_id, decoded, lang, as_creator=as_creator)
    elif isinstance(decoded, ActionPress | MenuPress):
        refusal = origin.game_refusal(query)
        if refusal is None:
            toast = await found.games.press(user_id, decoded)
    else:
        note(result="forged")
        toast = found.tr.text(lang, "press-outdated")
    if refusal is not None:
        note(result=refusal)
        toast = found.tr.text(lang, refusal)
    await answer(query, toast)


async def answer(query: CallbackQuery, toast: str) -> None:
    """Answer a press; a failure here (the query expired, a 429) must not undo the press."""
    try:
        await query.answer(toast or None)
    except TelegramError as error:
        log.warning("could not answer callback query %s: %s", query.id, error)
