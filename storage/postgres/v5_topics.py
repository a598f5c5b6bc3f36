"""PostgreSQL migration 5, the twin of `storage.migrations.v5_topics`: one game per chat and
forum topic (lobbies and matches get ``topic_id``; the one-game indexes and triggers are per
place)."""

from __future__ import annotations

from storage.postgres.ddl import refuse


def _place_busy(name: str, event: str, table: str) -> str:
    """One game per chat and topic across lobbies and matches (migration 5)."""
    lobby = table == "lobbies"
    mine, other, status = (
        ("open", "matches", "running") if lobby else ("running", "lobbies", "open")
    )
    what = "a running match" if lobby else "an open lobby"
    return refuse(
        name, event, table,
        f"NEW.status = '{mine}' AND EXISTS (SELECT 1 FROM {other} WHERE chat_id = NEW.chat_id "
        f"AND topic_id = NEW.topic_id AND status = '{status}')",
        f"chat_busy: the chat already has {what}",
    )


MIGRATION_5 = f"""
ALTER TABLE lobbies ADD COLUMN topic_id bigint NOT NULL DEFAULT 0 CHECK (topic_id >= 0);
ALTER TABLE matches ADD COLUMN topic_id bigint NOT NULL DEFAULT 0 CHECK (topic_id >= 0);
DROP INDEX lobbies_one_open_per_chat;
CREATE UNIQUE INDEX lobbies_one_open_per_place ON lobbies (chat_id, topic_id)
WHERE status = 'open';
DROP INDEX matches_one_running_per_chat;
CREATE UNIQUE INDEX matches_one_running_per_place ON matches (chat_id, topic_id)
WHERE status = 'running';
DROP TRIGGER lobbies_chat_busy_insert ON lobbies;
DROP FUNCTION lobbies_chat_busy_insert();
DROP TRIGGER lobbies_chat_busy_move ON lobbies;
DROP FUNCTION lobbies_chat_busy_move();
DROP TRIGGER matches_chat_busy_insert ON matches;
DROP FUNCTION matches_chat_busy_insert();
DROP TRIGGER matches_chat_busy_move ON matches;
DROP FUNCTION matches_chat_busy_move();
{_place_busy("lobbies_place_busy_insert", "BEFORE INSERT", "lobbies")}
{_place_busy("lobbies_place_busy_move", "BEFORE UPDATE OF chat_id, topic_id", "lobbies")}
{_place_busy("matches_place_busy_insert", "BEFORE INSERT", "matches")}
{_place_busy("matches_place_busy_move", "BEFORE UPDATE OF chat_id, topic_id", "matches")}
"""
