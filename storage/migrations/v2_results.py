"""Migration 2: match results, per-seat outcomes, players' totals and ratings (issue 5)."""

from storage.migrations.v1_schema import GAMES_SQL

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
    game               TEXT    NOT NULL CHECK (game IN {GAMES_SQL}),
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
    game           TEXT    NOT NULL CHECK (game IN {GAMES_SQL}),
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
