-- How to trust a manager's certificate: a pinned SHA-256 fingerprint the
-- operator accepted, or an explicit switch to skip verification.
ALTER TABLE server_groups ADD COLUMN insecure INTEGER NOT NULL DEFAULT 0;
ALTER TABLE server_groups ADD COLUMN fingerprint TEXT;
