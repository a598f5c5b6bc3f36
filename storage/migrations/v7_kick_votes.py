"""Migration 7: /kick votes are stored (issue 17: any process of a database may take the
next vote), not kept with the match in one process's memory."""

MIGRATION_7 = """
-- Who asked with /kick to hand a seat of a running match to a computer player. The seat is
-- handed over (and its votes deleted) once every other human player of the match asked.
CREATE TABLE kick_votes (
    match_id   INTEGER NOT NULL REFERENCES matches (match_id),
    seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    voter_id   INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat, voter_id)
) STRICT;
"""
