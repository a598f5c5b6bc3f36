"""What the command handlers share: who and where a command came from, the reply in the
chat's (or the user's) language through the outbox, the game a command names (the words of
`bot.records.game_from_argument`, one list for every command), the chat's open lobby and the
creator of its match. "Where" is the chat and, in a forum, its topic (`bot.chats.topics`):
the reply goes to the command's topic, and the lobby or match found is that topic's."""

from __future__ import annotations

from dataclasses import replace

from telegram import Update
from telegram.constants import ChatType

from bot.chats.topics import topic_of_update
from bot.match.live import LiveMatch
from bot.records import game_from_argument
from bot.services import Context, Services, services
from bot.telegram.outbox import Content
from engine import Game
from storage import Lobby


async def reply(update: Update, context: Context, message_id: str, **args: str | int) -> None:
    found = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    lang = await found.language(update)
    answer(found, update, Content(found.tr.text(lang, message_id, **args)))


def answer(found: Services, update: Update, content: Content) -> None:
    """Post ``content`` in the chat the update came from, in its forum topic."""
    if update.effective_chat is not None:
        found.outbox.post(
            update.effective_chat.id, replace(content, topic=topic_of_update(update))
        )


def in_group(update: Update) -> bool:
    return update.effective_chat is not None and update.effective_chat.type in (
        ChatType.GROUP,
        ChatType.SUPERGROUP,
    )


def ids_of(update: Update) -> tuple[int, int] | None:
    if update.effective_chat is None or update.effective_user is None:
        return None
    return update.effective_chat.id, update.effective_user.id


def game_arg(context: Context) -> tuple[Game | None, str]:
    """The game named in the command's argument (None without one) and the word itself."""
    word = context.args[0].lower() if context.args else ""
    return (game_from_argument(word) if word else None), word


async def open_lobby(found: Services, update: Update) -> Lobby | None:
    """The open lobby of the chat (of its forum topic) the update came from."""
    if update.effective_chat is None:
        return None
    return await found.store.lobbies.open_in_chat(
        update.effective_chat.id, topic_of_update(update)
    )


def live_here(found: Services, update: Update) -> LiveMatch | None:
    """The running match of the chat (of its forum topic) the update came from."""
    if update.effective_chat is None:
        return None
    return found.games.in_chat(update.effective_chat.id, topic_of_update(update))


async def creator_of(found: Services, live: LiveMatch) -> int | None:
    if live.row.lobby_id is None:
        return None
    lobby = await found.store.lobbies.get(live.row.lobby_id)
    return lobby.creator_id if lobby is not None else None


async def group_ids(update: Update, context: Context) -> tuple[int, int] | None:
    """The chat and the user of a command that works in groups only; elsewhere it says so."""
    ids = ids_of(update)
    if ids is None or not in_group(update):
        await reply(update, context, "bot-group-only")
        return None
    return ids


async def lobby_here(update: Update, context: Context, found: Services) -> Lobby | None:
    """The open lobby here; without one the command is told there is none (or, while a match
    runs here, that the next lobby opens after it)."""
    lobby = await open_lobby(found, update)
    if lobby is None:
        running = live_here(found, update) is not None
        await reply(update, context, "bot-no-lobby-running" if running else "bot-no-lobby")
    return lobby
