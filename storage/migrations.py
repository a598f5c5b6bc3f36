"""The database schema as numbered migrations, tracked with ``PRAGMA user_version``.

``MIGRATIONS[i]`` is the SQL script that takes a database from version ``i`` to ``i + 1``;
an empty file is version 0. `migrate` runs at every open: it applies the missing scripts in
order, each in its own ``BEGIN IMMEDIATE`` transaction together with the ``user_version``
bump, so a crash (or a second process opening the same file) never leaves a half-applied
step; a database that is already current is left untouched, and one whose version is newer
than this code is refused with `DatabaseTooNew`.

Rules for new migrations: append, never edit a released script; keep every statement valid
inside a transaction (``PRAGMA foreign_keys`` cannot change there, so a table rebuild follows
SQLite's "12-step" procedure with the checks that `migrate` runs afterwards); finished-match
results, per-deal results, stats and ratings will arrive as later migrations with tables that
reference ``matches(match_id)`` (and ``match_log(match_id, seq)`` for the line that ended a
deal), which is why match and lobby ids are ``AUTOINCREMENT``: an id is never reused, so an
old callback button or a result row can never point at a different match.

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
  repositories: one game per group chat (partial unique indexes plus triggers across the two
  tables), the log is append-only and gap-free, ``matches.version`` always equals the number
  of log lines, a finished match takes no more lines or deadlines, seats lie within the table.
"""

from __future__ import annotations

import contextlib
import sqlite3

import aiosqlite

from storage.errors import DatabaseTooNew, StorageError

_GAMES = "('thousand', 'thousand-one', 'tumbochka')"
_LANGUAGE = "GLOB '[a-z][a-z]*'"
_PLAYERS = "players = 3 OR (players = 4 AND game = 'thousand-one')"

