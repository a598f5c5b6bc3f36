"""Migration 8: match jobs, which bot process runs a running match's next step that nobody
presses — its turn timer or its computer's move (issue 17: several processes of one
database; `storage.jobs`)."""

MIGRATION_8 = """
-- The process (worker) that runs the match's timer and computer moves, until lease_until:
-- it renews the lease while it lives; once it lapses, any other process may claim the job.
-- One row per running match whose next step is automatic, written with the change that
-- made it so (version: the match's version then). A single process (SQLite) never writes
-- here.
CREATE TABLE match_jobs (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (match_id),
    version     INTEGER NOT NULL CHECK (version >= 0),
    worker      TEXT    NOT NULL,
    lease_until TEXT    NOT NULL CHECK (lease_until GLOB
        '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]Z')
) STRICT;

CREATE INDEX match_jobs_by_lease ON match_jobs (lease_until);
CREATE INDEX match_jobs_by_worker ON match_jobs (worker);

-- Jobs only for running matches; they go away when the match ends.
CREATE TRIGGER match_jobs_running_only BEFORE INSERT ON match_jobs
WHEN (SELECT status FROM matches WHERE match_id = NEW.match_id) <> 'running'
BEGIN SELECT RAISE(ABORT, 'match_closed: a finished or abandoned match has no jobs'); END;

CREATE TRIGGER matches_end_clears_jobs AFTER UPDATE OF status ON matches
WHEN NEW.status <> 'running'
BEGIN DELETE FROM match_jobs WHERE match_id = NEW.match_id; END;
"""
