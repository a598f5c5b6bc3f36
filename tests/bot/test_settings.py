"""Settings: a missing token or a bad value is a one-line error with exit code 2, and the Bot
API root becomes PTB's base URLs."""

from __future__ import annotations

import os
import subprocess
import sys

from pydantic import SecretStr

from bot.settings import TOKEN_MISSING, Settings


def _run_bot(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("TELEGRAM_BOT_TOKEN", "DEAL_SEED")}
    return subprocess.run(
        [sys.executable, "-m", "bot"], env={**clean, **env}, capture_output=True, text=True,
        timeout=60, check=False,
    )


def test_a_missing_token_is_one_line_and_exit_code_2() -> None:
    done = _run_bot()
    assert done.returncode == 2
    assert done.stderr == TOKEN_MISSING + "\n"
    assert done.stdout == ""


def test_a_bad_setting_is_one_line_and_exit_code_2() -> None:
    done = _run_bot(TELEGRAM_BOT_TOKEN="1:x", DEAL_SEED="two words")
    assert done.returncode == 2
    assert done.stderr.startswith("DEAL_SEED: ") and done.stderr.count("\n") == 1


def test_the_api_root_gives_the_base_urls() -> None:
    settings = Settings(
        telegram_bot_token=SecretStr("1:x"), telegram_api_url="http://127.0.0.1:8081/"
    )
    assert settings.base_url == "http://127.0.0.1:8081/bot"
    assert settings.base_file_url == "http://127.0.0.1:8081/file/bot"
    assert Settings(telegram_bot_token=SecretStr("1:x")).base_url == "https://api.telegram.org/bot"


def test_the_webhook_secret_is_checked_and_empty_means_unset() -> None:
    empty = Settings(telegram_bot_token=SecretStr("1:x"), webhook_secret=SecretStr(""))
    assert empty.webhook_secret is None
    done = _run_bot(TELEGRAM_BOT_TOKEN="1:x", WEBHOOK_SECRET="with spaces")
    assert done.returncode == 2
    assert done.stderr.startswith("WEBHOOK_SECRET: ") and done.stderr.count("\n") == 1
