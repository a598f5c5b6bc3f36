"""PostgreSQL migration 9, the twin of `storage.migrations.v9_shared_screens`: a lobby's open
settings screen stored, users and chats indexed by the time they changed."""

MIGRATION_9 = """
ALTER TABLE lobbies ADD COLUMN settings_open bigint NOT NULL DEFAULT 0
    CHECK (settings_open IN (0, 1));

CREATE INDEX users_by_update ON users (updated_at);
CREATE INDEX chats_by_update ON chats (updated_at);
"""
