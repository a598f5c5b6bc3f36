"""The global error handler: log the failure with the update, tell the user something went
wrong, and put their game's messages back in place.

The game is safe: a press is committed before anything is shown, or not at all. What a
failure may leave behind is a message that was not brought up to date (the failure came
after the commit, while the table and the hands were drawn); the handler therefore redraws
every running match of the user, and the outbox sends only what changed.
"""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.error import TelegramError

from bot.handlers.replies import answer
from bot.ops.logs import describe
from bot.services import Context, Services, services_of
from bot.telegram.outbox import Content

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    log.error("update failed %s error=%r", describe(update), context.error,
              exc_info=context.error)
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
        answer(found, update, Content(text))
    if update.effective_user is not None:
        await _redraw(found, update.effective_user.id)


async def _redraw(found: Services, user_id: int) -> None:
    """Bring the user's running matches back on screen (only changed messages are sent)."""
    for live in found.games.of_user(user_id):
        try:
            async with live.lock:
                await found.screens.show(live)
        except Exception:
            log.exception("match %s could not be redrawn after an error", live.match_id)
