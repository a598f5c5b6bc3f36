"""Slash commands: /new /join /leave /invite /kick in a group, /start (deep links) and /solo
in private, and /stop /back /lang /rules /help anywhere. Replies go through the outbox like
every other message.

/kick hands a human's seat to a computer player for the rest of the match (issue 6): at once
when the game's creator asks or the player asks for their own seat, else when every other
human player of the match has asked for the same seat. Votes live with the running match in
memory. /back gives the seat back to its human."""

from __future__ import annotations

import html

from telegram import Update
from telegram.constants import ChatType

from bot.handlers import groups
from bot.i18n import SUPPORTED_LANGUAGES
from bot.lobby.service import COMPUTER_LEVELS
from bot.match.live import LiveMatch
from bot.ops.logs import logged, note
from bot.render import render_rules
from bot.services import Context, Services, services
from bot.telegram.callbacks import MAX_ID
from bot.telegram.links import invite_link
from bot.telegram.outbox import Content
from engine import DEFAULT_GAME, Game, preset
from storage import ChatBusy, Lobby

GAME_NAMES = {
    "thousand": Game.THOUSAND,
    "1000": Game.THOUSAND,
    "тысяча": Game.THOUSAND,
    "thousand-one": Game.THOUSAND_ONE,
    "1001": Game.THOUSAND_ONE,
    "тысяча-одно": Game.THOUSAND_ONE,
    "tumbochka": Game.TUMBOCHKA,
    "тумбочка": Game.TUMBOCHKA,
}


async def _reply(update: Update, context: Context, message_id: str, **args: str | int) -> None:
    found = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    lang = await found.language(update)
    found.outbox.post(chat.id, Content(found.tr.text(lang, message_id, **args)))


def _in_group(update: Update) -> bool:
    return update.effective_chat is not None and update.effective_chat.type in (
        ChatType.GROUP,
        ChatType.SUPERGROUP,
    )


def _ids(update: Update) -> tuple[int, int] | None:
    if update.effective_chat is None or update.effective_user is None:
        return None
    return update.effective_chat.id, update.effective_user.id


def _game_arg(context: Context) -> tuple[Game | None, str]:
    """The game named in the command's argument (None without one) and the word itself."""
    word = context.args[0].lower() if context.args else ""
    return GAME_NAMES.get(word), word


