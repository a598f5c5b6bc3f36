"""``python -m bot`` (the ``tysyacha`` script): read the settings, then poll Telegram (or serve
a webhook when ``WEBHOOK_URL`` is set) until stopped.

A start that cannot work ends in one line on standard error and a non-zero exit code, never in
a traceback: bad settings (exit 2); a token Telegram rejects, Telegram out of reach, or a
database that cannot be opened or written, a webhook port that is taken (exit 1).

A webhook is never served without a secret token (`webhook_secret`). Several webhook workers
of one token share a PostgreSQL database (``DATABASE_URL``, issue 17): only the leader among
them (`bot.ops.cluster`) registers the webhook; they all need the same ``WEBHOOK_SECRET``.
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import sys
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from telegram import Update
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import Updater

from bot.app import build_application, prepare
from bot.ops.cluster import Cluster
from bot.ops.endpoint import EndpointError
from bot.ops.logs import configure
from bot.services import AnyApplication
from bot.settings import TOKEN_MISSING, Settings
from storage import StorageError, is_postgres

EXIT_BAD_SETTINGS = 2
EXIT_START_FAILED = 1


def load_settings() -> Settings:
    """The settings, or a one-line error per problem and exit code 2 (no traceback)."""
    try:
        return Settings()  # type: ignore[call-arg]  # pydantic-settings reads the environment
    except ValidationError as error:
        for problem in error.errors():
            field = ".".join(str(part) for part in problem["loc"])
            if field == "telegram_bot_token" and problem["type"] == "missing":
                print(TOKEN_MISSING, file=sys.stderr)
            else:
                print(f"{field.upper()}: {problem['msg']}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_SETTINGS) from None


def start(application: AnyApplication, settings: Settings) -> None:
    """Initialize the bot and its services in the event loop ``run_polling`` will use; a
    failure is one line and exit code 1."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(prepare(application))
    except InvalidToken:
        fail("Telegram rejected the token: check TELEGRAM_BOT_TOKEN (from @BotFather)")
    except NetworkError as error:
        fail(f"cannot reach Telegram at {settings.telegram_api_url}: {_reason(error)}")
    except TelegramError as error:
        fail(f"Telegram refused the start: {_reason(error)}")
    except EndpointError as error:
        fail(str(error))
    except (OSError, sqlite3.Error, StorageError) as error:
        fail(f"cannot open the database {settings.database_name}: {_reason(error)}")


def fail(line: str) -> None:
    print(f"tysyacha cannot start: {line}", file=sys.stderr)
    raise SystemExit(EXIT_START_FAILED)


def _reason(error: BaseException) -> str:
    """The error's own words, or its cause's when it has none of its own."""
    text = str(error).strip()
    cause = error.__cause__ or error.__context__
    if cause is not None and (not text or text.startswith("httpx.")):
        return _reason(cause)
    return text or type(error).__name__


def webhook_secret(settings: Settings) -> str:
    """``WEBHOOK_SECRET``, or one made up for this run: the bot registers its webhook itself,
    so only Telegram learns it, and a request without it is refused (403). Workers sharing a
    PostgreSQL database must share the secret: there it is required."""
    if settings.webhook_secret is not None:
        return settings.webhook_secret.get_secret_value()
    if is_postgres(settings.database):
        fail(
            "WEBHOOK_SECRET must be set with DATABASE_URL: every webhook worker of the "
            "database checks the secret the leader registered"
        )
    return secrets.token_urlsafe(32)


class _Worker(Updater):
    """The updater of a webhook worker that does not lead: it serves the webhook the leader
    registered and registers nothing (PTB's updater always sets the webhook at its start)."""

    __slots__ = ()

    async def _bootstrap(self, *args: Any, **kwargs: Any) -> None:
        return None


def main() -> None:
    settings = load_settings()
    configure(settings.log_level)
    secret = webhook_secret(settings) if settings.webhook_url else None
    application = build_application(settings)
    start(application, settings)
    if secret is not None:
        try:
            serve_webhook(application, settings, secret)
        except OSError as error:
            where = f"{settings.webhook_listen}:{settings.webhook_port}"
            fail(f"cannot serve the webhook on {where}: {_reason(error)}")
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES)


def serve_webhook(application: AnyApplication, settings: Settings, secret: str) -> None:
    """Register the webhook (always with a secret) and serve it until stopped."""
    url = settings.webhook_url or ""
    cluster = application.bot_data.get("cluster")
    if isinstance(cluster, Cluster) and not cluster.leading and application.updater is not None:
        application.updater.__class__ = _Worker
    application.run_webhook(
        listen=settings.webhook_listen,
        port=settings.webhook_port,
        url_path=urlsplit(url).path.lstrip("/"),
        webhook_url=url,
        secret_token=secret,
        allowed_updates=Update.ALL_TYPES,
    )


if __name__ == "__main__":
    main()
