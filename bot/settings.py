"""Settings of the bot process (design: Settings), read from the environment by pydantic-settings.

Only ``TELEGRAM_BOT_TOKEN`` is required. ``TELEGRAM_API_URL`` is the Bot API server's root: the
official one, a self-hosted Bot API server, or the tests' fake one. ``DEAL_SEED`` is for tests and
reproducible tournaments only: with it every match deals the same cards for the same presses.
``DATABASE_URL`` (``postgresql://...``) stores everything on a PostgreSQL server instead of the
SQLite file ``DATABASE_PATH``.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.ai.levels import LEVELS
from storage import is_postgres, safe_url

TOKEN_MISSING = (
    "TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather and export its token"
)
_SEED = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(case_sensitive=False, extra="ignore", frozen=True)

    telegram_bot_token: SecretStr
    telegram_api_url: str = "https://api.telegram.org"
    database_path: Path = Path("./data/tysyacha.db")
    database_url: SecretStr | None = None
    """A PostgreSQL server (``postgresql://user:password@host:5432/db``) to store everything
    in instead of the SQLite file; the heartbeat stays beside ``database_path``."""
    default_language: str = "ru"
    log_level: str = "INFO"
    deal_seed: str | None = None
    """Tests and reproducible tournaments: the seed of every match's deals (else random)."""
    group_messages: int = Field(default=20, gt=0)
    """Telegram allows about 20 messages and edits a minute in one group..."""
    group_window_seconds: float = Field(default=60, gt=0)
    """... within this window (shorter in tests)."""
    messages_per_second: float = Field(default=30, gt=0)
    """Telegram allows about 30 messages a second over all chats."""
    webhook_url: str | None = None
    """Set it to receive updates by webhook instead of polling."""
    webhook_listen: str = "127.0.0.1"
    """Where the webhook server listens: the loopback interface, for a reverse proxy on the
    same host (the image sets 0.0.0.0: compose publishes the port on the host's loopback)."""
    webhook_port: int = 8443
    webhook_secret: SecretStr | None = None
    """Telegram sends it with every update; unset, the bot makes one up at every start
    (required with ``DATABASE_URL``: the webhook workers of a database share it)."""
    health_port: int | None = Field(default=None, ge=1, le=65535)
    """Serve ``GET /health`` on this port (beside ``WEBHOOK_LISTEN``) for a reverse proxy
    or a load balancer: 200 while the heartbeat is healthy, else 503 (`bot.ops.endpoint`)."""
    turn_seconds: int = Field(default=60, ge=0)
    """The turn timer new lobbies start with (a lobby setting; 0 = off)."""
    ping_seconds: float = Field(default=20, ge=0)
    """A player who has not pressed for this long gets their hand as a new message (which
    Telegram notifies of) when their turn comes."""
    option_wait_seconds: float = Field(default=4, ge=0)
    """How long a computer player waits before an action that closes a human's one-time
    option (a defender's redeal closes at the first lead)."""
    computer_level: str = "hard"
    """The computer player that moves for a human who ran out of time or was kicked."""
    computer_budget_seconds: float = Field(default=1.0, gt=0)
    """Seconds a computer player may think about one decision."""
    computer_workers: int | None = Field(default=None, ge=0)
    """Processes computer players think in (default: the CPU count, at most 4; 0 = in the
    bot's own process, in a thread)."""
    heartbeat_seconds: float = Field(default=30, gt=0)
    """How often the running bot writes its heartbeat file (``<DATABASE_PATH>.heartbeat``)."""
    health_max_age_seconds: float = Field(default=120, gt=0)
    """``python -m bot.ops.health`` fails when the heartbeat is older than this."""

    @field_validator("telegram_api_url")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in logging.getLevelNamesMapping():
            raise ValueError("LOG_LEVEL is one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return value.upper()

    @field_validator("computer_level")
    @classmethod
    def _computer_level(cls, value: str) -> str:
        if value not in LEVELS:
            raise ValueError(f"COMPUTER_LEVEL is one of {', '.join(LEVELS)}")
        return value

    @field_validator("deal_seed")
    @classmethod
    def _plain_seed(cls, value: str | None) -> str | None:
        # The seed is written into the match header as a comment, so it must stay one word.
        if value is not None and not _SEED.fullmatch(value):
            raise ValueError("DEAL_SEED is 1-64 letters, digits, '_', '.' or '-'")
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_url(cls, value: object) -> object:
        # Empty (compose passes ${DATABASE_URL:-}) means SQLite.
        text = value.get_secret_value() if isinstance(value, SecretStr) else value
        if text is None or text == "":
            return None
        if not is_postgres(str(text)):
            raise ValueError("DATABASE_URL is a PostgreSQL address: postgresql://user@host/db")
        return value

    @field_validator("webhook_secret", mode="before")
    @classmethod
    def _webhook_secret(cls, value: object) -> object:
        # Empty (compose passes ${WEBHOOK_SECRET:-}) means unset: the bot makes one up.
        if value is None:
            return None
        text = value.get_secret_value() if isinstance(value, SecretStr) else str(value)
        if not text:
            return None
        if not _WEBHOOK_SECRET.fullmatch(text):
            raise ValueError("WEBHOOK_SECRET is 1-256 of A-Z a-z 0-9 _ -")
        return value

    @property
    def database(self) -> str | Path:
        """Where the store lives: the PostgreSQL address, else the SQLite file."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path

    @property
    def database_name(self) -> str:
        """`database` for messages: a PostgreSQL address without its password."""
        if self.database_url is not None:
            return safe_url(self.database_url.get_secret_value())
        return str(self.database_path)

    @property
    def base_url(self) -> str:
        """PTB's ``base_url``: the token and method are appended to it."""
        return f"{self.telegram_api_url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.telegram_api_url}/file/bot"
