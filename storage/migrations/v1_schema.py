"""Migration 1: the schema of the first release — users, chats, lobbies and their seats,
matches with their seats and action log, turn deadlines, and the triggers that keep one game
per group chat, an append-only gap-free log and forward-only statuses.

Released SQL is history: this text never changes. The game names in ``GAMES_SQL`` are those
of the engine's `Game` when it was written (tests/storage/test_migrations.py checks they
still are); a new game would come with a migration of its own.
"""

GAMES_SQL = "('thousand', 'thousand-one', 'tumbochka')"
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
    game         TEXT    NOT NULL CHECK (game IN {GAMES_SQL}),
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
    game             TEXT    NOT NULL CHECK (game IN {GAMES_SQL}),
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
