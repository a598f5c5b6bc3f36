"""The repositories' SQL on PostgreSQL: placeholders and error mapping.

The repositories write their statements once, with SQLite's ``?`` placeholders and SQL that
both databases read the same way (`storage.postgres.schema` keeps the names and the types in
step). asyncpg numbers its parameters (``$1, $2``), so `numbered` rewrites a statement once
and remembers it; a ``?`` inside a quoted string or identifier is left alone.

`storage_error` maps what PostgreSQL refuses to the storage's own exceptions, as
`storage.errors.from_integrity_error` does for SQLite: the triggers' code words
(``chat_busy: ...``) and the one-game-per-chat unique indexes become `ChatBusy`, every other
violated constraint a `ConstraintViolation` with PostgreSQL's message.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg

from storage.errors import ChatBusy, ConstraintViolation, StorageError

_ONE_GAME_PER_CHAT = frozenset({
    "lobbies_one_open_per_chat", "matches_one_running_per_chat",  # before migration 5
    "lobbies_one_open_per_place", "matches_one_running_per_place",
})


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` outside quotes replaced by ``$1``, ``$2``, ..."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def storage_error(error: asyncpg.PostgresError) -> StorageError | None:
    """The storage exception for a refused write, or None if ``error`` is not a refusal."""
    if not isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return None
    message = str(error)
    constraint = getattr(error, "constraint_name", None)
    if message.startswith("chat_busy:") or constraint in _ONE_GAME_PER_CHAT:
        return ChatBusy(None)
    return ConstraintViolation(message)


@contextmanager
def refusals() -> Iterator[None]:
    """Raise a refused write in the block as the storage's exception (`storage_error`)."""
    try:
        yield
    except asyncpg.PostgresError as error:
        mapped = storage_error(error)
        if mapped is None:
            raise
        raise mapped from error
