"""Migration 9: what one bot process showed or changed, for the others of the database
(issue 17): whether a lobby's message shows its creator's settings screen (any process may
take the next press of it), and users and chats by the time they changed (each process
re-reads those its cache holds, so a /lang taken by one reaches the others)."""

MIGRATION_9 = """
-- The lobby's message shows the settings screen (1) or the seats (0).
ALTER TABLE lobbies ADD COLUMN settings_open INTEGER NOT NULL DEFAULT 0
    CHECK (settings_open IN (0, 1));

CREATE INDEX users_by_update ON users (updated_at);
CREATE INDEX chats_by_update ON chats (updated_at);
"""
