"""The python-telegram-bot application: built from `Settings`, started and stopped.

`build_application` wires the Bot API server, the rate limiter and the handlers;
`startup`/`shutdown` open and close the services (storage, outbox) around it — as PTB's
``post_init``/``post_shutdown`` under ``run_polling``, and through `running` for callers that
drive the event loop themselves (the tests).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import BotCommand, Update
from telegram.ext import AIORateLimiter, Application

from bot.handlers import COMMANDS, register
from bot.recovery import recover
from bot.services import AnyApplication, Services, open_services, services_of
from bot.settings import Settings

log = logging.getLogger(__name__)

SHUTDOWN_FLUSH_SECONDS = 5.0
MENU = [name for name in COMMANDS if name != "start"]


def build_application(settings: Settings) -> AnyApplication:
    limiter = AIORateLimiter(
        overall_max_rate=settings.messages_per_second,
        overall_time_period=1,
        group_max_rate=settings.group_messages,
        group_time_period=settings.group_window_seconds,
        max_retries=0,
    )
    application = (
        Application.builder()
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .rate_limiter(limiter)
        .concurrent_updates(True)
        .post_init(startup)
        .post_shutdown(shutdown)
        .build()
    )
    application.bot_data["settings"] = settings
    register(application)
    return application


async def startup(application: AnyApplication) -> None:
    services = await open_services(application)
    await _set_commands(application, services)
    await recover(services)
    log.info("bot @%s is up", services.bot_username)


async def shutdown(application: AnyApplication) -> None:
    services = services_of(application)
    try:
        await asyncio.wait_for(services.outbox.idle(), SHUTDOWN_FLUSH_SECONDS)
    except TimeoutError:
        log.warning("shutting down with messages still queued")
    await services.outbox.close()
    await services.store.close()


async def _set_commands(application: AnyApplication, services: Services) -> None:
    tr = services.tr
    for lang in tr.languages():
        commands = [BotCommand(name, tr.text(lang, f"bot-command-{name}")) for name in MENU]
        await application.bot.set_my_commands(commands, language_code=lang)
    default = services.people.default_language
    await application.bot.set_my_commands(
        [BotCommand(name, tr.text(default, f"bot-command-{name}")) for name in MENU]
    )


@asynccontextmanager
async def running(application: AnyApplication, *, poll_timeout: int = 10) -> AsyncIterator[None]:
    """Run the bot with long polling inside the caller's event loop."""
    await application.initialize()
    await startup(application)
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(
        poll_interval=0, timeout=poll_timeout, allowed_updates=Update.ALL_TYPES
    )
    try:
        yield
    finally:
        await application.updater.stop()
        await application.stop()
        await shutdown(application)
        await application.shutdown()