@logged("command-new")
async def new(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None:
        return
    if not _in_group(update):
        await _reply(update, context, "bot-new-private")
        return
    game, word = _game_arg(context)
    if word and game is None:
        await _reply(update, context, "bot-new-unknown-game", game=html.escape(word))
        return
    created = await services(context).lobbies.create(
        *ids, game or DEFAULT_GAME, seated=not groups.anonymous_admin(update)
    )
    if created.refusal is not None:
        note(result=created.refusal)
        await _reply(update, context, created.refusal)


async def _open_lobby(found: Services, chat_id: int) -> Lobby | None:
    return await found.store.lobbies.open_in_chat(chat_id)


@logged("command-join")
async def join(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None or not _in_group(update):
        await _reply(update, context, "bot-group-only")
        return
    if groups.anonymous_admin(update):
        await _reply(update, context, "group-anonymous-cannot-sit")
        return
    found = services(context)
    lobby = await _open_lobby(found, ids[0])
    if lobby is None:
        await _reply(update, context, "bot-no-lobby")
        return
    refusal = await found.lobbies.join(lobby.lobby_id, ids[1])
    if refusal is not None:
        await _reply(update, context, refusal)


@logged("command-leave")
async def leave(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None or not _in_group(update):
        await _reply(update, context, "bot-group-only")
        return
    found = services(context)
    live = found.games.in_chat(ids[0])
    if live is not None and live.seat_of(ids[1]) is not None:
        await _reply(update, context, "bot-leave-running")
        return
    lobby = await _open_lobby(found, ids[0])
    if lobby is None:
        await _reply(update, context, "bot-no-lobby")
        return
    refusal = await found.lobbies.leave(lobby.lobby_id, ids[1])
    if refusal is not None:
        await _reply(update, context, refusal)


@logged("command-invite")
async def invite(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None or not _in_group(update):
        await _reply(update, context, "bot-group-only")
        return
    found = services(context)
    lobby = await _open_lobby(found, ids[0])
    if lobby is None:
        await _reply(update, context, "bot-no-lobby")
        return
    await _reply(
        update, context, "bot-invite", link=invite_link(found.bot_username, lobby.lobby_id)
    )


@logged("command-stop")
async def stop(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None:
        return
    chat_id, user_id = ids
    found = services(context)
    live = found.games.in_chat(chat_id)
    in_group = _in_group(update)
    lobby = await _open_lobby(found, chat_id) if in_group else None
    if live is None and lobby is None:
        await _reply(update, context, "bot-stop-nothing")
        return
    # In a private chat the match is a /solo one, and its only human may end it.
    if in_group:
        if live is not None:
            creator = await _creator_of(found, live)
        else:
            creator = lobby.creator_id if lobby is not None else None
        allowed = user_id == creator or await groups.is_admin(context.bot, chat_id, user_id)
        if not allowed:
            note(result="not-allowed")
            await _reply(update, context, "bot-stop-not-allowed")
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


async def _creator_of(found: Services, live: LiveMatch) -> int | None:
    if live.row.lobby_id is None:
        return None
    lobby = await found.store.lobbies.get(live.row.lobby_id)
    return lobby.creator_id if lobby is not None else None


def _kick_target(update: Update, context: Context, live: LiveMatch) -> int | None:
    """The seat /kick names: the author of the message it replies to, a seat number, or
    else the seat whose turn it is."""
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    if replied is not None and replied.from_user is not None:
        return live.seat_of(replied.from_user.id)
    if context.args:
        word = context.args[0]
        if word.isdigit() and 1 <= int(word) <= live.row.players:
            return int(word) - 1
        return None
    return live.state.turn


@logged("command-kick")
async def kick(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None or not _in_group(update):
        await _reply(update, context, "bot-group-only")
        return
    chat_id, user_id = ids
    found = services(context)
    live = found.games.in_chat(chat_id)
    if live is None:
        await _reply(update, context, "bot-kick-nothing")
        return
    seat = _kick_target(update, context, live)
    if seat is None:
        await _reply(update, context, "bot-kick-who")
        return
    place = live.row.seats[seat]
    if place.user_id is None or place.replaced_by_computer:
        await _reply(update, context, "bot-kick-not-human")
        return
    voters = {
        s.user_id
        for s in live.row.seats
        if s.user_id is not None and not s.replaced_by_computer and s.seat != seat
    }
    at_once = user_id in (place.user_id, await _creator_of(found, live))
    if not at_once and user_id not in voters:
        note(result="not-allowed")
        await _reply(update, context, "bot-kick-not-player")
        return
    lang = await found.language(update)
    name = html.escape((await found.screens.names(live, lang))[seat])
    votes = live.kick_votes.setdefault(seat, set())
    votes.add(user_id)
    if not at_once and not voters <= votes:
        voter = html.escape(update.effective_user.first_name if update.effective_user else "")
        note(result="vote", seat=seat)
        await _reply(
            update,
            context,
            "bot-kick-vote",
            voter=voter,
            name=name,
            votes=len(votes & voters),
            needed=len(voters),
        )
        return
    live.kick_votes.pop(seat, None)
    if await found.games.replace(live, seat, found.tr.text(lang, "bot-kick-done", name=name)):
        note(result="kicked", seat=seat)


@logged("command-back")
async def back(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None:
        return
    user_id = ids[1]
    found = services(context)
    returned = False
    for live in found.games.of_user(user_id):
        seat = live.seat_of(user_id)
        if seat is None or not live.row.seats[seat].replaced_by_computer:
            continue
        lang = await found.people.chat_language(live.chat_id)
        user = update.effective_user
        name = html.escape(user.first_name if user is not None else "")
        text = found.tr.text(lang, "bot-back-done", name=name)
        returned = await found.games.give_back(live, seat, text) or returned
    note(result="back" if returned else "nothing")
    if not returned:
        await _reply(update, context, "bot-back-nothing")


@logged("command-notify")
async def notify(update: Update, context: Context) -> None:
    """/notify [on|off]: whether a new message tells the user it is their turn (a bare
    /notify switches)."""
    ids = _ids(update)
    if ids is None:
        return
    user_id = ids[1]
    found = services(context)
    words = [w.lower() for w in context.args or []]
    if words and words[0] not in ("on", "off"):
        await _reply(update, context, "bot-notify-usage")
        return
    on = words[0] == "on" if words else not await found.people.pings(user_id)
    await found.people.set_pings(user_id, on)
    note(result="on" if on else "off")
    await _reply(update, context, "bot-notify-on" if on else "bot-notify-off")


@logged("command-solo")
async def solo(update: Update, context: Context) -> None:
    """/solo [game] [easy|hard]: a match in the private chat against computer players."""
    ids = _ids(update)
    if ids is None:
        return
    if _in_group(update):
        await _reply(update, context, "bot-solo-group")
        return
    words = [w.lower() for w in context.args or []]
    if any(w not in GAME_NAMES and w not in COMPUTER_LEVELS for w in words):
        await _reply(update, context, "bot-solo-usage")
        return
    game = next((GAME_NAMES[w] for w in words if w in GAME_NAMES), DEFAULT_GAME)
    level = next((w for w in words if w in COMPUTER_LEVELS), "hard")
    chat_id, user_id = ids
    found = services(context)
    await found.people.set_opened(user_id, True)
    try:
        live = await found.games.start_solo(chat_id, user_id, preset(game), level)
    except ChatBusy:
        await _reply(update, context, "bot-solo-busy")
        return
    note(match=live.match_id, level=level)


@logged("command-lang")
async def lang(update: Update, context: Context) -> None:
    ids = _ids(update)
    if ids is None:
        return
    chat_id, user_id = ids
    chosen = context.args[0].lower() if context.args else ""
    if chosen not in SUPPORTED_LANGUAGES:
        await _reply(update, context, "bot-lang-usage", languages=" | ".join(SUPPORTED_LANGUAGES))
        return
    found = services(context)
    if _in_group(update):
        await found.people.set_chat_language(chat_id, chosen)
        lobby = await _open_lobby(found, chat_id)
        if lobby is not None:
            await found.lobbies.show(lobby)
        live = found.games.in_chat(chat_id)
        if live is not None:
            await found.screens.show_table(live)
    else:
        await found.people.set_user_language(user_id, chosen)
        for live in found.games.of_user(user_id):
            seat = live.seat_of(user_id)
            if seat is not None:
                await found.screens.show_hand(live, seat)
    note(language=chosen)
    await _reply(update, context, "bot-lang-set")


@logged("command-rules")
async def rules(update: Update, context: Context) -> None:
    """/rules [game]: the named game, else the game running here, else Тысяча."""
    chat = update.effective_chat
    if chat is None:
        return
    found = services(context)
    game, word = _game_arg(context)
    if word and game is None:
        await _reply(update, context, "bot-new-unknown-game", game=html.escape(word))
        return
    if game is None:
        live = found.games.in_chat(chat.id)
        game = live.state.rules.game if live is not None else DEFAULT_GAME
    lang = await found.language(update)
    found.outbox.post(chat.id, Content(render_rules(game, lang, found.tr)))


@logged("command-help")
async def help_command(update: Update, context: Context) -> None:
    await _reply(update, context, "bot-help")


@logged("command-start")
async def start(update: Update, context: Context) -> None:
    """/start in private, maybe from a deep link: the private chat is open now, so the hands
    can be delivered; ``join-<lobby>`` also seats the user in that lobby."""
    ids = _ids(update)
    if ids is None:
        return
    if _in_group(update):
        await _reply(update, context, "bot-help")
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
        await _reply(update, context, "bot-start-playing" if playing else "bot-start-hello")
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
        await _reply(update, context, "start-join-unknown")
        return
    title = html.escape(await _chat_title(found, lobby.chat_id))
    if not await groups.is_member(context.bot, lobby.chat_id, user_id):
        note(result="not-member")
        await _reply(update, context, "start-join-not-member", group=title)
        return
    refusal = await found.lobbies.join(lobby.lobby_id, user_id)
    joined = refusal is None or refusal == "lobby-already-seated"
    await _reply(update, context, "bot-start-joined" if joined else refusal or "", group=title)


async def _chat_title(found: Services, chat_id: int) -> str:
    chat = await found.store.chats.get(chat_id)
    return chat.title or "" if chat is not None else ""
