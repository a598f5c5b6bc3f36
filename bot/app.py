"""The python-telegram-bot application: built from `Settings`, started and stopped.

`build_application` wires the Bot API server, the rate limiter (the outbox's `Pacer`: every
send and edit within Telegram's limits) and the handlers; `startup` opens the services
(storage, outbox, the heartbeat of `bot.ops.health`) as PTB's ``post_init``; `drain` delivers what
is queued as ``post_stop`` — after the updates stopped, while the HTTP client is still open —
and `shutdown` closes the storage as ``post_shutdown``, after PTB closed the client. `running`
starts and stops the application in the same order as ``run_polling``/``run_webhook`` for
callers that drive the event loop themselves (the tests, the load benchmark).
``python -m bot`` runs `prepare` (PTB's ``initialize`` and `startup`) before ``run_polling`` so
that a failure to start is one line (`bot.__main__`); both are no-ops the second time. A
`startup` that fails closes what it opened, so the process can exit.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application, TypeHandler
from telegram.request import HTTPXRequest

from bot.handlers import register
from bot.match.recovery import recover
from bot.ops.cluster import Cluster
from bot.ops.endpoint import HealthEndpoint
from bot.ops.health import Heartbeat, heartbeat_path
from bot.services import AnyApplication, Services, close_services, open_services
from bot.settings import Settings
from bot.telegram.menu import set_profile
from bot.telegram.pacer import Pacer
from storage import StorageError

log = logging.getLogger(__name__)

SHUTDOWN_FLUSH_SECONDS = 5.0
POLL_TIMEOUT = 10
"""Seconds a ``getUpdates`` long poll waits for updates (PTB's default for ``run_polling``)."""
POLL_SLACK = 15.0
"""Polling is unhealthy when ``getUpdates`` went unanswered for two heartbeats and this."""
PROBE_TIMEOUT = 10.0
WEBHOOK_ERROR_SECONDS = 120
"""A webhook delivery error this recent, with updates pending, makes the bot unhealthy."""
GC_THRESHOLDS = (20_000, 20, 10)
"""The collector's generation thresholds (Python's are 700, 10, 10). With those, an object
that lives across a few awaits (a rendered hand waiting for its send, a pending answer) is
promoted to the oldest generation within a fraction of a second, and a full collection of
every game's objects (0.15 s at 500 games, with every press waiting) came every 18 s. Less
frequent young collections let such objects die first (benchmarks/README.md, issue 13)."""


class WatchedRequest(HTTPXRequest):
    """PTB's HTTP client, remembering when Telegram last answered (for the heartbeat)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.answered_at: float | None = None
        """``time.monotonic()`` of the last answer with HTTP status 200."""
        self.last_error: str | None = None

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            status, payload = await super().do_request(*args, **kwargs)
        except TelegramError as error:
            self.last_error = str(error) or type(error).__name__
            raise
        if status == 200:
            self.answered_at = time.monotonic()
            self.last_error = None
        else:
            self.last_error = f"HTTP {status}"
        return status, payload


def build_application(settings: Settings) -> AnyApplication:
    pacer = Pacer(
        overall_rate=settings.messages_per_second,
        group_rate=settings.group_messages,
        group_window=settings.group_window_seconds,
    )
    polls = WatchedRequest(connection_pool_size=1)
    application = (
        Application.builder()
        .token(settings.telegram_bot_token.get_secret_value())
        .base_url(settings.base_url)
        .base_file_url(settings.base_file_url)
        .rate_limiter(pacer)
        .get_updates_request(polls)
        .concurrent_updates(True)
        .post_init(startup)
        .post_stop(drain)
        .post_shutdown(shutdown)
        .build()
    )
    application.bot_data["settings"] = settings
    application.bot_data["polls"] = polls
    application.bot_data["updates"] = 0
    application.add_handler(TypeHandler(Update, _count), group=-2)
    register(application)
    return application


async def _count(update: Update, context: Any) -> None:
    context.application.bot_data["updates"] += 1
    message, services = update.effective_message, context.application.bot_data.get("services")
    if message is not None and isinstance(services, Services):
        # An id in the chat: where the outbox looks for a send whose answer was lost.
        services.outbox.saw(message.chat_id, message.message_id)


async def prepare(application: AnyApplication) -> None:
    """Initialize PTB (``getMe``: the token and the network) and start the services; on a
    failure what was opened is closed again and the error propagates."""
    await application.initialize()
    try:
        await startup(application)
    except BaseException:
        await application.shutdown()
        raise


async def startup(application: AnyApplication) -> None:
    if "services" in application.bot_data:
        return  # started by `prepare` already
    services = await open_services(application)
    cluster: Cluster | None = None
    try:
        # A database that opens but cannot commit (a read-only file or disk) fails the start,
        # instead of every press later.
        await services.store.db.probe_commit()
        cluster = await Cluster.join(services, application.bot, application.stop_running)
        if not cluster.leading and not services.settings.webhook_url:
            # Telegram hands getUpdates to one poller at a time: only webhooks share a token.
            raise StorageError(
                "another bot process of this database polls Telegram: several processes "
                "need webhooks (WEBHOOK_URL behind a reverse proxy)"
            )
        if cluster.leading:
            # A follower (another process of the database leads, issue 17) leaves the
            # commands and the recovery to the leader, which did them at its start.
            await set_profile(application.bot, services.tr, services.people.default_language)
            await recover(services)
        await cluster.run_jobs()
    except BaseException:
        if cluster is not None:
            await cluster.close()
        await close_services(services)
        application.bot_data.pop("services", None)
        raise
    application.bot_data["cluster"] = cluster
    heartbeat = _heartbeat(application, services)
    application.bot_data["heartbeat"] = heartbeat
    heartbeat.start()
    port = services.settings.health_port
    if port is not None:
        endpoint = HealthEndpoint(heartbeat, lambda: _role(application))
        try:
            await endpoint.start(services.settings.webhook_listen, port)
        except BaseException:
            await heartbeat.stop()
            if cluster is not None:
                await cluster.close()
            await close_services(services)
            for name in ("services", "heartbeat", "cluster"):
                application.bot_data.pop(name, None)
            raise
        application.bot_data["endpoint"] = endpoint
    # What is loaded by now (modules, the engine's tables, the recovered matches) lives as
    # long as the process: out of the collector's sight, a full collection no longer walks it
    # and stops every game for a tenth of a second (benchmarks/README.md, the load benchmark).
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    log.info("bot @%s is up", services.bot_username)


async def drain(application: AnyApplication) -> None:
    """Stop the timers and the computer players, then deliver what is queued, for
    `SHUTDOWN_FLUSH_SECONDS` at most (Docker kills after 10 s): PTB calls this after the
    updates stopped and before it closes the HTTP client. What is not delivered by then stays
    in the database outbox and goes at the next start."""
    endpoint = application.bot_data.pop("endpoint", None)
    if isinstance(endpoint, HealthEndpoint):
        await endpoint.close()
    heartbeat = application.bot_data.pop("heartbeat", None)
    if isinstance(heartbeat, Heartbeat):
        await heartbeat.stop()
    services = application.bot_data.get("services")
    if not isinstance(services, Services):
        return  # the start failed and closed what it had opened
    await services.games.close()
    services.thinking.close()
    cluster = application.bot_data.get("cluster")
    if isinstance(cluster, Cluster):
        # Its timers and computer moves stopped: the other processes take them at once.
        await cluster.stop_jobs()
    try:
        await asyncio.wait_for(services.outbox.idle(), SHUTDOWN_FLUSH_SECONDS)
    except TimeoutError:
        log.warning(
            "stopping with %d messages undelivered: kept for the next start", services.outbox.queued
        )
    await services.outbox.close()
    await services.ledger.close()
    application.bot_data.pop("cluster", None)
    if isinstance(cluster, Cluster):
        await cluster.close()


async def shutdown(application: AnyApplication) -> None:
    services = application.bot_data.get("services")
    if isinstance(services, Services):
        await services.store.close()
    # What startup froze may be garbage now (a test's whole application): collectable again.
    gc.unfreeze()


def _role(application: AnyApplication) -> str:
    """``leader`` for the process that sends (the only one, on SQLite), else ``follower``."""
    cluster = application.bot_data.get("cluster")
    return "follower" if isinstance(cluster, Cluster) and not cluster.leading else "leader"


def _heartbeat(application: AnyApplication, services: Services) -> Heartbeat:
    settings = services.settings
    mode = "webhook" if settings.webhook_url else "polling"
    polls = application.bot_data.get("polls")
    stale = 2 * settings.heartbeat_seconds + POLL_SLACK

    async def probe() -> tuple[str | None, dict[str, Any]]:
        details: dict[str, Any] = {
            "updates": application.bot_data.get("updates", 0),
            "queued": services.outbox.queued,
            "waiting": services.outbox.pacer.waiting,
        }
        problem = await _database_problem(services)
        if problem is None and mode == "webhook":
            problem = await _webhook_problem(application, settings)
        elif problem is None and isinstance(polls, WatchedRequest):
            problem = polling_problem(polls, stale, application)
        return problem, details

    return Heartbeat(
        heartbeat_path(settings.database_path), settings.heartbeat_seconds, mode, probe
    )


def polling_problem(
    polls: WatchedRequest, stale: float, application: AnyApplication | None = None
) -> str | None:
    """Why polling is not working, or None: Telegram must have answered ``getUpdates``
    within ``stale`` seconds."""
    updater = application.updater if application is not None else None
    if updater is not None and not updater.running:
        return "the updater is not polling"
    if polls.answered_at is None:
        return "Telegram has not answered getUpdates yet" + _because(polls.last_error)
    age = time.monotonic() - polls.answered_at
    if age > stale:
        return f"Telegram has not answered getUpdates for {age:.0f}s" + _because(polls.last_error)
    return None


def _because(error: str | None) -> str:
    return f" (last error: {error})" if error else ""


async def _database_problem(services: Services) -> str | None:
    """Whether the database commits: a query alone still answers on a full or read-only disk
    while every press fails, so the probe commits a write (`Backend.probe_commit`)."""
    try:
        await asyncio.wait_for(services.store.db.probe_commit(), PROBE_TIMEOUT)
    except TimeoutError:
        return f"the database did not commit within {PROBE_TIMEOUT:.0f}s"
    except Exception as error:
        return f"the database cannot commit: {error!r}"
    return None


async def _webhook_problem(application: AnyApplication, settings: Settings) -> str | None:
    try:
        info = await asyncio.wait_for(application.bot.get_webhook_info(), PROBE_TIMEOUT)
    except (TimeoutError, TelegramError) as error:
        return f"Telegram did not answer getWebhookInfo: {error!r}"
    if info.url != settings.webhook_url:
        return f"the webhook registered with Telegram is {info.url!r}, not ours"
    if info.pending_update_count and info.last_error_date is not None:
        age = time.time() - info.last_error_date.timestamp()
        if age <= WEBHOOK_ERROR_SECONDS:
            return (
                f"Telegram cannot deliver {info.pending_update_count} updates: "
                f"{info.last_error_message}"
            )
    return None


@asynccontextmanager
async def running(
    application: AnyApplication, *, poll_timeout: int = POLL_TIMEOUT
) -> AsyncIterator[None]:
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
        # run_polling's order: the hooks run where PTB runs them.
        await application.updater.stop()
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
        await application.shutdown()
        if application.post_shutdown is not None:
            await application.post_shutdown(application)
