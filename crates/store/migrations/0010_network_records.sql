-- A network group may add what a data centre's network needs (issue 29): the MTU (bytes), a
-- bond of the hosts' NICs ({"mode": …, "lacp_rate": …, "xmit_hash_policy": …} as JSON), static
-- routes ([{"to": …, "via": …}] as JSON) and an IPv6 gateway. A host may name its NICs' MACs
-- (a JSON list, lower case with colons) and a static IPv6 address with its prefix. All are
-- checked by the core before they are written; NULL is today's behaviour, so records made
-- before (and the seed's API shapes) keep working without them.
ALTER TABLE network_groups ADD COLUMN mtu INTEGER;
ALTER TABLE network_groups ADD COLUMN bond TEXT;
ALTER TABLE network_groups ADD COLUMN routes TEXT;
ALTER TABLE network_groups ADD COLUMN ipv6_gateway TEXT;
ALTER TABLE hosts ADD COLUMN macs TEXT;
ALTER TABLE hosts ADD COLUMN ipv6 TEXT;
