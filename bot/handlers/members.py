"""Membership changes. A member who leaves the group (or is removed) loses their lobby seat;
in a running match their seat stays: the hand lives in the private chat, so they can still
play, and the group can /stop the match. A user who blocks the bot gets the table's link.
The bot removed from a group stops the group's game, and a group upgraded to a supergroup
takes its game along (`bot.chats.life`)."""

from __future__ import annotations

from telegram import Chat, ChatMember, Update
from telegram.constants import ChatType
from telegram.error import ChatMigrated, TelegramError

from bot.chats import life as chat_life
from bot.ops.logs import logged, note
from bot.services import Context, services

GONE = (ChatMember.LEFT, ChatMember.BANNED)


@logged("member-left")
async def left_message(update: Update, context: Context) -> None:
    message = update.effective_message
    if message is None or message.left_chat_member is None:
        return
    note(left=message.left_chat_member.id)
    await services(context).lobbies.member_left(message.chat_id, message.left_chat_member.id)


@logged("member-changed")
async def member_changed(update: Update, context: Context) -> None:
    change = update.chat_member
    if change is None or change.new_chat_member.status not in GONE:
        return
    user_id = change.new_chat_member.user.id
    note(left=user_id)
    await services(context).lobbies.member_left(change.chat.id, user_id)


@logged("bot-status")
async def bot_blocked_or_not(update: Update, context: Context) -> None:
    change = update.my_chat_member
    if change is None:
        return
    found = services(context)
    if change.chat.type != "private":
        if change.new_chat_member.status in GONE:
            await _left_group(context, change.chat)
        return
    user_id = change.chat.id
    if change.new_chat_member.status in GONE:
        note(result="blocked")
        await found.people.set_opened(user_id, False)
        await found.games.unreachable(user_id)
    else:
        note(result="unblocked")
        await found.people.set_opened(user_id, True)
        await found.games.opened(user_id)


async def _left_group(context: Context, chat: Chat) -> None:
    """The bot is no longer in the group, or the group became a supergroup (Telegram may say
    "left" of the old group before it says "migrated": the old group then answers getChat
    with the new id)."""
    found = services(context)
    if chat.type == ChatType.GROUP:
        try:
            await context.bot.get_chat(chat.id)
        except ChatMigrated as moved:
            note(result="migrated")
            await chat_life.migrated(found, chat.id, moved.new_chat_id)
            return
        except TelegramError:
            pass  # a group the bot cannot see any more: it was removed
    note(result="removed")
    await chat_life.bot_removed(found, chat.id, chat.title or "")


@logged("migrated")
async def migrated(update: Update, context: Context) -> None:
    """A basic group became a supergroup: Telegram says so in both chats."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id is not None:
        old, new = message.chat_id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old, new = message.migrate_from_chat_id, message.chat_id
    else:
        return
    moved = await chat_life.migrated(services(context), old, new)
    note(old=old, new=new, result="moved" if moved else "nothing")
