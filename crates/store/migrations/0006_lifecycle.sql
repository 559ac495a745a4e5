-- Each host's install lifecycle, kept across restarts. Rows are keyed by host name, as the
-- host list is (it is replaced whole, so there is no stable row to refer to).

-- The last media build of each host: when, a digest of each input it was made from (to tell
-- stale media), and the SHA-256 of the host's callback token (NULL once spent or never made).
CREATE TABLE host_media (
    host       TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
    built_at   TEXT NOT NULL,
    inputs     TEXT NOT NULL,
    token_hash TEXT
);

-- Where each host's install is, and what its installer has fetched so far.
CREATE TABLE host_status (
    host       TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
    state      TEXT NOT NULL,
    since      TEXT NOT NULL,
    detail     TEXT,
    bytes      INTEGER NOT NULL DEFAULT 0,
    files      INTEGER NOT NULL DEFAULT 0,
    last_fetch TEXT
);

-- Every change of state, in order: the host's timeline.
CREATE TABLE host_events (
    host   TEXT NOT NULL COLLATE NOCASE,
    seq    INTEGER NOT NULL,
    at     TEXT NOT NULL,
    state  TEXT NOT NULL,
    detail TEXT,
    PRIMARY KEY (host, seq)
);

-- What was fetched from svc for each host, by whom: one row per (fetcher, file or install
-- tree), with its request count, bytes and the last range asked for.
CREATE TABLE host_access (
    host       TEXT NOT NULL COLLATE NOCASE,
    peer       TEXT NOT NULL,
    what       TEXT NOT NULL,
    first_at   TEXT NOT NULL,
    last_at    TEXT NOT NULL,
    requests   INTEGER NOT NULL,
    bytes      INTEGER NOT NULL,
    last_range TEXT,
    PRIMARY KEY (host, peer, what)
);

-- What a finished install of an OS and role fetched, the yardstick of the next one's progress.
CREATE TABLE install_sizes (
    os    TEXT NOT NULL,
    role  TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    files INTEGER NOT NULL,
    PRIMARY KEY (os, role)
);
