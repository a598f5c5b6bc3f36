"""Migration 5: a forum supergroup runs one game per topic.

Lobbies and matches get the topic they live in (``topic_id``: the topic's
``message_thread_id``; 0 for a group without topics and for a forum's General topic), and
"one game per group chat" becomes "one game per place": per chat and topic, across the two
tables as before.
"""

MIGRATION_5 = """
ALTER TABLE lobbies ADD COLUMN topic_id INTEGER NOT NULL DEFAULT 0 CHECK (topic_id >= 0);
ALTER TABLE matches ADD COLUMN topic_id INTEGER NOT NULL DEFAULT 0 CHECK (topic_id >= 0);

DROP INDEX lobbies_one_open_per_chat;
CREATE UNIQUE INDEX lobbies_one_open_per_place ON lobbies (chat_id, topic_id)
WHERE status = 'open';
DROP INDEX matches_one_running_per_chat;
CREATE UNIQUE INDEX matches_one_running_per_place ON matches (chat_id, topic_id)
WHERE status = 'running';

DROP TRIGGER lobbies_chat_busy_insert;
DROP TRIGGER lobbies_chat_busy_move;
DROP TRIGGER matches_chat_busy_insert;
DROP TRIGGER matches_chat_busy_move;

-- One game per place, across the two tables: no open lobby while a match runs in the same
-- topic and no running match while a lobby is open there.
CREATE TRIGGER lobbies_place_busy_insert BEFORE INSERT ON lobbies
WHEN NEW.status = 'open'
 AND EXISTS (SELECT 1 FROM matches WHERE chat_id = NEW.chat_id AND topic_id = NEW.topic_id
             AND status = 'running')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has a running match'); END;

CREATE TRIGGER lobbies_place_busy_move BEFORE UPDATE OF chat_id, topic_id ON lobbies
WHEN NEW.status = 'open'
 AND EXISTS (SELECT 1 FROM matches WHERE chat_id = NEW.chat_id AND topic_id = NEW.topic_id
             AND status = 'running')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has a running match'); END;

CREATE TRIGGER matches_place_busy_insert BEFORE INSERT ON matches
WHEN NEW.status = 'running'
 AND EXISTS (SELECT 1 FROM lobbies WHERE chat_id = NEW.chat_id AND topic_id = NEW.topic_id
             AND status = 'open')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has an open lobby'); END;

CREATE TRIGGER matches_place_busy_move BEFORE UPDATE OF chat_id, topic_id ON matches
WHEN NEW.status = 'running'
 AND EXISTS (SELECT 1 FROM lobbies WHERE chat_id = NEW.chat_id AND topic_id = NEW.topic_id
             AND status = 'open')
BEGIN SELECT RAISE(ABORT, 'chat_busy: the chat already has an open lobby'); END;
"""
