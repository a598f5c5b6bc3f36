"""Files the bot sends — the score sheet picture, the CSV export — straight through the Bot API,
since the outbox carries text only. Where several processes share the database only the one
that sends may upload: the others hand an `Upload` to it (`bot.telegram.relay.send_file`).

A file is one new message that is never edited, so there is nothing to coalesce: the caller
awaits the upload. A 429 (`RetryAfter`) is waited out and the upload tried again, up to
`ATTEMPTS` times (Telegram refused it, so it was not sent). Anything else — a 403, a bad
request, a network error that may or may not have delivered it — is logged and the file
dropped: the files are views of stored records, nothing is lost with them.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Final, Literal

from telegram import Bot, InputFile, Message
from telegram.constants import ParseMode
from telegram.error import RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger(__name__)

ATTEMPTS: Final = 4


@dataclass(frozen=True)
class Upload:
    """One file to send: a picture (``photo``, a PNG) or a ``document``, with its caption
    (a picture's in Telegram HTML if ``html``), into the chat's forum topic ``topic`` (0:
    none)."""

    kind: Literal["photo", "document"]
    chat_id: int
    data: bytes
    filename: str
    caption: str
    html: bool = False
    topic: int = 0


async def send(bot: Bot, upload: Upload) -> Message | None:
    """Send the file; None if it could not be sent."""
    if upload.kind == "photo":
        return await send_photo(
            bot, upload.chat_id, upload.data, filename=upload.filename,
            caption=upload.caption, html=upload.html, topic=upload.topic,
        )
    return await send_document(
        bot, upload.chat_id, upload.data, filename=upload.filename, caption=upload.caption,
        topic=upload.topic,
    )


async def send_photo(
    bot: Bot,
    chat_id: int,
    png: bytes,
    *,
    filename: str,
    caption: str,
    html: bool = False,
    topic: int = 0,
) -> Message | None:
    """Send a PNG picture with a caption (plain text, or Telegram HTML if ``html``) into the
    chat's forum topic ``topic`` (0: none); None if it could not be sent."""
    parse_mode = ParseMode.HTML if html else None
    return await _uploading(
        chat_id,
        lambda: bot.send_photo(
            chat_id,
            InputFile(png, filename=filename),
            caption=caption,
            parse_mode=parse_mode,
            message_thread_id=topic or None,
        ),
    )


async def send_document(
    bot: Bot, chat_id: int, data: bytes, *, filename: str, caption: str, topic: int = 0
) -> Message | None:
    """Send a file (its type guessed from ``filename``) with a plain-text caption into the
    forum topic ``topic`` (0: none); None if it could not be sent."""
    return await _uploading(
        chat_id,
        lambda: bot.send_document(
            chat_id,
            InputFile(data, filename=filename),
            caption=caption,
            message_thread_id=topic or None,
        ),
    )


async def _uploading(
    chat_id: int, upload: Callable[[], Awaitable[Message]]
) -> Message | None:
    attempt = 1
    while True:
        try:
            return await upload()
        except RetryAfter as error:
            if attempt == ATTEMPTS:
                log.error("upload to chat %s dropped after %d times 429", chat_id, attempt)
                return None
            delay = retry_seconds(error)
            log.warning("upload to chat %s: 429, waiting %.1fs", chat_id, delay)
            await asyncio.sleep(delay)
            attempt += 1
        except TelegramError as error:
            log.error("upload to chat %s dropped: %s", chat_id, error)
            return None


def retry_seconds(error: RetryAfter) -> float:
    """How long Telegram asks to wait, in seconds."""
    with warnings.catch_warnings():
        # PTB 22 warns that the int form is deprecated; both forms are handled here.
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
