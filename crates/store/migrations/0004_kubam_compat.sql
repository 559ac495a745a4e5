-- What KUBAM clients send with a server group and read back: free text for people, and the
-- UCS org DN that deploys work under (none: the default org setting, else org-root). The type
-- `ucsc` joins the kind CHECK in store.rs (SQLite rebuilds a table for that, which cannot run
-- in a migration's transaction).
ALTER TABLE server_groups ADD COLUMN description TEXT;
ALTER TABLE server_groups ADD COLUMN org TEXT;
