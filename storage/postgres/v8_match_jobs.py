"""PostgreSQL migration 8, the twin of `storage.migrations.v8_match_jobs`: match jobs (which
process runs a match's turn timer and computer moves, `storage.jobs`).

Unlike SQLite's (a single process never uses the table), it gives every match running at
the upgrade a job whose lease has lapsed, so the first process up claims each and sets it
going."""

from __future__ import annotations

from storage.postgres.ddl import TIME, refuse

MIGRATION_8 = f"""
CREATE TABLE match_jobs (
    match_id    bigint PRIMARY KEY REFERENCES matches (match_id),
    version     bigint NOT NULL CHECK (version >= 0),
    worker      text   NOT NULL,
    lease_until text   NOT NULL CHECK (lease_until ~ {TIME})
);

CREATE INDEX match_jobs_by_lease ON match_jobs (lease_until);
CREATE INDEX match_jobs_by_worker ON match_jobs (worker);
{refuse("match_jobs_running_only", "BEFORE INSERT", "match_jobs",
        "(SELECT status FROM matches WHERE match_id = NEW.match_id) <> 'running'",
        "match_closed: a finished or abandoned match has no jobs")}

CREATE FUNCTION matches_end_clears_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status <> 'running' THEN
        DELETE FROM match_jobs WHERE match_id = NEW.match_id;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER matches_end_clears_jobs AFTER UPDATE OF status ON matches
    FOR EACH ROW EXECUTE FUNCTION matches_end_clears_jobs();

INSERT INTO match_jobs (match_id, version, worker, lease_until)
SELECT match_id, version, '', '1970-01-01T00:00:00.000000Z' FROM matches
WHERE status = 'running';
"""
