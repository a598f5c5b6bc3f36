"""Who someone is in a group, as Telegram says: a member, an administrator, or the group's
anonymous administrator.

An administrator who posts anonymously is shown by Telegram as ``GroupAnonymousBot`` with the
group itself as ``sender_chat``: such a message comes from an administrator of that group by
construction. The bot stores that sender like any user (the lobby's creator refers to it), never
seats it, and lets the group's administrators press the creator's buttons of a lobby it opened.
"""

from __future__ import annotations

import logging
from typing import Final

from telegram import Bot, ChatMember, ChatMemberRestricted, Update
from telegram.error import TelegramError

from bot.chats.people import ANONYMOUS_ADMIN_ID

log = logging.getLogger(__name__)

ADMINS: Final = (ChatMember.ADMINISTRATOR, ChatMember.OWNER)


def anonymous_admin(update: Update) -> bool:
    """Whether the update's message was sent by the chat's anonymous administrator."""
    message = update.effective_message
    chat = update.effective_chat
    return (
        message is not None
        and chat is not None
        and message.sender_chat is not None
        and message.sender_chat.id == chat.id
    )


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether Telegram says the user administers the group (a failure to ask says no)."""
    if user_id == ANONYMOUS_ADMIN_ID:
        return True
    member = await _member(bot, chat_id, user_id)
    return member is not None and member.status in ADMINS


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether Telegram says the user is in the group (a failure to ask says no)."""
    member = await _member(bot, chat_id, user_id)
    if member is None:
        return False
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in (ChatMember.MEMBER, *ADMINS)


async def _member(bot: Bot, chat_id: int, user_id: int) -> ChatMember | None:
    try:
        return await bot.get_chat_member(chat_id, user_id)
    except TelegramError as error:
        log.warning("the status of %s in %s is unknown: %s", user_id, chat_id, error)
        return None
