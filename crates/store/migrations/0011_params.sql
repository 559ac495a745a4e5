-- Template parameters (issue 30): network groups, server groups and hosts may carry key/value
-- strings that answer templates read as params.<key>, as a JSON object ({"timezone": "UTC"},
-- a secret as {"enc": "<ciphertext>"}), checked and encrypted by the core before it is
-- written. NULL: none. The global defaults are the settings row 'params'.
ALTER TABLE network_groups ADD COLUMN params TEXT;
ALTER TABLE hosts ADD COLUMN params TEXT;
-- server_groups' column joins the table rebuild in store/lib.rs (allow_every_group_kind).
ALTER TABLE server_groups ADD COLUMN params TEXT;