MIGRATION_1 = f"""
-- People who talked to the bot. Language: chosen with /lang (NULL = not chosen) and the one
-- Telegram reports; private_chat_opened: the user started the private chat, so the bot can
-- send them their hand (set back to 0 when Telegram answers 403).
CREATE TABLE users (
    user_id             INTEGER PRIMARY KEY,
    first_name          TEXT    NOT NULL,
    username            TEXT,
    language            TEXT    CHECK (language IS NULL
                                       OR (language {_LANGUAGE} AND length(language) <= 35)),
    telegram_language   TEXT    CHECK (telegram_language IS NULL
                                       OR length(telegram_language) BETWEEN 1 AND 35),
    private_chat_opened INTEGER NOT NULL DEFAULT 0 CHECK (private_chat_opened IN (0, 1)),
    created_at          TEXT    NOT NULL,
    updated_at          TEXT    NOT NULL
) STRICT;

-- Chats the bot was used in; language chosen with /lang in the group (NULL = default).
CREATE TABLE chats (
    chat_id    INTEGER PRIMARY KEY,
    type       TEXT NOT NULL CHECK (type IN ('private', 'group', 'supergroup', 'channel')),
    title      TEXT,
    language   TEXT CHECK (language IS NULL OR (language {_LANGUAGE} AND length(language) <= 35)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

-- A lobby gathers players before a match. rules = the notation's header lines.
CREATE TABLE lobbies (
    lobby_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id      INTEGER NOT NULL REFERENCES chats (chat_id) ON UPDATE CASCADE,
    creator_id   INTEGER NOT NULL REFERENCES users (user_id),
    message_id   INTEGER CHECK (message_id IS NULL OR message_id > 0),
    game         TEXT    NOT NULL CHECK (game IN {_GAMES}),
    players      INTEGER NOT NULL CHECK ({_PLAYERS}),
    rules        TEXT    NOT NULL CHECK (length(rules) > 0),
    turn_seconds INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    status       TEXT    NOT NULL DEFAULT 'open'
                         CHECK (status IN ('open', 'started', 'cancelled')),
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
) STRICT;

CREATE INDEX lobbies_by_chat ON lobbies (chat_id, lobby_id);
-- One open lobby per chat (the other half of "one game per chat" is in the triggers below).
CREATE UNIQUE INDEX lobbies_one_open_per_chat ON lobbies (chat_id) WHERE status = 'open';

-- A filled seat of a lobby: a user, or a computer player of some level. No row = empty seat.
CREATE TABLE lobby_seats (
    lobby_id       INTEGER NOT NULL REFERENCES lobbies (lobby_id),
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id        INTEGER REFERENCES users (user_id),
    computer_level TEXT    CHECK (computer_level IS NULL
                                  OR length(computer_level) BETWEEN 1 AND 32),
    PRIMARY KEY (lobby_id, seat),
    CHECK ((user_id IS NULL) <> (computer_level IS NULL))
) STRICT, WITHOUT ROWID;

-- A user sits at most once per lobby; also the index for "lobbies this user sits in".
CREATE UNIQUE INDEX lobby_seats_by_user ON lobby_seats (user_id, lobby_id)
    WHERE user_id IS NOT NULL;

-- A match: the rules header, seats, status, and the version = number of lines in its log.
CREATE TABLE matches (
    match_id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id          INTEGER NOT NULL REFERENCES chats (chat_id) ON UPDATE CASCADE,
    lobby_id         INTEGER UNIQUE REFERENCES lobbies (lobby_id),
    game             TEXT    NOT NULL CHECK (game IN {_GAMES}),
    players          INTEGER NOT NULL CHECK ({_PLAYERS}),
    rules            TEXT    NOT NULL CHECK (length(rules) > 0),
    turn_seconds     INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    status           TEXT    NOT NULL DEFAULT 'running'
                             CHECK (status IN ('running', 'finished', 'abandoned')),
    version          INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    table_message_id INTEGER CHECK (table_message_id IS NULL OR table_message_id > 0),
    winner_seat      INTEGER CHECK (winner_seat IS NULL
                                    OR (winner_seat >= 0 AND winner_seat < players)),
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    finished_at      TEXT,
    CHECK ((status = 'running') = (finished_at IS NULL)),
    CHECK (winner_seat IS NULL OR status = 'finished')
) STRICT;

CREATE INDEX matches_by_chat ON matches (chat_id, match_id);
CREATE UNIQUE INDEX matches_one_running_per_chat ON matches (chat_id) WHERE status = 'running';
CREATE INDEX matches_running ON matches (match_id) WHERE status = 'running';

-- The seats of a match. A human seat keeps its user_id for good; when a computer plays for
-- the absent human, replaced_by_computer = 1 and computer_level says which player.
CREATE TABLE match_seats (
    match_id             INTEGER NOT NULL REFERENCES matches (match_id),
    seat                 INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id              INTEGER REFERENCES users (user_id),
    computer_level       TEXT    CHECK (computer_level IS NULL
                                        OR length(computer_level) BETWEEN 1 AND 32),
    replaced_by_computer INTEGER NOT NULL DEFAULT 0 CHECK (replaced_by_computer IN (0, 1)),
    hand_message_id      INTEGER CHECK (hand_message_id IS NULL OR hand_message_id > 0),
    consecutive_timeouts INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_timeouts >= 0),
    PRIMARY KEY (match_id, seat),
    CHECK (CASE WHEN user_id IS NULL
                THEN computer_level IS NOT NULL AND replaced_by_computer = 0
                     AND hand_message_id IS NULL
                ELSE (computer_level IS NOT NULL) = (replaced_by_computer = 1)
           END)
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX match_seats_by_user ON match_seats (user_id, match_id)
    WHERE user_id IS NOT NULL;

-- The action log: one row per notation line, seq = 1, 2, 3, ... Append-only.
CREATE TABLE match_log (
    match_id   INTEGER NOT NULL REFERENCES matches (match_id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    line       TEXT    NOT NULL CHECK (length(trim(line)) > 0
                                       AND instr(line, char(10)) = 0
                                       AND instr(line, char(13)) = 0),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
) STRICT, WITHOUT ROWID;

-- The pending turn deadline(s) of a running match, so timers survive a restart. version is
-- the match version the deadline was armed at: a timer that fires after the match moved on
-- is stale.
CREATE TABLE turn_deadlines (
    match_id INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    deadline TEXT    NOT NULL CHECK (deadline GLOB
        '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]Z'),
    version  INTEGER NOT NULL CHECK (version >= 0),
    PRIMARY KEY (match_id, seat),
    FOREIGN KEY (match_id, seat) REFERENCES match_seats (match_id, seat)
) STRICT, WITHOUT ROWID;

CREATE INDEX turn_deadlines_by_time ON turn_deadlines (deadline);

-- One game per group chat, across the two tables: no open lobby while a match runs and no
-- running match while a lobby is open (a lobby is marked started before its match is made).
CREATE TRIGGER lobbies_chat_busy_insert BEFORE INSERT ON lobbies
WHEN NEW.status = 'open'
 AND EXISTS (SELECT 1 FROM matches WHERE chat_id = NEW.chat_id AND status = 'running')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has a running match'); END;

CREATE TRIGGER lobbies_chat_busy_move BEFORE UPDATE OF chat_id ON lobbies
WHEN NEW.status = 'open'
 AND EXISTS (SELECT 1 FROM matches WHERE chat_id = NEW.chat_id AND status = 'running')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has a running match'); END;

CREATE TRIGGER matches_chat_busy_insert BEFORE INSERT ON matches
WHEN NEW.status = 'running'
 AND EXISTS (SELECT 1 FROM lobbies WHERE chat_id = NEW.chat_id AND status = 'open')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has an open lobby'); END;

CREATE TRIGGER matches_chat_busy_move BEFORE UPDATE OF chat_id ON matches
WHEN NEW.status = 'running'
 AND EXISTS (SELECT 1 FROM lobbies WHERE chat_id = NEW.chat_id AND status = 'open')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has an open lobby'); END;

-- Statuses only move forward: open -> started | cancelled, running -> finished | abandoned.
CREATE TRIGGER lobbies_status_forward BEFORE UPDATE OF status ON lobbies
WHEN OLD.status <> 'open' AND NEW.status <> OLD.status
BEGIN SELECT RAISE(ABORT, 'lobby_closed: a started or cancelled lobby cannot change status'); END;

CREATE TRIGGER matches_status_forward BEFORE UPDATE OF status ON matches
WHEN OLD.status <> 'running' AND NEW.status <> OLD.status
BEGIN SELECT RAISE(ABORT, 'match_closed: a finished or abandoned match cannot change status'); END;

-- Seats lie within the table, and only an open lobby changes its seats or its size.
CREATE TRIGGER lobby_seats_insert_check BEFORE INSERT ON lobby_seats
BEGIN
    SELECT RAISE(ABORT, 'lobby_closed: only an open lobby changes its seats')
    WHERE (SELECT status FROM lobbies WHERE lobby_id = NEW.lobby_id) <> 'open';
    SELECT RAISE(ABORT, 'seat_out_of_range: the seat is beyond the table')
    WHERE NEW.seat >= (SELECT players FROM lobbies WHERE lobby_id = NEW.lobby_id);
END;

CREATE TRIGGER lobby_seats_update_check BEFORE UPDATE ON lobby_seats
BEGIN
    SELECT RAISE(ABORT, 'lobby_closed: only an open lobby changes its seats')
    WHERE (SELECT status FROM lobbies WHERE lobby_id = NEW.lobby_id) <> 'open';
    SELECT RAISE(ABORT, 'seat_out_of_range: the seat is beyond the table')
    WHERE NEW.seat >= (SELECT players FROM lobbies WHERE lobby_id = NEW.lobby_id);
END;

CREATE TRIGGER lobbies_players_fit_seats BEFORE UPDATE OF players ON lobbies
WHEN EXISTS (SELECT 1 FROM lobby_seats WHERE lobby_id = NEW.lobby_id AND seat >= NEW.players)
BEGIN SELECT RAISE(ABORT, 'seat_out_of_range: a seat beyond the new table is occupied'); END;

CREATE TRIGGER match_seats_within_table BEFORE INSERT ON match_seats
WHEN NEW.seat >= (SELECT players FROM matches WHERE match_id = NEW.match_id)
BEGIN SELECT RAISE(ABORT, 'seat_out_of_range: the seat is beyond the table'); END;

-- The log: lines only for a running match, in order without gaps; each line bumps the version;
-- nothing is ever changed or removed; the version cannot be set to anything but the log length.
CREATE TRIGGER match_log_insert_check BEFORE INSERT ON match_log
BEGIN
    SELECT RAISE(ABORT, 'match_closed: a finished or abandoned match takes no more actions')
    WHERE (SELECT status FROM matches WHERE match_id = NEW.match_id) <> 'running';
    SELECT RAISE(ABORT, 'log_out_of_order: seq must be the match version + 1')
    WHERE NEW.seq <> (SELECT version + 1 FROM matches WHERE match_id = NEW.match_id);
END;

CREATE TRIGGER match_log_bumps_version AFTER INSERT ON match_log
BEGIN UPDATE matches SET version = NEW.seq WHERE match_id = NEW.match_id; END;

CREATE TRIGGER match_log_no_update BEFORE UPDATE ON match_log
BEGIN SELECT RAISE(ABORT, 'append_only: the match log is never changed'); END;

CREATE TRIGGER match_log_no_delete BEFORE DELETE ON match_log
BEGIN SELECT RAISE(ABORT, 'append_only: the match log is never shortened'); END;

CREATE TRIGGER matches_version_is_log_length BEFORE UPDATE OF version ON matches
WHEN NEW.version <> (SELECT coalesce(max(seq), 0) FROM match_log WHERE match_id = NEW.match_id)
BEGIN SELECT RAISE(ABORT, 'version_mismatch: the version is the number of log lines'); END;

-- Deadlines only for running matches; they go away when the match ends.
CREATE TRIGGER turn_deadlines_running_only BEFORE INSERT ON turn_deadlines
WHEN (SELECT status FROM matches WHERE match_id = NEW.match_id) <> 'running'
BEGIN SELECT RAISE(ABORT, 'match_closed: a finished or abandoned match has no turn deadlines'); END;

CREATE TRIGGER matches_end_clears_deadlines AFTER UPDATE OF status ON matches
WHEN NEW.status <> 'running'
BEGIN DELETE FROM turn_deadlines WHERE match_id = NEW.match_id; END;
"""

