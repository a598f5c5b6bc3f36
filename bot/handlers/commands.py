"""Slash commands that gather and end a game: /new /join /leave /invite /stop in a group,
/start (deep links) and /solo in private. Replies go through the outbox like every other
message (`bot.handlers.replies`); /kick and /back are `bot.handlers.seats`', /lang /notify
/rules /help `bot.handlers.preferences`'."""

from __future__ import annotations

import html

from telegram import Update

from bot.chats.topics import topic_of_update
from bot.handlers import groups
from bot.handlers.replies import (
    creator_of,
    game_arg,
    group_ids,
    ids_of,
    in_group,
    live_here,
    lobby_here,
    open_lobby,
    reply,
)
from bot.lobby.service import COMPUTER_LEVELS
from bot.ops.logs import logged, note
from bot.records import game_from_argument
from bot.services import Context, Services, services
from bot.telegram.callbacks import MAX_ID
from bot.telegram.links import invite_link
from engine import DEFAULT_GAME, preset
from storage import ChatBusy


@logged("command-new")
async def new(update: Update, context: Context) -> None:
    ids = ids_of(update)
    if ids is None:
        return
    if not in_group(update):
        await reply(update, context, "bot-new-private")
        return
    game, word = game_arg(context)
    if word and game is None:
        await reply(update, context, "bot-new-unknown-game", game=html.escape(word))
        return
    created = await services(context).lobbies.create(
        *ids,
        game or DEFAULT_GAME,
        seated=not groups.anonymous_admin(update),
        topic=topic_of_update(update),
    )
    if created.refusal is not None:
        note(result=created.refusal)
        await reply(update, context, created.refusal)


@logged("command-join")
async def join(update: Update, context: Context) -> None:
    ids = await group_ids(update, context)
    if ids is None:
        return
    if groups.anonymous_admin(update):
        await reply(update, context, "group-anonymous-cannot-sit")
        return
    found = services(context)
    lobby = await lobby_here(update, context, found)
    if lobby is None:
        return
    refusal = await found.lobbies.join(lobby.lobby_id, ids[1])
    if refusal is not None:
        await reply(update, context, refusal)


@logged("command-leave")
async def leave(update: Update, context: Context) -> None:
    ids = await group_ids(update, context)
    if ids is None:
        return
    found = services(context)
    live = live_here(found, update)
    if live is not None and live.seat_of(ids[1]) is not None:
        await reply(update, context, "bot-leave-running")
        return
    lobby = await lobby_here(update, context, found)
    if lobby is None:
        return
    refusal = await found.lobbies.leave(lobby.lobby_id, ids[1])
    if refusal is not None:
        await reply(update, context, refusal)


@logged("command-invite")
async def invite(update: Update, context: Context) -> None:
    ids = await group_ids(update, context)
    if ids is None:
        return
    found = services(context)
    lobby = await lobby_here(update, context, found)
    if lobby is None:
        return
    await reply(
        update, context, "bot-invite", link=invite_link(found.bot_username, lobby.lobby_id)
    )


@logged("command-stop")
async def stop(update: Update, context: Context) -> None:
    ids = ids_of(update)
    if ids is None:
        return
    chat_id, user_id = ids
    found = services(context)
    live = live_here(found, update)
    grouped = in_group(update)
    lobby = await open_lobby(found, update) if grouped else None
    if live is None and lobby is None:
        await reply(update, context, "bot-stop-nothing")
        return
    # In a private chat the match is a /solo one, and its only human may end it.
    if grouped:
        if live is not None:
            creator = await creator_of(found, live)
        else:
            creator = lobby.creator_id if lobby is not None else None
        allowed = user_id == creator or await groups.is_admin(context.bot, chat_id, user_id)
        if not allowed:
            note(result="not-allowed")
            await reply(update, context, "bot-stop-not-allowed")
            return
    lang = await found.language(update)
    user = update.effective_user
    name = html.escape(user.first_name) if user is not None else ""
    if groups.anonymous_admin(update) and update.effective_chat is not None:
        name = html.escape(update.effective_chat.title or "")
    if live is not None:
        await found.games.stop(live, name)
        note(match=live.match_id, result="stopped")
    elif lobby is not None:
        await found.lobbies.cancel(lobby, lang)
        note(lobby=lobby.lobby_id, result="cancelled")


@logged("command-solo")
async def solo(update: Update, context: Context) -> None:
    """/solo [game] [easy|hard]: a match in the private chat against computer players."""
    ids = ids_of(update)
    if ids is None:
        return
    if in_group(update):
        await reply(update, context, "bot-solo-group")
        return
    words = [w.lower() for w in context.args or []]
    games = [game_from_argument(w) for w in words]
    if any(g is None and w not in COMPUTER_LEVELS for g, w in zip(games, words, strict=True)):
        await reply(update, context, "bot-solo-usage")
        return
    game = next((g for g in games if g is not None), DEFAULT_GAME)
    level = next((w for w in words if w in COMPUTER_LEVELS), "hard")
    chat_id, user_id = ids
    found = services(context)
    await found.people.set_opened(user_id, True)
    try:
        live = await found.games.start_solo(chat_id, user_id, preset(game), level)
    except ChatBusy:
        await reply(update, context, "bot-solo-busy")
        return
    note(match=live.match_id, level=level)


@logged("command-start")
async def start(update: Update, context: Context) -> None:
    """/start in private, maybe from a deep link: the private chat is open now, so the hands
    can be delivered; ``join-<lobby>`` also seats the user in that lobby."""
    ids = ids_of(update)
    if ids is None:
        return
    if in_group(update):
        await reply(update, context, "bot-help")
        return
    user_id = ids[1]
    found = services(context)
    await found.people.set_opened(user_id, True)
    payload = context.args[0] if context.args else ""
    note(payload=payload or "-")
    if payload.startswith("join-"):
        await _join_by_link(update, context, found, user_id, payload.removeprefix("join-"))
    else:
        playing = found.games.of_user(user_id)
        await reply(update, context, "bot-start-playing" if playing else "bot-start-hello")
    await found.lobbies.refresh_for(user_id)
    await found.games.opened(user_id)


async def _join_by_link(
    update: Update, context: Context, found: Services, user_id: int, lobby_text: str
) -> None:
    """``/start join-<lobby>``: seat a member of the lobby's group; anyone else, and a link
    to a lobby that does not exist (or no longer), gets a plain answer."""
    lobby_id = int(lobby_text) if lobby_text.isdigit() and int(lobby_text) <= MAX_ID else None
    lobby = await found.store.lobbies.get(lobby_id) if lobby_id is not None else None
    if lobby is None or lobby.status != "open":
        note(result="unknown-lobby")
        await reply(update, context, "start-join-unknown")
        return
    title = html.escape(await _chat_title(found, lobby.chat_id))
    if not await groups.is_member(context.bot, lobby.chat_id, user_id):
        note(result="not-member")
        await reply(update, context, "start-join-not-member", group=title)
        return
    refusal = await found.lobbies.join(lobby.lobby_id, user_id)
    joined = refusal is None or refusal == "lobby-already-seated"
    await reply(update, context, "bot-start-joined" if joined else refusal or "", group=title)


async def _chat_title(found: Services, chat_id: int) -> str:
    chat = await found.store.chats.get(chat_id)
    return chat.title or "" if chat is not None else ""
