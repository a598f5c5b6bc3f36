"""Commands about the bot itself, anywhere: /lang (the chat's or the user's language, the
game's messages redrawn in it), /notify (whether a new message tells the player it is their
turn), /rules [game] and /help."""

from __future__ import annotations

import html

from telegram import Update

from bot.handlers.replies import answer, game_arg, ids_of, in_group, live_here, reply
from bot.i18n import SUPPORTED_LANGUAGES
from bot.ops.logs import logged, note
from bot.render import render_rules
from bot.services import Context, services
from bot.telegram.outbox import Content
from engine import DEFAULT_GAME


@logged("command-notify")
async def notify(update: Update, context: Context) -> None:
    """/notify [on|off]: whether a new message tells the user it is their turn (a bare
    /notify switches)."""
    ids = ids_of(update)
    if ids is None:
        return
    user_id = ids[1]
    found = services(context)
    words = [w.lower() for w in context.args or []]
    if words and words[0] not in ("on", "off"):
        await reply(update, context, "bot-notify-usage")
        return
    on = words[0] == "on" if words else not await found.people.pings(user_id)
    await found.people.set_pings(user_id, on)
    note(result="on" if on else "off")
    await reply(update, context, "bot-notify-on" if on else "bot-notify-off")


@logged("command-lang")
async def lang(update: Update, context: Context) -> None:
    ids = ids_of(update)
    if ids is None:
        return
    chat_id, user_id = ids
    chosen = context.args[0].lower() if context.args else ""
    if chosen not in SUPPORTED_LANGUAGES:
        await reply(update, context, "bot-lang-usage", languages=" | ".join(SUPPORTED_LANGUAGES))
        return
    found = services(context)
    if in_group(update):
        await found.people.set_chat_language(chat_id, chosen)
        for lobby in await found.store.lobbies.open_in_group(chat_id):
            await found.lobbies.show(lobby)
        for live in found.games.in_group(chat_id):
            await found.screens.show_table(live)
    else:
        await found.people.set_user_language(user_id, chosen)
        for live in found.games.of_user(user_id):
            seat = live.seat_of(user_id)
            if seat is not None:
                await found.screens.show_hand(live, seat)
    note(language=chosen)
    await reply(update, context, "bot-lang-set")


@logged("command-rules")
async def rules(update: Update, context: Context) -> None:
    """/rules [game]: the named game, else the game running here, else Тысяча."""
    chat = update.effective_chat
    if chat is None:
        return
    found = services(context)
    game, word = game_arg(context)
    if word and game is None:
        await reply(update, context, "bot-new-unknown-game", game=html.escape(word))
        return
    if game is None:
        live = live_here(found, update)
        game = live.state.rules.game if live is not None else DEFAULT_GAME
    lang = await found.language(update)
    answer(found, update, Content(render_rules(game, lang, found.tr)))


@logged("command-help")
async def help_command(update: Update, context: Context) -> None:
    await reply(update, context, "bot-help")