_PLAYER_KEY = (
    "player = CASE WHEN user_id IS NOT NULL THEN 'u:' || user_id ELSE 'c:' || computer_level END"
)
_ONE_PLAYER = "(user_id IS NULL) <> (computer_level IS NULL)"
_COUNTERS = """
    deals              INTEGER NOT NULL DEFAULT 0 CHECK (deals >= 0),
    contracts          INTEGER NOT NULL DEFAULT 0 CHECK (contracts >= 0),
    contracts_made     INTEGER NOT NULL DEFAULT 0 CHECK (contracts_made >= 0),
    contracts_failed   INTEGER NOT NULL DEFAULT 0 CHECK (contracts_failed >= 0),
    contract_points    INTEGER NOT NULL DEFAULT 0 CHECK (contract_points >= 0),
    marriages_spades   INTEGER NOT NULL DEFAULT 0 CHECK (marriages_spades >= 0),
    marriages_clubs    INTEGER NOT NULL DEFAULT 0 CHECK (marriages_clubs >= 0),
    marriages_diamonds INTEGER NOT NULL DEFAULT 0 CHECK (marriages_diamonds >= 0),
    marriages_hearts   INTEGER NOT NULL DEFAULT 0 CHECK (marriages_hearts >= 0),
    ace_marriages      INTEGER NOT NULL DEFAULT 0 CHECK (ace_marriages >= 0),
    troyans            INTEGER NOT NULL DEFAULT 0 CHECK (troyans >= 0),
    trilyazhes         INTEGER NOT NULL DEFAULT 0 CHECK (trilyazhes >= 0),
    bolts              INTEGER NOT NULL DEFAULT 0 CHECK (bolts >= 0),
    bolt_penalties     INTEGER NOT NULL DEFAULT 0 CHECK (bolt_penalties >= 0),
    perch_mounted      INTEGER NOT NULL DEFAULT 0 CHECK (perch_mounted >= 0),
    perch_made         INTEGER NOT NULL DEFAULT 0 CHECK (perch_made >= 0),
    perch_fallen       INTEGER NOT NULL DEFAULT 0 CHECK (perch_fallen >= 0),
    golden_bagels      INTEGER NOT NULL DEFAULT 0 CHECK (golden_bagels >= 0),
    dump_trucks        INTEGER NOT NULL DEFAULT 0 CHECK (dump_trucks >= 0),
    concessions        INTEGER NOT NULL DEFAULT 0 CHECK (concessions >= 0),
    throws             INTEGER NOT NULL DEFAULT 0 CHECK (throws >= 0),
    redeals            INTEGER NOT NULL DEFAULT 0 CHECK (redeals >= 0),"""

