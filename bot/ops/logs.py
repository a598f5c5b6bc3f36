"""Structured logging: the process's log format, and one ``key=value`` line per handled update.

A handler wrapped with `logged` opens a record for its update; code deeper down adds what it
learned (`note(match=3, action="p2 bid 110")`) without passing anything around, and the
wrapper writes the line with the latency when the handler ends, also when it fails (then with
``result=error error=<type>``; the global error handler logs the traceback with
`describe(update)`, the same fields).

    update kind=press chat=101 user=101 match=3 action='p2 bid 110' result=applied version=9 ms=12

A line may also carry ``lock_wait_ms`` and ``lock_hold_ms`` (before ``ms``): the sums of what
the handler itself waited for the database's lock and held it (`lock_times`, the database's
lock observer; issue 13).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, TypeVar

from telegram import Update

log = logging.getLogger("bot.updates")

_record: ContextVar[dict[str, object] | None] = ContextVar("update_record", default=None)
_handler: ContextVar[asyncio.Task[Any] | None] = ContextVar("update_task", default=None)
"""The task handling the update: tasks it spawns inherit the record but are not its time."""

C = TypeVar("C")
Handler = Callable[[Update, C], Coroutine[Any, Any, None]]

# PTB's rate limiter logs every 429 it passes on as an error with a traceback; the outbox
# waits those out and logs them itself, so only the limiter's real failures are kept.
_QUIET = {"telegram.ext.AIORateLimiter": logging.CRITICAL, "httpx": logging.WARNING}


def configure(level: str) -> None:
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    for name, quiet_level in _QUIET.items():
        logging.getLogger(name).setLevel(quiet_level)


def note(**fields: object) -> None:
    """Add fields to the log line of the update being handled (no-op outside a handler)."""
    record = _record.get()
    if record is not None:
        record.update(fields)


_LOCK_KEYS = ("lock_wait_ms", "lock_hold_ms")


def lock_times(waited: float, held: float) -> None:
    """Add one holding of the database's lock (seconds) to the handler's line."""
    record = _record.get()
    if record is None or asyncio.current_task() is not _handler.get():
        return
    for key, seconds in zip(_LOCK_KEYS, (waited, held), strict=True):
        total = record.get(key, 0.0)
        record[key] = round((total if isinstance(total, float) else 0.0) + seconds * 1000, 2)


def logged(kind: str) -> Callable[[Handler[C]], Handler[C]]:
    """Wrap a handler so that its update gets one log line: kind, chat, user, notes, latency."""

    def wrap(handler: Handler[C]) -> Handler[C]:
        @functools.wraps(handler)
        async def run(update: Update, context: C) -> None:
            record: dict[str, object] = {"kind": kind}
            if update.effective_chat is not None:
                record["chat"] = update.effective_chat.id
            if update.effective_user is not None:
                record["user"] = update.effective_user.id
            token = _record.set(record)
            task = _handler.set(asyncio.current_task())
            started = time.monotonic()
            try:
                await handler(update, context)
            except Exception as error:
                record["result"] = "error"
                record["error"] = type(error).__name__
                raise
            finally:
                for key in _LOCK_KEYS:  # last but one, whenever they were added
                    if key in record:
                        record[key] = record.pop(key)
                record["ms"] = round((time.monotonic() - started) * 1000)
                log.info("update %s", _format(record))
                _record.reset(token)
                _handler.reset(task)

        return run

    return wrap


def describe(update: object) -> str:
    """An update as ``key=value`` fields for a log line: its id, kind, chat, user, and what
    was pressed or written (cut short)."""
    if not isinstance(update, Update):
        return f"update={_value(repr(update)[:200])}"
    record: dict[str, object] = {"update_id": update.update_id}
    kind = next((name for name in _KINDS if getattr(update, name, None) is not None), None)
    if kind is not None:
        record["kind"] = kind
    if update.effective_chat is not None:
        record["chat"] = update.effective_chat.id
    if update.effective_user is not None:
        record["user"] = update.effective_user.id
    if update.callback_query is not None and update.callback_query.data is not None:
        record["data"] = update.callback_query.data
    elif update.effective_message is not None and update.effective_message.text:
        record["text"] = update.effective_message.text[:_TEXT_CUT]
    return _format(record)


_KINDS = (
    "message", "edited_message", "callback_query", "my_chat_member", "chat_member",
    "channel_post", "inline_query", "chat_join_request",
)
_TEXT_CUT = 64


def _format(record: dict[str, Any]) -> str:
    return " ".join(f"{key}={_value(value)}" for key, value in record.items())


def _value(value: object) -> str:
    text = str(value)
    return repr(text) if not text or any(c.isspace() for c in text) or "=" in text else text
