"""``python -m bot`` (the ``tysyacha`` script): read the settings, then poll Telegram (or serve
a webhook when ``WEBHOOK_URL`` is set) until stopped."""

from __future__ import annotations

import sys
from urllib.parse import urlsplit

from pydantic import ValidationError
from telegram import Update

from bot.app import build_application
from bot.logs import configure
from bot.settings import TOKEN_MISSING, Settings

EXIT_BAD_SETTINGS = 2


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


def main() -> None:
    settings = load_settings()
    configure(settings.log_level)
    application = build_application(settings)
    if settings.webhook_url:
        secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path=urlsplit(settings.webhook_url).path.lstrip("/"),
            webhook_url=settings.webhook_url,
            secret_token=secret,
            allowed_updates=Update.ALL_TYPES,
        )
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES)


if __name__ == "__main__":
    main()
