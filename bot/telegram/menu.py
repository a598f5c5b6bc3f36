"""The bot's profile in Telegram, set at every start: the command menu per scope (group chats,
private chats) and per language, and the bot's description and short description.

A group's menu holds what a group does (/new, /join, /kick, /top, ...), a private chat's what
is done there (/solo, /export, ...); the default scope, which Telegram shows where neither
applies, lists the commands that work everywhere. Every language of ``locales/`` gets its own
texts, and the operator's default language is also the texts without a language code.

All of it is cosmetic: a failure (a 429, a network error) is logged in one line and the bot
starts anyway.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from bot.i18n import Translator

log = logging.getLogger(__name__)

GROUP_COMMANDS: Final = (
    "new", "join", "leave", "invite", "stop", "kick", "back",
    "score", "stats", "top", "history", "lang", "rules", "help",
)
PRIVATE_COMMANDS: Final = (
    "solo", "stop", "back", "notify", "score", "stats", "export", "lang", "rules", "help",
)
EVERYWHERE: Final = tuple(name for name in GROUP_COMMANDS if name in PRIVATE_COMMANDS)
SCOPES: Final[tuple[tuple[BotCommandScope, Sequence[str]], ...]] = (
    (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
    (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
    (BotCommandScopeDefault(), EVERYWHERE),
)


async def set_profile(bot: Bot, tr: Translator, default_language: str) -> None:
    """Set the menus and descriptions in every language; the first failure ends it with one
    log line (Telegram keeps what an earlier start set)."""
    languages: list[tuple[str, str | None]] = [(lang, lang) for lang in tr.languages()]
    languages.append((default_language, None))
    try:
        for lang, code in languages:
            for scope, names in SCOPES:
                await bot.set_my_commands(
                    [BotCommand(name, tr.text(lang, f"bot-command-{name}")) for name in names],
                    scope=scope,
                    language_code=code,
                )
            await bot.set_my_description(tr.text(lang, "bot-description"), language_code=code)
            await bot.set_my_short_description(
                tr.text(lang, "bot-short-description"), language_code=code
            )
    except TelegramError as error:
        log.warning("the command menu and description are not set (the bot runs without): %s",
                    error)
