"""Migration 6: the relay, through which the bot processes of one database hand the one that
sends (the leader) what to send (issue 17: several processes of one token)."""

MIGRATION_6 = """
-- What a process that does not send (a follower) wants sent: one row per outbox call (show,
-- post, renew, forget, an ending to announce), in the order it was made; the leader takes
-- the rows in id order and deletes them in the same transaction. body is JSON. A single
-- process (SQLite) never writes here.
CREATE TABLE relay (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    body       TEXT    NOT NULL CHECK (json_valid(body)),
    created_at TEXT    NOT NULL
) STRICT;
"""
