"""Migration 4: a player may switch off their turn pings (/notify)."""

MIGRATION_4 = """
-- A player may switch off the new message that tells them it is their turn (/notify).
ALTER TABLE users ADD COLUMN turn_pings INTEGER NOT NULL DEFAULT 1 CHECK (turn_pings IN (0, 1));
"""
