-- The managed objects a deploy created, per server group: a re-run removes the ones it no
-- longer wants (a host left the group, a server was deselected), and an undeploy removes
-- exactly these. Objects we did not create are never recorded, so never removed.
CREATE TABLE deployed_objects (
    server_group TEXT NOT NULL REFERENCES server_groups (id) ON DELETE CASCADE,
    dn           TEXT NOT NULL,
    class        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (server_group, dn)
);
