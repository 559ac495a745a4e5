-- A Redfish group may name several BMCs (one server each): the first is kept in the login
-- columns, as every group's is; the others, as a JSON list of {ip, user, password_enc,
-- insecure, fingerprint}. The type `redfish` joins the kind CHECK in store/mod.rs (SQLite
-- rebuilds a table for that, which cannot run in a migration's transaction).
ALTER TABLE server_groups ADD COLUMN bmcs TEXT;