MIGRATION_2 = f"""
-- Results, statistics and ratings (issue 5). A result is written in the transaction that
-- ends the match (with its last action), so an ended match and its result are stored
-- together or not at all. The status, the winner and the times stay in matches; the
-- deal-by-deal score sheet is not stored: it is recomputed from the log when asked for.
-- Players are keyed by text: 'u:<user id>' for a human, 'c:<level>' for a computer player.

-- One row per ended match that has a result. version = the log lines it was computed from.
CREATE TABLE match_results (
    match_id         INTEGER PRIMARY KEY REFERENCES matches (match_id),
    version          INTEGER NOT NULL CHECK (version >= 0),
    deals            INTEGER NOT NULL CHECK (deals >= 0),
    duration_seconds INTEGER NOT NULL CHECK (duration_seconds >= 0),
    recorded_at      TEXT    NOT NULL
) STRICT;

-- Each seat's outcome. settlement and the rating after the match are set exactly when the
-- match finished (an abandoned match is not rated and settles nothing).
CREATE TABLE match_result_seats (
    match_id    INTEGER NOT NULL REFERENCES match_results (match_id),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player      TEXT    NOT NULL CHECK (player GLOB 'u:*' OR player GLOB 'c:?*'),
    score       INTEGER NOT NULL,
    place       INTEGER NOT NULL CHECK (place BETWEEN 1 AND 4),
    settlement  INTEGER,
    mu_after    REAL,
    sigma_after REAL    CHECK (sigma_after IS NULL OR sigma_after > 0),
    rated_after INTEGER CHECK (rated_after IS NULL OR rated_after >= 1),
    PRIMARY KEY (match_id, seat),
    FOREIGN KEY (match_id, seat) REFERENCES match_seats (match_id, seat),
    CHECK ((mu_after IS NULL) = (sigma_after IS NULL)
           AND (mu_after IS NULL) = (rated_after IS NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX match_result_seats_by_player ON match_result_seats (player, match_id);

-- A player's running totals per game over their finished matches.
CREATE TABLE player_stats (
    player             TEXT    NOT NULL,
    game               TEXT    NOT NULL CHECK (game IN {_GAMES}),
    user_id            INTEGER REFERENCES users (user_id),
    computer_level     TEXT    CHECK (computer_level IS NULL
                                      OR length(computer_level) BETWEEN 1 AND 32),
    matches            INTEGER NOT NULL DEFAULT 0 CHECK (matches >= 0),
    wins               INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    place_1            INTEGER NOT NULL DEFAULT 0 CHECK (place_1 >= 0),
    place_2            INTEGER NOT NULL DEFAULT 0 CHECK (place_2 >= 0),
    place_3            INTEGER NOT NULL DEFAULT 0 CHECK (place_3 >= 0),
    place_4            INTEGER NOT NULL DEFAULT 0 CHECK (place_4 >= 0),
    score_sum          INTEGER NOT NULL DEFAULT 0,
    settlement_sum     INTEGER NOT NULL DEFAULT 0,
    seconds_played     INTEGER NOT NULL DEFAULT 0 CHECK (seconds_played >= 0),{_COUNTERS}
    updated_at         TEXT    NOT NULL,
    PRIMARY KEY (player, game),
    CHECK ({_ONE_PLAYER}),
    CHECK ({_PLAYER_KEY}),
    CHECK (place_1 + place_2 + place_3 + place_4 = matches AND wins = place_1),
    CHECK (contracts_made + contracts_failed = contracts)
) STRICT, WITHOUT ROWID;

CREATE INDEX player_stats_by_user ON player_stats (user_id) WHERE user_id IS NOT NULL;

-- OpenSkill (Plackett-Luce) ratings per player and game; matches = rated seats so far.
CREATE TABLE ratings (
    player         TEXT    NOT NULL,
    game           TEXT    NOT NULL CHECK (game IN {_GAMES}),
    user_id        INTEGER REFERENCES users (user_id),
    computer_level TEXT    CHECK (computer_level IS NULL
                                  OR length(computer_level) BETWEEN 1 AND 32),
    mu             REAL    NOT NULL,
    sigma          REAL    NOT NULL CHECK (sigma > 0),
    matches        INTEGER NOT NULL CHECK (matches >= 0),
    updated_at     TEXT    NOT NULL,
    PRIMARY KEY (player, game),
    CHECK ({_ONE_PLAYER}),
    CHECK ({_PLAYER_KEY})
) STRICT, WITHOUT ROWID;

-- A result only for an ended match, computed from its whole log; results never change.
CREATE TRIGGER match_results_insert_check BEFORE INSERT ON match_results
BEGIN
    SELECT RAISE(ABORT, 'match_running: a result is stored for an ended match only')
    WHERE (SELECT status FROM matches WHERE match_id = NEW.match_id) = 'running';
    SELECT RAISE(ABORT, 'version_mismatch: the result must cover the whole log')
    WHERE NEW.version <> (SELECT version FROM matches WHERE match_id = NEW.match_id);
END;

CREATE TRIGGER match_results_no_update BEFORE UPDATE ON match_results
BEGIN SELECT RAISE(ABORT, 'append_only: a match result is never changed'); END;

CREATE TRIGGER match_results_no_delete BEFORE DELETE ON match_results
BEGIN SELECT RAISE(ABORT, 'append_only: a match result is never removed'); END;

-- A seat's result names the seat's own player, and is settled and rated iff the match
-- finished.
CREATE TRIGGER match_result_seats_insert_check BEFORE INSERT ON match_result_seats
BEGIN
    SELECT RAISE(ABORT, 'wrong_player: the result names another player than the seat')
    WHERE NEW.player IS NOT (
        SELECT CASE WHEN user_id IS NOT NULL THEN 'u:' || user_id
                    ELSE 'c:' || computer_level END
        FROM match_seats WHERE match_id = NEW.match_id AND seat = NEW.seat);
    SELECT RAISE(ABORT, 'wrong_status: a seat is settled and rated iff the match finished')
    FROM (SELECT status = 'finished' AS finished FROM matches WHERE match_id = NEW.match_id)
    WHERE finished <> (NEW.settlement IS NOT NULL) OR finished <> (NEW.mu_after IS NOT NULL);
END;

CREATE TRIGGER match_result_seats_no_update BEFORE UPDATE ON match_result_seats
BEGIN SELECT RAISE(ABORT, 'append_only: a match result is never changed'); END;

CREATE TRIGGER match_result_seats_no_delete BEFORE DELETE ON match_result_seats
BEGIN SELECT RAISE(ABORT, 'append_only: a match result is never removed'); END;
"""

