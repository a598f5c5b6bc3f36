"""Migration 3: the transactional outbox (issue 12)."""

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
