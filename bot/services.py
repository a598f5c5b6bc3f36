"""The bot's services wired together once at start-up, and how handlers reach them.

The application's ``bot_data`` holds the `Settings` from the start and the `Services` once the
bot is initialized (its username is known only then).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import Application, ContextTypes

from bot.chats.people import People
from bot.i18n import LOCALES_DIR, Translator
from bot.lobby.service import Lobbies
from bot.match.screens import Screens
from bot.match.service import Games
from bot.match.thinking import Thinking
from bot.ops.logs import lock_times
from bot.records.announce import Announcer
from bot.records.ending import Ending
from bot.settings import Settings
from bot.telegram.ledger import Ledger
from bot.telegram.outbox import Outbox
from bot.telegram.relay import SharedOutbox
from storage import Store

AnyApplication = Application[Any, Any, Any, Any, Any, Any]
DB_SWITCH_INTERVAL = 0.0005
"""Seconds a thread waiting for the GIL lets the running one go on (issue 13)."""
Context = ContextTypes.DEFAULT_TYPE


@dataclass(frozen=True)
class Services:
    settings: Settings
    store: Store
    tr: Translator
    people: People
    outbox: Outbox
    screens: Screens
    games: Games
    lobbies: Lobbies
    ledger: Ledger
    thinking: Thinking
    """The process pool computer players think in (closed when the bot stops)."""
    announcer: Announcer
    """Posts the result of every match that ends (`bot.records.announce`)."""

    @property
    def bot_username(self) -> str:
        return self.screens.bot_username

    async def language(self, update: Update) -> str:
        """The language to answer an update in: the group's in a group, else the user's."""
        chat = update.effective_chat
        if chat is not None and chat.type != "private":
            return await self.people.chat_language(chat.id)
        user = update.effective_user
        if user is None:
            return self.people.default_language
        return await self.people.user_language(user.id)


def settings_of(application: AnyApplication) -> Settings:
    settings = application.bot_data.get("settings")
    if not isinstance(settings, Settings):
        raise RuntimeError("the application was not built by bot.app.build_application")
    return settings


def services_of(application: AnyApplication) -> Services:
    services = application.bot_data.get("services")
    if not isinstance(services, Services):
        raise RuntimeError("the bot's services are not started (bot.app.startup)")
    return services


def services(context: Context) -> Services:
    return services_of(context.application)


async def open_services(application: AnyApplication) -> Services:
    """Open the store and wire every service on it; if anything fails, the store (and its
    thread, which would keep the process alive) is closed again."""
    settings = settings_of(application)
    store = await Store.open(settings.database)
    store.db.lock_observer = lock_times
    # The database thread (reads, transactions; the one-trip writes run on the loop's own)
    # takes the GIL back after every statement; while the loop computes, that waits for the
    # switch interval (5 ms by default), several times per transaction.
    sys.setswitchinterval(DB_SWITCH_INTERVAL)
    try:
        return _wire(application, settings, store)
    except BaseException:
        await store.close()
        raise


async def close_services(services: Services) -> None:
    """Close what `open_services` opened, after a failed start (nothing to deliver yet)."""
    try:
        await services.games.close()
        services.thinking.close()
        await services.outbox.close()
    finally:
        await services.store.close()


def _wire(application: AnyApplication, settings: Settings, store: Store) -> Services:
    tr = Translator(LOCALES_DIR, default=settings.default_language)
    people = People(store, settings.default_language)
    ledger = Ledger(store)
    # Several processes may share a PostgreSQL database: one sends (bot.ops.cluster).
    outbox = (SharedOutbox if store.shared else Outbox)(
        application.bot,
        group_rate=settings.group_messages,
        group_window=settings.group_window_seconds,
        on_delivered=ledger.delivered,
    )
    screens = Screens(store, people, outbox, tr, application.bot.username, ledger)
    thinking = Thinking(settings.computer_workers)
    announcer = Announcer(application.bot, outbox, people, tr)

    async def announce(ending: Ending) -> None:
        relay = outbox.relay if isinstance(outbox, SharedOutbox) else None
        if relay is None:
            await announcer.announce(ending)
        else:
            # A follower sends nothing itself: the leader posts the result (bot.ops.cluster).
            relay.ending(
                ending.chat_id, ending.summary.match_id, ending.version, ending.lang,
                ending.result, ending.topic,
            )

    games = Games(
        store,
        people,
        screens,
        tr,
        thinking,
        announce,
        deal_seed=settings.deal_seed,
        job_queue=application.job_queue,
        stand_in=settings.computer_level,
        budget=settings.computer_budget_seconds,
        ping_seconds=settings.ping_seconds,
        option_wait=settings.option_wait_seconds,
    )
    lobbies = Lobbies(
        store,
        people,
        games,
        outbox,
        tr,
        application.bot.username,
        turn_seconds=settings.turn_seconds or None,
    )

    async def forbidden(chat_id: int) -> None:
        if chat_id > 0:
            await people.set_opened(chat_id, False)
            await games.unreachable(chat_id)

    outbox.on_forbidden = forbidden
    found = Services(
        settings, store, tr, people, outbox, screens, games, lobbies, ledger, thinking, announcer
    )
    application.bot_data["services"] = found
    return found
