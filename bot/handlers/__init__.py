"""Telegram updates to services, and nothing else: one module per kind of update, registered
by `register` — `commands` (/new /join /leave /invite /stop /solo /start), `seats` (/kick
/back), `preferences` (/lang /notify /rules /help), `records` (/stats /top /history /score
/export and the page buttons), `buttons` (every button press, checked by `origin`),
`members` (membership changes), `errors`; `replies` and `groups` are what they share.

Commands are taken from new messages only: an edited message, a forward, a linked channel's
automatic forward or a post on behalf of a channel opens nothing (a group's anonymous
administrator posts on behalf of the group itself, and is heard).
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import (
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.handlers import buttons, commands, errors, members, preferences, records, seats
from bot.services import AnyApplication, Context, services

COMMANDS = {
    "start": commands.start,
    "new": commands.new,
    "join": commands.join,
    "leave": commands.leave,
    "invite": commands.invite,
    "stop": commands.stop,
    "kick": seats.kick,
    "back": seats.back,
    "notify": preferences.notify,
    "solo": commands.solo,
    "score": records.score,
    "stats": records.stats,
    "top": records.top,
    "history": records.history,
    "export": records.export,
    "lang": preferences.lang,
    "rules": preferences.rules,
    "help": preferences.help_command,
}


COMMAND_MESSAGES = (
    filters.UpdateType.MESSAGE
    & ~filters.FORWARDED
    & ~filters.IS_AUTOMATIC_FORWARD
    & ~filters.SenderChat.CHANNEL
)


async def _remember(update: Update, context: Context) -> None:
    # Users and chats must be stored before anything refers to them (foreign keys).
    found = services(context)
    await found.people.remember(update)
    # After a restart the matches load lazily: the update's chat's and user's come first.
    chat, user = update.effective_chat, update.effective_user
    await found.games.load_for(
        None if chat is None else chat.id, None if user is None else user.id
    )


def register(application: AnyApplication) -> None:
    application.add_handler(TypeHandler(Update, _remember), group=-1)
    for name, callback in COMMANDS.items():
        application.add_handler(CommandHandler(name, callback, filters=COMMAND_MESSAGES))
    application.add_handler(CallbackQueryHandler(buttons.press))
    application.add_handler(
        MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, members.left_message)
    )
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, members.migrated))
    application.add_handler(
        ChatMemberHandler(members.member_changed, ChatMemberHandler.CHAT_MEMBER)
    )
    application.add_handler(
        ChatMemberHandler(members.bot_blocked_or_not, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(errors.on_error)
