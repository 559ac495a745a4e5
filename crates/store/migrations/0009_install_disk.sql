-- A host, and a server group as the default for its hosts, may name the disk to install on:
-- Ironic's root-device hints as a JSON object ({"serial": "…", "size_gb": {"min": …}, …}),
-- checked by the core before it is written. NULL: the default disk. Optional, so records made
-- before (and the seed's API shapes) keep working without one.
ALTER TABLE hosts ADD COLUMN install_disk TEXT;
-- server_groups' column joins the table rebuild in store/lib.rs (allow_every_group_kind).
ALTER TABLE server_groups ADD COLUMN install_disk TEXT;
