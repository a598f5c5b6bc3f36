"""The global error handler: log the failure with the update, and tell the user something went
wrong. The game is safe: a press is committed before anything is shown, or not at all."""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.error import TelegramError

from bot.outbox import Content
from bot.services import Context, services_of

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    log.error("update failed: %r", update, exc_info=context.error)
    if not isinstance(update, Update):
        return
    try:
        found = services_of(context.application)
    except RuntimeError:
        return
    text = found.tr.text(await found.language(update), "bot-error")
    if update.callback_query is not None:
        # Already answered if the failure came after the answer; a second answer is refused.
        with contextlib.suppress(TelegramError):
            await update.callback_query.answer(text)
    elif update.effective_chat is not None and update.effective_message is not None:
        found.outbox.post(update.effective_chat.id, Content(text))
