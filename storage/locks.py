"""What a write transaction locks on PostgreSQL, and in which order (issue 17).

Several bot processes write one PostgreSQL database, each on several pooled connections at
once, and there is no database-wide write lock: writers of different matches run side by
side. A write that reads, checks and writes something another writer may change at the same
time first takes the transaction-level advisory lock (``pg_advisory_xact_lock``, released by
the commit or the rollback) of what it changes, through ``conn.lock(...)`` or
``db.lock(...)``:

* `match_lock` — every change of a running match (`storage.writes.commit_write`, its
  result, /stop, /kick votes, a deadline set by hand): the version check and the log lines
  after it cannot interleave with another writer of the match, on any process;
* `chat_lock` — what opens or moves a game in a chat (a lobby made, changed or started, a
  match made without a lobby, a group's move to a supergroup): one open lobby or running
  match per place holds across the ``lobbies`` and ``matches`` tables, which no unique
  index spans, and a lobby's seats change one at a time;
* `player_lock` — a finished match's players in its game: their rating is read and written
  back (`storage.result_writes`), so two matches of one player ending at once do not both
  start from the same old rating.

Everything else is written by statements that are atomic on their own (upserts with
``ON CONFLICT``, additive totals, conditional updates, ``FOR UPDATE SKIP LOCKED`` claims).

**One order, no deadlock.** A transaction takes its locks in the order of `Lock` — every
chat lock before any match lock, every match lock before any player lock (`Space`), and the
locks of one space it needs together in one call, which sorts them; PostgreSQL's row locks
come after them (a write touches the rows of what it has locked, and the rows of one kind
that several writers share — the outbox's, a match's seats — in a fixed order too:
`storage.outbox`, `storage.matches`). So no two transactions wait for each other: the
database refuses a call that would take a lock of a lower space than one the transaction
holds (`RuntimeError`, a bug of the caller).

SQLite has one process and one writer at a time (``BEGIN IMMEDIATE``): its ``lock`` does
nothing.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from enum import IntEnum


class Space(IntEnum):
    """What a lock is of; a transaction takes the lower spaces first."""

    CHAT = 1
    MATCH = 2
    PLAYER = 3


_CLASS_BASE = 0x7479_0000
"""The first key of PostgreSQL's two-key advisory locks ("ty" + the space): apart from the
one-key locks of the leader and the migrations, whose key space is another."""


@dataclass(frozen=True, order=True)
class Lock:
    """One advisory lock: ``(space, key)``, the two 32-bit keys of PostgreSQL's
    ``pg_advisory_xact_lock(int, int)``. Two ids that fold to one key only share a lock."""

    space: Space
    key: int

    @property
    def class_id(self) -> int:
        return _CLASS_BASE + int(self.space)


def _signed32(value: int) -> int:
    value &= 0xFFFF_FFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _fold(number: int) -> int:
    """A 64-bit id (a Telegram chat id is one) as a 32-bit key."""
    return _signed32(number ^ (number >> 32))


def chat_lock(chat_id: int) -> Lock:
    """The lock of what opens or moves a game in the chat (any of its forum topics)."""
    return Lock(Space.CHAT, _fold(chat_id))


def match_lock(match_id: int) -> Lock:
    """The lock of every change of the match."""
    return Lock(Space.MATCH, _fold(match_id))


def player_lock(player: str, game: str) -> Lock:
    """The lock of a player's totals and rating in a game (``player``: its stored key)."""
    return Lock(Space.PLAYER, _signed32(zlib.crc32(f"{game}/{player}".encode())))
