-- Background jobs, kept across restarts: each job's summary, result and error, and the
-- events it reported (steps, the last byte progress of each step, the end), in order. A job
-- still `running` when the process starts was cut off by its end: it is marked interrupted.
CREATE TABLE jobs (
    id          TEXT PRIMARY KEY NOT NULL,
    kind        TEXT NOT NULL,
    scope       TEXT,
    state       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    finished_at TEXT,
    result      TEXT,
    error       TEXT
);
CREATE INDEX jobs_created_at ON jobs (created_at);

CREATE TABLE job_events (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    event  TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
);