MIGRATION_3 = """
-- The transactional outbox (issue 12): every message a committed change must produce is
-- written in the change's transaction, delivered after the commit and then marked, so that a
-- restart delivers what a crash kept from being shown. One row per message, keyed per chat:
-- 'table:<match>' and 'hand:<match>' are messages edited in place, which keep their row with
-- the version of the state they show and the version last delivered (issue 13: after a
-- restart only the stale ones are redrawn); 'post:...' is a new message and 'ending:<match>'
-- a match's result with its score sheet, both removed once delivered. body is JSON: the
-- text, the keyboard, the message id to edit.
CREATE TABLE outbox (
    chat_id    INTEGER NOT NULL,
    key        TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 64),
    kind       TEXT    NOT NULL CHECK (kind IN ('show', 'post', 'ending')),
    match_id   INTEGER,
    version    INTEGER NOT NULL CHECK (version >= 0),
    delivered  INTEGER CHECK (delivered IS NULL OR delivered BETWEEN 0 AND version),
    body       TEXT    NOT NULL CHECK (json_valid(body)),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (chat_id, key)
) STRICT;

CREATE INDEX outbox_stale ON outbox (match_id) WHERE delivered IS NULL OR delivered < version;
"""

MIGRATION_4 = """
-- A player may switch off the new message that tells them it is their turn (/notify).
ALTER TABLE users ADD COLUMN turn_pings INTEGER NOT NULL DEFAULT 1 CHECK (turn_pings IN (0, 1));
"""

