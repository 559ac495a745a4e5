-- Every record Bootsmith keeps. Names are the keys other records refer to, so
-- renames cascade and deletes of referenced groups are refused by the schema
-- as a backstop to the service-level checks.

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE ssh_keys (
    position INTEGER PRIMARY KEY,
    key      TEXT NOT NULL UNIQUE
);

CREATE TABLE iso_map (
    file TEXT PRIMARY KEY,
    os   TEXT NOT NULL UNIQUE
);

CREATE TABLE server_groups (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    kind         TEXT NOT NULL CHECK (kind IN ('ucsm', 'imc')),
    address      TEXT NOT NULL,
    username     TEXT NOT NULL,
    password_enc TEXT NOT NULL,
    vlan         TEXT
);

CREATE TABLE server_group_servers (
    group_id TEXT NOT NULL REFERENCES server_groups(id) ON DELETE CASCADE,
    kind     TEXT NOT NULL CHECK (kind IN ('blade', 'rack')),
    server   TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (group_id, kind, server)
);

CREATE TABLE network_groups (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    netmask    TEXT NOT NULL,
    gateway    TEXT NOT NULL,
    nameserver TEXT NOT NULL,
    ntpserver  TEXT NOT NULL,
    proxy      TEXT,
    vlan       TEXT
);

CREATE TABLE hosts (
    name                     TEXT PRIMARY KEY COLLATE NOCASE,
    position                 INTEGER NOT NULL,
    ip                       TEXT NOT NULL UNIQUE,
    os                       TEXT NOT NULL,
    role                     TEXT NOT NULL,
    network_group            TEXT NOT NULL
        REFERENCES network_groups(name) ON UPDATE CASCADE ON DELETE RESTRICT,
    server_group             TEXT
        REFERENCES server_groups(name) ON UPDATE CASCADE ON DELETE RESTRICT,
    service_profile_template TEXT,
    server                   TEXT
);

CREATE TABLE aci_instances (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    address       TEXT NOT NULL,
    username      TEXT NOT NULL,
    password_enc  TEXT NOT NULL,
    tenant_name   TEXT NOT NULL,
    vrf_name      TEXT NOT NULL,
    bridge_domain TEXT NOT NULL
);
