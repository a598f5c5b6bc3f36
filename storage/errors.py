"""The exceptions of the storage layer.

Every failure that a caller may want to handle is a subclass of `StorageError`, so the bot can
catch the family with one clause and still tell the cases apart:

* `DatabaseTooNew` — the file was migrated by newer code; this code refuses to touch it.
* `CorruptRow` — a stored row cannot be read back (an unknown status, a log with a gap, a seat
  missing): the data is broken, not the request. Never a bare `KeyError`/`ValueError`.
* `NotFound` — the lobby, match, user, chat or seat asked for does not exist.
* `Conflict` and its subclasses — the request is well-formed but the stored state refuses it:
  `VersionConflict` (someone appended first), `ChatBusy` (one game per group chat),
  `WrongStatus` (the lobby is no longer open, the match is over), `SeatTaken`, `AlreadySeated`,
  `LobbyFull`, `LobbyNotFull`.
* `ConstraintViolation` — the database refused a write for a reason no pre-check caught (a
  CHECK, FOREIGN KEY or trigger): a bug in the caller, reported with SQLite's message.

Arguments that are wrong whatever the stored state (an empty log line, a naive datetime, a
seat index beyond the table) raise the built-in `ValueError`.
"""

from __future__ import annotations

import sqlite3


class StorageError(Exception):
    """Base class of every storage exception."""


class DatabaseTooNew(StorageError):
    """The database's schema version is newer than the newest migration this code knows."""

    def __init__(self, path: str, found: int, latest: int) -> None:
        super().__init__(
            f"the database {path} has schema version {found}, but this code only knows "
            f"versions up to {latest}: it was written by a newer release of the bot; "
            "upgrade the bot (or restore a backup) instead of running older code on it"
        )
        self.path = path
        self.found = found
        self.latest = latest


class CorruptRow(StorageError):
    """A stored row could not be turned back into a model: the data, not the request, is wrong."""

    def __init__(self, table: str, key: object, problem: str) -> None:
        super().__init__(f"corrupt row in {table} (key {key!r}): {problem}")
        self.table = table
        self.key = key
        self.problem = problem


class NotFound(StorageError, LookupError):
    """The row asked for does not exist."""

    def __init__(self, what: str, key: object) -> None:
        super().__init__(f"{what} {key!r} does not exist")
        self.what = what
        self.key = key


class Conflict(StorageError):
    """The request is refused by the current stored state (not a bug in the caller per se)."""


class VersionConflict(Conflict):
    """`append_actions` was called with a version that is no longer the match's version."""

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"match {match_id} is at version {actual}, not the expected {expected}: "
            "another action was stored first"
        )
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class ChatBusy(Conflict):
    """The group chat already has a game: an open lobby or a running match."""

    def __init__(
        self, chat_id: int | None, *, lobby_id: int | None = None, match_id: int | None = None
    ) -> None:
        if lobby_id is not None:
            what = f"an open lobby ({lobby_id})"
        elif match_id is not None:
            what = f"a running match ({match_id})"
        else:
            what = "a game"
        where = "the chat" if chat_id is None else f"chat {chat_id}"
        super().__init__(f"{where} already has {what}; one game per chat")
        self.chat_id = chat_id
        self.lobby_id = lobby_id
        self.match_id = match_id


class WrongStatus(Conflict):
    """The lobby or match is not in a status that allows the change (e.g. the match is over)."""

    def __init__(self, what: str, key: object, status: str, needed: str) -> None:
        super().__init__(f"{what} {key!r} is {status}, it must be {needed}")
        self.what = what
        self.key = key
        self.status = status
        self.needed = needed


class SeatTaken(Conflict):
    """The seat of the lobby is already occupied."""

    def __init__(self, lobby_id: int, seat: int) -> None:
        super().__init__(f"seat {seat} of lobby {lobby_id} is taken")
        self.lobby_id = lobby_id
        self.seat = seat


class AlreadySeated(Conflict):
    """The user already sits in this lobby."""

    def __init__(self, lobby_id: int, user_id: int, seat: int) -> None:
        super().__init__(f"user {user_id} already sits at seat {seat} of lobby {lobby_id}")
        self.lobby_id = lobby_id
        self.user_id = user_id
        self.seat = seat


class LobbyFull(Conflict):
    """No free seat is left in the lobby."""

    def __init__(self, lobby_id: int) -> None:
        super().__init__(f"lobby {lobby_id} has no free seat")
        self.lobby_id = lobby_id


class LobbyNotFull(Conflict):
    """A match cannot start from the lobby: some seats are still empty."""

    def __init__(self, lobby_id: int, free_seats: tuple[int, ...]) -> None:
        super().__init__(f"lobby {lobby_id} still has free seats {list(free_seats)}")
        self.lobby_id = lobby_id
        self.free_seats = free_seats


class ConstraintViolation(StorageError):
    """SQLite refused a write (CHECK, UNIQUE, FOREIGN KEY or a trigger) that no pre-check caught."""


def from_integrity_error(exc: sqlite3.IntegrityError) -> StorageError:
    """Translate an `IntegrityError` raised by SQLite into a storage exception.

    The schema's triggers abort with messages that start with a code word (``chat_busy:``);
    the one-game-per-place partial unique indexes (per chat and forum topic) fail with SQLite's
    UNIQUE message. Both are reported as `ChatBusy`; everything else is a
    `ConstraintViolation`.
    """
    message = str(exc)
    if message.startswith("chat_busy:") or message in (
        "UNIQUE constraint failed: lobbies.chat_id, lobbies.topic_id",
        "UNIQUE constraint failed: matches.chat_id, matches.topic_id",
    ):
        return ChatBusy(None)
    return ConstraintViolation(message)