MIGRATIONS: tuple[str, ...] = (MIGRATION_1, MIGRATION_2, MIGRATION_3, MIGRATION_4)
"""``MIGRATIONS[i]`` takes the schema from version ``i`` to ``i + 1``. Append only."""

LATEST_VERSION = len(MIGRATIONS)


def split_statements(script: str) -> list[str]:
    """Split an SQL script into statements (trigger bodies with inner ``;`` stay whole)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    rest = "\n".join(
        line for line in pending.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if rest:
        raise ValueError(f"incomplete SQL statement at the end of a migration: {rest[:80]!r}")
    return statements


async def user_version(conn: aiosqlite.Connection) -> int:
    """The schema version stored in the database header."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise StorageError("PRAGMA user_version returned nothing")
    value = row[0]
    if not isinstance(value, int):
        raise StorageError(f"PRAGMA user_version returned {value!r}")
    return value


async def migrate(
    conn: aiosqlite.Connection,
    path: str,
    migrations: tuple[str, ...] = MIGRATIONS,
) -> int:
    """Bring the database up to ``len(migrations)``; return the version it ends at.

    `conn` must be in autocommit mode (``isolation_level=None``) with no transaction open.
    Each step re-reads the version inside its write transaction, so two processes opening a
    fresh file at once apply each script exactly once.
    """
    latest = len(migrations)
    version = await user_version(conn)
    while True:
        if version > latest:
            raise DatabaseTooNew(path, version, latest)
        if version == latest:
            return version
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await user_version(conn)
            if current == version:
                for statement in split_statements(migrations[version]):
                    await conn.execute(statement)
                async with conn.execute("PRAGMA foreign_key_check") as cursor:
                    broken = await cursor.fetchall()
                if broken:
                    raise StorageError(
                        f"migration {version + 1} leaves foreign keys broken: {list(broken)[:5]}"
                    )
                # PRAGMA takes no parameters; the value is an int we computed.
                await conn.execute(f"PRAGMA user_version = {version + 1:d}")
            await conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await conn.execute("ROLLBACK")
            raise
        version = await user_version(conn)
