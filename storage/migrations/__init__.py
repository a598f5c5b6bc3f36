"""The database schema as numbered migrations, tracked with ``PRAGMA user_version``.

``MIGRATIONS[i]`` is the SQL script that takes a database from version ``i`` to ``i + 1``;
an empty file is version 0. One module per migration: `v1_schema` (users, chats, lobbies,
matches, the action log, turn deadlines), `v2_results` (results, totals, ratings),
`v3_outbox` (the transactional outbox), `v4_turn_pings` (/notify), `v5_topics` (one game
per forum topic), `v6_relay` (what the processes of one database hand the one that sends),
`v7_kick_votes` (/kick votes), `v8_match_jobs` (which process runs a match's timer and
computer moves), `v9_shared_screens` (a lobby's open settings screen; users and chats by the
time they changed). `migrate` (in `runner`) runs at every open: it applies the
missing scripts in order, each in its own ``BEGIN IMMEDIATE`` transaction together with the
``user_version`` bump, so a crash (or a second process opening the same file) never leaves a
half-applied step; a database that is already current is left untouched, and one whose
version is newer than this code is refused with `DatabaseTooNew`.

Rules for new migrations: append, never edit a released script (its SQL is history, so it
keeps its literal text even where the code has moved on, e.g. the game names); keep every
statement valid inside a transaction (``PRAGMA foreign_keys`` cannot change there, so a table
rebuild follows SQLite's "12-step" procedure with the checks that `migrate` runs afterwards).
Tables that outlive a match's running time (results, the outbox) reference
``matches(match_id)``, which is why match and lobby ids are ``AUTOINCREMENT``: an id is never
reused, so an old callback button or a result row can never point at a different match.

Conventions of the schema:

* Tables are ``STRICT`` (SQLite >= 3.37): a value of the wrong type is refused, not coerced.
* Telegram ids (users, chats, messages) are stored as they are; a chat id is negative for a
  group.
* Seats are 0-based: seat 0 is ``p1`` of the notation.
* Timestamps are UTC text ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (fixed width, so text order is time
  order).
* Rules and the action log are text in the match notation (``docs/notation.md``); the
  storage never parses them beyond checking that the header's ``game``/``players`` lines agree
  with the columns of the same name.
* Invariants the bot relies on are enforced by the database itself, not only by the
  repositories: one game per group chat and forum topic (partial unique indexes plus triggers
  across the two tables), the log is append-only and gap-free, ``matches.version`` always
  equals the number of log lines, a finished match takes no more lines or deadlines, seats
  lie within the table.
"""

from storage.migrations.runner import migrate, split_statements, user_version
from storage.migrations.v1_schema import MIGRATION_1
from storage.migrations.v2_results import MIGRATION_2
from storage.migrations.v3_outbox import MIGRATION_3
from storage.migrations.v4_turn_pings import MIGRATION_4
from storage.migrations.v5_topics import MIGRATION_5
from storage.migrations.v6_relay import MIGRATION_6
from storage.migrations.v7_kick_votes import MIGRATION_7
from storage.migrations.v8_match_jobs import MIGRATION_8
from storage.migrations.v9_shared_screens import MIGRATION_9

MIGRATIONS: tuple[str, ...] = (
    MIGRATION_1, MIGRATION_2, MIGRATION_3, MIGRATION_4, MIGRATION_5, MIGRATION_6,
    MIGRATION_7, MIGRATION_8, MIGRATION_9,
)
"""``MIGRATIONS[i]`` takes the schema from version ``i`` to ``i + 1``. Append only."""

LATEST_VERSION = len(MIGRATIONS)

__all__ = ["LATEST_VERSION", "MIGRATIONS", "migrate", "split_statements", "user_version"]
